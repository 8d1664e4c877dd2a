//! The budget of a run: steps, time and memory, and what a run does once it
//! is spent.
//!
//! Past the budget the run goes on, but creates no new unit: a call that
//! would need one is *cut off* and applies a sound summary of anything the
//! callee may do (`Engine::cut_off_call`), the unknown-code rule widened to
//! every global the callee may name (statics too) and to stores through
//! `unknown`. Fixed points already open still iterate to their end (their
//! provisional results would be unsound otherwise), but each pass only
//! re-runs bodies that already have units. Entries not yet run are skipped:
//! their functions keep "not analysed".
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

/// Steps between two looks at the clock and the memory probe.
const CHECK_EVERY: u64 = 256;

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
        if self.replay.is_some() || self.exhausted.is_some() {
            return;
        }
        self.run_steps += 1;
        let b = &self.settings.budget;
        if b.steps.is_some_and(|n| self.run_steps > n) {
            self.exhausted = Some(Spent::Steps);
        } else if self.run_steps.is_multiple_of(CHECK_EVERY) {
            if b.time.is_some_and(|t| self.started.elapsed() >= t) {
                self.exhausted = Some(Spent::Time);
            } else if let (Some(mb), Some(probe)) = (b.memory_mb, &b.memory_probe.0) {
                if probe() >= mb {
                    self.exhausted = Some(Spent::Memory);
                }
            }
        }
        if self.exhausted.is_some() {
            // This call is the first one cut off.
            self.spent_at = self.run_steps - 1;
        }
    }

    /// An entry the budget did not let run: its function keeps no context.
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
        let mut st = st;
        crate::recency::demote(&mut self.locs, &mut st, None);
        self.cut_off[fi as usize] = true;
        let mut work = Vec::new();
        for i in 0..args.len() {
            work.extend(self.arg_vals(&st, sc, args, i).into_iter().map(|v| v.0));
        }
        work.extend(self.refs[fi as usize].iter().copied());
        if self.calls_unknown[fi as usize] {
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
