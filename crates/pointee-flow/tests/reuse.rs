//! Incremental re-analysis: `OwnedAnalysis::rerun` after an edit must give
//! exactly what a scratch run of the edited program gives (compared by a
//! rendering that names units and locations, never ids), and must actually
//! reuse units.

mod common;

use common::{delete_assignment, dump, insert_dead_local, swap_function_pointer};
use pointee_flow::{OwnedAnalysis, Settings};
use pointee_ir::Program;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c");
    let mut v: Vec<PathBuf> = Vec::new();
    for dir in ["flow", "soundness"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|e| e == "c") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// The first line where two dumps differ.
fn first_difference(a: &str, b: &str) -> String {
    for (x, y) in a.lines().zip(b.lines()) {
        if x != y {
            return format!("\n  rerun:   {x}\n  scratch: {y}");
        }
    }
    format!(
        "\n  rerun has {} lines, scratch {}",
        a.lines().count(),
        b.lines().count()
    )
}

/// Reruns `prev` on `program` and compares with a scratch run; returns the
/// rerun.
fn check(
    prev: &OwnedAnalysis,
    program: Program,
    what: &str,
    failures: &mut Vec<String>,
) -> OwnedAnalysis {
    let p = Arc::new(program);
    let re = OwnedAnalysis::rerun(prev, p.clone(), Settings::default());
    compare(re, p, what, failures)
}

/// [`check`] through `rerun_owned`.
fn check_owned(
    prev: OwnedAnalysis,
    program: Program,
    what: &str,
    failures: &mut Vec<String>,
) -> OwnedAnalysis {
    let p = Arc::new(program);
    let re = OwnedAnalysis::rerun_owned(prev, p.clone(), Settings::default());
    compare(re, p, what, failures)
}

fn compare(
    mut re: OwnedAnalysis,
    p: Arc<Program>,
    what: &str,
    failures: &mut Vec<String>,
) -> OwnedAnalysis {
    let mut sc = OwnedAnalysis::run(p, Settings::default());
    let before = re.with(|a| a.units().len());
    let (d1, d2) = (dump(&mut re), dump(&mut sc));
    if d1 != d2 {
        failures.push(format!("{what}: differs{}", first_difference(&d1, &d2)));
    }
    // The invocation graph users see numbers contexts by the result alone,
    // not by the unit ids reuse leaves (found by pointee-fuzz).
    let (g1, g2) = (re.with(|a| a.render_graph()), sc.with(|a| a.render_graph()));
    if g1 != g2 {
        failures.push(format!(
            "{what}: graph differs{}",
            first_difference(&g1, &g2)
        ));
    }
    // Replaying every body finds every callee in the memo.
    let after = re.with(|a| a.units().len());
    if after != before {
        failures.push(format!("{what}: replays added {} units", after - before));
    }
    re
}

#[test]
fn rerun_equals_scratch_on_fixtures() {
    let mut failures = Vec::new();
    // (body edits in programs of several functions, of which reused units)
    let mut edits = (0, 0);
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let lowered = pointee_c::lower(&[(&name, &text)]).unwrap();
        let original = lowered.program.clone();
        let prev = OwnedAnalysis::run(Arc::new(original.clone()), Settings::default());

        // Nothing changed: everything is reused.
        let same = check(
            &prev,
            original.clone(),
            &format!("{name} (same)"),
            &mut failures,
        );
        let r = same.reuse();
        if r.scratch_reason.is_some() || r.computed != 0 {
            failures.push(format!("{name} (same): {r:?}"));
        }

        // A dead local at the start of a few bodies (variable ids shift),
        // then back to the original from the edited run.
        let n = original.functions.len();
        let picks: Vec<usize> = if n <= 3 {
            (0..n).collect()
        } else {
            vec![0, n / 2, n - 1]
        };
        for &fi in &picks {
            let f = original.functions[fi].name.clone();
            let Some(edited) = insert_dead_local(&text, &lowered, &f) else {
                continue;
            };
            let Ok(el) = pointee_c::lower(&[(&name, &edited)]) else {
                continue;
            };
            let what = format!("{name} (dead local in {f})");
            let re = check(&prev, el.program, &what, &mut failures);
            let r = re.reuse();
            if n > 1 {
                edits.0 += 1;
                edits.1 += (r.reused > 0) as usize;
                if let Some(why) = &r.scratch_reason {
                    failures.push(format!("{what}: scratch run: {why}"));
                }
            }
            check(
                &re,
                original.clone(),
                &format!("{name} (dead local in {f}, undone)"),
                &mut failures,
            );
        }

        // A statement deleted (IR level), chained from the previous rerun,
        // which each rerun consumes.
        let mut last = same;
        for &fi in &picks {
            if let Some(p) = delete_assignment(&original, fi, 1) {
                let f = &original.functions[fi].name;
                last = check_owned(
                    last,
                    p,
                    &format!("{name} (assignment deleted in {f})"),
                    &mut failures,
                );
            }
        }

        // Another function's address taken.
        if let Some(p) = swap_function_pointer(&original) {
            check(
                &prev,
                p,
                &format!("{name} (function pointer swapped)"),
                &mut failures,
            );
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
    // Most body edits leave something to reuse.
    assert!(
        edits.1 * 10 >= edits.0 * 7,
        "only {} of {} body edits reused a unit",
        edits.1,
        edits.0
    );
}

const CHAINS: &str = r#"
int g1;
int *leaf(int *p) { return p; }
int *a(int *p) { return leaf(p); }
int *other(int *p) { return p; }
int *b(int *p) { return other(p); }
int main(void) {
    int x;
    int *r = a(&x);
    int *s = b(&g1);
    return r == s;
}
"#;

/// Editing `leaf` without changing what it returns recomputes `leaf` only;
/// an edit that changes it recomputes `leaf`, its caller `a` and `main`,
/// and reuses `b` and `other`.
#[test]
fn rerun_recomputes_only_the_callers_of_an_edited_body() {
    let lowered = pointee_c::lower(&[("chains.c", CHAINS)]).unwrap();
    let prev = OwnedAnalysis::run(Arc::new(lowered.program.clone()), Settings::default());
    let mut failures = Vec::new();

    let edited = insert_dead_local(CHAINS, &lowered, "leaf").unwrap();
    let el = pointee_c::lower(&[("chains.c", &edited)]).unwrap();
    let re = check(&prev, el.program, "dead local in leaf", &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let r = re.reuse();
    assert_eq!(r.scratch_reason, None);
    assert_eq!((r.computed, r.reused), (1, 4), "{r:?}");
    assert_eq!(
        r.computed_functions,
        vec!["leaf".into()] as Vec<pointee_ir::Name>
    );

    let edited = CHAINS.replace(
        "int *leaf(int *p) { return p; }",
        "int *leaf(int *p) { return &g1; }",
    );
    let el = pointee_c::lower(&[("chains.c", &edited)]).unwrap();
    let re = check(&prev, el.program, "leaf returns &g1", &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let r = re.reuse();
    assert_eq!(r.scratch_reason, None);
    assert_eq!((r.computed, r.reused), (3, 2), "{r:?}");
    let names: Vec<&str> = r.computed_functions.iter().map(|n| &**n).collect();
    assert_eq!(names, ["a", "leaf", "main"]);
}

/// A change of a global falls back to a scratch run, and says so.
#[test]
fn rerun_falls_back_when_globals_change() {
    let lowered = pointee_c::lower(&[("chains.c", CHAINS)]).unwrap();
    let prev = OwnedAnalysis::run(Arc::new(lowered.program.clone()), Settings::default());
    let edited = CHAINS.replace("int g1;", "int g1, g2;");
    let el = pointee_c::lower(&[("chains.c", &edited)]).unwrap();
    let mut failures = Vec::new();
    let re = check(&prev, el.program, "chains.c", &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        re.reuse().scratch_reason.as_deref(),
        Some("globals changed")
    );
}

/// Mutual recursion whose calls swap their arguments: which of `s` and
/// `f` a run meets first decides which one heads the cycle, and so what
/// every unit of the cycle holds.
const ORDER: &str = r#"
int x, y, z;
int *s(int *p, int *q, int d);
int *f(int *p, int *q, int d) { if (d) return s(q, p, d - 1); return q; }
int *s(int *p, int *q, int d) { if (d) return f(p, q, d - 1); return p; }
int *t(int *p, int *q, int d) { return f(p, q, d); }
int main(void) {
    int *a, *b, *c;
    a = s(&x, &y, 3);
    b = f(&x, &y, 3);
    c = t(&y, &z, 2);
    return a == b || b == c;
}
"#;

/// Reordering the calls of `main` (only `main` changes) must not let the
/// previous run's cycle, headed by another function, answer the calls.
#[test]
fn rerun_equals_scratch_when_call_order_changes() {
    let lowered = pointee_c::lower(&[("order.c", ORDER)]).unwrap();
    let prev = OwnedAnalysis::run(Arc::new(lowered.program.clone()), Settings::default());
    let calls = [
        "    a = s(&x, &y, 3);\n",
        "    b = f(&x, &y, 3);\n",
        "    c = t(&y, &z, 2);\n",
    ];
    let mut failures = Vec::new();
    for order in [[1, 0, 2], [2, 1, 0], [2, 0, 1], [1, 2, 0]] {
        let body: String = order.iter().map(|&i| calls[i]).collect();
        let edited = ORDER.replace(&calls.concat(), &body);
        let el = pointee_c::lower(&[("order.c", &edited)]).unwrap();
        check(
            &prev,
            el.program,
            &format!("order {order:?}"),
            &mut failures,
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const ZEROED: &str = r#"
#include <stdlib.h>
struct S { int *f; };
struct S *mk(void) { return calloc(1, sizeof(struct S)); }
int *get(struct S *s) { return s->f; }
int main(void) {
    struct S *s = mk();
    int *r = get(s);
    return r != 0;
}
"#;

/// `get` is clean and is called with the same input after `mk` stops
/// zeroing its objects, but what it reads from them changed.
#[test]
fn rerun_equals_scratch_when_calloc_becomes_malloc() {
    let lowered = pointee_c::lower(&[("zeroed.c", ZEROED)]).unwrap();
    let prev = OwnedAnalysis::run(Arc::new(lowered.program.clone()), Settings::default());
    let edited = ZEROED.replace("calloc(1, sizeof(struct S))", "malloc(sizeof(struct S))");
    let el = pointee_c::lower(&[("zeroed.c", &edited)]).unwrap();
    let mut failures = Vec::new();
    check(&prev, el.program, "calloc to malloc", &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `g` calls `x` with no function pointer, `x` calls back through one: no
/// recursion while `g` runs first, a cycle once `x` runs first.
const CALLBACK: &str = r#"
int a;
int *x(int *p, int *(*fp)(int *));
int *g(int *p) { return x(p, 0); }
int *x(int *p, int *(*fp)(int *)) { if (fp) return fp(p); return p; }
int main(void) {
    int *r, *s;
    r = g(&a);
    s = x(&a, g);
    return r == s;
}
"#;

/// After the calls of `main` swap, `g`'s previous unit (computed with no
/// recursion) must not answer: `x` is on the stack, a scratch run takes an
/// approximate node.
#[test]
fn rerun_equals_scratch_when_a_callback_closes_a_cycle() {
    let lowered = pointee_c::lower(&[("callback.c", CALLBACK)]).unwrap();
    let prev = OwnedAnalysis::run(Arc::new(lowered.program.clone()), Settings::default());
    let edited = CALLBACK.replace(
        "    r = g(&a);\n    s = x(&a, g);\n",
        "    s = x(&a, g);\n    r = g(&a);\n",
    );
    let el = pointee_c::lower(&[("callback.c", &edited)]).unwrap();
    let mut failures = Vec::new();
    check(&prev, el.program, "calls swapped", &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const EXIT: &str = r#"
#include <stdlib.h>
int x;
int *g;
void bye(void) { g = g; }
int main(void) {
    g = &x;
    atexit(bye);
    return 0;
}
"#;

/// `bye`, an `atexit` entry, becomes a plain callee of `main` with the same
/// input: its reused unit is no entry any more (and the other way round).
#[test]
fn rerun_equals_scratch_when_an_entry_becomes_a_callee() {
    let called = EXIT.replace(
        "    atexit(bye);\n    return 0;",
        "    bye();\n    return 0;",
    );
    for (from, to) in [(EXIT, called.as_str()), (called.as_str(), EXIT)] {
        let lowered = pointee_c::lower(&[("exit.c", from)]).unwrap();
        let prev = OwnedAnalysis::run(Arc::new(lowered.program.clone()), Settings::default());
        let el = pointee_c::lower(&[("exit.c", to)]).unwrap();
        let mut failures = Vec::new();
        let re = check(&prev, el.program, "atexit and call swapped", &mut failures);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(re.reuse().reused > 0, "{:?}", re.reuse());
    }
}

/// Twenty edits in a row, each rerun consuming the previous one: the last
/// equals a scratch run, and units do not pile up.
#[test]
fn rerun_chains_of_edits_stay_equal_and_small() {
    let original = pointee_c::lower(&[("chains.c", CHAINS)]).unwrap();
    let mut edits: Vec<Program> = ["leaf", "other", "b", "main"]
        .iter()
        .map(|f| {
            let text = insert_dead_local(CHAINS, &original, f).unwrap();
            pointee_c::lower(&[("chains.c", &text)]).unwrap().program
        })
        .collect();
    let text = CHAINS.replacen("{ return p; }", "{ return &g1; }", 1);
    edits.push(pointee_c::lower(&[("chains.c", &text)]).unwrap().program);
    let scratch_units = OwnedAnalysis::run(Arc::new(original.program.clone()), Settings::default())
        .with(|a| a.units().len());
    let mut a = OwnedAnalysis::run(Arc::new(original.program.clone()), Settings::default());
    let mut failures = Vec::new();
    for i in 0..20 {
        let p = if i % 2 == 0 {
            edits[(i / 2) % edits.len()].clone()
        } else {
            original.program.clone()
        };
        a = check_owned(a, p, &format!("edit {i}"), &mut failures);
        assert_eq!(a.reuse().scratch_reason, None, "edit {i}");
        assert!(a.reuse().reused > 0, "edit {i}: {:?}", a.reuse());
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let units = a.with(|a| a.units().len());
    assert!(units <= 2 * scratch_units + 1000, "{units} units");
}

/// A renamed or retyped parameter changes what callers map: the callers
/// are analysed again even when the callee's result looks the same.
#[test]
fn rerun_equals_scratch_when_a_parameter_changes() {
    let lowered = pointee_c::lower(&[("chains.c", CHAINS)]).unwrap();
    let prev = OwnedAnalysis::run(Arc::new(lowered.program.clone()), Settings::default());
    let mut failures = Vec::new();
    for (from, to) in [
        (
            "int *leaf(int *p) { return p; }",
            "int *leaf(int *q) { return q; }",
        ),
        (
            "int *leaf(int *p) { return p; }",
            "int *leaf(void *p) { return (int *)p; }",
        ),
        (
            "int *other(int *p) { return p; }",
            "int *other(int *p, int *unused) { return p; }",
        ),
    ] {
        let edited = CHAINS.replace(from, to);
        let el = pointee_c::lower(&[("chains.c", &edited)]).unwrap();
        let re = check(&prev, el.program, to, &mut failures);
        if let Some(why) = &re.reuse().scratch_reason {
            failures.push(format!("{to}: scratch run: {why}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[path = "../benches/common/mod.rs"]
mod generated;

/// The scale benchmark's program at 1k lines (lists, function-pointer
/// tables, a recursive walk through them, swaps), edited in several
/// bodies.
#[test]
fn rerun_equals_scratch_on_a_generated_program() {
    let text = generated::generate(1000, 42);
    let lowered = pointee_c::lower(&[("gen.c", &text)]).unwrap();
    let prev = OwnedAnalysis::run(Arc::new(lowered.program.clone()), Settings::default());
    let mut edits: Vec<(String, Program)> = Vec::new();
    for f in [
        "helper_7", "drive_3", "sum_5", "op2_0", "mk_4", "swap_6", "main",
    ] {
        let edited = insert_dead_local(&text, &lowered, f).unwrap();
        let p = pointee_c::lower(&[("gen.c", &edited)]).unwrap().program;
        edits.push((format!("dead local in {f}"), p));
    }
    for f in ["drive_3", "mk_4", "sum_5", "swap_6"] {
        let fi = lowered
            .program
            .functions
            .iter()
            .position(|g| &*g.name == f)
            .unwrap();
        for k in 0..3 {
            if let Some(p) = delete_assignment(&lowered.program, fi, k) {
                edits.push((format!("assignment {k} deleted in {f}"), p));
            }
        }
    }
    let mut failures = Vec::new();
    for (what, p) in edits {
        let re = check(&prev, p, &what, &mut failures);
        let r = re.reuse();
        if r.scratch_reason.is_some() || r.reused == 0 {
            failures.push(format!("{what}: {r:?}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The language server's typing pattern on the generated program: a dead
/// local in `helper_0` inserted and removed (stops at `helper_0`), then an
/// assignment to a global inserted and removed (its callers follow), twenty
/// rounds. After an output-changing edit, a dead local must again stop at
/// `helper_0`, and the units left over by earlier reruns must never push a
/// rerun into a scratch run.
#[test]
fn rerun_stays_local_after_output_changing_edits() {
    let text = generated::generate(1000, 42);
    let head = "int helper_0(int *x) {\n";
    let with = |line: &str| {
        let edited = text.replacen(head, &format!("{head}{line}\n"), 1);
        assert_ne!(edited, text);
        pointee_c::lower(&[("gen.c", &edited)]).unwrap().program
    };
    let base = pointee_c::lower(&[("gen.c", &text)]).unwrap().program;
    let dead = with("    int bench_unused = 0;");
    let store = with("    g0_head = 0;");
    let mut a = OwnedAnalysis::run(Arc::new(base.clone()), Settings::default());
    let mut failures = Vec::new();
    for round in 0..20 {
        for (what, p) in [
            ("dead local inserted", &dead),
            ("dead local removed", &base),
            ("store inserted", &store),
            ("store removed", &base),
        ] {
            let what = format!("round {round}: {what}");
            a = check_owned(a, p.clone(), &what, &mut failures);
            let r = a.reuse();
            if let Some(why) = &r.scratch_reason {
                failures.push(format!("{what}: scratch run: {why}"));
            } else if what.contains("dead local")
                && !r.computed_functions.iter().map(|f| &**f).eq(["helper_0"])
            {
                failures.push(format!("{what}: computed {:?}", r.computed_functions));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The context bound counts what a scratch run of the new program would
/// create: output-changing edits repeated never reach it, more calling
/// contexts do (and the rerun then equals a scratch run by being one).
#[test]
fn rerun_context_bound_counts_what_a_scratch_run_creates() {
    const SRC: &str = "int a, b, c, d;
int *id(int *p) { return p; }
int main(void) { int *x; x = id(&a); x = id(&b); return x == 0; }
";
    let settings = Settings {
        max_contexts_per_function: 6,
        ..Settings::default()
    };
    let lower = |t: &str| Arc::new(pointee_c::lower(&[("bound.c", t)]).unwrap().program);
    let base = lower(SRC);
    let changed = lower(&SRC.replace("{ return p; }", "{ return &d; }"));
    let more = lower(&SRC.replace("x = id(&b);", "x = id(&b); x = id(&c); x = id(&d);"));
    let same = |re: &mut OwnedAnalysis, p: &Arc<Program>| {
        let mut sc = OwnedAnalysis::run(p.clone(), settings.clone());
        assert_eq!(dump(re), dump(&mut sc));
    };
    let mut a = OwnedAnalysis::run(base.clone(), settings.clone());
    for i in 0..10 {
        let p = if i % 2 == 0 { &changed } else { &base };
        a = OwnedAnalysis::rerun_owned(a, p.clone(), settings.clone());
        assert_eq!(a.reuse().scratch_reason, None, "edit {i}");
        same(&mut a, p);
    }
    // Four contexts of `id`: 8 > 6.
    a = OwnedAnalysis::rerun_owned(a, more.clone(), settings.clone());
    assert_eq!(
        a.reuse().scratch_reason.as_deref(),
        Some("near the context bound")
    );
    same(&mut a, &more);
}
