//! Times the Java side of the database on the generated benchmark program
//! (pointee-cspta's `gen::large`, seed 42): from scratch (parse, lower,
//! solve: `java_analysis` and `java_program`), then after a one-line edit
//! inside `main`'s body that adds an assignment, and after the edit that
//! removes it again, each re-parsed incrementally as an editor would.
//!
//! ```text
//! cargo run --release -p pointee-db --example java_edit_time -- [MODULES] [VARIANT]
//! ```
//!
//! Prints wall and CPU (user + system) seconds per step, and how the solve
//! began (`Continued`: from the previous solution; `Fresh`: from scratch,
//! and why). Lowering re-runs only the edited unit.

#[path = "../../pointee-cspta/tests/common/gen.rs"]
#[allow(dead_code)]
mod gen;

use pointee_db::{
    java_analysis, java_engine, java_program, parse, set_config, upsert_file, Config, Database,
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
/// its tree re-parsed from `tree` edited to match.
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
    let text = gen::large(modules, 6, 42);
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
        cpu
    };
    let (t0, c0) = (Instant::now(), cpu_s());
    let tree = parse(Lang::Java, &text, None);
    let file = upsert_file(
        &mut db,
        project,
        "Main.java",
        text.as_str().into(),
        Some(TreeHandle(Arc::new(tree.clone()))),
    );
    let scratch = step("from scratch (parse, lower, solve)", &db, t0, c0);
    let anchor = "public static void main(String[] args) {\n";
    let at = text.find(anchor).expect("main") + anchor.len();
    let line = "        Object added = SHARED;\n";
    // Add the line, then remove it, timing each from the edit on.
    let (t0, c0) = (Instant::now(), cpu_s());
    let (added, added_tree) = edit(&tree, &text, at, 0, line);
    db.set_text(
        file,
        added.as_str().into(),
        Some(TreeHandle(Arc::new(added_tree.clone()))),
    );
    let add = step("after adding an assignment", &db, t0, c0);
    let (t0, c0) = (Instant::now(), cpu_s());
    let (removed, removed_tree) = edit(&added_tree, &added, at, line.len(), "");
    db.set_text(
        file,
        removed.as_str().into(),
        Some(TreeHandle(Arc::new(removed_tree))),
    );
    let remove = step("after removing it", &db, t0, c0);
    println!(
        "{variant}: CPU after an edit / from scratch: add {:.0}%, remove {:.0}%",
        100.0 * add / scratch,
        100.0 * remove / scratch
    );
}
