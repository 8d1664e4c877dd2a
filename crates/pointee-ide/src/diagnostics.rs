//! Diagnostics of a file: its alias checks (failing: warning; holding:
//! hint), the front end's notes (syntax: warning, unsupported construct:
//! information, skipped preprocessor branch: hint), a program that cannot be
//! linked or analysed (error), casts that may fail (Java), and a note when
//! a C file is analysed on its own because the workspace's C files do not
//! form one program, and the checkers' findings (`checks`).

use crate::c::CProgram;
use crate::check::{c_alias_checks, c_link_warnings, java_check};
use crate::java::JavaProgram;
use crate::{AliasCheck, Analysis, Diagnostic, DiagnosticsConfig, FileId, FileRange, Severity};
use pointee_db::Lang;
use pointee_ir::{NoteKind, Range};

pub(crate) fn diagnostics(
    a: &Analysis,
    file: FileId,
    config: &DiagnosticsConfig,
) -> Vec<Diagnostic> {
    let mut out = match a.lang(file) {
        Some(Lang::C) => c_diagnostics(a, file, config),
        Some(Lang::Java) => java_diagnostics(a, file, config),
        None => Vec::new(),
    };
    out.retain(|d| config.enabled(&d.code));
    out
}

fn at(file: FileId, range: Range) -> FileRange {
    FileRange { file, range }
}

fn alias_check_diagnostic(c: &AliasCheck, range: FileRange) -> Diagnostic {
    Diagnostic {
        range,
        severity: if c.ok {
            Severity::Hint
        } else {
            Severity::Warning
        },
        code: "alias-check".into(),
        message: format!(
            "{} {}: the analysis says {}",
            c.check,
            if c.ok { "holds" } else { "does not hold" },
            c.verdict.as_str()
        ),
        related: Vec::new(),
    }
}

fn wanted(c: &AliasCheck, config: &DiagnosticsConfig) -> bool {
    if c.ok {
        config.ok_checks
    } else {
        config.alias_checks
    }
}

fn c_diagnostics(a: &Analysis, file: FileId, config: &DiagnosticsConfig) -> Vec<Diagnostic> {
    let path = a.file_path(file);
    // While the C files of its program (the workspace's or its folder's)
    // do not link, a `.c` file is answered by its own program, and a
    // header by the first such program of its folder.
    let group = a.program_of_path(path);
    let single = a.singles().get(path).copied();
    let first = a
        .singles()
        .iter()
        .find(|(p, _)| a.program_of_path(p) == group)
        .map(|(_, &s)| s);
    let project = match (single, first) {
        (Some(p), _) => p,
        (None, Some(first)) if !Lang::is_c_unit(path) => first,
        _ => group,
    };
    let c = CProgram::new(a, project);
    let mut out = Vec::new();
    if config.notes {
        // A header's notes are those its includers land in it.
        let notes = if Lang::is_c_unit(path) {
            pointee_db::file_notes(c.db, file).to_vec()
        } else {
            pointee_db::header_notes(c.db, project, file)
        };
        for n in &notes {
            out.push(Diagnostic {
                range: at(file, n.range),
                severity: match n.kind {
                    NoteKind::Syntax => Severity::Warning,
                    NoteKind::Unsupported => Severity::Info,
                    NoteKind::Preprocessor => Severity::Hint,
                },
                code: n.kind.as_str().to_string(),
                message: n.message.clone(),
                related: Vec::new(),
            });
        }
    }
    match a.program_error_now(project, Lang::C) {
        Some(e) => out.push(Diagnostic {
            range: at(file, Range::default()),
            severity: Severity::Error,
            code: "link".into(),
            message: e.0,
            related: Vec::new(),
        }),
        None => {
            for check in c_alias_checks(&c) {
                if check.at.file == file && wanted(&check, config) {
                    out.push(alias_check_diagnostic(&check, check.at));
                }
            }
            out.extend(
                c_link_warnings(&c)
                    .into_iter()
                    .filter(|d| d.range.file == file),
            );
            if config.checkers {
                out.extend(crate::checks::c_checks(&c, file, &|code| {
                    config.enabled(code)
                }));
            }
        }
    }
    out.sort_by_key(|d| (d.range.range.start, d.range.range.end));
    if single.is_some() {
        let why = a
            .program_error_now(group, Lang::C)
            .unwrap_or(crate::InputError(String::new()));
        out.insert(
            0,
            Diagnostic {
                range: at(file, Range::default()),
                severity: Severity::Info,
                code: "separate-program".into(),
                message: format!(
                    "analysed on its own (with the headers): the workspace's C files do not form one program: {why}"
                ),
                related: Vec::new(),
            },
        );
    }
    out
}

fn java_diagnostics(a: &Analysis, file: FileId, config: &DiagnosticsConfig) -> Vec<Diagnostic> {
    let project = a.project_of(file);
    if let Some(e) = a.program_error_now(project, Lang::Java) {
        return vec![Diagnostic {
            range: at(file, Range::default()),
            severity: Severity::Error,
            code: "input".into(),
            message: e.0,
            related: Vec::new(),
        }];
    }
    let report = java_check(&JavaProgram::new(a, project));
    let mut checks: Vec<&AliasCheck> = report
        .alias_checks
        .iter()
        .filter(|c| c.at.file == file && wanted(c, config))
        .collect();
    checks.sort_by_key(|c| c.at.range.start);
    let mut out: Vec<Diagnostic> = checks
        .into_iter()
        .map(|c| {
            // The check's name at the start of its statement.
            let start = c.at.range.start;
            let range = Range {
                start,
                end: start + c.check.len() as u32,
            };
            alias_check_diagnostic(c, at(file, range))
        })
        .collect();
    // Casts that may fail count as notes (as they always have); the other
    // findings are the checkers'.
    let mut found: Vec<Diagnostic> = report
        .diagnostics
        .into_iter()
        .filter(|d| {
            d.range.file == file
                && if d.code == "cast-may-fail" {
                    config.notes
                } else {
                    config.checkers
                }
        })
        .collect();
    found.sort_by_key(|d| (d.range.range.start, d.range.range.end));
    out.extend(found);
    out
}
