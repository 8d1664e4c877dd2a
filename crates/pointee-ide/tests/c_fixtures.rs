//! Runs every C fixture under `fixtures/c/flow/` through pointee-ide (the
//! database, the preprocessor and front end, the engine), in process, and
//! checks the expectations written inside the C file (`expect/mod.rs`:
//! HOVER, CALLEES, every alias check `ok`), and the dump of a few.
//!
//! `POINTEE_UPDATE=1 cargo test -p pointee-ide --test c_fixtures` rewrites
//! the expectations and dumps with today's answers (review the diff).

mod expect;

use pointee_ide::{Config, Lang};
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

#[test]
fn c_flow_fixtures() {
    let update = std::env::var("POINTEE_UPDATE").is_ok();
    let mut failures = Vec::new();
    let mut counts = (0, 0, 0);
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let a = expect::analyse(&[(name.clone(), text)], Config::default());
        counts.0 += 1;
        let (n, new_text) = expect::check_expectations(&a, &name, update, &mut failures);
        counts.1 += n;
        counts.2 += expect::check_alias_checks(&a, &name, &mut failures);
        if let Some(s) = new_text {
            std::fs::write(&path, s).unwrap();
        }
    }
    eprintln!(
        "{} fixtures, {} expectations, {} alias checks",
        counts.0, counts.1, counts.2
    );
    assert!(counts.1 > 0 && counts.2 > 0);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// `dump` text (facts after each statement and the invocation graph) of a
/// few fixtures, against `fixtures/c/flow/<name>.dump`; `POINTEE_UPDATE=1`
/// rewrites them.
#[test]
fn c_flow_dump_snapshots() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/flow");
    let update = std::env::var("POINTEE_UPDATE").is_ok();
    let mut failures = Vec::new();
    for name in [
        "fig6_function_pointers.c",
        "f4_recursion.c",
        "f4_definite_first.c",
        "f5_lvc_table.c",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let a = expect::analyse(&[(name.to_string(), text)], Config::default());
        let file = a.file_id(name).unwrap();
        let lines = a.line_index(file).unwrap();
        let dump = a.dump(Lang::C, &Default::default()).unwrap();
        let mut out = String::new();
        for f in &dump.functions {
            out.push_str(&format!("{}\n", f.header));
            for l in &f.lines {
                let line =
                    l.at.map(|at| (lines.line_of(at.range.start) + 1).to_string())
                        .unwrap_or_default();
                out.push_str(&format!("{line:>4} {}{}\n", "  ".repeat(l.depth), l.text));
                for fact in &l.facts {
                    out.push_str(&format!("         {}{fact}\n", "  ".repeat(l.depth)));
                }
            }
        }
        for (title, lines) in &dump.sections {
            out.push_str(&format!("{title}:\n"));
            for l in lines {
                out.push_str(&format!("  {l}\n"));
            }
        }
        let path = dir.join(name.replace(".c", ".dump"));
        let want = std::fs::read_to_string(&path).unwrap_or_default();
        if want != out {
            if update {
                std::fs::write(&path, &out).unwrap();
            } else {
                failures.push(format!("{}: dump differs; got:\n{out}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
