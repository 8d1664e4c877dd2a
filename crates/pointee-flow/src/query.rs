//! Queries over the analysis: facts at a point per context (re-running a
//! unit's body from its stored input), targets of an expression merged over
//! contexts, callees, alias verdicts, call chains, and the text dump.

use crate::facts::Facts;
use crate::fxhash::FxHashMap as HashMap;
use crate::loc::{Class, LocId, Locs, Root, NULL};
use crate::solver::{Engine, EntryKind, Unit, UnitId};
use crate::transfer::{self, Locset, Scope};
use pointee_ir::{Name, Point, Rvalue, StmtId};
use std::fmt::Write;
use std::sync::Arc;

/// The analysis result. Queries take `&mut self`: they re-run bodies and may
/// intern new location names.
pub struct Analysis<'p> {
    engine: Engine<'p>,
    live: Vec<bool>,
    main_live: Vec<bool>,
    /// Each live unit's number: its place in a depth-first walk of the
    /// invocation graph from the entries (see [`Analysis::unit_number`]).
    numbers: Vec<Option<u32>>,
    /// Each function's live units, by number (`units_of` is asked at every
    /// dereference a checker looks at: no scan of every unit there).
    by_func: Vec<Vec<UnitId>>,
    /// Each live unit's callers (unit, call statement), by number: built
    /// once, on the first call chain asked (checkers ask one per finding;
    /// a scan of every unit each time was quadratic).
    callers: std::sync::OnceLock<Callers>,
    /// The states of replayed units, oldest first, at most
    /// `replay_facts` facts in all but the newest (`Seen`).
    replays: Vec<(UnitId, crate::solver::Seen)>,
    replay_facts: usize,
    /// Per unit: its recorded site values answer for it
    /// (`SiteRecord::answers_for`, asked once).
    recorded: HashMap<UnitId, bool>,
    reuse: crate::reuse::Reuse,
    /// Per function: its answers miss contexts the budget cut off
    /// (`budget.rs`). Empty when the run finished.
    incomplete: Vec<bool>,
    /// Queries past the run's time limit answer without replaying
    /// ([`Analysis::bound_queries_by_budget`]); per function, whether one
    /// did.
    bounded_queries: bool,
    answered_past_deadline: Vec<bool>,
    /// The last replay reached the memory ceiling and was given up.
    replay_given_up: bool,
    /// The first limit a query answered without a replay for.
    queries_spent: Option<crate::budget::Spent>,
}

/// Facts the replays a query keeps hold at most, by default (about 100 MB;
/// the kept ones half of it, the newest the rest): what bounds the memory
/// of checkers and hovers, which the budget's probe does not watch.
pub const REPLAY_FACTS: usize = 1 << 23;

/// Each unit's callers: (calling unit, call statement).
type Callers = HashMap<UnitId, Vec<(UnitId, StmtId)>>;

/// The values of an expression in one context.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextValues {
    pub unit: UnitId,
    /// `None` when this context does not reach the point.
    pub targets: Option<Locset>,
}

/// An alias verdict over all contexts (pointee-ir's, one type for every
/// analysis).
pub use pointee_ir::Verdict as Alias;

impl<'p> Analysis<'p> {
    pub(crate) fn new(mut engine: Engine<'p>) -> Analysis<'p> {
        let incomplete = mark_partial(&mut engine);
        let live = engine.reachable_units(false);
        let main_live = engine.reachable_units(true);
        let numbers = number_units(&engine, &live);
        let mut by_func: Vec<Vec<UnitId>> = vec![Vec::new(); engine.prog.functions.len()];
        for (u, unit) in engine.units.iter().enumerate() {
            if live[u] {
                if let Some(v) = by_func.get_mut(unit.func as usize) {
                    v.push(u as UnitId);
                }
            }
        }
        for v in &mut by_func {
            v.sort_by_key(|&u| numbers[u as usize].unwrap_or(u32::MAX));
        }
        Analysis {
            engine,
            live,
            main_live,
            numbers,
            by_func,
            callers: Default::default(),
            replays: Vec::new(),
            replay_facts: REPLAY_FACTS,
            recorded: HashMap::default(),
            reuse: Default::default(),
            incomplete,
            bounded_queries: false,
            answered_past_deadline: Vec::new(),
            replay_given_up: false,
            queries_spent: None,
        }
    }

    /// From now on (`true`: the checkers' pass after the run), a query
    /// that needs a replay once the run's time limit is reached answers
    /// as an incomplete function does (`unknown`, possibly) instead of
    /// replaying, so that the time limit covers what `check` does after
    /// the run too (whole zlib took 69 s at `--budget-ms 20000`). Off by
    /// default: a hover asked later is a request of its own.
    pub fn bound_queries_by_budget(&mut self, on: bool) {
        self.bounded_queries = on;
    }

    /// When some query answered without a replay because the time limit
    /// was reached ([`Analysis::bound_queries_by_budget`]) or its replay
    /// reached the memory ceiling: the functions it answered for, sorted
    /// (their answers are partial too).
    pub fn queries_partial(&self) -> Option<crate::budget::Partial> {
        let spent = self.queries_spent?;
        let incomplete: Vec<Name> = (0..self.answered_past_deadline.len())
            .filter(|&f| self.answered_past_deadline[f])
            .map(|f| self.engine.prog.functions[f].name.clone())
            .collect();
        (!incomplete.is_empty()).then(|| crate::budget::Partial {
            spent,
            steps: self.engine.run_steps,
            incomplete,
        })
    }

    /// The answer of a context a query could not replay (the time limit
    /// or the memory ceiling): it may reach the point with anything.
    fn answer_without_replay(&mut self, fi: u32, spent: crate::budget::Spent) -> Option<Locset> {
        self.queries_spent.get_or_insert(spent);
        let n = self.engine.prog.functions.len();
        self.answered_past_deadline.resize(n, false);
        self.answered_past_deadline[fi as usize] = true;
        Some(vec![(crate::loc::UNKNOWN, false)])
    }

    /// Whether a query at `point` of unit `u` may not replay: queries are
    /// bounded, the time limit is reached and no kept replay answers.
    fn past_deadline_at(&self, u: UnitId, point: Point) -> bool {
        self.bounded_queries && self.engine.past_deadline() && !self.kept_replay_answers(u, point)
    }

    /// A kept replay of `u` answers at `point` (it kept the point, or did
    /// not reach it).
    fn kept_replay_answers(&self, u: UnitId, point: Point) -> bool {
        self.replays.iter().any(|(r, seen)| {
            *r == u && (seen.states.contains_key(&point) || !seen.skipped.contains(&point))
        })
    }

    /// What the run did not finish, when it stopped at its budget.
    pub fn partial(&self) -> Option<crate::budget::Partial> {
        let spent = self.engine.stopped_by()?;
        let incomplete = (0..self.incomplete.len())
            .filter(|&f| self.incomplete[f])
            .map(|f| self.engine.prog.functions[f].name.clone())
            .collect();
        Some(crate::budget::Partial {
            spent,
            steps: self.engine.spent_at,
            incomplete,
        })
    }

    /// The function's answers miss contexts the budget cut off: they say
    /// `unknown` besides what the analysed contexts give, never definitely.
    pub fn is_incomplete(&self, func: &str) -> bool {
        self.func_index(func)
            .is_some_and(|f| self.incomplete.get(f as usize).copied().unwrap_or(false))
    }

    pub(crate) fn engine(&self) -> &Engine<'p> {
        &self.engine
    }

    pub(crate) fn engine_mut(&mut self) -> &mut Engine<'p> {
        &mut self.engine
    }

    pub(crate) fn live(&self) -> &[bool] {
        &self.live
    }

    pub(crate) fn reuse_mut(&mut self) -> &mut crate::reuse::Reuse {
        &mut self.reuse
    }

    /// Counts the live units from `first` on as computed by this run.
    pub(crate) fn count_computed(&mut self, first: usize) {
        let mut names: Vec<Name> = Vec::new();
        let mut n = 0;
        for u in first..self.engine.units.len() {
            if self.live[u] {
                n += 1;
                names.push(
                    self.engine
                        .locs
                        .func_name(self.engine.units[u].func)
                        .clone(),
                );
            }
        }
        names.sort();
        names.dedup();
        self.reuse.computed = n;
        self.reuse.computed_functions = names;
    }

    /// How the run went: units reused from a previous run and computed.
    pub fn reuse(&self) -> &crate::reuse::Reuse {
        &self.reuse
    }

    /// Reached from an entry (units a query's re-run added are not).
    fn is_live(&self, u: UnitId) -> bool {
        self.live.get(u as usize).copied().unwrap_or(false)
    }

    pub fn locs(&self) -> &Locs {
        &self.engine.locs
    }

    pub fn units(&self) -> &[Unit] {
        &self.engine.units
    }

    pub fn unit(&self, u: UnitId) -> &Unit {
        &self.engine.units[u as usize]
    }

    /// The index of a defined function in the program's functions (`None`
    /// for a name the program does not define).
    pub fn func_index(&self, name: &str) -> Option<u32> {
        self.engine.locs.func_index.get(name).copied()
    }

    /// How many times the run analysed a body (every pass of every node):
    /// the work of the run, for figures and tests.
    pub fn analyses(&self) -> u64 {
        self.engine.analyses
    }

    /// The live units (contexts) of a function, by [`Analysis::unit_number`].
    pub fn units_of(&self, func: &str) -> Vec<UnitId> {
        self.func_index(func)
            .and_then(|fi| self.by_func.get(fi as usize))
            .cloned()
            .unwrap_or_default()
    }

    /// The number users see for a live unit: its place in a depth-first
    /// walk of the invocation graph from the entries (entries by kind, then
    /// name; calls in statement order). Unit ids depend on the runs a
    /// result was reused from; these numbers only on the result, so an
    /// edited program answers as a fresh analysis of its text does.
    pub fn unit_number(&self, u: UnitId) -> u32 {
        self.numbers
            .get(u as usize)
            .copied()
            .flatten()
            .unwrap_or(u32::MAX)
    }

    /// True when the unit is reached only from extra entries.
    pub fn extra_only(&self, u: UnitId) -> bool {
        !self.main_live.get(u as usize).copied().unwrap_or(false)
    }

    /// The state at a point in one context (`None`: not reached there).
    pub fn facts_at(&mut self, u: UnitId, point: Point) -> Option<&Facts> {
        self.replayed(u, point).map(|st| &**st)
    }

    /// How many facts the kept replays may hold (default
    /// [`REPLAY_FACTS`]); a smaller cap replays more often, never
    /// answers differently.
    pub fn set_replay_facts(&mut self, cap: usize) {
        self.replay_facts = cap;
    }

    /// Facts the kept replays hold (each shared state once).
    pub fn replay_facts_held(&self) -> usize {
        self.replays.iter().map(|r| r.1.facts).sum()
    }

    /// The state at `point` in unit `u`, from a kept replay or a new one.
    /// Replays are kept oldest first and dropped past the cap (checkers
    /// ask at every dereference of a body in turn: the newest is what
    /// they ask next); a replay that did not keep `point` (its own cap, or
    /// it kept points from another one on) is made again from `point` on.
    fn replayed(&mut self, u: UnitId, point: Point) -> Option<&Arc<Facts>> {
        let kept = self.replays.iter().position(|r| r.0 == u);
        if !self.kept_replay_answers(u, point) {
            let from = kept.map(|i| {
                self.replays.remove(i);
                point
            });
            // Room first: the replay made now may take the whole cap, the
            // kept ones half of it; none past the memory ceiling.
            if self.engine.settings.budget.memory_reached() {
                self.replays.clear();
            }
            while !self.replays.is_empty() && self.replay_facts_held() >= self.replay_facts / 2 {
                self.replays.remove(0);
            }
            let seen = crate::solver::Seen::new(self.replay_facts, from, point);
            let seen = self.engine.replay_unit(u, seen);
            if std::mem::take(&mut self.engine.replay_cut) {
                // Given up at the memory ceiling: what it saw is not all.
                self.replay_given_up = true;
                return None;
            }
            self.replays.push((u, seen));
        }
        let i = self.replays.iter().position(|r| r.0 == u)?;
        self.replays[i].1.states.get(&point)
    }

    /// The R-locations of `rv` at `point` of `func`, per context.
    pub fn values_at(&mut self, func: &str, point: Point, rv: &Rvalue) -> Vec<ContextValues> {
        let Some(fi) = self.func_index(func) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for u in self.units_of(func) {
            let targets = match self.recorded_values(u, point, rv) {
                Some(t) => t,
                None if self.past_deadline_at(u, point) => {
                    self.answer_without_replay(fi, crate::budget::Spent::Time)
                }
                None => {
                    self.replay_given_up = false;
                    let t = self.replayed_values(u, fi, point, rv);
                    if std::mem::take(&mut self.replay_given_up) {
                        self.answer_without_replay(fi, crate::budget::Spent::Memory)
                    } else {
                        t
                    }
                }
            };
            let targets = if self.incomplete.get(fi as usize) == Some(&true) {
                // A context the budget cut off may reach the point with
                // anything.
                let mut v: Locset = targets.unwrap_or_default();
                for t in &mut v {
                    t.1 = false;
                }
                if !v.iter().any(|t| t.0 == crate::loc::UNKNOWN) {
                    v.push((crate::loc::UNKNOWN, false));
                    v.sort();
                }
                Some(v)
            } else {
                targets
            };
            out.push(ContextValues { unit: u, targets });
        }
        out
    }

    /// The values of `rv` at `point` of unit `u` as its run recorded them
    /// at a checker site (`sites.rs`; `None`: not recorded there, or the
    /// record does not answer for the unit: replay).
    pub(crate) fn recorded_values(
        &mut self,
        u: UnitId,
        point: Point,
        rv: &Rvalue,
    ) -> Option<Option<Locset>> {
        let Point::Before(stmt) = point else {
            return None;
        };
        let unit = &self.engine.units[u as usize];
        let record = unit.sites.as_ref()?;
        let answers = *self
            .recorded
            .entry(u)
            .or_insert_with(|| record.answers_for(unit));
        if !answers {
            return None;
        }
        record.values(stmt, rv).map(|v| v.cloned())
    }

    /// The values of `rv` at `point` of unit `u` (of function `fi`), from a
    /// replay of the unit's body.
    pub(crate) fn replayed_values(
        &mut self,
        u: UnitId,
        fi: u32,
        point: Point,
        rv: &Rvalue,
    ) -> Option<Locset> {
        // Shared, not copied: checkers ask at every dereference.
        let st = self.replayed(u, point).cloned();
        st.as_ref().map(|st| {
            let owner = self.engine.prog.functions[fi as usize].name.clone();
            let sc = Scope {
                func: fi,
                owner: &owner,
            };
            let mut v = transfer::rvals(&mut self.engine.locs, st, sc, rv);
            v.sort();
            v
        })
    }

    /// Merges per-context values: a target is definite only if definite in
    /// every context that reaches the point. `None` when none reaches it.
    pub fn merge_values(per: &[ContextValues]) -> Option<Locset> {
        let reached: Vec<&Locset> = per.iter().filter_map(|c| c.targets.as_ref()).collect();
        if reached.is_empty() {
            return None;
        }
        let mut all: Vec<(LocId, bool)> = Vec::new();
        for t in &reached {
            for &(l, d) in t.iter() {
                let in_all = reached.iter().all(|o| o.iter().any(|x| x.0 == l && x.1));
                if !all.iter().any(|x| x.0 == l) {
                    all.push((l, d && in_all));
                }
            }
        }
        all.sort();
        Some(all)
    }

    /// Names of the functions a call statement may call, over all contexts
    /// (a function the budget left incomplete: also every callee its body
    /// alone allows, [`Self::unfinished_call_edges`]).
    pub fn callees(&self, func: &str, stmt: StmtId) -> Vec<Name> {
        let mut out: Vec<Name> = Vec::new();
        for u in self.units_of(func) {
            for (s, name) in self.engine.units[u as usize].calls.keys() {
                if *s == stmt && !out.contains(name) {
                    out.push(name.clone());
                }
            }
        }
        if let Some(fi) = self.func_index(func).filter(|_| self.is_incomplete(func)) {
            // This one body only: a hover asks per call.
            let mut only = vec![false; self.incomplete.len()];
            only[fi as usize] = true;
            for (_, s, callee, _) in self.unfinished_call_edges(&only) {
                if s == stmt && !out.contains(&callee) {
                    out.push(callee);
                }
            }
        }
        out.sort();
        out
    }

    /// The calls of the functions marked in `funcs` (incomplete ones), from
    /// their bodies alone: a run of such a function in a context the
    /// analysis did not finish may make any of them
    /// (`refs::static_call_edges`).
    fn unfinished_call_edges(&self, funcs: &[bool]) -> Vec<(Name, StmtId, Name, bool)> {
        if !funcs.contains(&true) {
            return Vec::new();
        }
        let e = &self.engine;
        let name = |f: u32| e.prog.functions[f as usize].name.clone();
        crate::refs::static_call_edges(e.prog, &e.locs, &e.scans, funcs)
            .into_iter()
            .map(|(caller, stmt, callee, indirect)| (name(caller), stmt, name(callee), indirect))
            .collect()
    }

    /// Every resolved call of every analysed context, and the calls the
    /// bodies of incomplete functions allow, once: (caller, call
    /// statement, callee, through a function pointer), sorted. One pass over
    /// the units (asking `callees` per call scans them per call).
    pub fn call_edges(&self) -> Vec<(Name, StmtId, Name, bool)> {
        let mut out: Vec<(Name, StmtId, Name, bool)> = Vec::new();
        for (u, unit) in self.engine.units.iter().enumerate() {
            if !self.is_live(u as UnitId) {
                continue;
            }
            let caller = &self.engine.prog.functions[unit.func as usize].name;
            for ((stmt, callee), edge) in &unit.calls {
                out.push((caller.clone(), *stmt, callee.clone(), edge.indirect));
            }
        }
        out.extend(self.unfinished_call_edges(&self.incomplete));
        out.sort();
        out.dedup();
        out
    }

    /// Alias verdict of two pointer values at a point, over all contexts.
    pub fn alias(&mut self, func: &str, point: Point, a: &Rvalue, b: &Rvalue) -> Alias {
        let va = self.values_at(func, point, a);
        let vb = self.values_at(func, point, b);
        let mut reached = false;
        let mut any_overlap = false;
        let mut all_must = true;
        for (x, y) in va.iter().zip(&vb) {
            let (Some(x), Some(y)) = (&x.targets, &y.targets) else {
                continue;
            };
            reached = true;
            let locs = &self.engine.locs;
            let mem = |v: &Locset| -> Vec<(LocId, bool)> {
                v.iter()
                    .copied()
                    .filter(|t| !matches!(locs.get(t.0).class, Class::NotMemory))
                    .collect()
            };
            let (mx, my) = (mem(x), mem(y));
            let overlap = mx
                .iter()
                .any(|p| my.iter().any(|q| locs.overlaps(p.0, q.0)));
            any_overlap |= overlap;
            // One object, named definitely: memory or a function (`fp`
            // definitely pointing to `foo` is `foo`'s one address).
            let single = |v: &Locset| {
                v.len() == 1
                    && v[0].1
                    && !locs.is_summary(v[0].0)
                    && !matches!(locs.get(v[0].0).class, Class::NotMemory)
            };
            if !(single(x) && single(y) && x[0].0 == y[0].0) {
                all_must = false;
            }
        }
        if !reached && self.is_incomplete(func) {
            // Not analysed (the budget stopped the run before any context
            // of the function): a run may reach the point with anything.
            Alias::May
        } else if !reached {
            Alias::Unreachable
        } else if !any_overlap {
            Alias::No
        } else if all_must {
            Alias::Must
        } else {
            Alias::May
        }
    }

    /// Call chains from an entry to a unit: each element is a function and
    /// the call statement in the previous function that called it (at most
    /// `limit` chains).
    pub fn chains(&self, u: UnitId, limit: usize) -> Vec<Vec<(Name, Option<StmtId>)>> {
        self.chain_paths(u, limit)
            .into_iter()
            .map(|path| {
                path.into_iter()
                    .map(|(unit, via)| {
                        let f = self.engine.units[unit as usize].func;
                        (self.engine.locs.func_name(f).clone(), via)
                    })
                    .collect()
            })
            .collect()
    }

    /// Like [`Analysis::chains`], with units: entry first; each element's
    /// statement is the call in the previous unit.
    pub fn chain_paths(&self, u: UnitId, limit: usize) -> Vec<Vec<(UnitId, Option<StmtId>)>> {
        let callers = self.callers.get_or_init(|| self.live_callers());
        let mut out = Vec::new();
        let mut path: Vec<(UnitId, Option<StmtId>)> = vec![(u, None)];
        self.walk_chains(callers, &mut path, &mut out, limit);
        out
    }

    /// The callers of every live unit, through calls the run did not
    /// approximate.
    fn live_callers(&self) -> Callers {
        let mut callers: Callers = HashMap::default();
        for (cu, unit) in self.engine.units.iter().enumerate() {
            if !self.is_live(cu as UnitId) {
                continue;
            }
            for ((s, _), e) in &unit.calls {
                if let (Some(c), false) = (e.unit, e.approximate) {
                    let v = callers.entry(c).or_default();
                    if !v.contains(&(cu as UnitId, *s)) {
                        v.push((cu as UnitId, *s));
                    }
                }
            }
        }
        // Callers in the numbers users see: unit ids depend on the runs a
        // result was reused from, and which chains come first (and which
        // the limit keeps) must not.
        for v in callers.values_mut() {
            v.sort_by_key(|&(cu, s)| (self.unit_number(cu), s));
        }
        callers
    }

    fn walk_chains(
        &self,
        callers: &Callers,
        path: &mut Vec<(UnitId, Option<StmtId>)>,
        out: &mut Vec<Vec<(UnitId, Option<StmtId>)>>,
        limit: usize,
    ) {
        if out.len() >= limit {
            return;
        }
        let (top, _) = path[path.len() - 1];
        let is_entry = self.engine.entries.contains(&top);
        let cs: &[(UnitId, StmtId)] = callers.get(&top).map_or(&[], |v| v);
        if is_entry || cs.is_empty() {
            // `path` is callee-first: [(u, None), (caller, stmt in caller)..].
            let mut chain = Vec::new();
            for i in (0..path.len()).rev() {
                let via = if i + 1 < path.len() {
                    path[i + 1].1
                } else {
                    None
                };
                chain.push((path[i].0, via));
            }
            out.push(chain);
            if cs.is_empty() {
                return;
            }
        }
        for &(c, s) in cs {
            if path.iter().any(|p| p.0 == c) {
                continue;
            }
            path.push((c, Some(s)));
            self.walk_chains(callers, path, out, limit);
            path.pop();
        }
    }

    /// What a location of the last unit of a chain stands for along the
    /// chain (section 4.1's map information, applied outward): symbolic
    /// names become the caller locations they were mapped from, up to the
    /// entry or until nothing symbolic is left. Sorted by name: location
    /// ids follow the order a run (or an edit history, whose table a rerun
    /// carries over) met them, and answers must not.
    pub fn resolve(&mut self, path: &[(UnitId, Option<StmtId>)], loc: LocId) -> Vec<LocId> {
        let mut cur = vec![loc];
        for i in (1..path.len()).rev() {
            if !cur
                .iter()
                .any(|&l| matches!(self.engine.locs.get(l).class, Class::Symbolic))
            {
                break;
            }
            let (callee, Some(stmt)) = path[i] else { break };
            let caller = path[i - 1].0;
            let fname = self
                .engine
                .locs
                .func_name(self.engine.units[callee as usize].func)
                .clone();
            let Some(edge) = self.engine.units[caller as usize].calls.get(&(stmt, fname)) else {
                break;
            };
            let map = edge.map.clone();
            let mut next = Vec::new();
            for l in cur {
                let d = self.engine.locs.get(l);
                if !matches!(d.class, Class::Symbolic) {
                    next.push(l);
                    continue;
                }
                let (root, steps) = (d.root_id, d.path.clone());
                match map.iter().find(|(s, _)| *s == root) {
                    Some((_, roots)) => {
                        for &r in roots {
                            next.push(self.engine.locs.with_path(r, &steps));
                        }
                    }
                    None => next.push(l),
                }
            }
            next.sort();
            next.dedup();
            cur = next;
        }
        let locs = &self.engine.locs;
        cur.sort_by_cached_key(|&l| (locs.qualified(l), l));
        cur
    }

    /// The function a unit analyses.
    pub fn func_name(&self, u: UnitId) -> &Name {
        self.engine
            .locs
            .func_name(self.engine.units[u as usize].func)
    }

    /// The kind of a location for answers.
    pub fn kind(&self, l: LocId) -> &'static str {
        let d = self.engine.locs.get(l);
        if !d.path.is_empty() {
            return match d.class {
                Class::Symbolic => "symbolic",
                _ => match d.path.last() {
                    Some(crate::loc::Step::Field(_)) => "field",
                    _ => "array",
                },
            };
        }
        match &d.root {
            Root::Var(f, v) => {
                let func = &self.engine.prog.functions[*f as usize];
                match func.var(*v).kind {
                    pointee_ir::VarKind::Param => "param",
                    _ => "local",
                }
            }
            Root::Global(_) => "global",
            Root::Heap(..) | Root::Fresh(..) => "heap",
            Root::Str(..) => "string",
            Root::Lit(..) => "local",
            Root::Func(_) => "function",
            Root::Null | Root::PtrSet(_) => "null",
            Root::Uninit => "uninit",
            Root::Freed => "freed",
            Root::Unknown => "unknown",
            Root::Dangling(_) => "dangling",
            Root::Sym { .. } => "symbolic",
            Root::Special(_) => "heap",
        }
    }

    pub fn name(&self, l: LocId) -> String {
        self.engine.locs.name(l)
    }

    /// `{x D, NULL P}`-style rendering of a set.
    pub fn render_set(&self, v: &Locset) -> String {
        let mut items: Vec<String> = v
            .iter()
            .map(|&(l, d)| format!("{} {}", self.name(l), if d { "D" } else { "P" }))
            .collect();
        items.sort();
        format!("{{{}}}", items.join(", "))
    }

    /// Facts as `(x, y, D)` lines, sorted by name.
    pub fn render_facts(&self, st: &Facts) -> Vec<String> {
        let mut v: Vec<String> = st
            .iter()
            .map(|f| {
                format!(
                    "({}, {}, {})",
                    self.name(f.src),
                    self.name(f.dst),
                    if f.def { "D" } else { "P" }
                )
            })
            .collect();
        v.sort();
        v
    }

    /// The invocation graph as text: one line per live unit, its calls
    /// indented below it.
    pub fn render_graph(&self) -> String {
        let mut out = String::new();
        let mut order: Vec<UnitId> = (0..self.engine.units.len() as UnitId)
            .filter(|&u| self.is_live(u))
            .collect();
        order.sort_by_key(|&u| self.unit_number(u));
        for u in order {
            let unit = &self.engine.units[u as usize];
            let name = self.engine.locs.func_name(unit.func);
            let mut tags = Vec::new();
            match unit.entry {
                Some(EntryKind::Main) => tags.push("entry"),
                Some(EntryKind::AtExit) => tags.push("atexit entry"),
                Some(EntryKind::Extra) => tags.push("extra entry"),
                None => {}
            }
            if unit.recursive {
                tags.push("recursive");
            }
            if self.engine.given_up.iter().any(|g| g.0 == u) {
                tags.push("given up by the budget part-way");
            } else if unit.output.is_none() {
                tags.push("never returns");
            }
            if unit.merged {
                tags.push("merged by the context bound");
            }
            if unit.in_cycle {
                tags.push("merged in a recursive cycle");
            }
            if unit.partial {
                tags.push("partial: the budget cut a call off");
            }
            let tags = if tags.is_empty() {
                String::new()
            } else {
                format!(" [{}]", tags.join(", "))
            };
            let number = self.unit_number(u);
            let _ = writeln!(
                out,
                "#{number} {name}{tags}: {} input facts",
                unit.input.len()
            );
            for ((s, callee), e) in &unit.calls {
                let target = match e.unit.map(|c| self.unit_number(c)) {
                    Some(c) if e.approximate => format!("#{c} (approximate)"),
                    Some(c) => format!("#{c}"),
                    None => "library".into(),
                };
                let target = if e.cut_off {
                    "cut off by the budget".into()
                } else {
                    target
                };
                let ind = if e.indirect { " indirect" } else { "" };
                let _ = writeln!(out, "  s{}{ind} -> {callee} {target}", s.0);
            }
        }
        out
    }

    /// Figures for `check`.
    pub fn stats(&self) -> Vec<(String, u64)> {
        let live = self.live.iter().filter(|&&l| l).count() as u64;
        let mut funcs: Vec<u32> = (0..self.engine.units.len())
            .filter(|&u| self.is_live(u as UnitId))
            .map(|u| self.engine.units[u].func)
            .collect();
        funcs.sort();
        funcs.dedup();
        let edges: u64 = (0..self.engine.units.len())
            .filter(|&u| self.is_live(u as UnitId))
            .map(|u| self.engine.units[u].calls.len() as u64)
            .sum();
        let rec = (0..self.engine.units.len())
            .filter(|&u| self.is_live(u as UnitId) && self.engine.units[u].recursive)
            .count();
        // Precision: the facts of every live unit's exit state whose
        // target is memory, definite and possible (a more precise run has
        // fewer possible facts and more definite ones).
        let (mut definite, mut possible) = (0u64, 0u64);
        for u in 0..self.engine.units.len() {
            if !self.is_live(u as UnitId) {
                continue;
            }
            let Some(out) = &self.engine.units[u].output else {
                continue;
            };
            for f in out.iter().filter(|f| self.engine.locs.is_memory(f.dst)) {
                if f.def {
                    definite += 1;
                } else {
                    possible += 1;
                }
            }
        }
        let (sites, resolved) = self.indirect_calls(&funcs);
        vec![
            ("contexts".into(), live),
            ("functions analysed".into(), funcs.len() as u64),
            ("invocation edges".into(), edges),
            ("indirect call sites".into(), sites),
            ("indirect call sites with a callee".into(), resolved),
            ("recursive nodes".into(), rec as u64),
            ("locations".into(), self.engine.locs.len() as u64),
            ("exit facts definite".into(), definite),
            ("exit facts possible".into(), possible),
        ]
    }

    /// The indirect call sites (through a function pointer) of the
    /// functions `funcs`, and how many of them call at least one function
    /// in some live context (the rest call none, or only unknown code).
    fn indirect_calls(&self, funcs: &[u32]) -> (u64, u64) {
        let (mut sites, mut resolved) = (0, 0);
        for &f in funcs {
            let func = &self.engine.prog.functions[f as usize];
            let mut called: Vec<StmtId> = self.by_func[f as usize]
                .iter()
                .filter(|&&u| self.is_live(u))
                .flat_map(|&u| self.engine.units[u as usize].calls.keys().map(|k| k.0))
                .collect();
            called.sort();
            pointee_ir::for_each_basic(&func.body, &mut |id, b| {
                if let pointee_ir::Basic::Call {
                    callee: pointee_ir::Callee::Indirect(_),
                    ..
                } = b
                {
                    sites += 1;
                    resolved += u64::from(called.binary_search(&id).is_ok());
                }
            });
        }
        (sites, resolved)
    }

    /// True when `l` is the `NULL` location.
    pub fn is_null(l: LocId) -> bool {
        l == NULL
    }
}

/// Numbers the live units in a depth-first walk from the entries (see
/// [`Analysis::unit_number`]).
fn number_units(engine: &Engine<'_>, live: &[bool]) -> Vec<Option<u32>> {
    let units = &engine.units;
    let rank = |k: EntryKind| match k {
        EntryKind::Main => 0,
        EntryKind::AtExit => 1,
        EntryKind::Extra => 2,
    };
    let mut roots: Vec<UnitId> = (0..units.len() as UnitId)
        .filter(|&u| live.get(u as usize) == Some(&true) && units[u as usize].entry.is_some())
        .collect();
    roots.sort_by_key(|&u| {
        let unit = &units[u as usize];
        (
            unit.entry.map(rank),
            engine.locs.func_name(unit.func).clone(),
        )
    });
    let mut numbers = vec![None; units.len()];
    let mut next = 0;
    for root in roots {
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            if numbers[u as usize].is_some() || live.get(u as usize) != Some(&true) {
                continue;
            }
            numbers[u as usize] = Some(next);
            next += 1;
            // Reversed, so the first call is walked first.
            stack.extend(
                units[u as usize]
                    .calls
                    .values()
                    .rev()
                    .filter_map(|e| e.unit),
            );
        }
    }
    // Live units no entry reaches (none today) still get numbers.
    for (u, n) in numbers.iter_mut().enumerate() {
        if n.is_none() && live.get(u) == Some(&true) {
            *n = Some(next);
            next += 1;
        }
    }
    numbers
}

/// Marks the units whose result depends on a call the budget cut off
/// (`Unit::partial`), and returns the incomplete functions: those with a
/// cut-off call or entry and everything they may call (`budget.rs`).
/// Nothing when the run finished.
fn mark_partial(e: &mut Engine<'_>) -> Vec<bool> {
    if e.stopped_by().is_none() {
        return Vec::new();
    }
    let mut changed = true;
    while changed {
        changed = false;
        for u in 0..e.units.len() {
            if e.units[u].partial || e.units[u].dead {
                continue;
            }
            let units = &e.units;
            let partial = units[u]
                .calls
                .values()
                .any(|c| c.cut_off || c.unit.is_some_and(|v| units[v as usize].partial));
            if partial {
                e.units[u].partial = true;
                changed = true;
            }
        }
    }
    crate::refs::callable_from(e.prog, &e.locs, &e.scans, &e.cut_off)
}
