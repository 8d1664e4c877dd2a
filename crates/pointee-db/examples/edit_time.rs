//! Times what the database does after a one-line edit of a (large) C file:
//! `c_program` (the front end's share: preprocessing, outline, the
//! function's lowering, linking), then `lower_c` (the file's positions), as
//! the language server asks for them after each keystroke.
//!
//! ```text
//! cargo run --release -p pointee-db --example edit_time -- FILE.c [ROUNDS] [OTHER.c|OTHER.h ...] [-DX ...]
//! ```
//!
//! Loads the file with a parsed tree (its includes read from the disk),
//! with the other files of its program when given (`.c` and `.h`, read
//! from the disk and put in the database as the language server puts the
//! files of a workspace that are not open; a header given is read from
//! the database, others from the disk)
//! and `-D`/`-I`/... for every unit, computes `c_program`, then `ROUNDS`
//! times (20 by default) inserts a line in the middle function's body and
//! removes it again, re-parsing incrementally as an editor would, and times
//! the queries after each of the two edits; then the same with a comment
//! line inserted just before that function (not with `BODY_ONLY` set: for
//! profiles of the body edit).

use pointee_db::{c_program, lower_c, parse, upsert_file, Database, Lang, Project, TreeHandle};

/// The disk, for the file's includes.
struct Disk;

impl pointee_db::FileSystem for Disk {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        let b = std::fs::read(path).ok()?;
        Some(String::from_utf8_lossy(&b).into())
    }
}
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Applies `text[at..at+old_len] = new` to the tree and re-parses it.
fn reparse(
    tree: &tree_sitter::Tree,
    old: &str,
    new: &str,
    at: usize,
    old_len: usize,
    new_len: usize,
) -> tree_sitter::Tree {
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
        new_end_byte: at + new_len,
        start_position: point(old, at),
        old_end_position: point(old, at + old_len),
        new_end_position: point(new, at + new_len),
    });
    parse(Lang::C, new, Some(&edited))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn summary(label: &str, mut v: Vec<Duration>) {
    v.sort();
    let mean = v.iter().sum::<Duration>() / v.len() as u32;
    println!(
        "{label}: n={} min {:.2} ms, median {:.2} ms, mean {:.2} ms, max {:.2} ms",
        v.len(),
        ms(v[0]),
        ms(v[v.len() / 2]),
        ms(mean),
        ms(v[v.len() - 1])
    );
}

/// Resident and peak memory (MiB), where `/proc` tells them.
fn memory() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let get = |k: &str| {
        status
            .lines()
            .find(|l| l.starts_with(k))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (get("VmRSS:"), get("VmHWM:"))
}

/// A line inserted at a byte offset (and removed again).
struct Edit {
    at: usize,
    line: &'static str,
}

/// The database with the file being edited and its current tree.
struct Session {
    db: Database,
    file: pointee_db::SourceFile,
    project: Project,
    tree: tree_sitter::Tree,
    functions: usize,
}

impl Session {
    /// Applies `edit` and undoes it, `rounds` times, timing the queries
    /// after each of the two edits.
    fn time(&mut self, what: &str, original: &str, edit: &Edit, rounds: usize) {
        let (at, line) = (edit.at, edit.line);
        let edited = format!("{}{line}{}", &original[..at], &original[at..]);
        let (mut times, mut outlines, mut lowers) = (Vec::new(), Vec::new(), Vec::new());
        let mut expansions = Vec::new();
        let mut parses = Vec::new();
        let mut current = original.to_string();
        for _ in 0..rounds {
            for next in [&edited, original] {
                let (old_len, new_len) = if next.len() > current.len() {
                    (0, line.len())
                } else {
                    (line.len(), 0)
                };
                let t = Instant::now();
                self.tree = reparse(&self.tree, &current, next, at, old_len, new_len);
                parses.push(t.elapsed());
                self.db.set_text(
                    self.file,
                    next.into(),
                    Some(TreeHandle(Arc::new(self.tree.clone()))),
                );
                current = next.to_string();
                // `c_expanded` and `c_outline` first, to see what they take
                // of the total.
                let t = Instant::now();
                let _ = pointee_db::c_expanded(&self.db, self.file);
                expansions.push(t.elapsed());
                let _ = pointee_db::c_outline(&self.db, self.file);
                outlines.push(t.elapsed());
                // The front end's share: the function lowered again and the
                // program linked; then the file's positions (hover, checks).
                let ok = c_program(&self.db, self.project).is_ok();
                times.push(t.elapsed());
                let n = lower_c(&self.db, self.file).program.functions.len();
                lowers.push(t.elapsed());
                assert!(n == self.functions && ok);
            }
        }
        println!("after {what}:");
        summary("  incremental re-parse", parses);
        summary("  c_expanded (preprocessing)", expansions);
        summary("  c_expanded + c_outline", outlines);
        summary("  c_outline + c_program (the front end's share)", times);
        summary("  c_program + lower_c (the file's positions)", lowers);
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: edit_time FILE.c [ROUNDS]");
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(20);
    let (flags, others): (Vec<String>, Vec<String>) = args.partition(|a| a.starts_with('-'));
    let others: Vec<String> = others.into_iter().filter(|o| *o != path).collect();
    let original = std::fs::read_to_string(&path).expect("reading the C file");

    let mut db = Database::default().with_system(Arc::new(Disk));
    let project = Project::new(&db, Vec::new(), Default::default());
    let config = pointee_db::UnitConfig::from_args(&flags, "");
    let configs = std::iter::once(&path)
        .chain(&others)
        .map(|u| (u.clone(), config.clone()))
        .collect();
    pointee_db::set_c_configs(&mut db, configs);
    for other in &others {
        let text = std::fs::read_to_string(other).expect("reading a unit");
        upsert_file(&mut db, project, other, text.into(), None);
    }
    let t = Instant::now();
    let tree = parse(Lang::C, &original, None);
    let parsed = t.elapsed();
    let file = upsert_file(
        &mut db,
        project,
        &path,
        original.as_str().into(),
        Some(TreeHandle(Arc::new(tree.clone()))),
    );
    let t = Instant::now();
    let functions = lower_c(&db, file).program.functions.len();
    let first_lower = t.elapsed();
    let t = Instant::now();
    let linked = c_program(&db, project).as_ref().map(|p| p.functions.len());
    let first_program = t.elapsed();
    println!(
        "{path} (and {} other files): {} lines, {functions} functions; parse {:.2} ms, first lower_c {:.2} ms, first c_program {:.2} ms ({linked:?} functions linked)",
        others.len(),
        original.lines().count(),
        ms(parsed),
        ms(first_lower),
        ms(first_program)
    );

    // The edit: a new first line in the body of the middle function.
    let name = {
        let fs = &lower_c(&db, file).source.functions;
        fs[fs.len() / 2].name.clone()
    };
    let body = lower_c(&db, file)
        .source
        .function(&name)
        .map(|f| f.range)
        .expect("the middle function has a source");
    let at = original[body.start as usize..body.end as usize]
        .find('{')
        .map(|i| body.start as usize + i + 1)
        .expect("a body");
    let body_edit = Edit {
        at,
        line: "\n    int edit_time_probe = 0;",
    };
    println!("editing the body of `{name}` at byte {at}");
    let mut session = Session {
        db,
        file,
        project,
        tree,
        functions,
    };
    session.time("a body edit", &original, &body_edit, rounds);
    if std::env::var("BODY_ONLY").is_ok() {
        return;
    }
    let comment_edit = Edit {
        at: body.start as usize,
        line: "/* edit_time comment */\n",
    };
    session.time("a comment edit", &original, &comment_edit, rounds);
    let (rss, peak) = memory();
    println!("memory: {rss:.0} MiB resident, {peak:.0} MiB peak");
}
