//! The checkers' findings cached per function, so that an edit rechecks
//! only the functions whose facts it changed, and an edit the engine does
//! not see (a comment, a move) rechecks nothing.
//!
//! The engine's run is one opaque value (`pointee_db::c_engine`, equal only
//! to itself), so a query that reads it re-executes after every run. Hence
//! two levels:
//!
//! - `run_fingerprints` (per program, re-executes after every run, cheap: no
//!   body is replayed) hashes, per function, everything its findings depend
//!   on: its IR, which of its direct callees are defined (and their
//!   parameters' `restrict` flags), and per live unit
//!   in number order the unit's input, flags and whether only an extra entry
//!   reaches it, and per call the callee unit's result (output and flags)
//!   and map; with the run's lineage (location ids mean the same only
//!   within one). `function_fingerprint` picks one function's, and is
//!   backdated when it is equal. The IR is held, not hashed: the linked
//!   program shares unchanged functions, so comparing it is a pointer
//!   comparison (`Arc`'s equality looks at the pointer first).
//! - `function_findings` depends on that fingerprint only, and reads the
//!   engine without a tracked dependency (through the database's last
//!   engines): everything of the run it reads is in the fingerprint.
//!
//! The fingerprint is 128 bits of two SipHashes; two different states
//! giving the same fingerprint is not a practical concern.

use super::{memory, overlap, Findings};
use pointee_db::{Db, Project};
use pointee_ir::{for_each_basic, Basic, Callee, Function, Name};
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

/// A function of a program (by the linked program's name) whose findings
/// are cached.
#[salsa::interned(debug)]
pub(crate) struct CheckedFunction<'db> {
    #[returns(copy)]
    pub project: Project,
    #[returns(ref)]
    pub name: Name,
}

/// Two hashers with different seeds: a 128-bit fingerprint.
struct Hash128(DefaultHasher, DefaultHasher);

impl Hash128 {
    fn new() -> Hash128 {
        let mut second = DefaultHasher::new();
        0x9e37_79b9_7f4a_7c15u64.hash(&mut second);
        Hash128(DefaultHasher::new(), second)
    }

    fn add(&mut self, v: &impl Hash) {
        v.hash(&mut self.0);
        v.hash(&mut self.1);
    }

    fn finish(&self) -> u128 {
        ((self.0.finish() as u128) << 64) | self.1.finish() as u128
    }
}

/// What one function's findings depend on: its IR (shared with the linked
/// program, so an unchanged function compares equal by pointer) and the
/// hash of the rest.
type Fingerprint = (Arc<Function>, u128);

/// Per function of the program, the fingerprint of what its findings
/// depend on in the engine's current run (`None`: the program cannot be
/// analysed).
#[salsa::tracked(returns(ref))]
fn run_fingerprints(db: &dyn Db, project: Project) -> Option<Arc<HashMap<Name, Fingerprint>>> {
    let engine = pointee_db::c_engine(db, project).as_ref().ok()?.clone();
    let lineage = engine.lineage;
    Some(engine.with(|program, a| {
        // A unit's result as its callers see it, hashed once per unit.
        let mut results: HashMap<pointee_flow::UnitId, u128> = HashMap::new();
        let mut out = HashMap::with_capacity(program.functions.len());
        for f in &program.functions {
            let mut h = Hash128::new();
            h.add(&lineage);
            for_each_basic(&f.body, &mut |_, b| {
                if let Basic::Call {
                    callee: Callee::Direct(n),
                    ..
                } = b
                {
                    // Defined or not; and its `restrict` parameters (the
                    // overlap checker's rule).
                    let callee = a.func_index(n).map(|i| &program.functions[i as usize]);
                    let restrict = callee.map(|g| {
                        g.params
                            .iter()
                            .map(|&v| g.var(v).restrict)
                            .collect::<Vec<_>>()
                    });
                    h.add(&(n, restrict));
                }
            });
            let units = a.units_of(&f.name);
            h.add(&units.len());
            for u in units {
                let unit = a.unit(u);
                h.add(&*unit.input);
                h.add(&(
                    a.extra_only(u),
                    unit.recursive,
                    unit.in_cycle,
                    unit.merged,
                    unit.partial,
                ));
                for ((stmt, name), e) in &unit.calls {
                    h.add(&(stmt, name, e.approximate, e.indirect, &e.map));
                    if let Some(cu) = e.unit {
                        let r = *results.entry(cu).or_insert_with(|| {
                            let callee = a.unit(cu);
                            let mut r = Hash128::new();
                            r.add(&callee.output);
                            r.add(&(
                                callee.wild,
                                callee.escaped,
                                callee.wrote_symbolic,
                                callee.recursive,
                                callee.partial,
                            ));
                            r.finish()
                        });
                        h.add(&r);
                    }
                }
            }
            out.insert(f.name.clone(), (f.clone(), h.finish()));
        }
        Arc::new(out)
    }))
}

/// One function's fingerprint in the current run (`None`: not a function
/// of the analysed program).
#[salsa::tracked]
fn function_fingerprint<'db>(db: &'db dyn Db, key: CheckedFunction<'db>) -> Option<Fingerprint> {
    run_fingerprints(db, key.project(db))
        .as_ref()?
        .get(key.name(db))
        .cloned()
}

/// The checkers' findings in one function of the program.
#[salsa::tracked(returns(ref))]
pub(crate) fn function_findings<'db>(db: &'db dyn Db, key: CheckedFunction<'db>) -> Arc<Findings> {
    if function_fingerprint(db, key).is_none() {
        return Arc::default();
    }
    let project = key.project(db);
    // Untracked on purpose (see the module doc): the fingerprint, read
    // above, is this query's dependency on the run. `c_engine` left its
    // run there when it computed the fingerprint's run.
    let engine = db
        .last_c_engines()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&project)
        .cloned();
    let Some(engine) = engine else {
        std::panic::resume_unwind(Box::new(salsa::Cancelled::PendingWrite));
    };
    let name = key.name(db);
    engine.with(|program, a| {
        let Some(i) = a.func_index(name) else {
            return Arc::default();
        };
        let f = &program.functions[i as usize];
        Arc::new(Findings {
            memory: memory::find(a, name, f),
            overlap: overlap::find(a, program, name, f),
        })
    })
}
