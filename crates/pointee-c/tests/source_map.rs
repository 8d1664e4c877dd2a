//! The source map answers "which IR place holds this expression's value, and
//! at which program point": the innermost pointer-typed expression at a
//! cursor (`$0`), read before the statement that uses it or after the one
//! that writes it.

use pointee_ir::Point;

/// Lowers `text` (with one `$0` cursor marker) and describes the innermost
/// pointer expression at the cursor: `place @ before|after: statement`.
fn expr_at(text: &str) -> String {
    let offset = text.find("$0").expect("a $0 marker") as u32;
    let text = text.replace("$0", "");
    let lowered = pointee_c::lower_file("t.c", &text);
    let (fs, e) = lowered
        .source
        .expr_at(offset)
        .expect("a pointer expression at the cursor");
    let func = lowered
        .program
        .function(&fs.name)
        .expect("the cursor is inside a function");
    let stmt = find_stmt(&func.body, e.point.stmt()).expect("the point's statement exists");
    let when = match e.point {
        Point::Before(_) => "before",
        Point::After(_) => "after",
    };
    format!(
        "{} @ {when}: {}",
        func.place_to_string(&e.place),
        func.basic_to_string(stmt)
    )
}

fn find_stmt(block: &[pointee_ir::Stmt], id: pointee_ir::StmtId) -> Option<&pointee_ir::Basic> {
    use pointee_ir::Stmt;
    for s in block {
        let found = match s {
            Stmt::Basic(i, b) if *i == id => Some(b),
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => find_stmt(then_branch, id).or_else(|| find_stmt(else_branch, id)),
            Stmt::Loop { body } => find_stmt(body, id),
            Stmt::Switch { arms, .. } => arms.iter().find_map(|a| find_stmt(a, id)),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

#[test]
fn a_written_variable_is_read_after_its_assignment() {
    assert_eq!(
        expr_at("int x; void f(int *p) { p$0 = &x; }"),
        "p @ after: p = &x"
    );
    assert_eq!(
        expr_at("int x; void f(void) { int *p$0 = &x; }"),
        "p @ after: p = &x"
    );
}

#[test]
fn a_read_is_taken_before_the_statement_that_uses_it() {
    assert_eq!(
        expr_at("void f(int *p, int *q) { q = p$0; }"),
        "p @ before: q = p"
    );
    assert_eq!(
        expr_at(
            "struct n { struct n *next; }; void f(struct n *p, struct n *q) { q = p$0->next; }"
        ),
        "p @ before: q = (*p).next"
    );
}

#[test]
fn nested_expressions_map_to_their_temporaries() {
    let src =
        "struct n { struct n *next; }; void f(struct n *p, struct n *q) { q = p->ne$0xt->next; }";
    assert_eq!(expr_at(src), "(*p).next @ before: t1 = (*p).next");
    let call = "int *g(void); void f(int *q) { q = g$0(); }";
    assert_eq!(expr_at(call), "t1 @ after: t1 = call#0 g()");
}

#[test]
fn the_cursor_just_after_a_name_still_hovers_it() {
    assert_eq!(
        expr_at("void f(int *p, int *q) { q = p$0; }"),
        "p @ before: q = p"
    );
    assert_eq!(
        expr_at("void f(int *p, int *q) { if (p$0) q = p; }"),
        "p @ before: use p"
    );
}

#[test]
fn conditions_read_at_their_own_use_statement() {
    assert_eq!(
        expr_at("void f(int *p, int *q) { while (p$0 != 0) p = q; }"),
        "p @ before: use p"
    );
}

#[test]
fn a_position_inside_a_macro_use_answers() {
    let defs = "#define G(L) ((L)->g)\n#define NEXT_G(L) G(G(L))\nstruct s { struct s *g; };\n";
    // On an argument: the argument itself.
    assert_eq!(
        expr_at(&format!(
            "{defs}void f(struct s *p, struct s *q) {{ q = G(p$0); }}"
        )),
        "p @ before: q = (*p).g"
    );
    // On the macro's name: what the use expands to.
    assert_eq!(
        expr_at(&format!(
            "{defs}void f(struct s *p, struct s *q) {{ q = G$0(p); }}"
        )),
        "(*p).g @ before: q = (*p).g"
    );
    // Nested uses land on the outermost one; the argument keeps its place.
    assert_eq!(
        expr_at(&format!(
            "{defs}void f(struct s *p, struct s *q) {{ q = NEXT$0_G(p); }}"
        )),
        "(*t1).g @ before: q = (*t1).g"
    );
    assert_eq!(
        expr_at(&format!(
            "{defs}void f(struct s *p, struct s *q) {{ q = NEXT_G(p$0); }}"
        )),
        "p @ before: t1 = (*p).g"
    );
}

#[test]
fn a_dereference_hidden_in_a_statement_macro_is_found_at_the_use() {
    let src = "#define SET(o, v) do { (o)->val = (v); } while (0)\n\
               struct obj { int *val; };\n\
               void f(struct obj *o, int *x) { SE$0T(o, x); }";
    assert_eq!(expr_at(src), "(*o).val @ after: (*o).val = x");
}
