//! The command-line contract: exit codes, one-line errors, and the JSON field
//! names other tools rely on. Runs the real `pointee` binary.

mod common;
use common::pointee;

use serde_json::Value;

use std::process::Output;

fn scratch(name: &str, bytes: &[u8]) -> String {
    let dir = std::env::temp_dir().join(format!("pointee-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let p = dir.join(name);
    std::fs::write(&p, bytes).expect("write scratch file");
    p.to_string_lossy().into_owned()
}

/// Exit code 2 and exactly one line on stderr, naming the problem.
fn assert_bad_input(out: &Output, mentions: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line expected, got: {err}");
    assert!(
        err.starts_with("pointee: ") && err.contains(mentions),
        "stderr: {err}"
    );
    assert!(out.stdout.is_empty(), "nothing on stdout for bad input");
}

#[test]
fn bad_input_gives_one_line_and_exit_code_2() {
    assert_bad_input(&pointee(&["dump", "no/such/file.c"]), "no such file");
    assert_bad_input(
        &pointee(&["hover", "examples/ops.c:999:1"]),
        "outside the file",
    );
    assert_bad_input(
        &pointee(&["hover", "examples/ops.c:1:999"]),
        "outside the file",
    );
    assert_bad_input(&pointee(&["hover", "examples/ops.c:0:1"]), "start at 1");
    assert_bad_input(&pointee(&["hover", "examples/ops.c:18"]), "FILE:LINE:COL");
    assert_bad_input(
        &pointee(&["hover", "examples/ops.c:1:1"]),
        "no pointer expression",
    );
    assert_bad_input(&pointee(&["callees", "examples/ops.c:1:1"]), "no call");
    assert_bad_input(&pointee(&["frobnicate"]), "unknown command");
    assert_bad_input(
        &pointee(&["dump", "examples/ops.c", "--colour"]),
        "unknown option",
    );
    assert_bad_input(&pointee(&["dump", "README.md"]), "not a C or Java source");
    assert_bad_input(
        &pointee(&["hover", "examples/ops.c:38:12", "--context-bound", "0"]),
        "positive whole number",
    );
    let empty = std::env::temp_dir().join(format!("pointee-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).expect("temp dir");
    assert_bad_input(
        &pointee(&["check", empty.to_str().expect("utf-8 path")]),
        "no .c",
    );
    let latin1 = scratch("latin1.c", b"int x; /* caf\xe9 */\n");
    assert_bad_input(&pointee(&["dump", &latin1]), "invalid UTF-8");
}

#[test]
fn a_duplicate_external_definition_is_a_clear_error() {
    let a = scratch("dup_a.c", b"int f(void) { return 0; }\n");
    let b = scratch(
        "dup_b.c",
        b"int f(void) { return 1; }\nstatic int g(void) { return 2; }\n",
    );
    assert_bad_input(&pointee(&["check", &a, &b]), "`f` is defined in both");
    // Each file alone is fine.
    let out = pointee(&["check", "--each", &a, &b]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn json(out: &Output) -> Value {
    assert!(
        out.status.code().is_some_and(|c| c < 2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON on stdout")
}

fn keys(v: &Value) -> Vec<&str> {
    let mut k: Vec<&str> = v
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect();
    k.sort();
    k
}

#[test]
fn hover_json_has_the_contract_fields() {
    let v = json(&pointee(&[
        "hover",
        "examples/ops.c:38:12",
        "--format",
        "json",
    ]));
    assert_eq!(
        keys(&v),
        [
            "contexts",
            "expr",
            "extra_entry",
            "merged",
            "merged_in_cycle",
            "partial",
            "reachable",
            "targets"
        ]
    );
    assert_eq!(v["expr"], "d");
    assert_eq!(v["reachable"], true);
    // A symbolic name says what it stands for in the user's terms.
    let t = &v["targets"][0];
    assert_eq!(keys(t), ["decl", "definite", "kind", "meaning", "name"]);
    assert_eq!(t["name"], "1_d");
    assert_eq!(t["meaning"], "what callers of `start` pass as `d`");
    let t = &v["targets"][1];
    assert_eq!(keys(t), ["decl", "definite", "kind", "name"]);
    let c = &v["contexts"][0];
    assert_eq!(keys(c), ["chain", "targets"]);
    assert_eq!(c["chain"][0], "main");
}

#[test]
fn callees_json_lists_name_and_position() {
    let v = json(&pointee(&[
        "callees",
        "examples/ops.c:38:21",
        "--format",
        "json",
    ]));
    let names: Vec<&str> = v
        .as_array()
        .expect("a list")
        .iter()
        .map(|c| c["name"].as_str().expect("name"))
        .collect();
    assert_eq!(names, ["disk_open", "tty_open"]);
    assert_eq!(keys(&v[0]), ["column", "file", "line", "name"]);
    assert_eq!(
        (v[0]["line"].as_u64(), v[0]["column"].as_u64()),
        (Some(18), Some(5))
    );
}

#[test]
fn check_reports_checks_and_sets_the_exit_code() {
    let out = pointee(&["check", "examples/ops.c", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out);
    assert_eq!(
        keys(&v),
        [
            "alias_checks",
            "baseline_known",
            "diagnostics",
            "partial",
            "stats"
        ]
    );
    assert_eq!(v["baseline_known"], Value::Null, "no --baseline");
    let checks = v["alias_checks"].as_array().expect("a list");
    assert_eq!(checks.len(), 2);
    assert_eq!(
        keys(&checks[0]),
        ["check", "column", "file", "line", "ok", "verdict"]
    );
    assert_eq!(
        (checks[0]["check"].as_str(), checks[0]["verdict"].as_str()),
        (Some("NOALIAS"), Some("no"))
    );
    assert_eq!(
        (checks[1]["check"].as_str(), checks[1]["verdict"].as_str()),
        (Some("MUSTALIAS"), Some("must"))
    );

    let failing = scratch(
        "failing.c",
        b"void NOALIAS(void *, void *);\nint x;\nint main(void) { int *p = &x, *q = &x; NOALIAS(p, q); return 0; }\n",
    );
    let out = pointee(&["check", &failing]);
    assert_eq!(out.status.code(), Some(1), "a check that is not ok exits 1");
    assert!(String::from_utf8_lossy(&out.stdout).contains("NOALIAS -> must (NOT OK)"));
}

#[test]
fn dump_json_lists_functions_with_statements() {
    let v = json(&pointee(&["dump", "examples/ops.c", "--format", "json"]));
    let fs = v["functions"].as_array().expect("functions");
    let start = fs
        .iter()
        .find(|f| f["name"] == "start")
        .expect("start is dumped");
    assert_eq!(
        (start["line"].as_u64(), start["file"].as_str()),
        (Some(37), Some("examples/ops.c"))
    );
    let stmts = start["statements"].as_array().expect("statements");
    assert!(
        stmts.iter().any(|s| s["text"]
            .as_str()
            .is_some_and(|t| t.contains("call#0 (*(*t1).open)((*d).file)"))),
        "{stmts:?}"
    );
    assert!(v["globals"].as_array().expect("globals").iter().any(|g| g
        .as_str()
        .is_some_and(|g| g.starts_with("disk_ops: struct ops = {"))));
}

#[test]
fn the_context_bound_merges_contexts_and_says_so() {
    let free = json(&pointee(&[
        "hover",
        "examples/ops.c:38:12",
        "--format",
        "json",
    ]));
    assert_eq!(free["merged"], false);
    let bounded = json(&pointee(&[
        "hover",
        "examples/ops.c:38:12",
        "--format",
        "json",
        "--context-bound",
        "1",
    ]));
    assert_eq!(bounded["merged"], true);
    // Merging loses precision, never targets.
    let names = |v: &Value| -> Vec<String> {
        v["targets"]
            .as_array()
            .expect("targets")
            .iter()
            .map(|t| t["name"].as_str().expect("name").to_string())
            .collect()
    };
    for n in names(&free) {
        assert!(names(&bounded).contains(&n), "{n} lost by merging");
    }
}

/// A budget stops the C analysis: `check` exits with 3 and says what it did
/// not finish (text and JSON), hover says partial; enough budget is the
/// full run. Steps are deterministic: calls analysed.
#[test]
fn a_budget_gives_a_partial_result_that_says_so() {
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "examples/ops.c", "--format", "json"];
        args.extend_from_slice(extra);
        let out = pointee(&args);
        let v: Value = serde_json::from_slice(&out.stdout).expect("valid JSON on stdout");
        (out.status.code(), v)
    };
    let (code, full) = check(&[]);
    assert_eq!(code, Some(0));
    assert_eq!(full["partial"], Value::Null);
    let (code, cut) = check(&["--budget-steps", "1"]);
    assert_eq!(code, Some(3), "partial: exit code 3");
    assert_eq!(cut["partial"]["stopped_by"], "step budget");
    assert_eq!(cut["partial"]["calls_analysed"], 1);
    let not_finished = cut["partial"]["not_finished"].as_array().expect("list");
    assert!(!not_finished.is_empty(), "{cut}");
    let (code, enough) = check(&["--budget-steps", "100000"]);
    assert_eq!(code, Some(0));
    assert_eq!(enough["partial"], Value::Null);
    // `start` is not analysed with a budget of 0 calls (main's calls are
    // cut off): its hover says so instead of "unreachable".
    let out = pointee(&["hover", "examples/ops.c:38:12", "--budget-steps", "0"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("not analysed: the analysis stopped at its budget"),
        "{text}"
    );
    let v = json(&pointee(&[
        "hover",
        "examples/ops.c:38:12",
        "--format",
        "json",
        "--budget-steps",
        "0",
    ]));
    assert_eq!(v["partial"], true);
    assert_eq!(v["reachable"], false);
    let bad = pointee(&["check", "examples/ops.c", "--budget-steps", "x"]);
    assert_bad_input(&bad, "--budget-steps takes a whole number");
    let bad = pointee(&["check", "examples/ops.c", "--max-memory-mb", "0"]);
    assert_bad_input(&bad, "--max-memory-mb takes a positive whole number");
}
