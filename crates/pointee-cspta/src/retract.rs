//! Solving again after an edit that removed statements from method bodies,
//! from the previous solution (`resume.rs` calls it).
//!
//! The old solution over-approximates the new one: every fact left is an
//! old fact. What may shrink is only what the removed facts reached: the
//! nodes they put objects into, and from there along the flow edges (a
//! load's target when its base is reached, since the base may lose the
//! objects the load read from; a store's fields likewise). Everything
//! else keeps its set, which the remaining facts still derive. So the
//! removed facts' edges go, the reached nodes are emptied, and they are
//! filled again from the nodes outside (their edges in), the `new`s and
//! loads and stores of their methods, and the worklist (the standard
//! over-delete and re-derive of incremental Datalog).
//!
//! Where the objects of a call's receiver may shrink, the call graph could
//! lose edges, methods and contexts, which this does not undo: the caller
//! solves from scratch then (also when the reached part touches a method's
//! `this`, the library heap, or a large part of the nodes).

use crate::compile::{BaseUse, CastStmt, Facts, MethodFacts};
use crate::fxhash::{FxHashMap, FxHashSet};
use crate::solver::{edge_key, State, NOT_VAR};
use std::hash::Hash;

/// The facts an edit removed from a method, in the old program's ids, and
/// its variables that are gone.
#[derive(Default)]
pub(crate) struct Removed {
    copies: Vec<(u32, u32)>,
    loads: Vec<(u32, u32, u32)>,
    stores: Vec<(u32, u32, u32)>,
    sloads: Vec<(u32, u32)>,
    sstores: Vec<(u32, u32)>,
    filtered_sloads: Vec<(u32, u32, u32)>,
    casts: Vec<(u32, u32, u32)>,
    dead_vars: Vec<u32>,
}

/// The old facts of `old` that are not facts of `new` (`vars`: each old
/// variable's new number, NOT_VAR when it is gone; fields, statics and
/// types keep their ids when the edit adds no name; the caller checked
/// that the sites are the same), or `None` when the new method has a fact
/// the old one lacks, or when its allocations, calls, parameters or
/// initialisations changed (those are not undone).
pub(crate) fn removed_facts(old: &MethodFacts, new: &MethodFacts, vars: &[u32]) -> Option<Removed> {
    let v = |x: u32| Some(vars[x as usize]).filter(|&n| n != NOT_VAR);
    let ov = |x: Option<u32>| x.map(|x| v(x).unwrap_or(NOT_VAR));
    let same_calls = old.calls.len() == new.calls.len()
        && old.calls.iter().zip(&new.calls).all(|(o, n)| {
            let kind = match (&o.kind, &n.kind) {
                (crate::CallKind::Static(a), crate::CallKind::Static(b)) => a == b,
                (crate::CallKind::Special(a, x), crate::CallKind::Special(b, y)) => {
                    a == b && v(*x) == Some(*y)
                }
                (crate::CallKind::Virtual(x, s), crate::CallKind::Virtual(y, t)) => {
                    v(*x) == Some(*y) && s == t
                }
                _ => false,
            };
            kind && o.site == n.site
                && ov(o.lhs) == n.lhs
                && o.args.iter().map(|&a| ov(a)).eq(n.args.iter().copied())
        });
    let set = |xs: &[u32]| xs.iter().copied().collect::<FxHashSet<u32>>();
    if old.class != new.class
        || ov(old.this) != new.this
        || ov(old.ret) != new.ret
        || !old
            .params
            .iter()
            .map(|&p| v(p))
            .eq(new.params.iter().map(|&p| Some(p)))
        || !same_calls
        || !old
            .news
            .iter()
            .map(|&(x, _)| v(x))
            .eq(new.news.iter().map(|&(x, _)| Some(x)))
        || set(&old.inits) != set(&new.inits)
    {
        return None;
    }
    let mut r = Removed::default();
    // Each kind of fact: the old ones renamed that are not new ones are
    // removed; a new one that is no renamed old one is an addition.
    fn split<T: Copy + Hash + Eq>(
        old: impl Iterator<Item = (T, Option<T>)>,
        new: &[T],
        removed: &mut Vec<T>,
    ) -> Option<()> {
        let new_set: FxHashSet<T> = new.iter().copied().collect();
        let mut kept = FxHashSet::default();
        for (o, renamed) in old {
            match renamed.filter(|n| new_set.contains(n)) {
                Some(n) => {
                    kept.insert(n);
                }
                None => removed.push(o),
            }
        }
        (kept.len() == new_set.len()).then_some(())
    }
    let pair = |a: u32, b: u32| Some((v(a)?, v(b)?));
    split(
        old.copies.iter().map(|&(a, b)| ((a, b), pair(a, b))),
        &new.copies,
        &mut r.copies,
    )?;
    split(
        old.loads
            .iter()
            .map(|&(x, y, f)| ((x, y, f), pair(x, y).map(|(x, y)| (x, y, f)))),
        &new.loads,
        &mut r.loads,
    )?;
    split(
        old.stores
            .iter()
            .map(|&(x, f, y)| ((x, f, y), pair(x, y).map(|(x, y)| (x, f, y)))),
        &new.stores,
        &mut r.stores,
    )?;
    split(
        old.sloads
            .iter()
            .map(|&(x, s)| ((x, s), v(x).map(|x| (x, s)))),
        &new.sloads,
        &mut r.sloads,
    )?;
    split(
        old.sstores
            .iter()
            .map(|&(s, y)| ((s, y), v(y).map(|y| (s, y)))),
        &new.sstores,
        &mut r.sstores,
    )?;
    split(
        old.filtered_sloads
            .iter()
            .map(|&(x, s, t)| ((x, s, t), v(x).map(|x| (x, s, t)))),
        &new.filtered_sloads,
        &mut r.filtered_sloads,
    )?;
    let cast = |c: &CastStmt| (c.from, c.to, c.ty);
    split(
        old.casts
            .iter()
            .map(|c| (cast(c), pair(c.from, c.to).map(|(a, b)| (a, b, c.ty)))),
        &new.casts.iter().map(cast).collect::<Vec<_>>(),
        &mut r.casts,
    )?;
    r.dead_vars = (0..old.nvars).filter(|&x| v(x).is_none()).collect();
    Some(r)
}

/// Takes the removed facts out of the old solver state `st` (old ids) and
/// empties the nodes whose sets may shrink; returns those nodes (by node:
/// emptied) and the reached pairs whose variables are among them, whose
/// facts must be applied again. `Err` (why) where this cannot go on.
pub(crate) fn retract(
    st: &mut State,
    facts: &Facts,
    removed: &FxHashMap<u32, Removed>,
    contexts_of: &dyn Fn(u32) -> Vec<u32>,
) -> Result<(Vec<bool>, Vec<u32>), &'static str> {
    let mut seeds: Vec<u32> = Vec::new();
    let mut gone: FxHashSet<u64> = FxHashSet::default();
    let mut gone_filtered: FxHashSet<(u32, u32, u32)> = FxHashSet::default();
    let mut dead: Vec<u32> = Vec::new();
    let mut methods: Vec<u32> = removed.keys().copied().collect();
    methods.sort_unstable();
    for m in methods {
        let r = &removed[&m];
        for mc in contexts_of(m) {
            let var = |x: u32| st.var_node(mc, x);
            let mut edge = |s: u32, t: u32, seeds: &mut Vec<u32>| {
                gone.insert(edge_key(s, t));
                seeds.push(t);
            };
            for &(y, x) in &r.copies {
                edge(var(y), var(x), &mut seeds);
            }
            for &(x, s) in &r.sloads {
                edge(st.static_nodes[s as usize], var(x), &mut seeds);
            }
            for &(s, y) in &r.sstores {
                edge(var(y), st.static_nodes[s as usize], &mut seeds);
            }
            for &(x, y, f) in &r.loads {
                for n in fields_of(st, var(y), f) {
                    edge(n, var(x), &mut seeds);
                }
            }
            for &(x, f, y) in &r.stores {
                for n in fields_of(st, var(x), f) {
                    edge(var(y), n, &mut seeds);
                }
            }
            for &(from, to, ty) in &r.casts {
                gone_filtered.insert((var(from), var(to), ty));
                seeds.push(var(to));
            }
            for &(x, s, ty) in &r.filtered_sloads {
                gone_filtered.insert((st.static_nodes[s as usize], var(x), ty));
                seeds.push(var(x));
            }
            dead.extend(r.dead_vars.iter().map(|&x| var(x)));
        }
    }
    let n = st.pt.len();
    let mut in_a = vec![false; n];
    for &d in &dead {
        in_a[d as usize] = true;
    }
    let heap = facts.library_heap.map(|h| st.static_nodes[h as usize]);
    // The reached part: forward along the edges, and from a base to what
    // its loads and stores reach (their edges go too: they are made again
    // for the objects the base keeps).
    let mut stack = seeds;
    let mut reached = 0usize;
    let mut contexts: Vec<u32> = Vec::new();
    let mut seen_ctx: FxHashSet<u32> = FxHashSet::default();
    while let Some(x) = stack.pop() {
        if std::mem::replace(&mut in_a[x as usize], true) {
            continue;
        }
        reached += 1;
        if Some(x) == heap {
            return Err("a removed fact reaches the library heap");
        }
        if reached > 1000 && reached > n / 8 {
            return Err("a removed fact reaches too much");
        }
        stack.extend(st.succ[x as usize].iter().copied());
        if let Some(ts) = st.filtered.get(&x) {
            stack.extend(ts.iter().map(|&(t, _)| t));
        }
        let mc = st.node_mc[x as usize];
        if mc == NOT_VAR {
            continue;
        }
        if seen_ctx.insert(mc) {
            contexts.push(mc);
        }
        let var = st.node_var[x as usize];
        let m: &MethodFacts = &facts.methods[st.reached[mc as usize].method as usize];
        if m.this == Some(var) {
            return Err("a removed fact reaches a method's `this`");
        }
        for &u in &m.uses[var as usize] {
            match u {
                BaseUse::Call(_) => return Err("a removed fact reaches a call's receiver"),
                BaseUse::Load(i) => {
                    let (to, _, f) = m.loads[i as usize];
                    let t = st.var_node(mc, to);
                    gone.extend(fields_of(st, x, f).map(|n| edge_key(n, t)));
                    stack.push(t);
                }
                BaseUse::Store(i) => {
                    let (_, f, from) = m.stores[i as usize];
                    let s = st.var_node(mc, from);
                    for n in fields_of(st, x, f) {
                        gone.insert(edge_key(s, n));
                        stack.push(n);
                    }
                }
            }
        }
    }
    // The edges go (the remaining facts make those they still justify
    // again), the reached nodes are emptied, the gone variables unhooked.
    for &key in &gone {
        if st.edges.remove(&key) {
            let (s, t) = ((key >> 32) as u32, key as u32);
            st.succ[s as usize].retain(|&x| x != t);
        }
    }
    for &(s, t, ty) in &gone_filtered {
        if st.filtered_index.remove(&(s, t, ty)) {
            if let Some(ts) = st.filtered.get_mut(&s) {
                ts.retain(|&x| x != (t, ty));
            }
        }
    }
    for &d in &dead {
        for t in std::mem::take(&mut st.succ[d as usize]) {
            st.edges.remove(&edge_key(d, t));
        }
        if let Some(ts) = st.filtered.remove(&d) {
            for (t, ty) in ts {
                st.filtered_index.remove(&(d, t, ty));
            }
        }
        st.node_mc[d as usize] = NOT_VAR;
    }
    for (x, a) in in_a.iter().enumerate() {
        if *a {
            st.pt[x] = Default::default();
            st.pending[x] = None;
        }
    }
    for &d in &dead {
        in_a[d as usize] = false;
    }
    contexts.sort_unstable();
    Ok((in_a, contexts))
}

/// The nodes of field `f` of the objects of node `base` (those that exist).
fn fields_of(st: &State, base: u32, f: u32) -> impl Iterator<Item = u32> + '_ {
    st.pt[base as usize]
        .iter()
        .filter_map(move |o| st.field_nodes.get(&(o, f)).copied())
}
