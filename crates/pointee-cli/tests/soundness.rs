//! Soundness probes (`fixtures/c/soundness/`): every alias check there is
//! true at run time, which gcc and `alias_runtime.h` confirm; the analysis
//! must answer each with an `ok` verdict, except where a `// FIXME(verdict):`
//! comment records today's wrong answer, which is then asserted exactly.

use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/c/soundness")
        .canonicalize()
        .expect("probes exist")
}

fn probes() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("readable")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| !p.to_string_lossy().ends_with("_impl.c"))
        .collect();
    v.sort();
    v
}

/// Line -> the verdict a FIXME records (None: the check must be ok).
fn expectations(text: &str) -> BTreeMap<u64, Option<String>> {
    let mut out = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        if !line.contains("ALIAS(") {
            continue;
        }
        let fixme = line
            .split("// FIXME(")
            .nth(1)
            .and_then(|r| r.split(')').next())
            .map(str::to_string);
        out.insert(i as u64 + 1, fixme);
    }
    out
}

#[test]
fn every_probe_is_answered_soundly_or_has_a_fixme() {
    let mut problems = Vec::new();
    for path in probes() {
        let text = std::fs::read_to_string(&path).expect("readable probe");
        let out = Command::new(env!("CARGO_BIN_EXE_pointee"))
            .args(["check", "--format", "json"])
            .arg(&path)
            .output()
            .expect("pointee runs");
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
        let mut got: BTreeMap<u64, (String, bool)> = BTreeMap::new();
        for c in v["alias_checks"].as_array().expect("checks") {
            let line = c["line"].as_u64().expect("line");
            got.insert(
                line,
                (
                    c["verdict"].as_str().expect("verdict").to_string(),
                    c["ok"] == true,
                ),
            );
        }
        let name = path
            .file_name()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        let expected = expectations(&text);
        assert_eq!(
            got.keys().collect::<Vec<_>>(),
            expected.keys().collect::<Vec<_>>(),
            "{name}: checks found"
        );
        for (line, fixme) in &expected {
            let (verdict, ok) = &got[line];
            match fixme {
                Some(today) if today != verdict => {
                    problems.push(format!("{name}:{line}: FIXME says `{today}`, now `{verdict}` (fixed? remove the FIXME)"))
                }
                None if !ok => problems.push(format!("{name}:{line}: unsound or imprecise answer `{verdict}`")),
                _ => {}
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_probe_is_true_at_run_time() {
    if Command::new("gcc").arg("--version").output().is_err() {
        // Outside CI a missing tool skips; in CI it is a failure (.ci/run
        // installs it), never a silent pass.
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs gcc for this test"
        );
        eprintln!("gcc not installed; skipping");
        return;
    }
    let out_dir = std::env::temp_dir().join(format!("pointee-soundness-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).expect("temp dir");
    for path in probes() {
        let exe = out_dir.join(path.file_stem().expect("stem"));
        let mut gcc = Command::new("gcc");
        gcc.args(["-w", "-O0", "-o"]).arg(&exe).arg(&path);
        let implementation = PathBuf::from(path.to_string_lossy().replace(".c", "_impl.c"));
        if implementation.exists() {
            gcc.arg(&implementation);
        }
        let built = gcc.output().expect("gcc runs");
        assert!(
            built.status.success(),
            "gcc: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        let run = Command::new(&exe).output().expect("probe runs");
        assert!(
            run.status.success(),
            "{} failed at run time: {}",
            path.display(),
            String::from_utf8_lossy(&run.stderr)
        );
    }
}
