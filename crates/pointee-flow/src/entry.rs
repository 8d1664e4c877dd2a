//! Entries of the analysis: `main` from the globals' initialisers and
//! `argv`, and its `atexit` handlers; without `main` (a library) every
//! externally visible function; the functions the user names instead
//! (`Settings::entries`); then every function no entry reaches. Every entry
//! but `main` starts from an input sound for any caller ([`Callers`]):
//! fresh objects that parameters may share, the globals whose address
//! escapes, what other entries may have stored in them, and for function
//! pointers every address-taken function whose type may be called
//! through the pointer's.

use crate::facts::{Fact, Facts};
use crate::library::{self, LibTarget};
use crate::loc::{LocId, Root, NULL, UNKNOWN};
use crate::map;
use crate::solver::{steps_of, Engine, EntryKind, UnitId};
use crate::transfer::{self, push, Locset, Scope};
use pointee_ir::{pointer_paths, Base, Basic, Definition, GlobalKind, Place, Rvalue, Sel, Type};
use std::collections::HashMap;
use std::sync::Arc;

impl<'p> Engine<'p> {
    /// Analyses the whole program: its entries (see the module doc), then
    /// every function they do not reach as an extra entry.
    pub fn run(&mut self) {
        let main = self.locs.func_index.get("main").copied();
        let named: Option<Vec<u32>> = self.settings.entries.as_ref().map(|names| {
            names
                .iter()
                .filter_map(|n| self.locs.func_index.get(n).copied())
                .collect()
        });
        // Made on the first entry that needs it (a program whose `main`
        // reaches every function never does).
        let mut callers: Option<Callers> = None;
        let library = main.is_none();
        let mut any_caller = |e: &mut Self, fi: u32| {
            let c = callers.get_or_insert_with(|| Callers::of(e, library));
            let input = e.extra_input(fi, c);
            e.invoke_entry(fi, input, EntryKind::Extra);
        };
        match named {
            Some(named) => {
                for fi in named {
                    if Some(fi) == main {
                        self.run_main(fi);
                    } else {
                        any_caller(self, fi);
                    }
                }
            }
            None => match main {
                Some(m) => self.run_main(m),
                // A library: any caller may call what it exports.
                None => {
                    for fi in 0..self.prog.functions.len() as u32 {
                        if !self.func(fi).is_static {
                            any_caller(self, fi);
                        }
                    }
                }
            },
        }
        let reached = self.reached_functions();
        for fi in 0..self.prog.functions.len() as u32 {
            if !reached[fi as usize] {
                any_caller(self, fi);
            }
        }
        self.run_units = self.units.len();
    }

    /// `main`, then its `atexit` handlers from its exit state.
    fn run_main(&mut self, m: u32) {
        // (The same for every run of a program with these globals: a
        // rerun keeps it.)
        let input = match self.main_input.clone() {
            Some(i) => i,
            None => Arc::new(self.main_input_facts(m)),
        };
        self.main_input = Some(input.clone());
        let Some(u) = self.invoke_entry_arc(m, input, EntryKind::Main) else {
            return;
        };
        let mut done = 0;
        while done < self.exit_handlers.len() {
            let name = self.exit_handlers[done].clone();
            done += 1;
            let Some(&h) = self.locs.func_index.get(&name) else {
                continue;
            };
            let Some(mut st) = self.units[u as usize].output.clone() else {
                continue;
            };
            // (An entry's input holds no newest object.)
            crate::recency::demote(&mut self.locs, &mut st, None);
            let formals = self.formals(
                h,
                &[],
                &st,
                Scope {
                    func: m,
                    owner: &self.func(m).name,
                },
            );
            let refs = self.refs[h as usize].clone();
            let levels = self.map_levels(h);
            let (input, _) = map::map_call(&mut self.locs, &st, formals, Some(&refs), levels);
            self.invoke_entry(h, input, EntryKind::AtExit);
        }
    }

    /// `main`'s input: the globals' initialisers, and `argv` (and `envp`)
    /// pointing to arrays of strings.
    fn main_input_facts(&mut self, m: u32) -> Facts {
        let mut input = self.global_facts(None, None);
        let f = self.func(m);
        for (i, &p) in f.params.iter().enumerate() {
            let pl = self.locs.var(m, p);
            let arr = if i == 1 { "argv[]" } else { "envp[]" };
            if i >= 1 && f.var(p).ty.is_pointer_like() {
                let a = self.library_target(LibTarget::Object(arr), &mut input);
                input.push(Fact {
                    src: pl,
                    dst: a,
                    def: true,
                });
            }
        }
        Facts::from_unsorted(input)
    }

    /// Runs an entry; `None` when the budget was spent before it
    /// (`budget.rs`: its function stays "not analysed").
    pub(crate) fn invoke_entry(&mut self, f: u32, input: Facts, kind: EntryKind) -> Option<UnitId> {
        self.invoke_entry_arc(f, Arc::new(input), kind)
    }

    fn invoke_entry_arc(&mut self, f: u32, input: Arc<Facts>, kind: EntryKind) -> Option<UnitId> {
        let Some((_, u, _)) = self.invoke(f, input) else {
            self.cut_off_entry(f);
            // An entry given up part-way is an entry still, for queries.
            if let Some(&(g, 0)) = self.given_up.last() {
                if self.units[g as usize].func == f && !self.entries.contains(&g) {
                    self.units[g as usize].entry = Some(kind);
                    self.entries.push(g);
                }
            }
            return None;
        };
        let unit = &mut self.units[u as usize];
        if unit.entry.is_none() {
            unit.entry = Some(kind);
        }
        if !self.entries.contains(&u) {
            self.entries.push(u);
        }
        Some(u)
    }

    /// Live units reachable from the entries (optionally only `Main` and
    /// `AtExit` ones).
    pub fn reachable_units(&self, main_only: bool) -> Vec<bool> {
        let mut seen = vec![false; self.units.len()];
        let mut work: Vec<UnitId> = self
            .entries
            .iter()
            .copied()
            .filter(|&u| !main_only || self.units[u as usize].entry != Some(EntryKind::Extra))
            .collect();
        // What a body given up part-way had finished (its caller's unit,
        // given up too, holds no edge to it).
        work.extend(self.given_up.iter().map(|g| g.0));
        while let Some(u) = work.pop() {
            if std::mem::replace(&mut seen[u as usize], true) {
                continue;
            }
            for e in self.units[u as usize].calls.values() {
                if let Some(c) = e.unit {
                    if !seen[c as usize] && !self.units[c as usize].dead {
                        work.push(c);
                    }
                }
            }
        }
        seen
    }

    /// The functions some entry analysed so far reaches.
    pub(crate) fn reached_functions(&self) -> Vec<bool> {
        let mut r = vec![false; self.prog.functions.len()];
        for (u, live) in self.reachable_units(false).into_iter().enumerate() {
            if live {
                r[self.units[u].func as usize] = true;
            }
        }
        r
    }

    /// Globals' initial facts: initialisers, `NULL` for unlisted pointer
    /// leaves, the library's value for a global no unit defines. For an
    /// entry's input (`entry` given), a global that may have changed before
    /// the entry runs (see [`Callers::may_change`]) holds any of those
    /// values possibly, or a fresh object, and each of its pointer leaves
    /// is listed, to receive what any caller may have stored.
    pub(crate) fn global_facts(
        &mut self,
        only: Option<&[LocId]>,
        mut entry: Option<(&mut Vec<InputLeaf>, &Callers)>,
    ) -> Vec<Fact> {
        let mut out = Vec::new();
        // The globals asked for, in program order.
        let chosen: Vec<usize> = match only {
            Some(o) => {
                let mut v: Vec<usize> = o
                    .iter()
                    .filter_map(|&l| match self.locs.get(l).root {
                        Root::Global(i) => Some(i as usize),
                        _ => None,
                    })
                    .collect();
                v.sort_unstable();
                v.dedup();
                v
            }
            None => (0..self.prog.globals.len()).collect(),
        };
        for gi in chosen {
            let g = &self.prog.globals[gi];
            let gl = self.locs.global(&g.name).unwrap();
            let mut paths: Vec<Vec<Sel>> = pointer_paths(&g.ty, &self.prog.types);
            for init in &g.init {
                if !paths.contains(&init.path) {
                    paths.push(init.path.clone());
                }
            }
            let sc = Scope {
                func: u32::MAX,
                owner: &g.name,
            };
            // Declared by the program but defined by none of its units: the
            // C library's (stdin, environ, ...) or code outside the program.
            let outside = matches!(
                g.kind,
                GlobalKind::Variable {
                    is_static: false,
                    definition: Definition::Extern
                }
            )
            .then(|| library::global_targets(&g.name));
            for path in paths {
                let loc = self.locs.with_path(gl, &steps_of(&path));
                let mut vals: Locset = Vec::new();
                match g.init.iter().find(|i| i.path == path) {
                    _ if outside.is_some() => match outside.flatten() {
                        Some(targets) => {
                            for &t in targets {
                                let d = self.library_target(t, &mut out);
                                push(&mut vals, d, targets.len() == 1);
                            }
                        }
                        None => vals.push((UNKNOWN, false)),
                    },
                    Some(init) => {
                        let several = init.values.len() > 1;
                        for v in &init.values {
                            for (d, def) in transfer::rvals(&mut self.locs, &Facts::new(), sc, v) {
                                push(&mut vals, d, def && !several);
                            }
                        }
                    }
                    None => vals.push((NULL, true)),
                }
                if let Some((leaves, _)) =
                    entry.as_mut().filter(|(_, callers)| callers.may_change(gl))
                {
                    // Another entry may have stored a fresh object here.
                    let ty = self.locs.get(loc).ty.clone();
                    self.symbolic(loc, ty.as_ref(), 1, &mut vals, &mut out, leaves);
                    for v in &mut vals {
                        v.1 = false;
                    }
                    leaves.push(InputLeaf {
                        loc,
                        ty,
                        shared: true,
                        own: vals.iter().map(|v| v.0).collect(),
                    });
                }
                let summary = self.locs.is_summary(loc);
                for (d, def) in vals {
                    out.push(Fact {
                        src: loc,
                        dst: d,
                        def: def && !summary,
                    });
                }
            }
        }
        out
    }

    /// The location of a library target; an object comes with what its
    /// own pointers hold (`envp[]` holds environment strings and `NULL`).
    fn library_target(&mut self, t: LibTarget, out: &mut Vec<Fact>) -> LocId {
        match t {
            LibTarget::Null => NULL,
            LibTarget::Object(name) => {
                let o = self.locs.root(Root::Special(name));
                for &inner in library::object_targets(name) {
                    let dst = self.library_target(inner, out);
                    out.push(Fact {
                        src: o,
                        dst,
                        def: false,
                    });
                }
                o
            }
        }
    }

    /// The symbolic target of pointer location `ptr` (of type `ty`) for an
    /// entry's input, with its own pointer leaves pointing one level deeper
    /// (each listed in `leaves`, to receive what any caller may store). A
    /// function pointer gets no data object: see [`Callers`].
    pub(crate) fn symbolic(
        &mut self,
        ptr: LocId,
        ty: Option<&Type>,
        level: u32,
        vals: &mut Locset,
        out: &mut Vec<Fact>,
        leaves: &mut Vec<InputLeaf>,
    ) {
        if ty.is_some_and(Type::is_function_pointer) {
            return;
        }
        // Named per pointer object past the field levels, as `map.rs`
        // does (per field path, the names multiply with the levels).
        if level > map::FIELD_LEVELS {
            let ptr = self.locs.get(ptr).root_id;
            push(vals, self.locs.root(Root::Sym { ptr, multi: true }), false);
            return;
        }
        let multi = level >= map::MAX_LEVEL;
        let sym = self.locs.root(Root::Sym { ptr, multi });
        push(vals, sym, false);
        if multi {
            return;
        }
        let Some(pointee) = ty.and_then(|t| t.pointee()).cloned() else {
            return;
        };
        for leaf in pointer_paths(&pointee, &self.prog.types) {
            let l = self.locs.with_path(sym, &steps_of(&leaf));
            let lty = self.locs.get(l).ty.clone();
            let mut v = vec![(NULL, false)];
            self.symbolic(l, lty.as_ref(), level + 1, &mut v, out, leaves);
            leaves.push(InputLeaf {
                loc: l,
                ty: lty,
                shared: true,
                own: v.iter().map(|x| x.0).collect(),
            });
            for (d, _) in v {
                out.push(Fact {
                    src: l,
                    dst: d,
                    def: false,
                });
            }
        }
    }

    /// The input of an entry other than `main`, sound for any caller:
    /// parameters point to fresh (symbolic) objects or `NULL`; the globals
    /// the function names, and every global whose address escapes, hold
    /// their initial values or what another entry may have stored. Every
    /// pointer of that memory (but `restrict` parameters) may also point
    /// to those of the others' objects and escaped globals whose type may
    /// share storage with its pointee ([`may_share`]); function pointers
    /// may point to every address-taken function callable through their
    /// type ([`Callers::callable_through`]).
    pub(crate) fn extra_input(&mut self, fi: u32, callers: &Callers) -> Facts {
        let mut globals = self.refs[fi as usize].clone();
        globals.extend(callers.globals.iter().copied());
        let mut leaves = Vec::new();
        let mut out = self.global_facts(Some(&globals), Some((&mut leaves, callers)));
        let f = self.func(fi);
        for &p in &f.params {
            let v = f.var(p);
            let pl = self.locs.var(fi, p);
            for path in pointer_paths(&v.ty, &self.prog.types) {
                let l = self.locs.with_path(pl, &steps_of(&path));
                let ty = self.locs.get(l).ty.clone();
                let mut vals = vec![(NULL, false)];
                self.symbolic(l, ty.as_ref(), 1, &mut vals, &mut out, &mut leaves);
                for &(d, _) in &vals {
                    out.push(Fact {
                        src: l,
                        dst: d,
                        def: false,
                    });
                }
                leaves.push(InputLeaf {
                    loc: l,
                    ty,
                    shared: !v.restrict,
                    own: vals.iter().map(|x| x.0).collect(),
                });
            }
        }
        // What a caller may have made any of these pointers point to: the
        // fresh objects of the others (a caller may pass one pointer twice,
        // or a global's value) and the globals whose address escapes.
        let mut pool: Vec<LocId> = leaves
            .iter()
            .filter(|l| l.shared && self.locs.sym_level(l.loc) == 0)
            .flat_map(|l| l.own.iter().copied())
            .filter(|&d| self.locs.sym_level(d) == 1)
            .collect();
        pool.extend(callers.globals.iter().copied());
        pool.sort_unstable();
        pool.dedup();
        let pool: Vec<PoolObject> = pool
            .into_iter()
            .map(|d| {
                let data = self.locs.get(d);
                let declared = !matches!(data.root, Root::Sym { .. });
                (d, data.ty.clone(), declared)
            })
            .collect();
        // The pool objects a pointer may receive, per pointee type (few
        // distinct types, many leaves).
        let mut fitting: HashMap<Option<Type>, Vec<LocId>> = HashMap::new();
        for leaf in leaves.iter().filter(|l| l.shared) {
            if leaf.ty.as_ref().is_some_and(Type::is_function_pointer) {
                for &g in &callers.functions {
                    if callers.callable_through(self, g, leaf.ty.as_ref()) {
                        let dst = self.locs.func(&self.func(g).name.clone());
                        out.push(Fact {
                            src: leaf.loc,
                            dst,
                            def: false,
                        });
                    }
                }
                out.push(Fact {
                    src: leaf.loc,
                    dst: NULL,
                    def: false,
                });
                continue;
            }
            let pointee = leaf.ty.as_ref().and_then(Type::pointee).cloned();
            let records = &self.prog.types;
            let fit = fitting.entry(pointee).or_insert_with_key(|pointee| {
                pool.iter()
                    .filter(|obj| may_share(pointee.as_ref(), obj, records))
                    .map(|obj| obj.0)
                    .collect()
            });
            for &d in fit.iter() {
                out.push(Fact {
                    src: leaf.loc,
                    dst: d,
                    def: false,
                });
            }
        }
        // A fact may come twice (own and shared): `from_unsorted` keeps it
        // possible.
        Facts::from_unsorted(out)
    }
}

/// A pointer of an entry's input: its location and type, whether it may
/// point to what any caller shares (all but `restrict` parameters), and
/// the targets it has of its own.
pub(crate) struct InputLeaf {
    loc: LocId,
    ty: Option<Type>,
    shared: bool,
    own: Vec<LocId>,
}

/// What any caller of an entry may hand it beyond fresh objects.
pub(crate) struct Callers {
    /// Roots of the globals whose address escapes: taken anywhere in the
    /// program, and, for a library (no `main`), every non-static global
    /// (its callers may take their addresses).
    globals: Vec<LocId>,
    /// Functions whose address is taken anywhere (bodies and initialisers).
    functions: Vec<u32>,
    /// Roots of the globals some statement assigns by name.
    assigned: Vec<LocId>,
}

impl Callers {
    fn of(e: &mut Engine, library: bool) -> Callers {
        let mut globals: Vec<pointee_ir::Name> = Vec::new();
        let mut functions: Vec<pointee_ir::Name> = Vec::new();
        let mut assigned: Vec<pointee_ir::Name> = Vec::new();
        let mut rvalue = |r: &Rvalue| match r {
            Rvalue::AddrOf(p) if !p.deref => {
                if let Base::Global(g) = &p.base {
                    globals.push(g.clone());
                }
            }
            Rvalue::Function(f) => functions.push(f.clone()),
            _ => {}
        };
        for f in &e.prog.functions {
            pointee_ir::for_each_basic(&f.body, &mut |_, b| {
                let lhs = match b {
                    Basic::Assign { lhs, rhs } => {
                        rvalue(rhs);
                        Some(lhs)
                    }
                    Basic::Call { lhs, args, .. } => {
                        args.iter().for_each(&mut rvalue);
                        lhs.as_ref()
                    }
                    Basic::Use(_) => None,
                };
                if let Some(Place {
                    base: Base::Global(g),
                    deref: false,
                    ..
                }) = lhs
                {
                    assigned.push(g.clone());
                }
            });
        }
        for g in &e.prog.globals {
            for init in &g.init {
                init.values.iter().for_each(&mut rvalue);
            }
        }
        let mut roots: Vec<LocId> = globals.iter().filter_map(|g| e.locs.global(g)).collect();
        if library {
            roots.extend(e.escaped.iter().copied());
        }
        roots.sort_unstable();
        roots.dedup();
        let mut fs: Vec<u32> = functions
            .iter()
            .filter_map(|f| e.locs.func_index.get(f).copied())
            .collect();
        fs.sort_unstable();
        fs.dedup();
        let mut assigned: Vec<LocId> = assigned.iter().filter_map(|g| e.locs.global(g)).collect();
        assigned.sort_unstable();
        assigned.dedup();
        Callers {
            globals: roots,
            functions: fs,
            assigned,
        }
    }

    /// Whether a global may hold something else than its initial value
    /// when an entry starts: some statement assigns it, or its address
    /// escapes (stores through pointers, the caller's own). A `static`
    /// table nothing writes keeps its initialiser, exactly.
    fn may_change(&self, global: LocId) -> bool {
        self.assigned.binary_search(&global).is_ok() || self.globals.binary_search(&global).is_ok()
    }

    /// Whether function `f` may be called through a pointer of type `ty`
    /// that an entry's caller filled in: C defines a call through a
    /// function pointer only when the function's type is compatible with
    /// the pointer's (C11 6.3.2.3p8, 6.5.2.2p9), so for well-typed C a
    /// function of another type is never called through it. The test is
    /// coarser than C's where real code relies on the ABI (see
    /// `docs/c-engine.md`, *Entries*): same parameter count (either side
    /// variadic or unprototyped: any), each parameter a pointer on both
    /// sides or a scalar on both sides, pointers to records only to the
    /// same record, and the same kind of result (any result when the
    /// pointer's returns `void`). An unknown type matches anything.
    fn callable_through(&self, e: &Engine, f: u32, ty: Option<&Type>) -> bool {
        let Some(Type::Function(ft)) = ty.and_then(|t| t.pointee()) else {
            return true;
        };
        let func = e.func(f);
        let prototyped = !ft.params.is_empty() && !ft.variadic && !func.variadic;
        if prototyped && ft.params.len() != func.params.len() {
            return false;
        }
        let records = &e.prog.types;
        let params_match = ft
            .params
            .iter()
            .zip(&func.params)
            .all(|(a, &p)| value_compatible(a, &func.var(p).ty, records));
        let result_matches =
            matches!(ft.ret, Type::Void) || value_compatible(&ft.ret, &func.ret, records);
        params_match && result_matches
    }
}

/// A pool object's type, and whether it is a declared object (a global,
/// whose declared type is its effective type) rather than a fresh one (a
/// symbolic name typed by the pointer it hangs off, which stands for the
/// whole object that pointer points into: maybe a record holding its type).
type PoolObject = (LocId, Option<Type>, bool);

/// Whether a pointer to `pointee` that a caller filled in may point to the
/// pool object `obj` ([`PoolObject`]). In a program that accesses an object
/// only through lvalues of its own type, a character type, or a record or
/// union holding it (C11 6.5p7), a pointer reaches an object's storage
/// only when one type is, or holds by value (as any member, of a union
/// too; a struct's first member shares its address, 6.7.2.1p15), the
/// other; a declared object is never part of a larger one. So it may
/// unless both types are known and that fails:
/// - a pointer to a scalar may point into anything (`char` is a scalar:
///   the IR has one scalar class);
/// - `void`, an unknown type, an anonymous record or one no unit
///   completes may be or hold anything;
/// - every pointer type is one class (`void **` is used for `T **`), and
///   every scalar type one;
/// - arrays stand for their elements.
///
/// What it assumes (as the rule for function pointers does): a pointer of
/// a record type holds an object of a related type; one converted to an
/// unrelated record pointer and back (not through `void *` or `char *`),
/// or moved from one member to a sibling member (`container_of`), is not
/// followed.
fn may_share(pointee: Option<&Type>, obj: &PoolObject, records: &pointee_ir::TypeTable) -> bool {
    let (Some(a), Some(b)) = (pointee, obj.1.as_ref()) else {
        return true;
    };
    let (a, b) = (element(a), element(b));
    let declared = obj.2;
    matches!(a, Type::Scalar)
        || unknown_layout(a, records)
        || unknown_layout(b, records)
        || contains(b, a, records)
        || (!declared && contains(a, b, records))
}

/// `void`, an unknown type, a function, or a record whose layout is not
/// known for sure (see [`same_record`]).
fn unknown_layout(t: &Type, records: &pointee_ir::TypeTable) -> bool {
    match t {
        Type::Pointer(_) | Type::Scalar => false,
        Type::Record(r) => records.is_vague_record(r),
        _ => true,
    }
}

/// Whether an object of type `outer` is, or holds by value, one of type
/// `inner` ([`pointee_ir::TypeTable::holds_by_value`]), the pool's rule for
/// leaves: every pointer type is one class, every scalar type another.
fn contains(outer: &Type, inner: &Type, records: &pointee_ir::TypeTable) -> bool {
    records.holds_by_value(outer, inner, &|a, b| {
        matches!(
            (a, b),
            (Type::Pointer(_), Type::Pointer(_)) | (Type::Scalar, Type::Scalar)
        )
    })
}

/// The element type of an array (of arrays), or the type itself.
fn element(t: &Type) -> &Type {
    match t {
        Type::Array(e, _) => element(e),
        _ => t,
    }
}

/// What a value of type `a` and one of type `b` have in common for a call
/// through a pointer that mixes them (a parameter or a result): both
/// pointers (arrays and functions as parameters are), both scalars, the
/// same record, both `void`; an unknown type matches anything.
fn value_compatible(a: &Type, b: &Type, records: &pointee_ir::TypeTable) -> bool {
    let (a, b) = (decay(a), decay(b));
    match (a.as_ref(), b.as_ref()) {
        (Type::Unknown, _) | (_, Type::Unknown) => true,
        (Type::Pointer(pa), Type::Pointer(pb)) => pointee_compatible(pa, pb, records),
        (Type::Record(x), Type::Record(y)) => same_record(x, y, records),
        (Type::Scalar, Type::Scalar) | (Type::Void, Type::Void) => true,
        _ => false,
    }
}

/// Pointers to different records are incompatible; every other pair of
/// pointees is taken as compatible (`void *` and `char *` hold any
/// object's address, and real code passes `T **` for `void **`).
fn pointee_compatible(a: &Type, b: &Type, records: &pointee_ir::TypeTable) -> bool {
    match (a, b) {
        (Type::Record(x), Type::Record(y)) => same_record(x, y, records),
        _ => true,
    }
}

/// Records are one type when their keys agree (a tag names one type
/// across the program's units); an anonymous record's key is per unit, and
/// a record no unit completes may be any, so either matches any record.
fn same_record(x: &str, y: &str, records: &pointee_ir::TypeTable) -> bool {
    x == y || records.is_vague_record(x) || records.is_vague_record(y)
}

/// A parameter's type as a call passes it: arrays and functions as
/// pointers.
fn decay(t: &Type) -> std::borrow::Cow<'_, Type> {
    match t {
        Type::Array(el, _) => std::borrow::Cow::Owned(Type::pointer_to((**el).clone())),
        Type::Function(_) => std::borrow::Cow::Owned(Type::pointer_to(t.clone())),
        _ => std::borrow::Cow::Borrowed(t),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pointee_ir::{Field, Record, RecordKind, TypeTable};

    fn record(kind: RecordKind, name: &str, fields: &[(&str, Type)]) -> (pointee_ir::Name, Record) {
        let fields = fields
            .iter()
            .map(|(n, ty)| Field {
                name: (*n).into(),
                ty: ty.clone(),
            })
            .collect();
        let r = Record {
            name: name.into(),
            kind,
            fields,
            complete: true,
        };
        (name.into(), r)
    }

    fn rec(name: &str) -> Type {
        Type::Record(name.into())
    }

    /// `struct key { int k; }`, `struct link { struct link *next; }`,
    /// `struct entry { struct link *head; struct key key[2]; }`,
    /// `union either { struct key k; long o; }`, and `struct later`, never
    /// completed.
    fn table() -> TypeTable {
        let mut t = TypeTable::default();
        let scalar = Type::Scalar;
        t.records.extend([
            record(RecordKind::Struct, "struct key", &[("k", scalar.clone())]),
            record(
                RecordKind::Struct,
                "struct link",
                &[("next", Type::pointer_to(rec("struct link")))],
            ),
            record(
                RecordKind::Struct,
                "struct entry",
                &[
                    ("head", Type::pointer_to(rec("struct link"))),
                    ("key", Type::Array(Box::new(rec("struct key")), Some(2))),
                ],
            ),
            record(
                RecordKind::Union,
                "union either",
                &[("k", rec("struct key")), ("o", scalar)],
            ),
        ]);
        t
    }

    fn fresh(ty: Type) -> PoolObject {
        (NULL, Some(ty), false)
    }

    fn declared(ty: Type) -> PoolObject {
        (NULL, Some(ty), true)
    }

    #[test]
    fn the_pool_is_typed_by_what_may_share_storage() {
        let t = table();
        let may = |pointee: &Type, obj: PoolObject| may_share(Some(pointee), &obj, &t);
        // Unrelated records, or a record only pointed to: never.
        assert!(!may(&rec("struct key"), fresh(rec("struct link"))));
        assert!(!may(&rec("struct link"), fresh(rec("struct entry"))));
        // Held by value, either way for a fresh object (it may stand for
        // the enclosing one), through arrays and unions.
        assert!(may(&rec("struct key"), fresh(rec("struct entry"))));
        assert!(may(&rec("struct entry"), fresh(rec("struct key"))));
        assert!(may(&rec("struct key"), fresh(rec("union either"))));
        assert!(may(&rec("union either"), fresh(Type::Scalar)));
        // A declared object is part of no larger one.
        assert!(may(&rec("struct key"), declared(rec("struct entry"))));
        assert!(!may(&rec("struct entry"), declared(rec("struct key"))));
        assert!(!may(
            &rec("struct key"),
            declared(Type::Array(Box::new(Type::Scalar), None))
        ));
        // Pointers are one class: `T **` reaches a record holding one.
        let any_pointer = Type::pointer_to(Type::Void);
        assert!(may(&any_pointer, fresh(rec("struct link"))));
        assert!(may(&any_pointer, fresh(Type::pointer_to(Type::Scalar))));
        assert!(!may(&any_pointer, fresh(rec("struct key"))));
        // `char *` (a scalar), `void *`, unknown and incomplete types: always.
        assert!(may(&Type::Scalar, declared(rec("struct link"))));
        assert!(may(&rec("struct key"), fresh(Type::Unknown)));
        assert!(may(&rec("struct later"), declared(rec("struct key"))));
        assert!(may_share(None, &declared(rec("struct key")), &t));
        assert!(may_share(
            Some(&rec("struct key")),
            &(NULL, None, false),
            &t
        ));
    }
}
