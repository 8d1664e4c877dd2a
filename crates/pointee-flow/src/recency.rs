//! The newest object of an allocation site, kept apart from the site's
//! summary (a recency abstraction).
//!
//! `p = malloc(..)` makes `p` point to `Fresh(site)`, one object, so that
//! `p->next = head` is a strong update. The next allocation of its name
//! and a call that can reach it *demote* it: its facts merge (possibly)
//! into the summary of its name and pointers to it point to the summary.
//! A callee therefore never sees a newest object (memo keys are as
//! before), but one it cannot reach stays newest across the call; and the
//! exit keeps them, so what a callee made and returns is the caller's
//! newest object of its name (`mkCell`'s `c->name = NULL; return c;`,
//! then the caller's `c->name = s` is a strong update).
//!
//! Heap objects are also named by the calls that made them
//! ([`name_by_call`]): a summary `heap@f#s` that a callee's output holds and
//! its input did not (made during the call) is renamed, at the call's
//! unmap, `heap@f#s<g#c>` after the call site `c` in `g`, up to
//! `Settings::heap_context` call sites; a call site inside an allocation
//! wrapper (a callee that returns the object) gives way to its caller's
//! when the calls are full. The newest object of a name is renamed with
//! its summary. Units stay keyed by their input alone: the renaming is the
//! caller's, per call.
//!
//! Why a newest object may outlive a call: the recency abstraction needs
//! only that a newest root stands for exactly one object and its summary
//! for the others of its name. A callee that cannot reach the object
//! cannot change it, and an object the call made under the same name
//! (a call in a loop) takes the name: the caller's older one joins the
//! summary first ([`make_room`]). Two newest objects that would get one
//! name by renaming join the summary instead.

use crate::facts::{Fact, Facts};
use crate::fxhash::FxHashMap as HashMap;
use crate::loc::{LocId, Locs, Root, NULL};
use pointee_ir::{Name, SiteId};

/// The summary of a fresh root: the heap root of the same name, zeroed
/// when the fresh object is.
pub fn summary_of(locs: &mut Locs, fresh: LocId) -> Option<LocId> {
    let Root::Fresh(o, s, ctx) = locs.get(fresh).root.clone() else {
        return None;
    };
    let summary = locs.root(Root::Heap(o, s, ctx));
    if locs.zeroed.contains(&fresh) {
        locs.zeroed.insert(summary);
    }
    Some(summary)
}

/// The fresh roots that sources or targets of `st` lie in, sorted.
pub fn fresh_roots(locs: &Locs, st: &Facts) -> Vec<LocId> {
    let mut out: Vec<LocId> = st
        .iter()
        .flat_map(|f| [f.src, f.dst])
        .map(|l| locs.get(l).root_id)
        .filter(|&r| matches!(locs.get(r).root, Root::Fresh(..)))
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// Makes room in the caller's state for a call's `output` (in the caller's
/// names): a newest object of the caller's that the output has a newest
/// object of the same name too (made during the call, which could not
/// reach the caller's) joins its summary. The caller's facts *of* it are
/// taken out of `caller` and returned, in the summary's name, to be joined
/// to the state after the unmap (which replaces the summary's facts by the
/// output's when the callee could see the summary).
pub fn make_room(locs: &mut Locs, caller: &mut Facts, output: &Facts) -> Vec<Fact> {
    let theirs = fresh_roots(locs, output);
    if theirs.is_empty() {
        return Vec::new();
    }
    let clash: Vec<LocId> = fresh_roots(locs, caller)
        .into_iter()
        .filter(|r| theirs.binary_search(r).is_ok())
        .collect();
    if clash.is_empty() {
        return Vec::new();
    }
    let of_clash = |locs: &Locs, l: LocId| clash.binary_search(&locs.get(l).root_id).is_ok();
    let (own, rest): (Vec<Fact>, Vec<Fact>) = caller.iter().partition(|f| of_clash(locs, f.src));
    let (mut own, mut rest) = (Facts::from_unsorted(own), Facts::from_unsorted(rest));
    demote_where(locs, &mut rest, |r| clash.binary_search(&r).is_ok());
    demote_where(locs, &mut own, |r| clash.binary_search(&r).is_ok());
    *caller = rest;
    own.iter().copied().collect()
}

/// The call being unmapped, for [`name_by_call`]: the call site (the
/// caller, the call's site), the callee's name and the root of its return
/// slot (`None` for a `void` callee).
pub struct CallNaming<'a> {
    pub call: (&'a Name, SiteId),
    pub callee: &'a Name,
    pub ret: Option<LocId>,
}

/// Renames the heap objects a call made: every heap name (a summary and
/// its newest object) of the callee's `output` that none of its `inputs`
/// (the call's, and the one the body ran with when a recursive or merged
/// node generalised it) names gets the call site as its outermost call,
/// when its calls are fewer than `depth`. An object whose calls are full,
/// whose outermost call is a call the callee made and which the callee
/// returns (its return slot points to it) has that outermost call
/// *replaced* by this call site: the callee is an allocation wrapper for
/// it (`new_node` returning what its call of `xmalloc` made), and its own
/// call site in the wrapper tells the wrapper's callers' objects nothing
/// apart. `None` when nothing is renamed.
///
/// Why only what the inputs do not name: an object the caller passed
/// (or one of the same name, which then stands for both) is the caller's
/// too, whose other facts the caller keeps under the old name; an object
/// made during the call is new to the caller, and every object of that
/// name made during this call was made through this call site. A renamed
/// summary is still a summary (a call in a loop makes many), and a renamed
/// newest object is still the newest of its new name. Replacing may give
/// two of the output's names one name (the wrapper made two objects and
/// may return either): the summaries merge, duplicates definite only if
/// definite in both, as for any summary, and two newest objects join
/// their summaries first (one root stands for one object).
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
    // Every heap root of the output, with the summary of its name.
    let mut name_of: HashMap<LocId, LocId> = HashMap::default();
    for f in output.iter() {
        for l in [f.src, f.dst] {
            let r = locs.get(l).root_id;
            if !name_of.contains_key(&r) {
                if let Some(summary) = summary_root(locs, r) {
                    name_of.insert(r, summary);
                }
            }
        }
    }
    if name_of.is_empty() {
        return None;
    }
    // The names made during the call: no input names them.
    let mut new: HashMap<LocId, LocId> = name_of.values().map(|&n| (n, n)).collect();
    for f in inputs.iter().flat_map(|i| i.iter()) {
        for l in [f.src, f.dst] {
            let r = locs.get(l).root_id;
            if let Some(summary) = summary_root(locs, r) {
                new.remove(&summary);
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
            .filter_map(|f| {
                let r = locs.get(f.dst).root_id;
                name_of.get(&r).copied()
            })
            .collect(),
    };
    let mut renamed = false;
    for (&old, to) in new.iter_mut() {
        let Root::Heap(o, s, ctx) = locs.get(old).root.clone() else {
            unreachable!("names are summaries");
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
    // Every root's new root: a summary's from `new`; a newest object's the
    // newest of its summary's new name, unless two would share one.
    let mut to_root: HashMap<LocId, LocId> = HashMap::default();
    let mut fresh_to: HashMap<LocId, Vec<LocId>> = HashMap::default();
    for (&r, &summary) in &name_of {
        let Some(&to) = new.get(&summary).filter(|&&to| to != summary) else {
            if r != summary {
                fresh_to.entry(r).or_default().push(r); // keeps its name
            }
            continue;
        };
        if r == summary {
            to_root.insert(r, to);
            continue;
        }
        let Root::Heap(o, s, ctx) = locs.get(to).root.clone() else {
            unreachable!("names are summaries");
        };
        let fresh = locs.root(Root::Fresh(o, s, ctx));
        if locs.zeroed.contains(&r) {
            locs.zeroed.insert(fresh);
        }
        to_root.insert(r, fresh);
        fresh_to.entry(fresh).or_default().push(r);
    }
    let shared: Vec<LocId> = fresh_to
        .into_values()
        .filter(|olds| olds.len() > 1)
        .flatten()
        .collect();
    let mut output = output.clone();
    if !shared.is_empty() {
        demote_where(locs, &mut output, |r| shared.contains(&r));
        for r in &shared {
            to_root.remove(r);
        }
        // A demoted one's summary may be new to the map.
        for &r in &shared {
            let summary = name_of[&r];
            if let Some(&to) = new.get(&summary).filter(|&&to| to != summary) {
                to_root.insert(summary, to);
            }
        }
    }
    let mut moved: HashMap<LocId, LocId> = HashMap::default();
    let mut rename = |locs: &mut Locs, l: LocId| {
        let r = locs.get(l).root_id;
        match to_root.get(&r) {
            Some(&to) => *moved.entry(l).or_insert_with(|| locs.rebase(l, to)),
            None => l,
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

/// The summary root of the name of heap root `r` (itself for a summary).
fn summary_root(locs: &mut Locs, r: LocId) -> Option<LocId> {
    match locs.get(r).root {
        Root::Heap(..) => Some(r),
        Root::Fresh(..) => summary_of(locs, r),
        _ => None,
    }
}

/// Demotes the fresh object of `only` (a fresh root), or every fresh
/// object.
pub fn demote(locs: &mut Locs, st: &mut Facts, only: Option<LocId>) {
    demote_where(locs, st, |r| only.is_none_or(|o| o == r));
}

/// Demotes the fresh objects whose roots `pick` says.
pub fn demote_where(locs: &mut Locs, st: &mut Facts, pick: impl Fn(LocId) -> bool) {
    let fresh = |locs: &Locs, l: LocId| {
        let r = locs.get(l).root_id;
        matches!(locs.get(r).root, Root::Fresh(..)) && pick(r)
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
