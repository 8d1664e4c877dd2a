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
mod library;
mod link;
mod lower;
mod scope;
mod stmt;
mod syntax;

use pointee_ir::{Program, SourceMap};

pub use link::{merge_declaration, rename_source, LinkWarning, LowerError};
pub use scope::{FileScope, FunctionSyntax, Outline};

/// The lowered program and one source map per input file (same order).
#[derive(Clone, Debug, Default)]
pub struct CProgram {
    pub program: Program,
    pub sources: Vec<SourceMap>,
    /// What linking accepted but the user should know (tentative
    /// definitions merged across units).
    pub warnings: Vec<LinkWarning>,
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
    on_lowering_thread(|| scope::lower_tree(name, text, &syntax::parse(text)))
}

/// Lowers one file from a tree that was parsed from `text` with
/// tree-sitter-c (e.g. re-parsed incrementally by an editor); the same
/// result as [`lower_file`] on that text.
pub fn lower_parsed(name: &str, text: &str, tree: &tree_sitter::Tree) -> CFile {
    on_lowering_thread(|| scope::lower_tree(name, text, tree))
}

/// The file scope and the function definitions of a parsed file, without
/// lowering any body: the first step of lowering function by function.
pub fn outline(name: &str, text: &str, tree: &tree_sitter::Tree) -> Outline {
    // Global initializers may nest deeply too.
    on_lowering_thread(|| scope::outline(name, text, tree))
}

/// Lowers one function definition, given as its own text (the outline's
/// `FunctionSyntax::range` of the file), against the file's scope. Positions
/// in the result are relative to the start of `text`; shift them with
/// `SourceMap::shift`. The IR equals what [`lower_file`] makes of it.
///
/// A shallow definition (most of them) is lowered on the calling thread:
/// a cache lowering a file's thousand functions one by one would otherwise
/// spend more time handing each to a thread of its own than lowering it.
pub fn lower_function(scope: &FileScope, file: &str, text: &str) -> CFile {
    let tree = syntax::parse(text);
    if syntax::deeper_than(&tree, INLINE_DEPTH) {
        on_lowering_thread(|| scope::lower_function(scope, file, text, &tree))
    } else {
        scope::lower_function(scope, file, text, &tree)
    }
}

/// The deepest syntax tree lowered on the calling thread. Lowering recurses
/// a few frames per tree level; the lowering thread allows for
/// `lower::MAX_DEPTH` levels in 64 MiB, so this many fit with room to spare
/// in the 2 MiB of a spawned thread, even unoptimised.
const INLINE_DEPTH: usize = 48;

/// Puts a file together from its outline's `file` and its lowered functions
/// (in file order), as [`lower_file`] does. Each function comes with how far
/// its positions move: its start in the file for a [`lower_function`]
/// result (0 for one whose positions are absolute). The parts are copied
/// once, shifted as they are copied, so a cache can keep them as they are.
pub fn assemble<'a>(
    outline_file: &CFile,
    functions: impl IntoIterator<Item = (&'a CFile, u32)>,
) -> CFile {
    scope::assemble(outline_file, functions)
}

/// Lowering recurses over the syntax tree; deeply nested code needs a deep
/// stack (recursion is also bounded by `lower::MAX_DEPTH`), so it runs on a
/// thread of its own with 64 MiB of stack.
fn on_lowering_thread<T: Send>(work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn_scoped(s, work)
            .expect("spawning the lowering thread")
            .join()
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

/// Links files lowered one by one (by [`lower_file`] or [`lower_parsed`])
/// into one program, as [`lower`] does.
pub fn link_files(files: Vec<CFile>) -> Result<CProgram, LowerError> {
    link::link(files)
}

/// Lowers the given `(file name, text)` pairs as one program.
pub fn lower(files: &[(&str, &str)]) -> Result<CProgram, LowerError> {
    let lowered: Vec<CFile> = files.iter().map(|(n, t)| lower_file(n, t)).collect();
    link::link(lowered)
}
