//! Incremental re-analysis: after an edit, a new run answers calls with the
//! previous run's units wherever a scratch run would have computed exactly
//! the same unit, so that the result equals a scratch run's.
//!
//! 1. **Shape.** The functions (names and order), globals, types, externs,
//!    classes and settings must be the previous program's, and the previous
//!    run must be clear of the context bound; else: a scratch run.
//! 2. **Locations.** The previous table is carried over (ids stay, so the
//!    stored facts and memo keys stay valid) and every entry is derived
//!    again under the new program (`Locs::refresh`).
//! 3. **Dirty.** A function is dirty when its IR, the globals it may name
//!    or its `calls_unknown` bit changed. A unit is *clean* when its
//!    function is clean and every unit its computation was answered with
//!    (over all iterations: `Trace::deps`) is clean: reverse reachability,
//!    so a recursive cycle through a dirty function is dirty as a whole.
//!    Clean units holding a location whose data changed: a scratch run.
//! 4. **Run.** The clean units (renumbered) and their memo entries seed a
//!    normal run. A memo hit on a carried unit is *admitted* only when a
//!    scratch run would compute the same unit at that point: the unit
//!    finished as its own fixed point; every unit it was answered with was
//!    created during its own computation or is already admitted; and no
//!    function it reaches is on the current call stack (that would make a
//!    scratch run take an approximate node). Admitting a unit admits every
//!    unit created during its computation (a scratch run would have made
//!    them, into its memo) and replays the `atexit` handlers they
//!    registered. A refused unit and every carried unit that used it leave
//!    the memo: the call is analysed as a scratch run would.
//! 5. **Check.** A run that merged contexts, or whose `calloc` sites came
//!    out differently (`Locs::zeroed` is global), is redone from scratch.

use crate::facts::Facts;
use crate::loc::{LocId, Root};
use crate::query::Analysis;
use crate::solver::{Engine, Settings, Unit, UnitId};
use pointee_ir::{Name, Program};
use std::sync::Arc;

/// How a run went: units reused from the previous run, units computed, and
/// why it was a scratch run (`None` when it could reuse).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reuse {
    /// Live units taken from the previous run.
    pub reused: usize,
    /// Live units analysed by this run.
    pub computed: usize,
    /// The functions of the computed units, sorted.
    pub computed_functions: Vec<Name>,
    pub scratch_reason: Option<String>,
}

/// The previous run's units a rerun may answer calls with: units
/// `0..n` of the new engine.
pub(crate) struct Carried {
    n: usize,
    standalone: Vec<bool>,
    /// Units `u+1 .. end[u]` were created during `u`'s computation.
    end: Vec<UnitId>,
    deps: Vec<Vec<UnitId>>,
    users: Vec<Vec<UnitId>>,
    keys: Vec<Vec<(u32, Arc<Facts>)>>,
    admitted: Vec<bool>,
    refused: Vec<bool>,
    /// Per function: on the call stack during the current check.
    mark: Vec<bool>,
}

/// Decides a memo hit on unit `u` (see the module doc): true to answer the
/// call with it; false after taking it (and its users) out of the memo.
pub(crate) fn admit(e: &mut Engine<'_>, u: UnitId) -> bool {
    let Some(c) = e.carried.as_mut() else {
        return true;
    };
    let ui = u as usize;
    if ui >= c.n || c.admitted[ui] {
        return true;
    }
    let ok = c.standalone[ui] && {
        for fr in &e.stack {
            c.mark[fr.func as usize] = true;
        }
        let mut ok = true;
        let mut work = vec![u];
        let mut visited: crate::fxhash::FxHashSet<UnitId> = Default::default();
        visited.insert(u);
        while let Some(y) = work.pop() {
            let yi = y as usize;
            let inside = y >= u && y < c.end[ui];
            if !(inside || c.admitted[yi]) || c.mark[e.units[yi].func as usize] {
                ok = false;
                break;
            }
            for &d in &c.deps[yi] {
                if visited.insert(d) {
                    work.push(d);
                }
            }
        }
        for fr in &e.stack {
            c.mark[fr.func as usize] = false;
        }
        ok
    };
    if ok {
        for y in ui..c.end[ui] as usize {
            if !std::mem::replace(&mut c.admitted[y], true) {
                for name in &e.units[y].trace.exits {
                    if !e.exit_handlers.contains(name) {
                        e.exit_handlers.push(name.clone());
                    }
                }
            }
        }
        return true;
    }
    let mut work = vec![u];
    while let Some(y) = work.pop() {
        let yi = y as usize;
        if std::mem::replace(&mut c.refused[yi], true) {
            continue;
        }
        for k in std::mem::take(&mut c.keys[yi]) {
            if e.memo.get(&k) == Some(&y) {
                e.memo.remove(&k);
            }
        }
        work.extend(c.users[yi].iter().copied());
    }
    false
}

/// Why `program` cannot reuse `old`'s units at all.
fn shape_change(old: &Engine<'_>, program: &Program, settings: &Settings) -> Option<String> {
    let p = old.prog;
    if *settings != old.settings {
        return Some("settings changed".into());
    }
    if p.functions.len() != program.functions.len()
        || p.functions
            .iter()
            .zip(&program.functions)
            .any(|(a, b)| a.name != b.name)
    {
        return Some("functions added, removed or reordered".into());
    }
    if p.globals != program.globals {
        return Some("globals changed".into());
    }
    if p.types != program.types {
        return Some("types changed".into());
    }
    if p.externs != program.externs || p.classes != program.classes {
        return Some("declarations changed".into());
    }
    if old.run_units == 0 {
        return Some("no previous run".into());
    }
    let bound = old.settings.max_contexts_per_function;
    if old.per_func.iter().any(|&n| n.saturating_mul(2) > bound)
        || old.units[..old.run_units]
            .iter()
            .any(|u| u.merged && !u.dead)
    {
        // Merged contexts depend on creation order.
        return Some("near the context bound".into());
    }
    None
}

/// Every location a unit's stored facts and call maps name, with their
/// parents.
fn held(unit: &Unit, out: &mut Vec<LocId>) {
    for st in [&*unit.key, &*unit.input] {
        out.extend(st.iter().flat_map(|f| [f.src, f.dst]));
    }
    if let Some(o) = &unit.output {
        out.extend(o.iter().flat_map(|f| [f.src, f.dst]));
    }
    for e in unit.calls.values() {
        for (s, rs) in &e.map {
            out.push(*s);
            out.extend(rs.iter().copied());
        }
    }
}

/// A run of `program` from scratch, saying why.
fn scratch<'p>(program: &'p Program, settings: Settings, why: String) -> Analysis<'p> {
    let mut a = crate::analyze(program, settings);
    a.reuse_mut().scratch_reason = Some(why);
    a
}

/// Analyses `program`, reusing `prev`'s units where that gives the result
/// a scratch run would (the module doc says how).
pub(crate) fn rerun<'p>(
    prev: &Analysis<'_>,
    program: &'p Program,
    settings: Settings,
) -> Analysis<'p> {
    let old = prev.engine();
    if let Some(why) = shape_change(old, program, &settings) {
        return scratch(program, settings, why);
    }
    let mut locs = old.locs.clone();
    let changed = locs.refresh(program);
    let mut engine = Engine::with_locs(program, settings.clone(), locs);
    let nf = program.functions.len();
    let dirty: Vec<bool> = (0..nf)
        .map(|f| {
            program.functions[f] != old.prog.functions[f]
                || engine.refs[f] != old.refs[f]
                || engine.calls_unknown[f] != old.calls_unknown[f]
        })
        .collect();

    // Clean units: reverse reachability from the dirty ones.
    let n_old = old.run_units;
    let units = &old.units[..n_old];
    let mut users: Vec<Vec<UnitId>> = vec![Vec::new(); n_old];
    for (u, unit) in units.iter().enumerate() {
        for &d in &unit.trace.deps {
            if (d as usize) < n_old {
                users[d as usize].push(u as UnitId);
            }
        }
    }
    let mut clean = vec![true; n_old];
    let mut work: Vec<usize> = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        let bad_dep = unit.trace.deps.iter().any(|&d| d as usize >= n_old);
        if !unit.dead && (unit.merged || dirty[unit.func as usize] || bad_dep) {
            work.push(u);
        }
    }
    while let Some(u) = work.pop() {
        if std::mem::replace(&mut clean[u], false) {
            work.extend(users[u].iter().map(|&x| x as usize));
        }
    }
    // Dead units are never reused, and make no user dirty: their traces
    // went to the unit that dropped them.
    for (u, unit) in units.iter().enumerate() {
        if unit.dead {
            clean[u] = false;
        }
    }

    // Clean units must not hold a location the edit changed.
    if !changed.is_empty() {
        let changed: crate::fxhash::FxHashSet<LocId> = changed.into_iter().collect();
        let mut locs_held = Vec::new();
        for (u, unit) in units.iter().enumerate() {
            if clean[u] {
                locs_held.clear();
                held(unit, &mut locs_held);
                for &l in &locs_held {
                    let mut cur = Some(l);
                    while let Some(x) = cur {
                        if changed.contains(&x) {
                            let why = format!("a reused unit holds {}", engine.locs.name(x));
                            return scratch(program, settings, why);
                        }
                        cur = engine.locs.get(x).parent;
                    }
                }
            }
        }
    }

    // `calloc` sites of dirty functions are found again by the run.
    let old_zeroed = old.locs.zeroed.clone();
    let dirty_names: crate::fxhash::FxHashSet<&Name> = (0..nf)
        .filter(|&f| dirty[f])
        .map(|f| &program.functions[f].name)
        .collect();
    let owned_by_dirty = |locs: &crate::loc::Locs, l: LocId| match &locs.get(l).root {
        Root::Heap(o, _) | Root::Fresh(o, _) => dirty_names.contains(o),
        _ => false,
    };
    let drop: Vec<LocId> = engine
        .locs
        .zeroed
        .iter()
        .copied()
        .filter(|&l| owned_by_dirty(&engine.locs, l))
        .collect();
    for l in drop {
        engine.locs.zeroed.remove(&l);
    }

    // Renumber the clean units into the new engine.
    let mut new_id = vec![UnitId::MAX; n_old];
    let mut count = 0;
    for u in 0..n_old {
        if clean[u] {
            new_id[u] = count;
            count += 1;
        }
    }
    let n = count as usize;
    // prefix[u]: clean units before old id u.
    let mut prefix = vec![0u32; n_old + 1];
    let mut live_prefix = vec![0u32; n_old + 1];
    for u in 0..n_old {
        prefix[u + 1] = prefix[u] + clean[u] as u32;
        live_prefix[u + 1] = live_prefix[u] + !units[u].dead as u32;
    }
    let mut carried = Carried {
        n,
        standalone: vec![false; n],
        end: vec![0; n],
        deps: vec![Vec::new(); n],
        users: vec![Vec::new(); n],
        keys: vec![Vec::new(); n],
        admitted: vec![false; n],
        refused: vec![false; n],
        mark: vec![false; nf],
    };
    for u in 0..n_old {
        if !clean[u] {
            continue;
        }
        let nu = new_id[u] as usize;
        let mut unit = units[u].clone();
        unit.entry = None;
        for e in unit.calls.values_mut() {
            e.unit = e.unit.map(|c| new_id[c as usize]);
        }
        for a in &mut unit.approx {
            a.2 = new_id[a.2 as usize];
        }
        let end = (unit.trace.end as usize).min(n_old);
        // Every unit its computation created must come along.
        let whole = prefix[end] - prefix[u] == live_prefix[end] - live_prefix[u];
        carried.standalone[nu] = unit.trace.standalone && whole;
        unit.trace.end = prefix[end];
        carried.end[nu] = prefix[end];
        unit.trace.deps = unit
            .trace
            .deps
            .iter()
            .filter(|&&d| !units[d as usize].dead)
            .map(|&d| new_id[d as usize])
            .collect();
        for &d in &unit.trace.deps {
            carried.users[d as usize].push(nu as UnitId);
        }
        carried.deps[nu] = unit.trace.deps.clone();
        engine.units.push(unit);
    }
    for (k, &u) in &old.memo {
        if (u as usize) < n_old && clean[u as usize] {
            let nu = new_id[u as usize];
            engine.memo.insert(k.clone(), nu);
            carried.keys[nu as usize].push(k.clone());
        }
    }
    // Counting the previous run's units keeps the bound conservative: a
    // rerun that merges nothing means a scratch run would not either.
    engine.per_func = old.per_func.clone();
    engine.carried = Some(carried);

    let mut engine = crate::run_engine(engine);
    engine.carried = None;

    let merged = engine.units[n..].iter().any(|u| u.merged && !u.dead);
    if merged {
        return scratch(program, settings, "the run merged contexts".into());
    }
    if engine.locs.zeroed != old_zeroed {
        return scratch(program, settings, "calloc sites changed".into());
    }
    let mut a = Analysis::new(engine);
    let live = a.live().to_vec();
    let r = a.reuse_mut();
    r.reused = live[..n].iter().filter(|&&l| l).count();
    r.scratch_reason = None;
    a.count_computed(n);
    a
}
