//! Document highlight: the pointer expressions of the function at the
//! cursor that may point where the one under the cursor points (aliasing in
//! the sense of the alias checks: NULL, uninitialised, freed, dangling and
//! unknown make no alias). Must-aliases are Read or Write by how they are
//! accessed, may-aliases Text.
//!
//! C: must-aliases have the same one definite target. Java (the analysis
//! is flow-insensitive): must-aliases are the occurrences of the same
//! variable or field path; may-aliases hold a common object.

use crate::c::{CProgram, Flow};
use crate::java::JavaProgram;
use crate::{Analysis, FilePosition, Highlight, HighlightKind};
use pointee_flow::LocId;
use pointee_ir::{Point, Range};

pub(crate) fn highlights(a: &Analysis, pos: FilePosition) -> Vec<Highlight> {
    if let Some(c) = CProgram::of(a, pos.file) {
        return c_highlights(&c, pos).unwrap_or_default();
    }
    JavaProgram::of(a, pos.file)
        .and_then(|j| java_highlights(&j, pos))
        .unwrap_or_default()
}

fn c_highlights(c: &CProgram, pos: FilePosition) -> Option<Vec<Highlight>> {
    let source = c.source(pos.file);
    let (fs, cur) = source
        .functions
        .iter()
        .flat_map(|fs| fs.exprs.iter().enumerate().map(move |(i, e)| (fs, i, e)))
        .filter(|(_, _, e)| e.range.touches(pos.offset))
        .min_by_key(|(_, _, e)| e.range.len())
        .map(|(fs, i, _)| (fs, i))?;
    let function = c.program_name(pos.file, &fs.name);
    let engine = c.engine()?;
    engine.with(|_, a| {
        // Each expression's targets: (objects, with their definite flag;
        // the one object it definitely points to and nothing else).
        let values: Vec<Option<(Vec<LocId>, Option<LocId>)>> = fs
            .exprs
            .iter()
            .map(|e| {
                let per = a.values_at(&function, e.point, &c.rvalue(pos.file, &e.place));
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
        let (mine, my_single) = values.get(cur)?.as_ref()?;
        let mut out: Vec<Highlight> = Vec::new();
        for (i, (e, v)) in fs.exprs.iter().zip(&values).enumerate() {
            let Some((v, single)) = v else { continue };
            let common = v.iter().any(|l| mine.contains(l));
            if !common && i != cur {
                continue;
            }
            let must = i == cur || (my_single.is_some() && single == my_single);
            push(&mut out, e.range, must, e.point);
        }
        out.sort_by_key(|h| h.range.start);
        Some(out)
    })
}

/// Adds a highlight: a must-alias is Read or Write by its program point, a
/// may-alias is Text; the same expression read and written keeps Write.
fn push(out: &mut Vec<Highlight>, range: Range, must: bool, point: Point) {
    let kind = match (must, point) {
        (false, _) => HighlightKind::Text,
        (true, Point::After(_)) => HighlightKind::Write,
        (true, Point::Before(_)) => HighlightKind::Read,
    };
    match out.iter_mut().find(|h| h.range == range) {
        Some(h) => {
            if kind == HighlightKind::Write {
                h.kind = kind;
            }
        }
        None => out.push(Highlight { range, kind }),
    }
}

fn java_highlights(j: &JavaProgram, pos: FilePosition) -> Option<Vec<Highlight>> {
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
        push(&mut out, e.range, must, e.point);
    }
    out.sort_by_key(|h| h.range.start);
    Some(out)
}
