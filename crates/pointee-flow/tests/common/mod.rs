//! Helpers shared by the reuse tests: a rendering of an analysis that does
//! not depend on unit or location ids, and source- and IR-level edits.

#![allow(dead_code)]

use pointee_flow::{Analysis, EntryKind, OwnedAnalysis, UnitId};
use pointee_ir::{Basic, Point, Program, Rvalue, Stmt, StmtId};

/// A unit's name: its function and its input by location names.
fn label(a: &Analysis<'_>, u: UnitId) -> String {
    let unit = a.unit(u);
    format!(
        "{}[{}]",
        a.func_name(u),
        a.render_facts(&unit.key).join(" ")
    )
}

/// Every live unit (function, key, input, output, flags, call edges with
/// their maps) and the facts at every point of it, by names, sorted.
pub fn canonical_dump(a: &mut Analysis<'_>, program: &Program) -> String {
    let mut blocks: Vec<String> = Vec::new();
    for f in &program.functions {
        for u in a.units_of(&f.name) {
            let unit = a.unit(u).clone();
            let mut lines = vec![format!(
                "unit {} entry={:?} rec={} wild={} sym={} esc={} merged={} extra_only={}",
                label(a, u),
                unit.entry.map(|e| e == EntryKind::Main),
                unit.recursive,
                unit.wild,
                unit.wrote_symbolic,
                unit.escaped,
                unit.merged,
                a.extra_only(u)
            )];
            lines.push(format!("  in: {}", a.render_facts(&unit.input).join(" ")));
            lines.push(match &unit.output {
                Some(o) => format!("  out: {}", a.render_facts(o).join(" ")),
                None => "  out: never".into(),
            });
            for ((s, callee), e) in &unit.calls {
                let target = e.unit.map(|c| label(a, c)).unwrap_or_default();
                let mut map: Vec<String> = e
                    .map
                    .iter()
                    .map(|(sym, roots)| {
                        let mut r: Vec<String> = roots.iter().map(|&l| a.name(l)).collect();
                        r.sort();
                        format!("{}->{}", a.name(*sym), r.join(","))
                    })
                    .collect();
                map.sort();
                lines.push(format!(
                    "  call s{} {callee} approx={} ind={} -> {target} map {}",
                    s.0,
                    e.approximate,
                    e.indirect,
                    map.join(" ")
                ));
            }
            for s in 0..f.stmt_count {
                for p in [Point::Before(StmtId(s)), Point::After(StmtId(s))] {
                    if let Some(st) = a.facts_at(u, p).cloned() {
                        lines.push(format!("  {p:?}: {}", a.render_facts(&st).join(" ")));
                    }
                }
            }
            blocks.push(lines.join("\n"));
        }
    }
    blocks.sort();
    blocks.join("\n")
}

pub fn dump(a: &mut OwnedAnalysis) -> String {
    let p = a.program().clone();
    a.with(|a| canonical_dump(a, &p))
}

/// The text with `int unused_k = 0;` at the start of `func`'s body.
pub fn insert_dead_local(text: &str, lowered: &pointee_c::CProgram, func: &str) -> Option<String> {
    let fs = lowered.sources.iter().find_map(|s| s.function(func))?;
    let from = fs.name_range.end as usize;
    let open = from + text[from..].find('{')?;
    let mut out = text.to_string();
    out.insert_str(open + 1, " int unused_k = 0;");
    Some(out)
}

/// Applies `edit` to the basic statements of a body in order, until it
/// returns true; true when it did.
fn edit_basics(b: &mut [Stmt], edit: &mut dyn FnMut(&mut Stmt) -> bool) -> bool {
    for s in b {
        let done = match s {
            Stmt::Basic(..) => edit(s),
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => edit_basics(then_branch, edit) || edit_basics(else_branch, edit),
            Stmt::Loop { body } => edit_basics(body, edit),
            Stmt::Switch { arms, .. } => arms.iter_mut().any(|a| edit_basics(a, edit)),
            _ => false,
        };
        if done {
            return true;
        }
    }
    false
}

/// The program with function `fi`'s `k`th assignment turned into a use of
/// its left-hand side: an IR-level statement deletion that keeps statement
/// ids. `None` when the function assigns nothing.
pub fn delete_assignment(p: &Program, fi: usize, k: usize) -> Option<Program> {
    let mut p = p.clone();
    let mut seen = 0;
    let done = edit_basics(
        &mut std::sync::Arc::make_mut(&mut p.functions[fi]).body,
        &mut |s| {
            let Stmt::Basic(id, Basic::Assign { lhs, .. }) = s else {
                return false;
            };
            seen += 1;
            if seen <= k {
                return false;
            }
            *s = Stmt::Basic(*id, Basic::Use(lhs.clone()));
            true
        },
    );
    done.then_some(p)
}

/// The program with the first assignment of a function's address (in any
/// body) taking another function's address instead.
pub fn swap_function_pointer(p: &Program) -> Option<Program> {
    let mut p = p.clone();
    let names: Vec<_> = p.functions.iter().map(|f| f.name.clone()).collect();
    for fi in 0..p.functions.len() {
        let done = edit_basics(
            &mut std::sync::Arc::make_mut(&mut p.functions[fi]).body,
            &mut |s| {
                let Stmt::Basic(
                    _,
                    Basic::Assign {
                        rhs: Rvalue::Function(f),
                        ..
                    },
                ) = s
                else {
                    return false;
                };
                match names.iter().find(|n| *n != f && &***n != "main") {
                    Some(other) => {
                        *f = other.clone();
                        true
                    }
                    None => false,
                }
            },
        );
        if done {
            return Some(p);
        }
    }
    None
}
