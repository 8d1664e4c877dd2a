//! The C engine run over the linked program, and its position-free results.

use crate::lowering::{c_program, walk_calls};
use crate::{Config, Db, Project};
use pointee_flow::{Interrupt, Interrupted, OwnedAnalysis};
use pointee_ir::{Callee, Name, Point, StmtId};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The C engine's settings for a configuration of `program` (whose
/// functions the entry patterns name).
pub fn c_settings(config: &Config, program: &pointee_ir::Program) -> pointee_flow::Settings {
    let mut s = pointee_flow::Settings {
        malloc_may_fail: !config.c_assume_alloc_succeeds,
        ..Default::default()
    };
    if let Some(bound) = config.c_context_bound {
        s.max_contexts_per_function = bound.max(1) as usize;
    }
    s.budget = pointee_flow::Budget {
        steps: config.c_budget_steps,
        time: config.c_budget_ms.map(std::time::Duration::from_millis),
        memory_mb: Some(
            config
                .c_max_memory_mb
                .unwrap_or(crate::DEFAULT_MAX_MEMORY_MB),
        ),
        memory_probe: pointee_flow::MemoryProbe(Some(Arc::new(resident_mb))),
        copy_facts: None,
    };
    s.entries = config.c_entries.as_ref().map(|patterns| {
        program
            .functions
            .iter()
            .map(|f| f.name.clone())
            .filter(|n| {
                patterns
                    .iter()
                    .any(|p| pointee_project::paths::match_name(p.as_bytes(), n.as_bytes()))
            })
            .collect()
    });
    s
}

/// The process's resident memory in MB (`VmRSS`; 0 where there is no
/// `/proc`: the ceiling is then not enforced).
fn resident_mb() -> u64 {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return 0;
    };
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb / 1024)
}

/// A C run that stopped at its budget (position-free).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PartialRun {
    /// Which limit: "step budget", "time budget" or "memory ceiling".
    pub spent: String,
    /// Calls analysed before it stopped.
    pub steps: u64,
    /// The functions whose answers miss what the run did not finish.
    pub incomplete: Vec<Name>,
}

/// How a call reaches its callee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CallKind {
    /// The callee is named.
    Direct,
    /// Through a function pointer (C), resolved by the analysis.
    Indirect,
    /// Virtual dispatch (Java), resolved by the analysis.
    Virtual,
}

/// A resolved call edge of a program (C or Java), without positions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallEdge {
    pub caller: Name,
    pub stmt: StmtId,
    pub callee: Name,
    pub kind: CallKind,
}

/// An alias check found in a function, with the engine's verdict (C:
/// pointee-flow's, Java: pointee-cspta's).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AliasCheck {
    pub function: Name,
    pub stmt: StmtId,
    pub check: Name,
    pub verdict: pointee_ir::Verdict,
    pub ok: bool,
}

/// What the whole-program C analysis found, position-free: call edges
/// (direct and through function pointers), alias-check verdicts, figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CAnalysis {
    pub edges: Vec<CallEdge>,
    pub alias_checks: Vec<AliasCheck>,
    pub stats: Vec<(String, u64)>,
    /// The run stopped at its budget: what it did not finish.
    pub partial: Option<PartialRun>,
}

/// One run of the C engine, kept so that requests query it without
/// analysing again (the engine replays bodies for queries, so it is behind a
/// lock). Equal only to itself: salsa sees a new run as a change, and the
/// position-free `c_analysis` after it is what gets backdated.
#[derive(Clone)]
pub struct CEngine {
    /// `None` once the next run took the state over (see `c_engine`).
    analysis: Arc<Mutex<Option<OwnedAnalysis>>>,
    /// Which chain of runs this one belongs to: a run from scratch starts a
    /// new lineage, a run that took the previous one over keeps its
    /// lineage. Within a lineage the engine's location ids keep their
    /// meaning, so results that hold ids (the checkers' cache) may be
    /// compared across runs of one lineage, never across two.
    pub lineage: u64,
}

/// The next lineage number (process-wide, so never reused).
static LINEAGES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

impl CEngine {
    /// Runs `f` on the program and its analysis. A run whose state a newer
    /// run took over belongs to an outdated revision: the request is
    /// cancelled as salsa cancels it (`salsa::Cancelled`).
    pub fn with<T>(
        &self,
        f: impl FnOnce(&pointee_ir::Program, &mut pointee_flow::Analysis) -> T,
    ) -> T {
        self.with_owned(|owned| owned.with_dependent_mut(|p, a| f(p, a)))
    }

    pub(crate) fn with_owned<T>(&self, f: impl FnOnce(&mut OwnedAnalysis) -> T) -> T {
        // A query that panicked leaves the analysis usable: queries only
        // fill caches.
        let mut guard = self.analysis.lock().unwrap_or_else(|e| e.into_inner());
        match guard.as_mut() {
            Some(owned) => f(owned),
            None => std::panic::resume_unwind(Box::new(salsa::Cancelled::PendingWrite)),
        }
    }

    /// What the run reused from the previous one.
    pub fn reuse(&self) -> pointee_flow::Reuse {
        self.with(|_, a| a.reuse().clone())
    }
}

impl PartialEq for CEngine {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.analysis, &other.analysis)
    }
}
impl Eq for CEngine {}

impl std::fmt::Debug for CEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CEngine").finish_non_exhaustive()
    }
}

/// Runs the C engine over the linked program. Re-executes only when the
/// linked program (or the configuration) changed, never after an edit the IR
/// does not see. Per (function, input) results are the engine's units: a
/// run takes over the previous run's state of the same project
/// (`OwnedAnalysis::rerun_owned`) and re-analyses only the units an edit can
/// have changed, stopping at callers whose inputs and callees' outputs are
/// unchanged; the result equals a scratch run's (pointee-flow's reuse tests).
/// Recursive cycles are solved inside the engine, i.e. inside this one
/// query (salsa cannot see call chains).
#[salsa::tracked(returns(ref))]
pub fn c_engine(db: &dyn Db, project: Project) -> Result<CEngine, String> {
    let program = c_program(db, project).clone()?;
    let mut settings = c_settings(project.config(db), &program);
    // Stop when an input is about to be written: this run's revision is
    // outdated then, and the write waits for it. Only while the run lasts:
    // queries replay bodies later, and must not stop for writes that left
    // this run current (a comment edit).
    let counter = db.writes();
    let start = counter.load(Ordering::SeqCst);
    let running = Arc::new(AtomicBool::new(true));
    let still_running = running.clone();
    settings.interrupt = Interrupt(Some(Arc::new(move || {
        still_running.load(Ordering::SeqCst) && counter.load(Ordering::SeqCst) != start
    })));
    let previous = db
        .last_c_engines()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .remove(&project)
        .and_then(|e| {
            let owned = e.analysis.lock().unwrap_or_else(|e| e.into_inner()).take();
            owned.map(|o| (o, e.lineage))
        });
    let previous_lineage = previous.as_ref().map(|p| p.1);
    let previous = previous.map(|p| p.0);
    let analysis = cancelled_if_interrupted(|| match previous {
        Some(previous) => OwnedAnalysis::rerun_owned(previous, program, settings),
        None => OwnedAnalysis::run(program, settings),
    });
    running.store(false, Ordering::SeqCst);
    let lineage = match previous_lineage {
        Some(l) if analysis.with_dependent(|_, a| a.reuse().scratch_reason.is_none()) => l,
        _ => LINEAGES.fetch_add(1, Ordering::Relaxed),
    };
    let engine = CEngine {
        analysis: Arc::new(Mutex::new(Some(analysis))),
        lineage,
    };
    db.last_c_engines()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(project, engine.clone());
    Ok(engine)
}

/// Runs `f`; a run it makes that stops on its interrupt is a salsa
/// cancellation (the server answers `ContentModified` and publishes nothing).
fn cancelled_if_interrupted<T>(f: impl FnOnce() -> T) -> T {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)) {
        Ok(v) => v,
        Err(p) if p.is::<Interrupted>() => {
            std::panic::resume_unwind(Box::new(salsa::Cancelled::PendingWrite))
        }
        Err(p) => std::panic::resume_unwind(p),
    }
}

/// The position-free results of the C engine's run.
#[salsa::tracked(returns(ref))]
pub fn c_analysis(db: &dyn Db, project: Project) -> Result<Arc<CAnalysis>, String> {
    let engine = c_engine(db, project).clone()?;
    engine.with(c_results)
}

fn c_results(
    program: &pointee_ir::Program,
    a: &mut pointee_flow::Analysis,
) -> Result<Arc<CAnalysis>, String> {
    let mut out = CAnalysis::default();
    let defined: std::collections::HashSet<&str> =
        program.functions.iter().map(|f| &*f.name).collect();
    for f in &program.functions {
        walk_calls(&f.body, &mut |stmt, callee, args| {
            let Callee::Direct(name) = callee else { return };
            // Direct calls to defined functions are edges even where the
            // analysis never reaches them.
            if defined.contains(&**name) {
                out.edges.push(CallEdge {
                    caller: f.name.clone(),
                    stmt,
                    callee: name.clone(),
                    kind: CallKind::Direct,
                });
            }
            if let [x, y] = args {
                if pointee_flow::is_alias_check(name) {
                    let verdict = a.alias(&f.name, Point::Before(stmt), x, y);
                    out.alias_checks.push(AliasCheck {
                        function: f.name.clone(),
                        stmt,
                        check: name.clone(),
                        verdict,
                        ok: pointee_flow::check_holds(name, verdict),
                    });
                }
            }
        });
    }
    for (caller, stmt, callee, indirect) in a.call_edges() {
        out.edges.push(CallEdge {
            caller,
            stmt,
            callee,
            kind: if indirect {
                CallKind::Indirect
            } else {
                CallKind::Direct
            },
        });
    }
    out.edges.sort();
    out.edges.dedup();
    out.stats = a.stats();
    out.partial = a.partial().map(|p| PartialRun {
        spent: p.spent.describe().to_string(),
        steps: p.steps,
        incomplete: p.incomplete,
    });
    Ok(Arc::new(out))
}
