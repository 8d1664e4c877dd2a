//! Checkers: defects found on the engines' facts, reported as diagnostics
//! with a witness (related locations that explain them). Each checker reads
//! the facts the engines already computed; none re-derives them, and none
//! knows how the diagnostics are shown (the server and the command line
//! convert them).
//!
//! - `memory` (C): dereferences of pointers that may be NULL, uninitialised,
//!   freed or dangling; frees of freed or non-heap memory.
//!
//! A comment `pointee-ignore: CODE` (or several codes, comma-separated) on
//! the diagnostic's line or the line before silences it.

mod memory;

pub(crate) use memory::c_memory;

use crate::Diagnostic;

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
        "A pointer that is (error) or may be (warning) NULL is dereferenced, called, or passed to a library function that dereferences it.",
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
];
