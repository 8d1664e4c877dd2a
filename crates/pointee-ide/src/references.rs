//! References ("who else points here, who may change this?"): from the
//! expression at the cursor, its objects (what a pointer expression points
//! to; the variable or field itself otherwise), then over the whole
//! program, every pointer expression that may point to one of them
//! (must-aliases first) and every store that may write one of them, or the
//! field at the cursor.
//!
//! C: values come per calling context; a symbolic name (`1_p`) is replaced
//! by every caller object it stands for, up every call edge to the entries
//! (a name that reaches an entry stays: what an unknown caller passes), so
//! expressions of different functions compare on the same objects. NULL,
//! uninitialised, freed, dangling and unknown are not objects. Java (the
//! analysis is flow-insensitive): allocation sites, merged over contexts;
//! no must-aliases.

use crate::c::{CProgram, Flow};
use crate::java::JavaProgram;
use crate::{Analysis, FileId, FilePosition, FileRange, Reference, ReferenceKind};
use pointee_flow::{Class, LocId, UnitId};
use pointee_ir::{ExprInfo, Place, Rvalue, StmtId};
use std::collections::{BTreeSet, HashMap};

pub(crate) fn references(a: &Analysis, pos: FilePosition) -> Vec<Reference> {
    let mut out = if let Some(c) = CProgram::of(a, pos.file) {
        c_references(a, &c, pos)
    } else if let Some(j) = JavaProgram::of(a, pos.file) {
        java_references(a, &j, pos)
    } else {
        None
    }
    .unwrap_or_default();
    out.sort_by(|x, y| {
        let key = |r: &Reference| {
            (
                r.kind,
                a.file_path(r.range.file),
                r.range.range.start,
                r.range.range.end,
            )
        };
        key(x).cmp(&key(y))
    });
    out.dedup_by(|x, y| x.range == y.range && x.kind == y.kind);
    out
}

/// Whether the expression at `range` of `file` is the target of a store.
fn written(a: &Analysis, file: FileId, e: &ExprInfo) -> bool {
    crate::syntax::is_written(a, file, e.range) == Some(true)
}

/// The place without its last selector (the object a field belongs to),
/// when it has one.
fn owner(place: &Place) -> Option<Place> {
    let mut p = place.clone();
    p.path.pop()?;
    Some(p)
}

/// The cursor's objects are those of every copy of its function (a
/// header's function: every includer's), and every copy of every function
/// is searched.
fn c_references(an: &Analysis, c: &CProgram, pos: FilePosition) -> Option<Vec<Reference>> {
    let cursor: Vec<_> = c
        .copies(pos.file)
        .into_iter()
        .filter_map(|(unit, map)| {
            let (fs, e) = map.expr_at(pos.offset)?;
            Some((unit, fs, e))
        })
        .collect();
    if cursor.is_empty() {
        return None;
    }
    let engine = c.engine()?;
    engine.with(|_, a| {
        let mut up = Callers::new(a);
        let (mut mine, mut stored) = (BTreeSet::new(), BTreeSet::new());
        // The one object every copy that points somewhere definitely
        // points to, if they agree.
        let mut singles = Vec::new();
        for (unit, fs, e) in cursor {
            let function = c.program_name(unit, &fs.name);
            let place = c.place(unit, &e.place);
            // Aliases point to the cursor's objects; stores write them, or
            // the field at the cursor itself. An expression that points to
            // no object (an integer, a pointer not reached) stands for
            // itself. (By the values, not the type: without its header a
            // typedef of a pointer is of unknown type.)
            let (mut objects, mut single) =
                up.objects(a, &function, e.point, &Rvalue::Use(place.clone()));
            let pointer = !objects.is_empty();
            if !pointer {
                (objects, single) =
                    up.objects(a, &function, e.point, &Rvalue::AddrOf(place.clone()));
            }
            stored.extend(objects.iter().copied());
            if pointer && !place.path.is_empty() {
                let (field, _) = up.objects(a, &function, e.point, &Rvalue::AddrOf(place));
                stored.extend(field);
            }
            if !objects.is_empty() {
                singles.push(single);
            }
            mine.extend(objects);
        }
        let my_single = match singles.split_first() {
            Some((s, rest)) if rest.iter().all(|r| r == s) => *s,
            _ => None,
        };
        let mut out = Vec::new();
        for (file, unit, map) in c.every_copy() {
            for fs in &map.functions {
                let function = c.program_name(unit, &fs.name);
                for e in &fs.exprs {
                    let place = c.place(unit, &e.place);
                    let range = FileRange {
                        file,
                        range: e.range,
                    };
                    if written(an, file, e) {
                        let rv = Rvalue::AddrOf(place.clone());
                        let (at, _) = up.objects(a, &function, e.point, &rv);
                        if !at.is_disjoint(&stored) {
                            out.push(Reference {
                                range,
                                kind: ReferenceKind::Write,
                            });
                        }
                    }
                    let (theirs, single) = up.objects(a, &function, e.point, &Rvalue::Use(place));
                    if theirs.is_disjoint(&mine) {
                        continue;
                    }
                    let must = my_single.is_some() && single == my_single;
                    out.push(Reference {
                        range,
                        kind: if must {
                            ReferenceKind::MustAlias
                        } else {
                            ReferenceKind::MayAlias
                        },
                    });
                }
            }
        }
        Some(out)
    })
}

/// Each unit's callers, to replace symbolic names by what they stand for.
struct Callers {
    of: HashMap<UnitId, Vec<(UnitId, StmtId)>>,
    memo: HashMap<(UnitId, LocId), Vec<LocId>>,
}

impl Callers {
    fn new(a: &Flow) -> Callers {
        let mut of: HashMap<UnitId, Vec<(UnitId, StmtId)>> = HashMap::new();
        for (caller, unit) in a.units().iter().enumerate() {
            for ((stmt, _), edge) in &unit.calls {
                if let Some(callee) = edge.unit {
                    of.entry(callee)
                        .or_default()
                        .push((caller as UnitId, *stmt));
                }
            }
        }
        Callers {
            of,
            memo: HashMap::new(),
        }
    }

    /// The objects an rvalue may evaluate to at a point, over every
    /// context, symbolic names replaced by the objects they stand for; and
    /// the one object it definitely designates in every context, if any
    /// (never a summary or symbolic name).
    fn objects(
        &mut self,
        a: &mut Flow,
        function: &str,
        point: pointee_ir::Point,
        rv: &Rvalue,
    ) -> (BTreeSet<LocId>, Option<LocId>) {
        let per = a.values_at(function, point, rv);
        let real = |a: &Flow, l: LocId| !CProgram::kind(a, l).is_special();
        let single = match Flow::merge_values(&per).as_deref() {
            Some(&[(l, true)])
                if real(a, l)
                    && !a.locs().get(l).summary
                    && !matches!(a.locs().get(l).class, Class::Symbolic) =>
            {
                Some(l)
            }
            _ => None,
        };
        let mut out = BTreeSet::new();
        for cv in &per {
            for &(l, _) in cv.targets.iter().flatten() {
                if real(a, l) {
                    out.extend(self.concrete(a, cv.unit, l));
                }
            }
        }
        (out, single)
    }

    /// What `l` of unit `u` stands for: itself unless symbolic; a symbolic
    /// name, every caller location it was mapped from, up every call edge
    /// (transitively); it stays where no caller maps it (an entry).
    fn concrete(&mut self, a: &mut Flow, u: UnitId, l: LocId) -> Vec<LocId> {
        if !matches!(a.locs().get(l).class, Class::Symbolic) {
            return vec![l];
        }
        if let Some(v) = self.memo.get(&(u, l)) {
            return v.clone();
        }
        let mut seen: BTreeSet<(UnitId, LocId)> = BTreeSet::new();
        let mut work = vec![(u, l)];
        let mut out = BTreeSet::new();
        while let Some((u, l)) = work.pop() {
            if !seen.insert((u, l)) {
                continue;
            }
            if !matches!(a.locs().get(l).class, Class::Symbolic) {
                out.insert(l);
                continue;
            }
            let callers = self.of.get(&u).cloned().unwrap_or_default();
            if callers.is_empty() || a.unit(u).entry.is_some() {
                out.insert(l);
            }
            for (caller, stmt) in callers {
                for r in a.resolve(&[(caller, None), (u, Some(stmt))], l) {
                    work.push((caller, r));
                }
            }
        }
        let out: Vec<LocId> = out.into_iter().collect();
        self.memo.insert((u, l), out.clone());
        out
    }
}

fn java_references(an: &Analysis, j: &JavaProgram, pos: FilePosition) -> Option<Vec<Reference>> {
    let sm = j.source_map(pos.file)?;
    let (fs, cur) = sm.expr_at(pos.offset)?;
    let mine = j.objects(&fs.name, &cur.place).unwrap_or_default();
    // The objects whose field the cursor names (`a.f`: what `a` holds).
    let field = cur.place.path.last().cloned();
    let owners = owner(&cur.place)
        .and_then(|p| j.objects(&fs.name, &p))
        .unwrap_or_default();
    let mut out = Vec::new();
    for sm in &j.jp.sources {
        let Some(file) = an.file_id(&sm.file) else {
            continue;
        };
        for fs in &sm.functions {
            for e in &fs.exprs {
                let range = FileRange {
                    file,
                    range: e.range,
                };
                let theirs = j.objects(&fs.name, &e.place).unwrap_or_default();
                if theirs.intersects(&mine) {
                    out.push(Reference {
                        range,
                        kind: ReferenceKind::MayAlias,
                    });
                }
                // A store into a field of one of the cursor's objects, or
                // into the cursor's field of one of its owners.
                if !written(an, file, e) {
                    continue;
                }
                let Some(into) = owner(&e.place).and_then(|p| j.objects(&fs.name, &p)) else {
                    continue;
                };
                let same_field = field.is_some() && e.place.path.last() == field.as_ref();
                if into.intersects(&mine) || (same_field && into.intersects(&owners)) {
                    out.push(Reference {
                        range,
                        kind: ReferenceKind::Write,
                    });
                }
            }
        }
    }
    Some(out)
}
