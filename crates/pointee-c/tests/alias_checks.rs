//! Preprocessing never hides an alias check: the run-time header of the
//! fixtures (`fixtures/c/flow/alias_runtime.h`) defines `MUSTALIAS` and the
//! others only `#ifndef __POINTEE__`, so every check written in a fixture is
//! a call in its IR, which the analysis evaluates.

use pointee_ir::{Basic, Callee, Stmt};
use std::path::{Path, PathBuf};

const CHECKS: [&str; 6] = [
    "MUSTALIAS",
    "MAYALIAS",
    "NOALIAS",
    "PARTIALALIAS",
    "EXPECTEDFAIL_MAYALIAS",
    "EXPECTEDFAIL_NOALIAS",
];

/// Every `.c` and `.h` file under `fixtures/c`, by path.
fn fixture_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable fixtures") {
            let p = e.expect("an entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "c" || x == "h") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The checks written in a text: calls outside comments.
fn written(text: &str) -> usize {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .map(|l| CHECKS.iter().map(|c| count_calls(l, c)).sum::<usize>())
        .sum()
}

/// Calls of `name` on a line (`EXPECTEDFAIL_NOALIAS(` is not `NOALIAS(`).
fn count_calls(line: &str, name: &str) -> usize {
    line.match_indices(&format!("{name}("))
        .filter(|(i, _)| {
            !line[..*i]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_')
        })
        .count()
}

fn lowered(b: &[Stmt]) -> usize {
    let mut n = 0;
    pointee_ir::for_each_basic(b, &mut |_, basic| {
        if let Basic::Call {
            callee: Callee::Direct(f),
            ..
        } = basic
        {
            n += CHECKS.contains(&&**f) as usize;
        }
    });
    n
}

#[test]
fn every_fixture_keeps_all_its_alias_checks() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c");
    let files = fixture_files();
    let mut fs = pointee_c::pointee_cpp::MemoryFs::new();
    for p in &files {
        let rel = p.strip_prefix(&root).expect("under fixtures/c");
        fs.insert(
            &rel.to_string_lossy(),
            &std::fs::read_to_string(p).expect("readable"),
        );
    }
    // The run-time header's folder is an include directory (as the
    // projects' gcc runs have it).
    let config = pointee_c::Config {
        include_dirs: vec!["flow".to_string()],
        ..Default::default()
    };
    let mut total = 0;
    for p in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
    {
        let rel = p
            .strip_prefix(&root)
            .expect("under fixtures/c")
            .to_string_lossy()
            .to_string();
        let text = std::fs::read_to_string(p).expect("readable");
        let mut session = pointee_c::Session::default();
        let unit = pointee_c::lower_unit(&mut session, &config, &fs, &rel);
        let in_ir: usize = unit
            .program
            .functions
            .iter()
            .map(|f| lowered(&f.body))
            .sum();
        assert_eq!(in_ir, written(&text), "alias checks of {rel}");
        assert!(
            !unit
                .source
                .notes
                .iter()
                .any(|n| n.message.contains("not found")),
            "{rel} includes a file that is not there: {:?}",
            unit.source.notes
        );
        total += in_ir;
    }
    assert!(total > 100, "the fixtures hold many checks ({total})");
}
