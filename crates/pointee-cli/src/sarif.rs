//! `check --format sarif`: the report as SARIF 2.1.0 (OASIS), as GitHub
//! code scanning reads it: one run, a rule per code, a result per
//! diagnostic and per failing alias check, the witness as `relatedLocations`
//! and as one `codeFlow` (the witness's steps in order, then the defect).
//! Columns count characters (`columnKind: unicodeCodePoints`), 1-based;
//! SARIF's `endColumn` is exclusive, as the command line's is.
//!
//! Each result has a `partialFingerprints["pointee/v1"]` (`fingerprint`);
//! `--baseline FILE.sarif` leaves out the results an earlier log has
//! (`Baseline`) and marks the others `baselineState: new`. A run the
//! budget stopped says so in a tool notification and in the run's
//! `properties.partial`.

use crate::locate::Span;
use crate::render::CheckReport;
use pointee_ide::{InputError, Severity};
use serde_json::{json, Value};
use std::collections::HashMap;

pub const SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// The description of a code (the checkers' rules, then the others).
fn describe(code: &str) -> &'static str {
    let rules = pointee_ide::RULES.iter().chain(pointee_ide::JAVA_RULES);
    if let Some((_, d)) = rules.into_iter().find(|(c, _)| *c == code) {
        return d;
    }
    match code {
        "alias-check" => "An alias check (MUSTALIAS, NOALIAS, ...) does not hold in the analysis.",
        "link" => "The C files link with a note, or do not link.",
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
                "pointee/v1": fingerprint(&d.code, &d.span.file, &d.message),
            },
        });
        if r.known.is_some() {
            result["baselineState"] = json!("new");
        }
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
        let mut result = json!({
            "ruleId": "alias-check",
            "ruleIndex": rule_index("alias-check"),
            "level": "warning",
            "message": { "text": format!("{} does not hold: the analysis says {}", c.check, c.verdict.as_str()) },
            "locations": [location(&at, None)],
            "partialFingerprints": {
                "pointee/v1": fingerprint("alias-check", &c.at.file, &c.check),
            },
        });
        if r.known.is_some() {
            result["baselineState"] = json!("new");
        }
        results.push(result);
    }
    // A run the budget stopped: sound, but it may say less.
    let mut notifications = Vec::new();
    let mut properties = json!({});
    if let Some(p) = &r.partial {
        let names: Vec<String> = p.incomplete.iter().map(|n| n.to_string()).collect();
        notifications.push(json!({
            "level": "warning",
            "descriptor": { "id": "partial" },
            "message": { "text": format!(
                "the C analysis stopped at its {} after {} calls; its answers are sound but may say less; not finished: {}",
                p.spent, p.steps, if names.is_empty() { "-".to_string() } else { names.join(", ") }
            ) },
        }));
        properties["partial"] = json!({
            "stoppedBy": p.spent, "callsAnalysed": p.steps, "notFinished": names,
        });
    }
    if let Some(known) = r.known {
        properties["baselineKnown"] = json!(known);
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
            "invocations": [{
                "executionSuccessful": true,
                "toolExecutionNotifications": notifications,
            }],
            "columnKind": "unicodeCodePoints",
            "results": results,
            "properties": properties,
        }],
    })
}

/// What identifies a finding across runs (`partialFingerprints`, and what
/// `--baseline` compares): its code, its file and its message without
/// what may change while the defect stays (the points-to sets `{...}` and
/// the count of calling contexts), and never its line.
pub fn fingerprint(code: &str, file: &str, message: &str) -> String {
    let mut text = String::with_capacity(message.len());
    let mut depth = 0u32;
    for ch in message.chars() {
        match ch {
            '{' => {
                if depth == 0 {
                    text.push_str("{}");
                }
                depth += 1;
            }
            '}' if depth > 0 => depth -= 1,
            _ if depth == 0 => text.push(ch),
            _ => {}
        }
    }
    if let Some(i) = text.rfind(" (in ") {
        if text[i..].ends_with(" calling contexts)") {
            text.truncate(i);
        }
    }
    format!("{code}:{file}:{text}")
}

/// The fingerprints of an earlier run's SARIF log, each with how many
/// results had it.
pub struct Baseline(HashMap<String, usize>);

impl Baseline {
    pub fn read(path: &str) -> Result<Baseline, InputError> {
        let bad = |why: String| InputError(format!("--baseline {path}: {why}"));
        let text =
            std::fs::read_to_string(path).map_err(|e| bad(format!("cannot read it: {e}")))?;
        let log: Value = serde_json::from_str(&text).map_err(|e| bad(format!("not JSON: {e}")))?;
        let runs = log["runs"]
            .as_array()
            .ok_or_else(|| bad("not a SARIF log (no `runs`)".into()))?;
        let mut seen = HashMap::new();
        for res in runs
            .iter()
            .filter_map(|r| r["results"].as_array())
            .flatten()
        {
            if let Some(f) = res["partialFingerprints"]["pointee/v1"].as_str() {
                *seen.entry(f.to_string()).or_insert(0) += 1;
            }
        }
        Ok(Baseline(seen))
    }

    /// Leaves out of `r` the diagnostics and failing alias checks the
    /// baseline has (as many of each fingerprint as it had, the first ones
    /// in file order), and records how many.
    pub fn apply(&self, r: &mut CheckReport) {
        let mut left = self.0.clone();
        let mut known = 0;
        let mut is_new = |f: String| match left.get_mut(&f) {
            Some(n) if *n > 0 => {
                *n -= 1;
                known += 1;
                false
            }
            _ => true,
        };
        r.diagnostics
            .retain(|d| is_new(fingerprint(&d.code, &d.span.file, &d.message)));
        r.alias_checks
            .retain(|c| c.ok || is_new(fingerprint("alias-check", &c.at.file, &c.check)));
        r.known = Some(known);
    }
}
