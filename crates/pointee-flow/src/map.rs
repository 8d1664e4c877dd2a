//! Map and unmap at a call (EGH'94 section 4.1).
//!
//! Map: formals inherit the actuals' targets; globals, heap objects and the
//! other visible locations keep their facts; every stack location of a caller
//! (and every caller symbolic name) that the callee can reach is *invisible*
//! and gets a symbolic name `k_x`, named after the callee pointer location it
//! is first reached through. Invisibles in definite relationships are named
//! first; an invisible gets at most one name; a name standing for several
//! invisibles is a summary. Past [`MAX_LEVEL`] levels, deeper invisibles fold
//! into the deepest name (recursion over stack structures stays finite).
//!
//! Unmap: facts of visible locations and symbolic names go back to the
//! locations they stand for; callee locals still pointed to become
//! `dangling`; a summary name's invisibles are updated weakly, and only when
//! the callee changed them.

use crate::facts::{Fact, Facts};
use crate::fxhash::FxHashMap as HashMap;
use crate::loc::{Class, LocId, Locs, Root};
use crate::transfer::Locset;

/// Symbolic names deeper than this fold into one summary name.
pub const MAX_LEVEL: u32 = 4;

/// The context-sensitive map information of one call: which caller roots
/// each symbolic root stands for.
#[derive(Clone, Debug, Default)]
pub struct MapInfo {
    pub groups: Vec<(LocId, Vec<LocId>)>,
    group_of: HashMap<LocId, usize>,
    /// Roots of the visible locations the callee was given.
    visible: crate::fxhash::FxHashSet<LocId>,
    all_visible: bool,
}

impl MapInfo {
    pub fn roots_of(&self, sym_root: LocId) -> Option<&[LocId]> {
        self.group_of.get(&sym_root).map(|&i| &self.groups[i].1[..])
    }
}

fn invisible(locs: &Locs, l: LocId) -> bool {
    matches!(locs.get(l).class, Class::Stack(_) | Class::Symbolic)
}

/// Builds the callee's input from the caller's state and the formals' values
/// (already computed in the caller as `(formal leaf, values)`).
///
/// `refs` are the roots of the globals the callee (or anything it may call)
/// names; only they and what the formals and they reach are mapped, so that
/// unrelated globals and heap objects neither enter the memo key nor are
/// copied. `None` maps every visible location.
pub fn map_call(
    locs: &mut Locs,
    caller: &Facts,
    formals: Vec<(LocId, Locset)>,
    refs: Option<&[LocId]>,
) -> (Facts, MapInfo) {
    // Caller facts by root: stack-like ones are pulled in when the root gets
    // a symbolic name, visible ones when the root becomes reachable.
    let mut by_root: HashMap<LocId, Vec<Fact>> = HashMap::default();
    let mut vis_by_root: HashMap<LocId, Vec<Fact>> = HashMap::default();
    let mut pending: Vec<(LocId, LocId, bool)> = Vec::new();
    for (leaf, vals) in formals {
        for (d, def) in vals {
            pending.push((leaf, d, def));
        }
    }
    let mut info = MapInfo::default();
    for f in caller.iter() {
        if invisible(locs, f.src) {
            by_root.entry(locs.get(f.src).root_id).or_default().push(*f);
        } else if refs.is_none() {
            pending.push((f.src, f.dst, f.def));
        } else {
            vis_by_root
                .entry(locs.get(f.src).root_id)
                .or_default()
                .push(*f);
        }
    }
    match refs {
        Some(refs) => {
            for &r in refs.iter().chain(std::iter::once(&crate::loc::UNKNOWN)) {
                info.visible.insert(r);
                for f in vis_by_root.remove(&r).unwrap_or_default() {
                    pending.push((f.src, f.dst, f.def));
                }
            }
        }
        None => info.all_visible = true,
    }
    let mut sym_of: HashMap<LocId, LocId> = HashMap::default();
    let mut out: Vec<Fact> = Vec::with_capacity(pending.len());
    while !pending.is_empty() {
        // Name the new invisibles of this round: definite ones first.
        let mut keys: Vec<(LocId, Vec<LocId>)> = Vec::new();
        let mut key_index: HashMap<LocId, usize> = HashMap::default();
        let mut assigned: HashMap<LocId, ()> = HashMap::default();
        for pass in [true, false] {
            for &(s, d, def) in &pending {
                if def != pass || !invisible(locs, d) {
                    continue;
                }
                let r = locs.get(d).root_id;
                if sym_of.contains_key(&r) || assigned.contains_key(&r) {
                    continue;
                }
                assigned.insert(r, ());
                let key = if locs.sym_level(s) + 1 > MAX_LEVEL {
                    locs.get(s).root_id
                } else {
                    s
                };
                let i = *key_index.entry(key).or_insert_with(|| {
                    keys.push((key, Vec::new()));
                    keys.len() - 1
                });
                keys[i].1.push(r);
            }
        }
        let mut new_roots = Vec::new();
        for (key, roots) in keys {
            let sym = if locs.sym_level(key) >= MAX_LEVEL && locs.get(key).path.is_empty() {
                key // folded into the deepest name
            } else {
                let multi = roots.len() > 1 || locs.sym_level(key) + 1 >= MAX_LEVEL;
                locs.root(Root::Sym { ptr: key, multi })
            };
            let gi = *info.group_of.entry(sym).or_insert_with(|| {
                info.groups.push((sym, Vec::new()));
                info.groups.len() - 1
            });
            for r in roots {
                info.groups[gi].1.push(r);
                sym_of.insert(r, sym);
                new_roots.push(r);
            }
        }
        let mut next: Vec<(LocId, LocId, bool)> = Vec::new();
        for (s, d, def) in pending.drain(..) {
            let d2 = if invisible(locs, d) {
                let r = locs.get(d).root_id;
                let sym = sym_of[&r];
                let path = locs.get(d).path.clone();
                locs.with_path(sym, &path)
            } else {
                let r = locs.get(d).root_id;
                if !info.all_visible && info.visible.insert(r) {
                    for f in vis_by_root.remove(&r).unwrap_or_default() {
                        next.push((f.src, f.dst, f.def));
                    }
                }
                d
            };
            let def = def && !locs.is_summary(s);
            out.push(Fact {
                src: s,
                dst: d2,
                def,
            });
        }
        pending = next;
        for r in new_roots {
            let sym = sym_of[&r];
            if let Some(fs) = by_root.remove(&r) {
                for f in fs {
                    let path = locs.get(f.src).path.clone();
                    let s = locs.with_path(sym, &path);
                    pending.push((s, f.dst, f.def));
                }
            }
        }
    }
    (Facts::from_unsorted(out), info)
}

/// Translates one callee-space target to the caller's space.
fn translate(locs: &mut Locs, info: &MapInfo, d: LocId, def: bool, out: &mut Vec<(LocId, bool)>) {
    match locs.get(d).class {
        Class::Symbolic => {
            let root = locs.get(d).root_id;
            let path = locs.get(d).path.clone();
            match info.roots_of(root) {
                Some(roots) => {
                    let one = roots.len() == 1;
                    for &r in roots {
                        let l = locs.with_path(r, &path);
                        out.push((l, def && one));
                    }
                }
                // A name the caller never gave: cannot happen; stay safe.
                None => out.push((crate::loc::UNKNOWN, false)),
            }
        }
        Class::Stack(_) => {
            let root = locs.get(d).root_id;
            out.push((locs.root(Root::Dangling(root)), def));
        }
        _ => out.push((d, def)),
    }
}

/// Translates a list of callee-space values (e.g. the returned value).
pub fn unmap_vals(locs: &mut Locs, info: &MapInfo, vals: &[(LocId, bool)]) -> Locset {
    let mut out = Vec::new();
    for &(d, def) in vals {
        translate(locs, info, d, def, &mut out);
    }
    out
}

/// The caller's state after the call.
pub fn unmap_call(
    locs: &mut Locs,
    caller: &Facts,
    _callee_in: &Facts,
    callee_out: &Facts,
    info: &MapInfo,
    wrote_symbolic: bool,
) -> Facts {
    // A summary name (several invisibles) is updated weakly when the callee
    // may have written a symbolic location (`wrote_symbolic`): every
    // invisible keeps its facts, possibly, and gains the name's facts,
    // possibly. Comparing the name's facts before and after cannot tell (a
    // weak store of a value another invisible already held changes nothing
    // visible). When the callee wrote none, the invisibles are untouched.
    let mut mapped: HashMap<LocId, (LocId, bool)> = HashMap::default(); // root -> (sym, multi)
    for (sym, roots) in &info.groups {
        for &r in roots {
            mapped.insert(r, (*sym, roots.len() > 1));
        }
    }
    let mut out: Vec<Fact> = Vec::with_capacity(caller.len());
    for f in caller.iter() {
        if !invisible(locs, f.src) {
            if info.all_visible || info.visible.contains(&locs.get(f.src).root_id) {
                continue; // the callee's output has its facts
            }
            out.push(*f); // the callee could not reach it
            continue;
        }
        match mapped.get(&locs.get(f.src).root_id) {
            None => out.push(*f),
            Some(&(_, true)) if !wrote_symbolic => out.push(*f), // untouched
            Some(&(_, true)) => out.push(Fact { def: false, ..*f }),
            Some(_) => {} // replaced by the callee's facts of its name
        }
    }
    let mut tr = Vec::new();
    for f in callee_out.iter() {
        let class = locs.get(f.src).class;
        let srcs: Vec<(LocId, bool)> = match class {
            Class::Global | Class::Unknown | Class::NotMemory => vec![(f.src, true)],
            Class::Symbolic => {
                let root = locs.get(f.src).root_id;
                let path = locs.get(f.src).path.clone();
                match info.roots_of(root) {
                    Some(roots) if roots.len() == 1 => {
                        vec![(locs.with_path(roots[0], &path), true)]
                    }
                    Some(_) if !wrote_symbolic => continue, // untouched
                    Some(roots) => roots
                        .iter()
                        .map(|&r| (locs.with_path(r, &path), false))
                        .collect(),
                    None => continue,
                }
            }
            Class::Stack(_) => continue, // the callee's own locals die
        };
        tr.clear();
        translate(locs, info, f.dst, f.def, &mut tr);
        for &(s, sdef) in &srcs {
            for &(d, ddef) in &tr {
                let def = sdef && ddef && !locs.is_summary(s);
                out.push(Fact {
                    src: s,
                    dst: d,
                    def,
                });
            }
        }
    }
    Facts::from_unsorted(out)
}
