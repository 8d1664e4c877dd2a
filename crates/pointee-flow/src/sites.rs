//! Values recorded at checker sites during the run, so that the checkers
//! need not re-walk every unit's body (`Engine::replay_unit`) to read them.
//!
//! A *site* is a statement that uses a pointer value a checker looks at:
//! a dereference (`*p`, `p->f`, `p[i]`: the pointer `p`), a call (its
//! arguments, the pointer it calls through). Just before such a statement
//! the walker hands the state to [`Engine::record_site`], which keeps the
//! R-locations of each of the statement's [`site_values`] (fixed for a
//! statement: computed once per function, its `SiteTable`), merged over the
//! visits of one walk of the body (loops visit a statement several times;
//! a merge keeps a target definite only when every visit had it definite).
//! Each walk of a unit's body starts a new record, so a unit keeps the
//! record of its last walk, together with the input and stored output that
//! walk ran with.
//!
//! The record answers for a unit only when that last walk is the one a
//! replay would repeat ([`SiteRecord::answers_for`]): same input, same
//! stored result for a recursive unit, no budget spent, not merged in a
//! large cycle. Otherwise (and for any other value or point) queries
//! replay the body as before. Never used while replaying.

use crate::facts::{Facts, State};
use crate::fxhash::FxHashMap as HashMap;
use crate::solver::{Engine, Unit};
use crate::transfer::{self, Locset, Scope};
use pointee_ir::{Basic, Callee, Place, Rvalue, StmtId};
use std::sync::Arc;

/// The place whose value an argument passes (`p`, `p + i`, `(T *)p`).
pub fn arg_place(rv: &Rvalue) -> Option<&Place> {
    match rv {
        Rvalue::Use(p) | Rvalue::Offset(p, ..) | Rvalue::Cast(p, _) => Some(p),
        _ => None,
    }
}

/// The pointer a dereferencing place reads: its base, undereferenced
/// (`None` when the place dereferences nothing).
pub fn pointer_of(p: &Place) -> Option<Place> {
    p.deref.then(|| Place {
        base: p.base.clone(),
        deref: false,
        path: Vec::new(),
    })
}

/// The values a statement's checkers may ask for just before it: the
/// pointer of each dereferencing place; for a call also each argument as
/// written and the place it passes (`Use`), and the pointer called
/// through. Without repeats, in a fixed order.
pub fn site_values(b: &Basic) -> Vec<Rvalue> {
    fn add(out: &mut Vec<Rvalue>, rv: Rvalue) {
        if !out.contains(&rv) {
            out.push(rv);
        }
    }
    fn deref(out: &mut Vec<Rvalue>, p: &Place) {
        if let Some(ptr) = pointer_of(p) {
            add(out, Rvalue::Use(ptr));
        }
    }
    let mut out = Vec::new();
    match b {
        Basic::Assign { lhs, rhs } => {
            deref(&mut out, lhs);
            if let Some(p) = arg_place(rhs) {
                deref(&mut out, p);
            }
        }
        Basic::Use(p) => deref(&mut out, p),
        Basic::Call {
            lhs, callee, args, ..
        } => {
            if let Some(lhs) = lhs {
                deref(&mut out, lhs);
            }
            for a in args {
                if let Some(p) = arg_place(a) {
                    deref(&mut out, p);
                    add(&mut out, Rvalue::Use(p.clone()));
                }
                add(&mut out, a.clone());
            }
            if let Callee::Indirect(fp) = callee {
                deref(&mut out, fp);
                add(&mut out, Rvalue::Use(fp.clone()));
            }
        }
    }
    out
}

/// A function's [`site_values`] per statement (by `StmtId`; empty for a
/// statement that is not a site): fixed for the function, so computed once
/// and shared by every walk of its bodies.
pub(crate) type SiteTable = Vec<Box<[Rvalue]>>;

/// Per site reached in one walk: the R-locations (sorted) of each of its
/// table's values, in the table's order, merged over the walk's visits.
pub(crate) type SiteWalk = HashMap<StmtId, Vec<Locset>>;

/// The engine's side of the recording: the walks open on the stack, and
/// each function's table, made when a walk of it first reaches a site.
#[derive(Debug, Default)]
pub(crate) struct Recorder {
    walks: Vec<SiteWalk>,
    tables: Vec<Option<Arc<SiteTable>>>,
    /// Tables made, for tests.
    made: usize,
}

/// The table of `func`: its statements' `site_values`.
fn table_of(func: &pointee_ir::Function) -> SiteTable {
    let mut t: SiteTable = vec![Box::default(); func.stmt_count as usize];
    pointee_ir::for_each_basic(&func.body, &mut |s, b| {
        if let Some(slot) = t.get_mut(s.0 as usize) {
            *slot = site_values(b).into_boxed_slice();
        }
    });
    t
}

/// What one walk of a unit's body saw at its sites.
#[derive(Debug, Default)]
pub struct SiteRecord {
    /// The input and stored result the walk ran with.
    input: Arc<Facts>,
    output: State,
    /// The budget was spent during the walk (calls may have been cut off
    /// that a replay answers otherwise).
    spent: bool,
    /// The function's table, which says what each recorded value is.
    table: Arc<SiteTable>,
    at: SiteWalk,
}

impl SiteRecord {
    /// True when the walk recorded is the one a replay of `unit` repeats.
    pub(crate) fn answers_for(&self, unit: &Unit) -> bool {
        !self.spent
            && !unit.dead
            && !unit.in_cycle
            && *self.input == *unit.input
            && (!unit.recursive || self.output == unit.output)
    }

    /// The values of `rv` before `stmt`, when the walk recorded them there.
    /// `None` otherwise: a statement absent may be unreached, or reached
    /// with nothing to record (not a checker site, or not a basic
    /// statement), so only a replay can tell.
    pub(crate) fn values(&self, stmt: StmtId, rv: &Rvalue) -> Option<Option<&Locset>> {
        let vals = self.at.get(&stmt)?;
        let i = self
            .table
            .get(stmt.0 as usize)?
            .iter()
            .position(|v| v == rv)?;
        vals.get(i).map(Some)
    }
}

/// Merges one visit's values into what earlier visits saw: a target is
/// definite only if definite in both (both sorted; the result too).
fn merge_into(acc: &mut Locset, new: &Locset) {
    let mut out = Vec::with_capacity(acc.len().max(new.len()));
    let (mut i, mut j) = (0, 0);
    while i < acc.len() || j < new.len() {
        match (acc.get(i), new.get(j)) {
            (Some(&a), Some(&b)) if a.0 == b.0 => {
                out.push((a.0, a.1 && b.1));
                i += 1;
                j += 1;
            }
            (Some(&a), Some(&b)) if a.0 < b.0 => {
                out.push((a.0, false));
                i += 1;
            }
            (Some(&a), None) => {
                out.push((a.0, false));
                i += 1;
            }
            (_, Some(&b)) => {
                out.push((b.0, false));
                j += 1;
            }
            (None, None) => break,
        }
    }
    *acc = out;
}

impl<'p> Engine<'p> {
    /// A walk of the top frame's body starts: a new record.
    pub(crate) fn begin_sites(&mut self) {
        if self.replay.is_none() {
            self.sites.walks.push(HashMap::default());
        }
    }

    /// The walk of the top frame's body ended: its record replaces the
    /// unit's.
    pub(crate) fn end_sites(&mut self) {
        if self.replay.is_some() {
            return;
        }
        let Some(at) = self.sites.walks.pop() else {
            return;
        };
        let Some(fr) = self.stack.last() else { return };
        // A walk that reached no site has no table made.
        let table = match self.sites.tables.get(fr.func as usize) {
            Some(Some(t)) => t.clone(),
            _ => Arc::default(),
        };
        let record = SiteRecord {
            input: fr.input.clone(),
            output: fr.output.clone(),
            spent: self.exhausted.is_some(),
            table,
            at,
        };
        self.units[fr.unit as usize].sites = Some(Arc::new(record));
    }

    /// The walker reached site `b` (statement `stmt`) with state `st`.
    pub(crate) fn record_site(&mut self, sc: Scope, stmt: StmtId, st: &Facts) {
        if self.replay.is_some() || self.sites.walks.is_empty() {
            return;
        }
        let f = sc.func as usize;
        if self.sites.tables.len() <= f {
            self.sites.tables.resize(f + 1, None);
        }
        let prog = self.prog;
        let made = &mut self.sites.made;
        let table = self.sites.tables[f].get_or_insert_with(|| {
            *made += 1;
            Arc::new(table_of(&prog.functions[f]))
        });
        // A statement past the table is not the function's: not recorded
        // (a replay answers there).
        let Some(values) = table.get(stmt.0 as usize).filter(|v| !v.is_empty()) else {
            return;
        };
        let walk = self.sites.walks.last_mut().expect("an open walk");
        let locs = &mut self.locs;
        let eval = |locs: &mut crate::loc::Locs, rv: &Rvalue| {
            let mut v = transfer::rvals(locs, st, sc, rv);
            v.sort();
            v
        };
        match walk.get_mut(&stmt) {
            None => {
                let seen = values.iter().map(|rv| eval(locs, rv)).collect();
                walk.insert(stmt, seen);
            }
            Some(acc) => {
                for (a, rv) in acc.iter_mut().zip(values.iter()) {
                    merge_into(a, &eval(locs, rv));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::loc::LocId;
    use pointee_ir::{for_each_basic, Point};

    /// The C fixtures of the engine and of the checkers.
    fn c_fixtures() -> Vec<std::path::PathBuf> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c");
        let mut out = Vec::new();
        for dir in ["flow", "diagnostics", "soundness", "lower", "witness"] {
            let Ok(rd) = std::fs::read_dir(root.join(dir)) else {
                continue;
            };
            out.extend(
                rd.map(|e| e.unwrap().path())
                    .filter(|p| p.extension().is_some_and(|e| e == "c")),
            );
        }
        out.sort();
        out
    }

    /// On every C fixture, every value a unit's record answers with is the
    /// one a replay of the unit's body gives; and most answers come from
    /// the records (a record that never answers would pass vacuously).
    #[test]
    fn recorded_site_values_equal_the_replayed_ones_on_every_fixture() {
        let mut failures = Vec::new();
        let (mut recorded, mut replayed) = (0usize, 0usize);
        for path in c_fixtures() {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let Ok(lowered) = pointee_c::lower(&[(&name, &text)]) else {
                continue;
            };
            let mut a = crate::analyze(&lowered.program, crate::Settings::default());
            for (fi, f) in lowered.program.functions.iter().enumerate() {
                let mut sites = Vec::new();
                for_each_basic(&f.body, &mut |s, b| sites.push((s, site_values(b))));
                for u in a.units_of(&f.name) {
                    for (s, values) in &sites {
                        for rv in values {
                            let point = Point::Before(*s);
                            let Some(got) = a.recorded_values(u, point, rv) else {
                                replayed += 1;
                                continue;
                            };
                            recorded += 1;
                            let want = a.replayed_values(u, fi as u32, point, rv);
                            if got != want {
                                failures.push(format!(
                                    "{name}: {} unit {u} {point:?} {rv:?}: recorded {got:?}, replayed {want:?}",
                                    f.name
                                ));
                            }
                        }
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(
            recorded > 10 * replayed,
            "{recorded} values recorded, {replayed} left to replays"
        );
    }

    /// A statement's values are fixed: each function's are computed once,
    /// however many units and loop visits walk it.
    #[test]
    fn site_values_are_computed_once_per_function() {
        let text = "int x;\n\
            void f(int *p) { for (int i = 0; i < 9; i++) *p = i; }\n\
            int main(void) { int a; f(&a); f(&x); int *q = &a; while (a) { *q = 0; } return 0; }\n";
        let lowered = pointee_c::lower(&[("once.c", text)]).unwrap();
        let a = crate::analyze(&lowered.program, crate::Settings::default());
        assert_eq!(a.units_of("f").len(), 2, "two contexts of f");
        assert_eq!(
            a.engine().sites.made,
            2,
            "one table per function with sites"
        );
    }

    #[test]
    fn a_merge_keeps_a_target_definite_only_when_every_visit_had_it_so() {
        let (a, b, c) = (LocId(10), LocId(11), LocId(12));
        let mut acc = vec![(a, true), (b, true)];
        merge_into(&mut acc, &vec![(b, true), (c, true)]);
        assert_eq!(acc, vec![(a, false), (b, true), (c, false)]);
        merge_into(&mut acc, &vec![(b, false)]);
        assert_eq!(acc, vec![(a, false), (b, false), (c, false)]);
    }
}
