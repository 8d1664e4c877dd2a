//! Runs every C fixture under `fixtures/c/flow/` through the front end, the
//! engine and the IDE answers, and checks the expectations written inside
//! the C file:
//!
//! - `// HOVER expr = {x D, NULL P}`: the hover set of the first occurrence
//!   of `expr` on that line (several per line, separated by `;`);
//!   `unreachable` when no context reaches it; a trailing `extra` when only
//!   extra entries reach it.
//! - `// CALLEES expr = {f, g}`: the callees of the call around `expr`.
//! - every `MUSTALIAS(p, q)`-style check must be `ok`.
//!
//! `POINTEE_UPDATE=1 cargo test -p pointee-flow --test fixtures` rewrites the
//! HOVER and CALLEES expectations with today's answers (review the diff).

use pointee_ide::{Options, SourceFile, Workspace};
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

fn render_hover(h: &pointee_ide::Hover) -> String {
    if !h.reachable {
        return "unreachable".into();
    }
    let items: Vec<String> = h
        .targets
        .iter()
        .map(|t| format!("{} {}", t.name, if t.definite { "D" } else { "P" }))
        .collect();
    let extra = if h.extra_entry { " extra" } else { "" };
    format!("{{{}}}{extra}", items.join(", "))
}

/// The 1-based column of the first whole-word occurrence of `expr` in `code`.
fn column_of(code: &str, expr: &str) -> Option<u32> {
    let bytes = code.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut from = 0;
    while let Some(i) = code[from..].find(expr) {
        let s = from + i;
        let e = s + expr.len();
        let ok_l = s == 0 || !word(bytes[s - 1]) || !word(expr.as_bytes()[0]);
        let ok_r = e >= bytes.len() || !word(bytes[e]) || !word(*expr.as_bytes().last().unwrap());
        if ok_l && ok_r {
            return Some(code[..s].chars().count() as u32 + 1);
        }
        from = s + 1;
    }
    None
}

struct Expect {
    line: u32,
    kind: &'static str,
    expr: String,
    want: String,
}

fn expectations(text: &str) -> Vec<Expect> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(c) = line.find("// ") else { continue };
        for part in line[c + 3..].split(';') {
            let part = part.trim();
            for kind in ["HOVER", "CALLEES"] {
                if let Some(rest) = part.strip_prefix(kind) {
                    if let Some((expr, want)) = rest.split_once(" = ") {
                        out.push(Expect {
                            line: i as u32 + 1,
                            kind,
                            expr: expr.trim().to_string(),
                            want: want.trim().to_string(),
                        });
                    }
                }
            }
        }
    }
    out
}

/// The fixtures' run-time header, for their `#include "alias_runtime.h"`
/// (pointee reads it with `__POINTEE__` defined: the checks stay calls).
fn runtime_header() -> pointee_ide::System {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/flow");
    let text = std::fs::read_to_string(dir.join("alias_runtime.h")).unwrap();
    let mut fs = pointee_c::pointee_cpp::MemoryFs::new();
    fs.insert("alias_runtime.h", &text);
    pointee_ide::System(std::sync::Arc::new(fs))
}

#[test]
fn c_flow_fixtures() {
    let update = std::env::var("POINTEE_UPDATE").is_ok();
    let mut failures = Vec::new();
    let mut counts = (0, 0, 0);
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let mut ws = Workspace::new(vec![SourceFile::new(name.clone(), text.clone())]);
        ws.system = Some(runtime_header());
        let opts = Options::default();
        let mut new_text: Vec<String> = text.lines().map(str::to_string).collect();
        counts.0 += 1;
        for e in expectations(&text) {
            let line_text = text.lines().nth(e.line as usize - 1).unwrap();
            let code = &line_text[..line_text.find("// ").unwrap()];
            let Some(col) = column_of(code, &e.expr) else {
                failures.push(format!(
                    "{name}:{}: `{}` not found on the line",
                    e.line, e.expr
                ));
                continue;
            };
            let got = if e.kind == "HOVER" {
                counts.1 += 1;
                match pointee_ide::hover(&ws, &name, e.line, col, &opts) {
                    Ok(h) => render_hover(&h),
                    Err(err) => format!("error: {err}"),
                }
            } else {
                counts.1 += 1;
                match pointee_ide::callees(&ws, &name, e.line, col, &opts) {
                    Ok(cs) => {
                        let v: Vec<String> = cs.iter().map(|c| c.name.clone()).collect();
                        format!("{{{}}}", v.join(", "))
                    }
                    Err(err) => format!("error: {err}"),
                }
            };
            if got != e.want {
                if update {
                    let l = &mut new_text[e.line as usize - 1];
                    let old = format!("{} {} = {}", e.kind, e.expr, e.want);
                    let new = format!("{} {} = {}", e.kind, e.expr, got);
                    *l = l.replacen(&old, &new, 1);
                } else {
                    failures.push(format!(
                        "{name}:{}: {} {}: want {}, got {}",
                        e.line, e.kind, e.expr, e.want, got
                    ));
                }
            }
        }
        match pointee_ide::check(&ws, &opts) {
            Ok(report) => {
                let calls: usize = text
                    .lines()
                    .map(|l| l.split("//").next().unwrap().matches("ALIAS(").count())
                    .sum();
                counts.2 += report.alias_checks.len();
                if report.alias_checks.len() != calls {
                    failures.push(format!(
                        "{name}: {} alias checks in the text, {} evaluated",
                        calls,
                        report.alias_checks.len()
                    ));
                }
                for c in report.alias_checks.iter().filter(|c| !c.ok) {
                    failures.push(format!(
                        "{name}:{}: {} is {}",
                        c.at.line,
                        c.check,
                        c.verdict.as_str()
                    ));
                }
            }
            Err(err) => failures.push(format!("{name}: check failed: {err}")),
        }
        if update {
            let mut s = new_text.join("\n");
            s.push('\n');
            if s != text {
                std::fs::write(&path, s).unwrap();
            }
        }
    }
    eprintln!(
        "{} fixtures, {} hover/callee expectations, {} alias checks",
        counts.0, counts.1, counts.2
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
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
        let ws = Workspace::new(vec![SourceFile::new(name, text)]);
        let dump = pointee_ide::dump(&ws, &Options::default()).unwrap();
        let mut out = String::new();
        for f in &dump.functions {
            out.push_str(&format!("{}\n", f.header));
            for l in &f.lines {
                let line = l.line.map(|n| n.to_string()).unwrap_or_default();
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
