//! Expectations written inside C fixtures, checked against pointee-ide's
//! answers in process. On a line, after `// ` (several separated by `;`),
//! each names an expression of the line by its first whole-word occurrence:
//!
//! - `HOVER expr = {x D, NULL P}`: the hover set (`unreachable` when no
//!   context reaches it; a trailing `extra` when only extra entries do).
//! - `CALLEES expr = {f, g}`: the callees of the call around `expr`.
//!
//! And every `MUSTALIAS(p, q)`-style check must be `ok`. Shared by the
//! single-file fixtures and the projects.

#![allow(dead_code)]

use pointee_ide::{
    Analysis, AnalysisHost, Change, Config, FileId, FilePosition, Lang, System, UnitConfig,
};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// What the fixtures include: their run-time header (`#include
/// "alias_runtime.h"`, read with `__POINTEE__` defined: the checks stay
/// calls), and files under `root` by their relative paths (a project's own
/// headers).
pub struct Includes {
    pub root: Option<std::path::PathBuf>,
}

impl pointee_ide::FileSystem for Includes {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        let flow = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/flow");
        let file = match path.rsplit('/').next()? {
            "alias_runtime.h" => flow.join("alias_runtime.h"),
            _ => self.root.as_ref()?.join(path),
        };
        std::fs::read_to_string(file).ok().map(Arc::from)
    }
}

/// The one-shot analysis of `files` (path, text), reading the fixtures'
/// run-time header when they include it.
pub fn analyse(files: &[(String, String)], config: Config) -> Analysis {
    analyse_in(files, config, Default::default(), None)
}

/// The same, with each unit's preprocessor configuration, and includes
/// also read under `root`.
pub fn analyse_in(
    files: &[(String, String)],
    config: Config,
    units: BTreeMap<String, UnitConfig>,
    root: Option<std::path::PathBuf>,
) -> Analysis {
    let system: System = Arc::new(Includes { root });
    let mut host = AnalysisHost::with_system(system);
    let mut change = Change::of_files(files.iter().cloned(), config);
    change.set_unit_configs(units);
    host.apply_change(change);
    host.analysis()
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

const KINDS: [&str; 2] = ["HOVER", "CALLEES"];

fn expectations(text: &str) -> Vec<Expect> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(c) = line.find("// ") else { continue };
        for part in line[c + 3..].split(';') {
            let part = part.trim();
            for kind in KINDS {
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

/// The byte position of a 1-based (line, character column).
pub fn position(a: &Analysis, file: FileId, line: u32, column: u32) -> FilePosition {
    let lines = a.line_index(file).unwrap();
    let offset = lines
        .offset_chars(line as usize - 1, column as usize - 1)
        .expect("a position inside the file");
    FilePosition { file, offset }
}

/// Today's answer to one expectation.
fn answer(a: &Analysis, at: FilePosition, kind: &str) -> String {
    match kind {
        "HOVER" => match a.hover(at).unwrap() {
            Some(h) => render_hover(&h),
            None => "error: no pointer expression here".into(),
        },
        _ => match a.callees(at).unwrap() {
            Some(cs) => {
                let v: Vec<String> = cs.iter().map(|c| c.name.clone()).collect();
                format!("{{{}}}", v.join(", "))
            }
            None => "error: no call here".into(),
        },
    }
}

/// Checks the expectations of the file `name` of `a`; returns how many there
/// were and, with `update`, the file's new text when an answer changed
/// (else the differences are pushed to `failures`).
pub fn check_expectations(
    a: &Analysis,
    name: &str,
    update: bool,
    failures: &mut Vec<String>,
) -> (usize, Option<String>) {
    let file = a.file_id(name).expect("the file is in the workspace");
    let text = a.file_text(file);
    let mut new_text: Vec<String> = text.lines().map(str::to_string).collect();
    let mut count = 0;
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
        count += 1;
        let got = answer(a, position(a, file, e.line, col), e.kind);
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
    let mut s = new_text.join("\n");
    s.push('\n');
    (count, (update && s != *text).then_some(s))
}

/// Every alias check of the C program must be `ok`, and every check written
/// in its files must be evaluated. Returns how many were.
pub fn check_alias_checks(a: &Analysis, what: &str, failures: &mut Vec<String>) -> usize {
    if let Some(err) = a.program_error(Lang::C).unwrap() {
        failures.push(format!("{what}: check failed: {err}"));
        return 0;
    }
    let report = a.check(Lang::C).unwrap();
    let calls: usize = a
        .files()
        .map(|(_, f)| a.file_text(f))
        .map(|t| {
            t.lines()
                .map(|l| l.split("//").next().unwrap().matches("ALIAS(").count())
                .sum::<usize>()
        })
        .sum();
    if report.alias_checks.len() != calls {
        failures.push(format!(
            "{what}: {} alias checks in the text, {} evaluated",
            calls,
            report.alias_checks.len()
        ));
    }
    for c in report.alias_checks.iter().filter(|c| !c.ok) {
        let line = a.line_index(c.at.file).unwrap().line_of(c.at.range.start) + 1;
        failures.push(format!(
            "{}:{line}: {} is {}",
            a.file_path(c.at.file),
            c.check,
            c.verdict.as_str()
        ));
    }
    report.alias_checks.len()
}
