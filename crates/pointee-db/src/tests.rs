//! Incrementality, proved from salsa's own execution events: after each edit
//! we list the queries salsa re-executed (`EventKind::WillExecute`).

use super::*;
use salsa::plumbing::AsId;
use salsa::{Database as _, DatabaseKeyIndex, EventKind};
use std::sync::Mutex;

pub(crate) struct Harness {
    pub(crate) db: Database,
    pub(crate) log: Arc<Mutex<Vec<DatabaseKeyIndex>>>,
    pub(crate) project: Project,
}

/// Queries keyed by a function, reported as `query(function)`.
const PER_FUNCTION: &[&str] = &[
    "c_function",
    "function_calls",
    "function_text",
    "lower_function",
];

pub(crate) const PROGRAM: &str = "\
#include <stdlib.h>
int g;
int *gp;

/* set: stores its argument */
void set(int **pp, int *v) {
    *pp = v;
}

int *id(int *p) {
    return p;
}

int main(void) {
    int x;
    int *p;
    set(&p, &x);
    gp = id(&g);
    return 0;
}
";

impl Harness {
    pub(crate) fn new(files: &[(&str, &str)]) -> Harness {
        let log: Arc<Mutex<Vec<DatabaseKeyIndex>>> = Arc::default();
        let sink = log.clone();
        let mut db = Database::with_events(move |e| {
            if let EventKind::WillExecute { database_key } = e.kind {
                sink.lock().unwrap().push(database_key);
            }
        });
        let project = Project::new(&db, Vec::new(), Config::default());
        for (path, text) in files {
            upsert_file(&mut db, project, path, (*text).into(), None);
        }
        Harness { db, log, project }
    }

    pub(crate) fn file(&self, path: &str) -> SourceFile {
        file_by_path(&self.db, self.project, path).unwrap()
    }

    pub(crate) fn edit(&mut self, path: &str, from: &str, to: &str) {
        let f = self.file(path);
        let text = f.text(&self.db).replacen(from, to, 1);
        assert_ne!(
            &*text,
            &**f.text(&self.db),
            "the edit `{from}` -> `{to}` applies"
        );
        self.db.set_text(f, text.into(), None);
    }

    /// Runs every query the server asks for and returns what re-executed, as
    /// `query` or `query(function)` for per-function queries.
    pub(crate) fn run(&mut self) -> Vec<String> {
        self.log.lock().unwrap().clear();
        let db = &self.db;
        let _ = c_analysis(db, self.project);
        for &f in self.project.files(db) {
            if Lang::of_path(f.path(db)) == Some(Lang::C) {
                let _ = lower_c(db, f);
            }
            for key in function_keys(db, f) {
                let _ = function_calls(db, key);
            }
        }
        let keys: Vec<(salsa::Id, String)> = self
            .project
            .files(db)
            .iter()
            .flat_map(|&f| function_keys(db, f))
            .map(|k| (k.as_id(), k.name(db).to_string()))
            .collect();
        let mut out: Vec<String> = self
            .log
            .lock()
            .unwrap()
            .iter()
            .map(|k| {
                let name = db.ingredient_debug_name(k.ingredient_index()).to_string();
                match keys.iter().find(|(id, _)| *id == k.key_index()) {
                    Some((_, f)) if PER_FUNCTION.contains(&name.as_str()) => {
                        format!("{name}({f})")
                    }
                    _ => name,
                }
            })
            .collect();
        out.sort();
        out
    }
}

pub(crate) fn strs(v: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = v.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn first_run_executes_everything_once() {
    let mut h = Harness::new(&[("a.c", PROGRAM)]);
    let ran = h.run();
    for q in [
        "lower_c",
        "file_functions",
        "file_decls",
        "c_program",
        "c_analysis",
    ] {
        assert_eq!(ran.iter().filter(|r| *r == q).count(), 1, "{q} in {ran:?}");
    }
    for f in ["set", "id", "main"] {
        assert!(ran.contains(&format!("c_function({f})")), "{ran:?}");
        assert!(ran.contains(&format!("function_calls({f})")), "{ran:?}");
    }
    assert!(h.run().is_empty(), "nothing changed, nothing runs");
}

#[test]
fn comment_and_whitespace_edits_run_no_analysis() {
    let mut h = Harness::new(&[("a.c", PROGRAM)]);
    h.run();
    h.edit(
        "a.c",
        "/* set: stores its argument */",
        "/* set: stores\n   its argument, longer now */",
    );
    let ran = h.run();
    // The outline and `lower_c` re-run, but no function is lowered again
    // and every projection is equal, so no per-function downstream query,
    // no program and no analysis re-executes.
    assert!(ran.contains(&"lower_c".to_string()), "{ran:?}");
    for r in &ran {
        assert!(
            !r.starts_with("function_calls") && r != "c_program" && r != "c_analysis",
            "{r} re-executed after a comment edit: {ran:?}"
        );
    }
    h.edit("a.c", "    *pp = v;", "  *pp   =   v  ;  ");
    let ran = h.run();
    assert!(
        ran.iter()
            .all(|r| !r.starts_with("function_calls") && r != "c_analysis"),
        "{ran:?}"
    );
}

#[test]
fn moving_a_function_runs_no_analysis() {
    let mut h = Harness::new(&[("a.c", PROGRAM)]);
    h.run();
    let f = h.file("a.c");
    let text = f.text(&h.db).to_string();
    let id_fn = "int *id(int *p) {\n    return p;\n}\n\n";
    let moved =
        text.replacen(id_fn, "", 1)
            .replacen("int g;\n", &format!("int g;\n\n\n{id_fn}"), 1);
    assert_ne!(moved, text);
    h.db.set_text(f, moved.into(), None);
    let ran = h.run();
    assert!(
        ran.iter()
            .all(|r| !r.starts_with("function_calls") && r != "c_analysis"),
        "{ran:?}"
    );
}

#[test]
fn editing_one_body_reruns_only_that_function_downstream() {
    let mut h = Harness::new(&[("a.c", PROGRAM)]);
    h.run();
    h.edit("a.c", "    return p;", "    p = p;\n    return p;");
    let ran = h.run();
    let per_function: Vec<&String> = ran
        .iter()
        .filter(|r| r.starts_with("function_calls"))
        .collect();
    assert_eq!(per_function, vec!["function_calls(id)"], "{ran:?}");
    // Only `id` is lowered again and changed: the program and the analysis
    // re-run once.
    assert_eq!(
        ran.iter().filter(|r| *r == "c_analysis").count(),
        1,
        "{ran:?}"
    );
}

#[test]
fn editing_another_file_leaves_this_files_queries_alone() {
    let mut h = Harness::new(&[
        ("a.c", PROGRAM),
        ("b.c", "int *other(int *q) {\n    return q;\n}\n"),
    ]);
    h.run();
    h.edit("b.c", "return q;", "q = q;\n    return q;");
    let ran = h.run();
    assert_eq!(
        ran.iter().filter(|r| *r == "lower_c").count(),
        1,
        "only b.c is re-lowered: {ran:?}"
    );
    assert!(
        ran.iter()
            .all(|r| !r.contains("(main)") && !r.contains("(set)")),
        "{ran:?}"
    );
    assert!(
        ran.contains(&"function_calls(other)".to_string()),
        "{ran:?}"
    );
}

#[test]
fn analysis_results_are_position_free_and_correct() {
    let src = "\
void f(int *a) {}
void g(int *a) {}
int main(void) {
    int x, y;
    int *p = &x, *q = &x;
    void (*fp)(int *);
    if (x) fp = f; else fp = g;
    fp(p);
    MUSTALIAS(p, q);
    NOALIAS(p, &y);
    return 0;
}
";
    let mut h = Harness::new(&[("a.c", src)]);
    h.run();
    let a = c_analysis(&h.db, h.project).clone().unwrap();
    let indirect: Vec<&str> = a
        .edges
        .iter()
        .filter(|e| e.kind == CallKind::Indirect)
        .map(|e| &*e.callee)
        .collect();
    assert_eq!(indirect, vec!["f", "g"]);
    assert_eq!(a.alias_checks.len(), 2);
    assert!(a.alias_checks.iter().all(|c| c.ok), "{:?}", a.alias_checks);
    // A whitespace edit keeps the very same analysis value.
    h.edit("a.c", "fp(p);", "fp( p );");
    let ran = h.run();
    assert!(!ran.contains(&"c_analysis".to_string()), "{ran:?}");
}

#[test]
fn config_change_reruns_analysis_but_not_lowering() {
    let mut h = Harness::new(&[("a.c", PROGRAM)]);
    h.run();
    let p = h.project;
    set_config(
        &mut h.db,
        p,
        Config {
            c_context_bound: Some(3),
            ..Default::default()
        },
    );
    let ran = h.run();
    assert_eq!(ran, strs(&["c_engine", "c_analysis"]));
}

#[test]
fn incremental_tree_gives_the_same_lowering() {
    let text = PROGRAM;
    let mut tree = parse(Lang::C, text, None);
    let start = text.find("return p;").unwrap();
    let new_text = format!("{}p = p;\n    {}", &text[..start], &text[start..]);
    let ins = "p = p;\n    ".len();
    let point = |s: &str, off: usize| {
        let before = &s[..off];
        let row = before.matches('\n').count();
        let col = off - before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        tree_sitter::Point { row, column: col }
    };
    tree.edit(&tree_sitter::InputEdit {
        start_byte: start,
        old_end_byte: start,
        new_end_byte: start + ins,
        start_position: point(text, start),
        old_end_position: point(text, start),
        new_end_position: point(&new_text, start + ins),
    });
    let new_tree = parse(Lang::C, &new_text, Some(&tree));
    let a = pointee_c::lower_expanded("a.c", &new_text, &new_tree);
    let b = pointee_c::lower_expanded("a.c", &new_text, &parse(Lang::C, &new_text, None));
    assert_eq!(a, b);
    assert_eq!(
        new_tree.root_node().to_sexp(),
        parse(Lang::C, &new_text, None).root_node().to_sexp()
    );
}

#[test]
fn java_comment_edits_run_no_java_analysis() {
    let src = "class A { Object m() { return new Object(); } }\nclass B extends A { Object m() { return null; } }\npublic class Main {\n    public static void main(String[] args) {\n        A a = new A();\n        if (args.length > 0) a = new B();\n        Object o = a.m();\n    }\n}\n";
    let mut h = Harness::new(&[("Main.java", src)]);
    let run = |h: &mut Harness| {
        h.log.lock().unwrap().clear();
        let _ = java_analysis(&h.db, h.project);
        h.log
            .lock()
            .unwrap()
            .iter()
            .map(|k| h.db.ingredient_debug_name(k.ingredient_index()).to_string())
            .collect::<Vec<_>>()
    };
    let first = run(&mut h);
    assert!(first.contains(&"java_analysis".to_string()), "{first:?}");
    let a = java_analysis(&h.db, h.project).clone().unwrap();
    let virt: Vec<&str> = a
        .edges
        .iter()
        .filter(|e| e.kind == CallKind::Virtual)
        .map(|e| &*e.callee)
        .collect();
    assert_eq!(virt, vec!["A.m()", "B.m()"], "{:?}", a.edges);
    h.edit("Main.java", "class A {", "/* a comment */\nclass A {");
    let ran = run(&mut h);
    assert!(ran.contains(&"java_program".to_string()), "{ran:?}");
    assert!(!ran.contains(&"java_analysis".to_string()), "{ran:?}");
}

#[test]
fn java_files_lower_together() {
    let mut h = Harness::new(&[(
        "A.java",
        "class A { static Object f; public static void main(String[] a) { f = new Object(); } }",
    )]);
    let db = &h.db;
    let jp = java_program(db, h.project);
    assert!(
        jp.0.program.function("A.main(String[])").is_some() || !jp.0.program.functions.is_empty()
    );
    h.run();
}

/// The engine's units are the per-(function, input) cache: after an edit,
/// `c_engine` re-executes (salsa sees a new program) and re-analyses only the
/// units the edit can have changed, reusing the rest of the previous run.
#[test]
fn a_body_edit_reanalyses_only_the_units_it_touches() {
    const CHAIN: &str = "\
int g1, g2;
int *leaf(int *p) { return p; }
int *mid(int *p) { return leaf(p); }
int *other(int *p) { return p; }
int *side(int *p) { return other(p); }
int main(void) {
    int *a = mid(&g1);
    int *b = side(&g2);
    return a == b;
}
";
    let mut h = Harness::new(&[("a.c", CHAIN)]);
    h.run();
    let first = c_engine(&h.db, h.project).clone().unwrap().reuse();
    assert!(first.scratch_reason.is_some(), "{first:?}");

    // An edit that leaves leaf's output as it was: only leaf is re-analysed.
    h.edit(
        "a.c",
        "{ return p; }\nint *mid",
        "{ int *q = p; return q; }\nint *mid",
    );
    let ran = h.run();
    assert!(ran.contains(&"c_engine".to_string()), "{ran:?}");
    let r = c_engine(&h.db, h.project).clone().unwrap().reuse();
    assert_eq!(r.scratch_reason, None, "{r:?}");
    assert_eq!(r.computed_functions, vec![Name::from("leaf")], "{r:?}");
    assert!(r.reused >= 4, "{r:?}");

    // An edit that changes leaf's output: its callers up to main follow, the
    // other branch (side, other) is reused.
    h.edit("a.c", "int *q = p; return q;", "int *q = &g2; return q;");
    h.run();
    let r = c_engine(&h.db, h.project).clone().unwrap().reuse();
    assert_eq!(r.scratch_reason, None, "{r:?}");
    assert_eq!(
        r.computed_functions,
        vec![Name::from("leaf"), Name::from("main"), Name::from("mid")],
        "{r:?}"
    );
    // And the answer is the new one.
    let a = c_analysis(&h.db, h.project).clone().unwrap();
    assert!(a
        .edges
        .iter()
        .any(|e| &*e.caller == "mid" && &*e.callee == "leaf"));
}

#[path = "../../pointee-flow/benches/common/mod.rs"]
#[allow(dead_code)]
mod generated;

/// A write stops an engine run of the outdated revision on another clone
/// (salsa alone cancels only between queries): the run unwinds as a salsa
/// cancellation, the write goes through, and the next run is complete.
#[test]
fn a_write_stops_a_running_engine() {
    let text = generated::generate(10_000, 42);
    let mut h = Harness::new(&[("gen.c", &text)]);
    let (db2, project) = (h.db.clone(), h.project);
    let lowered = Arc::new(std::sync::Barrier::new(2));
    let lowered2 = lowered.clone();
    let run = std::thread::spawn(move || {
        let _ = c_program(&db2, project);
        lowered2.wait();
        salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| {
            c_engine(&db2, project).is_ok()
        }))
    });
    // The engine runs for far longer than this in a test build (0.035 s
    // in a release build; debug is about ten times slower).
    lowered.wait();
    std::thread::sleep(std::time::Duration::from_millis(20));
    h.edit(
        "gen.c",
        "int main(void) {",
        "int main(void) {\n    int unused = 0;",
    );
    let outcome = run.join().expect("the thread does not panic otherwise");
    assert!(
        matches!(outcome, Err(salsa::Cancelled::PendingWrite)),
        "the run was not stopped: {outcome:?}"
    );
    let engine = c_engine(&h.db, h.project).clone().expect("links");
    assert_eq!(
        engine.reuse().scratch_reason.as_deref(),
        Some("no previous run"),
        "the stopped run left nothing to reuse"
    );
}

/// A write that leaves the engine's run current (a comment) does not stop
/// the queries that replay its bodies later.
#[test]
fn queries_after_an_unrelated_write_are_not_stopped() {
    // Big enough that replaying every body looks at the interrupt often.
    let text = generated::generate(10_000, 42);
    let mut h = Harness::new(&[("gen.c", &text)]);
    h.run();
    h.edit("gen.c", "int main(void) {", "/* entry */\nint main(void) {");
    let ran = h.run();
    assert!(!ran.contains(&"c_engine".to_string()), "{ran:?}");
    let engine = c_engine(&h.db, h.project).clone().unwrap();
    let reached = engine.with(|program, a| {
        let mut n = 0;
        for f in &program.functions {
            for u in a.units_of(&f.name) {
                let after = pointee_ir::Point::After(pointee_ir::StmtId(0));
                n += a.facts_at(u, after).is_some() as usize;
            }
        }
        n
    });
    assert!(reached > 1000, "{reached}");
}

/// tree-sitter's incremental re-parse of a broken text may recover from
/// the error differently than a fresh parse (found by pointee-fuzz's
/// incremental-equals-fresh runs on `RecursionContexts.java`: go to
/// definition answered differently after the same two edits). The syntax
/// tree answers read must not depend on the edit history.
#[test]
fn a_broken_texts_tree_is_the_fresh_parse_whatever_the_edits() {
    let original = include_str!("../../../fixtures/java/RecursionContexts.java");
    let point = |s: &str, off: usize| {
        let before = &s[..off];
        let row = before.matches('\n').count();
        let col = off - before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        tree_sitter::Point { row, column: col }
    };
    let mut text = original.to_string();
    let mut tree = parse(Lang::Java, &text, None);
    // `a != null` becomes `static != null`; then `if (n <= 0) {` goes.
    let a = original.find("(a != null").unwrap() + 1;
    let cond = original.find("        if (n <= 0) {\n").unwrap() + "static".len() - 1;
    for (start, end, new) in [(a, a + 1, "static"), (cond, cond + 22, "")] {
        let next = format!("{}{new}{}", &text[..start], &text[end..]);
        tree.edit(&tree_sitter::InputEdit {
            start_byte: start,
            old_end_byte: end,
            new_end_byte: start + new.len(),
            start_position: point(&text, start),
            old_end_position: point(&text, end),
            new_end_position: point(&next, start + new.len()),
        });
        text = next;
        tree = parse(Lang::Java, &text, Some(&tree));
    }
    let fresh = parse(Lang::Java, &text, None);
    let db = Database::default();
    let file = SourceFile::new(
        &db,
        "RecursionContexts.java".to_string(),
        Arc::from(text.as_str()),
        Some(TreeHandle(Arc::new(tree))),
    );
    let answered = syntax_tree(&db, file).as_ref().unwrap();
    assert_eq!(
        answered.0.root_node().to_sexp(),
        fresh.root_node().to_sexp()
    );
}
