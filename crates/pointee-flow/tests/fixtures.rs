//! Engine tests on every C fixture under `fixtures/c/flow/`: each compiles
//! with gcc and runs (the alias checks as run-time assertions); replaying a
//! unit for a query adds no unit; every kept state keeps the invariants.
//! The answers written inside the fixtures (`HOVER`, `CALLEES`, alias
//! checks) are checked where they are computed, in pointee-ide's tests.

use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/flow");
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    v.sort();
    v
}

/// Every fixture also compiles with gcc and runs, with the alias checks as
/// run-time assertions (`alias_runtime.h`). Skipped when gcc is absent.
#[test]
fn c_flow_fixtures_run_under_gcc() {
    if std::process::Command::new("gcc")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("gcc not found: skipped");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/flow");
    let out_dir = std::env::temp_dir().join(format!("pointee-flow-gcc-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut failures = Vec::new();
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("NO-GCC") {
            continue; // documented in the file: e.g. reads uninitialised memory on purpose
        }
        let exe = out_dir.join(path.file_stem().unwrap());
        let cc = std::process::Command::new("gcc")
            .args(["-std=gnu99", "-w", "-O0", "-I"])
            .arg(&dir)
            .arg(&path)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        if !cc.status.success() {
            failures.push(format!(
                "{}: gcc: {}",
                path.display(),
                String::from_utf8_lossy(&cc.stderr)
            ));
            continue;
        }
        let run = std::process::Command::new(&exe).output().unwrap();
        if !run.status.success() {
            failures.push(format!(
                "{}: exit {:?}: {}",
                path.display(),
                run.status.code(),
                String::from_utf8_lossy(&run.stderr)
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Re-running any unit's body for a query must find every callee in the
/// memo (the same states as the analysis saw): no new unit appears.
#[test]
fn c_flow_replays_add_no_units() {
    let mut failures = Vec::new();
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let lowered = pointee_c::lower(&[(&name, &text)]).unwrap();
        let mut a = pointee_flow::analyze(&lowered.program, pointee_flow::Settings::default());
        let before = a.units().len();
        for f in &lowered.program.functions {
            for u in a.units_of(&f.name) {
                let _ = a.facts_at(u, pointee_ir::Point::Before(pointee_ir::StmtId(0)));
            }
        }
        if a.units().len() != before {
            failures.push(format!(
                "{name}: {} units before queries, {} after",
                before,
                a.units().len()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Invariants of every state the analysis keeps or a query sees, on every
/// fixture: a summary source never has a definite fact, and a location has
/// at most one definite target (and then no other target).
#[test]
fn c_flow_state_invariants() {
    let mut failures = Vec::new();
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let lowered = pointee_c::lower(&[(&name, &text)]).unwrap();
        let mut a = pointee_flow::analyze(&lowered.program, pointee_flow::Settings::default());
        let mut states: Vec<(String, pointee_flow::Facts)> = Vec::new();
        for (i, u) in a.units().iter().enumerate() {
            if u.dead {
                continue;
            }
            states.push((format!("unit #{i} input"), (*u.input).clone()));
            if let Some(o) = &u.output {
                states.push((format!("unit #{i} output"), o.clone()));
            }
        }
        for f in &lowered.program.functions {
            for u in a.units_of(&f.name) {
                for s in 0..f.stmt_count {
                    for p in [
                        pointee_ir::Point::Before(pointee_ir::StmtId(s)),
                        pointee_ir::Point::After(pointee_ir::StmtId(s)),
                    ] {
                        if let Some(st) = a.facts_at(u, p) {
                            states.push((format!("{} #{u} {p:?}", f.name), st.clone()));
                        }
                    }
                }
            }
        }
        for (what, st) in &states {
            let facts: Vec<_> = st.iter().copied().collect();
            for (k, f) in facts.iter().enumerate() {
                if f.def && a.locs().is_summary(f.src) {
                    failures.push(format!(
                        "{name}: {what}: definite fact from summary ({}, {})",
                        a.name(f.src),
                        a.name(f.dst)
                    ));
                }
                if f.def {
                    let others = facts
                        .iter()
                        .enumerate()
                        .filter(|(j, g)| *j != k && g.src == f.src)
                        .count();
                    if others > 0 {
                        failures.push(format!(
                            "{name}: {what}: ({}, {}, D) beside other targets",
                            a.name(f.src),
                            a.name(f.dst)
                        ));
                    }
                }
            }
        }
    }
    failures.dedup();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}
