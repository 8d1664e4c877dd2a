//! `pointee witness` on the fixtures of `fixtures/c/witness` (see its
//! README): each marked dereference gets the expected answer, guided and
//! plain, and every emitted test, built with gcc and AddressSanitizer and
//! run, faults exactly at the marked line (or, where the marker says the
//! path assumes an unmodelled branch, is asserted as it behaves today).

mod common;

use common::{files_with, pointee, root, witness_marks, witness_outcome as outcome};
use std::path::{Path, PathBuf};
use std::process::Command;

/// One `// WITNESS(p): OUTCOME [assumes=N] [plain=OUTCOME] [test=no-fault]`.
#[derive(Debug)]
struct Mark {
    file: PathBuf,
    line: usize,
    column: usize,
    outcome: String,
    assumes: Option<u64>,
    plain: Option<String>,
    test_faults: bool,
}

fn marks(file: &Path) -> Vec<Mark> {
    witness_marks(file)
        .into_iter()
        .map(|w| {
            let (pointer, code) = (&w.pointer, &w.code);
            let col = code
                .find(&format!("{pointer}->"))
                .or_else(|| code.find(&format!("*{pointer}")).map(|c| c + 1))
                .unwrap_or_else(|| panic!("{}:{}: no `{pointer}->`", file.display(), w.line));
            let mut mark = Mark {
                file: file.to_path_buf(),
                line: w.line,
                column: col + 1,
                outcome: w.outcome.clone(),
                assumes: None,
                plain: None,
                test_faults: true,
            };
            for (k, v) in &w.keys {
                match (k.as_str(), v.as_str()) {
                    ("assumes", n) => mark.assumes = Some(n.parse().unwrap()),
                    ("plain", o) => mark.plain = Some(o.to_string()),
                    ("test", "no-fault") => mark.test_faults = false,
                    _ => w.unknown(k),
                }
            }
            mark
        })
        .collect()
}

fn fixtures() -> Vec<PathBuf> {
    files_with("fixtures/c/witness", "c")
}

fn position(m: &Mark) -> String {
    let rel = m.file.strip_prefix(root()).unwrap();
    format!("{}:{}:{}", rel.display(), m.line, m.column)
}

/// The time bound of every witness search here: far past the path bound,
/// so the answer depends on the bounds, never on the machine's load (as in
/// `witness_java.rs`).
const UNTIMED: [&str; 2] = ["--time-ms", "600000"];

fn witness_json(m: &Mark, extra: &[&str]) -> serde_json::Value {
    let pos = position(m);
    let mut args = vec!["witness", pos.as_str(), "--format", "json"];
    args.extend_from_slice(&UNTIMED);
    args.extend_from_slice(extra);
    let out = pointee(&args);
    assert!(
        out.status.success(),
        "{pos}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pointee-witness-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Builds and runs the emitted test; AddressSanitizer's report, if it
/// faulted.
fn run_test(m: &Mark, dir: &Path) -> Option<String> {
    let name = format!(
        "{}_{}",
        m.file.file_stem().unwrap().to_string_lossy(),
        m.line
    );
    let src = dir.join(format!("{name}.c"));
    let exe = dir.join(&name);
    let pos = position(m);
    let out = pointee(&[
        "witness",
        &pos,
        UNTIMED[0],
        UNTIMED[1],
        "--emit-test",
        src.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{pos}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let cc = Command::new("gcc")
        .args([
            "-g",
            "-O0",
            "-fsanitize=address",
            "-fno-omit-frame-pointer",
            "-w",
            "-o",
        ])
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("gcc runs");
    assert!(
        cc.status.success(),
        "{pos}: the emitted test does not build:\n{}\n{}",
        String::from_utf8_lossy(&cc.stderr),
        std::fs::read_to_string(&src).unwrap()
    );
    let run = Command::new(&exe)
        .env("ASAN_OPTIONS", "detect_leaks=0")
        .output()
        .expect("the test runs");
    (!run.status.success()).then(|| String::from_utf8_lossy(&run.stderr).into_owned())
}

/// The file and line of AddressSanitizer's first frame.
fn first_frame(report: &str) -> Option<(String, usize)> {
    let frame = report.lines().find(|l| l.trim_start().starts_with("#0 "))?;
    let loc = frame.split_whitespace().last()?;
    let mut parts = loc.rsplitn(3, ':').collect::<Vec<_>>();
    parts.reverse();
    // `file:line` or `file:line:column`.
    match parts.as_slice() {
        [file, line, col] if col.parse::<usize>().is_ok() && line.parse::<usize>().is_ok() => {
            Some((file.to_string(), line.parse().ok()?))
        }
        [file, line] | [_, file, line] => {
            let file = if parts.len() == 3 {
                format!("{}:{}", parts[0], parts[1])
            } else {
                file.to_string()
            };
            Some((file, line.parse().ok()?))
        }
        _ => None,
    }
}

#[test]
fn every_marked_dereference_gets_its_answer_and_its_test_faults_there() {
    let dir = scratch();
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in fixtures() {
        for m in marks(&file) {
            checked += 1;
            let pos = position(&m);
            let v = witness_json(&m, &[]);
            let got = outcome(&v);
            if got != m.outcome {
                failures.push(format!("{pos}: expected {}, got {got}: {v}", m.outcome));
                continue;
            }
            if let Some(n) = m.assumes {
                if v["assumed"].as_u64() != Some(n) {
                    failures.push(format!("{pos}: expected assumes={n}: {v}"));
                }
            }
            if let Some(plain) = &m.plain {
                let p = outcome(&witness_json(&m, &["--plain"]));
                if &p != plain {
                    failures.push(format!("{pos}: plain: expected {plain}, got {p}"));
                }
            }
            if got == "none" {
                continue;
            }
            let report = run_test(&m, &dir);
            match (m.test_faults, report) {
                (true, None) => failures.push(format!("{pos}: the emitted test did not fault")),
                (true, Some(r)) => {
                    let kind = match got.as_str() {
                        "null" => "SEGV on unknown address",
                        "dangling" => "stack-use-after-return",
                        _ => "heap-use-after-free",
                    };
                    if !r.contains(kind) {
                        failures.push(format!("{pos}: expected `{kind}`:\n{r}"));
                    }
                    match first_frame(&r) {
                        Some((f, line))
                            if Path::new(&f).file_name() == m.file.file_name()
                                && line == m.line => {}
                        other => failures.push(format!("{pos}: faulted at {other:?}:\n{r}")),
                    }
                }
                (false, Some(r)) => {
                    failures.push(format!("{pos}: marked test=no-fault, but:\n{r}"))
                }
                (false, None) => {}
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 10, "only {checked} marks");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn a_position_without_a_dereference_is_one_line_and_exit_2() {
    let out = pointee(&["witness", "fixtures/c/witness/list_insert.c:2:1"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        err,
        "pointee: fixtures/c/witness/list_insert.c:2:1: not inside a function\n"
    );
    let out = pointee(&["witness", "fixtures/c/witness/list_insert.c:12:1"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pointee: fixtures/c/witness/list_insert.c:12:1: no dereference here\n"
    );
}

#[test]
fn the_budget_is_honoured() {
    // The guarded recursive insertion explores thousands of paths within
    // the default bounds; a budget of 10 paths stops it early and says so.
    let out = pointee(&[
        "witness",
        "fixtures/c/witness/tree_insert.c:35:9",
        "--paths",
        "10",
        "--format",
        "json",
    ]);
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["outcome"], "budget-exhausted", "{v}");
    assert!(v["stats"]["paths"].as_u64().unwrap() <= 11, "{v}");
}
