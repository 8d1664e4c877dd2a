//! Incremental answers equal fresh ones: a workspace is edited at random
//! (seeded, so every run is reproducible) through one long-lived
//! `AnalysisHost`, the way the language server applies an editor's changes
//! (the text and the tree re-parsed incrementally from the edited old tree);
//! after each edit every answer ([`crate::answers`]) must equal the answers
//! of a new host given the same texts.

use crate::answers::{answers, Answers, Probe};
use crate::edits::{random_edit, Edit};
use crate::rand::Rng;
use pointee_db::{Lang, TreeHandle};
use pointee_ide::{AnalysisHost, Change, Config};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A workspace to edit: a fixture's files (path, text).
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub files: Vec<(String, String)>,
}

/// A difference between the incremental and the fresh answers.
#[derive(Debug)]
pub struct Difference {
    pub case: String,
    pub seed: u64,
    /// The number of edits applied (the last one showed the difference).
    pub step: usize,
    pub edits: Vec<(String, Edit)>,
    /// The workspace after the last edit.
    pub files: Vec<(String, String)>,
    pub detail: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} (seed {}): after edit {} answers differ: {}",
            self.case, self.seed, self.step, self.detail
        )?;
        if let Some((path, e)) = self.edits.last() {
            writeln!(f, "last edit: {path} {e:?}")?;
        }
        Ok(())
    }
}

/// One file's text with its tree, edited as an editor does.
struct Buffer {
    path: String,
    text: String,
    tree: Option<tree_sitter::Tree>,
}

impl Buffer {
    fn new(path: &str, text: &str) -> Buffer {
        let tree = Lang::of_path(path).map(|l| pointee_db::parse(l, text, None));
        Buffer {
            path: path.into(),
            text: text.into(),
            tree,
        }
    }

    fn edit(&mut self, e: &Edit) {
        let new = e.apply(&self.text);
        if let (Some(tree), Some(lang)) = (&mut self.tree, Lang::of_path(&self.path)) {
            tree.edit(&tree_sitter::InputEdit {
                start_byte: e.start,
                old_end_byte: e.end,
                new_end_byte: e.start + e.text.len(),
                start_position: point(&self.text, e.start),
                old_end_position: point(&self.text, e.end),
                new_end_position: point(&new, e.start + e.text.len()),
            });
            *tree = pointee_db::parse(lang, &new, Some(tree));
        }
        self.text = new;
    }
}

/// Row and byte column of a byte offset (tree-sitter's positions).
fn point(text: &str, at: usize) -> tree_sitter::Point {
    let before = &text.as_bytes()[..at];
    let row = before.iter().filter(|&&b| b == b'\n').count();
    let line_start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    tree_sitter::Point {
        row,
        column: at - line_start,
    }
}

fn fresh(files: &[(String, String)], probe: Probe) -> Answers {
    let host = AnalysisHost::with_files(files.iter().cloned(), Config::default());
    answers(&host.analysis(), probe).expect("nobody writes to a fresh host")
}

/// Applies `edits` random edits to `case` through one host, comparing every
/// answer with a fresh host's after each; the first difference is an error.
/// Returns how many edits changed some file's text.
pub fn run(case: &Case, seed: u64, edits: usize, probe: Probe) -> Result<usize, Box<Difference>> {
    let mut rng = Rng::new(seed);
    let mut buffers: Vec<Buffer> = case.files.iter().map(|(p, t)| Buffer::new(p, t)).collect();
    let mut host = AnalysisHost::default();
    let mut change = Change::new();
    for b in &buffers {
        set(&mut change, b);
    }
    change.set_config(Config::default());
    host.apply_change(change);
    let mut done = Vec::new();
    let mut changed = 0;
    // Only the program's own files are edited (headers of the C library
    // model are not in the workspace).
    let editable: Vec<usize> = (0..buffers.len())
        .filter(|&i| Lang::of_path(&buffers[i].path).is_some())
        .collect();
    if editable.is_empty() {
        return Ok(0);
    }
    for step in 1..=edits {
        let i = *rng.pick(&editable);
        let b = &mut buffers[i];
        let lang = Lang::of_path(&b.path).expect("editable files have a language");
        let e = random_edit(&mut rng, lang, &b.text, &case.files[i].1);
        let before = b.text.clone();
        b.edit(&e);
        changed += usize::from(before != b.text);
        done.push((b.path.clone(), e));
        let mut change = Change::new();
        set(&mut change, b);
        host.apply_change(change);
        let now: Vec<(String, String)> = buffers
            .iter()
            .map(|b| (b.path.clone(), b.text.clone()))
            .collect();
        // A panic (of the edited host or the fresh one) is a finding like a
        // difference: reported with the edits and the workspace that show it.
        let asked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let incremental = answers(&host.analysis(), probe).expect("nobody writes while we ask");
            let expected = fresh(&now, probe);
            incremental.first_difference(&expected)
        }));
        let found =
            asked.unwrap_or_else(|p| Some(format!("panicked: {}", crate::panics::message(&*p))));
        if let Some(detail) = found {
            return Err(Box::new(Difference {
                case: case.name.clone(),
                seed,
                step,
                edits: done,
                files: now,
                detail,
            }));
        }
    }
    Ok(changed)
}

fn set(change: &mut Change, b: &Buffer) {
    match &b.tree {
        Some(t) => change.set_file_parsed(
            b.path.clone(),
            Arc::from(b.text.as_str()),
            TreeHandle(Arc::new(t.clone())),
        ),
        None => change.set_file(b.path.clone(), b.text.as_str()),
    }
}

/// The fixtures of a language as cases: each C file of `fixtures/c/*/`
/// and each Java file of `fixtures/java/` on its own (with the C runtime
/// header the flow fixtures include), and each multi-file program
/// (`fixtures/c/projects/*/`, `fixtures/java/MultiFile/`) whole.
pub fn fixture_cases(lang: Lang) -> Vec<Case> {
    let root = crate::repo_root().join("fixtures");
    let mut cases = Vec::new();
    let ext = match lang {
        Lang::C => "c",
        Lang::Java => "java",
    };
    let has_ext = |p: &Path, e: &str| p.extension().is_some_and(|x| x == e);
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    let name_of = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
    let dirs: Vec<PathBuf> = match lang {
        Lang::C => ["flow", "soundness", "lower"]
            .iter()
            .map(|d| root.join("c").join(d))
            .collect(),
        Lang::Java => vec![root.join("java")],
    };
    for dir in dirs {
        let header: Vec<(String, String)> = sorted_entries(&dir)
            .into_iter()
            .filter(|p| has_ext(p, "h"))
            .map(|p| (name_of(&p), read(&p)))
            .collect();
        for p in sorted_entries(&dir).into_iter().filter(|p| has_ext(p, ext)) {
            let mut files = header.clone();
            files.push((name_of(&p), read(&p)));
            cases.push(Case {
                name: p.strip_prefix(&root).unwrap().display().to_string(),
                files,
            });
        }
    }
    let projects: Vec<PathBuf> = match lang {
        Lang::C => sorted_entries(&root.join("c/projects")),
        Lang::Java => vec![root.join("java/MultiFile")],
    };
    for dir in projects.into_iter().filter(|d| d.is_dir()) {
        let files = sorted_entries(&dir)
            .into_iter()
            .filter(|p| has_ext(p, ext) || (lang == Lang::C && has_ext(p, "h")))
            .map(|p| (name_of(&p), read(&p)))
            .collect();
        cases.push(Case {
            name: dir.strip_prefix(&root).unwrap().display().to_string(),
            files,
        });
    }
    cases
}

fn sorted_entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| r.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.sort();
    v
}
