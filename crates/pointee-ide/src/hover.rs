//! Hover: the points-to set of the innermost pointer (C) or
//! reference-typed (Java) expression at a position, merged over calling
//! contexts (a target is definite only if definite in every context) and
//! per context.

use crate::c::{CProgram, Flow};
use crate::java::JavaProgram;
use crate::program::Program;
use crate::{
    Analysis, Callee, ContextTargets, FileId, FilePosition, FileRange, Hover, Target, TargetKind,
};
use pointee_cspta::PtSet;
use pointee_flow::ContextValues;
use pointee_ir::Base;
use pointee_ir::Range;
use std::collections::BTreeSet;

pub(crate) fn hover(a: &Analysis, pos: FilePosition) -> Option<Hover> {
    match Program::of(a, pos.file)? {
        Program::C(c) => c_hover(&c, pos),
        Program::Java(j) => java_hover(&j, pos),
    }
}

fn c_hover(c: &CProgram, pos: FilePosition) -> Option<Hover> {
    // In a header, every includer's copy of the function (each unit
    // compiles its own `static inline` one): their contexts are merged.
    let copies: Vec<_> = c
        .copies(pos.file)
        .into_iter()
        .filter_map(|(unit, map)| {
            let (fs, e) = map.expr_at(pos.offset)?;
            Some((c.program_name(unit, &fs.name), e, c.rvalue(unit, &e.place)))
        })
        .collect();
    let e = copies.first()?.1;
    let engine = c.engine()?;
    let (targets, contexts, reachable, (merged, merged_in_cycle, partial), extra) =
        engine.with(|_, a| {
            let mut per_copy: Vec<Vec<ContextValues>> = copies
                .iter()
                .map(|(function, e, rv)| a.values_at(function, e.point, rv))
                .collect();
            // A copy only extra entries reach (a unit that includes the
            // header but never calls the function) is left out when an
            // entry reaches another copy, as an extra entry is only for
            // what no entry reaches.
            let reached = |per: &Vec<ContextValues>| {
                per.iter()
                    .any(|cv| cv.targets.is_some() && !a.extra_only(cv.unit))
            };
            if per_copy.iter().any(reached) {
                per_copy.retain(reached);
            }
            let per: Vec<ContextValues> = per_copy.into_iter().flatten().collect();
            let merged = Flow::merge_values(&per);
            let mut contexts = Vec::new();
            let mut extra = true;
            let mut merged_by_bound = false;
            let mut in_cycle = false;
            let mut partial = copies.iter().any(|(f, _, _)| a.is_incomplete(f));
            for cv in &per {
                partial |= a.unit(cv.unit).partial;
                let Some(t) = &cv.targets else { continue };
                extra &= a.extra_only(cv.unit);
                merged_by_bound |= a.unit(cv.unit).merged;
                in_cycle |= a.unit(cv.unit).in_cycle;
                // One entry per call chain that reaches this context (a shared
                // memoized context has several).
                for path in a.chain_paths(cv.unit, 8) {
                    let chain = c.chain(a, &path);
                    let targets = c.chain_targets(a, &path, t);
                    // Ordered as a walk of the invocation graph from the
                    // entries meets them, whatever units a run shared.
                    let key: Vec<_> = path.iter().map(|&(u, s)| (a.unit_number(u), s)).collect();
                    contexts.push((key, ContextTargets { chain, targets }));
                }
            }
            contexts.sort_by(|x, y| x.0.cmp(&y.0));
            let contexts: Vec<ContextTargets> = contexts.into_iter().map(|(_, c)| c).collect();
            let targets: Vec<Target> = merged.as_ref().map(|m| c.targets(a, m)).unwrap_or_default();
            (
                targets,
                contexts,
                merged.is_some(),
                (merged_by_bound, in_cycle, partial),
                extra,
            )
        });
    Some(Hover {
        expr: c.text(pos.file, e.range).to_string(),
        range: FileRange {
            file: pos.file,
            range: e.range,
        },
        reachable,
        merged,
        merged_in_cycle,
        partial,
        extra_entry: reachable && extra,
        may_call: may_call(c, pos.file, e.range, &targets),
        targets,
        contexts,
    })
}

/// On the callee of a call (`fp` in `fp(x)` or `(*fp)(x)`): that call's
/// callees, the one answer `callees` gives; on another function pointer,
/// the functions it points to.
fn may_call(c: &CProgram, file: FileId, expr: Range, targets: &[Target]) -> Vec<Callee> {
    let p = Program::C(c.clone());
    let call = p.callees_in_copies(file, |m| {
        m.functions
            .iter()
            .flat_map(|fs| fs.calls.iter().map(move |call| (fs, call)))
            .filter(|(_, call)| {
                call.callee_range.start <= expr.start && expr.end <= call.callee_range.end
            })
            .min_by_key(|(_, call)| call.callee_range.len())
    });
    if let Some(callees) = call {
        return callees;
    }
    targets
        .iter()
        .filter(|t| t.kind == TargetKind::Function)
        .map(|t| Callee {
            name: t.name.clone(),
            decl: t.decl,
        })
        .collect()
}

fn java_hover(j: &JavaProgram, pos: FilePosition) -> Option<Hover> {
    let sm = j.source_map(pos.file)?;
    let pta = j.pta?;
    // The innermost reference-typed expression at the cursor, in every
    // function that holds it (field initialisers are in every constructor).
    let range = sm.expr_at(pos.offset)?.1.range;
    let mut merged = PtSet::new();
    let mut contexts = Vec::new();
    let mut reachable = false;
    let mut seen: BTreeSet<(String, Vec<String>)> = BTreeSet::new();
    for fs in &sm.functions {
        for e in fs.exprs.iter().filter(|e| e.range == range) {
            if let (Base::Global(_), false, true) =
                (&e.place.base, e.place.deref, e.place.path.is_empty())
            {
                merged.union_with(&j.place_pts(0, &e.place));
                reachable = true;
                continue;
            }
            let Some(m) = pta.method(&fs.name) else {
                continue;
            };
            for &mc in pta.contexts_of(m) {
                reachable = true;
                let set = j.place_pts(mc, &e.place);
                merged.union_with(&set);
                let chain = j.ctx_labels(pta.reached[mc as usize].ctx);
                if seen.insert((fs.name.to_string(), chain.clone())) {
                    contexts.push(ContextTargets {
                        chain,
                        targets: j.targets(&set),
                    });
                }
            }
        }
    }
    contexts.sort_by(|a, b| a.chain.cmp(&b.chain));
    Some(Hover {
        expr: j.text(pos.file, range),
        range: FileRange {
            file: pos.file,
            range,
        },
        reachable,
        merged: false,
        merged_in_cycle: false,
        partial: false,
        extra_entry: false,
        targets: j.targets(&merged),
        contexts,
        may_call: Vec::new(),
    })
}
