//! Applying library-call effects (`library.rs`) and the unknown-call rule
//! to the caller's state.

use crate::facts::{merge_into, Fact, Facts, State};
use crate::library::{CbRet, Effect};
use crate::loc::{LocId, Root, Step, FREED, NULL, UNINIT, UNKNOWN};
use crate::solver::{Arg, CallEdge, Callback, Engine, UnitId};
use crate::transfer::{self, push, Locset, Scope};
use crate::walk::Hooks;
use pointee_ir::{pointer_paths, Index, Name, Place, Rvalue, SiteId, StmtId, Type};
use std::sync::Arc;

/// A call's map information: each symbolic root and what it stands for.
type MapGroups = Vec<(LocId, Vec<LocId>)>;

/// How a location sits in its parent, for memory copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Up {
    Head,
    Tail,
    /// A struct's first member (offset 0).
    First,
}

/// Where a part of a copied object lands in the destination: at the
/// destination itself; after the destination's element at a level of
/// nested arrays (the tail); or as the whole enclosing struct at a level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lands {
    Start,
    Later(usize),
    Whole(usize),
}

impl<'p> Engine<'p> {
    /// Notes that the current body may have written these locations: a
    /// symbolic one makes the unit `wrote_symbolic`.
    pub(crate) fn note_writes(&mut self, written: &Locset) {
        if written
            .iter()
            .any(|l| matches!(self.locs.get(l.0).class, crate::loc::Class::Symbolic))
        {
            self.wrote_symbolic();
        }
    }

    pub(crate) fn arg_vals(&mut self, st: &Facts, sc: Scope, args: &[Arg], i: usize) -> Locset {
        match args.get(i) {
            Some(Arg::Rv(r)) => transfer::rvals(&mut self.locs, st, sc, r),
            Some(Arg::Vals(v)) => v.clone(),
            None => Vec::new(),
        }
    }

    pub(crate) fn store_lhs(
        &mut self,
        st: &mut Facts,
        sc: Scope,
        lhs: Option<&Place>,
        vals: Locset,
    ) {
        let Some(lhs) = lhs else { return };
        let lv = transfer::lvals(&mut self.locs, st, sc, lhs);
        // A struct (or array) result is written leaf by leaf, each leaf a
        // store of its own (`b = ext();` sets every pointer field of `b`).
        let mut leaves: Vec<Locset> = Vec::new();
        for &(l, def) in &lv {
            let ty = self.locs.get(l).ty.clone();
            match ty {
                Some(t) if !t.is_pointer_like() => {
                    for leaf in pointer_paths(&t, &self.prog.types) {
                        let x = self.locs.with_path(l, &crate::solver::steps_of(&leaf));
                        leaves.push(vec![(x, def)]);
                    }
                }
                _ => leaves.push(vec![(l, def)]),
            }
        }
        if lv.len() > 1 {
            // Several places: every leaf is a weak update anyway.
            leaves = vec![leaves.concat()];
        }
        for leaf in leaves {
            self.note_writes(&leaf);
            transfer::store_vals(&self.locs, st, &leaf, vals.clone());
        }
    }

    /// One level up from `l`: its parent and how `l` sits in it (an array's
    /// head or tail, or a struct's first member: offset 0).
    fn up(&self, l: LocId) -> Option<(LocId, Up)> {
        let parent = self.locs.get(l).parent?;
        match self.locs.last_step(l)? {
            Step::Head => Some((parent, Up::Head)),
            Step::Tail => Some((parent, Up::Tail)),
            Step::Field(x) => self
                .locs
                .first_member_step(parent, x)
                .then_some((parent, Up::First)),
        }
    }

    /// An array location stands for its first element.
    fn first_elem(&mut self, mut l: LocId) -> LocId {
        while self.locs.is_array(l) {
            l = self.locs.child(l, Step::Head);
        }
        l
    }

    /// What a memory copy or set from `s` onward covers (the size is not
    /// tracked: as far as the enclosing object goes): `s` itself; from an
    /// array head also the tail (at every level of nested arrays); from a
    /// tail, the tail; from a struct's first member, the whole struct (first
    /// of first, ...). Each part comes with where it lands in a destination.
    fn copy_regions(&mut self, s: LocId) -> (Vec<(LocId, Lands)>, Vec<Up>) {
        let s = self.first_elem(s);
        let mut out = vec![(s, Lands::Start)];
        let mut kinds = Vec::new();
        let mut cur = s;
        // An untyped object (a heap site) is every element at once.
        if self.locs.get(s).ty.is_none() && self.locs.get(s).parent.is_none() {
            out.push((s, Lands::Later(1)));
        }
        for level in 1..=8 {
            let Some((p, kind)) = self.up(cur) else {
                break;
            };
            kinds.push(kind);
            match kind {
                Up::Head => {
                    let t = self.locs.child(p, Step::Tail);
                    out.push((t, Lands::Later(level)));
                }
                Up::Tail => out.push((cur, Lands::Later(level))),
                Up::First => out.push((p, Lands::Whole(level))),
            }
            cur = p;
        }
        (out, kinds)
    }

    /// Where a part of a copy lands in the destination object at `d`: the
    /// destination is climbed like the source was, as far as it goes.
    fn landing(&mut self, d: LocId, kinds: &[Up], lands: Lands) -> LocId {
        let d = self.first_elem(d);
        let need = match lands {
            Lands::Start => 0,
            Lands::Later(i) | Lands::Whole(i) => i,
        };
        let mut e = vec![d];
        while e.len() <= need {
            let Some((p, kind)) = self.up(*e.last().unwrap()) else {
                break;
            };
            let want = kinds.get(e.len() - 1).copied();
            let ok = match (want, kind) {
                (Some(Up::First), Up::First) => true,
                (Some(Up::First), _) | (_, Up::First) => false,
                _ => true,
            };
            if !ok {
                break;
            }
            e.push(p);
        }
        let j = e.len() - 1;
        match lands {
            Lands::Start => d,
            Lands::Whole(i) => e[i.min(j)],
            Lands::Later(i) => {
                if j >= i && self.locs.last_step(e[i - 1]) == Some(&Step::Head) {
                    self.locs.child(e[i], Step::Tail)
                } else {
                    e[(i - 1).min(j)]
                }
            }
        }
    }

    /// `base` followed by `rel`, as accesses see it: fields through
    /// `Locs::field`, element steps on a non-array stay on it.
    fn place_into(&mut self, base: LocId, rel: &[Step]) -> Vec<LocId> {
        let mut cur = vec![base];
        for step in rel {
            let mut next = Vec::new();
            for l in cur {
                match step {
                    Step::Field(f) => next.extend(self.locs.field(l, f)),
                    _ if self.locs.is_array(l) => next.push(self.locs.child(l, step.clone())),
                    _ => next.push(l),
                }
            }
            next.sort();
            next.dedup();
            cur = next;
        }
        cur
    }

    /// [`Engine::place_into`] for a copy between a struct and the struct it
    /// heads (`memcpy(&s, (struct S *)&t, sizeof s)`, `struct T` starting
    /// with a `struct S`; one address): while the destination's struct
    /// type lacks the field of the source's next step and that step goes
    /// into a first member that is a struct, the step is dropped (first of
    /// first, ...): the destination stands for that member. The other way
    /// (`memcpy(&t, &s, ..)`) is `Locs::field`'s: a struct without the
    /// field looks in its first member. Found by the command-line oracle
    /// (seed 164 with first-member casts): the copied pointers landed on
    /// `s.base.f`, a path no access of `s` reads.
    fn place_header(&mut self, at: LocId, base: LocId, rel: &[Step]) -> Vec<LocId> {
        let lacks = |locs: &crate::loc::Locs, x: &Name| {
            matches!(&locs.get(at).ty, Some(Type::Record(r))
                if locs.types.field_type(r, x).is_none())
        };
        let (mut a, mut k) = (base, 0);
        while let Some(Step::Field(x)) = rel.get(k) {
            if !lacks(&self.locs, x) || !self.locs.first_member_step(a, x) {
                break;
            }
            // Only a struct member stands for a struct (a pointer member
            // copied into a struct lacking it is `Locs::field`'s case).
            let member = self.locs.child(a, rel[k].clone());
            if !matches!(self.locs.get(member).ty, Some(Type::Record(_))) {
                break;
            }
            a = member;
            k += 1;
        }
        self.place_into(at, &rel[k..])
    }

    /// Copies the pointers stored in the objects `src` points to, from the
    /// pointed position onward (`copy_regions`), into the objects `dst`
    /// points to (weakly).
    ///
    /// Written for wide operands (an entry's pool makes a buffer pointer
    /// point to every fresh object): the state is read once per source
    /// object, each (destination, source pointer) placement is worked out
    /// once, and the copied facts are added in one pass (`add_weak`):
    /// a fact inserted at a time was quadratic in the state's size.
    pub(crate) fn copy_contents(&mut self, st: &mut Facts, dst: &Locset, src: &Locset) {
        // Where each region of each source lands, without repeats.
        let mut regions: Vec<(LocId, Lands, Vec<Up>)> = Vec::new();
        for &(s, _) in src {
            if !self.locs.is_memory(s) || s == UNKNOWN {
                continue;
            }
            let (rs, kinds) = self.copy_regions(s);
            for (base, lands) in rs {
                let dup = regions
                    .iter()
                    .any(|(b, l, k)| *b == base && *l == lands && *k == kinds);
                if !dup {
                    regions.push((base, lands, kinds.clone()));
                }
            }
        }
        let dsts: Vec<LocId> = dst
            .iter()
            .map(|d| d.0)
            .filter(|&d| self.locs.is_memory(d))
            .collect();
        if regions.is_empty() || dsts.is_empty() {
            return;
        }
        // The facts of each source object, read once.
        let mut by_root: crate::fxhash::FxHashMap<LocId, Vec<Fact>> = Default::default();
        for (base, ..) in &regions {
            let r = self.locs.get(*base).root_id;
            let locs = &self.locs;
            by_root
                .entry(r)
                .or_insert_with(|| crate::map::root_facts(st, locs, r));
        }
        let mut placed: crate::fxhash::FxHashMap<(LocId, LocId, usize), Vec<LocId>> =
            Default::default();
        let mut copied: crate::fxhash::FxHashSet<(LocId, LocId)> = Default::default();
        let mut adds: Vec<Fact> = Vec::new();
        let cap = self
            .settings
            .budget
            .copy_facts
            .unwrap_or(crate::budget::COPY_FACTS);
        for (base, lands, kinds) in &regions {
            let bd = self.locs.get(*base);
            let (root, depth) = (bd.root_id, bd.path.len());
            let prefix = bd.path.clone();
            let facts: Vec<Fact> = by_root[&root]
                .iter()
                .filter(|f| self.locs.get(f.src).path.starts_with(&prefix))
                .copied()
                .collect();
            if facts.is_empty() {
                continue;
            }
            for &d in &dsts {
                let at = self.landing(d, kinds, *lands);
                // Regions of one base with other landing rules often land at
                // the same place: their facts would be added again, unchanged.
                if !copied.insert((at, *base)) {
                    continue;
                }
                for f in &facts {
                    let to = placed.entry((at, f.src, depth)).or_insert_with(|| {
                        let rel = self.locs.get(f.src).path[depth..].to_vec();
                        self.place_header(at, *base, &rel)
                    });
                    for &dl in to.iter() {
                        adds.push(Fact {
                            src: dl,
                            dst: f.dst,
                            def: false,
                        });
                    }
                }
                if adds.len() > cap {
                    drop(adds);
                    return self.copy_collapsed(st, &dsts, &regions);
                }
            }
        }
        st.add_weak(adds);
    }

    /// A copy too wide to build fact by fact: what the sources reach
    /// escapes, and every pointer the destinations reach may point to
    /// `unknown` (which stands for every escaped object) afterwards. Sound
    /// for any copy of these sources onto these destinations, and as
    /// cheap as one pass of unknown code.
    fn copy_collapsed(
        &mut self,
        st: &mut Facts,
        dsts: &[LocId],
        regions: &[(LocId, Lands, Vec<Up>)],
    ) {
        self.escape_reachable(st, regions.iter().map(|r| r.0).collect());
        self.clobber_reachable(st, dsts.to_vec());
    }

    /// The pointer locations a memory set from `d` onward may overwrite.
    fn set_targets(&mut self, st: &Facts, d: LocId) -> Vec<LocId> {
        let (regions, _) = self.copy_regions(d);
        let mut srcs = Vec::new();
        for (base, _) in regions {
            let bd = self.locs.get(base).clone();
            for f in st.iter() {
                let fd = self.locs.get(f.src);
                if fd.root_id == bd.root_id && fd.path.starts_with(&bd.path) {
                    srcs.push(f.src);
                }
            }
        }
        srcs
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call_library(
        &mut self,
        mut st: Facts,
        sc: Scope<'p>,
        stmt: StmtId,
        site: SiteId,
        e: Effect,
        lhs: Option<&Place>,
        args: &[Arg],
    ) -> State {
        // A new object of this site: the previous newest one joins the
        // site's summary first.
        let heap = |s: &mut Self, st: &mut Facts| {
            let h = s
                .locs
                .root(Root::Fresh(sc.owner.clone(), site, Arc::from([])));
            crate::recency::demote(&mut s.locs, st, Some(h));
            h
        };
        match e {
            Effect::Alloc | Effect::AllocZeroed => {
                let h = heap(self, &mut st);
                if e == Effect::AllocZeroed {
                    self.locs.zeroed.insert(h);
                }
                let fail = self.settings.malloc_may_fail;
                let mut vals = vec![(h, !fail)];
                if fail {
                    vals.push((NULL, false));
                }
                self.store_lhs(&mut st, sc, lhs, vals);
            }
            Effect::AllocOut(i) => {
                let h = heap(self, &mut st);
                let at = self.arg_vals(&st, sc, args, i);
                let at: Locset = at
                    .into_iter()
                    .filter(|t| self.locs.is_memory(t.0))
                    .map(|t| (t.0, false))
                    .collect();
                self.note_writes(&at);
                transfer::store_vals(&self.locs, &mut st, &at, vec![(h, false)]);
            }
            Effect::Realloc => {
                let h = heap(self, &mut st);
                let old = self.arg_vals(&st, sc, args, 0);
                self.copy_contents(&mut st, &vec![(h, false)], &old);
                let mut vals: Locset = old
                    .iter()
                    .filter(|v| v.0 != NULL)
                    .map(|v| (v.0, false))
                    .collect();
                push(&mut vals, h, false);
                if self.settings.malloc_may_fail {
                    push(&mut vals, NULL, false);
                }
                // When the block moves, the old one is freed: possibly.
                if let Some(Arg::Rv(r)) = args.first() {
                    self.free(&mut st, sc, r, false);
                }
                self.store_lhs(&mut st, sc, lhs, vals);
            }
            Effect::Free => {
                if let Some(Arg::Rv(r)) = args.first() {
                    self.free(&mut st, sc, r, true);
                }
            }
            Effect::Copy { dst, src, ret } => {
                let d = self.arg_vals(&st, sc, args, dst);
                let s = self.arg_vals(&st, sc, args, src);
                self.note_writes(&d);
                if d.iter().any(|t| t.0 == UNKNOWN) {
                    transfer::store_unknown(&self.locs, &mut st, &vec![(UNKNOWN, false)]);
                    self.wild_store();
                }
                let known: Locset = d.iter().copied().filter(|t| t.0 != UNKNOWN).collect();
                self.copy_contents(&mut st, &known, &s);
                if ret {
                    self.store_lhs(&mut st, sc, lhs, d);
                }
            }
            Effect::Set { dst, ret } => {
                let d = self.arg_vals(&st, sc, args, dst);
                self.note_writes(&d);
                let mut srcs = Vec::new();
                for &(t, _) in &d {
                    if self.locs.is_memory(t) && t != UNKNOWN {
                        srcs.extend(self.set_targets(&st, t));
                    }
                }
                srcs.sort();
                srcs.dedup();
                for s in srcs {
                    st.weaken(s);
                    st.add(s, NULL, false);
                }
                if ret {
                    self.store_lhs(&mut st, sc, lhs, d);
                }
            }
            Effect::RetArg(i) => {
                let v = self.arg_vals(&st, sc, args, i);
                self.store_lhs(&mut st, sc, lhs, v);
            }
            Effect::RetArgOrAlloc(i) => {
                let mut v: Locset = self
                    .arg_vals(&st, sc, args, i)
                    .into_iter()
                    .filter(|t| t.0 != NULL)
                    .map(|t| (t.0, false))
                    .collect();
                let h = heap(self, &mut st);
                push(&mut v, h, false);
                push(&mut v, NULL, false);
                self.store_lhs(&mut st, sc, lhs, v);
            }
            Effect::RetUnknown => self.store_lhs(&mut st, sc, lhs, vec![(UNKNOWN, false)]),
            Effect::RetInto(i) => {
                let v = self.arg_vals(&st, sc, args, i);
                let mut out = Vec::new();
                for (t, _) in v {
                    if t != NULL {
                        transfer::shift(&mut self.locs, t, Index::Any, false, &mut out);
                    }
                }
                push(&mut out, NULL, false);
                self.store_lhs(&mut st, sc, lhs, out);
            }
            Effect::EndPtr { src, out } => {
                let v = self.arg_vals(&st, sc, args, src);
                let mut vals = Vec::new();
                for (t, _) in v {
                    transfer::shift(&mut self.locs, t, Index::Any, false, &mut vals);
                }
                let at = self.arg_vals(&st, sc, args, out);
                let at: Locset = at
                    .into_iter()
                    .filter(|t| self.locs.is_memory(t.0))
                    .map(|t| (t.0, false))
                    .collect();
                self.note_writes(&at);
                transfer::store_vals(&self.locs, &mut st, &at, vals);
                self.store_lhs(&mut st, sc, lhs, Vec::new());
            }
            Effect::Object(name) => {
                let o = self.locs.root(Root::Special(name));
                // Opening a file fails like an allocation (the setting);
                // the other objects may be missing whatever it says.
                let v = if name == "FILE" && !self.settings.malloc_may_fail
                    || crate::library::never_null(name)
                {
                    vec![(o, true)]
                } else {
                    vec![(o, false), (NULL, false)]
                };
                self.store_lhs(&mut st, sc, lhs, v);
            }
            Effect::Callback {
                f,
                args: cargs,
                ret,
            } => {
                let fvals = self.arg_vals(&st, sc, args, f);
                let mut cb_args = Vec::new();
                for a in cargs {
                    cb_args.push(match a {
                        Some(i) => {
                            let mut out = Vec::new();
                            for (t, _) in self.arg_vals(&st, sc, args, i) {
                                transfer::shift(&mut self.locs, t, Index::Any, false, &mut out);
                            }
                            Arg::Vals(out)
                        }
                        None => Arg::Rv(&Rvalue::Scalar),
                    });
                }
                let mut out = Some(st.clone());
                for (t, _) in &fvals {
                    if let Root::Func(name) = self.locs.get(*t).root.clone() {
                        let r = self.call_named(
                            st.clone(),
                            sc,
                            stmt,
                            site,
                            &name,
                            None,
                            &cb_args,
                            true,
                        );
                        merge_into(&mut out, &r);
                    }
                }
                let mut st = out?;
                match ret {
                    CbRet::Nothing => self.store_lhs(&mut st, sc, lhs, Vec::new()),
                    CbRet::Into(i) => {
                        let mut out = Vec::new();
                        for (t, _) in self.arg_vals(&st, sc, args, i) {
                            transfer::shift(&mut self.locs, t, Index::Any, false, &mut out);
                        }
                        push(&mut out, NULL, false);
                        self.store_lhs(&mut st, sc, lhs, out);
                    }
                    CbRet::Handler => {
                        let mut out: Locset = fvals.iter().map(|v| (v.0, false)).collect();
                        push(&mut out, NULL, false);
                        self.store_lhs(&mut st, sc, lhs, out);
                    }
                }
                return Some(st);
            }
            Effect::AtExit(i) => {
                for (t, _) in self.arg_vals(&st, sc, args, i) {
                    if let Root::Func(name) = self.locs.get(t).root.clone() {
                        self.note_exit(name);
                    }
                }
                self.store_lhs(&mut st, sc, lhs, Vec::new());
            }
            Effect::NoReturn => return None,
            Effect::Pure => self.store_lhs(&mut st, sc, lhs, Vec::new()),
        }
        Some(st)
    }

    /// `free(p)`: pointers to what `p` points to now point to `freed` (only
    /// possibly, unless `p` definitely points to one non-summary location);
    /// `p` itself points to `freed`. All of it possibly unless `surely`
    /// (`realloc` frees the old block only when it moves it).
    pub(crate) fn free(&mut self, st: &mut Facts, sc: Scope, arg: &Rvalue, surely: bool) {
        let vals = transfer::rvals(&mut self.locs, st, sc, arg);
        let own = match arg {
            Rvalue::Use(p) => {
                let l = transfer::lvals(&mut self.locs, st, sc, p);
                (l.len() == 1 && l[0].1).then(|| l[0].0)
            }
            _ => None,
        };
        let freed: Vec<(LocId, bool)> = vals
            .into_iter()
            .filter(|v| self.locs.is_memory(v.0) && v.0 != UNKNOWN)
            .collect();
        if freed.is_empty() {
            return;
        }
        let strong = surely && freed.len() == 1 && freed[0].1 && !self.locs.is_summary(freed[0].0);
        let hit: Vec<Fact> = st
            .iter()
            .filter(|f| f.src != FREED && freed.iter().any(|t| t.0 == f.dst))
            .copied()
            .collect();
        crate::map::mark_freed(&self.locs, st, &freed);
        let hit_srcs: Locset = hit.iter().map(|f| (f.src, false)).collect();
        self.note_writes(&hit_srcs);
        for f in hit {
            if surely && Some(f.src) == own || strong {
                st.remove(f.src, f.dst);
                st.add(f.src, FREED, f.def);
            } else {
                st.remove(f.src, f.dst);
                st.add(f.src, f.dst, false);
                st.add(f.src, FREED, false);
            }
        }
    }

    /// What unknown code can do with the locations `roots` point into:
    /// every pointer location reachable from them may point to `unknown`
    /// afterwards (weakly), and everything reached escapes for good
    /// (`unknown` points to it: later unknown code may change it again).
    /// Returns the functions reachable from them.
    pub(crate) fn clobber_reachable(&mut self, st: &mut Facts, work: Vec<LocId>) -> Vec<Name> {
        self.reach_from_unknown(st, work, true)
    }

    /// What the variadic arguments of a call reach escapes (a callee's
    /// `va_arg` gives `unknown`, which stands for every escaped object):
    /// the escape marks of [`Engine::clobber_reachable`] without its writes.
    /// The callee reads and writes those objects only through `unknown`: a
    /// store through it makes the callee wild, and its caller applies the
    /// store to every exposed location, the escaped ones among them.
    pub(crate) fn escape_reachable(&mut self, st: &mut Facts, work: Vec<LocId>) {
        self.reach_from_unknown(st, work, false);
    }

    /// Marks what `work` reaches as escaped and, when `clobber`, makes its
    /// pointers possibly `unknown`; returns the functions reached.
    fn reach_from_unknown(
        &mut self,
        st: &mut Facts,
        mut work: Vec<LocId>,
        clobber: bool,
    ) -> Vec<Name> {
        let mut escapes: Vec<LocId> = Vec::new();
        let mut seen_roots: crate::fxhash::FxHashSet<LocId> = Default::default();
        let mut funcs: Vec<Name> = Vec::new();
        let mut touched: Vec<LocId> = Vec::new();
        while let Some(t) = work.pop() {
            if let Root::Func(n) = &self.locs.get(t).root {
                // A function is its own root: seen once.
                if seen_roots.insert(t) {
                    funcs.push(n.clone());
                    escapes.push(t);
                }
                continue;
            }
            if !self.locs.is_memory(t)
                || t == UNKNOWN
                || matches!(
                    self.locs.get(self.locs.get(t).root_id).root,
                    Root::Dangling(_)
                )
            {
                continue;
            }
            // The whole object escapes (C reaches an object from a pointer
            // to any part of it); unknown code names the non-static
            // globals anyway.
            let r = self.locs.get(t).root_id;
            if self.escaped.binary_search(&r).is_err()
                && !matches!(self.locs.get(r).root, Root::Str(..))
            {
                escapes.push(r);
            }
            if clobber
                && matches!(self.locs.get(t).ty, None | Some(Type::Pointer(_)))
                && self.locs.may_hold_pointer(t)
            {
                touched.push(t);
            }
            let r = self.locs.get(t).root_id;
            if !seen_roots.insert(r) {
                continue;
            }
            for m in self.locs.members(r) {
                for f in st.targets(m) {
                    if clobber {
                        touched.push(f.src);
                    }
                    work.push(f.dst);
                }
            }
        }
        touched.sort();
        touched.dedup();
        if clobber {
            let written: Locset = touched.iter().map(|&l| (l, false)).collect();
            self.note_writes(&written);
        }
        // A source that already holds the fact, and only possible ones, is
        // left alone: the weak update would change nothing there. When
        // nothing is new the state is not rebuilt (unknown code reaches the
        // same escaped objects at every call).
        let holds = |st: &Facts, src: LocId, dst: LocId| {
            let ts = st.targets(src);
            ts.binary_search_by_key(&dst, |f| f.dst).is_ok() && ts.iter().all(|f| !f.def)
        };
        let mut adds: Vec<Fact> = Vec::with_capacity(touched.len() + escapes.len());
        for l in touched {
            if matches!(self.locs.get(l).root, Root::Str(..)) || holds(st, l, UNKNOWN) {
                continue;
            }
            adds.push(Fact {
                src: l,
                dst: UNKNOWN,
                def: false,
            });
        }
        // `unknown`'s own targets are looked up once: they are as many as
        // the objects that escaped, and so are the escapes (a test per
        // escape over all of them was quadratic).
        escapes.sort_unstable();
        escapes.dedup();
        let escaped_now = st.targets(UNKNOWN);
        let all_possible = escaped_now.iter().all(|f| !f.def);
        for t in escapes {
            if all_possible && escaped_now.binary_search_by_key(&t, |f| f.dst).is_ok() {
                continue;
            }
            adds.push(Fact {
                src: UNKNOWN,
                dst: t,
                def: false,
            });
        }
        st.add_weak(adds);
        funcs
    }

    /// Unknown code given the address of an object (`f(&p)`, `f(&s)`) is
    /// taken to write the pointers in it that were never written: an
    /// out-parameter is how C returns a second value
    /// (`BZ2_bzReadGetUnused(&err, f, &buf, &n)`), so there `uninit`
    /// becomes `unknown` (what the call wrote). A documented assumption
    /// (`docs/diagnostics.md`): a call that leaves its out-parameter unset
    /// on some path hides the `uninit-deref` after it. Only the objects
    /// the arguments point to, not what those reach.
    fn fill_out_params(&mut self, st: &mut Facts, passed: &[LocId]) {
        let mut roots: Vec<LocId> = passed
            .iter()
            .filter(|&&t| t != UNKNOWN && self.locs.is_memory(t))
            .map(|&t| self.locs.get(t).root_id)
            .filter(|&r| !matches!(self.locs.get(r).root, Root::Dangling(_)))
            .collect();
        roots.sort_unstable();
        roots.dedup();
        for r in roots {
            let members: Vec<LocId> = self.locs.members(r).collect();
            for m in members {
                let ts = st.targets(m);
                if !ts.iter().any(|f| f.dst == UNINIT) {
                    continue;
                }
                let mut v: Locset = ts
                    .iter()
                    .filter(|f| f.dst != UNINIT)
                    .map(|f| (f.dst, false))
                    .collect();
                push(&mut v, UNKNOWN, false);
                st.replace(m, &v);
            }
        }
    }

    /// A final unit of `f` made by this run whose input covers `input`
    /// (`input ⊑` the input its body ran with), for a callback of unknown
    /// code that the memo does not answer. Its result is sound for the call: a larger input stands for
    /// more states, and unmap reads the call's own input and map, as for a
    /// recursive or merged node. Why: unknown code calls every escaped
    /// function at every unknown call, from states that differ in what
    /// escaped so far; the callbacks of a cycle through unknown code (Lua's
    /// `luaL_Reg` tables) were analysed again under every new cycle head,
    /// each head merging its own copy of the others (`lbaselib.c`: the
    /// n-th callback had n contexts). The answer is memoised under the
    /// call's input, so replays find the same unit.
    pub(crate) fn covering_unit(&mut self, f: u32, input: &Arc<Facts>) -> Option<UnitId> {
        if self.replay.is_some() {
            return None;
        }
        let found = self.units_by_func[f as usize]
            .iter()
            .rev()
            .copied()
            .find(|&u| {
                let unit = &self.units[u as usize];
                // Final: the memo answers with it (a unit of an open fixed
                // point is not there yet).
                let is_final = |k: &Arc<Facts>| self.memo.get(&(f, k.clone())) == Some(&u);
                !unit.dead
                    && (is_final(&unit.key) || is_final(&unit.input))
                    && input.leq(&unit.input)
            })?;
        if !crate::reuse::admit(self, found) {
            return None;
        }
        self.memo.insert((f, input.clone()), found);
        Some(found)
    }

    /// After a call to a unit that called unknown code: the non-static
    /// globals the callee could not see (`hidden`) and what they reach may
    /// have changed too.
    pub(crate) fn escape(&mut self, st: &mut Facts, hidden: Vec<LocId>) {
        self.escaped_call();
        self.clobber_reachable(st, hidden);
    }

    /// A call to a function with no body and no table entry: the result may
    /// point to `unknown`; everything its pointer arguments and the
    /// non-static globals (escaped: external code can name them) reach may
    /// point to `unknown` afterwards; function pointers it can reach are
    /// called with unknown arguments. The globals the calling function does
    /// not name are not in its state: the unit is marked `escaped`, and its
    /// callers apply the same to them after the call (`Engine::escape`).
    pub(crate) fn call_unknown(
        &mut self,
        st: Facts,
        sc: Scope<'p>,
        stmt: StmtId,
        lhs: Option<&Place>,
        args: &[Arg],
    ) -> State {
        let mut work: Vec<LocId> = Vec::new();
        for i in 0..args.len() {
            for (t, _) in self.arg_vals(&st, sc, args, i) {
                work.push(t);
            }
        }
        let mut st = st;
        self.fill_out_params(&mut st, &work);
        work.extend(self.escaped.iter().copied());
        self.escaped_call();
        // Unknown code may call what it reaches in any order, any number
        // of times: one callback may see what another wrote, and a pointer
        // a callback stored may reach more functions. So: call every
        // function reachable (chained, from the state so far) until the
        // state stops changing.
        let mut cur = st;
        // Callbacks whose last call in this loop had a plain result (its
        // unmap the whole effect): called again with the same input and
        // map information, they add nothing to what the loop holds.
        let mut plain: crate::fxhash::FxHashMap<u32, (Arc<Facts>, MapGroups)> = Default::default();
        let mut demoted = false;
        loop {
            if self.abandoning() {
                // The body is given up (`budget.rs`).
                return None;
            }
            let mut roots = work.clone();
            // What escaped before may be changed again.
            roots.extend(cur.targets(UNKNOWN).iter().map(|f| f.dst));
            // Each pass over what unknown code reaches is a step of the
            // budget (as long as a call's analysis), and so is each
            // callback called: a loop of them is bounded like calls are.
            self.spend_step();
            let funcs = self.clobber_reachable(&mut cur, roots);
            if !funcs.is_empty() && !demoted {
                // Fresh objects join their sites' summaries at a call, once
                // for every callback (their results hold none).
                crate::recency::demote(&mut self.locs, &mut cur, None);
                demoted = true;
            }
            // Each callback runs from the state the previous ones left,
            // or not at all (`Callback::MayRun` merges).
            let mut out = cur.clone();
            let outer = self.defer_cuts();
            for name in funcs {
                let Some(&fi) = self.locs.func_index.get(&name) else {
                    continue;
                };
                let n = self.func(fi).params.len();
                let unknown_args: Vec<Arg> = (0..n).map(|_| Arg::Rv(&Rvalue::Unknown)).collect();
                self.spend_step();
                let mut same = |input: &Arc<Facts>, info: &crate::map::MapInfo| {
                    plain
                        .get(&fi)
                        .is_some_and(|(i, g)| i == input && *g == info.groups)
                };
                // A unit of this callback whose input covers this call's
                // answers it (`Engine::covering_unit`).
                self.callback_of_unknown = true;
                let r = self.call_defined_unless(
                    out,
                    sc,
                    fi,
                    None,
                    None,
                    &unknown_args,
                    Callback::MayRun,
                    &mut same,
                );
                self.callback_of_unknown = false;
                let ((r, u, approximate), input, info) = match r {
                    Ok(r) => r,
                    Err(back) => {
                        out = back;
                        continue;
                    }
                };
                let whole = !approximate
                    && u.is_some_and(|u| {
                        !self.units[u as usize].wild && !self.units[u as usize].escaped
                    });
                if whole {
                    plain.insert(fi, (input, info.groups));
                } else {
                    plain.remove(&fi);
                }
                let map = std::mem::take(&mut self.last_map);
                self.record(
                    stmt,
                    &name,
                    CallEdge {
                        unit: u,
                        approximate,
                        indirect: true,
                        map,
                        cut_off: u.is_none(),
                    },
                );
                // `MayRun` never answers bottom.
                out = r.expect("a callback's result keeps the state before it");
            }
            // Past the budget: the callbacks cut off, together, as callbacks
            // (they may run or not).
            let cut = self.cut_deferred(outer);
            if !cut.is_empty() {
                // (Bottom: the body is given up.)
                let r = self.cut_off_calls(out.clone(), sc, &cut, None, &[])?;
                out = Facts::merge(&out, &r);
            }
            if out == cur {
                break;
            }
            cur = out;
        }
        let mut st = cur;
        self.store_lhs(&mut st, sc, lhs, vec![(UNKNOWN, false)]);
        Some(st)
    }
}
