//! Call hierarchy: callers and callees including the edges resolved through
//! function pointers (C) and virtual dispatch (Java, under the configured
//! sensitivity). Prepared on a definition's name, on a call (every possible
//! callee), or inside a function body.

use crate::program::Program;
use crate::{Analysis, CallItem, CallLink, FileId, FilePosition, FileRange, Lang};
use pointee_ir::{FunctionSource, StmtId};
use std::collections::BTreeMap;

/// A function of the call hierarchy, by its name in the program.
fn named(p: &Program, name: &str) -> Option<CallItem> {
    let (file, fs) = p.function_source(name)?;
    Some(item(p.lang(), file, name, fs))
}

fn item(lang: Lang, file: FileId, name: &str, fs: &FunctionSource) -> CallItem {
    CallItem {
        lang,
        name: name.to_string(),
        file,
        range: fs.range,
        name_range: fs.name_range,
    }
}

/// The function whose definition or call is at `pos`: the function named
/// at the cursor, or every possible callee of the call there (through
/// function pointers and virtual dispatch), or else the function the cursor
/// is in.
pub(crate) fn prepare(a: &Analysis, pos: FilePosition) -> Vec<CallItem> {
    let Some(p) = Program::of(a, pos.file) else {
        return Vec::new();
    };
    let Some(source) = p.source(pos.file) else {
        return Vec::new();
    };
    let functions = &source.functions;
    let lang = p.lang();
    let pname = |n: &str| p.program_name(pos.file, n);
    for fs in functions {
        if fs.name_range.touches(pos.offset) && !fs.name_range.is_empty() {
            return vec![item(lang, pos.file, &pname(&fs.name), fs)];
        }
    }
    let call = functions
        .iter()
        .flat_map(|fs| fs.calls.iter().map(move |c| (fs, c)))
        .filter(|(_, c)| c.callee_range.touches(pos.offset))
        .min_by_key(|(_, c)| c.callee_range.len());
    if let Some((fs, call)) = call {
        let caller = pname(&fs.name);
        let mut out: Vec<CallItem> = p
            .callees(&caller, call)
            .iter()
            .filter_map(|c| named(&p, &c.name))
            .collect();
        out.dedup();
        if !out.is_empty() {
            return out;
        }
    }
    functions
        .iter()
        .filter(|fs| fs.range.touches(pos.offset))
        .min_by_key(|fs| fs.range.len())
        .map(|fs| vec![item(lang, pos.file, &pname(&fs.name), fs)])
        .unwrap_or_default()
}

/// The calls of function `fs` (in `file`) made by the statements `stmts`.
fn calls(file: FileId, fs: &FunctionSource, stmts: &[StmtId]) -> Vec<FileRange> {
    fs.calls
        .iter()
        .filter(|c| stmts.contains(&c.stmt))
        .map(|c| FileRange {
            file,
            range: c.range,
        })
        .collect()
}

/// Callers of `function` (of the program of `file`), with their calls
/// (direct ones and those resolved through function pointers or virtual
/// dispatch); a function a C header defines, the callers of every
/// includer's copy.
pub(crate) fn incoming(a: &Analysis, file: FileId, function: &str) -> Vec<CallLink> {
    let Some(p) = Program::of(a, file) else {
        return Vec::new();
    };
    let names = p.copy_names(file, function);
    let mut by_caller: BTreeMap<&str, Vec<StmtId>> = BTreeMap::new();
    for e in p
        .edges()
        .iter()
        .filter(|e| names.iter().any(|n| *n == *e.callee))
    {
        by_caller.entry(&e.caller).or_default().push(e.stmt);
    }
    by_caller
        .into_iter()
        .filter_map(|(caller, stmts)| {
            let (file, fs) = p.function_source(caller)?;
            Some(CallLink {
                item: item(p.lang(), file, caller, fs),
                calls: calls(file, fs, &stmts),
            })
        })
        .collect()
}

/// Callees of `function` (of the program of `file`), with the calls in its
/// body; a function a C header defines, those of every includer's copy
/// (the copies' calls are at the same places of the header).
pub(crate) fn outgoing(a: &Analysis, file: FileId, function: &str) -> Vec<CallLink> {
    let Some(p) = Program::of(a, file) else {
        return Vec::new();
    };
    let mut by_callee: BTreeMap<&str, Vec<FileRange>> = BTreeMap::new();
    for name in p.copy_names(file, function) {
        let Some((caller_file, caller_fs)) = p.function_source(&name) else {
            continue;
        };
        for e in p.edges().iter().filter(|e| *e.caller == *name) {
            let at = by_callee.entry(&e.callee).or_default();
            for c in calls(caller_file, caller_fs, &[e.stmt]) {
                if !at.contains(&c) {
                    at.push(c);
                }
            }
        }
    }
    by_callee
        .into_iter()
        .filter_map(|(callee, mut calls)| {
            calls.sort_by_key(|c| (c.range.start, c.range.end));
            Some(CallLink {
                item: named(&p, callee)?,
                calls,
            })
        })
        .collect()
}
