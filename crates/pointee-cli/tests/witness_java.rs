//! `pointee witness` on the Java fixtures of `fixtures/witness-java` (see
//! its README): each marked dereference gets the expected answer, and every
//! emitted test class, compiled with javac beside the fixture and run with
//! java, throws `NullPointerException` with the marked line as the stack
//! trace's first frame. Where a mark names the fixture's predicate
//! (`check=P`), the emitted input and every input test generation makes
//! for the method satisfy it.

mod common;

use common::{files_with, pointee, witness_marks, witness_outcome};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// One `// WITNESS(p): OUTCOME [assumes=N] [check=PREDICATE]`.
#[derive(Debug)]
struct Mark {
    line: usize,
    /// `FILE:LINE:COL`, the column of the first `p.`.
    position: String,
    outcome: String,
    assumes: Option<u64>,
    check: Option<String>,
}

fn marks(file: &Path) -> Vec<Mark> {
    witness_marks(file)
        .into_iter()
        .map(|w| {
            let pointer = &w.pointer;
            let column = w
                .code
                .find(&format!("{pointer}."))
                .unwrap_or_else(|| panic!("{}:{}: no `{pointer}.`", file.display(), w.line));
            let mut mark = Mark {
                position: w.position(column + 1),
                line: w.line,
                outcome: w.outcome.clone(),
                assumes: None,
                check: None,
            };
            for (k, v) in &w.keys {
                match k.as_str() {
                    "assumes" => mark.assumes = Some(v.parse().unwrap()),
                    "check" => mark.check = Some(v.clone()),
                    _ => w.unknown(k),
                }
            }
            mark
        })
        .collect()
}

fn fixtures() -> Vec<PathBuf> {
    files_with("fixtures/witness-java", "java")
}

fn has_jdk() -> bool {
    let ok = |c: &str| {
        Command::new(c)
            .arg("-version")
            .output()
            .is_ok_and(|o| o.status.success())
    };
    ok("javac") && ok("java")
}

/// A fresh directory for one fixture's classes and tests.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pointee-witness-java-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Compiles `sources` into `dir`.
fn javac(dir: &Path, sources: &[PathBuf]) {
    let out = Command::new("javac")
        .arg("-d")
        .arg(dir)
        .args(sources)
        .output()
        .expect("javac runs");
    assert!(
        out.status.success(),
        "javac {sources:?}:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `java -cp dir [-Dpointee.check=P] class`.
fn java(dir: &Path, class: &str, check: Option<&str>) -> Output {
    let mut cmd = Command::new("java");
    cmd.arg("-cp").arg(dir);
    if let Some(p) = check {
        cmd.arg(format!("-Dpointee.check={p}"));
    }
    cmd.arg(class).output().expect("java runs")
}

/// The exception and the first frame of an uncaught exception's trace:
/// (`java.lang.NullPointerException`, `File.java`, line).
fn thrown(stderr: &str) -> Option<(String, String, usize)> {
    let head = stderr
        .lines()
        .find(|l| l.starts_with("Exception in thread"))?;
    let exception = head
        .split_whitespace()
        .nth(4)?
        .trim_end_matches(':')
        .to_string();
    let frame = stderr.lines().find(|l| l.trim_start().starts_with("at "))?;
    let loc = frame.rsplit_once('(')?.1.trim_end_matches(')');
    let (file, line) = loc.split_once(':')?;
    Some((exception, file.to_string(), line.parse().ok()?))
}

#[test]
fn every_marked_java_dereference_gets_its_answer_and_its_test_throws_there() {
    let jdk = has_jdk();
    if !jdk {
        eprintln!("no JDK: the emitted Java tests are not compiled (CI installs one)");
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    for file in fixtures() {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = scratch(&stem);
        if jdk {
            // The fixture itself compiles and runs.
            javac(&dir, std::slice::from_ref(&file));
            let run = java(&dir, &stem, None);
            assert!(
                run.status.success(),
                "{stem}: {}",
                String::from_utf8_lossy(&run.stderr)
            );
        }
        for m in marks(&file) {
            checked += 1;
            let pos = m.position.clone();
            let out = pointee(&["witness", &pos, "--format", "json"]);
            assert!(
                out.status.success(),
                "{pos}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            let got = witness_outcome(&v);
            if got != m.outcome {
                failures.push(format!("{pos}: expected {}, got {got}: {v}", m.outcome));
                continue;
            }
            // The answer names the marked line (also where the search
            // added a read the lowering dropped).
            if got != "none" && v["at"]["line"].as_u64() != Some(m.line as u64) {
                failures.push(format!("{pos}: the answer is at {}", v["at"]));
            }
            if let Some(n) = m.assumes {
                if v["assumed"].as_u64() != Some(n) {
                    failures.push(format!("{pos}: expected assumes={n}: {v}"));
                }
            }
            if got == "none" || !jdk {
                continue;
            }
            let class = format!("Witness_{stem}_{}", m.line);
            let test = dir.join(format!("{class}.java"));
            let out = pointee(&["witness", &pos, "--emit-test", test.to_str().unwrap()]);
            assert!(
                out.status.success(),
                "{pos}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            javac(&dir, &[file.clone(), test.clone()]);
            for check in [None, m.check.as_deref()] {
                let run = java(&dir, &class, check);
                let err = String::from_utf8_lossy(&run.stderr);
                if run.status.code() == Some(3) {
                    failures.push(format!("{pos}: the input does not satisfy {check:?}"));
                    continue;
                }
                let want = (
                    "java.lang.NullPointerException".to_string(),
                    format!("{stem}.java"),
                    m.line,
                );
                if thrown(&err) != Some(want) {
                    failures.push(format!(
                        "{pos}: expected a NullPointerException at line {}:\n{err}",
                        m.line
                    ));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(checked >= 12, "only {checked} marks");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_generated_input_satisfies_the_precondition() {
    if !has_jdk() {
        eprintln!("no JDK: skipped (CI installs one)");
        return;
    }
    let mut methods = 0;
    for file in fixtures() {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        for m in marks(&file).into_iter().filter(|m| m.check.is_some()) {
            methods += 1;
            let pos = m.position.clone();
            let dir = scratch(&format!("{stem}-all-{}", m.line));
            let tests = dir.join("tests");
            let out = pointee(&[
                "witness",
                &pos,
                "--all",
                "--emit-test",
                tests.to_str().unwrap(),
            ]);
            assert!(
                out.status.success(),
                "{pos}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let mut sources: Vec<PathBuf> = std::fs::read_dir(&tests)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            sources.sort();
            assert!(!sources.is_empty(), "{pos}: no input generated");
            let classes: Vec<String> = sources
                .iter()
                .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
                .collect();
            sources.push(file.clone());
            javac(&dir, &sources);
            for class in classes {
                let run = java(&dir, &class, m.check.as_deref());
                assert_ne!(
                    run.status.code(),
                    Some(3),
                    "{pos}: {class}'s input does not satisfy {:?}",
                    m.check
                );
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(methods >= 3, "only {methods} methods with a predicate");
}

#[test]
fn a_java_test_must_be_a_class_file_name() {
    let out = pointee(&[
        "witness",
        "fixtures/witness-java/Precondition.java:25:17",
        "--emit-test",
        "/tmp/not-a-class-name.java",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "pointee: /tmp/not-a-class-name.java: a Java test is a class, written to `NAME.java` with NAME a Java identifier\n"
    );
}
