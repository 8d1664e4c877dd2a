//! Runs every C fixture under `fixtures/c/flow/` through pointee-ide (the
//! database, the front end, the engine), in process, and checks the
//! expectations written inside the C file:
//!
//! - `// HOVER expr = {x D, NULL P}`: the hover set of the first occurrence
//!   of `expr` on that line (several per line, separated by `;`);
//!   `unreachable` when no context reaches it; a trailing `extra` when only
//!   extra entries reach it.
//! - `// CALLEES expr = {f, g}`: the callees of the call around `expr`.
//! - every `MUSTALIAS(p, q)`-style check must be `ok`.
//!
//!
//! `POINTEE_UPDATE=1 cargo test -p pointee-ide --test c_fixtures` rewrites
//! the HOVER and CALLEES expectations with today's answers (review the
//! diff).

use pointee_ide::{Analysis, AnalysisHost, Config, FileId, FilePosition, Lang};
use std::path::{Path, PathBuf};

/// One fixture analysed: a snapshot and the file.
fn analyse(name: &str, text: &str) -> (Analysis, FileId) {
    let host = AnalysisHost::with_files([(name, text)], Config::default());
    let analysis = host.analysis();
    let file = analysis.file_id(name).expect("the fixture is a C file");
    (analysis, file)
}

/// The byte position of a 1-based (line, character column).
fn position(a: &Analysis, file: FileId, line: u32, column: u32) -> FilePosition {
    let lines = a.line_index(file).unwrap();
    let offset = lines
        .offset_chars(line as usize - 1, column as usize - 1)
        .expect("a position inside the file");
    FilePosition { file, offset }
}

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

#[test]
fn c_flow_fixtures() {
    let update = std::env::var("POINTEE_UPDATE").is_ok();
    let mut failures = Vec::new();
    let mut counts = (0, 0, 0);
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let (a, file) = analyse(&name, &text);
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
            let at = position(&a, file, e.line, col);
            counts.1 += 1;
            let got = if e.kind == "HOVER" {
                match a.hover(at).unwrap() {
                    Some(h) => render_hover(&h),
                    None => "error: no pointer expression here".into(),
                }
            } else {
                match a.callees(at).unwrap() {
                    Some(cs) => {
                        let v: Vec<String> = cs.iter().map(|c| c.name.clone()).collect();
                        format!("{{{}}}", v.join(", "))
                    }
                    None => "error: no call here".into(),
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
        match a.program_error(Lang::C).unwrap() {
            None => {
                let report = a.check(Lang::C).unwrap();
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
                let lines = a.line_index(file).unwrap();
                for c in report.alias_checks.iter().filter(|c| !c.ok) {
                    failures.push(format!(
                        "{name}:{}: {} is {}",
                        lines.line_of(c.at.range.start) + 1,
                        c.check,
                        c.verdict.as_str()
                    ));
                }
            }
            Some(err) => failures.push(format!("{name}: check failed: {err}")),
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
        let (a, file) = analyse(name, &text);
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
