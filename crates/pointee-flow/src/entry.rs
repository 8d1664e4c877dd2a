//! Entries of the analysis: `main` from the globals' initialisers and
//! `argv`, its `atexit` handlers, and every function `main` does not reach
//! as an extra entry with symbolic inputs that may alias one another.

use crate::facts::{Fact, Facts};
use crate::loc::{LocId, Root, NULL};
use crate::map;
use crate::solver::{steps_of, Engine, EntryKind, UnitId};
use crate::transfer::{self, push, Locset, Scope};
use pointee_ir::{pointer_paths, Sel, Type};
use std::sync::Arc;

impl<'p> Engine<'p> {
    /// Analyses the whole program: `main`, its `atexit` handlers, then every
    /// function `main` does not reach as an extra entry.
    pub fn run(&mut self) {
        let main = self.locs.func_index.get("main").copied();
        if let Some(m) = main {
            // (The same for every run of a program with these globals: a
            // rerun keeps it.)
            let input = match self.main_input.clone() {
                Some(i) => i,
                None => Arc::new(self.main_input_facts(m)),
            };
            self.main_input = Some(input.clone());
            let u = self.invoke_entry_arc(m, input, EntryKind::Main);
            // atexit handlers run after main, from its exit state.
            let mut done = 0;
            while done < self.exit_handlers.len() {
                let name = self.exit_handlers[done].clone();
                done += 1;
                let Some(&h) = self.locs.func_index.get(&name) else {
                    continue;
                };
                let Some(st) = self.units[u as usize].output.clone() else {
                    continue;
                };
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
        let reached = self.reached_functions();
        for fi in 0..self.prog.functions.len() as u32 {
            if main.is_some() && reached[fi as usize] {
                continue;
            }
            let input = self.extra_input(fi);
            self.invoke_entry(fi, input, EntryKind::Extra);
        }
        self.run_units = self.units.len();
    }

    /// `main`'s input: the globals' initialisers, and `argv` (and `envp`)
    /// pointing to arrays of strings.
    fn main_input_facts(&mut self, m: u32) -> Facts {
        let mut input = self.global_facts(false, None);
        let f = self.func(m);
        for (i, &p) in f.params.iter().enumerate() {
            let pl = self.locs.var(m, p);
            let (arr, strs) = if i == 1 {
                ("argv[]", "argv string")
            } else {
                ("envp[]", "environment string")
            };
            if i >= 1 && f.var(p).ty.is_pointer_like() {
                let a = self.locs.root(Root::Special(arr));
                let s = self.locs.root(Root::Special(strs));
                input.push(Fact {
                    src: pl,
                    dst: a,
                    def: true,
                });
                input.push(Fact {
                    src: a,
                    dst: s,
                    def: false,
                });
                input.push(Fact {
                    src: a,
                    dst: NULL,
                    def: false,
                });
            }
        }
        Facts::from_unsorted(input)
    }

    pub(crate) fn invoke_entry(&mut self, f: u32, input: Facts, kind: EntryKind) -> UnitId {
        self.invoke_entry_arc(f, Arc::new(input), kind)
    }

    fn invoke_entry_arc(&mut self, f: u32, input: Arc<Facts>, kind: EntryKind) -> UnitId {
        let (_, u, _) = self.invoke(f, input);
        let unit = &mut self.units[u as usize];
        if unit.entry.is_none() {
            unit.entry = Some(kind);
        }
        if !self.entries.contains(&u) {
            self.entries.push(u);
        }
        u
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

    pub(crate) fn reached_functions(&self) -> Vec<bool> {
        let mut r = vec![false; self.prog.functions.len()];
        for (u, live) in self.reachable_units(true).into_iter().enumerate() {
            if live {
                r[self.units[u].func as usize] = true;
            }
        }
        r
    }

    /// Globals' initial facts: initialisers, `NULL` for unlisted pointer
    /// leaves. For an extra entry every leaf may also point to a symbolic
    /// location (a caller may have changed it).
    pub(crate) fn global_facts(&mut self, extra: bool, only: Option<&[LocId]>) -> Vec<Fact> {
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
                v
            }
            None => (0..self.prog.globals.len()).collect(),
        };
        for gi in chosen {
            let g = &self.prog.globals[gi];
            let gl = self.locs.global(&g.name).unwrap();
            let mut leaves: Vec<Vec<Sel>> = pointer_paths(&g.ty, &self.prog.types);
            for init in &g.init {
                if !leaves.contains(&init.path) {
                    leaves.push(init.path.clone());
                }
            }
            let sc = Scope {
                func: u32::MAX,
                owner: &g.name,
            };
            for leaf in leaves {
                let loc = self.locs.with_path(gl, &steps_of(&leaf));
                let mut vals: Locset = Vec::new();
                match g.init.iter().find(|i| i.path == leaf) {
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
                if extra {
                    let ty = self.locs.get(loc).ty.clone();
                    self.symbolic(loc, ty.as_ref(), &[], 1, &mut vals, &mut out);
                    for v in &mut vals {
                        v.1 = false;
                    }
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

    /// The symbolic target of pointer location `ptr` (of type `ty`) for an
    /// extra entry, with its own pointer leaves pointing one level deeper.
    pub(crate) fn symbolic(
        &mut self,
        ptr: LocId,
        ty: Option<&Type>,
        _pool: &[LocId],
        level: u32,
        vals: &mut Locset,
        out: &mut Vec<Fact>,
    ) {
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
        if matches!(pointee, Type::Function(_)) {
            return;
        }
        for leaf in pointer_paths(&pointee, &self.prog.types) {
            let l = self.locs.with_path(sym, &steps_of(&leaf));
            let lty = self.locs.get(l).ty.clone();
            let mut v = vec![(NULL, false)];
            self.symbolic(l, lty.as_ref(), &[], level + 1, &mut v, out);
            for (d, _) in v {
                out.push(Fact {
                    src: l,
                    dst: d,
                    def: false,
                });
            }
        }
    }

    /// The input of an extra entry: parameters point to symbolic locations
    /// that may alias one another (unless `restrict`), or `NULL`.
    pub(crate) fn extra_input(&mut self, fi: u32) -> Facts {
        let refs = self.refs[fi as usize].clone();
        let mut out = self.global_facts(true, Some(&refs));
        let f = self.func(fi);
        let mut leaves: Vec<(LocId, bool, Locset)> = Vec::new();
        for &p in &f.params {
            let v = f.var(p);
            let pl = self.locs.var(fi, p);
            for leaf in pointer_paths(&v.ty, &self.prog.types) {
                let l = self.locs.with_path(pl, &steps_of(&leaf));
                let ty = self.locs.get(l).ty.clone();
                let mut vals = vec![(NULL, false)];
                self.symbolic(l, ty.as_ref(), &[], 1, &mut vals, &mut out);
                leaves.push((l, v.restrict, vals));
            }
        }
        // Non-restrict parameters and the globals may point to each other's
        // targets (a caller may pass the same pointer twice, or a global's).
        let param_syms: Vec<LocId> = leaves
            .iter()
            .filter(|(_, r, _)| !r)
            .flat_map(|(_, _, vals)| vals.iter().map(|v| v.0).filter(|&d| d != NULL))
            .collect();
        let global_leaves: Vec<(LocId, LocId)> = out
            .iter()
            .filter(|f| {
                matches!(self.locs.get(f.src).root, Root::Global(_))
                    && self.locs.sym_level(f.dst) == 1
            })
            .map(|f| (f.src, f.dst))
            .collect();
        for &(g, _) in &global_leaves {
            for &d in &param_syms {
                if !self.is_fn_sym(d) {
                    out.push(Fact {
                        src: g,
                        dst: d,
                        def: false,
                    });
                }
            }
        }
        let mut shared = param_syms;
        shared.extend(global_leaves.iter().map(|x| x.1));
        for (l, restrict, vals) in leaves {
            for (d, _) in &vals {
                out.push(Fact {
                    src: l,
                    dst: *d,
                    def: false,
                });
            }
            if !restrict {
                for &d in &shared {
                    if !self.is_fn_sym(d) {
                        out.push(Fact {
                            src: l,
                            dst: d,
                            def: false,
                        });
                    }
                }
            }
        }
        Facts::from_unsorted(out)
    }

    pub(crate) fn is_fn_sym(&self, d: LocId) -> bool {
        matches!(self.locs.get(d).ty, Some(Type::Function(_)))
    }
}
