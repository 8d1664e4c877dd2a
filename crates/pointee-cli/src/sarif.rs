//! `check --format sarif`: the report as SARIF 2.1.0 (OASIS), as GitHub
//! code scanning reads it: one run, a rule per code, a result per
//! diagnostic and per failing alias check, the witness as `relatedLocations`
//! and as one `codeFlow` (the witness's steps in order, then the defect).
//! Columns count characters (`columnKind: unicodeCodePoints`), 1-based;
//! SARIF's `endColumn` is exclusive, as the command line's is.

use crate::locate::Span;
use crate::render::CheckReport;
use pointee_ide::Severity;
use serde_json::{json, Value};

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The description of a code (the checkers' rules, then the others).
fn describe(code: &str) -> &'static str {
    if let Some((_, d)) = pointee_ide::RULES.iter().find(|(c, _)| *c == code) {
        return d;
    }
    match code {
        "alias-check" => "An alias check (MUSTALIAS, NOALIAS, ...) does not hold in the analysis.",
        "link" => "The C files link with a note, or do not link.",
        "cast-may-fail" => {
            "A cast may fail: an object that is not an instance of the target type may reach it."
        }
        "syntax" => "A syntax error; the rest of the file was analysed as far as it goes.",
        "unsupported" => "A construct the analysis approximates.",
        _ => "A diagnostic of pointee.",
    }
}

fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info | Severity::Hint => "note",
    }
}

/// A file path as a relative URI reference (`/` separators, spaces and
/// other reserved bytes percent-encoded).
fn uri(path: &str) -> String {
    let mut out = String::new();
    for b in path.replace('\\', "/").bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

fn physical(at: &Span) -> Value {
    json!({
        "artifactLocation": { "uri": uri(&at.file) },
        "region": {
            "startLine": at.line,
            "startColumn": at.column,
            "endLine": at.end_line,
            "endColumn": at.end_column.max(1),
        },
    })
}

fn location(at: &Span, message: Option<&str>) -> Value {
    let mut v = json!({ "physicalLocation": physical(at) });
    if let Some(m) = message {
        v["message"] = json!({ "text": m });
    }
    v
}

/// The report as a SARIF 2.1.0 log.
pub fn check_sarif(r: &CheckReport) -> Value {
    let mut codes: Vec<&str> = r.diagnostics.iter().map(|d| d.code.as_str()).collect();
    codes.extend(pointee_ide::RULES.iter().map(|(c, _)| *c));
    if r.alias_checks.iter().any(|c| !c.ok) {
        codes.push("alias-check");
    }
    codes.sort();
    codes.dedup();
    let rules: Vec<Value> = codes
        .iter()
        .map(|c| {
            json!({
                "id": c,
                "name": c,
                "shortDescription": { "text": describe(c) },
                "fullDescription": { "text": describe(c) },
            })
        })
        .collect();
    let rule_index = |code: &str| codes.iter().position(|c| *c == code).unwrap_or(0);
    let mut results = Vec::new();
    for d in &r.diagnostics {
        let mut result = json!({
            "ruleId": d.code,
            "ruleIndex": rule_index(&d.code),
            "level": level(d.severity),
            "message": { "text": d.message },
            "locations": [location(&d.span, None)],
            "partialFingerprints": {
                "pointee/v1": format!("{}:{}:{}", d.code, d.span.file, d.message),
            },
        });
        if !d.related.is_empty() {
            let related: Vec<Value> = d
                .related
                .iter()
                .enumerate()
                .map(|(i, (at, m))| {
                    let mut v = location(at, Some(m));
                    v["id"] = json!(i);
                    v
                })
                .collect();
            let mut steps: Vec<Value> = d
                .related
                .iter()
                .map(|(at, m)| json!({ "location": location(at, Some(m)) }))
                .collect();
            steps.push(json!({ "location": location(&d.span, Some(&d.message)) }));
            result["relatedLocations"] = json!(related);
            result["codeFlows"] = json!([{ "threadFlows": [{ "locations": steps }] }]);
        }
        results.push(result);
    }
    for c in r.alias_checks.iter().filter(|c| !c.ok) {
        let at = Span {
            file: c.at.file.clone(),
            line: c.at.line,
            column: c.at.column,
            end_line: c.at.line,
            end_column: c.at.column + c.check.chars().count() as u32,
        };
        results.push(json!({
            "ruleId": "alias-check",
            "ruleIndex": rule_index("alias-check"),
            "level": "warning",
            "message": { "text": format!("{} does not hold: the analysis says {}", c.check, c.verdict.as_str()) },
            "locations": [location(&at, None)],
        }));
    }
    json!({
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "pointee",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                },
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    })
}
