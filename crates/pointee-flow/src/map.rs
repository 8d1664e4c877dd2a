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
//! the callee changed them, with what the callee may have stored into the
//! name ([`SymStores`]), not with what another invisible brought in.
//!
//! Freed marks: a `free` adds `freed -> o` for the heap object `o` it frees
//! ([`mark_freed`]). The marks never enter a callee's input (memo keys stay
//! as they were) nor make anything reachable; at unmap the callee's marks
//! come back in the caller's names and the caller applies them to its own
//! facts the callee could not see (its locals' copies of the pointer), then
//! keeps them, so that its own callers apply them in turn.

use crate::facts::{Fact, Facts};
use crate::fxhash::FxHashMap as HashMap;
use crate::loc::{Class, LocId, Locs, Root, FREED, UNKNOWN};
use crate::transfer::Locset;
use pointee_ir::Type;

/// Symbolic names deeper than this fold into one summary name.
pub const MAX_LEVEL: u32 = 4;

/// The levels of symbolic names in the input of a function on a cycle of
/// the call graph: a recursion over a structure on the stack (each level
/// linking its local to the caller's) shifts the names one level per
/// call, and the fixed point needs an iteration per level.
pub const RECURSION_LEVELS: u32 = 2;

/// Symbolic names down to this level are named per pointer field; deeper
/// ones per pointer object.
pub const FIELD_LEVELS: u32 = 2;

/// The context-sensitive map information of one call: which caller roots
/// each symbolic root stands for.
#[derive(Clone, Debug, Default)]
pub struct MapInfo {
    pub groups: Vec<(LocId, Vec<LocId>)>,
    group_of: HashMap<LocId, usize>,
    /// Roots of the visible locations the callee was given.
    visible: crate::fxhash::FxHashSet<LocId>,
    all_visible: bool,
    /// Caller roots (invisibles) given a symbolic name.
    named: crate::fxhash::FxHashSet<LocId>,
    /// The dead stack objects (`dangling(f::x)`) the callee's one
    /// `dangling` summary stands for.
    dangling: Vec<LocId>,
}

/// What a body stored into symbolic locations: the (name root, value)
/// pairs of its own assignments (values as they are at its exit: a newest
/// heap object by its site's summary), or `any` once something else (a
/// callee, a library effect, a store through `unknown`) may have written
/// one.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SymStores {
    pub any: bool,
    /// Sorted, without repeats.
    stored: Vec<(LocId, LocId)>,
}

impl SymStores {
    pub fn add(&mut self, locs: &mut Locs, stored: &[(LocId, LocId)]) {
        for &(name, v) in stored {
            let root = locs.get(v).root_id;
            let v = match crate::recency::summary_of(locs, root) {
                Some(summary) => locs.rebase(v, summary),
                None => v,
            };
            if let Err(i) = self.stored.binary_search(&(name, v)) {
                self.stored.insert(i, (name, v));
            }
        }
    }

    pub fn join(&mut self, other: &SymStores) {
        self.any |= other.any;
        if self.any {
            self.stored = Vec::new();
            return;
        }
        for p in &other.stored {
            if let Err(i) = self.stored.binary_search(p) {
                self.stored.insert(i, *p);
            }
        }
    }

    /// The record in the caller's names after a call (`info`): each
    /// (callee name, value) pair whose name stands for symbolic names of
    /// the caller, with the value as the caller sees it. A callee name
    /// that stands for the caller's own locals is no store into the
    /// caller's names; the caller records nothing for it.
    pub fn through_call(&self, locs: &mut Locs, info: &MapInfo) -> Vec<(LocId, LocId)> {
        debug_assert!(!self.any);
        let mut out = Vec::new();
        let mut vals = Vec::new();
        for &(name, v) in &self.stored {
            let Some(roots) = info.roots_of(name) else {
                continue;
            };
            vals.clear();
            translate(locs, info, v, false, &mut vals);
            for &r in roots {
                if matches!(locs.get(r).class, Class::Symbolic) {
                    out.extend(vals.iter().map(|&(v, _)| (r, v)));
                }
            }
        }
        out
    }

    /// True when something may have been stored into the name `name`.
    fn may_have_stored_into(&self, name: LocId) -> bool {
        self.any || {
            let i = self.stored.partition_point(|p| p.0 < name);
            self.stored.get(i).is_some_and(|p| p.0 == name)
        }
    }

    /// True when `v` may have been stored into the name `name`.
    fn may_have_stored(&self, name: LocId, v: LocId) -> bool {
        self.any || self.stored.binary_search(&(name, v)).is_ok()
    }
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
    max_level: u32,
) -> (Facts, MapInfo) {
    map_call_with(locs, caller, formals, refs, max_level, true)
}

/// [`map_call`]; `escapes` says whether the callee gets the escape marks
/// (`unknown -> o`) of what it sees and the escaped functions. A callee
/// that can neither call unknown code nor call through a pointer (which
/// may hold `unknown`), nor anything it calls, never reads them: leaving
/// them out keeps its memo key from changing with every function that
/// escaped elsewhere. What it adds to `unknown`'s targets (a store
/// through `unknown`) still joins the caller's at unmap.
pub fn map_call_with(
    locs: &mut Locs,
    caller: &Facts,
    formals: Vec<(LocId, Locset)>,
    refs: Option<&[LocId]>,
    max_level: u32,
    escapes: bool,
) -> (Facts, MapInfo) {
    // Caller facts are pulled in by root: stack-like ones when the root gets
    // a symbolic name, visible ones when the root becomes reachable.
    let mut pending: Vec<(LocId, LocId, bool)> = Vec::new();
    for (leaf, vals) in formals {
        // A formal declared to point to one pointer or scalar (`int **q`)
        // given a struct's address points to its first slot, where the
        // caller keeps that slot's facts (`Locs::first_leaf`): the
        // callee's `*q` then names them.
        let to_leaf = matches!(&locs.get(leaf).ty, Some(Type::Pointer(t))
            if matches!(**t, Type::Pointer(_) | Type::Scalar));
        for (d, def) in vals {
            let d = if to_leaf { locs.first_leaf(d) } else { d };
            pending.push((leaf, d, def));
        }
    }
    let mut info = MapInfo::default();
    if refs.is_none() {
        for f in caller.iter() {
            if !invisible(locs, f.src) && f.src != FREED {
                pending.push((f.src, f.dst, f.def));
            }
        }
    }
    // What escaped to unknown code (`unknown`'s targets) is not pulled in
    // through `unknown`: a callee reading through an unknown pointer gets
    // `unknown` (anything), and what unknown code may do to escaped objects
    // the callee cannot see is applied by the caller after the call. Only
    // escaped functions (unknown code may call them) and, below, the escape
    // marks of what the callee sees anyway are mapped.
    let escapes = if escapes {
        caller.targets(UNKNOWN).to_vec()
    } else {
        Vec::new()
    };
    if refs.is_none() {
        pending.retain(|p| p.0 != UNKNOWN);
    }
    info.visible.insert(UNKNOWN);
    for f in &escapes {
        if matches!(locs.get(f.dst).root, Root::Func(_)) {
            pending.push((f.src, f.dst, false));
        }
    }
    match refs {
        Some(refs) => {
            for &r in refs {
                if info.visible.insert(r) {
                    for f in root_facts(caller, locs, r) {
                        pending.push((f.src, f.dst, f.def));
                    }
                }
            }
        }
        None => info.all_visible = true,
    }
    let mut sym_of: HashMap<LocId, LocId> = HashMap::default();
    let mut out: Vec<Fact> = Vec::with_capacity(pending.len());
    while !pending.is_empty() {
        // Name the new invisibles of this round, definite ones first, by
        // the set of callee pointer locations that reach them: `a` -> x|z
        // and `b` -> y|z give `1_a` (x), `1_{a,b}` (z) and `1_b` (y), so a
        // store through `b` never reaches `x`'s name. Invisibles reached
        // by the same set share a name (a summary).
        let mut reach: HashMap<LocId, Vec<LocId>> = HashMap::default();
        let mut order: Vec<LocId> = Vec::new();
        for pass in [true, false] {
            for &(s, d, def) in &pending {
                if !invisible(locs, d) {
                    continue;
                }
                let r = locs.get(d).root_id;
                if sym_of.contains_key(&r) {
                    continue;
                }
                if pass {
                    // Named after the pointer location down to level 2
                    // (`2_x.f`); deeper, after the pointer's object
                    // (`3_x.f` for what any field of `2_x.f` points to), so
                    // that the names grow with the levels, not with the
                    // number of field paths (a struct with 8 pointer fields
                    // made 512 level-4 names).
                    let key = if locs.sym_level(s) >= FIELD_LEVELS {
                        locs.get(s).root_id
                    } else {
                        s
                    };
                    let ks = reach.entry(r).or_default();
                    if !ks.contains(&key) {
                        ks.push(key);
                    }
                }
                if def == pass && !order.contains(&r) {
                    order.push(r);
                }
            }
        }
        let mut keys: Vec<(LocId, Vec<LocId>)> = Vec::new();
        let mut key_index: HashMap<LocId, usize> = HashMap::default();
        for r in order {
            let mut ks = reach.remove(&r).unwrap_or_default();
            ks.sort_unstable();
            let deepest = ks
                .iter()
                .copied()
                .find(|&k| locs.sym_level(k) >= max_level && locs.get(k).path.is_empty());
            let key = match (deepest, &ks[..]) {
                (Some(k), _) => k,
                (None, [k]) => *k,
                (None, _) => locs.root(Root::PtrSet(ks.into())),
            };
            let i = *key_index.entry(key).or_insert_with(|| {
                keys.push((key, Vec::new()));
                keys.len() - 1
            });
            keys[i].1.push(r);
        }
        let mut new_roots = Vec::new();
        for (key, roots) in keys {
            let sym = if locs.sym_level(key) >= max_level && locs.get(key).path.is_empty() {
                key // folded into the deepest name
            } else {
                let multi = roots.len() > 1 || locs.sym_level(key) + 1 >= max_level;
                locs.root(Root::Sym { ptr: key, multi })
            };
            let gi = *info.group_of.entry(sym).or_insert_with(|| {
                info.groups.push((sym, Vec::new()));
                info.groups.len() - 1
            });
            for r in roots {
                info.groups[gi].1.push(r);
                info.named.insert(r);
                sym_of.insert(r, sym);
                new_roots.push(r);
            }
        }
        let mut next: Vec<(LocId, LocId, bool)> = Vec::new();
        for (s, d, def) in pending.drain(..) {
            let d2 = if let Root::Dangling(dead) = locs.get(locs.get(d).root_id).root {
                // Dead stack objects are one summary in the callee: it can
                // only copy or compare such pointers, and memo keys stay
                // the same however many of them the caller knows.
                let r = locs.get(d).root_id;
                if dead != crate::loc::NULL && !info.dangling.contains(&r) {
                    info.dangling.push(r);
                }
                let summary = locs.root(Root::Dangling(crate::loc::NULL));
                locs.rebase(d, summary)
            } else if invisible(locs, d) {
                let r = locs.get(d).root_id;
                locs.rebase(d, sym_of[&r])
            } else {
                let r = locs.get(d).root_id;
                // (`freed`'s facts are marks, not memory the callee reaches.)
                if !info.all_visible && r != FREED && info.visible.insert(r) {
                    for f in root_facts(caller, locs, r) {
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
            // Facts come by source: each source is renamed once.
            let mut last: Option<(LocId, LocId)> = None;
            for f in root_facts(caller, locs, r) {
                let s = match last {
                    Some((src, s)) if src == f.src => s,
                    _ => locs.rebase(f.src, sym),
                };
                last = Some((f.src, s));
                pending.push((s, f.dst, f.def));
            }
        }
    }
    // Escape marks of the objects the callee sees.
    for f in &escapes {
        let r = locs.get(f.dst).root_id;
        let dst = if invisible(locs, f.dst) {
            match sym_of.get(&r) {
                Some(&sym) => sym,
                None => continue,
            }
        } else if matches!(locs.get(f.dst).root, Root::Func(_)) {
            continue; // mapped above
        } else if info.all_visible || info.visible.contains(&r) {
            f.dst
        } else {
            continue;
        };
        out.push(Fact {
            src: UNKNOWN,
            dst,
            def: false,
        });
    }
    (Facts::from_unsorted(out), info)
}

impl MapInfo {
    /// True when the caller location `l` was given to the callee (visible,
    /// or an invisible with a symbolic name).
    pub fn reaches(&self, locs: &Locs, l: LocId) -> bool {
        let r = locs.get(l).root_id;
        if invisible(locs, l) {
            self.named.contains(&r)
        } else {
            self.all_visible || self.visible.contains(&r)
        }
    }
}

/// The facts of a state whose source has root `r`, in the state's order.
pub(crate) fn root_facts(st: &Facts, locs: &Locs, r: LocId) -> Vec<Fact> {
    // The root, then its other locations newest first: ids ascend from the
    // root and then from the end.
    let mut members: Vec<LocId> = locs.members(r).collect();
    members[1..].reverse();
    debug_assert!(members.windows(2).all(|w| w[0] < w[1]));
    let mut v: Vec<Fact> = Vec::new();
    for m in members {
        v.extend_from_slice(st.targets(m));
    }
    v
}

/// Translates one callee-space target to the caller's space.
fn translate(locs: &mut Locs, info: &MapInfo, d: LocId, def: bool, out: &mut Vec<(LocId, bool)>) {
    match locs.get(d).class {
        Class::Symbolic => {
            let root = locs.get(d).root_id;
            match info.roots_of(root) {
                Some(roots) => {
                    let one = roots.len() == 1;
                    for &r in roots {
                        let l = locs.rebase(d, r);
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
        _ if locs.get(locs.get(d).root_id).root == Root::Dangling(crate::loc::NULL) => {
            let one = info.dangling.len() == 1;
            for &r in &info.dangling {
                let l = locs.rebase(d, r);
                out.push((l, def && one));
            }
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
///
/// `stores`: what the callee stored into symbolic locations (`None`: it
/// may have stored anything, an approximate node's result).
pub fn unmap_call(
    locs: &mut Locs,
    caller: &Facts,
    callee_in: &Facts,
    callee_out: &Facts,
    info: &MapInfo,
    wrote_symbolic: bool,
    stores: Option<&SymStores>,
) -> Facts {
    // A summary name (several invisibles) is updated weakly when the callee
    // may have written a symbolic location (`wrote_symbolic`): every
    // invisible keeps its facts, possibly, and gains the name's facts that
    // the callee may have stored, possibly. Comparing the name's facts
    // before and after cannot tell (a weak store of a value another
    // invisible already held changes nothing visible): the record of the
    // stores does. A fact the name had on entry and the callee never
    // stored came from some of its invisibles, which keep it; the others
    // do not get it. When the callee wrote none, the invisibles are
    // untouched.
    let written = |sym: LocId| wrote_symbolic && stores.is_none_or(|s| s.may_have_stored_into(sym));
    let mut mapped: HashMap<LocId, (LocId, bool)> = HashMap::default(); // root -> (sym, multi)
    for (sym, roots) in &info.groups {
        for &r in roots {
            mapped.insert(r, (*sym, roots.len() > 1));
        }
    }
    let mut out: Vec<Fact> = Vec::with_capacity(caller.len());
    for f in caller.iter() {
        if f.src == UNKNOWN || f.src == FREED {
            // What escaped stays escaped, what was freed stays freed; the
            // callee's escapes and marks join below.
            out.push(*f);
            continue;
        }
        if !invisible(locs, f.src) {
            if info.all_visible || info.visible.contains(&locs.get(f.src).root_id) {
                continue; // the callee's output has its facts
            }
            out.push(*f); // the callee could not reach it
            continue;
        }
        match mapped.get(&locs.get(f.src).root_id) {
            None => out.push(*f),
            Some(&(sym, true)) if !written(sym) => out.push(*f), // untouched
            Some(&(_, true)) => out.push(Fact { def: false, ..*f }),
            Some(_) => {} // replaced by the callee's facts of its name
        }
    }
    // `out` stays sorted (the caller's order); the callee's facts are
    // sorted apart and merged in.
    let mut added: Vec<Fact> = Vec::with_capacity(callee_out.len());
    let mut descended: Vec<LocId> = Vec::new();
    // The output is sorted by source and its targets repeat from source
    // to source: each source is translated once (when its first fact is
    // kept) and each target once per call (`translated` holds every
    // target's translation, `tr_at` where it starts), not once per fact.
    let mut translated: Vec<(LocId, bool)> = Vec::new();
    let mut tr_at: HashMap<(LocId, bool), (usize, usize)> = HashMap::default();
    let mut tr = Vec::new();
    let mut srcs: Vec<(LocId, bool)> = Vec::new();
    let mut cur: Option<LocId> = None;
    // For the current source: skipped whole, or (a name of several
    // invisibles) still to translate at its first kept fact.
    let (mut skip, mut several): (bool, Option<LocId>) = (false, None);
    for f in callee_out.iter() {
        if cur != Some(f.src) {
            cur = Some(f.src);
            srcs.clear();
            (skip, several) = (false, None);
            match locs.get(f.src).class {
                Class::Global | Class::Unknown | Class::NotMemory => srcs.push((f.src, true)),
                Class::Symbolic => {
                    let root = locs.get(f.src).root_id;
                    match info.roots_of(root) {
                        Some(roots) if roots.len() == 1 => {
                            let s = locs.rebase(f.src, roots[0]);
                            srcs.push((slot_of(locs, s, &mut descended), true))
                        }
                        Some(_) if !written(root) => skip = true, // untouched
                        Some(_) => several = Some(root),
                        None => skip = true,
                    }
                }
                Class::Stack(_) => skip = true, // the callee's own locals die
            }
        }
        if skip {
            continue;
        }
        if let Some(root) = several {
            if stores.is_some_and(|s| !s.may_have_stored(root, f.dst))
                && callee_in.targets(f.src).iter().any(|g| g.dst == f.dst)
            {
                continue; // an invisible's own fact on entry
            }
            if srcs.is_empty() {
                for &r in info.roots_of(root).unwrap_or_default() {
                    let s = locs.rebase(f.src, r);
                    srcs.push((slot_of(locs, s, &mut descended), false));
                }
            }
        }
        let (start, len) = match tr_at.get(&(f.dst, f.def)) {
            Some(&at) => at,
            None => {
                tr.clear();
                translate(locs, info, f.dst, f.def, &mut tr);
                let at = (translated.len(), tr.len());
                translated.extend_from_slice(&tr);
                tr_at.insert((f.dst, f.def), at);
                at
            }
        };
        for &(s, sdef) in &srcs {
            for &(d, ddef) in &translated[start..start + len] {
                if f.src == UNKNOWN && matches!(locs.get(d).root, Root::Dangling(_)) {
                    // A dead stack object in unknown memory: reading it
                    // gives `unknown` (anything) already.
                    continue;
                }
                let def = sdef && ddef && !locs.is_summary(s);
                added.push(Fact {
                    src: s,
                    dst: d,
                    def,
                });
            }
        }
    }
    if !descended.is_empty() {
        // Two callee names of one caller slot: neither's facts is definite.
        for f in added.iter_mut().filter(|f| descended.contains(&f.src)) {
            f.def = false;
        }
    }
    // The callee's marks, in the caller's names, reach the caller's facts
    // it kept (those the callee could not see); the callee already freed
    // what it saw.
    let marks: Vec<LocId> = added
        .iter()
        .filter(|f| f.src == FREED)
        .map(|f| f.dst)
        .collect();
    if !marks.is_empty() {
        out = apply_freed(out, &marks);
    }
    Facts::join(Facts::from_sorted(out), Facts::from_unsorted(added))
}

/// Records that `free` freed the heap objects `freed`: the marks a caller
/// applies at unmap. Other locations (a stack or global object given to
/// `free`) are not marked. A mark is always possible: a heap object the
/// caller gave is its name's summary (a callee never sees a newest
/// object), so the caller applies it weakly anyway, and `freed` keeps
/// the rule that a definite fact is its source's only one.
pub(crate) fn mark_freed(locs: &Locs, st: &mut Facts, freed: &[(LocId, bool)]) {
    for &(o, _) in freed {
        let root = &locs.get(locs.get(o).root_id).root;
        if matches!(root, Root::Heap(..) | Root::Fresh(..)) {
            st.add(FREED, o, false);
        }
    }
}

/// `facts` (sorted, one per pair) after one of the objects `marks` may
/// have been freed: a pointer to one may also point to `freed` (a weak
/// update; see [`mark_freed`]).
fn apply_freed(facts: Vec<Fact>, marks: &[LocId]) -> Vec<Fact> {
    let mut out = Vec::with_capacity(facts.len());
    let mut hit = false;
    for f in facts {
        if f.src == UNKNOWN || f.src == FREED || !marks.contains(&f.dst) {
            out.push(f);
            continue;
        }
        hit = true;
        out.push(Fact { def: false, ..f });
        out.push(Fact {
            src: f.src,
            dst: FREED,
            def: false,
        });
    }
    if hit {
        out = Facts::from_unsorted(out).iter().copied().collect();
    }
    out
}

/// The caller location that keeps the facts of callee location `s` after
/// rebasing: a symbolic name typed by a callee pointer (`1_q` for an
/// `int **q` given `&s`) may stand for a struct, whose first pointer slot
/// holds them (`Locs::first_leaf`). Such slots are noted in `descended`:
/// the callee may have had facts for them under two names.
fn slot_of(locs: &mut Locs, s: LocId, descended: &mut Vec<LocId>) -> LocId {
    let leaf = locs.first_leaf(s);
    if leaf != s && !descended.contains(&leaf) {
        descended.push(leaf);
    }
    leaf
}

/// True when unmapping `callee_out` would give the caller's state back
/// unchanged, so the caller may keep it as it is (no copy): the call named
/// no invisible and no dead stack object (every fact of the input is the
/// caller's own, translated as itself), and the callee's output, but for
/// its own locals, is its input. The caller still applies what the unit's
/// flags say (wild, escaped) itself; this is for a plain unit.
pub fn leaves_caller_as_is(
    locs: &Locs,
    callee: u32,
    callee_in: &Facts,
    callee_out: &Facts,
    info: &MapInfo,
) -> bool {
    if !info.groups.is_empty() || !info.dangling.is_empty() {
        return false;
    }
    let own = |f: &&Fact| matches!(locs.get(f.src).class, Class::Stack(g) if g == callee);
    let mut a = callee_in.iter().filter(|f| !own(f));
    let mut b = callee_out.iter().filter(|f| !own(f));
    loop {
        match (a.next(), b.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) if x == y => {
                if matches!(locs.get(locs.get(x.dst).root_id).root, Root::Dangling(_))
                    || matches!(locs.get(x.dst).class, Class::Stack(_) | Class::Symbolic)
                {
                    return false;
                }
            }
            _ => return false,
        }
    }
}
