//! Text and JSON renderings of pointee-ide's answers. Field names here are the
//! command-line contract other tools rely on: keep them stable.

use pointee_ide::{
    AliasCheck, Callee, CheckReport, ContextTargets, Diagnostic, Dump, Hover, Location, Target,
};
use serde_json::{json, Value};
use std::fmt::Write;

fn location_json(l: &Location) -> Value {
    json!({"file": l.file, "line": l.line, "column": l.column})
}

fn target_json(t: &Target) -> Value {
    let mut v = json!({
        "name": t.name,
        "kind": t.kind.as_str(),
        "definite": t.definite,
        "decl": t.decl.as_ref().map(location_json),
    });
    if let Some(hc) = &t.heap_context {
        v["heap_context"] = json!(hc);
    }
    v
}

fn target_text(t: &Target) -> String {
    let mut s = format!("{} ({}", t.name, t.kind.as_str());
    if t.definite {
        s.push_str(", definite");
    }
    if let Some(hc) = &t.heap_context {
        let _ = write!(s, ", heap context {hc}");
    }
    s.push(')');
    if let Some(d) = &t.decl {
        let _ = write!(s, "  {}:{}:{}", d.file, d.line, d.column);
    }
    s
}

/// The contract's order: by declaration (file, line, column), then name.
fn sorted_targets(ts: &[Target]) -> Vec<&Target> {
    let mut v: Vec<&Target> = ts.iter().collect();
    v.sort_by(|a, b| (&a.decl, &a.name, a.kind).cmp(&(&b.decl, &b.name, b.kind)));
    v
}

fn targets_json(ts: &[Target]) -> Value {
    Value::Array(sorted_targets(ts).into_iter().map(target_json).collect())
}

fn context_json(c: &ContextTargets) -> Value {
    json!({"chain": c.chain, "targets": targets_json(&c.targets)})
}

pub fn hover_json(h: &Hover) -> Value {
    json!({
        "expr": h.expr,
        "reachable": h.reachable,
        "merged": h.merged,
        "extra_entry": h.extra_entry,
        "targets": targets_json(&h.targets),
        "contexts": h.contexts.iter().map(context_json).collect::<Vec<_>>(),
    })
}

pub fn hover_text(h: &Hover) -> String {
    let mut s = format!(
        "{} at {}:{}:{}\n",
        h.expr, h.span.file, h.span.line, h.span.column
    );
    if !h.reachable {
        s.push_str("  unreachable: no analysed context reaches this point\n");
        return s;
    }
    if h.extra_entry {
        s.push_str("  (reached only from an extra entry, with unknown inputs)\n");
    }
    if h.merged {
        s.push_str("  (contexts merged by the context bound)\n");
    }
    if h.targets.is_empty() {
        s.push_str("  points to nothing\n");
    }
    for t in sorted_targets(&h.targets) {
        let _ = writeln!(s, "  -> {}", target_text(t));
    }
    if h.contexts.len() > 1 {
        for c in &h.contexts {
            let _ = writeln!(s, "  in context {}:", c.chain.join(" > "));
            for t in sorted_targets(&c.targets) {
                let _ = writeln!(s, "    -> {}", target_text(t));
            }
        }
    }
    s
}

fn callee_json(c: &Callee) -> Value {
    match &c.decl {
        Some(d) => json!({"name": c.name, "file": d.file, "line": d.line, "column": d.column}),
        None => json!({"name": c.name, "file": null, "line": null, "column": null}),
    }
}

/// The contract's order: by (file, line, column), then name.
fn sorted_callees(cs: &[Callee]) -> Vec<&Callee> {
    let mut v: Vec<&Callee> = cs.iter().collect();
    v.sort_by(|a, b| (&a.decl, &a.name).cmp(&(&b.decl, &b.name)));
    v
}

pub fn callees_json(cs: &[Callee]) -> Value {
    Value::Array(sorted_callees(cs).into_iter().map(callee_json).collect())
}

pub fn callees_text(cs: &[Callee]) -> String {
    let mut s = String::new();
    if cs.is_empty() {
        s.push_str("no possible callee\n");
    }
    for c in sorted_callees(cs) {
        match &c.decl {
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
    })
}

pub fn check_json(r: &CheckReport) -> Value {
    let stats: serde_json::Map<String, Value> =
        r.stats.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    json!({
        "alias_checks": r.alias_checks.iter().map(check_json_one).collect::<Vec<_>>(),
        "diagnostics": r.diagnostics.iter().map(diagnostic_json).collect::<Vec<_>>(),
        "stats": stats,
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
    }
    let failed = r.alias_checks.iter().filter(|c| !c.ok).count();
    let _ = writeln!(
        s,
        "{} alias checks, {} not ok",
        r.alias_checks.len(),
        failed
    );
    for (k, v) in &r.stats {
        let _ = writeln!(s, "{k}: {v}");
    }
    s
}

pub fn dump_json(d: &Dump) -> Value {
    let functions: Vec<Value> = d
        .functions
        .iter()
        .map(|f| {
            json!({
                "name": f.name,
                "file": f.at.file, "line": f.at.line, "column": f.at.column,
                "header": f.header,
                "locals": f.locals,
                "statements": f.lines.iter().map(|l| json!({
                    "line": l.line, "depth": l.depth, "text": l.text, "facts": l.facts,
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
        "notes": d.notes.iter().map(|n| json!({
            "file": n.at.file, "line": n.at.line, "column": n.at.column,
            "kind": n.kind, "message": n.message,
        })).collect::<Vec<_>>(),
    })
}

pub fn dump_text(d: &Dump) -> String {
    let mut s = String::new();
    for g in &d.globals {
        let _ = writeln!(s, "global {g}");
    }
    if !d.globals.is_empty() {
        s.push('\n');
    }
    for f in &d.functions {
        let _ = writeln!(s, "{}  // {}:{}", f.header, f.at.file, f.at.line);
        if !f.locals.is_empty() {
            let _ = writeln!(s, "       vars {}", f.locals);
        }
        for l in &f.lines {
            let line = l
                .line
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
        let _ = writeln!(
            s,
            "{}:{}:{}: note[{}]: {}",
            n.at.file, n.at.line, n.at.column, n.kind, n.message
        );
    }
    s
}
