//! The checkers' benchmark (not a timed test): what the checkers add to a
//! file's diagnostics, from scratch and after edits, on one C file (the
//! generated 10k-line program of the C engine benchmark, or a real file
//! whose includes are read from the disk).
//!
//! ```text
//! cargo bench -p pointee-flow --bench scale -- --emit 10000 > /tmp/gen10k.c
//! cargo run --release -p pointee-ide --example checks -- /tmp/gen10k.c [ROUNDS]
//! ```
//!
//! Each figure is the diagnostics of the file with the checkers off, then
//! the same with them on (everything else is cached by then, so the
//! difference is about the checkers' own time). Edits insert a line in the body
//! of the middle function, or a comment line before it, and remove it again
//! (re-parsed incrementally, as the server does); `ROUNDS` (default 10)
//! such pairs.

use pointee_ide::{AnalysisHost, Change, DiagnosticsConfig, FileSystem, Lang, TreeHandle};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The disk, for the file's includes.
struct Disk;

impl FileSystem for Disk {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        let b = std::fs::read(path).ok()?;
        Some(String::from_utf8_lossy(&b).into())
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Applies `text[at..at+old_len] = new` to the tree and re-parses it.
fn reparse(tree: &tree_sitter::Tree, old: &str, new: &str, at: usize) -> tree_sitter::Tree {
    let point = |s: &str, off: usize| {
        let before = &s[..off];
        let row = before.matches('\n').count();
        let column = off - before.rfind('\n').map(|i| i + 1).unwrap_or(0);
        tree_sitter::Point { row, column }
    };
    let (old_len, new_len) = if new.len() > old.len() {
        (0, new.len() - old.len())
    } else {
        (old.len() - new.len(), 0)
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
    pointee_db::parse(Lang::C, new, Some(&edited))
}

struct Bench {
    host: AnalysisHost,
    path: String,
    tree: tree_sitter::Tree,
    text: String,
}

impl Bench {
    /// The file's diagnostics with the checkers off, then on: (off, on,
    /// count with the checkers on).
    fn diagnostics(&self) -> (f64, f64, usize) {
        let a = self.host.analysis();
        let file = a.file_id(&self.path).expect("the file");
        let off = DiagnosticsConfig {
            checkers: false,
            ..Default::default()
        };
        let t = Instant::now();
        a.diagnostics(file, &off).expect("not cancelled");
        let off_ms = ms(t.elapsed());
        let t = Instant::now();
        let n = a
            .diagnostics(file, &DiagnosticsConfig::default())
            .expect("not cancelled")
            .len();
        (off_ms, ms(t.elapsed()), n)
    }

    fn set_text(&mut self, next: String, at: usize) {
        self.tree = reparse(&self.tree, &self.text, &next, at);
        self.text = next;
        let mut change = Change::new();
        change.set_file_parsed(
            self.path.clone(),
            self.text.as_str().into(),
            TreeHandle(Arc::new(self.tree.clone())),
        );
        self.host.apply_change(change);
    }

    /// Inserts `line` at `at` and removes it, `rounds` times; the medians
    /// of the diagnostics after each edit, checkers off and on.
    fn edits(&mut self, what: &str, at: usize, line: &str, rounds: usize) {
        if rounds == 0 {
            return; // `ROUNDS` 0: the first figures only
        }
        let original = self.text.clone();
        let edited = format!("{}{line}{}", &original[..at], &original[at..]);
        let (mut offs, mut ons) = (Vec::new(), Vec::new());
        for _ in 0..rounds {
            for next in [&edited, &original] {
                self.set_text(next.clone(), at);
                let (off, on, _) = self.diagnostics();
                offs.push(off);
                ons.push(on);
            }
        }
        let (off, on) = (median(offs), median(ons));
        println!(
            "{what}: diagnostics without checkers {off:.1} ms, with them {on:.1} ms (medians of {})",
            2 * rounds
        );
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: checks FILE.c [ROUNDS]");
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(10);
    let text = std::fs::read_to_string(&path).expect("reading the C file");
    let tree = pointee_db::parse(Lang::C, &text, None);
    let mut host = AnalysisHost::with_system(Arc::new(Disk));
    let mut change = Change::new();
    change.set_file_parsed(
        path.clone(),
        text.as_str().into(),
        TreeHandle(Arc::new(tree.clone())),
    );
    host.apply_change(change);
    let mut bench = Bench {
        host,
        path: path.clone(),
        tree,
        text,
    };

    let (off, on, n) = bench.diagnostics();
    println!(
        "{path} ({} lines): first diagnostics without checkers {off:.1} ms (the analysis included), then with them {on:.1} ms, {n} diagnostics",
        bench.text.lines().count()
    );
    let (off, on, _) = bench.diagnostics();
    println!("again, nothing changed: without checkers {off:.1} ms, with them {on:.1} ms");
    let t = Instant::now();
    let report = bench.host.analysis().check(Lang::C).expect("not cancelled");
    println!(
        "check of the whole program (every checker): {:.1} ms, {} diagnostics",
        ms(t.elapsed()),
        report.diagnostics.len()
    );

    // The middle function's body, and the line before it.
    let (body, before) = {
        let a = bench.host.analysis();
        let file = a.file_id(&path).unwrap();
        let outline = pointee_db::lower_c(a_db(&bench.host), file);
        let fs = &outline.source.functions;
        let f = &fs[fs.len() / 2];
        let start = f.range.start as usize;
        let brace = bench.text[start..].find('{').expect("a body") + start + 1;
        let line_start = bench.text[..start].rfind('\n').map_or(0, |i| i + 1);
        (brace, line_start)
    };
    bench.edits("body edit", body, "\n    int bench_unused = 0;", rounds);
    bench.edits("comment edit", before, "/* a comment */\n", rounds);
}

fn a_db(host: &AnalysisHost) -> &pointee_db::Database {
    host.raw_database()
}
