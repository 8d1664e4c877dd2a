//! `pointee check` with the checkers: text, JSON and SARIF 2.1.0 output, the
//! exit codes (`--fail-on`), `--assume-alloc-succeeds`, `--baseline`. The
//! SARIF log is validated against the official SARIF 2.1.0 JSON schema
//! (`sarif-schema-2.1.0.json` beside this file: OASIS's
//! `Schemata/sarif-schema-2.1.0.json`, as the `serde-sarif` crate ships
//! it) and checked for the fields GitHub code scanning reads.

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

/// The SARIF log's schema errors (none: valid).
fn schema_errors(log: &Value) -> Vec<String> {
    // The schema's two `language` patterns have a stray `]`
    // (`^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$`), which the draft-07
    // meta-schema's `regex` format rejects; the log never sets `language`.
    // Use the pattern it means.
    let text = include_str!("sarif-schema-2.1.0.json");
    let stray = r#""^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$""#;
    assert_eq!(text.matches(stray).count(), 2);
    let text = text.replace(stray, r#""^[a-zA-Z]{2}(-[a-zA-Z]{2})?$""#);
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

#[test]
fn sarif_validates_against_the_official_schema() {
    let overlap = "fixtures/c/diagnostics/overlap.c";
    let runs: [&[&str]; 4] = [
        &["check", NULLS, "--format", "sarif"],
        &["check", overlap, ALLOC, "--each", "--format", "sarif"],
        // A partial run: its notification and properties.
        &["check", NULLS, "--format", "sarif", "--budget-steps", "1"],
        // Alias checks that fail.
        &[
            "check",
            "fixtures/c/soundness",
            "--each",
            "--format",
            "sarif",
        ],
    ];
    for args in runs {
        let log = json(&pointee(args));
        let errors = schema_errors(&log);
        assert!(errors.is_empty(), "{args:?}: {errors:#?}");
    }
    // The schema does reject what it should (the validator is in effect).
    let mut broken = json(&pointee(&["check", NULLS, "--format", "sarif"]));
    broken["runs"][0]["results"][0]["level"] = "fatal".into();
    assert!(!schema_errors(&broken).is_empty());
}

#[test]
fn a_partial_run_says_so_in_sarif() {
    let out = pointee(&["check", NULLS, "--format", "sarif", "--budget-steps", "1"]);
    assert_eq!(out.status.code(), Some(3));
    let run = &json(&out)["runs"][0];
    let note = &run["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "warning");
    assert!(
        str_at(&note["message"]["text"], "message")
            .starts_with("the C analysis stopped at its step budget after"),
        "{note}"
    );
    assert_eq!(run["properties"]["partial"]["stoppedBy"], "step budget");
    // A whole run has neither.
    let run = &json(&pointee(&["check", NULLS, "--format", "sarif"]))["runs"][0];
    assert_eq!(
        run["invocations"][0]["toolExecutionNotifications"],
        serde_json::json!([])
    );
    assert!(run["properties"].get("partial").is_none());
}

#[test]
fn baseline_reports_only_what_is_new() {
    let dir = std::env::temp_dir().join(format!("pointee-baseline-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("prog.c");
    let old = std::fs::read_to_string(common::root().join(NULLS)).unwrap();
    std::fs::write(&file, &old).unwrap();
    let file = file.to_str().unwrap();
    let baseline = dir.join("old.sarif");
    let first = pointee(&["check", file, "--format", "sarif"]);
    std::fs::write(&baseline, &first.stdout).unwrap();
    let baseline = baseline.to_str().unwrap();
    let count = |out: &Output| json(out)["diagnostics"].as_array().unwrap().len();

    // The same program: nothing new, exit 0 (the errors are known).
    let out = pointee(&["check", file, "--baseline", baseline, "--format", "json"]);
    assert_eq!(count(&out), 0);
    assert_eq!(json(&out)["baseline_known"], 8);
    assert_eq!(out.status.code(), Some(0));
    let text = pointee(&["check", file, "--baseline", baseline]);
    assert!(String::from_utf8_lossy(&text.stdout).contains("baseline: 8 known, not shown\n"));

    // Lines moved (a comment on top) and one new defect: only it is new.
    let new = format!(
        "// moved\n// down\n{old}\nint fresh(void) {{\n    int *z = 0;\n    return *z;\n}}\n"
    );
    std::fs::write(file, new).unwrap();
    let out = pointee(&["check", file, "--baseline", baseline, "--format", "json"]);
    let v = json(&out);
    assert_eq!(v["baseline_known"], 8);
    let diags = v["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{diags:#?}");
    assert_eq!(diags[0]["code"], "null-deref");
    assert_eq!(diags[0]["severity"], "error");
    assert_eq!(out.status.code(), Some(1));
    let sarif = json(&pointee(&[
        "check",
        file,
        "--baseline",
        baseline,
        "--format",
        "sarif",
    ]));
    let results = sarif["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["baselineState"], "new");
    assert_eq!(sarif["runs"][0]["properties"]["baselineKnown"], 8);
    assert!(schema_errors(&sarif).is_empty());

    // A baseline that is not a SARIF log is bad input.
    let out = pointee(&["check", file, "--baseline", file]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("pointee: --baseline {file}: not JSON")),
        "{err}"
    );
    let out = pointee(&["dump", file, "--baseline", baseline]);
    assert_eq!(out.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}
