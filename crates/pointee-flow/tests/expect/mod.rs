//! Expectations written inside C fixtures, checked through the IDE
//! answers: `// HOVER expr = {x D, NULL P}` (several per line, separated by
//! `;`; `unreachable`; a trailing `extra` when only extra entries reach
//! it), `// CALLEES expr = {f, g}`, and every `MUSTALIAS(p, q)`-style check
//! must be `ok`. Shared by the single-file fixtures and the projects.

#![allow(dead_code)]

use pointee_ide::{Options, Workspace};

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

/// Checks the HOVER and CALLEES expectations of one file of `ws`; returns
/// how many there were and, with `update`, the file's new text when an
/// answer changed (else the differences are pushed to `failures`).
pub fn check_expectations(
    ws: &Workspace,
    name: &str,
    opts: &Options,
    update: bool,
    failures: &mut Vec<String>,
) -> (usize, Option<String>) {
    let text = &ws.file(name).expect("the file is in the workspace").text;
    let mut new_text: Vec<String> = text.lines().map(str::to_string).collect();
    let mut count = 0;
    for e in expectations(text) {
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
        let got = if e.kind == "HOVER" {
            match pointee_ide::hover(ws, name, e.line, col, opts) {
                Ok(h) => render_hover(&h),
                Err(err) => format!("error: {err}"),
            }
        } else {
            match pointee_ide::callees(ws, name, e.line, col, opts) {
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
    let mut s = new_text.join("\n");
    s.push('\n');
    (count, (update && s != *text).then_some(s))
}

/// Every alias check of the program must be `ok`, and every check written
/// in `ws`'s files must be evaluated. Returns how many were.
pub fn check_alias_checks(
    ws: &Workspace,
    what: &str,
    opts: &Options,
    failures: &mut Vec<String>,
) -> usize {
    match pointee_ide::check(ws, opts) {
        Ok(report) => {
            let calls: usize = ws
                .files
                .iter()
                .flat_map(|f| f.text.lines())
                .map(|l| l.split("//").next().unwrap().matches("ALIAS(").count())
                .sum();
            if report.alias_checks.len() != calls {
                failures.push(format!(
                    "{what}: {} alias checks in the text, {} evaluated",
                    calls,
                    report.alias_checks.len()
                ));
            }
            for c in report.alias_checks.iter().filter(|c| !c.ok) {
                failures.push(format!(
                    "{}:{}: {} is {}",
                    c.at.file,
                    c.at.line,
                    c.check,
                    c.verdict.as_str()
                ));
            }
            report.alias_checks.len()
        }
        Err(err) => {
            failures.push(format!("{what}: check failed: {err}"));
            0
        }
    }
}
