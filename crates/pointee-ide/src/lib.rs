//! pointee-ide: the questions users ask (hover, callees, alias checks, dump),
//! answered as plain data in editor terms: file names, 1-based lines and
//! character columns, names and kinds.
//!
//! It ties the front ends and the analyses together for one program given as
//! in-memory texts. It must never do I/O, and never know about LSP, JSON or
//! the command line: those render its answers at the edge.

mod answer;
mod c;
mod dump;
mod java;
mod program;

pub use answer::*;
pub use c::CAnswers;
pub use dump::{Dump, DumpFunction, DumpLine, DumpNote};
pub use java::JavaAnswers;
pub use pointee_c::FileSystem;
pub use program::{Language, SourceFile, System, Workspace};

/// Settings that shape an analysis run.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Java context sensitivity (`ci`, `2-obj`, ...); `None` is the default.
    pub cs: Option<String>,
    /// Java entry class or method, when several `main`s exist.
    pub entry: Option<String>,
    /// Show what the front end skipped or approximated.
    pub verbose: bool,
    /// `dump` shows the IR only, without analysis facts.
    pub no_facts: bool,
    /// C: at most this many calling contexts per function before contexts
    /// merge (reported as `merged` in hover); `None` is the engine's default.
    pub c_context_bound: Option<u32>,
    /// C: the functions to analyse as entries (names or `*`/`?` patterns,
    /// the program model's `entries`); `None` is the engine's rule.
    pub c_entries: Option<Vec<String>>,
}

/// The language of the whole workspace: all files must share one.
pub fn language_of(ws: &Workspace) -> Result<Language, InputError> {
    let mut langs = ws.files.iter().filter_map(|f| f.language());
    let Some(first) = langs.next() else {
        return Err(InputError("no C or Java source files given".into()));
    };
    if langs.any(|l| l != first) {
        return Err(InputError(
            "C and Java files cannot form one program".into(),
        ));
    }
    Ok(first)
}

/// Every function's IR (and, where an analysis exists, its facts).
pub fn dump(ws: &Workspace, opts: &Options) -> Result<Dump, InputError> {
    match language_of(ws)? {
        Language::C => c::dump(ws, opts),
        Language::Java => java::dump(ws, opts),
    }
}

/// The points-to set of the innermost pointer expression at a 1-based
/// (line, column) of `file`.
pub fn hover(
    ws: &Workspace,
    file: &str,
    line: u32,
    column: u32,
    opts: &Options,
) -> Result<Hover, InputError> {
    match language_of(ws)? {
        Language::C => c::hover(ws, file, line, column, opts),
        Language::Java => java::hover(ws, file, line, column, opts),
    }
}

/// The possible callees of the call at a 1-based (line, column) of `file`.
pub fn callees(
    ws: &Workspace,
    file: &str,
    line: u32,
    column: u32,
    opts: &Options,
) -> Result<Vec<Callee>, InputError> {
    match language_of(ws)? {
        Language::C => c::callees(ws, file, line, column, opts),
        Language::Java => java::callees(ws, file, line, column, opts),
    }
}

/// Alias checks, diagnostics and figures for the whole program.
pub fn check(ws: &Workspace, opts: &Options) -> Result<CheckReport, InputError> {
    match language_of(ws)? {
        Language::C => c::check(ws, opts),
        Language::Java => java::check(ws, opts),
    }
}
