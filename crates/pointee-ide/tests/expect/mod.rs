//! Expectations written inside C and Java fixtures, checked against
//! pointee-ide's answers in process. On a line, after `// ` (several
//! separated by `;`), each names an expression of the line by its first
//! whole-word occurrence; a place in the source is written `text@line` (the
//! text of the range and its line; `text@file:line` in another file):
//!
//! - `HOVER expr = {x D, NULL P}`: the hover set (`unreachable` when no
//!   context reaches it; a trailing `extra` when only extra entries do).
//! - `CALLEES expr = {f, g}`: the callees of the call around `expr`.
//! - `DEF expr = {...}`, `DECL expr = {...}`, `IMPL expr = {...}`: where
//!   go to definition, declaration and implementation lead.
//! - `HIGHLIGHT expr = {p@5 W, q@6 R, r@7 T}`: document highlight, each
//!   with its kind (Read, Write, Text), in file order.
//! - `HINT = → {x, y?}`: the inlay hints that end on this line (`|`
//!   between several); `HINT = none` when there must be none.
//! - `CALLERS expr = {main@12}`: the incoming calls of the function named
//!   (or called) at `expr`: each caller with the line of each call.
//! - `REFS expr = {q@9 must, s@11 may, *p@12 write}`: the references,
//!   in the order they are answered (must-aliases, may-aliases, stores).
//!
//! And every `MUSTALIAS(p, q)`-style check must be `ok`; on its line,
//! `VERDICT = must` (`no`, `may`) asserts the verdict itself (a check is
//! `ok` with any verdict at least as weak as the truth), and
//! `FIXME(may): why` records a wrong answer of today, asserted exactly
//! (as in `fixtures/c/soundness/`). Shared by the single-file fixtures,
//! the projects and the IDE fixtures.

#![allow(dead_code)]

use pointee_ide::{
    Analysis, AnalysisHost, Change, Config, FileId, FilePosition, FileRange, HighlightKind, Lang,
    ReferenceKind, System, UnitConfig,
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

const KINDS: [&str; 9] = [
    "HOVER",
    "CALLEES",
    "DEF",
    "DECL",
    "IMPL",
    "HIGHLIGHT",
    "HINT",
    "CALLERS",
    "REFS",
];

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

/// `text@line` of a range (`text@file:line` outside `here`).
fn place(a: &Analysis, here: FileId, r: FileRange) -> String {
    let text = a.file_text(r.file);
    // Up to a brace or the end of the line (a whole record definition is
    // shown by its head).
    let shown = text
        .get(r.range.start as usize..r.range.end as usize)
        .unwrap_or("?");
    let shown = shown
        .split(['{', ';', '\n'])
        .next()
        .unwrap_or("")
        .trim_end();
    let line = a.line_index(r.file).unwrap().line_of(r.range.start) + 1;
    if r.file == here {
        format!("{shown}@{line}")
    } else {
        format!("{shown}@{}:{line}", a.file_path(r.file))
    }
}

fn set(mut items: Vec<String>) -> String {
    items.sort();
    format!("{{{}}}", items.join(", "))
}

fn navigation(a: &Analysis, here: FileId, targets: &[pointee_ide::NavTarget]) -> String {
    set(targets
        .iter()
        .map(|t| {
            place(
                a,
                here,
                FileRange {
                    file: t.file,
                    range: t.range,
                },
            )
        })
        .collect())
}

/// Today's answer to one expectation.
fn answer(a: &Analysis, at: FilePosition, kind: &str) -> String {
    let here = at.file;
    match kind {
        "HOVER" => match a.hover(at).unwrap() {
            Some(h) => render_hover(&h),
            None => "error: no pointer expression here".into(),
        },
        "CALLEES" => match a.callees(at).unwrap() {
            Some(cs) => {
                let v: Vec<String> = cs.iter().map(|c| c.name.clone()).collect();
                format!("{{{}}}", v.join(", "))
            }
            None => "error: no call here".into(),
        },
        "DEF" => navigation(a, here, &a.goto_definition(at).unwrap()),
        "DECL" => navigation(a, here, &a.goto_declaration(at).unwrap()),
        "IMPL" => navigation(a, here, &a.goto_implementation(at).unwrap()),
        "HIGHLIGHT" => {
            let hs = a.highlights(at).unwrap();
            let items: Vec<String> = hs
                .iter()
                .map(|h| {
                    let kind = match h.kind {
                        HighlightKind::Read => "R",
                        HighlightKind::Write => "W",
                        HighlightKind::Text => "T",
                    };
                    let r = FileRange {
                        file: here,
                        range: h.range,
                    };
                    format!("{} {kind}", place(a, here, r))
                })
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        "HINT" => {
            let lines = a.line_index(here).unwrap();
            let line = lines.line_of(at.offset);
            let whole = FileRange {
                file: here,
                range: pointee_ide::Range {
                    start: 0,
                    end: a.file_text(here).len() as u32,
                },
            };
            let labels: Vec<String> = a
                .inlay_hints(whole)
                .unwrap()
                .into_iter()
                .filter(|h| lines.line_of(h.offset) == line)
                .map(|h| h.label)
                .collect();
            if labels.is_empty() {
                "none".into()
            } else {
                labels.join(" | ")
            }
        }
        "CALLERS" => {
            let mut items = Vec::new();
            for item in a.call_hierarchy(at).unwrap() {
                for link in a.incoming_calls(item.file, &item.name).unwrap() {
                    for call in &link.calls {
                        let line = a.line_index(call.file).unwrap().line_of(call.range.start) + 1;
                        items.push(format!("{}@{line}", link.item.name));
                    }
                }
            }
            set(items)
        }
        "REFS" => {
            let items: Vec<String> = a
                .references(at)
                .unwrap()
                .iter()
                .map(|r| {
                    let kind = match r.kind {
                        ReferenceKind::MustAlias => "must",
                        ReferenceKind::MayAlias => "may",
                        ReferenceKind::Write => "write",
                    };
                    format!("{} {kind}", place(a, here, r.range))
                })
                .collect();
            format!("{{{}}}", items.join(", "))
        }
        other => panic!("unknown expectation {other}"),
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
                let written = |want: &str| match e.expr.as_str() {
                    "" => format!("{} = {want}", e.kind),
                    expr => format!("{} {expr} = {want}", e.kind),
                };
                let (old, new) = (written(&e.want), written(&got));
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
    check_alias_checks_of(a, Lang::C, what, failures)
}

/// The same for a language's program (Java checks are the calls of static
/// methods named like the C ones; their declarations are not counted).
pub fn check_alias_checks_of(
    a: &Analysis,
    lang: Lang,
    what: &str,
    failures: &mut Vec<String>,
) -> usize {
    if let Some(err) = a.program_error(lang).unwrap() {
        failures.push(format!("{what}: check failed: {err}"));
        return 0;
    }
    let report = a.check(lang).unwrap();
    let calls: usize = a
        .files()
        .filter(|&(_, f)| a.lang(f) == Some(lang))
        .map(|(_, f)| a.file_text(f))
        .map(|t| {
            t.lines()
                .filter(|l| !l.trim_start().starts_with("static void"))
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
        if fixme_verdict(&a.file_text(c.at.file), line).is_some() {
            continue; // asserted exactly by `check_verdicts`
        }
        failures.push(format!(
            "{}:{line}: {} is {}",
            a.file_path(c.at.file),
            c.check,
            c.verdict.as_str()
        ));
    }
    check_verdicts(a, lang, &report.alias_checks, failures);
    report.alias_checks.len()
}

/// `VERDICT = v` on a check's line: its verdict is exactly `v`. A line
/// with the expectation and no evaluated check fails too.
fn check_verdicts(
    a: &Analysis,
    lang: Lang,
    checks: &[pointee_ide::AliasCheck],
    failures: &mut Vec<String>,
) {
    for (_, file) in a.files().filter(|&(_, f)| a.lang(f) == Some(lang)) {
        let text = a.file_text(file);
        let lines = a.line_index(file).unwrap();
        for (i, line) in text.lines().enumerate() {
            let Some(want) = line
                .split("// ")
                .skip(1)
                .flat_map(|c| c.split(';'))
                .find_map(|part| part.trim().strip_prefix("VERDICT = "))
                .or_else(|| fixme_verdict(&text, i + 1))
            else {
                continue;
            };
            let here: Vec<&str> = checks
                .iter()
                .filter(|c| c.at.file == file && lines.line_of(c.at.range.start) == i)
                .map(|c| c.verdict.as_str())
                .collect();
            if here.is_empty() || here.iter().any(|v| *v != want.trim()) {
                failures.push(format!(
                    "{}:{}: VERDICT = {} but {:?}",
                    a.file_path(file),
                    i + 1,
                    want.trim(),
                    here
                ));
            }
        }
    }
}

/// The verdict a `// FIXME(verdict): why` on 1-based `line`, a line with
/// an alias check, records.
fn fixme_verdict(text: &str, line: usize) -> Option<&str> {
    let l = text.lines().nth(line.checked_sub(1)?)?;
    if !l.split("//").next()?.contains("ALIAS(") {
        return None;
    }
    l.split("// FIXME(").nth(1)?.split(')').next()
}
