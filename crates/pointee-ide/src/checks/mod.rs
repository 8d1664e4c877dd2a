//! Checkers: defects found on the engines' facts, reported as diagnostics
//! with a witness (related locations that explain them). Each checker reads
//! the facts the engines already computed; none re-derives them, and none
//! knows how the diagnostics are shown (the server and the command line
//! convert them).
//!
//! - `memory` (C): dereferences of pointers that may be NULL, uninitialised,
//!   freed or dangling; frees of freed or non-heap memory.
//! - `overlap` (C): copies and `restrict` parameters whose pointers may
//!   point to the same object.
//! - `tested` (C): re-loads of a place a branch tested non-NULL
//!   (`if (z->f) z->f->g`), which the engine cannot refine when `z` points
//!   into a summary.
//! - `cache`: the findings per function, re-computed only for functions
//!   whose facts an edit changed.
//!
//! A comment `pointee-ignore: CODE` (or several codes, comma-separated) on
//! the diagnostic's line or the line before silences it.

mod cache;
mod memory;
mod overlap;
mod realloc;
mod tested;

use crate::c::CProgram;
use crate::{Diagnostic, FileId};
use cache::{function_findings, CheckedFunction};

/// The checkers' diagnostics of the functions defined in `file`, for the
/// codes `enabled` accepts (none enabled: no checker runs). Findings come
/// from the per-function cache; only those reported are named and placed.
pub(crate) fn c_checks(
    c: &CProgram,
    file: FileId,
    enabled: &dyn Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    if !RULES.iter().any(|(code, _)| enabled(code)) {
        return Vec::new();
    }
    // By name: the file's source map (positions) is assembled only when
    // there is something to report.
    let mut found = Vec::new();
    let engine = c.engine();
    // The run's time limit covers the checkers' replays too (`check`
    // reports what they did not replay: `check::c_check`).
    let bound = |on| {
        if let Some(e) = &engine {
            e.with(|_, a| a.bound_queries_by_budget(on));
        }
    };
    bound(true);
    for base in pointee_db::file_functions(c.db, file).iter() {
        let name = c.program_name(file, base);
        let key = CheckedFunction::new(c.db, c.project, name.clone());
        let findings = function_findings(c.db, key);
        if findings.codes().any(enabled) {
            found.push((base, name, findings.clone()));
        }
    }
    bound(false);
    let mut out = Vec::new();
    if found.is_empty() {
        return out;
    }
    let Some(engine) = engine else {
        return out;
    };
    let source = c.source(file);
    engine.with(|program, a| {
        for (base, name, findings) in &found {
            let (Some(i), Some(fs)) = (a.func_index(name), source.function(base)) else {
                continue;
            };
            let f = program.functions[i as usize].clone();
            for x in findings.memory.iter().filter(|x| enabled(x.code)) {
                out.push(memory::render(c, a, (file, fs), name, &f, x));
            }
            if enabled(overlap::CODE) {
                for x in &findings.overlap {
                    out.push(overlap::render(c, a, (file, fs), name, &f, x));
                }
            }
        }
    });
    suppress(file.text(c.db), c.lines(file), &mut out);
    out
}

/// The findings of one function, position-free (cached per function).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Findings {
    memory: Vec<memory::Finding>,
    overlap: Vec<overlap::Finding>,
}

impl Findings {
    fn codes(&self) -> impl Iterator<Item = &'static str> + '_ {
        let overlap = (!self.overlap.is_empty()).then_some(overlap::CODE);
        self.memory.iter().map(|x| x.code).chain(overlap)
    }
}

/// Drops the diagnostics of `file` that a `pointee-ignore: CODE` comment
/// silences (on their line or the line before).
pub(crate) fn suppress(text: &str, lines: &pointee_ir::LineIndex, out: &mut Vec<Diagnostic>) {
    if !text.contains("pointee-ignore") {
        return;
    }
    let line_text: Vec<&str> = text.split('\n').collect();
    let ignored = |line: usize, code: &str| {
        line_text.get(line).is_some_and(|l| {
            l.match_indices("pointee-ignore:").any(|(i, m)| {
                l[i + m.len()..]
                    .split(|c: char| c == ',' || c.is_whitespace())
                    .filter(|w| !w.is_empty())
                    .take_while(|w| {
                        w.chars()
                            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                    })
                    .any(|w| w == code)
            })
        })
    };
    out.retain(|d| {
        let line = lines.line_col_chars(d.range.range.start).0;
        !(ignored(line, &d.code) || (line > 0 && ignored(line - 1, &d.code)))
    });
}

/// The codes the checkers report, with a one-line description each (for
/// SARIF's rules and the documentation).
pub const RULES: &[(&str, &str)] = &[
    (
        "null-deref",
        "A pointer that is (error) or may be (warning) NULL is dereferenced, called, or passed to a library function that dereferences it (Java: a field, element or method of a null reference, or one no value reaches).",
    ),
    (
        "uninit-deref",
        "A pointer that was never assigned on some path (warning) or any path (error) is dereferenced.",
    ),
    (
        "use-after-free",
        "Memory that was (error) or may have been (warning) freed is used through a pointer.",
    ),
    (
        "double-free",
        "Memory that was (error) or may have been (warning) freed is freed again.",
    ),
    (
        "dangling-stack",
        "A pointer to a local of a function that has returned is used.",
    ),
    (
        "free-non-heap",
        "A pointer to a stack, global, string or function location is passed to free.",
    ),
    (
        "alias-overlap",
        "Two pointers that must point to separate objects (a copy's destination and source, restrict parameters) point (error) or may point (warning) to the same one.",
    ),
];

#[cfg(test)]
mod tests;
