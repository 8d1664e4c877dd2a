//! The Java checkers on `fixtures/java-diagnostics/`: every finding (code,
//! line, severity) is marked in the fixture with `// DIAG: code severity`,
//! and every mark is found, exactly. Each fixture is real Java: it compiles
//! and runs (`java File.java`); a `// RUN: clean` one runs without an
//! exception, a `// RUN: throws NullPointerException` one throws it at a
//! line marked `null-deref error`. They all run in one JVM
//! (`tests/java-batch`), each on its own.

#[path = "../../../tests/java-batch/batch.rs"]
mod batch;
mod expect;
mod marks;

use marks::{marks, Finding};
use pointee_ide::{Config, Lang, Severity, JAVA_RULES};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java-diagnostics")
}

fn fixtures() -> Vec<PathBuf> {
    marks::fixtures("java-diagnostics", "java")
}

fn is_checker(code: &str) -> bool {
    code == "null-deref" || JAVA_RULES.iter().any(|(c, _)| *c == code)
}

fn findings(name: &str, text: &str) -> (pointee_ide::CheckReport, BTreeSet<Finding>) {
    let a = expect::analyse(&[(name.to_string(), text.to_string())], Config::default());
    let report = a.check(Lang::Java).unwrap();
    let got = marks::found(&a, &report, name, &is_checker);
    (report, got)
}

#[test]
fn java_checker_fixtures_report_exactly_what_they_mark() {
    let mut failures = Vec::new();
    let mut total = 0;
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let (_, got) = findings(&name, &text);
        let want = marks(&text);
        total += want.len();
        failures.extend(marks::differences(&name, &want, &got));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(total >= 15, "only {total} marks");
}

#[test]
fn java_null_findings_name_the_variable_and_where_null_comes_from() {
    let name = "NullThroughCall.java";
    let text = std::fs::read_to_string(dir().join(name)).unwrap();
    let (report, _) = findings(name, &text);
    let at = |d: &pointee_ide::Diagnostic| {
        text[d.range.range.start as usize..d.range.range.end as usize].to_string()
    };
    let u = report
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error)
        .expect("the definite null dereference");
    assert_eq!(at(u), "u.print()");
    assert_eq!(
        u.message,
        "`u` is null where it is dereferenced: no object reaches it, only null"
    );
    assert_eq!(u.related.len(), 1);
    assert_eq!(u.related[0].message, "null comes from here");
    let from = u.related[0].range.range;
    assert_eq!(&text[from.start as usize..from.end as usize], "null");
    let t = report
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Warning && d.code == "null-deref")
        .expect("the possible null dereference");
    assert!(t.message.contains("flow-insensitive"), "{}", t.message);

    let name = "NullField.java";
    let text = std::fs::read_to_string(dir().join(name)).unwrap();
    let (report, _) = findings(name, &text);
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == "null-deref")
        .unwrap();
    assert_eq!(d.message.split('`').nth(1), Some("h.part"));
    assert_eq!(
        d.related[0].message,
        "the field `part` of new Holder() at 5 is never assigned: it is null"
    );
}

#[test]
fn unreachable_methods_are_faded_hints_only_with_an_entry() {
    let name = "Unreachable.java";
    let text = std::fs::read_to_string(dir().join(name)).unwrap();
    let (report, _) = findings(name, &text);
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code == "unreachable-method")
        .unwrap();
    assert!(d.is_unnecessary());
    assert_eq!(
        &text[d.range.range.start as usize..d.range.range.end as usize],
        "unused"
    );
    assert_eq!(
        d.message,
        "`Unreachable.unused()` is never called: the call graph does not reach it from the entries"
    );
    // Without a `main`, nothing is an entry and nothing is reported.
    let (report, got) = findings(
        "Lib.java",
        "class Lib { void never() {} static void alone() {} }\n",
    );
    assert!(got.is_empty(), "{:?}", report.diagnostics);
}

#[test]
fn java_checker_fixtures_run_as_they_say() {
    if !batch::jdk_or_skip() {
        return;
    }
    let mut failures = Vec::new();
    let paths = fixtures();
    // As `java FILE.java`: compiled in memory, the first class run.
    let jobs: Vec<batch::Job> = paths.iter().map(|p| batch::Job::source_file(p)).collect();
    for (path, run) in paths.iter().zip(batch::run_all(&jobs)) {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(path).unwrap();
        let mode = marks::run_mode(&name, &text, "clean|throws NullPointerException");
        let stderr = &run.stderr;
        match mode.as_str() {
            "clean" if !run.success() => {
                failures.push(format!("{name}: should run clean: {stderr}"))
            }
            "clean" => {}
            "throws NullPointerException" => {
                let errors: BTreeSet<u32> = marks(&text)
                    .into_iter()
                    .filter(|m| m.1 == "null-deref" && m.2 == "error")
                    .map(|m| m.0)
                    .collect();
                // The top frame of the trace: `at C.m(File.java:LINE)`.
                let top = stderr
                    .lines()
                    .find_map(|l| l.trim().strip_prefix("at "))
                    .and_then(|f| f.split_once(&format!("({name}:")))
                    .and_then(|(_, rest)| rest.trim_end_matches(')').parse::<u32>().ok());
                if !stderr.contains("java.lang.NullPointerException") {
                    failures.push(format!(
                        "{name}: should throw NullPointerException: {stderr}"
                    ));
                } else if !top.is_some_and(|l| errors.contains(&l)) {
                    failures.push(format!(
                        "{name}: thrown at {top:?}, not at a line marked `null-deref error` ({errors:?})"
                    ));
                }
            }
            other => failures.push(format!("{name}: unknown RUN mode `{other}`")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
