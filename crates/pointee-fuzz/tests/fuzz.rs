//! Every fuzz target on its regressions, its seeds and a bounded number of
//! mutated inputs (seeded: the same inputs on every run). No input may
//! panic, hang past the driver's guard or break a target's own checks.
//! `pointee-fuzz fuzz TARGET CASES [SEED]` runs longer.

use pointee_fuzz::driver::{fuzz, save};
use std::time::Duration;

fn run(name: &str, cases: usize) {
    let target = pointee_fuzz::target(name).expect("a target of that name");
    // The time cap only bounds CI on a slow machine; the count is the plan.
    let report = fuzz(target, 1, cases, Duration::from_secs(40));
    let failures: Vec<String> = report
        .failures
        .iter()
        .map(|f| {
            format!(
                "{}: {} (input saved in {})",
                f.target,
                f.what,
                save(f).display()
            )
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(
        report.cases >= cases.min(10),
        "only {} inputs ran",
        report.cases
    );
    let over = pointee_fuzz::targets::OVER_BUDGET.load(std::sync::atomic::Ordering::Relaxed);
    eprintln!("{name}: {} inputs ({over} C inputs over the engine's budget so far)", report.cases);
    assert!(over * 2 <= report.cases.max(10), "{over} inputs over budget: the fuzzing tests little");
}

#[test]
fn fuzz_cpp() {
    run("cpp", 300);
}

#[test]
fn fuzz_c_text() {
    run("c_text", 60);
}

#[test]
fn fuzz_c_gen() {
    run("c_gen", 60);
}

#[test]
fn fuzz_java() {
    run("java", 60);
}

#[test]
fn fuzz_lsp_frames() {
    run("lsp_frames", 30);
}

#[test]
fn fuzz_lsp_requests() {
    run("lsp_requests", 30);
}
