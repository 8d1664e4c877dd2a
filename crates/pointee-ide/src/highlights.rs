//! Document highlight: every occurrence of the pointer under the cursor
//! (the same variable or field path) in its function, and the pointer
//! expressions that may point where it points (aliasing in the sense of the
//! alias checks: NULL, uninitialised, freed, dangling and unknown make no
//! alias). Occurrences and must-aliases are Read or Write by how the syntax
//! accesses them, may-aliases Text.
//!
//! C: must-aliases have the same one definite target. Java (the analysis
//! is flow-insensitive): may-aliases hold a common object.

use crate::c::{CProgram, Flow};
use crate::java::JavaProgram;
use crate::{Analysis, FileId, FilePosition, Highlight, HighlightKind};
use pointee_flow::LocId;
use pointee_ir::{ExprInfo, Point};

pub(crate) fn highlights(a: &Analysis, pos: FilePosition) -> Vec<Highlight> {
    if let Some(c) = CProgram::of(a, pos.file) {
        return c_highlights(a, &c, pos).unwrap_or_default();
    }
    JavaProgram::of(a, pos.file)
        .and_then(|j| java_highlights(a, &j, pos))
        .unwrap_or_default()
}

/// Inside a function a header defines, every includer's copy adds what it
/// finds (the copies' expressions are at the same places).
fn c_highlights(an: &Analysis, c: &CProgram, pos: FilePosition) -> Option<Vec<Highlight>> {
    let copies: Vec<_> = c
        .copies(pos.file)
        .into_iter()
        .filter_map(|(unit, source)| {
            let (fs, cur) = source
                .functions
                .iter()
                .flat_map(|fs| fs.exprs.iter().enumerate().map(move |(i, e)| (fs, i, e)))
                .filter(|(_, _, e)| e.range.touches(pos.offset))
                .min_by_key(|(_, _, e)| e.range.len())
                .map(|(fs, i, _)| (fs, i))?;
            Some((unit, fs, cur))
        })
        .collect();
    if copies.is_empty() {
        return None;
    }
    let engine = c.engine()?;
    engine.with(|_, a| {
        let mut out: Vec<Highlight> = Vec::new();
        for (unit, fs, cur) in copies {
            copy_highlights(an, c, a, pos.file, unit, fs, cur, &mut out);
        }
        out.sort_by_key(|h| h.range.start);
        Some(out)
    })
}

/// The highlights of expression `cur` of `fs` in one copy (named as
/// `unit` names it), added to `out`.
#[allow(clippy::too_many_arguments)]
fn copy_highlights(
    an: &Analysis,
    c: &CProgram,
    a: &mut Flow,
    file: FileId,
    unit: FileId,
    fs: &pointee_ir::FunctionSource,
    cur: usize,
    out: &mut Vec<Highlight>,
) {
    let function = c.program_name(unit, &fs.name);
    // Each expression's targets: (objects, with their definite flag;
    // the one object it definitely points to and nothing else).
    let values: Vec<Option<(Vec<LocId>, Option<LocId>)>> = fs
        .exprs
        .iter()
        .map(|e| {
            let per = a.values_at(&function, e.point, &c.rvalue(unit, &e.place));
            Flow::merge_values(&per).map(|set| {
                let objects = |&&(l, _): &&(LocId, bool)| !CProgram::kind(a, l).is_special();
                let single = match set.as_slice() {
                    [(l, true)] if objects(&&set[0]) => Some(*l),
                    _ => None,
                };
                (set.iter().filter(objects).map(|t| t.0).collect(), single)
            })
        })
        .collect();
    let here = &fs.exprs[cur].place;
    let (mine, my_single) = match values.get(cur) {
        Some(Some((mine, single))) => (&mine[..], *single),
        _ => (&[][..], None),
    };
    for (e, v) in fs.exprs.iter().zip(&values) {
        // Every occurrence of the same pointer, reached or not.
        if e.place == *here {
            push(an, file, out, e, true);
            continue;
        }
        let Some((v, single)) = v else { continue };
        if !v.iter().any(|l| mine.contains(l)) {
            continue;
        }
        let must = my_single.is_some() && *single == my_single;
        push(an, file, out, e, must);
    }
}

/// Adds a highlight: an occurrence or must-alias is Read or Write by how
/// the syntax accesses it (by its program point where the syntax cannot
/// say), a may-alias is Text; the same expression read and written keeps
/// Write.
fn push(a: &Analysis, file: FileId, out: &mut Vec<Highlight>, e: &ExprInfo, must: bool) {
    let written = || {
        crate::syntax::is_written(a, file, e.range).unwrap_or(matches!(e.point, Point::After(_)))
    };
    let kind = match must {
        false => HighlightKind::Text,
        true if written() => HighlightKind::Write,
        true => HighlightKind::Read,
    };
    match out.iter_mut().find(|h| h.range == e.range) {
        Some(h) => {
            if kind == HighlightKind::Write || h.kind == HighlightKind::Text {
                h.kind = kind;
            }
        }
        None => out.push(Highlight {
            range: e.range,
            kind,
        }),
    }
}

fn java_highlights(a: &Analysis, j: &JavaProgram, pos: FilePosition) -> Option<Vec<Highlight>> {
    let sm = j.source_map(pos.file)?;
    let (fs, cur) = sm.expr_at(pos.offset)?;
    let mine = j.objects(&fs.name, &cur.place).unwrap_or_default();
    let mut out: Vec<Highlight> = Vec::new();
    for e in &fs.exprs {
        let must = e.place == cur.place;
        if !must {
            let theirs = j.objects(&fs.name, &e.place).unwrap_or_default();
            if !theirs.intersects(&mine) {
                continue;
            }
        }
        push(a, pos.file, &mut out, e, must);
    }
    out.sort_by_key(|h| h.range.start);
    Some(out)
}
