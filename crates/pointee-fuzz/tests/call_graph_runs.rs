//! Call graphs against real executions: every C fixture of
//! `fixtures/c/{flow,soundness}` is compiled by gcc with
//! `-finstrument-functions` and a recorder (`runtime/record_calls.c`) that
//! writes each (callee, call site) pair; the call sites are resolved to
//! their functions with `nm`, and every observed caller-to-callee edge
//! between the program's functions must be among pointee's outgoing calls
//! of the caller. Calls from outside the program (`main` from the C
//! library, callbacks from `qsort`) have no caller here and are counted
//! apart, as are calls from or to functions the program defines only for
//! the run (under `#ifndef __POINTEE__`: a run-time model of unknown code,
//! which pointee must treat as unknown); the run-time alias checks of `alias_runtime.h` are not
//! instrumented (pointee reads them as checks, not calls). Needs gcc and nm; without them the test is skipped, unless `CI`
//! is set.

use pointee_fuzz::call_runs::{functions, have, observed, INSTRUMENTED};
use pointee_ide::{AnalysisHost, Config};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The functions a fixture defines as pointee reads it (`__POINTEE__`
/// defined), from gcc's own object file: the rest are outside the program.
fn defined_for_pointee(path: &Path, out_dir: &Path) -> BTreeSet<String> {
    let obj = out_dir.join("pointee-view.o");
    let cc = Command::new("gcc")
        .args(["-std=gnu99", "-w", "-c", "-D__POINTEE__", "-I"])
        .arg(path.parent().unwrap())
        .arg(path)
        .arg("-o")
        .arg(&obj)
        .output()
        .unwrap();
    assert!(
        cc.status.success(),
        "{}: gcc -D__POINTEE__ failed",
        path.display()
    );
    functions(&obj).into_iter().map(|(_, name)| name).collect()
}

fn fixtures() -> Vec<PathBuf> {
    let root = pointee_fuzz::repo_root().join("fixtures/c");
    let mut v = Vec::new();
    for dir in ["flow", "soundness"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "c") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// Whether gcc or nm is missing: the test is skipped then, but never in CI.
fn tools_missing() -> bool {
    if have("gcc") && have("nm") {
        return false;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI needs gcc and nm for this test"
    );
    eprintln!("gcc or nm not found: skipped");
    true
}

#[test]
fn every_observed_call_edge_is_in_pointees_call_graph() {
    if tools_missing() {
        return;
    }
    let recorder = pointee_fuzz::call_runs::recorder();
    let out_dir = std::env::temp_dir().join(format!("pointee-call-runs-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let (mut programs, mut checked, mut from_outside, mut unlinked) = (0, 0, 0, 0);
    let mut missed = Vec::new();
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("NO-GCC") || !text.contains("main(") {
            continue;
        }
        let dir = path.parent().unwrap();
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let exe = out_dir.join(&stem);
        let cc = Command::new("gcc")
            .args(INSTRUMENTED)
            .args([
                // The run-time alias checks are pointee's intrinsics, not calls.
                "-finstrument-functions-exclude-file-list=alias_runtime.h",
                "-I",
            ])
            .arg(dir)
            .arg(&path)
            .arg(&recorder)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        if !cc.status.success() {
            // Only `soundness/` has programs that call code outside them
            // (`unknown_code.c`); every flow fixture builds (its own test).
            assert!(!dir.ends_with("flow"), "{}: gcc failed", path.display());
            unlinked += 1;
            continue;
        }
        let calls = out_dir.join(format!("{stem}.calls"));
        let run = Command::new(&exe)
            .env("POINTEE_CALLS", &calls)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}: exit {:?}",
            path.display(),
            run.status.code()
        );
        programs += 1;
        let edges = observed(&exe, &calls);
        // Only calls from outside the program (`main` from the C library):
        // nothing to ask pointee, so neither its view nor its analysis is
        // built.
        if edges.iter().all(|(caller, _)| caller.is_none()) {
            from_outside += edges.len();
            continue;
        }
        // pointee's call graph of the same files (the folder's headers too).
        let mut files = vec![(
            path.file_name().unwrap().to_string_lossy().into_owned(),
            text.clone(),
        )];
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x == "h") {
                files.push((
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read_to_string(&p).unwrap(),
                ));
            }
        }
        let defined = defined_for_pointee(&path, &out_dir);
        let host = AnalysisHost::with_files(files.clone(), Config::default());
        let a = host.analysis();
        let file = a.file_id(&files[0].0).unwrap();
        for (caller, callee) in edges {
            let Some(caller) = caller.filter(|c| defined.contains(c) && defined.contains(&callee))
            else {
                from_outside += 1;
                continue;
            };
            checked += 1;
            let links = a.outgoing_calls(file, &caller).unwrap();
            if !links.iter().any(|l| l.item.name == callee) {
                missed.push(format!("{stem}: {caller} -> {callee}"));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    eprintln!("{programs} programs run ({unlinked} do not link alone), {checked} observed edges checked, {from_outside} calls from or to outside the program, {} missed", missed.len());
    assert!(
        programs >= 80 && checked >= 60,
        "too little checked: {programs} programs, {checked} edges"
    );
    assert!(
        missed.is_empty(),
        "edges pointee's call graph misses:\n{}",
        missed.join("\n")
    );
}

/// A call of a function that never returns, last in its caller, is the
/// caller's: its return address is the first byte of the function gcc lays
/// out next (Lua's `luaG_errormsg -> luaD_throw` read as `luaG_runerror`'s
/// before the fix).
#[test]
fn a_call_that_never_returns_belongs_to_its_caller_not_the_next_function() {
    if tools_missing() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("pointee-noreturn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("noreturn.c");
    std::fs::write(
        &src,
        "#include <stdlib.h>\n\
         __attribute__((noreturn)) void fail(int c) { exit(c); }\n\
         void check(int c) { if (c) fail(0); fail(0); }\n\
         int after(int x) { return x + 1; }\n\
         int main(void) { after(1); check(0); }\n",
    )
    .unwrap();
    let exe = dir.join("noreturn");
    let cc = Command::new("gcc")
        .args(INSTRUMENTED)
        .arg(&src)
        .arg(pointee_fuzz::call_runs::recorder())
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        cc.status.success(),
        "gcc: {}",
        String::from_utf8_lossy(&cc.stderr)
    );
    let calls = dir.join("calls");
    let run = Command::new(&exe)
        .env("POINTEE_CALLS", &calls)
        .output()
        .unwrap();
    assert!(run.status.success());
    let edges = observed(&exe, &calls);
    let _ = std::fs::remove_dir_all(&dir);
    let named = |caller: &str, callee: &str| (Some(caller.to_string()), callee.to_string());
    let expected: BTreeSet<_> = [
        named("main", "after"),
        named("main", "check"),
        named("check", "fail"),
        (None, "main".to_string()),
    ]
    .into_iter()
    .collect();
    assert_eq!(edges, expected);
}
