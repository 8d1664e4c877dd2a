//! Check: the alias checks (`MUSTALIAS(p, q)`, `NOALIAS`, ...) of a
//! language's whole program with the engines' verdicts, the casts that may
//! fail (Java), and the analyses' figures. The verdicts are the engines'
//! (pointee-flow's, kept by `pointee_db::c_analysis`; pointee-cspta's);
//! nothing here re-derives them.

use crate::c::CProgram;
use crate::java::JavaProgram;
use crate::{AliasCheck, Analysis, CheckReport, Diagnostic, FileRange, Lang, Severity, Verdict};
use pointee_cspta::AliasVerdict;

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

/// The C program's alias checks where they are, from the engine's run.
pub(crate) fn c_alias_checks(c: &CProgram) -> Vec<AliasCheck> {
    let Ok(analysis) = pointee_db::c_analysis(c.db, c.project) else {
        return Vec::new();
    };
    analysis
        .alias_checks
        .iter()
        .filter_map(|check| {
            let (file, fs) = c.function_source(&check.function)?;
            let call = fs.calls.iter().find(|x| x.stmt == check.stmt)?;
            Some(AliasCheck {
                at: FileRange {
                    file,
                    range: call.range,
                },
                check: check.check.to_string(),
                verdict: c_verdict(check.verdict),
                ok: check.ok,
            })
        })
        .collect()
}

fn c_verdict(v: pointee_flow::Alias) -> Verdict {
    match v {
        pointee_flow::Alias::No => Verdict::No,
        pointee_flow::Alias::May => Verdict::May,
        pointee_flow::Alias::Must => Verdict::Must,
        pointee_flow::Alias::Unreachable => Verdict::Unreachable,
    }
}

fn c_check(c: &CProgram) -> CheckReport {
    CheckReport {
        alias_checks: c_alias_checks(c),
        diagnostics: Vec::new(),
        stats: pointee_db::c_analysis(c.db, c.project)
            .as_ref()
            .map(|a| a.stats.clone())
            .unwrap_or_default(),
    }
}

/// The Java program's alias checks, casts that may fail and figures.
pub(crate) fn java_check(j: &JavaProgram) -> CheckReport {
    let mut report = CheckReport::default();
    let Some(pta) = j.pta else { return report };
    for c in pointee_cspta::alias_checks(pta, &j.jp.program) {
        let name = &j.jp.program.functions[c.method as usize].name;
        let Some((file, fs)) = j.function_source(name) else {
            continue;
        };
        let verdict = match c.verdict {
            AliasVerdict::No => Verdict::No,
            AliasVerdict::May => Verdict::May,
            AliasVerdict::Unreachable => Verdict::Unreachable,
        };
        report.alias_checks.push(AliasCheck {
            at: FileRange {
                file,
                range: fs.stmts[c.stmt as usize],
            },
            check: c.kind.name().to_string(),
            verdict,
            ok: c.ok(),
        });
    }
    for (m, cast, fails) in pta.casts() {
        if !fails {
            continue;
        }
        let name = &pta.facts.method_names[m as usize];
        let Some((file, fs)) = j.function_source(name) else {
            continue;
        };
        report.diagnostics.push(Diagnostic {
            range: FileRange {
                file,
                range: fs.stmts[cast.stmt as usize],
            },
            severity: Severity::Warning,
            code: "cast-may-fail".into(),
            message: format!("the cast to {} may fail", cast.target),
        });
    }
    report.stats = pta.stats().named();
    report
}
