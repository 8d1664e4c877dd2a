//! pointee-cpp: the C preprocessor of pointee's C front end (C11 6.10, with
//! the GNU extensions real headers use), so that pointee analyses what the C
//! compiler sees.
//!
//! The result of preprocessing a translation unit is one expanded text (the
//! unit as the compiler's parser sees it, fit for tree-sitter) and a map from
//! every byte of it back to the text the user wrote ([`PosMap`]): a token
//! written in a file, or passed as a macro argument, maps to where it is
//! spelled; a token that a macro's body produced maps to the macro's use.
//! Code without macros keeps its offsets: directive lines and comments
//! become spaces, so the expanded text of a file without macros and
//! includes is the file itself with those blanked.
//!
//! A [`Session`] keeps each main file's last run: preprocessing the file
//! again after an edit starts at the last point before the edit between two
//! top-level items and takes the rest of the last output once it is back in
//! the same state (`resume.rs`); the output always equals a run from
//! scratch.
//!
//! It must never do I/O: included files are read through [`FileSystem`],
//! which the caller implements (the database: open buffers over the disk;
//! tests: memory). Its configuration ([`Config`]: include directories,
//! `-D`/`-U`, `-include`, `-std`) is plain data from the caller. It knows
//! nothing of the C library: the bundled headers are files the caller's
//! file system answers.

mod eval;
mod expand;
mod lex;
mod macros;
mod map;
mod memo;
mod options;
mod predef;
mod process;
mod resume;

pub use map::{Expansion, FileInfo, Loc, PosMap, Span};
pub use options::{Config, MacroOption, Standard};
pub use predef::predefined;
pub use process::Session;

use std::sync::Arc;

/// Where included files come from. Paths are `/`-separated strings as the
/// caller gave them (absolute or relative to the caller's root), joined and
/// normalised lexically (`a/./b/../c` is `a/c`).
pub trait FileSystem {
    /// The text of the file at `path`, or `None` when there is none.
    fn read(&self, path: &str) -> Option<Arc<str>>;
}

/// A file system in memory: what tests use.
#[derive(Clone, Debug, Default)]
pub struct MemoryFs {
    files: std::collections::BTreeMap<String, Arc<str>>,
}

impl MemoryFs {
    pub fn new() -> MemoryFs {
        MemoryFs::default()
    }

    /// Adds (or replaces) a file.
    pub fn insert(&mut self, path: &str, text: &str) -> &mut MemoryFs {
        self.files.insert(normalize(path), text.into());
        self
    }
}

impl FileSystem for MemoryFs {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        self.files.get(&normalize(path)).cloned()
    }
}

/// What an edit changed: `(start, old_end, new_end)`, where the texts'
/// common start ends and their common end begins (in each). It runs after
/// every keystroke over whole files, so it compares in blocks.
pub fn changed_range(old: &[u8], new: &[u8]) -> (usize, usize, usize) {
    let start = common_len(old.iter(), new.iter(), |i| {
        (&old[i..i + BLOCK], &new[i..i + BLOCK])
    });
    let (a, b) = (&old[start..], &new[start..]);
    let tail = common_len(a.iter().rev(), b.iter().rev(), |i| {
        (
            &a[a.len() - i - BLOCK..a.len() - i],
            &b[b.len() - i - BLOCK..b.len() - i],
        )
    });
    (start, old.len() - tail, new.len() - tail)
}

/// Bytes compared at once by `common_len`.
const BLOCK: usize = 64;

/// How many leading items two byte sequences share: whole blocks first
/// (`block(i)`: the two blocks at `i` items in), then byte by byte.
fn common_len<'a>(
    a: impl ExactSizeIterator<Item = &'a u8>,
    b: impl ExactSizeIterator<Item = &'a u8>,
    block: impl Fn(usize) -> (&'a [u8], &'a [u8]),
) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n {
        let (x, y) = block(i);
        if x != y {
            break;
        }
        i += BLOCK;
    }
    i + a.skip(i).zip(b.skip(i)).take_while(|(x, y)| x == y).count()
}

/// Files of one layer answer first, then those of the other: e.g. the
/// bundled C library under the user's files.
pub struct Layered<'a> {
    pub over: &'a dyn FileSystem,
    pub under: &'a dyn FileSystem,
}

impl FileSystem for Layered<'_> {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        self.over.read(path).or_else(|| self.under.read(path))
    }
}

/// A byte range `start..end` in one file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Range {
    pub start: u32,
    pub end: u32,
}

impl Range {
    pub fn new(start: u32, end: u32) -> Range {
        Range { start, end }
    }
}

/// An index into [`Output::files`] (one per inclusion: a header included
/// twice has two).
pub type FileId = u32;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Worth knowing, nothing is lost (a system header the model lacks).
    Info,
    /// Something was skipped or may be read wrongly (`#warning`, a
    /// malformed directive, a missing user header).
    Warning,
    /// `#error`, or something the compiler would reject.
    Error,
}

/// A message about the preprocessing, at a place in the user's text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Diagnostic {
    pub file: FileId,
    pub range: Range,
    pub severity: Severity,
    pub message: String,
}

/// A preprocessed translation unit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// The expanded text: what the compiler's parser sees.
    pub text: String,
    /// Every inclusion, `files[0]` being the main file.
    pub files: Vec<FileInfo>,
    /// From offsets in `text` back to the files.
    pub map: PosMap,
    pub diagnostics: Vec<Diagnostic>,
    /// Each outermost macro use in the files and what it expanded to, for
    /// `dump --verbose`.
    pub expansions: Vec<Expansion>,
}

/// Preprocesses the file at `path` (read through `fs`) as a translation
/// unit. Never fails: what goes wrong is a diagnostic and the rest is
/// processed as far as it goes.
pub fn preprocess(config: &Config, fs: &dyn FileSystem, path: &str) -> Output {
    Session::one_pass().preprocess(config, fs, path)
}

/// `dir` joined with `name` (unless `name` is absolute), normalised.
pub fn join(dir: &str, name: &str) -> String {
    if name.starts_with('/') || dir.is_empty() {
        normalize(name)
    } else {
        normalize(&format!("{dir}/{name}"))
    }
}

/// The folder of a path (`""` for a bare name).
pub fn parent(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) => "/",
        Some(i) => &path[..i],
        None => "",
    }
}

/// A path with `.` and `name/..` steps removed (lexically) and slashes
/// collapsed; a `..` that would go above a relative path's start stays.
pub fn normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for p in path.split('/') {
        match p {
            "" | "." => {}
            ".." if parts.last().is_some_and(|l| *l != "..") => {
                parts.pop();
            }
            ".." if absolute => {}
            p => parts.push(p),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

#[cfg(test)]
mod tests;
