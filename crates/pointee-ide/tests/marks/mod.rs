//! The checker fixtures' marks, shared by the C and Java checker tests:
//! every expected finding is written on its line as `// DIAG: code
//! severity` (several separated by commas).

#![allow(dead_code)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// A finding: (1-based line, code, severity).
pub type Finding = (u32, String, String);

/// The files of `dir` (under the repository's `fixtures/`) ending in
/// `.ext`, sorted.
pub fn fixtures(dir: &str, ext: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(dir);
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    v.sort();
    v
}

/// The `// DIAG: code severity, ...` marks of a fixture's text.
pub fn marks(text: &str) -> BTreeSet<Finding> {
    let mut out = BTreeSet::new();
    for (i, line) in text.lines().enumerate() {
        let Some((_, rest)) = line.split_once("DIAG:") else {
            continue;
        };
        for item in rest.split(',') {
            let words: Vec<&str> = item.split_whitespace().collect();
            assert_eq!(words.len(), 2, "bad mark on line {}: {line}", i + 1);
            out.insert((i as u32 + 1, words[0].to_string(), words[1].to_string()));
        }
    }
    out
}

/// What differs between the marks and the findings, one line each.
pub fn differences(name: &str, want: &BTreeSet<Finding>, got: &BTreeSet<Finding>) -> Vec<String> {
    let missing = want
        .difference(got)
        .map(|m| format!("{name}:{}: missing {} {}", m.0, m.1, m.2));
    let unexpected = got
        .difference(want)
        .map(|m| format!("{name}:{}: unexpected {} {}", m.0, m.1, m.2));
    missing.chain(unexpected).collect()
}

/// How a fixture says it runs: its first line, `// RUN: MODE` (`usage`
/// lists the modes for the message when it is missing).
pub fn run_mode(name: &str, text: &str, usage: &str) -> String {
    text.lines()
        .next()
        .and_then(|l| l.strip_prefix("// RUN: "))
        .unwrap_or_else(|| panic!("{name}: first line must be `// RUN: {usage}`"))
        .trim()
        .to_string()
}

/// The findings of the codes `is_checker` accepts in `name`, as `report`
/// (a `check`) has them; the server's list of the file must say the same.
pub fn found(
    a: &pointee_ide::Analysis,
    report: &pointee_ide::CheckReport,
    name: &str,
    is_checker: &dyn Fn(&str) -> bool,
) -> BTreeSet<Finding> {
    let file = a.file_id(name).unwrap();
    let lines = a.line_index(file).unwrap();
    let line_of = |d: &pointee_ide::Diagnostic| {
        let line = lines.line_col_chars(d.range.range.start).0 as u32 + 1;
        (line, d.code.clone(), d.severity.as_str().to_string())
    };
    let got: BTreeSet<Finding> = report
        .diagnostics
        .iter()
        .filter(|d| is_checker(&d.code))
        .map(line_of)
        .collect();
    let per_file: BTreeSet<Finding> = a
        .diagnostics(file, &Default::default())
        .unwrap()
        .iter()
        .filter(|d| is_checker(&d.code))
        .map(line_of)
        .collect();
    assert_eq!(got, per_file, "{name}: check and diagnostics differ");
    got
}
