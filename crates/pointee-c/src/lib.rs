//! pointee-c: lowers C source (a tree-sitter-c syntax tree) to the pointer IR,
//! in the spirit of McCAT's SIMPLE (EGH'94, section 2): nested expressions get
//! temporaries so that every basic statement has at most one level of
//! indirection on each side, and a source map records where each statement,
//! variable, site and pointer expression came from.
//!
//! It must never analyse, and never drop an effect silently: what it cannot
//! model it lowers to `unknown` and lists as a note.
//!
//! A translation unit is preprocessed first (pointee-cpp, with the C
//! library model's headers of `libc/` beneath the caller's files): what is
//! lowered is what the C compiler sees, and the positions of the result are
//! mapped back to the text the user wrote (`unit.rs`). The steps below the
//! unit (`outline`, `lower_function`, `assemble`) work on the expanded text.
//! A name no header declared is still known when the C library has it
//! (`library.rs`, for files that include nothing), and a call to an
//! undeclared function is an implicit declaration, as C89 allows.

mod ctype;
mod expr;
mod init;
pub mod libc;
mod library;
mod link;
mod lower;
mod pieces;
mod scope;
mod stmt;
mod syntax;
mod unit;

use pointee_ir::{Program, SourceMap};

pub use link::{
    merge_declaration, rename_function, rename_source, LinkWarning, Linker, LowerError, UnitNames,
};
pub use pieces::{parse_unit, trees, Piece, TreeCache};
pub use pointee_cpp;
pub use pointee_cpp::{Config, FileSystem, Session};
pub use scope::{FileScope, FunctionSyntax, Outline};
pub use unit::{preprocess, to_source};

/// The lowered program and one source map per input file (same order),
/// then one per header that holds something of the program.
#[derive(Clone, Debug, Default)]
pub struct CProgram {
    pub program: Program,
    pub sources: Vec<SourceMap>,
    /// What linking accepted but the user should know (tentative
    /// definitions merged across units).
    pub warnings: Vec<LinkWarning>,
}

/// One translation unit lowered on its own: the unit a cache keeps per file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CFile {
    pub program: Program,
    /// Where the main file's items are.
    pub source: SourceMap,
    /// Where the items written in headers are, one map per header (after
    /// [`to_source`]; empty for the expanded text's own lowering).
    pub headers: Vec<SourceMap>,
}

/// Lowers one translation unit, reading the file at `path` and what it
/// includes through `fs`. Never fails: syntax errors become notes and the
/// rest of the file is lowered as far as it goes.
pub fn lower_unit(
    session: &mut Session,
    config: &Config,
    fs: &dyn FileSystem,
    path: &str,
) -> CFile {
    lower_unit_with(session, &TreeCache::new(), config, fs, path)
}

/// [`lower_unit`], with the pieces of text other units parsed already
/// (`pieces.rs`): the units of one program share their headers' trees.
pub fn lower_unit_with(
    session: &mut Session,
    trees: &TreeCache,
    config: &Config,
    fs: &dyn FileSystem,
    path: &str,
) -> CFile {
    let pp = preprocess(session, config, fs, path);
    let lowered = lower_pieces(path, &pp.text, &pieces::trees(&parse_unit(trees, &pp, &[])));
    to_source(lowered, &pp)
}

/// Lowers one file as a translation unit that can include only the C
/// library's headers.
pub fn lower_file(name: &str, text: &str) -> CFile {
    let fs = unit::files_fs(&[(name, text)]);
    lower_unit(&mut Session::one_pass(), &Config::default(), &fs, name)
}

/// Preprocesses one file as [`lower_file`] does.
pub fn preprocess_file(name: &str, text: &str) -> pointee_cpp::Output {
    let fs = unit::files_fs(&[(name, text)]);
    preprocess(&mut Session::one_pass(), &Config::default(), &fs, name)
}

/// Lowers an expanded text (the preprocessor's output, or C that needs no
/// preprocessing) from a tree parsed from it; positions are offsets of
/// `text`.
pub fn lower_expanded(name: &str, text: &str, tree: &tree_sitter::Tree) -> CFile {
    lower_pieces(name, text, std::slice::from_ref(tree))
}

/// [`lower_expanded`] from the trees of [`parse_unit`] (several pieces of
/// `text`, in order, their positions offsets of `text`).
pub fn lower_pieces(name: &str, text: &str, trees: &[tree_sitter::Tree]) -> CFile {
    on_lowering_thread(|| scope::lower_tree(name, text, trees))
}

/// The file scope and the function definitions of a parsed file, without
/// lowering any body: the first step of lowering function by function.
pub fn outline(name: &str, text: &str, tree: &tree_sitter::Tree) -> Outline {
    outline_pieces(name, text, std::slice::from_ref(tree))
}

/// [`outline`] from the trees of [`parse_unit`].
pub fn outline_pieces(name: &str, text: &str, trees: &[tree_sitter::Tree]) -> Outline {
    // Global initializers may nest deeply too.
    on_lowering_thread(|| scope::outline(name, text, trees))
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

/// Links units lowered one by one (by [`lower_unit`] or [`lower_file`])
/// into one program, as [`lower`] does. The headers' source maps follow
/// the units' (one per header).
pub fn link_files(mut files: Vec<CFile>) -> Result<CProgram, LowerError> {
    let headers: Vec<SourceMap> = files
        .iter_mut()
        .flat_map(|f| std::mem::take(&mut f.headers))
        .collect();
    let mut linked = link::link(files)?;
    for h in headers {
        match linked.sources.iter_mut().find(|s| s.file == h.file) {
            Some(s) => merge_header_map(s, h),
            None => linked.sources.push(h),
        }
    }
    Ok(linked)
}

/// What two units say of one header, once.
fn merge_header_map(into: &mut SourceMap, from: SourceMap) {
    for f in from.functions {
        if !into.functions.iter().any(|g| g.name == f.name) {
            into.functions.push(f);
        }
    }
    for g in from.globals {
        if !into.globals.iter().any(|h| h.name == g.name) {
            into.globals.push(g);
        }
    }
    for r in from.records {
        if !into.records.contains(&r) {
            into.records.push(r);
        }
    }
    for n in from.notes {
        if !into.notes.contains(&n) {
            into.notes.push(n);
        }
    }
}

/// Lowers the given `(file name, text)` pairs as one program: each is a
/// translation unit, and they include each other and the C library's
/// headers.
pub fn lower(files: &[(&str, &str)]) -> Result<CProgram, LowerError> {
    lower_over(files, &pointee_cpp::MemoryFs::new())
}

/// [`lower`], with what is not among `files` read from `system` (e.g. the
/// disk, given by the caller).
pub fn lower_over(
    files: &[(&str, &str)],
    system: &(dyn FileSystem + Sync),
) -> Result<CProgram, LowerError> {
    lower_configured(files, &|_| None, system)
}

/// [`lower_over`], each unit preprocessed with its configuration from the
/// program model (`config(name)`; `None`: the default one).
pub fn lower_configured<'c>(
    files: &[(&str, &str)],
    config: &(dyn Fn(&str) -> Option<&'c Config> + Sync),
    system: &(dyn FileSystem + Sync),
) -> Result<CProgram, LowerError> {
    let own = unit::files_fs(files);
    let names: Vec<&str> = files.iter().map(|(n, _)| *n).collect();
    link_files(lower_units(&names, config, &own, system))
}

/// Lowers the translation units at `paths` (includes read from `over`,
/// then `under`), in that order, on as many threads as the machine has
/// cores: each thread preprocesses and lowers whole units, and the units
/// share their headers' trees. The result does not depend on the number
/// of threads.
pub fn lower_units<'c>(
    paths: &[&str],
    config: &(dyn Fn(&str) -> Option<&'c Config> + Sync),
    over: &(dyn FileSystem + Sync),
    under: &(dyn FileSystem + Sync),
) -> Vec<CFile> {
    let trees = TreeCache::new();
    let default = Config::default();
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, paths.len().max(1));
    // Units are taken in order, one at a time, by whichever thread is free.
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let fs = pointee_cpp::Layered { over, under };
        let mut session = Session::one_pass();
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(&path) = paths.get(i) else {
                return done;
            };
            let config = config(path).unwrap_or(&default);
            done.push((i, lower_unit_with(&mut session, &trees, config, &fs, path)));
        }
    };
    let mut lowered: Vec<(usize, CFile)> = if threads == 1 {
        work()
    } else {
        std::thread::scope(|s| {
            let helpers: Vec<_> = (1..threads).map(|_| s.spawn(work)).collect();
            let mut all = work();
            for h in helpers {
                all.extend(h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)));
            }
            all
        })
    };
    lowered.sort_by_key(|(i, _)| *i);
    lowered.into_iter().map(|(_, f)| f).collect()
}
