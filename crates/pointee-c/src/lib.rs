//! pointee-c: lowers C source (a tree-sitter-c syntax tree) to the pointer IR,
//! in the spirit of McCAT's SIMPLE (EGH'94, section 2): nested expressions get
//! temporaries so that every basic statement has at most one level of
//! indirection on each side, and a source map records where each statement,
//! variable, site and pointer expression came from.
//!
//! It must never analyse, and never drop an effect silently: what it cannot
//! model it lowers to `unknown` and lists as a note.
//!
//! Until a preprocessor exists, `#include` and `#define` lines are skipped,
//! `NULL` is the null constant, and of `#if`/`#ifdef` the first branch is
//! lowered (with a note).

mod ctype;
mod expr;
mod init;
mod link;
mod lower;
mod stmt;
mod syntax;

use pointee_ir::{Program, SourceMap};

pub use link::LowerError;

/// The lowered program and one source map per input file (same order).
#[derive(Clone, Debug, Default)]
pub struct CProgram {
    pub program: Program,
    pub sources: Vec<SourceMap>,
}

/// One file lowered on its own: the unit a cache keeps per file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CFile {
    pub program: Program,
    pub source: SourceMap,
}

/// Lowers one file. Never fails: syntax errors become notes and the rest of
/// the file is lowered as far as it goes.
pub fn lower_file(name: &str, text: &str) -> CFile {
    // Lowering recurses over the syntax tree; deeply nested code needs a deep
    // stack, and recursion is also bounded by `lower::MAX_DEPTH`.
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, || lower::lower_file(name, text))
            .expect("spawning the lowering thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// Lowers the given `(file name, text)` pairs as one program.
pub fn lower(files: &[(&str, &str)]) -> Result<CProgram, LowerError> {
    let lowered: Vec<CFile> = files.iter().map(|(n, t)| lower_file(n, t)).collect();
    link::link(lowered)
}
