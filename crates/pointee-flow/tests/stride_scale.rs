//! Pointer arithmetic by a struct's size over an object of another struct
//! type (issue 10, Lua's `ltable.c`). Imprecision upstream (a `void *`
//! merge, an entry's pool, a symbolic name standing for several objects)
//! can make a `struct node *` point to an object of an unrelated type;
//! `n + k` then landed on every member of that object, each a target of
//! its own, and every store through the result wrote all of them: the
//! states grew with the members of every struct met that way (`ltable.c`'s
//! `Node *` steps over `Table` and `lua_State` names made every member
//! point to every member, past 4 GB). A step by whole `struct node`s lands
//! on members only of an object that may hold a `struct node` (C11 6.5p7:
//! an object is accessed through lvalues of its own type or of a type
//! holding it).

use pointee_ir::{Basic, Point, Rvalue};
use std::fmt::Write;

/// A `struct big` of `members` pointer members, and a `struct node *`
/// that may point to it through a `void *` merge, stepped in a loop.
fn program(members: usize) -> String {
    let mut s = String::from("struct node { struct node *next; int *data; };\nstruct big {");
    for i in 0..members {
        let _ = write!(s, " int *m{i};");
    }
    s.push_str(
        " };
struct holder { int tag; struct node inner[2]; };
int x;
struct big b;
struct node nodes[4];
struct holder h;
struct node *walk(int c, int k) {
    void *v = c ? (void *)&b : (void *)&nodes[0];
    struct node *n = v;
    while (k-- > 0) {
        n = n + 1;
        n->data = &x;
    }
    return n;
}
struct node *inside(void) {
    struct node *e = (struct node *)&h;
    e = e + 1;
    return e;
}
int main(void) {
    walk(0, 2);
    inside();
    return 0;
}
",
    );
    s
}

/// The targets of the pointer the function's `n = n + 1`-like statement
/// assigns, after it.
fn stepped(a: &mut pointee_flow::Analysis, p: &pointee_ir::Program, func: &str) -> String {
    let f = p.functions.iter().find(|f| &*f.name == func).unwrap();
    let mut at = None;
    pointee_ir::for_each_basic(&f.body, &mut |id, b| {
        if let Basic::Assign {
            lhs,
            rhs: Rvalue::Offset(..),
        } = b
        {
            at = Some((id, lhs.clone()));
        }
    });
    let (id, lhs) = at.expect("an offset");
    let per = a.values_at(func, Point::After(id), &Rvalue::Use(lhs));
    let merged = pointee_flow::Analysis::merge_values(&per).unwrap_or_default();
    a.render_set(&merged)
}

#[test]
fn a_struct_sized_step_lands_on_no_member_of_an_unrelated_struct() {
    let text = program(6);
    let lowered = pointee_c::lower(&[("s.c", &text)]).unwrap();
    let p = &lowered.program;
    let mut a = pointee_flow::analyze(p, pointee_flow::Settings::default());
    // `b` stays a target (possibly: the merge put it there), but none of
    // its members; the array's elements are reached as always.
    assert_eq!(stepped(&mut a, p, "walk"), "{b P, nodes[+] P}");
    // An object that holds the struct (`h.inner[..]`, at an offset the
    // engine does not know) is still stepped into, member by member.
    let inside = stepped(&mut a, p, "inside");
    for m in ["h.inner", "h.tag"] {
        assert!(inside.contains(m), "{m} in {inside}");
    }
}

#[test]
fn the_state_does_not_grow_with_an_unrelated_structs_members() {
    let exit_facts = |members: usize| {
        let text = program(members);
        let lowered = pointee_c::lower(&[("s.c", &text)]).unwrap();
        let a = pointee_flow::analyze(&lowered.program, pointee_flow::Settings::default());
        let stats = a.stats();
        let get = |k: &str| stats.iter().find(|s| s.0 == k).unwrap().1;
        get("exit facts possible") + get("exit facts definite")
    };
    // Before: every member of `b` was a target of `n` and got `&x`
    // stored into it: 134 exit facts with 40 members against 26 with 4.
    assert_eq!(exit_facts(4), exit_facts(40));
}
