//! The memory checkers against AddressSanitizer and UndefinedBehaviorSanitizer
//! (issue 14): the runtime oracle's random programs (`oracle/gen.rs`, the
//! same seeds and shapes) are checked by `pointee check` as the analysis
//! sees them (the program's file alone), then built with
//! `-fsanitize=address,undefined` (with the second file of the functions
//! the analysis sees only declared) and run on the oracle's inputs. A fault
//! the sanitizers report at a line where the checkers said nothing is a
//! fault they missed; a program the checkers call clean must run clean.
//! Every program reads its input as `argc > 1 ? atoi(argv[1]) : 0`, where
//! the checkers warn that `argv[1]` may be NULL (they do not relate `argc`
//! to `argv`: the `argv` class of docs/diagnostics.md's false alarms); a
//! program with no other finding counts as called clean.
//!
//! `SANITIZE_SEEDS=a..b` picks the seeds (default `0..4`: a bounded run;
//! the long run and its figures are in docs/reliability.md). Skipped when
//! gcc or its sanitizer libraries are missing, unless `CI` is set.

mod common;
#[path = "oracle/gen.rs"]
#[allow(dead_code)]
mod generator;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

fn seeds() -> std::ops::Range<u64> {
    match std::env::var("SANITIZE_SEEDS") {
        Ok(s) => {
            let (a, b) = s.split_once("..").expect("SANITIZE_SEEDS=a..b");
            a.parse().expect("seed")..b.parse().expect("seed")
        }
        Err(_) => 0..4,
    }
}

const SANITIZE: [&str; 3] = [
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-fno-omit-frame-pointer",
];

/// True when gcc builds and runs a sanitized program here.
fn have_sanitizers(dir: &Path) -> bool {
    let src = dir.join("probe.c");
    let exe = dir.join("probe");
    std::fs::write(&src, "int main(void) { return 0; }\n").unwrap();
    Command::new("gcc")
        .args(SANITIZE)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .output()
        .is_ok_and(|o| o.status.success())
        && Command::new(&exe).status().is_ok_and(|s| s.success())
}

/// The lines of `file` the checkers report something at (any code).
fn findings(file: &Path) -> (BTreeSet<u64>, usize) {
    // The oracle's step budget: a program over it gets a partial, sound
    // result (seed 118 ran past 47 s of CPU in a debug build without).
    let out = common::pointee(&[
        "check",
        file.to_str().unwrap(),
        "--budget-steps",
        "3000",
        "--format",
        "json",
    ]);
    // Exit 1: findings or failed alias checks; 2: a bad input.
    assert_ne!(
        out.status.code(),
        Some(2),
        "{}: {}",
        file.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let diags = v["diagnostics"].as_array().cloned().unwrap_or_default();
    let memory: Vec<&serde_json::Value> = diags
        .iter()
        .filter(|d| d["severity"] == "error" || d["severity"] == "warning")
        .collect();
    let lines = memory.iter().filter_map(|d| d["line"].as_u64()).collect();
    (lines, memory.len())
}

/// The sanitizer's report in `stderr`: its first line and the line of the
/// program file where it faulted.
fn fault(stderr: &str, file: &str) -> Option<(String, Option<u64>)> {
    // UBSan: `FILE:LINE:COL: runtime error: ...`; ASan: `ERROR:
    // AddressSanitizer: ...`, then frames `#N 0x.. in f FILE:LINE`.
    let head = stderr
        .lines()
        .find(|l| l.contains("runtime error:") || l.contains("ERROR: AddressSanitizer"))?;
    let line = stderr.lines().find_map(|l| {
        let at = l.find(&format!("{file}:"))?;
        let rest = &l[at + file.len() + 1..];
        rest.split(':').next()?.trim().parse().ok()
    });
    Some((head.trim().to_string(), line))
}

#[test]
fn programs_the_checkers_call_clean_run_clean_under_the_sanitizers() {
    let dir = std::env::temp_dir().join(format!("pointee-sanitized-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    if !have_sanitizers(&dir) {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs gcc with AddressSanitizer for this test"
        );
        eprintln!("skipped: gcc cannot build sanitized programs here");
        return;
    }
    let (mut programs, mut clean, mut runs, mut findings_total) = (0, 0, 0, 0);
    let mut flagged_faults = 0;
    let mut missed = Vec::new();
    for seed in seeds() {
        let p = generator::generate(seed, seed % 8 == 0, true, false);
        let name = format!("oracle_{seed}.c");
        let src = dir.join(&name);
        let unknown = dir.join(format!("oracle_{seed}_unknown.c"));
        std::fs::write(&src, &p.text).unwrap();
        std::fs::write(&unknown, &p.unknown).unwrap();
        let (lines, n) = findings(&src);
        programs += 1;
        findings_total += n;
        let reads_argv = |l: &u64| {
            p.text
                .lines()
                .nth(*l as usize - 1)
                .is_some_and(|t| t.contains("atoi(argv[1])"))
        };
        if lines.iter().all(reads_argv) {
            clean += 1;
        }
        let exe = dir.join(format!("oracle_{seed}"));
        let built = Command::new("gcc")
            .args(["-w", "-O0", "-g", "-DORACLE_RT"])
            .args(SANITIZE)
            .arg("-o")
            .arg(&exe)
            .arg(&src)
            .arg(&unknown)
            .output()
            .expect("gcc runs");
        assert!(
            built.status.success(),
            "seed {seed}: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        for &input in &p.inputs {
            runs += 1;
            let out = Command::new(&exe)
                .arg(input.to_string())
                .env("ASAN_OPTIONS", "detect_leaks=0")
                .output()
                .expect("the program runs");
            let err = String::from_utf8_lossy(&out.stderr);
            match fault(&err, &name) {
                Some((_, Some(line))) if lines.contains(&line) => flagged_faults += 1,
                Some((head, line)) => missed.push(format!(
                    "seed {seed} input {input}: {head} at line {line:?}; the checkers reported \
                     {n} findings, none there"
                )),
                None if !out.status.success() => missed.push(format!(
                    "seed {seed} input {input}: exit {} without a sanitizer report:\n{err}",
                    out.status
                )),
                None => {}
            }
        }
        if missed.is_empty() {
            for f in [&src, &unknown, &exe] {
                let _ = std::fs::remove_file(f);
            }
        }
    }
    eprintln!(
        "sanitized runs: {programs} programs ({clean} the checkers call clean, {findings_total} \
         warnings and errors in all), {runs} runs, {flagged_faults} faults at a line with a \
         finding, {} faults missed",
        missed.len()
    );
    assert!(runs > 0, "no program ran");
    if missed.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
    }
    assert!(
        missed.is_empty(),
        "faults the checkers missed (programs kept in {}):\n{}",
        dir.display(),
        missed.join("\n")
    );
}
