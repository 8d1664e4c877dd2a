//! The interprocedural solver of Emami, Ghiya and Hendren, "Context-Sensitive
//! Interprocedural Points-to Analysis in the Presence of Function Pointers"
//! (PLDI'94): section 4 (invocation graph, map/unmap, the recursive and
//! approximate nodes of Figure 4) and section 5 (function pointers, Figure 5),
//! with the memoization the paper proposes at the end of section 6.
//!
//! Every analysed (function, mapped input) pair is a *unit*: its entry and
//! exit facts are kept, the facts inside its body are recomputed on demand
//! (see `query.rs`). Equal calling contexts share one unit. While a recursive
//! fixed point is open, the units computed under it are provisional: they are
//! dropped when the fixed point iterates, and become final when it closes.

use crate::facts::{merge_into, merge_state, state_leq, Facts, State};
use crate::fxhash::FxHashMap as HashMap;
use crate::library;
use crate::loc::{Class, LocId, Locs, Root, Step, UNINIT, UNKNOWN};
use crate::map;
use crate::transfer::{self, Locset, Scope};
use crate::walk::{Hooks, Walker};
use pointee_ir::{
    pointer_paths, Basic, Callee, Function, Index, Name, Place, Point, Program, Rvalue, Sel,
    SiteId, StmtId, VarKind,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// Analysis settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// `malloc` and friends may return `NULL` (default yes).
    pub malloc_may_fail: bool,
    /// The most calling contexts (units) analysed per function. Past it, a
    /// new input is merged with the earlier overflowing ones and analysed
    /// once (the unit is marked `merged`; hover reports it).
    pub max_contexts_per_function: usize,
    /// Recursive cycles (strongly connected components of the call graph)
    /// with more functions than this are analysed with one context per
    /// function while the cycle is open (the unit is marked `in_cycle`).
    pub cycle_merge_size: usize,
    /// How many call sites name a heap object besides its allocation site
    /// (`recency::name_by_call`): 1 keeps two calls of an allocation
    /// wrapper apart; 0 names objects by site alone.
    pub heap_context: usize,
    /// The functions to start from (the program model's `entries`); `None`:
    /// `main`, or every externally visible function without one (see
    /// `entry.rs`).
    pub entries: Option<Vec<Name>>,
    /// Asked now and then during a run: `true` stops it (the run unwinds
    /// with an [`Interrupted`] payload). Not part of what a run computes.
    pub interrupt: Interrupt,
    /// Limits of the run (`budget.rs`): past them the run cuts calls off
    /// and its result is partial.
    pub budget: crate::budget::Budget,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            malloc_may_fail: true,
            max_contexts_per_function: 256,
            cycle_merge_size: 8,
            heap_context: 1,
            entries: None,
            interrupt: Interrupt::default(),
            budget: Default::default(),
        }
    }
}

/// A check that stops a run when it returns `true` (an editor's newer edit
/// makes the running analysis useless). Settings that differ only in it are
/// equal: it does not change results.
#[derive(Clone, Default)]
pub struct Interrupt(pub Option<Arc<dyn Fn() -> bool + Send + Sync>>);

impl PartialEq for Interrupt {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for Interrupt {}

impl std::fmt::Debug for Interrupt {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Interrupt(set)"
        } else {
            "Interrupt(none)"
        })
    }
}

/// The payload a run unwinds with when its [`Interrupt`] said stop.
#[derive(Debug)]
pub struct Interrupted;

/// Statements, calls and passes of unknown code between two looks at the
/// interrupt (a statement, not a call, is close to a unit of cost).
const INTERRUPT_EVERY: u64 = 256;

pub type UnitId = u32;

/// Why a unit is a root of the invocation graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EntryKind {
    Main,
    /// A function registered with `atexit`, run after `main` returns.
    AtExit,
    /// A function not reached from `main`, analysed with unknown inputs.
    Extra,
}

/// One edge of the invocation graph.
#[derive(Clone, Debug)]
pub struct CallEdge {
    /// The unit analysed for the callee (`None` for a library function).
    pub unit: Option<UnitId>,
    /// An approximate node: the callee is a recursive ancestor, whose stored
    /// result was used (Figure 4).
    pub approximate: bool,
    pub indirect: bool,
    /// The map information of this call (section 4.1): each symbolic root of
    /// the callee and the caller locations it stands for.
    pub map: Vec<(LocId, Vec<LocId>)>,
    /// The budget was spent: the callee was not analysed here, its
    /// possible effects were applied instead (`budget.rs`).
    pub cut_off: bool,
}

/// A (function, mapped input) pair and its result.
#[derive(Clone, Debug)]
pub struct Unit {
    pub func: u32,
    /// The input callers mapped (the memo key).
    pub key: Arc<Facts>,
    /// The input the body was analysed with (generalised for a recursive
    /// node).
    pub input: Arc<Facts>,
    pub output: State,
    pub entry: Option<EntryKind>,
    /// A recursive node: some call below reached it again.
    pub recursive: bool,
    /// Analysed with the inputs of every call inside a large recursive
    /// cycle merged (one context per function while the cycle is open;
    /// `Settings::cycle_merge_size`).
    pub in_cycle: bool,
    /// Dropped provisional result.
    pub dead: bool,
    /// Analysed with inputs merged by the context bound.
    pub merged: bool,
    /// Its result depends on a call the budget cut off (set when the run
    /// ends; `budget.rs`).
    pub partial: bool,
    /// The body (or a callee) stored through `unknown`: callers' hidden
    /// address-taken locations may have changed too.
    pub wild: bool,
    /// The body (or a callee) may have written into a symbolic location:
    /// a caller's invisibles behind a summary name must be updated weakly.
    pub wrote_symbolic: bool,
    /// What the body's own assignments stored into symbolic locations
    /// (unmap gives a summary name's invisibles only those of its facts).
    pub stores: map::SymStores,
    /// The body (or a callee) called unknown code, which may have changed
    /// what any non-static global reaches: callers apply that to the
    /// globals the unit could not see.
    pub escaped: bool,
    /// Calls made by the body: (statement, callee name) -> edge.
    pub calls: BTreeMap<(StmtId, Name), CallEdge>,
    pub(crate) approx: Vec<(u32, Arc<Facts>, UnitId)>,
    /// What a later run needs to reuse this unit (`reuse.rs`).
    pub(crate) trace: Trace,
    /// The checkers' values its last walk saw (`sites.rs`).
    pub(crate) sites: Option<Arc<crate::sites::SiteRecord>>,
}

/// How a unit was computed, for reuse by a later run: every unit its body
/// was answered with (over all iterations, including those of dropped
/// provisional units below it, which are gone), the `atexit` handlers it
/// registered, and the units created while it was on the stack.
#[derive(Clone, Debug, Default)]
pub(crate) struct Trace {
    pub deps: Vec<UnitId>,
    pub exits: Vec<Name>,
    /// The functions of the provisional units dropped below it (they
    /// were called too).
    pub funcs: Vec<u32>,
    /// Finished as its own fixed point (not folded into an enclosing open
    /// cycle's): its result does not depend on frames above it.
    pub standalone: bool,
    /// Units `id+1 .. end` were created while it was being analysed.
    pub end: UnitId,
    /// The unit on top of the stack when a scratch run would have created
    /// this one: where it was created or, for a previous run's unit a rerun
    /// admitted, the caller it was admitted under. Which units a unit's
    /// computation made is then its descendants, across reruns too (ids
    /// stop being nested ranges once a rerun adopts older units).
    pub parent: Option<UnitId>,
}

pub(crate) struct Frame {
    pub(crate) func: u32,
    pub(crate) unit: UnitId,
    pub(crate) input: Arc<Facts>,
    pub(crate) output: State,
    pub(crate) pending: Vec<Arc<Facts>>,
    pub(crate) recursive: bool,
    /// A node merged in a large cycle (`cycle.rs`).
    pub(crate) merged: bool,
    /// The lowest stack depth of an open recursive node this frame's result
    /// depends on (`usize::MAX`: none).
    pub(crate) min_dep: usize,
    /// Provisional units computed under this frame: (func, key, unit, dep).
    pub(crate) prov: Vec<(u32, Arc<Facts>, UnitId, usize)>,
    pub(crate) wild: bool,
    pub(crate) wrote_symbolic: bool,
    pub(crate) stores: map::SymStores,
    pub(crate) escaped: bool,
    /// A recursive node inside this frame's open cycle grew its stored
    /// approximation: iterate again.
    pub(crate) changed: bool,
    /// Counts the changes of the stored result approximate nodes read.
    pub(crate) version: u32,
    /// Counts the iterations of its fixed point.
    pub(crate) pass: u32,
    /// The results of nodes in an open cycle this analysis read: the
    /// function and the version read (`cycle.rs`).
    pub(crate) reads: Vec<(u32, u32)>,
    /// Units the body was answered with, handlers it registered, and the
    /// functions of dropped provisional units below it.
    pub(crate) deps: Vec<UnitId>,
    pub(crate) exits: Vec<Name>,
    pub(crate) funcs: Vec<u32>,
    /// Past the budget, a node of this frame's open cycle was stale and
    /// not analysed again: the fixed point is given up (`budget.rs`).
    pub(crate) given_up: bool,
}

/// The stored input and output of a recursive node inside an open cycle,
/// kept across the iterations of the cycle (the cycle is solved as one
/// unit: inner recursive nodes make one pass per iteration).
struct RecApprox {
    input: Arc<Facts>,
    output: State,
    /// Depth of the open recursive node it depends on.
    owner: usize,
}

/// How a call to a function with a body is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Callback {
    /// An ordinary call: its result is the state after the callee.
    No,
    /// A callback unknown code may or may not call: the result is merged
    /// with the state before the call (unchanged when the call changes
    /// nothing: no copy). The state has no newest heap object (the caller
    /// demoted them once for all its callbacks).
    MayRun,
}

/// An argument as the solver passes it to a callee.
pub(crate) enum Arg<'a> {
    Rv(&'a Rvalue),
    Vals(Locset),
}

pub struct Engine<'p> {
    pub prog: &'p Program,
    pub locs: Locs,
    pub settings: Settings,
    pub units: Vec<Unit>,
    pub entries: Vec<UnitId>,
    pub(crate) memo: HashMap<(u32, Arc<Facts>), UnitId>,
    pub(crate) stack: Vec<Frame>,
    /// Replaying a unit's body for a query: the stack depth whose points are
    /// observed, and what was seen.
    pub(crate) replay: Option<usize>,
    pub(crate) seen: Seen,
    /// The checkers' values of the bodies being walked (`sites.rs`).
    pub(crate) sites: crate::sites::Recorder,
    pub(crate) exit_handlers: Vec<Name>,
    /// Statements of a body visited, for figures.
    pub steps: u64,
    /// Statements, calls and passes of unknown code, run or replayed:
    /// the interrupt's clock.
    pub(crate) polled: u64,
    /// The globals each function may name (see `refs.rs`).
    pub(crate) refs: Vec<Vec<LocId>>,
    /// Per function: it (or a callee) may call unknown code.
    pub(crate) calls_unknown: Vec<bool>,
    /// Per function: it (or a callee) may call unknown code or call
    /// through a pointer; only its input carries the escape marks.
    pub(crate) needs_escapes: Vec<bool>,
    /// The roots of the non-static globals: unknown code may name them.
    pub(crate) escaped: Vec<LocId>,
    /// Units created per function, and the merged input past the bound.
    pub(crate) per_func: Vec<usize>,
    pub(crate) overflow: Vec<Option<Arc<Facts>>>,
    /// The map information of the last call to a defined function.
    pub(crate) last_map: Vec<(LocId, Vec<LocId>)>,
    rec_table: HashMap<(u32, Arc<Facts>), RecApprox>,
    /// The nodes merged in the open large cycles, by function (`cycle.rs`).
    pub(crate) cycle: HashMap<u32, crate::cycle::CycleNode>,
    /// Units that existed when `run` finished (later ones come from
    /// queries' replays).
    pub(crate) run_units: usize,
    /// The previous run's units a rerun may answer calls with.
    pub(crate) carried: Option<crate::reuse::Carried>,
    /// What each body names and calls, and the functions on call-graph
    /// cycles (`refs.rs`).
    pub(crate) scans: Vec<crate::refs::FuncScan>,
    pub(crate) cyclic: Vec<bool>,
    pub(crate) scc: Vec<u32>,
    pub(crate) scc_size: Vec<u32>,
    /// The budget (`budget.rs`): when the run started, the calls it
    /// analysed, which limit was spent and at which step, and per function
    /// whether a call or entry of it was cut off.
    pub(crate) started: std::time::Instant,
    pub(crate) run_steps: u64,
    pub(crate) exhausted: Option<crate::budget::Spent>,
    pub(crate) spent_at: u64,
    pub(crate) cut_off: Vec<bool>,
    /// Statements transferred, and when the memory probe last ran
    /// (`budget.rs`).
    pub(crate) ticks: u32,
    pub(crate) probed_at: Option<std::time::Duration>,
    /// Past the budget, the calls of one indirect call (or of one pass of
    /// unknown code's callbacks) that are cut off are collected here, with
    /// the stack depth of the call, and cut off together
    /// (`Engine::cut_off_calls`).
    pub(crate) deferred_cuts: Option<(usize, Vec<u32>)>,
    /// The statements walked since the budget ran out, and whether the
    /// grace past it is over (every open body is then given up).
    pub(crate) past_budget: u64,
    pub(crate) abandoned: bool,
    /// The replay being made reached the memory ceiling and is given up.
    pub(crate) replay_cut: bool,
    /// Units whose body the budget gave up part-way, with their stack
    /// depth, kept for queries (`Engine::give_up_node`): their functions
    /// are incomplete, so their answers are sound (`budget.rs`).
    pub(crate) given_up: Vec<(UnitId, usize)>,
    /// `main`'s input (built by `run`, kept by a rerun).
    pub(crate) main_input: Option<Arc<Facts>>,
    /// For a rerun: the units of the scratch run it descends from (0: this
    /// is a scratch run).
    pub(crate) lineage: usize,
    /// The units of this run per function, and whether the next call to
    /// be invoked is a callback of unknown code: both for the reuse of a
    /// final unit whose input covers a call's (`effects.rs`,
    /// `Engine::covering_unit`).
    pub(crate) units_by_func: Vec<Vec<UnitId>>,
    pub(crate) callback_of_unknown: bool,
    /// Bodies analysed by the run (every pass of every node; replays for
    /// queries not counted), for figures and tests.
    pub analyses: u64,
}

/// How many frames of one function with different inputs a recursion may
/// open before further inputs are merged into the nearest one's.
const OWN_RECURSIVE_INPUTS: usize = 2;

pub(crate) fn steps_of(path: &[Sel]) -> Vec<Step> {
    path.iter()
        .map(|s| match s {
            Sel::Field(f) => Step::Field(f.clone()),
            Sel::Index(Index::Zero) => Step::Head,
            Sel::Index(_) => Step::Tail,
        })
        .collect()
}

impl<'p> Engine<'p> {
    pub fn new(prog: &'p Program, settings: Settings) -> Engine<'p> {
        Engine::with_locs(prog, settings, Locs::new(prog))
    }

    /// An engine for `prog` starting from a location table (a new one, or
    /// one carried over from a previous run: see `reuse.rs`).
    pub(crate) fn with_locs(prog: &'p Program, settings: Settings, locs: Locs) -> Engine<'p> {
        let mut locs = locs;
        let scans: Vec<crate::refs::FuncScan> = (0..prog.functions.len())
            .map(|fi| crate::refs::scan_function(prog, &locs, fi))
            .collect();
        let r = crate::refs::global_refs(prog, &mut locs, &scans);
        Engine::with_refs(prog, settings, locs, scans, r)
    }

    /// An engine from a location table and what `refs.rs` derived.
    pub(crate) fn with_refs(
        prog: &'p Program,
        settings: Settings,
        locs: Locs,
        scans: Vec<crate::refs::FuncScan>,
        r: crate::refs::Refs,
    ) -> Engine<'p> {
        let mut locs = locs;
        let crate::refs::Refs {
            refs,
            calls_unknown,
            needs_escapes,
            cyclic,
            scc,
            scc_size,
        } = r;
        let mut escaped = crate::refs::escaped_globals(prog, &mut locs);
        escaped.sort_unstable();
        locs.named_outside = escaped.clone();
        Engine {
            prog,
            locs,
            settings,
            units: Vec::new(),
            entries: Vec::new(),
            memo: HashMap::default(),
            stack: Vec::new(),
            replay: None,
            seen: Seen::default(),
            sites: Default::default(),
            exit_handlers: Vec::new(),
            steps: 0,
            polled: 0,
            refs,
            calls_unknown,
            needs_escapes,
            escaped,
            per_func: vec![0; prog.functions.len()],
            overflow: vec![None; prog.functions.len()],
            last_map: Vec::new(),
            rec_table: HashMap::default(),
            cycle: HashMap::default(),
            run_units: 0,
            carried: None,
            scans,
            cyclic,
            scc,
            scc_size,
            given_up: Vec::new(),
            main_input: None,
            lineage: 0,
            units_by_func: vec![Vec::new(); prog.functions.len()],
            callback_of_unknown: false,
            analyses: 0,
            started: std::time::Instant::now(),
            run_steps: 0,
            exhausted: None,
            spent_at: 0,
            cut_off: vec![false; prog.functions.len()],
            ticks: 0,
            probed_at: None,
            deferred_cuts: None,
            past_budget: 0,
            abandoned: false,
            replay_cut: false,
        }
    }

    pub(crate) fn func(&self, f: u32) -> &'p Function {
        &self.prog.functions[f as usize]
    }

    pub(crate) fn scope(&self) -> Scope<'p> {
        let f = self.stack.last().map(|fr| fr.func).unwrap_or(0);
        Scope {
            func: f,
            owner: &self.prog.functions[f as usize].name,
        }
    }

    // ----- invocation (Figure 4) -----

    /// Analyses `f` for a mapped input: memo, approximate node, or a new
    /// (possibly recursive) node. Returns the output, the unit and whether
    /// the node was approximate; `None` when that needs a new unit and the
    /// budget is spent (the call is cut off: `budget.rs`).
    pub(crate) fn invoke(&mut self, f: u32, input: Arc<Facts>) -> Option<(State, UnitId, bool)> {
        let r = self.invoke_node(f, input)?;
        if self.replay.is_none() {
            if let Some(top) = self.stack.last_mut() {
                top.deps.push(r.1);
            }
        }
        Some(r)
    }

    fn invoke_node(&mut self, f: u32, input: Arc<Facts>) -> Option<(State, UnitId, bool)> {
        let callback = std::mem::take(&mut self.callback_of_unknown);
        let key = (f, input);
        if let Some(&u) = self.memo.get(&key) {
            if self.replay.is_some() || crate::reuse::admit(self, u) {
                return Some((self.units[u as usize].output.clone(), u, false));
            }
        }
        // Provisional results of the current fixed-point iteration.
        for d in (0..self.stack.len()).rev() {
            if let Some(&(_, _, u, dep)) =
                self.stack[d].prov.iter().find(|p| p.0 == f && p.1 == key.1)
            {
                let top = self.stack.last_mut().unwrap();
                top.min_dep = top.min_dep.min(dep);
                return Some((self.units[u as usize].output.clone(), u, false));
            }
        }
        // Replaying: the approximate results the analysis used.
        if let Some(top) = self.stack.last() {
            let cur = top.unit as usize;
            if let Some(&(_, _, r)) = self.units[cur]
                .approx
                .iter()
                .find(|a| a.0 == f && a.1 == key.1)
            {
                if self.replay.is_some() {
                    return Some((self.units[r as usize].output.clone(), r, true));
                }
            }
        }
        // An approximate node: f is already on the call chain.
        let partner = match self.recursive_partner(f, &key.1) {
            Ok(d) => d,
            Err(d) => {
                self.cut_off[f as usize] = true;
                Some(d)
            }
        };
        if let Some(d) = partner {
            let top_unit = self.stack.last().unwrap().unit;
            let rec = &mut self.stack[d];
            rec.recursive = true;
            let r_unit = rec.unit;
            // An input the node has not covered yet is queued (the node
            // iterates again with it); meanwhile the result so far keeps
            // the paths after the call alive (Figure 4 answers bottom,
            // which cut them off for a whole iteration each time).
            if !key.1.leq(&rec.input) {
                rec.pending.push(key.1.clone());
            }
            let out = rec.output.clone();
            self.units[r_unit as usize].recursive = true;
            let version = self.stack[d].version;
            let top = self.stack.last_mut().unwrap();
            top.min_dep = top.min_dep.min(d);
            top.reads.push((f, version));
            if self.replay.is_none() {
                self.units[top_unit as usize]
                    .approx
                    .push((f, key.1.clone(), r_unit));
            }
            return Some((out, r_unit, true));
        }
        // A callback of unknown code: a final unit whose input covers this
        // one answers it.
        if callback {
            if let Some(u) = self.covering_unit(f, &key.1) {
                return Some((self.units[u as usize].output.clone(), u, false));
            }
        }
        // Inside a large open cycle: one context per function.
        if self.replay.is_none() {
            if let Some(h) = self.cycle_head(f) {
                return self.invoke_merged(f, key.1, h);
            }
        }
        // The context bound: merge overflowing inputs into one.
        let fu = f as usize;
        if self.per_func[fu] >= self.settings.max_contexts_per_function && self.replay.is_none() {
            let m = match &self.overflow[fu] {
                Some(prev) => Arc::new(Facts::merge(prev, &key.1)),
                None => key.1.clone(),
            };
            self.overflow[fu] = Some(m.clone());
            if *m != *key.1 {
                let r = self.invoke(f, m.clone())?;
                if self.memo.get(&(f, m)) == Some(&r.1) {
                    self.memo.insert(key, r.1);
                } else if let Some(top) = self.stack.last() {
                    // Provisional: replays find it by this call's input.
                    let caller = top.unit as usize;
                    self.units[caller].approx.push((f, key.1, r.1));
                }
                return Some(r);
            }
        }
        if self.exhausted.is_some() {
            return None;
        }
        self.per_func[fu] += 1;
        let merged = self.per_func[fu] > self.settings.max_contexts_per_function;
        self.new_node(f, key.1, merged)
    }

    /// The frame a recursive call of `f` with `input` is an approximate node
    /// of: the nearest frame of `f` whose input covers it, else the nearest
    /// frame of `f`, which queues it (Figure 4). `None` when `f` is not on
    /// the stack, or when the call gets a node of its own: its input is new
    /// and fewer than [`OWN_RECURSIVE_INPUTS`] frames of `f` are open (two
    /// call sites passing different pointers keep their inputs apart).
    /// `Err(nearest)`: it would get a node of its own but the budget is
    /// spent.
    fn recursive_partner(&self, f: u32, input: &Facts) -> Result<Option<usize>, usize> {
        let Some(nearest) = self.stack.iter().rposition(|fr| fr.func == f) else {
            return Ok(None);
        };
        let mut frames = 0;
        for d in (0..=nearest).rev() {
            if self.stack[d].func == f {
                if input.leq(&self.stack[d].input) {
                    return Ok(Some(d));
                }
                frames += 1;
            }
        }
        let own = frames < OWN_RECURSIVE_INPUTS
            && self.replay.is_none()
            && self.per_func[f as usize] < self.settings.max_contexts_per_function
            && !self.stack[nearest].merged
            && self.cycle_head(f).is_none();
        if own && self.exhausted.is_some() {
            // Past the budget the input is queued at the nearest frame
            // instead: a node the budget did not let the run make, so the
            // run is partial (`budget.rs`).
            return Err(nearest);
        }
        Ok((!own).then_some(nearest))
    }

    /// A new unit for `f` and `key` (its analysis is up to the caller).
    pub(crate) fn new_unit(
        &mut self,
        f: u32,
        key: Arc<Facts>,
        merged: bool,
        in_cycle: bool,
    ) -> UnitId {
        let u = self.units.len() as UnitId;
        let parent = self.stack.last().map(|fr| fr.unit);
        self.units_by_func[f as usize].push(u);
        self.units.push(Unit {
            merged,
            partial: false,
            wild: false,
            wrote_symbolic: false,
            stores: map::SymStores::default(),
            escaped: false,
            func: f,
            key: key.clone(),
            input: key,
            output: None,
            entry: None,
            recursive: false,
            in_cycle,
            dead: false,
            calls: BTreeMap::new(),
            approx: Vec::new(),
            trace: Trace {
                parent,
                ..Trace::default()
            },
            sites: None,
        });
        u
    }

    /// A frame for analysing unit `u` of `f`.
    pub(crate) fn frame(&self, f: u32, u: UnitId, input: Arc<Facts>, output: State) -> Frame {
        Frame {
            func: f,
            unit: u,
            input,
            output,
            pending: Vec::new(),
            recursive: false,
            merged: false,
            min_dep: usize::MAX,
            prov: Vec::new(),
            wild: false,
            wrote_symbolic: false,
            stores: map::SymStores::default(),
            escaped: false,
            changed: false,
            version: 0,
            pass: 0,
            reads: Vec::new(),
            deps: Vec::new(),
            exits: Vec::new(),
            funcs: Vec::new(),
            given_up: false,
        }
    }

    /// Analyses a new node for `f` and `key` to its own fixed point (or one
    /// pass inside an enclosing open cycle). `None`: the budget ran out
    /// before the fixed point closed and the node was given up (its call
    /// is cut off: `budget.rs`).
    fn new_node(&mut self, f: u32, key: Arc<Facts>, merged: bool) -> Option<(State, UnitId, bool)> {
        let key = (f, key);
        let u = self.new_unit(f, key.1.clone(), merged, false);
        let (init_in, init_out) = match self.rec_table.get(&key) {
            Some(e) => (e.input.clone(), e.output.clone()),
            None => (key.1.clone(), None),
        };
        let frame = self.frame(f, u, init_in, init_out);
        self.stack.push(frame);
        let depth = self.stack.len() - 1;
        let result = loop {
            self.units[u as usize].calls.clear();
            self.units[u as usize].approx.clear();
            let input = self.stack[depth].input.clone();
            let out = self.analyze_body(f, &input);
            if self.stack[depth].given_up || self.abandoning() {
                self.give_up_node(u, depth);
                return None;
            }
            let fr = &mut self.stack[depth];
            if !fr.recursive {
                break out;
            }
            if fr.min_dep < depth {
                // Inside an enclosing open cycle: one pass, folded into the
                // stored approximation; the cycle's head iterates.
                let mut grew = fr.changed;
                let mut inp = (*fr.input).clone();
                for p in fr.pending.drain(..) {
                    let m = Facts::merge(&inp, &p);
                    if m != inp {
                        grew = true;
                        inp = m;
                    }
                }
                let new_out = merge_state(fr.output.clone(), &out);
                grew |= new_out != fr.output;
                fr.input = Arc::new(inp);
                fr.output = new_out.clone();
                let owner = fr.min_dep;
                let approx = RecApprox {
                    input: fr.input.clone(),
                    output: new_out.clone(),
                    owner,
                };
                self.rec_table.insert(key.clone(), approx);
                if grew {
                    self.stack[owner].changed = true;
                }
                break new_out;
            }
            if !fr.pending.is_empty() {
                let mut inp = (*fr.input).clone();
                for p in fr.pending.drain(..) {
                    inp = Facts::merge(&inp, &p);
                }
                // The output so far stays as the start: it is the result
                // for a smaller input, below the new fixed point (Figure 4
                // restarts from bottom, which made every widening of the
                // input cost as many iterations as the first).
                fr.input = Arc::new(inp);
                fr.version += 1;
            } else if state_leq(&out, &fr.output) && !fr.changed {
                break fr.output.clone();
            } else {
                let o = fr.output.take();
                let new = merge_state(o.clone(), &out);
                if new != o {
                    fr.version += 1;
                }
                fr.output = new;
            }
            fr.changed = false;
            if self.exhausted.is_some() && self.replay.is_none() {
                // Past the budget no fixed point iterates again: the time
                // past the budget is one pass of each open body.
                self.give_up_node(u, depth);
                return None;
            }
            // The nodes merged in the cycle are checked again (`cycle.rs`).
            let fr = &mut self.stack[depth];
            fr.pass += 1;
            // Iterate: what was computed under the open fixed point is stale.
            let mut stale: Vec<UnitId> = fr.prov.drain(..).map(|p| p.2).collect();
            stale.sort_unstable();
            stale.dedup();
            fr.min_dep = usize::MAX;
            // What the dropped iteration used still shaped this result: the
            // units that stay, the functions it called, the handlers.
            let mut deps = Vec::new();
            for &pu in &stale {
                let t = std::mem::take(&mut self.units[pu as usize].trace);
                // Units made below it stay its descendants.
                self.units[pu as usize].trace.parent = t.parent;
                deps.extend(t.deps);
                let fr = &mut self.stack[depth];
                fr.exits.extend(t.exits);
                fr.funcs.extend(t.funcs);
                fr.funcs.push(self.units[pu as usize].func);
                // The context bound counts the contexts that stay.
                let pf = self.units[pu as usize].func as usize;
                self.per_func[pf] = self.per_func[pf].saturating_sub(1);
                self.drop_unit(pu);
            }
            let units = &self.units;
            let fr = &mut self.stack[depth];
            fr.deps.extend(deps);
            fr.deps.retain(|&d| !units[d as usize].dead);
            for v in [&mut fr.deps, &mut fr.funcs] {
                v.sort_unstable();
                v.dedup();
            }
            fr.exits.sort();
            fr.exits.dedup();
        };
        let mut fr = self.stack.pop().unwrap();
        let end = self.units.len() as UnitId;
        let unit = &mut self.units[u as usize];
        fr.deps.sort_unstable();
        fr.deps.dedup();
        unit.trace.deps = std::mem::take(&mut fr.deps);
        unit.trace.exits = std::mem::take(&mut fr.exits);
        unit.trace.funcs = std::mem::take(&mut fr.funcs);
        unit.trace.end = end;
        unit.trace.standalone = fr.min_dep >= depth;
        unit.wild |= fr.wild;
        unit.escaped |= fr.escaped;
        unit.wrote_symbolic |= fr.wrote_symbolic;
        unit.stores.join(&fr.stores);
        unit.input = fr.input.clone();
        unit.output = result.clone();
        if fr.min_dep >= depth {
            // Final: this unit and everything provisional under it.
            if !self.rec_table.is_empty() {
                self.rec_table.retain(|_, e| e.owner < depth);
            }
            self.close_cycle(depth);
            self.memo.insert(key, u);
            if fr.recursive && *fr.input != *self.units[u as usize].key {
                self.memo.entry((f, fr.input.clone())).or_insert(u);
            }
            for (pf, pk, pu, _) in fr.prov {
                self.memo.entry((pf, pk)).or_insert(pu);
            }
        } else {
            let parent = self.stack.last_mut().unwrap();
            parent.min_dep = parent.min_dep.min(fr.min_dep);
            parent.prov.extend(fr.prov);
            parent.prov.push((f, key.1, u, fr.min_dep));
        }
        Some((result, u, false))
    }

    /// A node the budget ran out in (its frame at `depth`, unit `u`): what
    /// is provisional under it is dropped, and the caller cuts the call
    /// off instead, which covers anything the function may do. The unit
    /// itself is kept for queries when it depends on no open node above
    /// it (`Engine::given_up`): its calls analysed before the stop keep
    /// their units, and a replay of its body cuts off the others.
    fn give_up_node(&mut self, u: UnitId, depth: usize) {
        let fr = self.stack.pop().expect("the head's frame");
        let mut stale: Vec<UnitId> = fr.prov.iter().map(|p| p.2).collect();
        if fr.min_dep >= depth && self.replay.is_none() && !fr.merged {
            let unit = &mut self.units[u as usize];
            unit.input = fr.input.clone();
            unit.output = None;
            unit.partial = true;
            // The record is of a walk cut short: queries replay.
            unit.sites = None;
            self.given_up.push((u, depth));
        } else {
            stale.push(u);
        }
        if !self.rec_table.is_empty() {
            self.rec_table.retain(|_, e| e.owner < depth);
        }
        stale.extend(self.drop_cycle(depth));
        stale.sort_unstable();
        stale.dedup();
        for s in stale {
            let pf = self.units[s as usize].func as usize;
            self.per_func[pf] = self.per_func[pf].saturating_sub(1);
            self.drop_unit(s);
        }
    }

    /// A provisional unit of a stale iteration: keep the id, free the facts.
    pub(crate) fn drop_unit(&mut self, u: UnitId) {
        let unit = &mut self.units[u as usize];
        unit.dead = true;
        unit.output = None;
        unit.input = Arc::default();
        unit.key = Arc::default();
        unit.calls.clear();
        unit.approx.clear();
        unit.sites = None;
        // The parent stays: live units made below it still descend from
        // what made it.
        unit.trace.deps = Vec::new();
        unit.trace.exits = Vec::new();
        unit.trace.funcs = Vec::new();
    }

    /// Runs a body from an input: locals start `uninit`; the output keeps
    /// the returned value but no other local.
    pub(crate) fn analyze_body(&mut self, fi: u32, input: &Facts) -> State {
        if self.replay.is_none() {
            self.analyses += 1;
        }
        let func = self.func(fi);
        let mut st = input.clone();
        for (i, v) in func.vars.iter().enumerate() {
            if matches!(v.kind, VarKind::Local | VarKind::Return) {
                let vl = self.locs.var(fi, pointee_ir::VarId(i as u32));
                for leaf in pointer_paths(&v.ty, &self.prog.types) {
                    let l = self.locs.with_path(vl, &steps_of(&leaf));
                    let def = !self.locs.is_summary(l);
                    st.replace(l, &[(UNINIT, def)]);
                }
            }
        }
        let sc = Scope {
            func: fi,
            owner: &func.name,
        };
        let mut w = Walker::new(sc, func);
        self.begin_sites();
        let mut out = w.run(self, func, st);
        self.end_sites();
        if let Some(o) = &mut out {
            // (Newest objects stay newest: the caller names them.)
            let ret = func.ret_var.map(|r| self.locs.var(fi, r));
            let locs = &self.locs;
            o.retain(|f| {
                let d = locs.get(f.src);
                !matches!(d.class, Class::Stack(g) if g == fi) || Some(d.root_id) == ret
            });
        }
        out
    }

    // ----- calls -----

    pub(crate) fn record(&mut self, stmt: StmtId, name: &Name, edge: CallEdge) {
        if self.replay.is_some() {
            return;
        }
        if let Some(top) = self.stack.last() {
            let u = top.unit as usize;
            self.units[u].calls.insert((stmt, name.clone()), edge);
        }
    }

    /// The formals' values: each pointer leaf of each parameter.
    pub(crate) fn formals(
        &mut self,
        fi: u32,
        args: &[Arg],
        st: &Facts,
        sc: Scope,
    ) -> Vec<(LocId, Locset)> {
        let callee = self.func(fi);
        let mut out = Vec::new();
        for (i, &p) in callee.params.iter().enumerate() {
            let pl = self.locs.var(fi, p);
            for leaf in pointer_paths(&callee.var(p).ty, &self.prog.types) {
                let l = self.locs.with_path(pl, &steps_of(&leaf));
                let vals = match args.get(i) {
                    Some(Arg::Rv(Rvalue::Use(place))) if !leaf.is_empty() => {
                        let mut place: Place = place.clone();
                        place.path.extend(leaf.iter().cloned());
                        transfer::rvals(&mut self.locs, st, sc, &Rvalue::Use(place))
                    }
                    Some(Arg::Rv(r)) => transfer::rvals(&mut self.locs, st, sc, r),
                    Some(Arg::Vals(v)) if leaf.is_empty() => v.clone(),
                    Some(Arg::Vals(_)) => vec![(UNKNOWN, false)],
                    None => vec![(UNINIT, false)],
                };
                out.push((l, vals));
            }
        }
        out
    }

    /// The symbolic levels of `f`'s inputs (`map::RECURSION_LEVELS` for a
    /// function on a cycle of the call graph).
    pub(crate) fn map_levels(&self, f: u32) -> u32 {
        if self.cyclic[f as usize] {
            map::RECURSION_LEVELS
        } else {
            map::MAX_LEVEL
        }
    }

    /// A call to a function with a body (Figure 4 with map and unmap).
    pub(crate) fn call_defined(
        &mut self,
        st: Facts,
        sc: Scope,
        fi: u32,
        site: SiteId,
        lhs: Option<&Place>,
        args: &[Arg],
    ) -> (State, Option<UnitId>, bool) {
        let r = self.call_defined_unless(
            st,
            sc,
            fi,
            Some(site),
            lhs,
            args,
            Callback::No,
            &mut |_, _| false,
        );
        match r {
            Ok((r, ..)) => r,
            Err(_) => unreachable!("never skipped"),
        }
    }

    /// [`Engine::call_defined`], unless `skip` says the mapped input and
    /// map information need no analysis (then the state comes back as
    /// `Err`); also returns them. Without a `site` (a callback from
    /// library or unknown code) the objects the call made keep their names.
    #[allow(clippy::type_complexity, clippy::too_many_arguments)]
    pub(crate) fn call_defined_unless(
        &mut self,
        st: Facts,
        sc: Scope,
        fi: u32,
        site: Option<SiteId>,
        lhs: Option<&Place>,
        args: &[Arg],
        mode: Callback,
        skip: &mut dyn FnMut(&Arc<Facts>, &map::MapInfo) -> bool,
    ) -> Result<((State, Option<UnitId>, bool), Arc<Facts>, map::MapInfo), Facts> {
        let mut st = st;
        let params = self.func(fi).params.len();
        if args.len() > params {
            // A variadic callee reads its extra arguments with `va_arg`,
            // which gives `unknown`: what they reach escapes.
            let mut roots = Vec::new();
            for i in params..args.len() {
                roots.extend(self.arg_vals(&st, sc, args, i).into_iter().map(|t| t.0));
            }
            self.escape_reachable(&mut st, roots);
        }
        let refs = std::mem::take(&mut self.refs[fi as usize]);
        let levels = self.map_levels(fi);
        let escapes = self.needs_escapes[fi as usize];
        let map_from = |e: &mut Self, st: &Facts| {
            let formals = e.formals(fi, args, st, sc);
            map::map_call_with(&mut e.locs, st, formals, Some(&refs), levels, escapes)
        };
        let (mut input, mut info) = map_from(self, &st);
        // A newest object the callee can reach joins its summary (callees
        // never see one); the others stay newest across the call.
        let fresh = crate::recency::fresh_roots(&self.locs, &st);
        let reached: Vec<LocId> = fresh
            .into_iter()
            .filter(|&r| info.reaches(&self.locs, r))
            .collect();
        if !reached.is_empty() {
            crate::recency::demote_where(&mut self.locs, &mut st, |r| reached.contains(&r));
            (input, info) = map_from(self, &st);
        }
        self.refs[fi as usize] = refs;
        let input = Arc::new(input);
        if skip(&input, &info) {
            return Err(st);
        }
        let r = self.call_mapped(st, sc, fi, site, lhs, args, input.clone(), &info, mode);
        Ok((r, input, info))
    }

    /// The rest of a call once its input is mapped: invoke, unmap, the
    /// returned value.
    #[allow(clippy::too_many_arguments)]
    fn call_mapped(
        &mut self,
        st: Facts,
        sc: Scope,
        fi: u32,
        site: Option<SiteId>,
        lhs: Option<&Place>,
        args: &[Arg],
        input: Arc<Facts>,
        info: &map::MapInfo,
        mode: Callback,
    ) -> (State, Option<UnitId>, bool) {
        let Some((out, u, approx)) = self.invoke(fi, input.clone()) else {
            self.last_map = Vec::new();
            let depth = self.stack.len();
            if let Some((_, fis)) = self.deferred_cuts.as_mut().filter(|d| d.0 == depth) {
                // The caller cuts this call off with the others of its site.
                fis.push(fi);
                let r = match mode {
                    Callback::No => None,
                    Callback::MayRun => Some(st),
                };
                return (r, None, false);
            }
            let r = match mode {
                Callback::No => self.cut_off_call(st, sc, fi, lhs, args),
                Callback::MayRun => {
                    let r = self.cut_off_call(st.clone(), sc, fi, lhs, args);
                    merge_state(Some(st), &r)
                }
            };
            return (r, None, false);
        };
        let Some(out) = out else {
            self.last_map = info.groups.clone();
            let r = match mode {
                Callback::No => None,
                Callback::MayRun => Some(st),
            };
            return (r, Some(u), approx);
        };
        // The objects the call made, named by this call site. The output
        // may come from a generalised input (a recursive or merged node):
        // what that input names is not new either. A callback's newest
        // objects join their summaries (it has no call site to name them
        // by, and the callbacks of one unknown call see each other's).
        let out = match site.and_then(|at| {
            let callee = self.func(fi);
            let ret = callee.ret_var.map(|rv| self.locs.var(fi, rv));
            let naming = crate::recency::CallNaming {
                call: (sc.owner, at),
                callee: &callee.name,
                ret,
            };
            let depth = self.settings.heap_context;
            let body_input = &self.units[u as usize].input;
            let inputs: &[&Facts] = if Arc::ptr_eq(body_input, &input) {
                &[&input]
            } else {
                &[&input, body_input]
            };
            crate::recency::name_by_call(&mut self.locs, inputs, &out, &naming, depth)
        }) {
            Some(named) => named,
            None if site.is_none() => {
                let mut out = out;
                crate::recency::demote(&mut self.locs, &mut out, None);
                out
            }
            None => out,
        };
        let mut st = st;
        let older = crate::recency::make_room(&mut self.locs, &mut st, &out);
        // An approximate node's result is not final: assume it wrote.
        let wrote = approx || self.units[u as usize].wrote_symbolic || self.units[u as usize].wild;
        let unit = &self.units[u as usize];
        let unchanged = !approx
            && !unit.wild
            && !unit.escaped
            && map::leaves_caller_as_is(&self.locs, fi, &input, &out, info);
        let (mut res, before) = if unchanged {
            (st, None)
        } else {
            // (An approximate node's result is not final: any store.)
            let stores = (!approx).then_some(&self.units[u as usize].stores);
            let res = map::unmap_call(&mut self.locs, &st, &input, &out, info, wrote, stores);
            (res, Some(st))
        };
        if !older.is_empty() {
            res = Facts::join(res, Facts::from_unsorted(older));
        }
        if wrote {
            // The callee's record of stores, in this body's names (`any`
            // for an approximate node's result).
            let stores = &self.units[u as usize].stores;
            if approx || stores.any {
                self.wrote_symbolic();
            } else {
                let stored = stores.through_call(&mut self.locs, info);
                self.stored_symbolic(&stored);
            }
        }
        if self.units[u as usize].wild {
            transfer::store_unknown(&self.locs, &mut res, &vec![(UNKNOWN, false)]);
            self.wild_store();
        }
        if let Some(st) = before
            .as_ref()
            .filter(|_| self.units[u as usize].escaped || approx && self.calls_unknown[fi as usize])
        {
            // Unknown code below may have changed what the non-static
            // globals the callee could not see reach.
            let refs = std::mem::take(&mut self.refs[fi as usize]);
            let mut hidden: Vec<LocId> = self
                .escaped
                .iter()
                .copied()
                .filter(|g| refs.binary_search(g).is_err())
                .collect();
            self.refs[fi as usize] = refs;
            // So may what escaped earlier and the callee could not see.
            hidden.extend(
                st.targets(UNKNOWN)
                    .iter()
                    .map(|f| f.dst)
                    .filter(|&d| !info.reaches(&self.locs, d)),
            );
            self.escape(&mut res, hidden);
        }
        if let Some(lhs) = lhs {
            let callee = self.func(fi);
            match callee.ret_var {
                Some(rv) => {
                    let rl = self.locs.var(fi, rv);
                    for leaf in pointer_paths(&callee.var(rv).ty, &self.prog.types) {
                        let l = self.locs.with_path(rl, &steps_of(&leaf));
                        let vals: Locset = out.targets(l).iter().map(|f| (f.dst, f.def)).collect();
                        let vals = map::unmap_vals(&mut self.locs, info, &vals);
                        let mut place = lhs.clone();
                        place.path.extend(leaf.iter().cloned());
                        let lv = transfer::lvals(&mut self.locs, &res, sc, &place);
                        self.note_writes(&lv);
                        transfer::store_vals(&self.locs, &mut res, &lv, vals);
                    }
                }
                None => {
                    let lv = transfer::lvals(&mut self.locs, &res, sc, lhs);
                    self.note_writes(&lv);
                    transfer::store_vals(&self.locs, &mut res, &lv, vec![(UNINIT, true)]);
                }
            }
        }
        self.last_map = info.groups.clone();
        if let (Callback::MayRun, Some(before)) = (mode, before) {
            res = Facts::merge(&before, &res);
        }
        (Some(res), Some(u), approx)
    }

    /// A call to a named function: defined, library, alias check, or
    /// unknown.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call_named(
        &mut self,
        st: Facts,
        sc: Scope<'p>,
        stmt: StmtId,
        site: SiteId,
        name: &Name,
        lhs: Option<&Place>,
        args: &[Arg],
        indirect: bool,
    ) -> State {
        if library::is_alias_check(name) {
            let edge = CallEdge {
                unit: None,
                approximate: false,
                indirect,
                map: Vec::new(),
                cut_off: false,
            };
            self.record(stmt, name, edge);
            return Some(st);
        }
        if let Some(&fi) = self.locs.func_index.get(name) {
            let (out, u, approximate) = self.call_defined(st, sc, fi, site, lhs, args);
            let map = std::mem::take(&mut self.last_map);
            self.record(
                stmt,
                name,
                CallEdge {
                    unit: u,
                    approximate,
                    indirect,
                    map,
                    cut_off: u.is_none(),
                },
            );
            return out;
        }
        self.record(
            stmt,
            name,
            CallEdge {
                unit: None,
                approximate: false,
                indirect,
                map: Vec::new(),
                cut_off: false,
            },
        );
        match library::effect(name) {
            Some(e) => self.call_library(st, sc, stmt, site, e, lhs, args),
            None => self.call_unknown(st, sc, stmt, lhs, args),
        }
    }
}

impl<'p> Hooks for Engine<'p> {
    fn locs(&mut self) -> &mut Locs {
        &mut self.locs
    }

    fn call(&mut self, st: Facts, stmt: StmtId, b: &Basic) -> State {
        self.steps += 1;
        self.spend_step();
        let Basic::Call {
            site,
            lhs,
            callee,
            args,
        } = b
        else {
            return Some(st);
        };
        let sc = self.scope();
        let args: Vec<Arg> = args.iter().map(Arg::Rv).collect();
        match callee {
            Callee::Direct(name) => {
                self.call_named(st, sc, stmt, *site, name, lhs.as_ref(), &args, false)
            }
            Callee::Indirect(place) => {
                // Figure 5: the targets come from the current facts; each is
                // analysed with the pointer definitely pointing to it.
                let vals = transfer::rvals(&mut self.locs, &st, sc, &Rvalue::Use(place.clone()));
                let lv = transfer::lvals(&mut self.locs, &st, sc, place);
                let mut out: State = None;
                let mut unknown = false;
                let outer = self.defer_cuts();
                for (t, _) in vals {
                    match self.locs.get(t).root.clone() {
                        Root::Func(name) => {
                            let mut s = st.clone();
                            if lv.len() == 1 && lv[0].1 && !self.locs.is_summary(lv[0].0) {
                                s.replace(lv[0].0, &[(t, true)]);
                            }
                            let r = self.call_named(
                                s,
                                sc,
                                stmt,
                                *site,
                                &name,
                                lhs.as_ref(),
                                &args,
                                true,
                            );
                            merge_into(&mut out, &r);
                        }
                        Root::Null | Root::Uninit | Root::Freed => {}
                        _ => unknown = true,
                    }
                }
                let cut = self.cut_deferred(outer);
                if !cut.is_empty() {
                    let r = self.cut_off_calls(st.clone(), sc, &cut, lhs.as_ref(), &args);
                    merge_into(&mut out, &r);
                }
                if unknown {
                    let r = self.call_unknown(st, sc, stmt, lhs.as_ref(), &args);
                    merge_into(&mut out, &r);
                }
                out
            }
            Callee::Virtual { .. } => self.call_unknown(st, sc, stmt, lhs.as_ref(), &args),
        }
    }

    fn observe(&mut self, point: Point, st: &Facts) {
        if self.replay == Some(self.stack.len()) {
            self.seen.observe(point, st);
        }
    }

    fn observing(&self) -> bool {
        self.replay == Some(self.stack.len())
    }

    fn site(&mut self, sc: Scope, stmt: StmtId, st: &Facts) {
        self.record_site(sc, stmt, st);
    }

    fn wild_store(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.wild = true;
            top.wrote_symbolic = true;
            top.stores.any = true;
        }
    }

    fn wrote_symbolic(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.wrote_symbolic = true;
            top.stores.any = true;
        }
    }

    fn stored_symbolic(&mut self, stored: &[(LocId, LocId)]) {
        let Some(top) = self.stack.last_mut() else {
            return;
        };
        top.wrote_symbolic = true;
        if !top.stores.any {
            top.stores.add(&mut self.locs, stored);
        }
    }

    fn tick(&mut self) -> bool {
        self.poll_interrupt();
        self.budget_tick();
        !self.abandoning()
    }

    fn given_up(&self) -> bool {
        self.abandoning()
    }
}

impl Engine<'_> {
    /// Every [`INTERRUPT_EVERY`] statements, calls and passes of unknown
    /// code (during runs and replays), asks the interrupt; when it says
    /// stop, unwinds with [`Interrupted`].
    pub(crate) fn poll_interrupt(&mut self) {
        self.polled += 1;
        if self.polled.is_multiple_of(INTERRUPT_EVERY) {
            if let Some(stop) = &self.settings.interrupt.0 {
                if stop() {
                    // Not a panic: no hook, no message; the caller catches it.
                    std::panic::resume_unwind(Box::new(Interrupted));
                }
            }
        }
    }
}

impl<'p> Engine<'p> {
    /// The body registered an `atexit` handler: it joins the unit's trace
    /// and, unless a rerun is trying units out of their context
    /// (`reuse.rs`), the handlers run after `main`.
    pub(crate) fn note_exit(&mut self, name: Name) {
        if self.replay.is_none() {
            if let Some(top) = self.stack.last_mut() {
                top.exits.push(name.clone());
            }
        }
        let trial = self.carried.as_ref().is_some_and(|c| c.trial());
        if !trial && !self.exit_handlers.contains(&name) {
            self.exit_handlers.push(name);
        }
    }

    /// The body called unknown code.
    pub(crate) fn escaped_call(&mut self) {
        if let Some(top) = self.stack.last_mut() {
            top.escaped = true;
        }
    }
}

impl<'p> Engine<'p> {
    /// Re-runs a unit's body from its stored input and returns the state at
    /// the points reached (the facts inside a body are never stored) that
    /// `seen` keeps: from its first point on, within its cap of facts.
    pub(crate) fn replay_unit(&mut self, u: UnitId, seen: Seen) -> Seen {
        let unit = self.units[u as usize].clone();
        let saved = self.replay.take();
        let mut frame = self.frame(unit.func, u, unit.input.clone(), unit.output.clone());
        frame.recursive = true;
        self.stack.push(frame);
        self.replay = Some(self.stack.len());
        self.replay_cut = false;
        self.seen = seen;
        let _ = self.analyze_body(unit.func, &unit.input);
        self.stack.pop();
        self.replay = saved;
        std::mem::take(&mut self.seen)
    }
}

/// The states a replay keeps, per point: bounded, because a body's states
/// are many and each may be large (a checker's replays of `inflate.c` held
/// 1.2 GB past a memory ceiling of 300 MB: every point of every unit, and
/// a copy per point of a loop). Equal consecutive states share one copy;
/// a point whose state would take the facts held past `cap` is not kept
/// (nor is one first reached before `from`: its state would miss what
/// reached it earlier), except `want`, the point asked.
#[derive(Default)]
pub(crate) struct Seen {
    pub states: HashMap<Point, Arc<Facts>>,
    /// Points reached but not kept (never kept later either: their state
    /// would miss the paths before): a query there replays again.
    pub skipped: crate::fxhash::FxHashSet<Point>,
    /// Facts held, each shared copy once.
    pub facts: usize,
    cap: usize,
    /// Keep points only from the first time this one is reached.
    from: Option<Point>,
    want: Option<Point>,
    last: Option<Arc<Facts>>,
}

impl Seen {
    pub fn new(cap: usize, from: Option<Point>, want: Point) -> Seen {
        Seen {
            cap,
            from,
            want: Some(want),
            ..Seen::default()
        }
    }

    fn observe(&mut self, point: Point, st: &Facts) {
        let old = self.states.remove(&point);
        match &old {
            // Reached again (a loop, a goto): a kept point holds every
            // path's state.
            Some(e) if st.leq(e) => {
                self.states.insert(point, old.unwrap());
                return;
            }
            Some(_) => {}
            None if self.from.is_some_and(|f| f != point) || self.skipped.contains(&point) => {
                self.skipped.insert(point);
                return;
            }
            None => {}
        }
        let merged = old.as_ref().map(|e| Facts::merge(e, st));
        if let Some(e) = old {
            self.release(e);
        }
        let new = merged.as_ref().unwrap_or(st);
        let shared = match &self.last {
            Some(l) if **l == *new => l.clone(),
            _ => {
                if self.facts + new.len() > self.cap && self.want != Some(point) {
                    self.skipped.insert(point);
                    return;
                }
                self.facts += new.len();
                let a = Arc::new(merged.unwrap_or_else(|| st.clone()));
                if let Some(l) = self.last.replace(a.clone()) {
                    self.release(l);
                }
                a
            }
        };
        self.from = None;
        self.states.insert(point, shared);
    }

    /// A state no longer held here: its facts are counted off once its
    /// last holder lets it go.
    fn release(&mut self, a: Arc<Facts>) {
        if Arc::strong_count(&a) == 1 {
            self.facts -= a.len();
        }
    }
}
