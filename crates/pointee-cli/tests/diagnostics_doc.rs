//! `docs/diagnostics.md` against today's `pointee check`, so that the
//! document cannot go stale:
//!
//! - every example output in it (an indented `FILE:LINE:COL: SEVERITY[CODE]:
//!   MESSAGE` line and the `note:` lines under it) is what `pointee check`
//!   prints for that fixture, word for word;
//! - its table of findings on the fixtures that are not checker fixtures
//!   (between `<!-- fixture-findings -->` and `<!-- /fixture-findings -->`)
//!   lists exactly the checkers' findings on the files it covers.

mod common;
use common::{pointee, root};

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn doc() -> String {
    std::fs::read_to_string(root().join("docs/diagnostics.md")).expect("docs/diagnostics.md")
}

/// The file named `name` under `fixtures/` (relative to the root).
fn fixture(name: &str) -> PathBuf {
    fn find(dir: &Path, name: &str, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                find(&p, name, out);
            } else if p.file_name().is_some_and(|f| f == name) {
                out.push(p);
            }
        }
    }
    let mut found = Vec::new();
    find(&root().join("fixtures"), name, &mut found);
    assert_eq!(found.len(), 1, "{name}: {found:?}");
    found[0].strip_prefix(root()).unwrap().to_path_buf()
}

/// The example blocks: a diagnostic line (4 spaces in) and its notes (8).
fn examples(doc: &str) -> Vec<(String, Vec<String>)> {
    let is_diag = |l: &str| {
        l.strip_prefix("    ").is_some_and(|r| {
            !r.starts_with(' ')
                && r.split(':')
                    .next()
                    .is_some_and(|f| f.ends_with(".c") || f.ends_with(".java"))
                && ["error[", "warning[", "hint["]
                    .iter()
                    .any(|s| r.contains(s))
        })
    };
    let lines: Vec<&str> = doc.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !is_diag(l) {
            continue;
        }
        let file = l.trim_start().split(':').next().unwrap().to_string();
        let mut block = vec![l.trim_start().to_string()];
        for n in &lines[i + 1..] {
            match n.strip_prefix("        ") {
                Some(note) if note.contains(": note: ") => block.push(note.to_string()),
                _ => break,
            }
        }
        out.push((file, block));
    }
    out
}

#[test]
fn the_documented_example_outputs_are_todays() {
    let doc = doc();
    let examples = examples(&doc);
    assert!(
        examples.len() >= 3,
        "only {} examples found",
        examples.len()
    );
    let mut failures = Vec::new();
    for (file, block) in examples {
        let path = fixture(&file);
        let shown = path.to_string_lossy().to_string();
        let out = pointee(&["check", "--fail-on", "never", &shown]);
        // Paths as the document writes them: the bare file name.
        let text =
            String::from_utf8_lossy(&out.stdout).replace(&format!("{shown}:"), &format!("{file}:"));
        let lines: Vec<&str> = text.lines().map(|l| l.trim_start()).collect();
        let found = lines
            .windows(block.len())
            .any(|w| w.iter().zip(&block).all(|(a, b)| a == b));
        if !found {
            failures.push(format!(
                "docs/diagnostics.md shows for {file}:\n{}\ntoday's output:\n{text}",
                block.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The table's rows: (`FILE:LINE`, code, severity).
fn table(doc: &str) -> (Vec<String>, BTreeSet<(String, String, String)>) {
    let start = doc
        .find("<!-- fixture-findings -->")
        .expect("the table's start mark");
    let end = doc
        .find("<!-- /fixture-findings -->")
        .expect("the table's end mark");
    let mut covers = Vec::new();
    let mut rows = BTreeSet::new();
    for l in doc[start..end].lines() {
        if let Some(c) = l.strip_prefix("Covers: ") {
            covers.extend(
                c.split_whitespace()
                    .map(|w| w.trim_matches('`').to_string()),
            );
        }
        let cells: Vec<&str> = l.split('|').map(|c| c.trim()).collect();
        if cells.len() >= 5 && cells[1].starts_with('`') && cells[1].contains(".c:") {
            rows.insert((
                cells[1].trim_matches('`').to_string(),
                cells[2].trim_matches('`').to_string(),
                cells[3].to_string(),
            ));
        }
    }
    (covers, rows)
}

#[test]
fn the_documented_fixture_findings_are_todays() {
    let doc = doc();
    let (covers, want) = table(&doc);
    assert!(!covers.is_empty(), "the table says which files it covers");
    let mut files = Vec::new();
    for c in &covers {
        let p = root().join(c);
        if p.is_dir() {
            let mut v: Vec<String> = std::fs::read_dir(&p)
                .unwrap()
                .map(|e| e.unwrap().path())
                .filter(|f| f.extension().is_some_and(|e| e == "c"))
                .map(|f| {
                    f.strip_prefix(root())
                        .unwrap()
                        .to_string_lossy()
                        .to_string()
                })
                .collect();
            v.sort();
            files.extend(v);
        } else {
            files.push(c.clone());
        }
    }
    assert!(files.len() > 100, "only {} files covered", files.len());
    let mut args = vec!["check", "--each", "--format", "json", "--fail-on", "never"];
    args.extend(files.iter().map(|s| s.as_str()));
    let out = pointee(&args);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}", String::from_utf8_lossy(&out.stderr));
    });
    let got: BTreeSet<(String, String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                format!("{}:{}", d["file"].as_str().unwrap(), d["line"]),
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let missing: Vec<_> = want.difference(&got).collect();
    let new: Vec<_> = got.difference(&want).collect();
    assert!(
        missing.is_empty() && new.is_empty(),
        "docs/diagnostics.md's fixture table is stale:\nlisted, not reported today: {missing:?}\nreported today, not listed: {new:?}"
    );
}
