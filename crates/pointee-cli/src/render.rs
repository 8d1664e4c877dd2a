//! Text and JSON renderings of pointee-ide's answers. Field names here are the
//! command-line contract other tools rely on: keep them stable.

use crate::locate::{Location, Locator, Span};
use pointee_ide::{Callee, ContextTargets, Dump, Hover, Severity, Target, Verdict};
use serde_json::{json, Value};
use std::fmt::Write;

/// A target with its declaration's location.
struct Shown<'a> {
    t: &'a Target,
    decl: Option<Location>,
}

fn location_json(l: &Location) -> Value {
    json!({"file": l.file, "line": l.line, "column": l.column})
}

fn target_json(s: &Shown) -> Value {
    let t = s.t;
    let mut v = json!({
        "name": t.name,
        "kind": t.kind.as_str(),
        "definite": t.definite,
        "decl": s.decl.as_ref().map(location_json),
    });
    if let Some(hc) = &t.heap_context {
        v["heap_context"] = json!(hc);
    }
    if let Some(m) = &t.meaning {
        v["meaning"] = json!(m);
    }
    v
}

fn target_text(shown: &Shown) -> String {
    let t = shown.t;
    let mut s = format!("{} ({}", t.name, t.kind.as_str());
    if t.definite {
        s.push_str(", definite");
    }
    if let Some(hc) = &t.heap_context {
        let _ = write!(s, ", heap context {hc}");
    }
    if let Some(m) = &t.meaning {
        let _ = write!(s, ", {m}");
    }
    s.push(')');
    if let Some(d) = &shown.decl {
        let _ = write!(s, "  {}:{}:{}", d.file, d.line, d.column);
    }
    s
}

/// The contract's order: by declaration (file, line, column), then name.
fn sorted_targets<'a>(ts: &'a [Target], loc: &Locator) -> Vec<Shown<'a>> {
    let mut v: Vec<Shown> = ts
        .iter()
        .map(|t| Shown {
            t,
            decl: t.decl.map(|d| loc.location(d)),
        })
        .collect();
    v.sort_by(|a, b| (&a.decl, &a.t.name, a.t.kind).cmp(&(&b.decl, &b.t.name, b.t.kind)));
    v
}

fn targets_json(ts: &[Target], loc: &Locator) -> Value {
    Value::Array(sorted_targets(ts, loc).iter().map(target_json).collect())
}

fn context_json(c: &ContextTargets, loc: &Locator) -> Value {
    json!({"chain": c.chain, "targets": targets_json(&c.targets, loc)})
}

pub fn hover_json(h: &Hover, loc: &Locator) -> Value {
    json!({
        "expr": h.expr,
        "reachable": h.reachable,
        "merged": h.merged,
        "merged_in_cycle": h.merged_in_cycle,
        "partial": h.partial,
        "extra_entry": h.extra_entry,
        "targets": targets_json(&h.targets, loc),
        "contexts": h.contexts.iter().map(|c| context_json(c, loc)).collect::<Vec<_>>(),
    })
}

pub fn hover_text(h: &Hover, loc: &Locator) -> String {
    let at = loc.location(h.range);
    let mut s = format!("{} at {}:{}:{}\n", h.expr, at.file, at.line, at.column);
    if !h.reachable && h.partial {
        s.push_str("  not analysed: the analysis stopped at its budget first\n");
        return s;
    }
    if !h.reachable {
        s.push_str("  unreachable: no analysed context reaches this point\n");
        return s;
    }
    if h.partial {
        s.push_str("  (partial: the analysis stopped at its budget; this may say less)\n");
    }
    if h.extra_entry {
        s.push_str("  (reached only from an extra entry, with unknown inputs)\n");
    }
    if h.merged {
        s.push_str("  (contexts merged by the context bound)\n");
    }
    if h.merged_in_cycle {
        s.push_str("  (inputs merged inside a large recursive cycle)\n");
    }
    if h.targets.is_empty() {
        s.push_str("  points to nothing\n");
    }
    for t in sorted_targets(&h.targets, loc) {
        let _ = writeln!(s, "  -> {}", target_text(&t));
    }
    if h.contexts.len() > 1 {
        for c in &h.contexts {
            let _ = writeln!(s, "  in context {}:", c.chain.join(" > "));
            for t in sorted_targets(&c.targets, loc) {
                let _ = writeln!(s, "    -> {}", target_text(&t));
            }
        }
    }
    s
}

fn callee_json((c, decl): &(&Callee, Option<Location>)) -> Value {
    match decl {
        Some(d) => json!({"name": c.name, "file": d.file, "line": d.line, "column": d.column}),
        None => json!({"name": c.name, "file": null, "line": null, "column": null}),
    }
}

/// The contract's order: by (file, line, column), then name.
fn sorted_callees<'a>(cs: &'a [Callee], loc: &Locator) -> Vec<(&'a Callee, Option<Location>)> {
    let mut v: Vec<(&Callee, Option<Location>)> = cs
        .iter()
        .map(|c| (c, c.decl.map(|d| loc.location(d))))
        .collect();
    v.sort_by(|a, b| (&a.1, &a.0.name).cmp(&(&b.1, &b.0.name)));
    v
}

pub fn callees_json(cs: &[Callee], loc: &Locator) -> Value {
    Value::Array(sorted_callees(cs, loc).iter().map(callee_json).collect())
}

pub fn callees_text(cs: &[Callee], loc: &Locator) -> String {
    let mut s = String::new();
    if cs.is_empty() {
        s.push_str("no possible callee\n");
    }
    for (c, decl) in sorted_callees(cs, loc) {
        match &decl {
            Some(d) => {
                let _ = writeln!(s, "{}  {}:{}:{}", c.name, d.file, d.line, d.column);
            }
            None => {
                let _ = writeln!(s, "{}  (library)", c.name);
            }
        }
    }
    s
}

/// An alias check where the command line shows it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct AliasCheck {
    pub at: Location,
    pub check: String,
    pub verdict: Verdict,
    pub ok: bool,
}

/// A diagnostic where the command line shows it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub span: Span,
    pub severity: Severity,
    pub code: String,
    pub message: String,
    /// The witness: where the value came from, the calling contexts.
    pub related: Vec<(Span, String)>,
}

/// The checks of one or more programs (`check --each`), located.
#[derive(Clone, Debug, Default)]
pub struct CheckReport {
    pub alias_checks: Vec<AliasCheck>,
    pub diagnostics: Vec<Diagnostic>,
    pub stats: Vec<(String, u64)>,
    /// The C analysis of a program stopped at its budget (`--each`: the
    /// first such program's limit and steps; the functions of all).
    pub partial: Option<pointee_ide::PartialRun>,
    /// With `--baseline`: how many diagnostics and failing alias checks
    /// the baseline already had (left out).
    pub known: Option<usize>,
}

impl CheckReport {
    /// Adds one program's report (figures add up).
    pub fn add(&mut self, r: pointee_ide::CheckReport, loc: &Locator) {
        self.alias_checks
            .extend(r.alias_checks.into_iter().map(|c| AliasCheck {
                at: loc.location(c.at),
                check: c.check,
                verdict: c.verdict,
                ok: c.ok,
            }));
        self.diagnostics.extend(r.diagnostics.into_iter().map(|d| {
            Diagnostic {
                span: loc.span(d.range),
                severity: d.severity,
                code: d.code,
                message: d.message,
                related: d
                    .related
                    .into_iter()
                    .map(|r| (loc.span(r.range), r.message))
                    .collect(),
            }
        }));
        for (name, value) in r.stats {
            match self.stats.iter_mut().find(|(n, _)| *n == name) {
                Some((_, v)) => *v += value,
                None => self.stats.push((name, value)),
            }
        }
        self.alias_checks.sort();
        self.diagnostics.sort();
        if let Some(p) = r.partial {
            match &mut self.partial {
                Some(mine) => mine.incomplete.extend(p.incomplete),
                None => self.partial = Some(p),
            }
        }
    }

    pub fn all_ok(&self) -> bool {
        self.alias_checks.iter().all(|c| c.ok)
    }

    /// True when a diagnostic at or above `threshold` was reported.
    pub fn fails_on(&self, threshold: Option<Severity>) -> bool {
        threshold.is_some_and(|t| self.diagnostics.iter().any(|d| d.severity <= t))
    }
}

fn check_json_one(c: &AliasCheck) -> Value {
    json!({
        "file": c.at.file, "line": c.at.line, "column": c.at.column,
        "check": c.check, "verdict": c.verdict.as_str(), "ok": c.ok,
    })
}

fn diagnostic_json(d: &Diagnostic) -> Value {
    json!({
        "file": d.span.file, "line": d.span.line, "column": d.span.column,
        "end_line": d.span.end_line, "end_column": d.span.end_column,
        "severity": d.severity.as_str(), "code": d.code, "message": d.message,
        "related": d.related.iter().map(|(at, message)| json!({
            "file": at.file, "line": at.line, "column": at.column,
            "end_line": at.end_line, "end_column": at.end_column,
            "message": message,
        })).collect::<Vec<_>>(),
    })
}

pub fn check_json(r: &CheckReport) -> Value {
    let stats: serde_json::Map<String, Value> =
        r.stats.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    json!({
        "alias_checks": r.alias_checks.iter().map(check_json_one).collect::<Vec<_>>(),
        "diagnostics": r.diagnostics.iter().map(diagnostic_json).collect::<Vec<_>>(),
        "stats": stats,
        "baseline_known": r.known,
        "partial": r.partial.as_ref().map(|p| json!({
            "stopped_by": p.spent, "calls_analysed": p.steps,
            "not_finished": p.incomplete.iter().map(|n| n.to_string()).collect::<Vec<_>>(),
        })),
    })
}

pub fn check_text(r: &CheckReport) -> String {
    let mut s = String::new();
    for c in &r.alias_checks {
        let mark = if c.ok { "ok" } else { "NOT OK" };
        let _ = writeln!(
            s,
            "{}:{}:{}: {} -> {} ({mark})",
            c.at.file,
            c.at.line,
            c.at.column,
            c.check,
            c.verdict.as_str()
        );
    }
    for d in &r.diagnostics {
        let _ = writeln!(
            s,
            "{}:{}:{}: {}[{}]: {}",
            d.span.file,
            d.span.line,
            d.span.column,
            d.severity.as_str(),
            d.code,
            d.message
        );
        for (at, message) in &d.related {
            let _ = writeln!(
                s,
                "    {}:{}:{}: note: {message}",
                at.file, at.line, at.column
            );
        }
    }
    let failed = r.alias_checks.iter().filter(|c| !c.ok).count();
    let _ = writeln!(
        s,
        "{} alias checks, {} not ok",
        r.alias_checks.len(),
        failed
    );
    if let Some(known) = r.known {
        let _ = writeln!(s, "baseline: {known} known, not shown");
    }
    for (k, v) in &r.stats {
        let _ = writeln!(s, "{k}: {v}");
    }
    if let Some(p) = &r.partial {
        let names: Vec<&str> = p.incomplete.iter().map(|n| &**n).collect();
        let _ = writeln!(
            s,
            "partial: the C analysis stopped at its {} after {} calls; its answers are sound but may say less; not finished: {}",
            p.spent,
            p.steps,
            if names.is_empty() { "-".to_string() } else { names.join(", ") }
        );
    }
    s
}

/// The 1-based line a dump line came from.
fn line_of(l: &pointee_ide::DumpLine, loc: &Locator) -> Option<u32> {
    l.at.map(|at| loc.location(at).line)
}

pub fn dump_json(d: &Dump, loc: &Locator) -> Value {
    let functions: Vec<Value> = d
        .functions
        .iter()
        .map(|f| {
            let at = loc.location(f.at);
            json!({
                "name": f.name,
                "file": at.file, "line": at.line, "column": at.column,
                "header": f.header,
                "locals": f.locals,
                "statements": f.lines.iter().map(|l| json!({
                    "line": line_of(l, loc), "depth": l.depth, "text": l.text, "facts": l.facts,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let sections: serde_json::Map<String, Value> = d
        .sections
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "globals": d.globals,
        "functions": functions,
        "sections": sections,
        "notes": d.notes.iter().map(|n| {
            let at = loc.location(n.at);
            json!({
                "file": at.file, "line": at.line, "column": at.column,
                "kind": n.kind, "message": n.message,
            })
        }).collect::<Vec<_>>(),
    })
}

pub fn dump_text(d: &Dump, loc: &Locator) -> String {
    let mut s = String::new();
    for g in &d.globals {
        let _ = writeln!(s, "global {g}");
    }
    if !d.globals.is_empty() {
        s.push('\n');
    }
    for f in &d.functions {
        let at = loc.location(f.at);
        let _ = writeln!(s, "{}  // {}:{}", f.header, at.file, at.line);
        if !f.locals.is_empty() {
            let _ = writeln!(s, "       vars {}", f.locals);
        }
        for l in &f.lines {
            let line = line_of(l, loc)
                .map(|n| format!("{n:>5}"))
                .unwrap_or_else(|| "     ".into());
            let pad = "  ".repeat(l.depth + 1);
            let _ = writeln!(s, "{line}{pad}{}", l.text);
            for fact in &l.facts {
                let _ = writeln!(s, "     {pad}    {fact}");
            }
        }
        s.push('\n');
    }
    for (title, lines) in &d.sections {
        let _ = writeln!(s, "{title}:");
        for l in lines {
            let _ = writeln!(s, "  {l}");
        }
        s.push('\n');
    }
    for n in &d.notes {
        let at = loc.location(n.at);
        let _ = writeln!(
            s,
            "{}:{}:{}: note[{}]: {}",
            at.file, at.line, at.column, n.kind, n.message
        );
    }
    s
}
