//! `pointee check` on Java with the Java checkers (`null-deref`,
//! `unreachable-method`, `cast-may-fail`): text, JSON and SARIF, rules
//! described, exit codes by `--fail-on`.

mod common;
use common::pointee;

use serde_json::Value;

const NULLS: &str = "fixtures/java-diagnostics/NullThroughCall.java";
const UNREACHABLE: &str = "fixtures/java-diagnostics/Unreachable.java";

#[test]
fn java_findings_in_text_json_and_sarif() {
    let out = pointee(&["check", NULLS]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "an error fails: {text}");
    assert!(text.contains(
        "fixtures/java-diagnostics/NullThroughCall.java:18:9: error[null-deref]: `u` is null where it is dereferenced: no object reaches it, only null\n    fixtures/java-diagnostics/NullThroughCall.java:12:16: note: null comes from here\n"
    ), "{text}");

    let v: Value = serde_json::from_slice(&pointee(&["check", NULLS, "--format", "json"]).stdout)
        .expect("JSON");
    let codes: Vec<(&str, &str, u64)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap(),
                d["severity"].as_str().unwrap(),
                d["line"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        codes,
        [("null-deref", "warning", 16), ("null-deref", "error", 18)]
    );

    // Hints only: exit 0 even with --fail-on warning.
    let out = pointee(&[
        "check",
        UNREACHABLE,
        "--format",
        "sarif",
        "--fail-on",
        "warning",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let v: Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    let run = &v["runs"][0];
    let rules = run["tool"]["driver"]["rules"].as_array().unwrap();
    let rule = rules
        .iter()
        .find(|r| r["id"] == "unreachable-method")
        .expect("the rule is listed");
    assert_eq!(
        rule["shortDescription"]["text"],
        "A method the call graph never reaches from the entries (Java)."
    );
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for r in results {
        assert_eq!(r["ruleId"], "unreachable-method");
        assert_eq!(r["level"], "note");
    }
}
