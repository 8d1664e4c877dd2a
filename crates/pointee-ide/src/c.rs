//! C requests: lower the workspace's C files as one program and answer.

use crate::Language;
use crate::{Dump, DumpFunction, DumpLine, DumpNote, InputError, Options, Workspace};

/// Lowers every C file of the workspace as one program.
pub(crate) fn lower(ws: &Workspace) -> Result<pointee_c::CProgram, InputError> {
    let files: Vec<(&str, &str)> = ws
        .files_of(Language::C)
        .map(|f| (f.name.as_str(), f.text.as_str()))
        .collect();
    pointee_c::lower(&files).map_err(|e| InputError(e.0))
}

pub(crate) fn dump(ws: &Workspace, opts: &Options) -> Result<Dump, InputError> {
    let lowered = lower(ws)?;
    let mut dump = Dump::default();
    for source in &lowered.sources {
        let Some(file) = ws.file(&source.file) else {
            continue;
        };
        for fs in &source.functions {
            let Some(func) = lowered.program.function(&fs.name) else {
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
                    text: l.text,
                    facts: Vec::new(),
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
            for n in &source.notes {
                dump.notes.push(DumpNote {
                    at: file.location(n.range.start),
                    kind: n.kind.as_str().to_string(),
                    message: n.message.clone(),
                });
            }
        }
    }
    dump.functions
        .sort_by(|a, b| a.at.cmp(&b.at).then(a.name.cmp(&b.name)));
    dump.notes.sort();
    Ok(dump)
}

// PLACEHOLDER until the C engine (pointee-flow) lands: the helper writing it
// replaces these three functions.
pub(crate) fn hover(
    _ws: &Workspace,
    _file: &str,
    _line: u32,
    _column: u32,
    _opts: &Options,
) -> Result<crate::Hover, InputError> {
    Err(InputError(
        "hover needs the C points-to engine, which has not landed".into(),
    ))
}

pub(crate) fn callees(
    _ws: &Workspace,
    _file: &str,
    _line: u32,
    _column: u32,
    _opts: &Options,
) -> Result<Vec<crate::Callee>, InputError> {
    Err(InputError(
        "callees needs the C points-to engine, which has not landed".into(),
    ))
}

pub(crate) fn check(_ws: &Workspace, _opts: &Options) -> Result<crate::CheckReport, InputError> {
    Err(InputError(
        "check needs the C points-to engine, which has not landed".into(),
    ))
}
