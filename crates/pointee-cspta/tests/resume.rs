//! A solve after an edit (`Analysis::resume`) gives exactly what a fresh
//! solve of the edited program gives, on chains of random edits of random
//! programs: statements added to and removed from method bodies (as a user
//! types), each solve going on from the one before.

mod common;

use common::gen;
use pointee_cspta::{Analysis, Resumed, Variant};
use pointee_java::JavaProgram;

/// The places in `lines` where a statement may be added (after the
/// declarations of the locals `a..d`, before the `return`) and the lines
/// that are statements which may be removed.
fn places(lines: &[String]) -> (Vec<usize>, Vec<usize>) {
    let (mut add, mut remove) = (Vec::new(), Vec::new());
    let mut in_body = false;
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with("    }") {
            in_body = false;
        }
        if in_body && l.starts_with("        ") {
            add.push(i);
            if !l.trim_start().starts_with("return") {
                remove.push(i);
            }
        }
        if l.trim() == "Base d = null;" {
            in_body = true;
        }
    }
    (add, remove)
}

/// A statement over the locals of every generated body.
fn statement(r: &mut gen::Rng, classes: usize) -> String {
    let l = ["a", "b", "c", "d"];
    let (x, y) = (l[r.below(4)], l[r.below(4)]);
    match r.below(9) {
        0 => format!("{x} = new C{}();", r.below(classes)),
        1 => format!("{x} = {y};"),
        2 => format!("{x} = {y}.f{};", r.below(3)),
        3 => format!("{x}.f{} = {y};", r.below(3)),
        4 => format!("{x} = {y}.m{}({});", r.below(3), l[r.below(4)]),
        5 => format!("{x} = Main.s{}({y});", r.below(2)),
        6 => format!("{x} = (C{}) {y};", r.below(classes)),
        7 => format!("Main.G = {y};"),
        _ => format!("Main.ARR[0] = {y};"),
    }
}

fn lower(lines: &[String]) -> JavaProgram {
    pointee_java::lower(&[("Main.java", &lines.join("\n"))])
}

/// Resumes `a` (the solve of `jp`) for `next` under `v`, checks that the
/// result is a fresh solve's (every fact, and the figures but the pointer
/// nodes, which include the old ones an edit renumbered), and gives it
/// with how it went; `what` names the edit in a failure.
fn resumed_as_fresh(
    a: &Analysis,
    jp: &JavaProgram,
    next: &JavaProgram,
    v: Variant,
    what: &str,
) -> (Analysis, Resumed) {
    let roots = common::roots(next);
    let (b, how) = Analysis::resume(a, &jp.program, &next.program, &roots, v, None).unwrap();
    let fresh = Analysis::run(&next.program, &roots, v);
    let (ours, theirs) = (b.facts_text(), fresh.facts_text());
    let extra: Vec<_> = ours.difference(&theirs).take(3).collect();
    let missing: Vec<_> = theirs.difference(&ours).take(3).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{what} ({how:?}): extra {extra:?} missing {missing:?}"
    );
    let (mut s1, mut s2) = (b.stats(), fresh.stats());
    s1.pointers = 0;
    s2.pointers = 0;
    assert_eq!(s1, s2, "{what} ({how:?})");
    (b, how)
}

/// How the edits of a chain went.
#[derive(Default)]
struct Went {
    added: usize,
    /// Added statements that went on from the previous solution.
    continued: usize,
    removed: usize,
    /// Removed statements that went on from it (`Resumed::Retracted`).
    retracted: usize,
}

/// Runs `edits` random edits on the program of `seed` under `variant`,
/// each solve resumed from the one before.
fn chain(seed: u64, variant: &str, edits: usize, went: &mut Went) {
    let classes = 2 + (seed as usize % 4);
    let text = gen::random(seed, classes, 6 + (seed as usize % 3) * 3);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut r = gen::Rng::new(seed ^ 0xED17);
    let v = Variant::parse(variant).unwrap();
    let mut jp = lower(&lines);
    let mut a = Analysis::run(&jp.program, &common::roots(&jp), v);
    for step in 0..edits {
        let (add, remove) = places(&lines);
        let adds = remove.is_empty() || r.chance(70);
        let what = if adds {
            let at = add[r.below(add.len())];
            let s = format!("        {}", statement(&mut r, classes));
            lines.insert(at, s.clone());
            format!("add `{}` at line {}", s.trim(), at + 1)
        } else {
            let at = remove[r.below(remove.len())];
            let s = lines.remove(at);
            format!("remove `{}` at line {}", s.trim(), at + 1)
        };
        let next = lower(&lines);
        let (b, how) = resumed_as_fresh(
            &a,
            &jp,
            &next,
            v,
            &format!("seed {seed} [{variant}] step {step} ({what})"),
        );
        if adds {
            went.added += 1;
            if matches!(how, Resumed::Continued { .. }) {
                went.continued += 1;
            } else {
                eprintln!("seed {seed} [{variant}] step {step} ({what}): {how:?}");
            }
        } else {
            went.removed += 1;
            went.retracted += usize::from(matches!(how, Resumed::Retracted { .. }));
        }
        jp = next;
        a = b;
    }
}

#[test]
fn resumed_solves_equal_fresh_ones_after_random_edits() {
    let mut went = Went::default();
    for seed in 0..24u64 {
        for v in ["ci", "1-call", "2-obj", "2-type"] {
            chain(seed, v, 6, &mut went);
        }
    }
    // An added statement adds facts only: every such solve goes on from
    // the previous solution, also when the statement made temporaries
    // before older ones (which then have other numbers).
    let Went {
        added,
        continued,
        removed,
        retracted,
    } = went;
    assert_eq!(
        continued, added,
        "{continued} of {added} added statements continued"
    );
    // A removed statement goes on when it made no object and no call, and
    // what it reached is no call's receiver (nor `this`, nor the library
    // heap): in these programs 64 of the 156.
    assert_eq!(
        (retracted, removed),
        (64, 156),
        "removed statements that retracted, of all removed"
    );
}

#[test]
fn a_removed_statement_solves_from_scratch_and_an_unchanged_program_continues() {
    let text = gen::random(3, 4, 9);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let jp = lower(&lines);
    let roots = common::roots(&jp);
    let v = Variant::default();
    let a = Analysis::run(&jp.program, &roots, v);
    let (b, how) = Analysis::resume(&a, &jp.program, &jp.program, &roots, v, None).unwrap();
    assert_eq!(how, Resumed::Continued { edited_methods: 0 });
    assert_eq!(b.facts_text(), a.facts_text());
    let (_, remove) = places(&lines);
    // A `new` removed: an allocation site is gone.
    let at = *remove
        .iter()
        .find(|&&i| lines[i].contains("new C"))
        .expect("the program allocates");
    lines.remove(at);
    let next = lower(&lines);
    let (c, how) = Analysis::resume(&a, &jp.program, &next.program, &roots, v, None).unwrap();
    assert!(matches!(how, Resumed::Fresh(_)), "{how:?}");
    assert_eq!(
        c.facts_text(),
        Analysis::run(&next.program, &roots, v).facts_text()
    );
    // Another variant is another analysis.
    let ci = Variant::parse("ci").unwrap();
    let (_, how) = Analysis::resume(&a, &jp.program, &jp.program, &roots, ci, None).unwrap();
    assert_eq!(how, Resumed::Fresh("another context sensitivity"));
}

/// An added load, store and call on variables that already hold objects:
/// the resumed solve applies them to those objects (the worklist alone
/// would not, since the variables get nothing new).
#[test]
fn added_uses_of_old_objects_are_applied() {
    let before = "\
public class Main {
    Object f;
    Object get() { return f; }
    public static void main(String[] args) {
        Main m = new Main();
        Object o = new Object();
        Object x = null;
        Object y = null;
    }
}
";
    let after = before.replace(
        "        Object y = null;\n",
        "        Object y = null;\n        m.f = o;\n        x = m.f;\n        y = m.get();\n",
    );
    for v in ["ci", "2-obj", "1-call"] {
        let v = Variant::parse(v).unwrap();
        let jp = pointee_java::lower(&[("Main.java", before)]);
        let next = pointee_java::lower(&[("Main.java", &after)]);
        let roots = common::roots(&jp);
        let a = Analysis::run(&jp.program, &roots, v);
        let (b, how) = Analysis::resume(&a, &jp.program, &next.program, &roots, v, None).unwrap();
        assert_eq!(how, Resumed::Continued { edited_methods: 1 });
        let fresh = Analysis::run(&next.program, &roots, v);
        assert_eq!(b.facts_text(), fresh.facts_text());
        let main = b.method("Main.main(String[])").unwrap();
        let mc = b.contexts_of(main)[0];
        let f = next.program.function("Main.main(String[])").unwrap();
        let var = |n: &str| f.vars.iter().position(|x| &*x.name == n).unwrap() as u32;
        for n in ["x", "y"] {
            let objs: Vec<String> = b.var_pts(mc, var(n)).iter().map(|o| b.obj_key(o)).collect();
            assert_eq!(objs.len(), 1, "{n}: {objs:?}");
        }
    }
}

/// A removed statement that made no object and no call goes on from the
/// previous solution (`Resumed::Retracted`): the nodes it reached are
/// emptied and filled again, and the result is a fresh solve's. Where
/// what it reached is a call's receiver, the call graph might shrink: a
/// fresh solve.
#[test]
fn a_removed_assignment_retracts_what_it_reached() {
    let with = "\
public class Main {
    static Object G;
    Object f;
    Object get() { return f; }
    public static void main(String[] args) {
        Main m = new Main();
        Main n = new Main();
        Main p = m;
        Object o = new Object();
        Object x = null;
        Object added = null;
        m.f = o;
        x = m.f;
        added = G;
        G = x;
        p = n;
        Object z = p.get();
    }
}
";
    // The line removed, and how many nodes that empties (`None`: a fresh solve).
    let cases = [
        // `added` loses what it read from `G`.
        ("        added = G;\n", Some(1)),
        // `G` loses `o`; `added`, which reads it, too.
        ("        G = x;\n", Some(2)),
        // `x` and what it flows to (`G`, `added`).
        ("        x = m.f;\n", Some(3)),
        // The field `f` of `m`'s object, and what reads it: `x`, `G`,
        // `added`, and through `get()` on that object its `ret` and `z`.
        ("        m.f = o;\n", Some(6)),
        // `p` may lose `n`'s object, and `get()` is called on it.
        ("        p = n;\n", None),
    ];
    for name in ["ci", "2-obj", "1-call"] {
        let v = Variant::parse(name).unwrap();
        let jp = pointee_java::lower(&[("Main.java", with)]);
        let roots = common::roots(&jp);
        let a = Analysis::run(&jp.program, &roots, v);
        for (line, emptied) in cases {
            let next = pointee_java::lower(&[("Main.java", &with.replace(line, ""))]);
            let (b, how) =
                Analysis::resume(&a, &jp.program, &next.program, &roots, v, None).unwrap();
            match emptied {
                Some(n) => assert_eq!(
                    how,
                    Resumed::Retracted {
                        edited_methods: 1,
                        emptied_nodes: n
                    },
                    "{name}: {line}"
                ),
                None => assert!(matches!(how, Resumed::Fresh(_)), "{name}: {line}: {how:?}"),
            }
            let fresh = Analysis::run(&next.program, &roots, v);
            assert_eq!(b.facts_text(), fresh.facts_text(), "{name}: {line}");
        }
    }
}

/// A field added to or removed from a class (static or not, with its
/// initialiser or without) changes no class fact: the solve goes on from
/// the last one, and equals a fresh one.
#[test]
fn a_field_added_or_removed_goes_on_from_the_last_solve() {
    let before = "\
public class Main {
    Object f;
    static Object SHARED = new Object();
    Object get() { return f; }
    public static void main(String[] args) {
        Main m = new Main();
        m.f = SHARED;
        Object x = m.get();
    }
}
";
    let edits = [
        ("    Object f;\n", "    Object f;\n    Object g;\n", 0),
        (
            "    Object f;\n",
            "    Object f;\n    static Object ADDED;\n",
            0,
        ),
        (
            "    Object f;\n",
            "    Object f;\n    static Object ADDED = new Main();\n",
            1,
        ),
        (
            "    Object f;\n",
            "    Object f;\n    Object g = new Object();\n",
            1,
        ),
    ];
    for v in ["ci", "2-obj", "1-call"] {
        let v = Variant::parse(v).unwrap();
        for (anchor, with, edited) in edits {
            let after = before.replace(anchor, with);
            let (jp, next) = (
                pointee_java::lower(&[("Main.java", before)]),
                pointee_java::lower(&[("Main.java", &after)]),
            );
            assert_ne!(jp.program.classes, next.program.classes);
            let roots = common::roots(&jp);
            assert_eq!(roots, common::roots(&next));
            // Added, then removed again.
            for (from, to) in [(&jp, &next), (&next, &jp)] {
                let a = Analysis::run(&from.program, &roots, v);
                let (b, how) =
                    Analysis::resume(&a, &from.program, &to.program, &roots, v, None).unwrap();
                let fresh = Analysis::run(&to.program, &roots, v);
                assert_eq!(b.facts_text(), fresh.facts_text(), "{with:?} {how:?}");
                if std::ptr::eq(from, &jp) {
                    assert_eq!(
                        how,
                        Resumed::Continued {
                            edited_methods: edited
                        },
                        "{with:?}"
                    );
                } else {
                    // Removing a `new` solves from scratch (the call graph
                    // and heap may shrink), the rest retracts.
                    let fresh_expected = with.contains("new ");
                    assert_eq!(
                        matches!(how, Resumed::Fresh(_)),
                        fresh_expected,
                        "{with:?} {how:?}"
                    );
                }
            }
        }
    }
}

/// Resumes from the solve of `from` to `to` under `variant`, checks the
/// result is a fresh solve's, and gives how it went.
fn resume_checked(from: &str, to: &str, variant: &str) -> Resumed {
    let v = Variant::parse(variant).unwrap();
    let (jp, next) = (
        pointee_java::lower(&[("Main.java", from)]),
        pointee_java::lower(&[("Main.java", to)]),
    );
    let a = Analysis::run(&jp.program, &common::roots(&jp), v);
    resumed_as_fresh(&a, &jp, &next, v, &format!("[{variant}]\n{to}")).1
}

/// Methods and classes added go on from the last solve when nothing the
/// old solution used changes: the old ids are renamed by name. Removed
/// again, they go on when the old solution never reached them; a removed
/// method it reached, a dispatch that now goes elsewhere or a supertype
/// changed solve from scratch. Each result equals a fresh solve.
#[test]
fn methods_and_classes_added_or_removed_go_on_when_they_may() {
    let before = "\
public class Main {
    Object f;
    static Object SHARED;
    Object get() { return f; }
    public static void main(String[] args) {
        Main m = new Sub();
        m.f = \"s\";
        Object x = m.get();
        Object y = x;
    }
}
class Sub extends Main {
}
";
    let continued = |n| Resumed::Continued { edited_methods: n };
    let fresh = |why| Resumed::Fresh(why);
    // (anchor, replacement, how adding goes, how removing it again goes)
    let cases: Vec<(&str, &str, Resumed, Resumed)> = vec![
        // A static method nothing calls: no fact of the old solution
        // changes; nothing reached it, so its removal goes on too.
        (
            "    Object get()",
            "    static Object id(Object o) { return o; }\n    Object get()",
            continued(0),
            continued(0),
        ),
        // Called from `main` (an edited method that gains facts); removed
        // with its call, it was reached: from scratch.
        (
            "        Object y = x;\n",
            "        Object y = x;\n        Object z = id(x);\n    }\n    static Object id(Object o) { return o;\n",
            continued(1),
            fresh("a method the last solve reached is gone"),
        ),
        // A class no object of the old solution has, overriding `get`.
        (
            "class Sub extends Main {\n}\n",
            "class Sub extends Main {\n}\nclass Other extends Main {\n    Object get() { return this; }\n}\n",
            continued(0),
            continued(0),
        ),
        // Made and called in `main`.
        (
            "        Object y = x;\n",
            "        Object y = x;\n        Object z = new Other().get();\n    }\n}\nclass Other {\n    Object get() { return this; }\n    static void unused() {\n",
            continued(1),
            fresh("a method the last solve reached is gone"),
        ),
        // `Sub` overrides `get`, which `m.get()` dispatched to `Main`'s.
        (
            "class Sub extends Main {\n",
            "class Sub extends Main {\n    Object get() { return null; }\n",
            fresh("a call dispatches to another method"),
            fresh("a method the last solve reached is gone"),
        ),
        // A static initialiser where `Main` had none: `main` initialises
        // `Main`, so it runs; removed, it was reached.
        (
            "    static Object SHARED;\n",
            "    static Object SHARED = new Object();\n",
            continued(0),
            fresh("a method the last solve reached is gone"),
        ),
        // A new literal in a new method: the file's literal pool (a
        // reached root) gains it.
        (
            "    Object get()",
            "    static Object name() { return \"extra\"; }\n    Object get()",
            continued(1),
            fresh("a reached method lost facts while declarations changed"),
        ),
        // A supertype changed: from scratch both ways.
        (
            "class Sub extends Main {\n}\n",
            "class Sub extends Main implements Runnable {\n    public void run() {}\n}\n",
            fresh("a class's supertypes changed"),
            fresh("a class's supertypes changed"),
        ),
    ];
    for v in ["ci", "2-obj", "1-call"] {
        for (anchor, with, added, removed) in &cases {
            assert!(before.contains(anchor), "{anchor:?}");
            let after = before.replacen(anchor, with, 1);
            assert_eq!(
                resume_checked(before, &after, v),
                *added,
                "[{v}] add {with:?}"
            );
            assert_eq!(
                resume_checked(&after, before, v),
                *removed,
                "[{v}] remove {with:?}"
            );
        }
    }
}

/// How the declaration edits of the random chains went.
#[derive(Default, Debug)]
struct DeclsWent {
    /// Classes and static methods added that no old fact names: (all, continued).
    added: (usize, usize),
    /// Overriding methods added to a class that may have objects.
    overrides: (usize, usize),
    /// Declarations removed again: (all, continued).
    removed: (usize, usize),
    /// Statements using the new declarations added: (all, continued).
    uses: (usize, usize),
}

/// Chains of random declaration edits of random programs (a class, a
/// static method, an overriding method added; a statement that uses one;
/// one removed again), each solve resumed from the one before and
/// compared with a fresh one.
fn decl_chain(seed: u64, variant: &str, edits: usize, went: &mut DeclsWent) {
    let classes = 2 + (seed as usize % 4);
    let text = gen::random(seed, classes, 6 + (seed as usize % 3) * 3);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut r = gen::Rng::new(seed ^ 0xDEC1);
    let v = Variant::parse(variant).unwrap();
    let mut jp = lower(&lines);
    let mut a = Analysis::run(&jp.program, &common::roots(&jp), v);
    // The lines added as declarations (one line each), to remove again.
    let mut added: Vec<String> = Vec::new();
    for step in 0..edits {
        let k = step;
        let kind = r.below(5);
        let what;
        let tally: &mut (usize, usize);
        match kind {
            0 => {
                let l = format!(
                    "class D{k} extends C{} {{ Base m{}(Base p) {{ return p; }} }}",
                    r.below(classes),
                    r.below(3)
                );
                lines.push(l.clone());
                added.push(l);
                what = "a class".to_string();
                tally = &mut went.added;
            }
            1 => {
                let l = format!(
                    "    static Base t{k}(Base p) {{ return p.f{}; }}",
                    r.below(3)
                );
                let at = lines
                    .iter()
                    .position(|l| l == "public class Main {")
                    .unwrap()
                    + 1;
                lines.insert(at, l.clone());
                added.push(l);
                what = "a static method".to_string();
                tally = &mut went.added;
            }
            2 => {
                let c = r.below(classes);
                let l = format!(
                    "    Base m{}(Base p) {{ return p.f{}; }}",
                    r.below(3),
                    r.below(3)
                );
                let at = lines
                    .iter()
                    .position(|x| x.starts_with(&format!("class C{c} extends")))
                    .unwrap()
                    + 1;
                lines.insert(at, l.clone());
                added.push(l);
                what = format!("an override in C{c}");
                tally = &mut went.overrides;
            }
            3 if !added.is_empty() => {
                let l = added.remove(r.below(added.len()));
                let at = lines.iter().position(|x| *x == l).unwrap();
                lines.remove(at);
                what = "a declaration removed".to_string();
                tally = &mut went.removed;
            }
            _ => {
                // A statement using what was added: a new class's object or
                // a new static method (else any statement).
                let (places, _) = places(&lines);
                let at = places[r.below(places.len())];
                let l = ["a", "b", "c", "d"];
                let (x, y) = (l[r.below(4)], l[r.below(4)]);
                let decl = added.last().cloned().unwrap_or_default();
                let s = if let Some(rest) = decl.strip_prefix("class D") {
                    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    format!("{x} = new D{n}();")
                } else if let Some(rest) = decl.strip_prefix("    static Base t") {
                    let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
                    format!("{x} = Main.t{n}({y});")
                } else {
                    statement(&mut r, classes)
                };
                lines.insert(at, format!("        {s}"));
                what = format!("add `{s}`");
                tally = &mut went.uses;
            }
        }
        let next = lower(&lines);
        let (b, how) = resumed_as_fresh(
            &a,
            &jp,
            &next,
            v,
            &format!("seed {seed} [{variant}] step {step} ({what})"),
        );
        tally.0 += 1;
        tally.1 += usize::from(matches!(how, Resumed::Continued { .. }));
        jp = next;
        a = b;
    }
}

#[test]
fn resumed_solves_equal_fresh_ones_after_random_declaration_edits() {
    let mut went = DeclsWent::default();
    for seed in 0..24u64 {
        for v in ["ci", "1-call", "2-obj", "2-type"] {
            decl_chain(seed, v, 8, &mut went);
        }
    }
    // A class or a static method added names nothing the old solution
    // used: every one goes on.
    assert_eq!(went.added.1, went.added.0, "{went:?}");
    // An override goes on when no object of the old solution dispatched
    // to the method it hides; a removed declaration when the old solution
    // never reached it; a statement using one when it only adds facts.
    // In these programs (all, went on):
    assert_eq!(
        (went.overrides, went.removed, went.uses),
        ((164, 120), (104, 76), (232, 228)),
        "{went:?}"
    );
}
