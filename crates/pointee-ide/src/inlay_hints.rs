//! Inlay hints: after each pointer assignment in a range (the target of an
//! assignment, or a declarator with an initialiser, whose type is a
//! pointer or a reference: never an integer, a read or a subexpression's
//! value), what the assigned pointer points to afterwards. C: `→ {x, y?}`
//! (`?` marks a possible target), contexts merged; Java: `→ {new A at
//! 12}`, the allocation sites the variable or field may hold (contexts
//! merged).

use crate::c::CProgram;
use crate::java::JavaProgram;
use crate::{Analysis, FileId, FileRange, InlayHint};
use pointee_ir::{ExprInfo, FunctionSource, Point, Range, Type};
use std::collections::BTreeSet;

pub(crate) fn inlay_hints(a: &Analysis, range: FileRange) -> Vec<InlayHint> {
    let mut out = if let Some(c) = CProgram::of(a, range.file) {
        c_hints(a, &c, range)
    } else if let Some(j) = JavaProgram::of(a, range.file) {
        java_hints(a, &j, range)
    } else {
        Vec::new()
    };
    out.sort_by_key(|h| h.offset);
    out.dedup_by_key(|h| h.offset);
    out
}

/// The pointers assigned inside `range` of `file`, with the offset of the
/// hint: the end of the statement that writes them.
fn written<'a>(
    a: &'a Analysis,
    file: FileId,
    fs: &'a FunctionSource,
    range: Range,
) -> impl Iterator<Item = (&'a ExprInfo, u32)> + 'a {
    fs.exprs
        .iter()
        .filter(move |e| {
            matches!(e.point, Point::After(_))
                && matches!(e.ty, Type::Pointer(_) | Type::Class(_))
                && e.range.start >= range.start
                && e.range.end <= range.end
                && crate::syntax::is_written(a, file, e.range) == Some(true)
        })
        .map(|e| {
            let stmt_end = fs
                .stmts
                .get(e.point.stmt().0 as usize)
                .map(|r| r.end)
                .unwrap_or(e.range.end);
            (e, stmt_end.max(e.range.end))
        })
}

fn overlaps(fs: &FunctionSource, range: Range) -> bool {
    fs.range.end >= range.start && fs.range.start <= range.end
}

fn c_hints(an: &Analysis, c: &CProgram, range: FileRange) -> Vec<InlayHint> {
    let Some(engine) = c.engine() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for fs in &c.source(range.file).functions {
        if !overlaps(fs, range.range) {
            continue;
        }
        let function = c.program_name(range.file, &fs.name);
        engine.with(|_, a| {
            for (e, at) in written(an, range.file, fs, range.range) {
                let per = a.values_at(&function, e.point, &c.rvalue(range.file, &e.place));
                let Some(set) = pointee_flow::Analysis::merge_values(&per) else {
                    continue;
                };
                let mut v: Vec<(String, bool)> = set.iter().map(|&(l, d)| (a.name(l), d)).collect();
                v.sort();
                let label = v
                    .iter()
                    .map(|(n, d)| if *d { n.clone() } else { format!("{n}?") })
                    .collect::<Vec<_>>()
                    .join(", ");
                out.push(InlayHint {
                    offset: at,
                    label: format!("→ {{{label}}}"),
                });
            }
        });
    }
    out
}

fn java_hints(a: &Analysis, j: &JavaProgram, range: FileRange) -> Vec<InlayHint> {
    let (Some(sm), Some(pta)) = (j.source_map(range.file), j.pta) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for fs in sm.functions.iter().filter(|fs| overlaps(fs, range.range)) {
        for (e, at) in written(a, range.file, fs, range.range) {
            let Some(objs) = j.objects(&fs.name, &e.place) else {
                continue;
            };
            // Allocation sites, heap contexts dropped.
            let sites: BTreeSet<(String, u32, String, bool)> = objs
                .iter()
                .filter_map(|o| {
                    let (_, alloc) = *pta.objs.get(o as usize)?;
                    let al = pta.facts.allocs.get(alloc as usize)?;
                    let method = pta.facts.method_names.get(al.method as usize)?;
                    Some((method.clone(), al.site, al.class.clone(), al.is_string))
                })
                .collect();
            let labels: Vec<String> = sites
                .iter()
                .map(|(method, site, class, is_string)| {
                    let what = if *is_string {
                        "string".to_string()
                    } else {
                        format!("new {class}")
                    };
                    let line = j.function_source(method).and_then(|(file, fs)| {
                        Some(j.line(file, fs.sites.get(*site as usize)?.range.start))
                    });
                    match line {
                        Some(line) => format!("{what} at {line}"),
                        None => what,
                    }
                })
                .collect();
            out.push(InlayHint {
                offset: at,
                label: format!("→ {{{}}}", labels.join(", ")),
            });
        }
    }
    out
}
