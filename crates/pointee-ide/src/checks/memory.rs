//! The C memory checker: every place where a pointer must point to an
//! object (a dereference `*p`, `p->f`, `p[i]`; a call through `fp`; an
//! argument a library function dereferences, `pointee_flow::dereferenced_args`;
//! the argument of `free`) is looked up in the engine's facts just before
//! its statement, in every calling context that reaches it (values the
//! run recorded there, `pointee_flow::site_values`; a unit whose record
//! does not answer is replayed):
//!
//! | the pointer may point to | code |
//! |---|---|
//! | `NULL` | `null-deref` |
//! | `uninit` | `uninit-deref` |
//! | `freed` | `use-after-free` (`double-free` at a `free`) |
//! | a callee's dead local | `dangling-stack` |
//! | a stack, global, string or function location, at a `free` | `free-non-heap` |
//!
//! A fact definite in every context that reaches the point is an error; a
//! possible one a warning. Branch conditions already refined the facts
//! (`if (p)`, `p && p->f`, ...), so guarded uses are silent. The witness
//! lists the assignments in the function that may have made the value, the
//! `free` calls before the use, and the calling contexts.
//!
//! `find` looks at one function, position-free (its results are cached per
//! function: `cache`); `render` turns a finding into the diagnostic, with
//! names and ranges, when a file's diagnostics are asked for.

use crate::c::{CProgram, Flow};
use crate::{Diagnostic, FileId, FileRange, Related, Severity};
use pointee_flow::{arg_place, pointer_of, LocId, Root, FREED, NULL, UNINIT};
use pointee_ir::{
    for_each_basic, Base, Basic, Callee, Function, FunctionSource, Place, Point, Range, Rvalue,
    StmtId, VarKind,
};
use std::collections::BTreeMap;

/// What a statement does with a pointer value.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Use {
    /// Reads or writes through it (`*p`, `p->f`, `p[i]`).
    Deref,
    /// Calls through it.
    Call,
    /// Passes it to a library function that dereferences it.
    LibArg(String),
    /// Passes it to `free`.
    Free,
}

/// One use of a pointer value at a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Site {
    stmt: StmtId,
    /// The pointer's value.
    value: Rvalue,
    /// The place that holds it, for naming (`None`: a constant).
    place: Option<Place>,
    how: Use,
}

fn deref_site(stmt: StmtId, p: &Place, out: &mut Vec<Site>) {
    if let Some(ptr) = pointer_of(p) {
        out.push(Site {
            stmt,
            value: Rvalue::Use(ptr.clone()),
            place: Some(ptr),
            how: Use::Deref,
        });
    }
}

/// Every use of a pointer value in `f`, in statement order.
fn sites(f: &Function, is_defined: &dyn Fn(&str) -> bool) -> Vec<Site> {
    let mut out = Vec::new();
    for_each_basic(&f.body, &mut |stmt, b| match b {
        Basic::Assign { lhs, rhs } => {
            deref_site(stmt, lhs, &mut out);
            if let Some(p) = arg_place(rhs) {
                deref_site(stmt, p, &mut out);
            }
        }
        Basic::Use(p) => deref_site(stmt, p, &mut out),
        Basic::Call {
            lhs, callee, args, ..
        } => {
            if let Some(lhs) = lhs {
                deref_site(stmt, lhs, &mut out);
            }
            for a in args {
                if let Some(p) = arg_place(a) {
                    deref_site(stmt, p, &mut out);
                }
            }
            match callee {
                Callee::Indirect(fp) => {
                    deref_site(stmt, fp, &mut out);
                    out.push(Site {
                        stmt,
                        value: Rvalue::Use(fp.clone()),
                        place: Some(fp.clone()),
                        how: Use::Call,
                    });
                }
                Callee::Direct(name) if !is_defined(name) => {
                    let how = match &**name {
                        "free" | "cfree" => Some((&[0usize][..], Use::Free)),
                        n => Some((pointee_flow::dereferenced_args(n), Use::LibArg(n.into()))),
                    };
                    if let Some((indices, how)) = how {
                        for &i in indices {
                            let Some(a) = args.get(i) else { continue };
                            let value = match (arg_place(a), a) {
                                (Some(p), _) => Rvalue::Use(p.clone()),
                                (
                                    None,
                                    Rvalue::Null
                                    | Rvalue::AddrOf(_)
                                    | Rvalue::String(_)
                                    | Rvalue::Function(_),
                                ) => a.clone(),
                                (None, _) => continue,
                            };
                            out.push(Site {
                                stmt,
                                place: arg_place(a).cloned(),
                                value,
                                how: how.clone(),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    });
    out
}

/// What is wrong with a pointer value at a use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Bad {
    Null,
    Uninit,
    Freed,
    Dangling,
    NotHeap,
}

fn code(bad: Bad, how: &Use) -> &'static str {
    match (bad, how) {
        (Bad::Null, _) => "null-deref",
        (Bad::Uninit, _) => "uninit-deref",
        (Bad::Freed, Use::Free) => "double-free",
        (Bad::Freed, _) => "use-after-free",
        (Bad::Dangling, _) => "dangling-stack",
        (Bad::NotHeap, _) => "free-non-heap",
    }
}

/// The ways `l` is wrong for `how`.
fn classify(a: &Flow, l: LocId, how: &Use) -> Option<Bad> {
    if l == NULL {
        return (*how != Use::Free).then_some(Bad::Null);
    }
    if l == UNINIT {
        return Some(Bad::Uninit);
    }
    if l == FREED {
        return Some(Bad::Freed);
    }
    let d = a.locs().get(l);
    match &a.locs().get(d.root_id).root {
        Root::Dangling(_) => Some(Bad::Dangling),
        Root::Var(..) | Root::Global(_) | Root::Str(..) | Root::Lit(..) | Root::Func(_)
            if *how == Use::Free =>
        {
            Some(Bad::NotHeap)
        }
        _ => None,
    }
}

/// A defect at one use, position-free (the checkers' cache holds these;
/// `render` makes the diagnostic): what is wrong, whether it is definite,
/// and the contexts where it happens, as indexes into the function's live
/// units (`units_of`), whose ids change from run to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Finding {
    site: Site,
    bad: Bad,
    pub code: &'static str,
    definite: bool,
    contexts: Vec<u32>,
    reached: usize,
    targets: Vec<(LocId, bool)>,
}

/// The memory defects of one function of the program (`name`, with IR `f`)
/// in the engine's facts, in statement order. A direct call is to a library
/// function when the program does not define the name.
pub(crate) fn find(a: &mut Flow, name: &str, f: &Function) -> Vec<Finding> {
    let units = a.units_of(name);
    if units.is_empty() {
        return Vec::new();
    }
    let uses = {
        let a = &*a;
        sites(f, &|n| a.func_index(n).is_some())
    };
    let mut out: Vec<Finding> = Vec::new();
    for site in uses {
        let per = a.values_at(name, Point::Before(site.stmt), &site.value);
        let Some(merged) = Flow::merge_values(&per) else {
            continue; // not reached
        };
        let reached = per.iter().filter(|p| p.targets.is_some()).count();
        let mut found: BTreeMap<Bad, Vec<u32>> = BTreeMap::new();
        for cv in &per {
            let Some(targets) = &cv.targets else { continue };
            // A context reached only from an extra entry runs on unknown
            // inputs (parameters and globals that may be anything, NULL
            // included): there only what the function itself makes
            // definite counts.
            let extra = a.extra_only(cv.unit);
            let index = units.iter().position(|&u| u == cv.unit).unwrap_or(0) as u32;
            for &(l, definite_here) in targets {
                if extra && !definite_here {
                    continue;
                }
                let Some(bad) = classify(a, l, &site.how) else {
                    continue;
                };
                let contexts = found.entry(bad).or_default();
                if !contexts.contains(&index) {
                    contexts.push(index);
                }
            }
        }
        for (bad, contexts) in found {
            if bad == Bad::Null
                && site
                    .place
                    .as_ref()
                    .is_some_and(|p| super::tested::tested_non_null(f, site.stmt, p))
            {
                continue; // `if (z->f) z->f->g`: the re-load is the tested value
            }
            if bad == Bad::Freed
                && site
                    .place
                    .as_ref()
                    .is_some_and(|p| super::realloc::in_failed_realloc(f, site.stmt, p))
                && !merged.iter().any(|&(l, d)| d && l == FREED)
            {
                continue; // `if (!t) free(p)` after `t = realloc(p, n)`: it freed nothing
            }
            let code = code(bad, &site.how);
            // One diagnostic per statement, pointer and code.
            if out
                .iter()
                .any(|x| x.site.stmt == site.stmt && x.site.value == site.value && x.code == code)
            {
                continue;
            }
            // Definite only if a bad location is definite in every context
            // that reaches the point (the merge says so).
            let definite = merged
                .iter()
                .any(|&(l, d)| d && classify(a, l, &site.how) == Some(bad));
            out.push(Finding {
                site: site.clone(),
                bad,
                code,
                definite,
                contexts,
                reached,
                targets: merged.clone(),
            });
        }
    }
    out
}

/// A finding of function `name` (IR `f`, source `fs` in `file`) as the
/// diagnostic users see.
pub(crate) fn render(
    c: &CProgram,
    a: &mut Flow,
    (file, fs): (FileId, &FunctionSource),
    name: &str,
    f: &Function,
    finding: &Finding,
) -> Diagnostic {
    let site = &finding.site;
    let pointer = pointer_text(c, file, fs, f, site.stmt, site.place.as_ref(), &site.value);
    let units = units_at(a, name, &finding.contexts);
    diagnostic(c, a, file, fs, f, finding, &units, &pointer)
}

/// The units of `name` that a finding's context indexes name.
pub(crate) fn units_at(a: &Flow, name: &str, contexts: &[u32]) -> Vec<pointee_flow::UnitId> {
    let units = a.units_of(name);
    contexts
        .iter()
        .filter_map(|&i| units.get(i as usize).copied())
        .collect()
}

/// A points-to set as messages show it: `{x, y?}` (`?`: possibly).
pub(crate) fn set_text(c: &CProgram, a: &Flow, set: &[(LocId, bool)]) -> String {
    let names: Vec<String> = c
        .targets(a, set)
        .into_iter()
        .map(|t| {
            if t.definite {
                t.name
            } else {
                format!("{}?", t.name)
            }
        })
        .collect();
    format!("{{{}}}", names.join(", "))
}

/// ` (in N of M calling contexts)` when a finding happens in only some
/// of the contexts that reach it.
pub(crate) fn contexts_note(contexts: usize, reached: usize) -> String {
    if contexts < reached {
        format!(" (in {contexts} of {reached} calling contexts)")
    } else {
        String::new()
    }
}

/// The pointer's source text and the range to report: the dereferencing
/// expression when it can be found around the pointer, else the statement.
pub(crate) fn pointer_text(
    c: &CProgram,
    file: FileId,
    fs: &FunctionSource,
    f: &Function,
    stmt: StmtId,
    place: Option<&Place>,
    value: &Rvalue,
) -> (String, Range) {
    let stmt_range = fs.stmts.get(stmt.0 as usize).copied().unwrap_or(fs.range);
    let Some(place) = place else {
        let what = match value {
            Rvalue::Null => "NULL",
            _ => "the argument",
        };
        return (what.into(), stmt_range);
    };
    // The pointer expression the source map records for this place, in
    // this statement.
    let expr = fs
        .exprs
        .iter()
        .filter(|e| {
            e.place == *place
                && e.point.stmt() == stmt
                && stmt_range.start <= e.range.start
                && e.range.end <= stmt_range.end
        })
        .min_by_key(|e| e.range.len());
    if let Some(e) = expr {
        return (c.text(file, e.range).to_string(), e.range);
    }
    let name = match (&place.base, place.path.is_empty()) {
        (Base::Var(v), true) => {
            let var = f.var(*v);
            match var.kind {
                VarKind::Temp => fs
                    .vars
                    .get(v.0 as usize)
                    .map(|r| c.text(file, *r).to_string())
                    .unwrap_or_else(|| var.name.to_string()),
                _ => var.name.to_string(),
            }
        }
        (Base::Global(g), true) => g.split('@').next().unwrap_or(g).to_string(),
        _ => c.text(file, stmt_range).to_string(),
    };
    (name, stmt_range)
}

#[allow(clippy::too_many_arguments)]
fn diagnostic(
    c: &CProgram,
    a: &mut Flow,
    file: FileId,
    fs: &FunctionSource,
    f: &Function,
    finding: &Finding,
    units: &[pointee_flow::UnitId],
    (pointer, range): &(String, Range),
) -> Diagnostic {
    let (site, bad, code) = (&finding.site, finding.bad, finding.code);
    let set = set_text(c, a, &finding.targets);
    let certainty = if finding.definite { "is" } else { "may be" };
    let what = match bad {
        Bad::Null => "NULL",
        Bad::Uninit => "uninitialised",
        Bad::Freed => "freed",
        Bad::Dangling => "a pointer to a returned function's local",
        Bad::NotHeap => "not heap memory",
    };
    let action = match &site.how {
        Use::Deref => "dereferenced".to_string(),
        Use::Call => "called".to_string(),
        Use::LibArg(n) => format!("passed to `{n}`, which dereferences it"),
        Use::Free => "freed".to_string(),
    };
    let contexts = contexts_note(finding.contexts.len(), finding.reached);
    let message = format!(
        "`{pointer}` {certainty} {what} where it is {action}: it points to {set}{contexts}"
    );
    let mut related = origins(a, units, file, fs, f, finding, pointer);
    related.extend(context_witness(c, a, units));
    Diagnostic {
        range: FileRange {
            file,
            range: *range,
        },
        severity: if finding.definite {
            Severity::Error
        } else {
            Severity::Warning
        },
        code: code.into(),
        message,
        related,
    }
}

/// Where the bad value may come from, in the function: assignments of the
/// pointer from `NULL` or from a call that may return `NULL`, and for freed
/// memory the `free` calls and the calls whose callee frees the object
/// (`freeing_calls`).
fn origins(
    a: &Flow,
    units: &[pointee_flow::UnitId],
    file: FileId,
    fs: &FunctionSource,
    f: &Function,
    finding: &Finding,
    pointer: &str,
) -> Vec<Related> {
    let (site, bad, targets) = (&finding.site, finding.bad, &finding.targets[..]);
    let mut out = Vec::new();
    let at = |s: StmtId| {
        fs.stmts
            .get(s.0 as usize)
            .map(|&range| FileRange { file, range })
    };
    let held = holders(f, site.place.as_ref());
    let ptr = |p: &Place| held.contains(p);
    for_each_basic(&f.body, &mut |stmt, b| {
        if stmt.0 >= site.stmt.0 && bad != Bad::Freed {
            // Assignments after the use may still reach it around a loop;
            // listing those before it keeps the witness short.
            return;
        }
        let Some(range) = at(stmt) else { return };
        match (bad, b) {
            (
                Bad::Null,
                Basic::Assign {
                    lhs,
                    rhs: Rvalue::Null,
                },
            ) if ptr(lhs) => {
                out.push(Related {
                    range,
                    message: format!("`{pointer}` is set to NULL here"),
                });
            }
            (
                Bad::Null,
                Basic::Call {
                    lhs: Some(lhs),
                    callee: Callee::Direct(n),
                    ..
                },
            ) if ptr(lhs) && may_return_null(n) => {
                out.push(Related {
                    range,
                    message: format!("`{n}` may return NULL here"),
                });
            }
            (
                Bad::Freed,
                Basic::Call {
                    callee: Callee::Direct(n),
                    ..
                },
            ) if matches!(&**n, "free" | "cfree" | "realloc") && stmt != site.stmt => {
                out.push(Related {
                    range,
                    message: format!("`{n}` may free the memory here"),
                });
            }
            _ => {}
        }
    });
    if bad == Bad::Freed {
        out.extend(freeing_calls(a, units, file, fs, site, targets));
    }
    out
}

/// The pointer's place and the places copied into it through temporaries
/// (`t1 = malloc(n); p = t1`: the front end puts a call's result in a
/// temporary first; `t3 = q + 1; *t3`: an element's address), so the
/// witness finds where the value was made.
fn holders(f: &Function, ptr: Option<&Place>) -> Vec<Place> {
    let temp = |p: &Place| {
        !p.deref
            && p.path.is_empty()
            && matches!(p.base, Base::Var(v) if f.var(v).kind == VarKind::Temp)
    };
    let mut held: Vec<Place> = ptr.into_iter().cloned().collect();
    loop {
        let before = held.len();
        for_each_basic(&f.body, &mut |_, b| {
            if let Basic::Assign {
                lhs,
                rhs: Rvalue::Use(q) | Rvalue::Cast(q, _) | Rvalue::Offset(q, ..),
            } = b
            {
                if (temp(q) || temp(lhs)) && held.contains(lhs) && !held.contains(q) {
                    held.push(q.clone());
                }
            }
        });
        if held.len() == before {
            return held;
        }
    }
}

/// The calls of the function (in one of `units`) whose callee, or one
/// below it, frees one of `targets`: its unit's output marks the object
/// freed (the engine's `freed -> o`, which the caller applies at unmap).
fn freeing_calls(
    a: &Flow,
    units: &[pointee_flow::UnitId],
    file: FileId,
    fs: &FunctionSource,
    site: &Site,
    targets: &[(LocId, bool)],
) -> Vec<Related> {
    let mut calls: BTreeMap<StmtId, pointee_ir::Name> = BTreeMap::new();
    for &u in units {
        for ((stmt, callee), edge) in &a.unit(u).calls {
            let Some(cu) = edge.unit.filter(|_| *stmt != site.stmt) else {
                continue;
            };
            let frees = a.unit(cu).output.as_ref().is_some_and(|out| {
                out.targets(FREED)
                    .iter()
                    .any(|m| targets.iter().any(|t| t.0 == m.dst))
            });
            if frees {
                calls.entry(*stmt).or_insert_with(|| callee.clone());
            }
        }
    }
    calls
        .into_iter()
        .filter_map(|(stmt, callee)| {
            let range = *fs.stmts.get(stmt.0 as usize)?;
            Some(Related {
                range: FileRange { file, range },
                message: format!("`{callee}` may free the memory here"),
            })
        })
        .collect()
}

/// Whether the library function's result may be `NULL` by its effect
/// (the engine's model puts `NULL` in these results).
fn may_return_null(name: &str) -> bool {
    use pointee_flow::{CbRet, Effect::*};
    matches!(
        pointee_flow::library_effect(name),
        Some(
            Alloc
                | AllocZeroed
                | Realloc
                | RetArgOrAlloc(_)
                | RetInto(_)
                | Object(_)
                | Callback {
                    ret: CbRet::Into(_) | CbRet::Handler,
                    ..
                }
        )
    )
}

/// The calling contexts the defect happens in: for each (at most three), the
/// call that enters the function, with the chain from the entry.
pub(crate) fn context_witness(
    c: &CProgram,
    a: &mut Flow,
    units: &[pointee_flow::UnitId],
) -> Vec<Related> {
    let mut out = Vec::new();
    for &u in units.iter().take(3) {
        for path in a.chain_paths(u, 1) {
            if path.len() < 2 {
                continue;
            }
            let chain = c.chain(a, &path).join(" > ");
            let (caller, _) = path[path.len() - 2];
            let (_, Some(via)) = path[path.len() - 1] else {
                continue;
            };
            let caller = a.func_name(caller).clone();
            let Some((file, fs)) = c.function_source(&caller) else {
                continue;
            };
            let Some(&range) = fs.stmts.get(via.0 as usize) else {
                continue;
            };
            out.push(Related {
                range: FileRange { file, range },
                message: format!("in the calling context {chain}"),
            });
        }
    }
    out
}
