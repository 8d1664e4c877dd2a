//! Check: the alias checks (`MUSTALIAS(p, q)`, `NOALIAS`, ...) of a
//! language's whole program with the engines' verdicts, the casts that may
//! fail (Java), the checkers' findings (C: `checks`), and the analyses'
//! figures. The verdicts are the engines'
//! (pointee-flow's and pointee-cspta's, kept by `pointee_db::c_analysis` and
//! `pointee_db::java_analysis`); nothing here re-derives them.

use crate::c::CProgram;
use crate::java::JavaProgram;
use crate::{AliasCheck, Analysis, CheckReport, Diagnostic, FileRange, Lang, Severity};
use pointee_ir::FunctionSource;

pub(crate) fn check(a: &Analysis, lang: Lang) -> CheckReport {
    let mut report = match lang {
        Lang::C => c_check(&CProgram::new(a, a.main())),
        Lang::Java => java_check(&JavaProgram::new(a, a.main())),
    };
    report
        .alias_checks
        .sort_by(|x, y| (a.key(x.at), &x.check).cmp(&(a.key(y.at), &y.check)));
    report.diagnostics.sort_by(|x, y| {
        (a.key(x.range), x.severity, &x.code, &x.message).cmp(&(
            a.key(y.range),
            y.severity,
            &y.code,
            &y.message,
        ))
    });
    report
}

/// The alias checks of a program's analysis (C: pointee-flow's verdicts,
/// Java: pointee-cspta's, both kept by the database), where they are.
pub(crate) fn alias_checks<'a>(
    checks: &[pointee_db::AliasCheck],
    source: impl Fn(&str) -> Option<(crate::FileId, &'a FunctionSource)>,
    lang: Lang,
) -> Vec<AliasCheck> {
    checks
        .iter()
        .filter_map(|check| {
            let (file, fs) = source(&check.function)?;
            // C: the call; Java: its statement.
            let range = match lang {
                Lang::C => fs.calls.iter().find(|x| x.stmt == check.stmt)?.range,
                Lang::Java => *fs.stmts.get(check.stmt.0 as usize)?,
            };
            Some(AliasCheck {
                at: FileRange { file, range },
                check: check.check.to_string(),
                verdict: check.verdict,
                ok: check.ok,
            })
        })
        .collect()
}

/// The C program's alias checks where they are.
pub(crate) fn c_alias_checks(c: &CProgram) -> Vec<AliasCheck> {
    match pointee_db::c_analysis(c.db, c.project) {
        Ok(a) => alias_checks(&a.alias_checks, |f| c.function_source(f), Lang::C),
        Err(_) => Vec::new(),
    }
}

/// What linking accepted but the user should know (tentative definitions
/// merged across units), at each file's declaration.
pub(crate) fn c_link_warnings(c: &CProgram) -> Vec<Diagnostic> {
    let Ok(linked) = pointee_db::c_link(c.db, c.project) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for w in &linked.warnings {
        for file in c.files() {
            if !w.files.iter().any(|f| **f == *file.path(c.db)) {
                continue;
            }
            let Some(g) = c.source(file).global(&w.name) else {
                continue;
            };
            out.push(Diagnostic {
                range: FileRange {
                    file,
                    range: g.name_range,
                },
                severity: Severity::Warning,
                code: "link".into(),
                message: w.message.clone(),
                related: Vec::new(),
            });
        }
    }
    out
}

fn c_check(c: &CProgram) -> CheckReport {
    let mut diagnostics = c_link_warnings(c);
    if pointee_db::c_analysis(c.db, c.project).is_ok() {
        for file in c.files() {
            diagnostics.extend(crate::checks::c_checks(c, file, &|_| true));
        }
    }
    CheckReport {
        alias_checks: c_alias_checks(c),
        diagnostics,
        stats: pointee_db::c_analysis(c.db, c.project)
            .as_ref()
            .map(|a| a.stats.clone())
            .unwrap_or_default(),
        partial: c_run_partial(c),
    }
}

/// The C run's partial result, with the functions the checkers' queries
/// answered for without replaying once the time limit was reached.
fn c_run_partial(c: &CProgram) -> Option<pointee_db::PartialRun> {
    let run = pointee_db::c_analysis(c.db, c.project)
        .as_ref()
        .ok()
        .and_then(|a| a.partial.clone());
    let late = c.engine().and_then(|e| e.with(|_, a| a.queries_partial()));
    match (run, late) {
        (run, None) => run,
        (Some(mut run), Some(late)) => {
            run.incomplete.extend(late.incomplete);
            run.incomplete.sort();
            run.incomplete.dedup();
            Some(run)
        }
        (None, Some(late)) => Some(pointee_db::PartialRun {
            spent: late.spent.describe().to_string(),
            steps: late.steps,
            incomplete: late.incomplete,
        }),
    }
}

/// The C runs that stopped at their budget, as one: the first one's limit,
/// every one's unfinished functions.
pub(crate) fn c_partial(a: &Analysis) -> Option<pointee_db::PartialRun> {
    let projects = a.programs();
    let mut out: Option<pointee_db::PartialRun> = None;
    for project in projects {
        let Ok(c) = pointee_db::c_analysis(a.db(), project) else {
            continue;
        };
        let Some(p) = &c.partial else { continue };
        match &mut out {
            Some(o) => o.incomplete.extend(p.incomplete.iter().cloned()),
            None => out = Some(p.clone()),
        }
    }
    out
}

/// The Java program's alias checks, checkers' findings (`java_checks`)
/// and figures.
pub(crate) fn java_check(j: &JavaProgram) -> CheckReport {
    let mut report = CheckReport::default();
    let Some(pta) = j.pta else { return report };
    if let Ok(a) = pointee_db::java_analysis(j.db(), j.project) {
        report.alias_checks = alias_checks(&a.alias_checks, |f| j.function_source(f), Lang::Java);
    }
    report.diagnostics = crate::java_checks::java_checks(j);
    report.stats = pta.stats().named();
    report
}
