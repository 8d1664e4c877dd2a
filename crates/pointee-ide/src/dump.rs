//! The `dump` answer: every function's IR, line by line, with the source line
//! each statement came from and the facts after it.

use crate::{Location, Options, SourceFile, Workspace};
use pointee_ir::{Program, SourceMap, StmtId};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dump {
    /// Globals with their initial values, one a line.
    pub globals: Vec<String>,
    pub functions: Vec<DumpFunction>,
    /// Whole-program sections after the functions, e.g. the invocation graph.
    pub sections: Vec<(String, Vec<String>)>,
    pub notes: Vec<DumpNote>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpFunction {
    pub name: String,
    pub at: Location,
    /// `fn f(p: int*) -> int`.
    pub header: String,
    /// Locals and temporaries with their types.
    pub locals: String,
    pub lines: Vec<DumpLine>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpLine {
    /// The 1-based source line of a basic statement.
    pub line: Option<u32>,
    /// Nesting depth of the statement in the structured body.
    pub depth: usize,
    pub text: String,
    /// Facts after the statement (empty until an analysis provides them).
    pub facts: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct DumpNote {
    pub at: Location,
    pub kind: String,
    pub message: String,
}

impl Dump {
    /// Every function of the program with its IR lines and source lines,
    /// sorted by position; `facts` gives the lines to show after a
    /// statement of a function (none without an analysis). Notes when
    /// `verbose`.
    pub(crate) fn of_program(
        ws: &Workspace,
        program: &Program,
        sources: &[SourceMap],
        opts: &Options,
        mut facts: impl FnMut(&str, StmtId) -> Vec<String>,
    ) -> Dump {
        let mut dump = Dump::default();
        let mut expansions: Vec<(Location, String)> = Vec::new();
        for source in sources {
            let Some(file) = ws.file(&source.file) else {
                continue;
            };
            for fs in &source.functions {
                let Some(func) = program.function(&fs.name) else {
                    continue;
                };
                let lines = func
                    .body_lines()
                    .into_iter()
                    .map(|l| DumpLine {
                        line: l
                            .stmt
                            .and_then(|s| fs.stmts.get(s.0 as usize))
                            .map(|r| file.location(r.start).line),
                        depth: l.depth,
                        facts: l.stmt.map(|s| facts(&fs.name, s)).unwrap_or_default(),
                        text: l.text,
                    })
                    .collect();
                dump.functions.push(DumpFunction {
                    name: func.name.to_string(),
                    at: file.location(fs.name_range.start),
                    header: func.header_to_string(),
                    locals: func.locals_to_string(),
                    lines,
                });
            }
            if opts.verbose {
                dump.notes.extend(notes_of(source, file));
                expansions.extend(source.expansions.iter().map(|e| {
                    let at = file.location(e.range.start);
                    (at.clone(), format!("{}:{}:{}: {} => {}", at.file, at.line, at.column, file.text_of(e.range), shorten(&e.text)))
                }));
            }
        }
        if !expansions.is_empty() {
            expansions.sort();
            let lines = expansions.into_iter().map(|(_, l)| l).collect();
            dump.sections.insert(0, ("macro expansions".to_string(), lines));
        }
        dump.functions
            .sort_by(|a, b| a.at.cmp(&b.at).then(a.name.cmp(&b.name)));
        dump.notes.sort();
        dump
    }
}

/// A long expansion, cut to a line's length.
fn shorten(text: &str) -> String {
    const MAX: usize = 160;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{} ...", &text[..i]),
        None => text.to_string(),
    }
}

fn notes_of<'a>(
    source: &'a SourceMap,
    file: &'a SourceFile,
) -> impl Iterator<Item = DumpNote> + 'a {
    source.notes.iter().map(move |n| DumpNote {
        at: file.location(n.range.start),
        kind: n.kind.as_str().to_string(),
        message: n.message.clone(),
    })
}
