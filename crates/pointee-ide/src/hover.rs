//! Hover: the points-to set of the innermost pointer (C) or
//! reference-typed (Java) expression at a position, merged over calling
//! contexts (a target is definite only if definite in every context) and
//! per context.

use crate::c::{CProgram, Flow};
use crate::java::JavaProgram;
use crate::{Analysis, ContextTargets, FilePosition, FileRange, Hover};
use pointee_cspta::PtSet;
use pointee_ir::Base;
use std::collections::BTreeSet;

pub(crate) fn hover(a: &Analysis, pos: FilePosition) -> Option<Hover> {
    if let Some(c) = CProgram::of(a, pos.file) {
        return c_hover(&c, pos);
    }
    java_hover(&JavaProgram::of(a, pos.file)?, pos)
}

fn c_hover(c: &CProgram, pos: FilePosition) -> Option<Hover> {
    let (fs, e) = c.source(pos.file).expr_at(pos.offset)?;
    let function = c.program_name(pos.file, &fs.name);
    let engine = c.engine()?;
    let range = FileRange {
        file: pos.file,
        range: e.range,
    };
    engine.with(|_, a| {
        let rv = c.rvalue(pos.file, &e.place);
        let per = a.values_at(&function, e.point, &rv);
        let merged = Flow::merge_values(&per);
        let mut contexts = Vec::new();
        let mut extra = true;
        let mut merged_by_bound = false;
        for cv in &per {
            let Some(t) = &cv.targets else { continue };
            extra &= a.extra_only(cv.unit);
            merged_by_bound |= a.unit(cv.unit).merged;
            // One entry per call chain that reaches this context (a shared
            // memoized context has several).
            for path in a.chain_paths(cv.unit, 8) {
                let chain = c.chain(a, &path);
                let targets = c.chain_targets(a, &path, t);
                contexts.push(ContextTargets { chain, targets });
            }
        }
        Some(Hover {
            expr: c.text(pos.file, e.range).to_string(),
            range,
            reachable: merged.is_some(),
            merged: merged_by_bound,
            extra_entry: merged.is_some() && extra,
            targets: merged.map(|m| c.targets(a, &m)).unwrap_or_default(),
            contexts,
        })
    })
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
        extra_entry: false,
        targets: j.targets(&merged),
        contexts,
    })
}
