//! `pointee check` with the checkers: text, JSON and SARIF 2.1.0 output, the
//! exit codes (`--fail-on`), `--assume-alloc-succeeds`. The SARIF log is
//! checked against the fields SARIF 2.1.0 requires (OASIS, section 3) and
//! those GitHub code scanning reads.

mod common;
use common::pointee;

use serde_json::Value;

use std::process::Output;

const NULLS: &str = "fixtures/c/diagnostics/null_direct.c";
const ALLOC: &str = "fixtures/c/diagnostics/null_alloc.c";

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

#[test]
fn text_lists_findings_with_their_witness_and_errors_fail() {
    let out = pointee(&["check", NULLS]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains(
        "fixtures/c/diagnostics/null_direct.c:24:10: error[null-deref]: `p` is NULL where it is dereferenced: it points to {NULL}\n    fixtures/c/diagnostics/null_direct.c:22:10: note: `p` is set to NULL here\n"
    ), "{text}");
    // Warnings only: exit 0 by default, 1 with --fail-on warning.
    assert_eq!(pointee(&["check", ALLOC]).status.code(), Some(0));
    assert_eq!(
        pointee(&["check", ALLOC, "--fail-on", "warning"])
            .status
            .code(),
        Some(1)
    );
    assert_eq!(
        pointee(&["check", NULLS, "--fail-on", "never"])
            .status
            .code(),
        Some(0)
    );
    let bad = pointee(&["check", NULLS, "--fail-on", "sometimes"]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn assume_alloc_succeeds_silences_unchecked_allocations() {
    let out = pointee(&["check", ALLOC, "--format", "json"]);
    let n = json(&out)["diagnostics"].as_array().unwrap().len();
    assert_eq!(n, 4);
    let out = pointee(&[
        "check",
        ALLOC,
        "--format",
        "json",
        "--assume-alloc-succeeds",
    ]);
    assert_eq!(json(&out)["diagnostics"], serde_json::json!([]));
}

#[test]
fn json_diagnostics_carry_related_locations() {
    let v = json(&pointee(&["check", NULLS, "--format", "json"]));
    let d = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["line"] == 24)
        .expect("the finding on line 24");
    assert_eq!(d["code"], "null-deref");
    assert_eq!(d["severity"], "error");
    assert_eq!(
        d["related"],
        serde_json::json!([{
            "file": NULLS, "line": 22, "column": 10, "end_line": 22, "end_column": 18,
            "message": "`p` is set to NULL here",
        }])
    );
}

fn str_at<'a>(v: &'a Value, what: &str) -> &'a str {
    v.as_str()
        .unwrap_or_else(|| panic!("{what} must be a string, is {v}"))
}

fn check_location(l: &Value) {
    let p = &l["physicalLocation"];
    assert!(!str_at(&p["artifactLocation"]["uri"], "uri").is_empty());
    let r = &p["region"];
    for k in ["startLine", "startColumn", "endLine", "endColumn"] {
        assert!(r[k].as_u64().is_some_and(|n| n >= 1), "region.{k}: {r}");
    }
    assert!(r["endLine"].as_u64() >= r["startLine"].as_u64());
}

#[test]
fn sarif_has_the_required_shape() {
    let out = pointee(&["check", NULLS, "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1));
    let v = json(&out);
    // sarifLog: version and runs are required (3.13).
    assert_eq!(v["version"], "2.1.0");
    assert!(str_at(&v["$schema"], "$schema").contains("sarif-2.1.0"));
    let runs = v["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 1);
    let run = &runs[0];
    // run.tool.driver.name is required (3.14.6, 3.18.2).
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "pointee");
    let rules = driver["rules"].as_array().expect("rules");
    for r in rules {
        assert!(!str_at(&r["id"], "rule id").is_empty());
        assert!(!str_at(&r["shortDescription"]["text"], "shortDescription").is_empty());
    }
    let results = run["results"].as_array().expect("results");
    assert_eq!(results.len(), 8, "the fixture's eight findings");
    for res in results {
        // result.message is required (3.27.11); GitHub needs ruleId and a
        // location with a region.
        assert!(!str_at(&res["message"]["text"], "message").is_empty());
        let id = str_at(&res["ruleId"], "ruleId");
        let i = res["ruleIndex"].as_u64().expect("ruleIndex") as usize;
        assert_eq!(rules[i]["id"], id, "ruleIndex points at the rule");
        assert!(matches!(
            str_at(&res["level"], "level"),
            "error" | "warning" | "note"
        ));
        let locs = res["locations"].as_array().expect("locations");
        assert_eq!(locs.len(), 1);
        check_location(&locs[0]);
        if let Some(related) = res.get("relatedLocations") {
            for r in related.as_array().unwrap() {
                check_location(r);
                assert!(r["id"].as_u64().is_some());
            }
            // The witness as a code flow: its steps, then the defect.
            let steps = res["codeFlows"][0]["threadFlows"][0]["locations"]
                .as_array()
                .expect("codeFlows[0].threadFlows[0].locations");
            assert_eq!(steps.len(), related.as_array().unwrap().len() + 1);
            for s in steps {
                check_location(&s["location"]);
            }
        }
    }
    let with_flow = results
        .iter()
        .filter(|r| r.get("codeFlows").is_some())
        .count();
    assert!(with_flow >= 3, "witnesses as code flows: {with_flow}");
}

#[test]
fn sarif_is_for_check_only() {
    let out = pointee(&["dump", NULLS, "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(2));
}
