//! The budget of a run: steps, time and memory, and what a run does once it
//! is spent.
//!
//! Past the budget the run goes on, but creates no new unit: a call that
//! would need one is *cut off* and applies a sound summary of anything the
//! callee may do (`Engine::cut_off_call`), the unknown-code rule widened to
//! every global the callee may name (statics too) and to stores through
//! `unknown`; the cut-off calls of one call site are cut off together. No
//! fixed point iterates again: an open recursive node that would is given
//! up (dropped with what is provisional under it; its caller cuts the call
//! off), and the open bodies finish their pass only within a grace, then
//! are given up too. Entries not yet run are skipped: their functions keep
//! "not analysed".
//!
//! A function some call (or entry) of which was cut off lacks the contexts
//! that call would have made, and so does everything it may call: such a
//! function is *incomplete*, and its answers (`Analysis::values_at`) gain
//! `unknown` and lose every definite flag, so that a partial result never
//! says `no`, `must` or a definite target a full run would not say. A unit
//! whose result depends on a cut-off call is marked `partial`.
//!
//! This module never reads the clock's or the process's state by itself
//! but through `std::time::Instant` and the probe its caller gives (the
//! engine does no I/O).

use crate::facts::{Facts, State};
use crate::loc::UNKNOWN;
use crate::solver::{Arg, Engine};
use crate::transfer::{self, Scope};
use pointee_ir::Place;
use std::sync::Arc;
use std::time::Duration;

/// Statements transferred between two looks at the clock: a call is not a
/// unit of cost (one call may walk a long body, or a pass of unknown code
/// over a large state), a statement is close to one.
const LOOK_EVERY_STATEMENTS: u32 = 8;

/// The memory probe reads the process's state (a file): at most this often.
const PROBE_EVERY: Duration = Duration::from_millis(20);

/// Past the budget, the open bodies finish their pass for at most this
/// many statements (deterministic: all a step budget allows), and never
/// past the time limit.
const GRACE_STATEMENTS: u64 = 5_000;
/// A time limit keeps this share of itself for the grace: the run makes
/// no new unit past `time - time / GRACE_SHARE`, and gives every open
/// body up at `time` (the grace came on top of the limit: whole bzip2
/// took 22.7 s at `--budget-ms 20000`).
const GRACE_SHARE: u32 = 8;

/// Limits of one run; `None`: no limit of that kind.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Calls analysed (deterministic: what tests use).
    pub steps: Option<u64>,
    /// Wall-clock time of the run.
    pub time: Option<Duration>,
    /// The process's resident memory, in MB, as `memory_probe` reports it.
    pub memory_mb: Option<u64>,
    pub memory_probe: MemoryProbe,
    /// Facts one copy of memory (`memcpy`, `realloc`) may build before it
    /// is collapsed (`Engine::copy_contents`); `None`: [`COPY_FACTS`].
    pub copy_facts: Option<usize>,
}

/// The facts one copy of memory builds at most, by default: a wide copy
/// (every region of many sources onto many destinations) past it is
/// collapsed soundly rather than built in one vector, which the memory
/// ceiling, looked at between statements, cannot stop.
pub const COPY_FACTS: usize = 1 << 22;

impl Budget {
    /// Whether the probe reports the memory ceiling reached now (`false`
    /// without a ceiling or a probe).
    pub(crate) fn memory_reached(&self) -> bool {
        match (self.memory_mb, &self.memory_probe.0) {
            (Some(mb), Some(probe)) => probe() >= mb,
            _ => false,
        }
    }
}

/// Reports the process's resident memory in MB (given by the caller: the
/// engine does no I/O). Settings that differ only in it are equal.
#[derive(Clone, Default)]
pub struct MemoryProbe(pub Option<Arc<dyn Fn() -> u64 + Send + Sync>>);

impl PartialEq for MemoryProbe {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl Eq for MemoryProbe {}

impl std::fmt::Debug for MemoryProbe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "MemoryProbe(set)"
        } else {
            "MemoryProbe(none)"
        })
    }
}

/// Which limit stopped a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spent {
    Steps,
    Time,
    Memory,
}

impl Spent {
    /// The limit in words, for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Spent::Steps => "step budget",
            Spent::Time => "time budget",
            Spent::Memory => "memory ceiling",
        }
    }
}

/// What a run that stopped at its budget did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    pub spent: Spent,
    /// Calls analysed before the budget ran out (entries are not counted:
    /// with a budget of 0 steps, `main` runs with every call cut off).
    pub steps: u64,
    /// Functions whose answers miss contexts (a call or entry of theirs, or
    /// of a function that may call them, was cut off), sorted.
    pub incomplete: Vec<pointee_ir::Name>,
}

impl Engine<'_> {
    /// Counts a call analysed by the run (not by a query's replay) and
    /// looks at the budget.
    pub(crate) fn spend_step(&mut self) {
        self.poll_interrupt();
        if self.replay.is_some() || self.exhausted.is_some() {
            return;
        }
        self.run_steps += 1;
        if self
            .settings
            .budget
            .steps
            .is_some_and(|n| self.run_steps > n)
        {
            self.exhausted = Some(Spent::Steps);
        } else {
            self.look_at_clock();
        }
        if self.exhausted.is_some() {
            // This call is the first one cut off.
            self.spent_at = self.run_steps - 1;
        }
    }

    /// Counts a statement transferred by the run and, every
    /// [`LOOK_EVERY_STATEMENTS`], looks at the time and memory limits (a
    /// long body between two calls is bounded too).
    pub(crate) fn budget_tick(&mut self) {
        if self.replay.is_some() {
            // A query's replay holds to the memory ceiling too: past it the
            // replay is given up and the query answers without it
            // (`Analysis::values_at`).
            self.ticks = self.ticks.wrapping_add(1);
            if self.ticks.is_multiple_of(LOOK_EVERY_STATEMENTS) && self.memory_reached() {
                self.replay_cut = true;
            }
            return;
        }
        if self.abandoned {
            return;
        }
        if self.exhausted.is_some() {
            self.past_budget += 1;
            // A step budget's grace is counted in statements only, so that
            // a step-budget run gives the same result under any load; the
            // memory ceiling holds absolutely: past it there is no grace,
            // and a grace given for another limit ends when memory
            // reaches it.
            let look = self
                .past_budget
                .is_multiple_of(LOOK_EVERY_STATEMENTS as u64);
            let late = self.exhausted == Some(Spent::Memory)
                || self.past_budget > GRACE_STATEMENTS
                || look && (self.past_deadline() || self.memory_reached());
            if late {
                self.abandoned = true;
            }
            return;
        }
        self.ticks = self.ticks.wrapping_add(1);
        if self.ticks.is_multiple_of(LOOK_EVERY_STATEMENTS) {
            self.look_at_clock();
            if self.exhausted.is_some() {
                // The next call is the first one cut off.
                self.spent_at = self.run_steps;
            }
        }
    }

    /// The time limit is reached: nothing of the run goes on.
    pub(crate) fn past_deadline(&self) -> bool {
        self.settings
            .budget
            .time
            .is_some_and(|t| self.started.elapsed() >= t)
    }

    /// The body being walked is given up: past the budget's grace, every
    /// open body stops (its statements give bottom) and its unit is
    /// dropped, so that its caller cuts the call off (`Engine::new_node`).
    pub(crate) fn abandoning(&self) -> bool {
        match self.replay {
            None => self.abandoned,
            Some(_) => self.replay_cut,
        }
    }

    /// The time limit (less its grace), and the memory limit at most
    /// every [`PROBE_EVERY`].
    fn look_at_clock(&mut self) {
        let b = &self.settings.budget;
        if b.time.is_none() && b.memory_mb.is_none() {
            return;
        }
        if b.time
            .is_some_and(|t| self.started.elapsed() >= t - t / GRACE_SHARE)
        {
            self.exhausted = Some(Spent::Time);
        } else if self.memory_reached() {
            self.exhausted = Some(Spent::Memory);
        }
    }

    /// Whether the process's memory reached the ceiling, asking the probe
    /// at most every [`PROBE_EVERY`] (`false` in between).
    fn memory_reached(&mut self) -> bool {
        let b = &self.settings.budget;
        if b.memory_mb.is_none() || b.memory_probe.0.is_none() {
            return false;
        }
        let now = self.started.elapsed();
        if self.probed_at.is_some_and(|at| now < at + PROBE_EVERY) {
            return false;
        }
        self.probed_at = Some(now);
        self.settings.budget.memory_reached()
    }

    /// From here until [`Engine::cut_deferred`], the calls at this stack
    /// depth that the budget cuts off are collected instead of cut off one
    /// by one; returns the collection of an enclosing site.
    pub(crate) fn defer_cuts(&mut self) -> Option<(usize, Vec<u32>)> {
        let depth = self.stack.len();
        self.deferred_cuts.replace((depth, Vec::new()))
    }

    /// The calls collected since [`Engine::defer_cuts`] (each function
    /// once), restoring the enclosing collection `outer`.
    pub(crate) fn cut_deferred(&mut self, outer: Option<(usize, Vec<u32>)>) -> Vec<u32> {
        let mut cut = std::mem::replace(&mut self.deferred_cuts, outer)
            .map(|d| d.1)
            .unwrap_or_default();
        cut.sort_unstable();
        cut.dedup();
        cut
    }

    /// The limit that stopped the run, when the run cut something off (a
    /// call or an entry): a run whose budget ran out after its last new
    /// unit is complete, not partial.
    pub(crate) fn stopped_by(&self) -> Option<Spent> {
        self.exhausted.filter(|_| self.cut_off.iter().any(|&c| c))
    }

    /// An entry the budget did not let run or finish: its function is
    /// incomplete.
    pub(crate) fn cut_off_entry(&mut self, f: u32) {
        self.cut_off[f as usize] = true;
    }

    /// A call to `fi` the budget cut off: what `fi` may do, without
    /// analysing it. Everything its arguments and the globals it may name
    /// (statics included: `refs.rs` is transitive) reach may point to
    /// `unknown` afterwards and escapes; if it may call unknown code, so
    /// may what unknown code reaches; it may store through `unknown` (a
    /// wild store); it returns `unknown`.
    pub(crate) fn cut_off_call(
        &mut self,
        st: Facts,
        sc: Scope<'_>,
        fi: u32,
        lhs: Option<&Place>,
        args: &[Arg],
    ) -> State {
        self.cut_off_calls(st, sc, &[fi], lhs, args)
    }

    /// [`Engine::cut_off_call`] for a call that may go to any of `fis` (an
    /// indirect call's targets, the callbacks of unknown code) once the
    /// budget is spent: one pass over the union of what they may reach
    /// instead of one per callee (a table of 3,000 function pointers took
    /// 10.8 s at a budget of 0 steps, one cut-off summary per entry).
    pub(crate) fn cut_off_calls(
        &mut self,
        st: Facts,
        sc: Scope<'_>,
        fis: &[u32],
        lhs: Option<&Place>,
        args: &[Arg],
    ) -> State {
        if self.abandoning() {
            // The body making the call is given up: its state is dropped,
            // no pass over it is worth making.
            for &fi in fis {
                self.cut_off[fi as usize] = true;
            }
            return None;
        }
        let mut st = st;
        crate::recency::demote(&mut self.locs, &mut st, None);
        let mut work = Vec::new();
        for i in 0..args.len() {
            work.extend(self.arg_vals(&st, sc, args, i).into_iter().map(|v| v.0));
        }
        let mut unknown_below = false;
        for &fi in fis {
            self.cut_off[fi as usize] = true;
            work.extend(self.refs[fi as usize].iter().copied());
            unknown_below |= self.calls_unknown[fi as usize];
        }
        work.sort_unstable();
        work.dedup();
        if unknown_below {
            work.extend(self.escaped.iter().copied());
            work.extend(st.targets(UNKNOWN).iter().map(|f| f.dst));
            self.escaped_call();
        }
        // The functions reached are not called: what they may name is in
        // `refs[fi]` already.
        self.clobber_reachable(&mut st, work);
        transfer::store_unknown(&self.locs, &mut st, &vec![(UNKNOWN, false)]);
        crate::walk::Hooks::wild_store(self);
        self.store_lhs(&mut st, sc, lhs, vec![(UNKNOWN, false)]);
        Some(st)
    }
}
