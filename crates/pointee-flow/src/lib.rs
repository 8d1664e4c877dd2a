//! pointee-flow: the flow-sensitive, context-sensitive interprocedural
//! points-to analysis of Emami, Ghiya and Hendren (PLDI'94) over the pointer
//! IR, for C programs.
//!
//! It computes points-to triples `(x, y, D|P)` at every program point of
//! every calling context, the invocation graph (with recursive/approximate
//! node pairs and the edges of indirect calls), and answers queries: the
//! targets of an expression at a point per context and merged, the callees of
//! a call, alias verdicts. Facts inside bodies are recomputed on demand from
//! the stored (function, input) -> output units.
//!
//! This crate must never parse, do I/O, or know about source positions, LSP,
//! JSON or the command line; it never depends on tokio or serde.

mod budget;
mod cycle;
mod effects;
mod entry;
mod facts;
use pointee_ir::fxhash;
mod library;
mod loc;
mod map;
mod query;
mod recency;
mod refs;
mod reuse;
mod sites;
mod solver;
mod transfer;
mod walk;

#[cfg(test)]
mod tests;

pub use budget::{Budget, MemoryProbe, Partial, Spent};
pub use facts::{Fact, Facts, State};
pub use library::{
    check_holds, dereferenced_args, effect as library_effect, is_alias_check, CbRet, Effect,
};
pub use loc::{Class, LocData, LocId, Locs, Root, Step, FREED, NULL, UNINIT, UNKNOWN};
pub use query::{Alias, Analysis, ContextValues};
pub use reuse::Reuse;
pub use sites::{arg_place, pointer_of, site_values};
pub use solver::{CallEdge, EntryKind, Interrupt, Interrupted, Settings, Unit, UnitId};

/// Analyses a program (on a thread with a large stack: deep call chains
/// recurse).
pub fn analyze(program: &pointee_ir::Program, settings: Settings) -> Analysis<'_> {
    let engine = run_engine(solver::Engine::new(program, settings));
    let mut a = Analysis::new(engine);
    a.count_computed(0);
    a.reuse_mut().scratch_reason = Some("no previous run".into());
    a
}

/// Runs an engine's entries on a thread with a large stack.
pub(crate) fn run_engine(engine: solver::Engine<'_>) -> solver::Engine<'_> {
    run_on_big_stack(engine, |e| e.run())
}

/// Runs `f` on an engine on a thread with a large stack (deep call chains
/// recurse).
pub(crate) fn run_on_big_stack<'p>(
    engine: solver::Engine<'p>,
    f: impl FnOnce(&mut solver::Engine<'p>) + Send,
) -> solver::Engine<'p> {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 29)
            .spawn_scoped(s, move || {
                let mut e = engine;
                f(&mut e);
                e
            })
            .expect("spawn analysis thread")
            .join()
            // Keep the payload (an `Interrupted`, or a panic's message).
            .unwrap_or_else(|e| std::panic::resume_unwind(e))
    })
}

self_cell::self_cell!(
    /// An analysis that owns its program, so it can be kept between requests
    /// and moved between threads (an [`Analysis`] borrows its program).
    pub struct OwnedAnalysis {
        owner: std::sync::Arc<pointee_ir::Program>,
        #[covariant]
        dependent: Analysis,
    }
);

impl OwnedAnalysis {
    /// Analyses `program` and keeps it.
    pub fn run(program: std::sync::Arc<pointee_ir::Program>, settings: Settings) -> OwnedAnalysis {
        OwnedAnalysis::new(program, |p| analyze(p, settings))
    }

    /// Analyses `program`, reusing the units of `previous` that cannot
    /// have changed (see `reuse.rs`): the result is the one
    /// [`OwnedAnalysis::run`] gives. `previous` stays usable (its state is
    /// copied: [`OwnedAnalysis::rerun_owned`] saves that).
    pub fn rerun(
        previous: &OwnedAnalysis,
        program: std::sync::Arc<pointee_ir::Program>,
        settings: Settings,
    ) -> OwnedAnalysis {
        let prev = reuse::Previous::copy(previous.borrow_dependent(), previous.program().clone());
        OwnedAnalysis::new(program, |p| reuse::rerun(prev, p, settings))
    }

    /// Like [`OwnedAnalysis::rerun`], consuming the previous analysis (its
    /// state moves over instead of being copied).
    pub fn rerun_owned(
        mut previous: OwnedAnalysis,
        program: std::sync::Arc<pointee_ir::Program>,
        settings: Settings,
    ) -> OwnedAnalysis {
        let old = previous.program().clone();
        let prev = previous.with_dependent_mut(|_, a| reuse::Previous::take(a, old));
        drop(previous);
        OwnedAnalysis::new(program, |p| reuse::rerun(prev, p, settings))
    }

    /// How the run went: units reused and computed, or why it was a scratch
    /// run.
    pub fn reuse(&self) -> &Reuse {
        self.borrow_dependent().reuse()
    }

    /// The program analysed.
    pub fn program(&self) -> &std::sync::Arc<pointee_ir::Program> {
        self.borrow_owner()
    }

    /// Runs `f` on the analysis (queries replay bodies, so they need it
    /// mutably).
    pub fn with<T>(&mut self, f: impl FnOnce(&mut Analysis<'_>) -> T) -> T {
        self.with_dependent_mut(|_, a| f(a))
    }
}

impl std::fmt::Debug for OwnedAnalysis {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OwnedAnalysis").finish_non_exhaustive()
    }
}

// Kept between requests and moved to worker threads.
const _: () = {
    const fn sendable<T: Send + Sync>() {}
    sendable::<OwnedAnalysis>();
};
