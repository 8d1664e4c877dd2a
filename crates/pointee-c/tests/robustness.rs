//! Lowering never panics and never overflows the stack: on every prefix of
//! every C fixture (cut at line boundaries, as a user typing would leave the
//! file) and on programs nested thousands of levels deep.

use std::path::{Path, PathBuf};

fn c_fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c");
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("fixtures/c is readable") {
            let p = e.expect("dir entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "c" || x == "h") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_line_prefix_of_every_fixture_lowers() {
    let files = c_fixtures();
    assert!(files.len() >= 30, "found only {} C fixtures", files.len());
    let mut prefixes = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let mut end = 0;
        for line in text.split_inclusive('\n') {
            end += line.len();
            let f = pointee_c::lower_file("prefix.c", &text[..end]);
            // Whatever lowered must be internally consistent.
            for (func, src) in f.program.functions.iter().zip(&f.source.functions) {
                assert_eq!(
                    func.stmt_count as usize,
                    src.stmts.len(),
                    "{}: {}",
                    path.display(),
                    func.name
                );
                assert_eq!(func.vars.len(), src.vars.len());
                assert_eq!(func.site_count as usize, src.sites.len());
            }
            prefixes += 1;
        }
    }
    assert!(prefixes > 500, "only {prefixes} prefixes checked");
}

fn lowered_names(text: &str) -> Vec<String> {
    pointee_c::lower_file("deep.c", text)
        .program
        .functions
        .iter()
        .map(|f| f.name.to_string())
        .collect()
}

#[test]
fn deeply_nested_expressions_lower_without_overflow() {
    let n = 20_000;
    let text = format!(
        "int *g; int *f(int *p) {{ g = {}p{}; return g; }}",
        "(".repeat(n),
        ")".repeat(n)
    );
    assert_eq!(lowered_names(&text), ["f"]);
    let derefs = format!("int f(int *p) {{ return {}p; }}", "*".repeat(n));
    assert_eq!(lowered_names(&derefs), ["f"]);
    let sums = format!("int f(int x) {{ return {}x; }}", "x + ".repeat(n));
    assert_eq!(lowered_names(&sums), ["f"]);
}

#[test]
fn deeply_nested_statements_lower_without_overflow() {
    let n = 20_000;
    let blocks = format!(
        "void f(int *p) {{ {} p = 0; {} }}",
        "{".repeat(n),
        "}".repeat(n)
    );
    assert_eq!(lowered_names(&blocks), ["f"]);
    let ifs = format!("void f(int *p, int c) {{ {} p = 0; }}", "if (c) ".repeat(n));
    assert_eq!(lowered_names(&ifs), ["f"]);
    let whiles = format!(
        "void f(int *p, int c) {{ {} p = 0; }}",
        "while (c) ".repeat(n)
    );
    assert_eq!(lowered_names(&whiles), ["f"]);
}

#[test]
fn too_deep_code_is_noted_not_dropped_silently() {
    let n = 10_000;
    let text = format!(
        "int *g; int x; void f(void) {{ g = {}&x{}; }}",
        "(".repeat(n),
        ")".repeat(n)
    );
    let f = pointee_c::lower_file("deep.c", &text);
    assert!(
        f.source
            .notes
            .iter()
            .any(|n| n.message.contains("nested too deeply")),
        "notes: {:?}",
        f.source.notes
    );
}

/// A function of 20,000 pointer copies lowers with one record per
/// expression: the read of `r` and the writes of `q` and of the assignment
/// on every line (a write replaces what was read at its range). Recording
/// was quadratic in the function's length; the count of the work is
/// `lower.rs`'s unit test, this checks the records lowering keeps.
#[test]
fn a_long_function_keeps_one_record_per_expression() {
    let lines = 20_000;
    let mut text = String::from("int x;\nint main(void) {\n  int *q = &x, *r = &x;\n");
    for _ in 0..lines {
        text.push_str("  q = r;\n");
    }
    text.push_str("  return *q;\n}\n");
    let f = pointee_c::lower_file("long.c", &text);
    assert!(f.source.notes.is_empty(), "{:?}", f.source.notes);
    let main = &f.source.functions[0];
    let on = |e: &pointee_ir::ExprInfo| &text[e.range.start as usize..e.range.end as usize];
    let copies: Vec<&str> = main
        .exprs
        .iter()
        .map(on)
        .filter(|t| matches!(*t, "q = r" | "q" | "r"))
        .collect();
    assert_eq!(copies.len(), 3 * lines + 3, "{:?}", &copies[..12]);
    let mut seen = std::collections::HashSet::new();
    for e in &main.exprs {
        assert!(seen.insert(e.range), "two records of {:?}", on(e));
    }
}

/// A record that is its own anonymous member, directly or through another
/// record (invalid C: gcc says "incomplete type"), once overflowed the stack
/// when a member access searched the anonymous members (found by the
/// `c_text` fuzz target). Each lowers as the same program without the
/// member that holds itself does (an unknown member is no note there either).
#[test]
fn records_that_hold_themselves_as_anonymous_members_lower() {
    let programs = [
        (
            "struct S { struct S; int x; };\nint f(struct S *s) { return s->y; }\n",
            "struct S { int x; };\nint f(struct S *s) { return s->y; }\n",
        ),
        (
            "struct A { struct B; int a; };\nstruct B { struct A; int b; };\nint f(struct A *p) { return p->y + p->a; }\n",
            "struct A { int a; };\nstruct B { int b; };\nint f(struct A *p) { return p->y + p->a; }\n",
        ),
        (
            "union U { union U; int x; };\nint f(union U *u) { return u->y; }\n",
            "union U { int x; };\nint f(union U *u) { return u->y; }\n",
        ),
    ];
    for (text, without) in programs {
        let f = pointee_c::lower_file("self_member.c", text);
        let g = pointee_c::lower_file("self_member.c", without);
        assert_eq!(f.program.functions.len(), 1, "{text}");
        assert_eq!(
            f.program.functions[0].stmt_count, g.program.functions[0].stmt_count,
            "{text}"
        );
        let messages = |c: &pointee_c::CFile| {
            c.source
                .notes
                .iter()
                .map(|n| n.message.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(messages(&f), messages(&g), "{text}");
    }
}
