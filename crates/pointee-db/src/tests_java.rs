//! Incremental Java, proved from salsa's execution events as the C tests
//! are (`tests.rs`): a unit (top-level type) is lowered again only when its
//! text or the class table changed, and switching the context sensitivity
//! analyses once and lowers nothing.

use super::tests::{strs, Harness};
use super::*;
use salsa::plumbing::AsId;
use salsa::Database as _;

const SHAPES: &str = "\
class Shape {
    Object tag;
    Object tag() { return tag; }
}
class Circle extends Shape {
    Object tag() { return new Object(); }
}
";

const MAIN: &str = "\
public class Main {
    static Object keep;
    public static void main(String[] args) {
        Shape s = new Shape();
        if (args.length > 0) s = new Circle();
        keep = s.tag();
    }
}
class Helper {
    Object help(Object o) { return o; }
}
";

/// Runs what the server asks of a Java program (the analysis, and the
/// lowered program with its source maps) and returns the queries that
/// re-executed, per-unit ones as `query(File.java#index)`.
fn run(h: &mut Harness) -> Vec<String> {
    h.log.lock().unwrap().clear();
    let db = &h.db;
    let _ = java_analysis(db, h.project);
    let _ = java_program(db, h.project);
    let mut keys: Vec<(salsa::Id, String)> = Vec::new();
    for &f in h.project.files(db) {
        for i in 0..java_outline(db, f).units.len() {
            let key = JavaUnitKey::new(db, h.project, f, i as u32);
            keys.push((key.as_id(), format!("{}#{i}", f.path(db))));
        }
    }
    let mut out: Vec<String> = h
        .log
        .lock()
        .unwrap()
        .iter()
        .map(|k| {
            let name = db.ingredient_debug_name(k.ingredient_index()).to_string();
            match keys.iter().find(|(id, _)| *id == k.key_index()) {
                Some((_, unit)) if name.starts_with("java_unit") => format!("{name}({unit})"),
                _ => name,
            }
        })
        .collect();
    out.sort();
    out
}

fn harness() -> Harness {
    Harness::new(&[("Main.java", MAIN), ("Shapes.java", SHAPES)])
}

/// The program as one lowering of every file gives it.
fn lowered_at_once(h: &Harness) -> JavaLowered {
    let db = &h.db;
    let files: Vec<(&str, &str)> = h
        .project
        .files(db)
        .iter()
        .map(|f| (f.path(db).as_str(), &**f.text(db)))
        .collect();
    JavaLowered(pointee_java::lower(&files))
}

/// How many units `java_unit` took lowered ahead from their file's tree,
/// and how many it lowered by parsing their own text, since the last call.
fn unit_sources(h: &Harness) -> (usize, usize) {
    let mut ahead = h.db.java_reuse().lock().unwrap();
    let counts = (ahead.taken, ahead.parsed);
    (ahead.taken, ahead.parsed) = (0, 0);
    counts
}

/// How many units `java_outline` outlined afresh since the last call, after
/// checking that every file's outline is the one a fresh parse gives.
fn outlined_afresh(h: &Harness) -> usize {
    for &f in h.project.files(&h.db) {
        let text = f.text(&h.db);
        let tree = pointee_java::parser().parse(&**text, None).unwrap();
        assert_eq!(
            **java_outline(&h.db, f),
            pointee_java::outline(f.path(&h.db), text, &tree)
        );
    }
    let mut reuse = h.db.java_reuse().lock().unwrap();
    std::mem::take(&mut reuse.outlined)
}

fn lowered_units(ran: &[String]) -> Vec<&str> {
    ran.iter()
        .filter(|r| r.starts_with("java_unit("))
        .map(|r| r.as_str())
        .collect()
}

#[test]
fn the_first_run_lowers_each_unit_once() {
    let mut h = harness();
    let ran = run(&mut h);
    assert_eq!(
        lowered_units(&ran),
        vec![
            "java_unit(Main.java#0)",
            "java_unit(Main.java#1)",
            "java_unit(Shapes.java#0)",
            "java_unit(Shapes.java#1)",
        ]
    );
    for q in [
        "java_class_table",
        "java_program",
        "java_engine",
        "java_analysis",
    ] {
        assert_eq!(ran.iter().filter(|r| *r == q).count(), 1, "{q} in {ran:?}");
    }
    // Each file parsed and outlined once, whichever thread did it (the
    // files are outlined in parallel, each on its own database handle).
    for q in ["java_outline", "syntax_tree"] {
        assert_eq!(ran.iter().filter(|r| *r == q).count(), 2, "{q} in {ran:?}");
    }
    // Lowered from the tree the outline read: no unit parsed again.
    assert_eq!(unit_sources(&h), (4, 0));
    // The call edges are sorted and each is there once.
    let a = java_analysis(&h.db, h.project).clone().unwrap();
    assert!(a.edges.len() > 3, "{:?}", a.edges);
    assert!(a.edges.windows(2).all(|w| w[0] < w[1]), "{:?}", a.edges);
    assert_eq!(*java_program(&h.db, h.project).clone(), lowered_at_once(&h));
}

#[test]
fn a_body_edit_lowers_only_its_class_and_analyses_once() {
    let mut h = harness();
    run(&mut h);
    unit_sources(&h);
    assert_eq!(outlined_afresh(&h), 4, "the first outlines");
    h.edit(
        "Shapes.java",
        "Object tag() { return new Object(); }",
        "Object tag() { Object t = new Object(); return t; }",
    );
    let ran = run(&mut h);
    assert_eq!(
        lowered_units(&ran),
        vec!["java_unit(Shapes.java#1)"],
        "{ran:?}"
    );
    // The class table is the same: nothing is lowered ahead, the one unit
    // parses its own text; the outline takes the other units' parts from
    // the last one.
    assert_eq!(unit_sources(&h), (0, 1));
    assert_eq!(outlined_afresh(&h), 1);
    assert!(!ran.contains(&"java_class_table".to_string()), "{ran:?}");
    assert_eq!(
        ran.iter().filter(|r| *r == "java_engine").count(),
        1,
        "{ran:?}"
    );
    assert_eq!(*java_program(&h.db, h.project).clone(), lowered_at_once(&h));
    // An edit in the other file lowers nothing of this one.
    h.edit("Main.java", "keep = s.tag();", "keep = s.tag(); keep = s;");
    let ran = run(&mut h);
    assert_eq!(
        lowered_units(&ran),
        vec!["java_unit(Main.java#0)"],
        "{ran:?}"
    );
    assert_eq!(*java_program(&h.db, h.project).clone(), lowered_at_once(&h));
}

#[test]
fn edits_the_ir_does_not_see_lower_and_analyse_nothing() {
    let mut h = harness();
    run(&mut h);
    // A comment before a unit moves the units after it: none is lowered
    // again (positions are relative to the unit), the IR is equal.
    outlined_afresh(&h);
    h.edit("Main.java", "class Helper {", "/* helps */\nclass Helper {");
    let ran = run(&mut h);
    assert_eq!(lowered_units(&ran), Vec::<&str>::new(), "{ran:?}");
    // Nor outlined again: the outline re-runs, moving the unit's part.
    assert_eq!(outlined_afresh(&h), 0);
    assert!(ran.contains(&"java_program".to_string()), "{ran:?}");
    assert!(!ran.contains(&"java_engine".to_string()), "{ran:?}");
    assert_eq!(*java_program(&h.db, h.project).clone(), lowered_at_once(&h));
    // And back: the unit moves earlier than where it was lowered.
    h.edit("Main.java", "/* helps */\nclass Helper {", "class Helper {");
    let ran = run(&mut h);
    assert_eq!(lowered_units(&ran), Vec::<&str>::new(), "{ran:?}");
    assert_eq!(*java_program(&h.db, h.project).clone(), lowered_at_once(&h));
}

/// Edits `path` (`from` to `to`), runs, and checks that exactly the units
/// `lowered` were lowered again and that the program is the one lowering
/// every file at once gives; returns what ran.
fn edit_lowers(h: &mut Harness, path: &str, from: &str, to: &str, lowered: &[&str]) -> Vec<String> {
    h.edit(path, from, to);
    let ran = run(h);
    assert_eq!(lowered_units(&ran), lowered, "{ran:?}");
    assert_eq!(*java_program(&h.db, h.project).clone(), lowered_at_once(h));
    ran
}

#[test]
fn a_declaration_edit_lowers_only_the_units_that_read_it() {
    // A new field of `Shape` changes the class table; the units that
    // looked `Shape` up (itself, its subclass `Circle`, and `Main`, which
    // makes one and calls it) are lowered again, `Helper` is not.
    let mut h = harness();
    run(&mut h);
    unit_sources(&h);
    let ran = edit_lowers(
        &mut h,
        "Shapes.java",
        "Object tag;",
        "Object tag; Object other;",
        &[
            "java_unit(Main.java#0)",
            "java_unit(Shapes.java#0)",
            "java_unit(Shapes.java#1)",
        ],
    );
    // Lowered again from the files' trees, on every core.
    assert_eq!(unit_sources(&h), (3, 0));
    assert!(ran.contains(&"java_class_table".to_string()), "{ran:?}");
    // A method of `Helper`, which no other unit names: `Helper` alone.
    edit_lowers(
        &mut h,
        "Main.java",
        "Object help(Object o) { return o; }",
        "Object help(Object o) { return o; }\n    Object more() { return null; }",
        &["java_unit(Main.java#1)"],
    );
    // A signature a body calls: `Main` calls `tag()`, so a `tag()` that
    // now takes an argument lowers `Main` (it resolves the call), `Shape`
    // and `Circle`, but not `Helper`.
    edit_lowers(
        &mut h,
        "Shapes.java",
        "Object tag() { return tag; }",
        "Object tag() { return tag; }\n    Object tag(Object o) { return o; }",
        &[
            "java_unit(Main.java#0)",
            "java_unit(Shapes.java#0)",
            "java_unit(Shapes.java#1)",
        ],
    );
}

#[test]
fn a_new_class_lowers_the_units_that_looked_its_name_up() {
    // `Main`'s body makes an `Extra` before any class has that name (a
    // type the front end does not know): adding the class lowers `Main`
    // again, and the units of its file from it on, but not `Shape` nor
    // `Helper`.
    let main = MAIN.replace("keep = s.tag();", "keep = s.tag(); keep = new Extra();");
    let mut h = Harness::new(&[("Main.java", &main), ("Shapes.java", SHAPES)]);
    run(&mut h);
    // `Circle` moved from #1 to #2: its text at #1 is new, so #1 lowers
    // (as `Extra`) and #2 (as `Circle`).
    edit_lowers(
        &mut h,
        "Shapes.java",
        "class Circle extends Shape {",
        "class Extra { Object e; }\nclass Circle extends Shape {",
        &[
            "java_unit(Main.java#0)",
            "java_unit(Shapes.java#1)",
            "java_unit(Shapes.java#2)",
        ],
    );
    // And a class no unit names, at the end of a file: that unit alone.
    edit_lowers(
        &mut h,
        "Main.java",
        "class Helper {",
        "class Unused { }\nclass Helper {",
        &["java_unit(Main.java#1)", "java_unit(Main.java#2)"],
    );
    // A class first in its file moves every other class of the file to
    // the next unit (their `origin`): the units of that file are new
    // texts at their places, but `Main`, which reads `Shape` and `Circle`
    // only as classes, is not lowered again.
    edit_lowers(
        &mut h,
        "Shapes.java",
        "class Shape {",
        "class First { }\nclass Shape {",
        &[
            "java_unit(Shapes.java#0)",
            "java_unit(Shapes.java#1)",
            "java_unit(Shapes.java#2)",
            "java_unit(Shapes.java#3)",
        ],
    );
}

#[test]
fn switching_the_context_sensitivity_analyses_once_and_lowers_nothing() {
    let mut h = harness();
    run(&mut h);
    for cs in ["2-obj", "2-type", "1-call", "ci"] {
        let config = Config {
            java_cs: Some(cs.into()),
            ..Config::default()
        };
        set_config(&mut h.db, h.project, config.clone());
        let ran = run(&mut h);
        assert_eq!(
            ran.iter()
                .filter(|r| r.starts_with("java_"))
                .cloned()
                .collect::<Vec<_>>(),
            strs(&["java_analysis", "java_config", "java_engine"]),
            "{cs}: {ran:?}"
        );
        // The answers follow: equal to a fresh database's under `cs`.
        let mut fresh = harness();
        set_config(&mut fresh.db, fresh.project, config);
        assert_eq!(
            java_analysis(&h.db, h.project),
            java_analysis(&fresh.db, fresh.project),
            "{cs}"
        );
    }
    // A C setting is no Java setting.
    let config = Config {
        java_cs: Some("ci".into()),
        c_context_bound: Some(3),
        ..Config::default()
    };
    set_config(&mut h.db, h.project, config);
    let ran = run(&mut h);
    assert!(!ran.contains(&"java_engine".to_string()), "{ran:?}");
}

#[path = "../../pointee-cspta/tests/common/gen.rs"]
#[allow(dead_code)]
mod java_gen;

/// A write stops a Java solve of the outdated revision on another clone
/// (salsa alone cancels only between queries): the solve unwinds as a
/// salsa cancellation, the write goes through, and the next run is whole.
#[test]
fn a_write_stops_a_running_java_analysis() {
    let text = java_gen::large(25, 6, 9);
    let mut h = Harness::new(&[("Main.java", &text)]);
    set_config(
        &mut h.db,
        h.project,
        Config {
            java_cs: Some("2-obj".into()),
            ..Config::default()
        },
    );
    let (db2, project) = (h.db.clone(), h.project);
    let lowered = Arc::new(std::sync::Barrier::new(2));
    let lowered2 = lowered.clone();
    let run = std::thread::spawn(move || {
        let _ = java_ir(&db2, project);
        lowered2.wait();
        salsa::Cancelled::catch(std::panic::AssertUnwindSafe(|| {
            java_engine(&db2, project).0.analysis().is_ok()
        }))
    });
    // The solve runs for far longer than this in a test build.
    lowered.wait();
    std::thread::sleep(std::time::Duration::from_millis(20));
    h.edit(
        "Main.java",
        "public static void main(String[] args) {",
        "public static void main(String[] args) {\n        Object unused = null;",
    );
    let outcome = run.join().expect("the thread does not panic otherwise");
    assert!(
        matches!(outcome, Err(salsa::Cancelled::PendingWrite)),
        "the run was not stopped: {outcome:?}"
    );
    let mut fresh = Harness::new(&[("Main.java", &*h.file("Main.java").text(&h.db).clone())]);
    set_config(&mut fresh.db, fresh.project, project.config(&h.db).clone());
    assert_eq!(
        java_analysis(&h.db, h.project),
        java_analysis(&fresh.db, fresh.project)
    );
}

/// How the last Java solve began.
fn resumed(h: &Harness) -> Option<pointee_cspta::Resumed> {
    java_engine(&h.db, h.project).0.resumed()
}

/// The last solve began as `how`, and the analysis answers as a fresh
/// database of the same texts does.
fn solved_as(h: &Harness, how: Option<pointee_cspta::Resumed>) {
    assert_eq!(resumed(h), how);
    same_as_fresh(h);
}

/// The analysis answers as a fresh database of the same texts does.
fn same_as_fresh(h: &Harness) {
    let text = |f: &str| h.file(f).text(&h.db).to_string();
    let fresh = Harness::new(&[
        ("Main.java", &text("Main.java")),
        ("Shapes.java", &text("Shapes.java")),
    ]);
    assert_eq!(
        java_analysis(&h.db, h.project),
        java_analysis(&fresh.db, fresh.project)
    );
}

/// An edit that adds a statement to a body goes on from the last solve;
/// one that removes it too (retracting what the statement reached); both
/// answer as a fresh database does.
#[test]
fn an_added_statement_resumes_the_last_solve() {
    let mut h = harness();
    run(&mut h);
    assert_eq!(resumed(&h), None, "the first run has nothing to go on from");
    h.edit(
        "Main.java",
        "keep = s.tag();",
        "keep = s.tag(); Object more = keep; keep = more;",
    );
    let ran = run(&mut h);
    assert_eq!(lowered_units(&ran), vec!["java_unit(Main.java#0)"]);
    // The functions' names are the same: their order is not sorted again.
    assert!(ran.iter().any(|r| r == "java_function_names"), "{ran:?}");
    assert!(
        !ran.iter().any(|r| r == "java_functions_by_name"),
        "{ran:?}"
    );
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Continued { edited_methods: 1 }),
    );
    h.edit("Main.java", " Object more = keep; keep = more;", "");
    run(&mut h);
    // The static field `keep` is emptied and filled again (`more` is gone).
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Retracted {
            edited_methods: 1,
            emptied_nodes: 1,
        }),
    );
}

/// A field added (a declaration edit: the units that read its class are
/// lowered again, see `a_declaration_edit_lowers_only_the_units_that_read_it`)
/// goes on from the last solve, since no class fact changed; removed
/// again, too; both answer as a fresh database does.
#[test]
fn a_field_added_or_removed_resumes_the_last_solve() {
    let mut h = harness();
    run(&mut h);
    h.edit("Shapes.java", "Object tag;", "Object tag; Object other;");
    run(&mut h);
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Continued { edited_methods: 0 }),
    );
    h.edit("Shapes.java", " Object other;", "");
    run(&mut h);
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Continued { edited_methods: 0 }),
    );
    // A static field with an initialiser where `Main` had none:
    // `Main.<clinit>()` is a method added, which `main` runs (it
    // initialises `Main`); the old solution goes on.
    h.edit(
        "Main.java",
        "static Object keep;",
        "static Object keep; static Object more = new Object();",
    );
    run(&mut h);
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Continued { edited_methods: 0 }),
    );
    // Removed again: the old solution reached it, so from scratch.
    h.edit("Main.java", " static Object more = new Object();", "");
    run(&mut h);
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Fresh(
            "a method the last solve reached is gone",
        )),
    );
}

/// A method or class added goes on from the last solve (the old ids
/// renamed by name), lowering again only the units that read the class
/// it changed; the same removed goes on while the last solve never
/// reached it. Each answers as a fresh database does.
#[test]
fn methods_and_classes_added_resume_the_last_solve() {
    let mut h = harness();
    run(&mut h);
    // A method of `Helper`, which nothing calls.
    let ran = edit_lowers(
        &mut h,
        "Main.java",
        "Object help(Object o) { return o; }",
        "Object help(Object o) { return o; }\n    Object more() { return null; }",
        &["java_unit(Main.java#1)"],
    );
    assert!(ran.iter().any(|r| r == "java_engine"), "{ran:?}");
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Continued { edited_methods: 0 }),
    );
    h.edit("Main.java", "\n    Object more() { return null; }", "");
    run(&mut h);
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Continued { edited_methods: 0 }),
    );
    // A class added after `Helper`, and `main` making one and calling it.
    h.edit(
        "Main.java",
        "keep = s.tag();",
        "keep = s.tag(); keep = new Extra().make();",
    );
    h.edit(
        "Shapes.java",
        "class Circle",
        "class Extra { Object make() { return new Circle(); } }\nclass Circle",
    );
    run(&mut h);
    solved_as(
        &h,
        Some(pointee_cspta::Resumed::Continued { edited_methods: 1 }),
    );
}

#[test]
fn files_added_at_once_are_the_files_added_one_by_one() {
    // One by one (the harness), then the same files and one more at once,
    // one of them with a new text: the known files keep their inputs,
    // the list stays in path order, and the program is the same as
    // lowering the texts directly.
    let mut h = harness();
    let known: Vec<SourceFile> = h.project.files(&h.db).clone();
    let edited = MAIN.replace("static Object keep;", "static Object keep, other;");
    let added = upsert_files(
        &mut h.db,
        h.project,
        vec![
            ("Shapes.java", SHAPES.into(), None),
            ("Extra.java", "class Extra { Object e; }\n".into(), None),
            ("Main.java", edited.as_str().into(), None),
        ],
    );
    assert_eq!(added[0], known[1]);
    assert_eq!(added[2], known[0]);
    assert!(!known.contains(&added[1]));
    let paths: Vec<&str> = h
        .project
        .files(&h.db)
        .iter()
        .map(|f| f.path(&h.db).as_str())
        .collect();
    assert_eq!(paths, ["Extra.java", "Main.java", "Shapes.java"]);
    assert_eq!(&**added[2].text(&h.db), edited.as_str());
    assert_eq!(*java_program(&h.db, h.project).clone(), lowered_at_once(&h));
}
