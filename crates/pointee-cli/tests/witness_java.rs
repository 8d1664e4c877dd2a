//! `pointee witness` on the Java fixtures of `fixtures/witness-java` (see
//! its README): each marked dereference gets the expected answer, and every
//! emitted test class, compiled with javac beside the fixture and run with
//! java, throws `NullPointerException` with the marked line as the stack
//! trace's first frame. Where a mark names the fixture's predicate
//! (`check=P`), the emitted input and every input test generation makes
//! for the method satisfy it. The Java programs run in one JVM
//! (`tests/java-batch`), each compiled and run on its own.

#[path = "../../../tests/java-batch/batch.rs"]
mod batch;
mod common;

use batch::Job;
use common::{files_with, pointee, witness_marks, witness_outcome};
use std::path::{Path, PathBuf};

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

/// The time bound of every witness search here: far past the path bound,
/// so the answer depends on the bounds, never on the machine's load (at
/// load 14 `TreeInsert.java:33` ran out of the default 5 s).
const UNTIMED: [&str; 2] = ["--time-ms", "600000"];

/// A fresh directory for one fixture's emitted tests.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "pointee-witness-java-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `javac -d DIR sources; java -cp DIR [-Dpointee.check=P] class`, run
/// with the others in one JVM.
fn job(sources: Vec<PathBuf>, class: &str, check: Option<&str>) -> Job {
    Job {
        sources,
        main: Some(class.to_string()),
        props: check
            .map(|p| vec![("pointee.check".to_string(), p.to_string())])
            .unwrap_or_default(),
    }
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

/// What a Java run must show, checked once every run is done.
enum Expect {
    /// The fixture itself compiles and runs.
    Runs(String),
    /// The emitted test throws a NullPointerException at the marked line
    /// of the fixture, its input satisfying the predicate it runs with.
    Throws {
        pos: String,
        check: Option<String>,
        file: String,
        line: usize,
    },
}

#[test]
fn every_marked_java_dereference_gets_its_answer_and_its_test_throws_there() {
    let jdk = batch::have_jdk();
    if !jdk {
        eprintln!("no JDK: the emitted Java tests are not compiled (CI installs one)");
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut jobs = Vec::new();
    let mut expect = Vec::new();
    let mut dirs = Vec::new();
    for file in fixtures() {
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = scratch(&stem);
        if jdk {
            jobs.push(job(vec![file.clone()], &stem, None));
            expect.push(Expect::Runs(stem.clone()));
        }
        for m in marks(&file) {
            checked += 1;
            let pos = m.position.clone();
            let out = pointee(&["witness", &pos, "--format", "json", UNTIMED[0], UNTIMED[1]]);
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
            let out = pointee(&[
                "witness",
                &pos,
                "--emit-test",
                test.to_str().unwrap(),
                UNTIMED[0],
                UNTIMED[1],
            ]);
            assert!(
                out.status.success(),
                "{pos}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            for check in [None, m.check.as_deref()] {
                jobs.push(job(vec![file.clone(), test.clone()], &class, check));
                expect.push(Expect::Throws {
                    pos: pos.clone(),
                    check: check.map(str::to_string),
                    file: format!("{stem}.java"),
                    line: m.line,
                });
            }
        }
        dirs.push(dir);
    }
    for (want, run) in expect.iter().zip(batch::run_all(&jobs)) {
        match want {
            Expect::Runs(stem) => assert!(run.success(), "{stem}: {}", run.stderr),
            Expect::Throws { pos, check, .. } if run.status == 3 => {
                failures.push(format!("{pos}: the input does not satisfy {check:?}"))
            }
            Expect::Throws {
                pos, file, line, ..
            } => {
                let want = (
                    "java.lang.NullPointerException".to_string(),
                    file.clone(),
                    *line,
                );
                if thrown(&run.stderr) != Some(want) {
                    failures.push(format!(
                        "{pos}: expected a NullPointerException at line {line}:\n{}",
                        run.stderr
                    ));
                }
            }
        }
    }
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
    assert!(checked >= 12, "only {checked} marks");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_generated_input_satisfies_the_precondition() {
    if !batch::have_jdk() {
        eprintln!("no JDK: skipped (CI installs one)");
        return;
    }
    let mut methods = 0;
    let mut jobs = Vec::new();
    let mut names = Vec::new();
    let mut dirs = Vec::new();
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
                UNTIMED[0],
                UNTIMED[1],
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
            for class in classes {
                jobs.push(job(sources.clone(), &class, m.check.as_deref()));
                names.push(format!(
                    "{pos}: {class}'s input does not satisfy {:?}",
                    m.check
                ));
            }
            dirs.push(dir);
        }
    }
    let runs = batch::run_all(&jobs);
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
    for (name, run) in names.iter().zip(runs) {
        assert!(
            run.status != 3 && !run.stderr.contains("error: compilation failed"),
            "{name}: {}",
            run.stderr
        );
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

/// The path's decisions read as the source's conditions: an integer field
/// and a boolean the lowering read into temporaries are shown as what the
/// temporaries hold, and an integer input gets the model's value.
#[test]
fn integer_decisions_read_as_the_source() {
    let text = |pos: &str| {
        let out = pointee(&["witness", pos, UNTIMED[0], UNTIMED[1]]);
        assert!(out.status.success(), "{pos}");
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let first = text("fixtures/witness-java/SizedList.java:17:20");
    assert!(
        first.contains("o1: CountedList { head = NULL, size = 1 }"),
        "{first}"
    );
    assert!(
        first.contains("after line 16: this.size > 0 is true"),
        "{first}"
    );
    let pick = text("fixtures/witness-java/SizedList.java:72:20");
    assert!(pick.contains("    k = 3\n"), "{pick}");
    assert!(pick.contains("after line 70: j == 7 is true"), "{pick}");
}
