//! Incremental re-analysis: after an edit, a new run answers calls with the
//! previous run's units wherever a scratch run would have computed exactly
//! the same unit, so that the result equals a scratch run's.
//!
//! 1. **Shape.** The functions (names and order), globals, types, externs,
//!    classes and settings must be the previous program's, the previous
//!    run must be clear of the context bound (see 6), and the units kept
//!    (dropped ones keep their ids) must not outnumber twice those a
//!    scratch run creates (plus 1000); else: a scratch run.
//! 2. **Locations.** The previous table is carried over (ids stay, so the
//!    stored facts and memo keys stay valid); the entries that depend on an
//!    edited function's variables are derived again (`Locs::refresh`).
//!    A unit of an unedited function holding one that changed: a scratch
//!    run.
//! 3. **Dirty.** A function is dirty when its IR, the globals it may name
//!    or its `calls_unknown` bit changed. Units keep their ids.
//! 4. **Trials.** Going up the previous invocation graph (callees first),
//!    a unit is *clean* when its function is clean and every unit its
//!    computation was answered with (over all iterations: `Trace::deps`)
//!    is clean or was confirmed. A dirty or suspect unit that is *pure* is
//!    analysed again on its own (a trial): pure means no recursion inside,
//!    it finished as its own fixed point, and no function below it lies on
//!    a cycle of the new program's call graph (`refs.rs`), so no call
//!    stack can change its result: a scratch run computes the same unit
//!    wherever it meets it. A trial whose result (output and flags) is the
//!    old one *confirms* the unit: its callers stay clean (an edit that
//!    does not change what a function returns stops there).
//! 5. **Run.** The clean units and the trials' units seed a normal run.
//!    A memo hit on a pure one is taken as is. A memo hit on another
//!    carried unit is *admitted* only when a scratch run would compute the
//!    same unit at that point: the unit finished as its own fixed point;
//!    every unit it was answered with was created during its own
//!    computation, is pure, or is already admitted; and no function it
//!    reaches is on the current call stack (that would make a scratch run
//!    take an approximate node). Admitting a unit admits every unit created
//!    during its computation (a scratch run would have made them, into its
//!    memo). "Created during its computation" follows `Trace::parent`, not
//!    id ranges: an admitted unit becomes a child of the caller it was
//!    admitted under (a scratch run creates it there), so a unit a rerun
//!    computed over older units can be admitted by a later rerun. A
//!    refused unit and every carried unit that used it leave the memo: the
//!    call is analysed as a scratch run would. The `atexit` handlers
//!    registered below a unit taken from the memo are registered again.
//! 6. **Check.** A run that merged contexts, or whose `calloc` sites came
//!    out differently (`Locs::zeroed` is global), is redone from scratch;
//!    so is one where the units a scratch run would create (`scratch_made`:
//!    the run's, and the carried ones it took with what they created and
//!    used) come within a factor 2 of the context bound in a function:
//!    then a scratch run merges nothing either. Carried units the run did
//!    not take are dropped.

use crate::facts::Facts;
use crate::fxhash::{FxHashMap as HashMap, FxHashSet as HashSet};
use crate::loc::{LocId, Locs, Root};
use crate::query::Analysis;
use crate::refs::{FuncScan, Refs};
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

/// What a rerun takes from the previous run (moved out of it, or copied).
pub(crate) struct Previous {
    program: Arc<Program>,
    settings: Settings,
    locs: Locs,
    units: Vec<Unit>,
    memo: HashMap<(u32, Arc<Facts>), UnitId>,
    per_func: Vec<usize>,
    refs: Refs,
    scans: Vec<FuncScan>,
    main_input: Option<Arc<Facts>>,
    run_units: usize,
    /// Units of the scratch run this run descends from.
    lineage: usize,
    /// It stopped at its budget: its units depend on where (`budget.rs`).
    partial: bool,
}

impl Previous {
    /// A copy of an analysis's state (it stays usable).
    pub(crate) fn copy(a: &Analysis<'_>, program: Arc<Program>) -> Previous {
        let e = a.engine();
        Previous {
            program,
            settings: e.settings.clone(),
            locs: e.locs.clone(),
            units: e.units[..e.run_units].to_vec(),
            memo: e.memo.clone(),
            per_func: e.per_func.clone(),
            refs: Refs {
                refs: e.refs.clone(),
                calls_unknown: e.calls_unknown.clone(),
                needs_escapes: e.needs_escapes.clone(),
                cyclic: e.cyclic.clone(),
                scc: e.scc.clone(),
                scc_size: e.scc_size.clone(),
            },
            scans: e.scans.clone(),
            main_input: e.main_input.clone(),
            run_units: e.run_units,
            lineage: lineage(e),
            partial: e.exhausted.is_some(),
        }
    }

    /// Moves an analysis's state out (the analysis is dropped after).
    pub(crate) fn take(a: &mut Analysis<'_>, program: Arc<Program>) -> Previous {
        let e = a.engine_mut();
        let mut units = std::mem::take(&mut e.units);
        units.truncate(e.run_units);
        Previous {
            program,
            settings: e.settings.clone(),
            locs: std::mem::take(&mut e.locs),
            units,
            memo: std::mem::take(&mut e.memo),
            per_func: std::mem::take(&mut e.per_func),
            refs: Refs {
                refs: std::mem::take(&mut e.refs),
                calls_unknown: std::mem::take(&mut e.calls_unknown),
                needs_escapes: std::mem::take(&mut e.needs_escapes),
                cyclic: std::mem::take(&mut e.cyclic),
                scc: std::mem::take(&mut e.scc),
                scc_size: std::mem::take(&mut e.scc_size),
            },
            scans: std::mem::take(&mut e.scans),
            main_input: e.main_input.take(),
            run_units: e.run_units,
            lineage: lineage(e),
            partial: e.exhausted.is_some(),
        }
    }
}

/// The units of the scratch run an engine's run descends from.
fn lineage(e: &Engine<'_>) -> usize {
    if e.lineage == 0 {
        e.run_units
    } else {
        e.lineage
    }
}

/// The previous run's units (and the trials') while a rerun runs: units
/// `0..start` of the engine.
pub(crate) struct Carried {
    start: usize,
    /// The previous run's units are `0..old`; trials' units `old..start`.
    old: usize,
    /// Finished as its own fixed point, with every unit created during its
    /// computation carried.
    standalone: Vec<bool>,
    /// The units whose `Trace::parent` is each unit: a unit's descendants
    /// are what its computation created.
    children: Vec<Vec<UnitId>>,
    pure: Vec<bool>,
    users: Vec<Vec<UnitId>>,
    admitted: Vec<bool>,
    /// `atexit` handlers registered again.
    replayed: Vec<bool>,
    refused: Vec<bool>,
    /// Per function: on the call stack during the current check.
    mark: Vec<bool>,
    /// Trials: units usable out of context (clean and pure so far).
    usable: Vec<bool>,
    trying: bool,
    tainted: bool,
}

impl Carried {
    /// A trial is running: no `atexit` handler is registered for real.
    pub(crate) fn trial(&self) -> bool {
        self.trying
    }
}

/// Decides a memo hit on unit `u` (see the module doc): true to answer the
/// call with it; false after taking it (and its users) out of the memo.
pub(crate) fn admit(e: &mut Engine<'_>, u: UnitId) -> bool {
    let Some(c) = e.carried.as_mut() else {
        return true;
    };
    let ui = u as usize;
    if c.trying {
        if ui < c.old && !c.usable[ui] {
            // Its result may be stale or depend on where it is called:
            // the trial's result is thrown away.
            c.tainted = true;
        }
        return true;
    }
    if ui >= c.start {
        return true;
    }
    if c.pure[ui] || c.admitted[ui] {
        replay_exits(e, u);
        return true;
    }
    let c = e.carried.as_mut().unwrap();
    let mut reached = Vec::new();
    let ok = c.standalone[ui] && {
        for fr in &e.stack {
            c.mark[fr.func as usize] = true;
        }
        let mut ok = true;
        let mut work = vec![u];
        let mut visited = vec![false; c.start];
        visited[ui] = true;
        while let Some(y) = work.pop() {
            let yi = y as usize;
            reached.push(y);
            let inside = descends(&e.units, y, u);
            let unit = &e.units[yi];
            let on_stack =
                c.mark[unit.func as usize] || unit.trace.funcs.iter().any(|&f| c.mark[f as usize]);
            if !(inside || c.admitted[yi] || c.pure[yi]) || on_stack {
                ok = false;
                break;
            }
            for &d in &e.units[yi].trace.deps {
                if !std::mem::replace(&mut visited[d as usize], true) {
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
        let below = descendants(&c.children, u);
        for &y in &below {
            if !e.units[y as usize].dead {
                c.admitted[y as usize] = true;
            }
        }
        for y in reached {
            c.admitted[y as usize] = true;
        }
        // A scratch run creates it here: a later rerun must see it as made
        // by the caller's computation.
        e.units[ui].trace.parent = e.stack.last().map(|fr| fr.unit);
        for y in below {
            if !e.units[y as usize].dead {
                replay_exits(e, y);
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
        forget(&mut e.memo, &e.units[yi], y);
        work.extend(c.users[yi].iter().copied());
    }
    false
}

/// Whether `y` is `u` or was created during `u`'s computation.
fn descends(units: &[Unit], y: UnitId, u: UnitId) -> bool {
    let mut cur = Some(y);
    while let Some(x) = cur {
        if x == u {
            return true;
        }
        cur = units[x as usize].trace.parent;
    }
    false
}

/// `u` and every carried unit created during its computation (dropped
/// provisional ones included: live units may hang below them).
fn descendants(children: &[Vec<UnitId>], u: UnitId) -> Vec<UnitId> {
    let mut out = vec![u];
    let mut i = 0;
    while i < out.len() {
        out.extend(children[out[i] as usize].iter().copied());
        i += 1;
    }
    out
}

/// Registers again the `atexit` handlers of `u` and every unit below it.
fn replay_exits(e: &mut Engine<'_>, u: UnitId) {
    let c = e.carried.as_mut().unwrap();
    if c.replayed[u as usize] {
        return;
    }
    let mut work = vec![u];
    c.replayed[u as usize] = true;
    while let Some(y) = work.pop() {
        let unit = &e.units[y as usize];
        for name in &unit.trace.exits {
            if !e.exit_handlers.contains(name) {
                e.exit_handlers.push(name.clone());
            }
        }
        for &d in &unit.trace.deps {
            if (d as usize) < c.start && !std::mem::replace(&mut c.replayed[d as usize], true) {
                work.push(d);
            }
        }
    }
}

/// Why `program` cannot reuse the previous run's units at all.
fn shape_change(old: &Previous, program: &Program, settings: &Settings) -> Option<String> {
    let p = &*old.program;
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
    if near_bound(&old.per_func, &old.settings) || old.units.iter().any(|u| u.merged && !u.dead) {
        // Merged contexts depend on creation order.
        return Some("near the context bound".into());
    }
    // Units keep their ids and are never compacted: dropped and unused
    // ones pile up over reruns.
    if old.units.len() > 2 * old.lineage + 1000 {
        return Some("too many unused units".into());
    }
    None
}

/// Whether a run creating `per_func` units per function came within a
/// factor 2 of the context bound.
fn near_bound(per_func: &[usize], settings: &Settings) -> bool {
    let bound = settings.max_contexts_per_function;
    per_func.iter().any(|&n| n.saturating_mul(2) > bound)
}

/// Per function, at least the units a scratch run of the program creates
/// (dropped provisional ones included), and their total. A rerun simulates
/// a scratch run: the scratch run creates what the run created (units
/// `start..`), and, where the run took a carried unit, that unit and what
/// its computation created, the first time it is met (else it is a memo
/// hit). So the units reached from the run's units and the entries over
/// the units they were answered with and the units their computation
/// created (`Trace::parent`) cover what a scratch run creates: if these
/// stay within half the bound, a scratch run merges nothing either.
/// Counting this instead of every unit created since the last scratch run
/// keeps output-changing edits from creeping up to the bound. Also returns
/// which units are counted: the others are of no use to the new run.
fn scratch_made(e: &Engine<'_>, start: usize) -> (Vec<usize>, usize, Vec<bool>) {
    let n = e.units.len();
    let mut children: Vec<Vec<UnitId>> = vec![Vec::new(); n];
    for (u, unit) in e.units.iter().enumerate() {
        if let Some(p) = unit.trace.parent {
            children[p as usize].push(u as UnitId);
        }
    }
    let mut seen = vec![false; n];
    let mut work: Vec<UnitId> = (start as UnitId..n as UnitId).collect();
    work.extend(e.entries.iter().copied());
    for &u in &work {
        seen[u as usize] = true;
    }
    let mut per_func = vec![0; e.prog.functions.len()];
    let mut made = 0;
    while let Some(u) = work.pop() {
        let unit = &e.units[u as usize];
        per_func[unit.func as usize] += 1;
        made += 1;
        for &d in unit.trace.deps.iter().chain(&children[u as usize]) {
            if !std::mem::replace(&mut seen[d as usize], true) {
                work.push(d);
            }
        }
    }
    (per_func, made, seen)
}

/// Every location a unit's stored facts and call maps name.
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
fn scratch(program: &Program, settings: Settings, why: String) -> Analysis<'_> {
    let mut a = crate::analyze(program, settings);
    a.reuse_mut().scratch_reason = Some(why);
    a
}

/// Analyses `program`, reusing the previous run's units where that gives
/// the result a scratch run would (the module doc says how).
pub(crate) fn rerun(prev: Previous, program: &Program, settings: Settings) -> Analysis<'_> {
    if let Some(why) = shape_change(&prev, program, &settings) {
        return scratch(program, settings, why);
    }
    if prev.partial {
        let why = "the previous run stopped at its budget".into();
        return scratch(program, settings, why);
    }
    let Previous {
        program: old_program,
        locs,
        units,
        memo,
        per_func,
        refs: old_refs,
        scans: old_scans,
        main_input,
        run_units: old_n,
        lineage,
        ..
    } = prev;
    let nf = program.functions.len();
    let edited: Vec<bool> = (0..nf)
        .map(|f| program.functions[f] != old_program.functions[f])
        .collect();
    let mut locs = locs;
    let vars_edited: Vec<bool> = (0..nf)
        .map(|f| edited[f] && program.functions[f].vars != old_program.functions[f].vars)
        .collect();
    let changed = locs.refresh(program, &vars_edited);
    let mut scans = old_scans;
    let mut rescanned = false;
    for f in 0..nf {
        if edited[f] {
            let s = crate::refs::scan_function(program, &locs, f);
            rescanned |= s != scans[f];
            scans[f] = s;
        }
    }
    let refs = if rescanned {
        crate::refs::global_refs(program, &mut locs, &scans)
    } else {
        old_refs.clone()
    };
    let dirty: Vec<bool> = (0..nf)
        .map(|f| {
            edited[f]
                || refs.refs[f] != old_refs.refs[f]
                || refs.calls_unknown[f] != old_refs.calls_unknown[f]
                || refs.needs_escapes[f] != old_refs.needs_escapes[f]
        })
        .collect();

    // What a caller uses of a callee besides its units' results: its
    // formals and return slot, the globals it maps, `calls_unknown`. A
    // trial confirms a unit only if these stayed.
    let same_interface: Vec<bool> = (0..nf)
        .map(|f| {
            let (a, b) = (&old_program.functions[f], &program.functions[f]);
            let slots = |g: &pointee_ir::Function| {
                let mut v: Vec<_> = g.params.iter().map(|&p| (p, g.var(p).clone())).collect();
                v.extend(g.ret_var.map(|r| (r, g.var(r).clone())));
                v
            };
            (!edited[f] || slots(a) == slots(b))
                && refs.refs[f] == old_refs.refs[f]
                && refs.calls_unknown[f] == old_refs.calls_unknown[f]
                && refs.needs_escapes[f] == old_refs.needs_escapes[f]
        })
        .collect();

    // No unit of a clean function may hold a location the edit changed.
    // A dirty function's variables and the symbolic names hanging off them
    // are on its stack: only its own units (dirty) hold them, so only
    // other changes need the scan.
    let owned = |l: LocId| {
        let mut x = l;
        loop {
            match &locs.get(x).root {
                Root::Var(f, _) => return dirty[*f as usize],
                Root::Sym { ptr, .. } => x = *ptr,
                _ => return false,
            }
        }
    };
    let changed: Vec<LocId> = changed.into_iter().filter(|&l| !owned(l)).collect();
    if !changed.is_empty() {
        let changed: HashSet<LocId> = changed.into_iter().collect();
        let mut locs_held = Vec::new();
        for unit in &units {
            if unit.dead || dirty[unit.func as usize] {
                continue;
            }
            locs_held.clear();
            held(unit, &mut locs_held);
            for &l in &locs_held {
                let mut cur = Some(l);
                while let Some(x) = cur {
                    if changed.contains(&x) {
                        let why = format!("a reused unit holds {}", locs.name(x));
                        return scratch(program, settings, why);
                    }
                    cur = locs.get(x).parent;
                }
            }
        }
    }

    // `calloc` sites of dirty functions are found again by the run.
    let old_zeroed = locs.zeroed.clone();
    let dirty_names: HashSet<&Name> = (0..nf)
        .filter(|&f| dirty[f])
        .map(|f| &program.functions[f].name)
        .collect();
    let owned_by_dirty = |locs: &Locs, l: LocId| match &locs.get(l).root {
        Root::Heap(o, ..) | Root::Fresh(o, ..) => dirty_names.contains(o),
        _ => false,
    };
    let drop: Vec<LocId> = locs
        .zeroed
        .iter()
        .copied()
        .filter(|&l| owned_by_dirty(&locs, l))
        .collect();
    for l in drop {
        locs.zeroed.remove(&l);
    }

    let mut engine = Engine::with_refs(program, settings.clone(), locs, scans, refs);
    engine.units = units;
    engine.memo = memo;
    // Only a rerun that reaches the bound wastes work: `scratch_made`
    // decides after the run.
    engine.per_func = per_func;
    engine.lineage = lineage;
    // Made of the globals (unchanged) and `main`'s parameters.
    let main_edited = (engine.locs.func_index.get("main")).is_some_and(|&m| edited[m as usize]);
    if !main_edited {
        engine.main_input = main_input;
    }
    let engine = crate::run_on_big_stack(engine, move |e| {
        prepare(e, old_n, &dirty, &same_interface);
        e.run();
    });
    let mut engine = engine;
    let start = engine.carried.take().map_or(old_n, |c| c.start);

    let merged = engine.units[old_n..].iter().any(|u| u.merged && !u.dead);
    if merged {
        return scratch(program, settings, "the run merged contexts".into());
    }
    let (per_func, made, used) = scratch_made(&engine, start);
    if near_bound(&per_func, &settings) {
        return scratch(program, settings, "near the context bound".into());
    }
    // Carried units the run did not take (trials of a changed interface,
    // units of an old body's calls) would be tried again by every later
    // rerun: drop them.
    for (u, &used) in used.iter().enumerate().take(start) {
        if !used && !engine.units[u].dead {
            forget(&mut engine.memo, &engine.units[u], u as UnitId);
            engine.drop_unit(u as UnitId);
        }
    }
    engine.per_func = per_func;
    engine.lineage = made;
    if engine.locs.zeroed != old_zeroed {
        return scratch(program, settings, "calloc sites changed".into());
    }
    let mut a = Analysis::new(engine);
    let live = a.live().to_vec();
    a.count_computed(old_n);
    let r = a.reuse_mut();
    r.reused = live[..old_n].iter().filter(|&&l| l).count();
    r.scratch_reason = None;
    a
}

/// Steps 4 and 5 of the module doc: decides which of the previous run's
/// units (`0..old`) stay, tries the pure suspects again, and seeds the
/// memo for the run.
#[allow(clippy::needless_range_loop)] // parallel vectors by unit id
fn prepare(e: &mut Engine<'_>, old: usize, dirty: &[bool], same_interface: &[bool]) {
    debug_assert_eq!(e.units.len(), old);
    // Units of queries' replays are gone; dirty functions' units never
    // answer a call.
    e.memo
        .retain(|&(f, _), u| (*u as usize) < old && !dirty[f as usize]);
    let cyclic = e.cyclic.clone();
    let pure_local = |u: &Unit| !u.recursive && u.trace.standalone && !cyclic[u.func as usize];

    // Callees first: by the end of their computation, inner ones first.
    let mut order: Vec<usize> = (0..old).filter(|&u| !e.units[u].dead).collect();
    order.sort_by_key(|&u| (e.units[u].trace.end, std::cmp::Reverse(u)));
    let mut done = vec![false; old];
    let mut clean = vec![false; old];
    let mut pure = vec![false; old];
    let mut replaced: Vec<Option<UnitId>> = vec![None; old];
    e.carried = Some(Carried {
        start: 0,
        old,
        standalone: Vec::new(),
        children: Vec::new(),
        pure: Vec::new(),
        users: Vec::new(),
        admitted: Vec::new(),
        replayed: Vec::new(),
        refused: Vec::new(),
        mark: Vec::new(),
        usable: vec![false; old],
        trying: false,
        tainted: false,
    });
    for u in order {
        done[u] = true;
        let unit = &e.units[u];
        let eff = |d: UnitId| replaced[d as usize].unwrap_or(d) as usize;
        let mut deps_clean = true;
        let mut deps_pure = true;
        for &d in &unit.trace.deps {
            if e.units[d as usize].dead && replaced[d as usize].is_none() {
                continue;
            }
            let d = eff(d);
            if d >= old {
                continue; // a trial's unit: clean and pure
            }
            if d == u {
                deps_pure = false; // its own approximate node
                continue;
            }
            // Not done yet: a back edge (recursion), so not pure; its
            // cleanliness is settled below.
            deps_clean &= !done[d] || clean[d];
            deps_pure &= done[d] && pure[d];
        }
        let local = pure_local(unit);
        let (f, key) = (unit.func, unit.key.clone());
        if !dirty[f as usize] && deps_clean {
            clean[u] = true;
            pure[u] = local && deps_pure;
            e.carried.as_mut().unwrap().usable[u] = pure[u];
            continue;
        }
        // Dirty or suspect: out of the memo, tried again when pure.
        forget(&mut e.memo, &e.units[u], u as UnitId);
        // A trial that meets a unit that is not pure is thrown away (it
        // only learns so after analysing the whole body): a unit whose
        // computation used one would most likely meet it again.
        if !local || !deps_pure {
            continue;
        }
        let Some(y) = trial(e, f, key) else {
            continue;
        };
        let (a, b) = (&e.units[u], &e.units[y as usize]);
        if same_interface[f as usize]
            && a.output == b.output
            && a.wild == b.wild
            && a.wrote_symbolic == b.wrote_symbolic
            && a.stores == b.stores
            && a.escaped == b.escaped
        {
            replaced[u] = Some(y);
        }
    }

    // Settle cleanliness over cycles: users of a dirty unit are dirty.
    let start = e.units.len();
    let eff = |d: UnitId| replaced[d as usize].unwrap_or(d);
    let mut users: Vec<Vec<UnitId>> = vec![Vec::new(); start];
    for u in 0..old {
        if e.units[u].dead {
            continue;
        }
        for &d in &e.units[u].trace.deps {
            let d = eff(d);
            if (d as usize) < old {
                users[d as usize].push(u as UnitId);
            }
        }
    }
    let mut work: Vec<usize> = (0..old)
        .filter(|&u| !e.units[u].dead && !clean[u])
        .collect();
    while let Some(u) = work.pop() {
        for &x in &users[u] {
            if std::mem::replace(&mut clean[x as usize], false) {
                work.push(x as usize);
            }
        }
    }
    // Units whose computation created a unit that does not come along.
    let mut lost_below = vec![false; old];
    for u in 0..old {
        if !clean[u] && !e.units[u].dead && replaced[u].is_none() {
            let mut cur = e.units[u].trace.parent;
            while let Some(p) = cur {
                if std::mem::replace(&mut lost_below[p as usize], true) {
                    break;
                }
                cur = e.units[p as usize].trace.parent;
            }
        }
    }
    // The rest of the previous run is dropped for good (a later rerun
    // must never take a unit computed from an older body).
    for u in 0..old {
        if !clean[u] && !e.units[u].dead {
            forget(&mut e.memo, &e.units[u], u as UnitId);
            e.drop_unit(u as UnitId);
        }
    }
    // Entries are the new run's to mark; callers of confirmed units now
    // call the trial's unit.
    let any_replaced = replaced.iter().any(Option::is_some);
    for u in 0..old {
        if !clean[u] {
            continue;
        }
        let unit = &mut e.units[u];
        unit.entry = None;
        if any_replaced {
            for edge in unit.calls.values_mut() {
                edge.unit = edge.unit.map(eff);
            }
            for d in &mut unit.trace.deps {
                *d = eff(*d);
            }
        }
    }
    // Purity over the settled graph; trials' units are pure.
    let mut pure_all = vec![true; start];
    let mut work: Vec<usize> = Vec::new();
    for u in 0..old {
        if clean[u] && !pure[u] {
            work.push(u);
        }
    }
    let mut users_clean: Vec<Vec<UnitId>> = vec![Vec::new(); start];
    for u in 0..old {
        if clean[u] {
            for &d in &e.units[u].trace.deps {
                users_clean[d as usize].push(u as UnitId);
            }
        }
    }
    while let Some(u) = work.pop() {
        if std::mem::replace(&mut pure_all[u], false) {
            work.extend(users_clean[u].iter().map(|&x| x as usize));
        }
    }
    for (u, p) in pure_all.iter_mut().enumerate() {
        *p &= if u < old { clean[u] } else { !e.units[u].dead };
    }
    // A unit can be admitted when everything created during its
    // computation came along.
    let mut standalone = vec![false; start];
    for u in 0..old {
        standalone[u] = clean[u] && e.units[u].trace.standalone && !lost_below[u];
    }
    let mut children: Vec<Vec<UnitId>> = vec![Vec::new(); start];
    for u in 0..start {
        if let Some(p) = e.units[u].trace.parent {
            children[p as usize].push(u as UnitId);
        }
    }
    e.carried = Some(Carried {
        start,
        old,
        standalone,
        children,
        pure: pure_all,
        users: users_clean,
        admitted: vec![false; start],
        replayed: vec![false; start],
        refused: vec![false; start],
        mark: vec![false; e.prog.functions.len()],
        usable: Vec::new(),
        trying: false,
        tainted: false,
    });
}

/// Analyses `(f, key)` on its own, out of any calling context. Returns the
/// unit when the result is pure (see the module doc) and used only clean,
/// pure units; otherwise drops what it computed.
fn trial(e: &mut Engine<'_>, f: u32, key: Arc<Facts>) -> Option<UnitId> {
    if let Some(&y) = e.memo.get(&(f, key.clone())) {
        // Another trial computed it.
        return Some(y).filter(|&y| y as usize >= e.carried.as_ref().unwrap().old);
    }
    let first = e.units.len();
    {
        let c = e.carried.as_mut().unwrap();
        c.trying = true;
        c.tainted = false;
    }
    let y = e.invoke(f, key).map(|r| r.1);
    let c = e.carried.as_mut().unwrap();
    c.trying = false;
    let Some(y) = y else {
        // Cut off by the budget: nothing was computed.
        return None;
    };
    let cyclic = &e.cyclic;
    let ok = !c.tainted
        && e.units[first..].iter().all(|u| {
            !u.dead && !u.recursive && u.trace.standalone && !u.merged && !cyclic[u.func as usize]
        });
    if ok {
        return Some(y);
    }
    for v in first..e.units.len() {
        forget(&mut e.memo, &e.units[v], v as UnitId);
        e.drop_unit(v as UnitId);
    }
    None
}

/// Takes unit `u` out of the memo: its entries are its key and, for a
/// recursive node, the input it generalised to (merged inputs of the
/// context bound never reach a rerun).
fn forget(memo: &mut HashMap<(u32, Arc<Facts>), UnitId>, unit: &Unit, u: UnitId) {
    for k in [
        (unit.func, unit.key.clone()),
        (unit.func, unit.input.clone()),
    ] {
        if memo.get(&k) == Some(&u) {
            memo.remove(&k);
        }
    }
}
