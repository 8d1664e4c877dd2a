//! The newest object of an allocation site, kept apart from the site's
//! summary (a recency abstraction, limited to one body between calls).
//!
//! `p = malloc(..)` makes `p` point to `Fresh(site)`, one object, so that
//! `p->next = head` is a strong update. The next allocation at the site, any
//! call to a function with a body, and the function's exit *demote* it:
//! its facts merge (possibly) into the site's summary and pointers to it
//! point to the summary. Callees and callers therefore never see a fresh
//! object, and map/unmap need not know about it.
//!
//! Heap objects are also named by the calls that made them
//! ([`name_by_call`]): a summary `heap@f#s` that a callee's output holds and
//! its input did not (made during the call) is renamed, at the call's
//! unmap, `heap@f#s<g#c>` after the call site `c` in `g`, up to
//! `Settings::heap_context` call sites; a call site inside an allocation
//! wrapper (a callee that returns the object) gives way to its caller's
//! when the calls are full. Units stay keyed by their input alone: the
//! renaming is the caller's, per call.

use crate::facts::{Fact, Facts};
use crate::fxhash::FxHashMap as HashMap;
use crate::loc::{LocId, Locs, Root, NULL};
use pointee_ir::{Name, SiteId};
use std::sync::Arc;

/// The site's summary for a fresh root (`Heap(o, s)` with no calls yet),
/// zeroed when the fresh object is.
pub fn summary_of(locs: &mut Locs, fresh: LocId) -> Option<LocId> {
    let Root::Fresh(o, s) = locs.get(fresh).root.clone() else {
        return None;
    };
    let summary = locs.root(Root::Heap(o, s, Arc::from([])));
    if locs.zeroed.contains(&fresh) {
        locs.zeroed.insert(summary);
    }
    Some(summary)
}

/// The call being unmapped, for [`name_by_call`]: the call site (the
/// caller, the call's site), the callee's name and the root of its return
/// slot (`None` for a `void` callee).
pub struct CallNaming<'a> {
    pub call: (&'a Name, SiteId),
    pub callee: &'a Name,
    pub ret: Option<LocId>,
}

/// Renames the heap objects a call made: every heap summary of the
/// callee's `output` that none of its `inputs` (the call's, and the one the
/// body ran with when a recursive or merged node generalised it) names
/// gets the call site as its outermost call, when its calls are fewer than
/// `depth`. An object whose calls are full, whose outermost call is a call
/// the callee made and which the callee returns (its return slot points to
/// it) has that outermost call *replaced* by this call site: the callee is
/// an allocation wrapper for it (`new_node` returning what its call of
/// `xmalloc` made), and its own call site in the wrapper tells the
/// wrapper's callers' objects nothing apart. `None` when nothing is renamed.
///
/// Why only what the inputs do not name: an object the caller passed
/// (or one of the same name, which then stands for both) is the caller's
/// too, whose other facts the caller keeps under the old name; an object
/// made during the call is new to the caller, and every object of that
/// name made during this call was made through this call site. The
/// renamed objects are still summaries (a call in a loop makes many), so
/// this never makes a fact definite; it keeps two calls' objects apart.
/// Replacing may give two of the output's roots one name (the wrapper made
/// two objects and may return either): they merge, duplicates definite
/// only if definite in both, as for any summary.
pub fn name_by_call(
    locs: &mut Locs,
    inputs: &[&Facts],
    output: &Facts,
    at: &CallNaming,
    depth: usize,
) -> Option<Facts> {
    if depth == 0 {
        return None;
    }
    let heap = |locs: &Locs, l: LocId| {
        let r = locs.get(l).root_id;
        matches!(&locs.get(r).root, Root::Heap(..)).then_some(r)
    };
    let mut new: HashMap<LocId, LocId> = HashMap::default();
    for f in output.iter() {
        for l in [f.src, f.dst] {
            if let Some(r) = heap(locs, l) {
                new.insert(r, r);
            }
        }
    }
    if new.is_empty() {
        return None;
    }
    for f in inputs.iter().flat_map(|i| i.iter()) {
        for l in [f.src, f.dst] {
            if let Some(r) = heap(locs, l) {
                new.remove(&r);
            }
        }
    }
    if new.is_empty() {
        return None;
    }
    let returned: Vec<LocId> = match at.ret {
        None => Vec::new(),
        Some(ret) => output
            .iter()
            .filter(|f| locs.get(f.src).root_id == ret)
            .filter_map(|f| heap(locs, f.dst))
            .collect(),
    };
    let mut renamed = false;
    for (&old, to) in new.iter_mut() {
        let Root::Heap(o, s, ctx) = locs.get(old).root.clone() else {
            unreachable!("only heap roots are collected");
        };
        let mut calls = ctx.to_vec();
        if calls.len() < depth {
            calls.push((at.call.0.clone(), at.call.1));
        } else if calls.last().is_some_and(|c| &c.0 == at.callee) && returned.contains(&old) {
            *calls.last_mut().unwrap() = (at.call.0.clone(), at.call.1);
        } else {
            continue;
        }
        *to = locs.root(Root::Heap(o, s, calls.into()));
        if locs.zeroed.contains(&old) {
            locs.zeroed.insert(*to);
        }
        renamed = true;
    }
    if !renamed {
        return None;
    }
    let mut moved: HashMap<LocId, LocId> = HashMap::default();
    let mut rename = |locs: &mut Locs, l: LocId| {
        let r = locs.get(l).root_id;
        match new.get(&r) {
            Some(&to) if to != r => *moved.entry(l).or_insert_with(|| locs.rebase(l, to)),
            _ => l,
        }
    };
    let out: Vec<Fact> = output
        .iter()
        .map(|f| Fact {
            src: rename(locs, f.src),
            dst: rename(locs, f.dst),
            def: f.def,
        })
        .collect();
    Some(Facts::from_unsorted(out))
}

/// Demotes the fresh object of `only` (a fresh root), or every fresh
/// object.
pub fn demote(locs: &mut Locs, st: &mut Facts, only: Option<LocId>) {
    let fresh = |locs: &Locs, l: LocId| {
        let r = locs.get(l).root_id;
        matches!(locs.get(r).root, Root::Fresh(..)) && only.is_none_or(|o| o == r)
    };
    let touched: Vec<LocId> = st
        .iter()
        .flat_map(|f| [f.src, f.dst])
        .filter(|&l| fresh(locs, l))
        .collect();
    if touched.is_empty() {
        return;
    }
    let mut old: HashMap<LocId, LocId> = HashMap::default();
    for l in touched {
        if old.contains_key(&l) {
            continue;
        }
        let d = locs.get(l);
        let (root, path) = (d.root_id, d.path.clone());
        let Some(summary) = summary_of(locs, root) else {
            continue;
        };
        old.insert(l, locs.with_path(summary, &path));
    }
    let mut out: Vec<Fact> = Vec::with_capacity(st.len());
    for f in st.iter() {
        let src = old.get(&f.src).copied().unwrap_or(f.src);
        let dst = old.get(&f.dst).copied().unwrap_or(f.dst);
        let moved = src != f.src;
        out.push(Fact {
            src,
            dst,
            def: f.def && !moved && !locs.is_summary(src),
        });
        // A zeroed site's other objects may still hold NULL there.
        if moved && locs.zeroed.contains(&locs.get(src).root_id) {
            out.push(Fact {
                src,
                dst: NULL,
                def: false,
            });
        }
    }
    *st = Facts::from_unsorted(out);
}
