//! Times the Java side of the database on the generated benchmark program
//! (pointee-cspta's `gen::large_files`, seed 42: `Main.java` and one file
//! per module; or all in one file): from scratch (parse, lower, solve:
//! `java_analysis` and `java_program`), then after one-line edits of
//! `Main.java` that add an assignment inside `main`'s body, a method, a
//! field and a class, each followed by the edit that removes it again,
//! each re-parsed incrementally as an editor would.
//!
//! ```text
//! cargo run --release -p pointee-db --example java_edit_time -- [MODULES] [VARIANT] [files|one-file] [all|body|none]
//! ```
//!
//! Prints wall and CPU (user + system) seconds per step, and how the solve
//! began (`Continued`: from the previous solution; `Fresh`: from scratch,
//! and why). Lowering re-runs only the edited unit.

#[path = "../../pointee-cspta/tests/common/gen.rs"]
#[allow(dead_code)]
mod gen;

use pointee_db::{
    java_analysis, java_engine, java_program, parse, set_config, upsert_files, Config, Database,
    Lang, Project, TreeHandle,
};
use std::sync::Arc;
use std::time::Instant;

/// The process's CPU time (user and system) so far, in seconds.
fn cpu_s() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let rest = s.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

/// `old` with `new` spliced in at `at` (replacing `old_len` bytes), and
/// its tree re-parsed from `tree` edited to match. Never inlined: callgrind
/// splits the run at each call (`--dump-before='java_edit_time::edit'`).
#[inline(never)]
fn edit(
    tree: &tree_sitter::Tree,
    old: &str,
    at: usize,
    old_len: usize,
    new: &str,
) -> (String, tree_sitter::Tree) {
    let text = format!("{}{}{}", &old[..at], new, &old[at + old_len..]);
    let point = |s: &str, off: usize| {
        let before = &s[..off];
        let row = before.matches('\n').count();
        let column = off - before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        tree_sitter::Point { row, column }
    };
    let mut edited = tree.clone();
    edited.edit(&tree_sitter::InputEdit {
        start_byte: at,
        old_end_byte: at + old_len,
        new_end_byte: at + new.len(),
        start_position: point(old, at),
        old_end_position: point(old, at + old_len),
        new_end_position: point(&text, at + new.len()),
    });
    let tree = parse(Lang::Java, &text, Some(&edited));
    (text, tree)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let modules: usize = args.get(1).map_or(740, |m| m.parse().unwrap());
    let variant = args.get(2).cloned().unwrap_or_else(|| "ci".into());
    // `files` (the default): `Main.java` and one file per module, as a
    // Java project lays them out; `one-file`: all in `Main.java`.
    let layout = args.get(3).cloned().unwrap_or_else(|| "files".into());
    let files = match layout.as_str() {
        "files" => gen::large_files(modules, 6, 42),
        "one-file" => vec![("Main.java".to_string(), gen::large(modules, 6, 42))],
        other => panic!("layout {other}: `files` or `one-file`"),
    };
    let mut db = Database::default();
    let project = Project::new(&db, Vec::new(), Config::default());
    set_config(
        &mut db,
        project,
        Config {
            java_cs: Some(variant.clone()),
            ..Config::default()
        },
    );
    let step = |label: &str, db: &Database, t0: Instant, c0: f64| {
        // The phases in the order the queries need them: lowering (and
        // parsing, outlining, assembling), the solve, the answers.
        let _ = java_program(db, project);
        let lowered = cpu_s() - c0;
        let _ = java_engine(db, project);
        let solved = cpu_s() - c0;
        let a = java_analysis(db, project).clone().expect("analyses");
        let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_s() - c0);
        println!(
            "{variant} {label}: {wall:.3} s wall ({cpu:.2} s CPU: lowering {lowered:.2}, \
             solve {:.2}, answers {:.2}), {} call edges, solve: {:?}",
            solved - lowered,
            cpu - solved,
            a.edges.len(),
            java_engine(db, project).0.resumed()
        );
        (wall, cpu)
    };
    // From scratch: the editor has `Main.java` open (its tree is the
    // editor's parse, timed here); the other files are read from the disk
    // (no tree: the database parses them).
    let (t0, c0) = (Instant::now(), cpu_s());
    assert_eq!(files[0].0, "Main.java", "the edited file comes first");
    let main_tree = parse(Lang::Java, &files[0].1, None);
    let added = upsert_files(
        &mut db,
        project,
        files
            .iter()
            .map(|(path, text)| {
                let tree = (path == "Main.java").then(|| TreeHandle(Arc::new(main_tree.clone())));
                (path.as_str(), text.as_str().into(), tree)
            })
            .collect(),
    );
    let main = Some((added[0], files[0].1.clone(), main_tree));
    let scratch = step(
        &format!("from scratch (parse, lower, solve; {} files)", files.len()),
        &db,
        t0,
        c0,
    );
    let (file, mut text, mut tree) = main.expect("Main.java");
    // Each edit added after its anchor, then removed again, timing each
    // from the edit on: inside `main`'s body (an assignment), then
    // declarations (a method, a field, a class).
    let after = |anchor: &str| text.find(anchor).expect("anchor") + anchor.len();
    let edits = [
        (
            "an assignment",
            after("public static void main(String[] args) {\n"),
            "        Object added = SHARED;\n",
        ),
        (
            "a method",
            after("static Object id(Object o) { return o; }\n"),
            "    static Object added(Object o) { return SHARED; }\n",
        ),
        (
            "a field",
            after("static Object SHARED;\n"),
            "    static Object ADDED;\n",
        ),
        (
            "a class",
            after("class SNode") - "class SNode".len(),
            "class Added { Object f; }\n",
        ),
    ];
    // `all` (the default), `body` (the assignment only) or `none` (from
    // scratch only: for callgrind).
    let which = args.get(4).map_or("all", String::as_str);
    let count = match which {
        "all" => edits.len(),
        "body" => 1,
        "none" => 0,
        other => panic!("edits {other}: `all`, `body` or `none`"),
    };
    let mut ratios = Vec::new();
    // Each edit is removed again before the next, so the positions hold.
    for (what, at, line) in edits.into_iter().take(count) {
        for (verb, old_len, new) in [("adding", 0, line), ("removing", line.len(), "")] {
            let (t0, c0) = (Instant::now(), cpu_s());
            let (edited, edited_tree) = edit(&tree, &text, at, old_len, new);
            db.set_text(
                file,
                edited.as_str().into(),
                Some(TreeHandle(Arc::new(edited_tree.clone()))),
            );
            let (wall, cpu) = step(&format!("after {verb} {what}"), &db, t0, c0);
            ratios.push(format!(
                "{verb} {what} {:.1}% wall, {:.1}% CPU",
                100.0 * wall / scratch.0,
                100.0 * cpu / scratch.1
            ));
            (text, tree) = (edited, edited_tree);
        }
    }
    println!(
        "{variant}: after an edit / from scratch: {}",
        ratios.join("; ")
    );
}
