//! The worklist solver of seed 001 (Tan & Li, "Static Program Analysis:
//! Pointer Analysis, Context Sensitivity", Nanjing University, 2021; the
//! C.S. algorithm: Solve, AddReachable, AddEdge, Propagate, ProcessCall),
//! which computes the least solution of seed 003's Figure 2.2 rules (New,
//! Assign, Load, Store, Call) with the selectors of `context.rs`.
//!
//! Additions, as docs/java-analysis.md writes them down: static calls,
//! constructor and super calls (a fixed target, the receiver chosen as for
//! a virtual call), static fields (one node each), casts (an Assign edge
//! that passes only the objects that may be instances of the type),
//! arrays (the pseudo-field `[]`), string literals (one object per site,
//! empty heap context), several roots (static initialisers and entries, in
//! the empty context). Pending differences of one node are merged in the
//! worklist, which does not change the solution.

use crate::compile::{BaseUse, CallKind, Facts, ARRAY_FIELD};
use crate::context::{Contexts, CtxId, Elem, Receiver, Selector, EMPTY};
use crate::fxhash::FxHashMap;
use crate::ptset::PtSet;
use crate::types::TypeTests;
use std::collections::VecDeque;

pub(crate) const NOT_VAR: u32 = u32::MAX;

/// An edge `s -> t` as a key of `State::edges`.
pub(crate) fn edge_key(s: u32, t: u32) -> u64 {
    (s as u64) << 32 | t as u64
}

/// Worklist steps between two looks at the interrupt: a look is an atomic
/// load or so, a step a set difference and its propagation.
const INTERRUPT_EVERY: u32 = 1024;

/// A solve stopped by its interrupt (a newer edit arrived): its state is
/// not a fixed point and is dropped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Interrupted;

/// A reached (method, context) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MethodCtx {
    pub method: u32,
    pub ctx: CtxId,
}

/// A context-sensitive call-graph edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CallEdge {
    /// Index into `Solver::reached` of the caller.
    pub caller: u32,
    /// Index into the caller method's `calls`.
    pub call: u32,
    /// Index into `Solver::reached` of the callee.
    pub callee: u32,
}

/// What a solve computed and needs to go on: everything but the facts,
/// the selector and the type tests, so that a later solve of a program
/// that only adds facts can continue from it (`resume.rs`).
#[derive(Clone, Default)]
pub(crate) struct State {
    pub ctxs: Contexts,
    /// Abstract objects: (heap context, allocation site).
    pub objs: Vec<(CtxId, u32)>,
    pub obj_index: FxHashMap<(CtxId, u32), u32>,
    pub reached: Vec<MethodCtx>,
    pub reached_index: FxHashMap<(u32, CtxId), u32>,
    /// First pointer node of each reached method's variables.
    pub base: Vec<u32>,
    /// The variables' nodes of reached pairs whose method was edited since
    /// they were reached (by variable: the block at `base` no longer fits).
    pub var_maps: FxHashMap<u32, Box<[u32]>>,
    /// Per pointer node: the reached method it is a variable of, or NOT_VAR.
    pub node_mc: Vec<u32>,
    /// Per pointer node: which variable of that method.
    pub node_var: Vec<u32>,
    pub pt: Vec<PtSet>,
    pub succ: Vec<Vec<u32>>,
    pub edges: crate::fxhash::FxHashSet<u64>,
    pub field_nodes: FxHashMap<(u32, u32), u32>,
    pub static_nodes: Vec<u32>,
    pub pending: Vec<Option<PtSet>>,
    pub wl: VecDeque<u32>,
    pub cg: Vec<CallEdge>,
    pub cg_index: crate::fxhash::FxHashSet<(u32, u32, u32)>,
    /// Filtered edges (casts, catch parameters): source node -> (target
    /// node, type); only the objects that may be instances pass.
    pub filtered: FxHashMap<u32, Vec<(u32, u32)>>,
    pub filtered_index: crate::fxhash::FxHashSet<(u32, u32, u32)>,
    /// Dispatch results by (class, signature).
    pub dispatched: FxHashMap<(u32, u32), Option<u32>>,
    /// Per method: reached in some context (its classes are initialised).
    pub method_seen: Vec<bool>,
    /// Static initialisers to reach, in the empty context.
    pub to_init: Vec<u32>,
    /// (reached method, call) pairs that made a library call.
    pub library_calls: crate::fxhash::FxHashSet<(u32, u32)>,
}

pub struct Solver<'f> {
    pub facts: &'f Facts,
    sel: &'f dyn Selector,
    /// Which objects a cast passes.
    types: TypeTests<'f>,
    pub(crate) st: State,
}

impl<'f> Solver<'f> {
    pub fn new(facts: &'f Facts, sel: &'f dyn Selector) -> Solver<'f> {
        let mut s = Solver::with_state(facts, sel, State::default());
        s.st.method_seen = vec![false; facts.methods.len()];
        s.st.static_nodes = (0..facts.statics.len())
            .map(|_| s.new_node(NOT_VAR, 0))
            .collect();
        s
    }

    /// A solver that goes on from `st`, which must be a state of these
    /// facts (`resume.rs` translates an earlier one).
    pub(crate) fn with_state(facts: &'f Facts, sel: &'f dyn Selector, st: State) -> Solver<'f> {
        Solver {
            facts,
            sel,
            types: TypeTests::new(facts),
            st,
        }
    }

    fn new_node(&mut self, mc: u32, var: u32) -> u32 {
        self.st.new_node(mc, var)
    }

    pub fn var_node(&self, mc: u32, var: u32) -> u32 {
        self.st.var_node(mc, var)
    }

    fn field_node(&mut self, obj: u32, field: u32) -> u32 {
        if let Some(&n) = self.st.field_nodes.get(&(obj, field)) {
            return n;
        }
        let n = self.new_node(NOT_VAR, 0);
        self.st.field_nodes.insert((obj, field), n);
        n
    }

    fn obj(&mut self, hctx: CtxId, alloc: u32) -> u32 {
        if let Some(&o) = self.st.obj_index.get(&(hctx, alloc)) {
            return o;
        }
        let o = self.st.objs.len() as u32;
        self.st.objs.push((hctx, alloc));
        self.st.obj_index.insert((hctx, alloc), o);
        o
    }

    fn add_wl(&mut self, n: u32, pts: &PtSet) {
        match &mut self.st.pending[n as usize] {
            Some(p) => {
                p.union_with(pts);
            }
            slot @ None => {
                *slot = Some(pts.clone());
                self.st.wl.push_back(n);
            }
        }
    }

    /// AddEdge(s, t).
    fn add_edge(&mut self, s: u32, t: u32) {
        if !self.st.edges.insert(edge_key(s, t)) {
            return;
        }
        self.st.succ[s as usize].push(t);
        if !self.st.pt[s as usize].is_empty() {
            let p = self.st.pt[s as usize].clone();
            self.add_wl(t, &p);
        }
    }

    /// AddEdge(s, t) passing only the objects that may be instances of
    /// type `ty` (a cast).
    fn add_filtered_edge(&mut self, s: u32, t: u32, ty: u32) {
        if !self.st.filtered_index.insert((s, t, ty)) {
            return;
        }
        self.st.filtered.entry(s).or_default().push((t, ty));
        if !self.st.pt[s as usize].is_empty() {
            let p = self.filter(&self.st.pt[s as usize].clone(), ty);
            if !p.is_empty() {
                self.add_wl(t, &p);
            }
        }
    }

    /// The objects of `pts` that may be instances of type `ty`.
    fn filter(&mut self, pts: &PtSet, ty: u32) -> PtSet {
        let mut out = PtSet::new();
        for o in pts.iter() {
            let a = &self.facts.allocs[self.st.objs[o as usize].1 as usize];
            if self.types.may_fit(a.ty, ty) {
                out.insert(o);
            }
        }
        out
    }

    /// Solve: runs the roots in the empty context, then the worklist;
    /// stops early when `interrupt` answers true (it is asked every
    /// `INTERRUPT_EVERY` steps).
    pub fn solve(
        &mut self,
        roots: &[u32],
        interrupt: Option<&dyn Fn() -> bool>,
    ) -> Result<(), Interrupted> {
        for &r in roots {
            self.add_reachable(r, EMPTY);
        }
        let mut steps = 0u32;
        loop {
            steps = steps.wrapping_add(1);
            if let Some(stop) = interrupt {
                if steps.is_multiple_of(INTERRUPT_EVERY) && stop() {
                    return Err(Interrupted);
                }
            }
            while let Some(c) = self.st.to_init.pop() {
                self.add_reachable(c, EMPTY);
            }
            let Some(n) = self.st.wl.pop_front() else {
                break;
            };
            let Some(pts) = self.st.pending[n as usize].take() else {
                continue;
            };
            let delta = pts.minus(&self.st.pt[n as usize]);
            if delta.is_empty() {
                continue;
            }
            self.propagate(n, &delta);
            let mc = self.st.node_mc[n as usize];
            if mc == NOT_VAR {
                continue;
            }
            let var = self.st.node_var[n as usize];
            self.process_uses(mc, var, &delta);
        }
        Ok(())
    }

    /// The loads, stores and calls whose base is variable `var` of the
    /// reached pair `mc`, for the new objects `delta` of the variable.
    pub(crate) fn process_uses(&mut self, mc: u32, var: u32, delta: &PtSet) {
        let MethodCtx { method, .. } = self.st.reached[mc as usize];
        let m = &self.facts.methods[method as usize];
        if m.uses[var as usize].is_empty() {
            return;
        }
        let array_field = self.facts.field_index.get(ARRAY_FIELD).copied();
        for o in delta.iter() {
            for &u in &m.uses[var as usize] {
                match u {
                    BaseUse::Store(i) => {
                        let (_, f, y) = m.stores[i as usize];
                        if Some(f) == array_field && self.is_empty_array(o) {
                            continue;
                        }
                        let fnode = self.field_node(o, f);
                        self.add_edge(self.var_node(mc, y), fnode);
                    }
                    BaseUse::Load(i) => {
                        let (x, _, f) = m.loads[i as usize];
                        let fnode = self.field_node(o, f);
                        self.add_edge(fnode, self.var_node(mc, x));
                    }
                    BaseUse::Call(i) => self.process_call(mc, i, o),
                }
            }
        }
    }

    /// A zero-length array: an element store into it never happens.
    fn is_empty_array(&self, o: u32) -> bool {
        self.facts.allocs[self.st.objs[o as usize].1 as usize].empty
    }

    /// Propagate(n, delta).
    fn propagate(&mut self, n: u32, delta: &PtSet) {
        self.st.pt[n as usize].union_with(delta);
        let succ = std::mem::take(&mut self.st.succ[n as usize]);
        for &s in &succ {
            self.add_wl(s, delta);
        }
        self.st.succ[n as usize] = succ;
        if let Some(filtered) = self.st.filtered.get(&n).cloned() {
            for (t, ty) in filtered {
                let p = self.filter(delta, ty);
                if !p.is_empty() {
                    self.add_wl(t, &p);
                }
            }
        }
    }

    /// AddReachable(c:m); returns the reached pair's index.
    fn add_reachable(&mut self, method: u32, ctx: CtxId) -> u32 {
        if let Some(&mc) = self.st.reached_index.get(&(method, ctx)) {
            return mc;
        }
        let mc = self.st.reached.len() as u32;
        self.st.reached.push(MethodCtx { method, ctx });
        self.st.reached_index.insert((method, ctx), mc);
        let m = &self.facts.methods[method as usize];
        if !std::mem::replace(&mut self.st.method_seen[method as usize], true) {
            self.st.to_init.extend(&m.inits);
        }
        self.st.base.push(self.st.pt.len() as u32);
        for v in 0..m.nvars {
            self.new_node(mc, v);
        }
        self.add_method_facts(mc);
        mc
    }

    /// The facts of a reached pair's method that do not wait for objects:
    /// New, Assign, casts, static fields and static calls. Adding them
    /// again changes nothing.
    pub(crate) fn add_method_facts(&mut self, mc: u32) {
        let MethodCtx { method, ctx } = self.st.reached[mc as usize];
        let m = &self.facts.methods[method as usize];
        if !m.news.is_empty() {
            let hctx = self.sel.heap_context(&mut self.st.ctxs, ctx);
            for &(x, a) in &m.news {
                let hc = if self.facts.allocs[a as usize].is_string {
                    EMPTY
                } else {
                    hctx
                };
                let o = self.obj(hc, a);
                self.add_wl(self.var_node(mc, x), &PtSet::singleton(o));
            }
        }
        for &(y, x) in &m.copies {
            self.add_edge(self.var_node(mc, y), self.var_node(mc, x));
        }
        for c in &m.casts {
            self.add_filtered_edge(self.var_node(mc, c.from), self.var_node(mc, c.to), c.ty);
        }
        for &(x, s, ty) in &m.filtered_sloads {
            self.add_filtered_edge(self.st.static_nodes[s as usize], self.var_node(mc, x), ty);
        }
        for &(x, s) in &m.sloads {
            self.add_edge(self.st.static_nodes[s as usize], self.var_node(mc, x));
        }
        for &(s, y) in &m.sstores {
            self.add_edge(self.var_node(mc, y), self.st.static_nodes[s as usize]);
        }
        for i in 0..m.calls.len() {
            if let CallKind::Static(callee) = m.calls[i].kind {
                let site = Elem::Call(method, m.calls[i].site);
                let ct = self.sel.callee_context(&mut self.st.ctxs, ctx, site, None);
                self.call_edge(mc, i as u32, callee, ct);
            }
        }
    }

    /// ProcessCall(c:x, c':o) for one call whose receiver is x.
    fn process_call(&mut self, mc: u32, call: u32, o: u32) {
        let MethodCtx { method, ctx } = self.st.reached[mc as usize];
        let facts = self.facts;
        let c = &facts.methods[method as usize].calls[call as usize];
        let (hctx, alloc) = self.st.objs[o as usize];
        let a = &facts.allocs[alloc as usize];
        let target = match c.kind {
            CallKind::Virtual(_, sig) => *self
                .st
                .dispatched
                .entry((a.dispatch_class.unwrap_or(u32::MAX), sig))
                .or_insert_with(|| facts.dispatch(a.dispatch_class, sig)),
            CallKind::Special(t, _) => Some(t),
            CallKind::Static(_) => None,
        };
        let Some(target) = target else {
            if let (CallKind::Virtual(..), true) = (&c.kind, a.library) {
                self.library_call(mc, call, o);
            }
            return;
        };
        let recv = Receiver {
            heap_ctx: hctx,
            alloc,
            in_type: a.in_type,
        };
        let ct = self.sel.callee_context(
            &mut self.st.ctxs,
            ctx,
            Elem::Call(method, c.site),
            Some(recv),
        );
        let callee = self.add_reachable(target, ct);
        if let Some(this) = facts.methods[target as usize].this {
            self.add_wl(self.var_node(callee, this), &PtSet::singleton(o));
        }
        self.call_edge(mc, call, target, ct);
    }

    /// A virtual call on `o`, an object of a library class: the library's
    /// method, modelled by the library heap: the receiver and the arguments
    /// go into it, the result comes from it.
    fn library_call(&mut self, mc: u32, call: u32, o: u32) {
        let Some(lib) = self.facts.library_heap else {
            return;
        };
        let heap = self.st.static_nodes[lib as usize];
        self.add_wl(heap, &PtSet::singleton(o));
        if !self.st.library_calls.insert((mc, call)) {
            return;
        }
        let facts = self.facts;
        let c = &facts.methods[self.st.reached[mc as usize].method as usize].calls[call as usize];
        for a in c.args.iter().flatten() {
            self.add_edge(self.var_node(mc, *a), heap);
        }
        if let Some(l) = c.lhs {
            self.add_edge(heap, self.var_node(mc, l));
        }
    }

    /// Adds `c:l -> c^t:m` to the call graph, and its parameter and return
    /// edges, when new.
    fn call_edge(&mut self, mc: u32, call: u32, target: u32, ct: CtxId) {
        let callee = self.add_reachable(target, ct);
        if !self.st.cg_index.insert((mc, call, callee)) {
            return;
        }
        self.st.cg.push(CallEdge {
            caller: mc,
            call,
            callee,
        });
        self.call_flows(mc, call, target, callee);
    }

    /// The parameter and return edges of the call-graph edge `mc`'s `call`
    /// to `target` in its reached pair `callee`.
    fn call_flows(&mut self, mc: u32, call: u32, target: u32, callee: u32) {
        let facts = self.facts;
        let caller_m = &facts.methods[self.st.reached[mc as usize].method as usize];
        let c = &caller_m.calls[call as usize];
        let tm = &facts.methods[target as usize];
        for (a, p) in c.args.iter().zip(&tm.params) {
            if let Some(a) = a {
                self.add_edge(self.var_node(mc, *a), self.var_node(callee, *p));
            }
        }
        if let (Some(r), Some(l)) = (tm.ret, c.lhs) {
            self.add_edge(self.var_node(callee, r), self.var_node(mc, l));
        }
    }
}

impl Solver<'_> {
    /// After `retract.rs` emptied the nodes marked in `emptied`: each gets
    /// again what its edges from the nodes outside bring (the worklist
    /// does the rest). A removed assignment within a method may have been
    /// the same edge as a parameter edge of a call of the method on itself
    /// in the same context (`edited`): those edges are made again too.
    pub(crate) fn refill(&mut self, emptied: &[bool], edited: &[u32]) {
        let emptied = |n: u32| emptied.get(n as usize).copied().unwrap_or(false);
        for e in self.st.cg.clone() {
            if e.caller == e.callee && edited.contains(&e.caller) {
                let target = self.st.reached[e.callee as usize].method;
                self.call_flows(e.caller, e.call, target, e.callee);
            }
        }
        for s in 0..self.st.succ.len() as u32 {
            if emptied(s) || self.st.pt[s as usize].is_empty() {
                continue;
            }
            let succ = std::mem::take(&mut self.st.succ[s as usize]);
            for &t in &succ {
                if emptied(t) {
                    let p = self.st.pt[s as usize].clone();
                    self.add_wl(t, &p);
                }
            }
            self.st.succ[s as usize] = succ;
        }
        let mut filtered: Vec<(u32, u32, u32)> = self
            .st
            .filtered
            .iter()
            .filter(|(&s, _)| !emptied(s))
            .flat_map(|(&s, ts)| ts.iter().map(move |&(t, ty)| (s, t, ty)))
            .filter(|&(_, t, _)| emptied(t))
            .collect();
        filtered.sort_unstable();
        for (s, t, ty) in filtered {
            let p = self.filter(&self.st.pt[s as usize].clone(), ty);
            if !p.is_empty() {
                self.add_wl(t, &p);
            }
        }
    }
}

impl State {
    /// A new pointer node: variable `var` of the reached pair `mc`, or
    /// (`mc` NOT_VAR) a field or static field.
    pub(crate) fn new_node(&mut self, mc: u32, var: u32) -> u32 {
        let id = self.pt.len() as u32;
        self.pt.push(PtSet::new());
        self.succ.push(Vec::new());
        self.node_mc.push(mc);
        self.node_var.push(var);
        self.pending.push(None);
        id
    }

    /// Rough heap use of the solution, in bytes.
    pub(crate) fn heap_bytes(&self) -> usize {
        let sets: usize = self.pt.iter().map(PtSet::heap_bytes).sum();
        let succ: usize = self.succ.iter().map(|s| s.capacity() * 4).sum();
        sets + succ
            + self.pt.len() * (24 + 24 + 4 + 32)
            + self.edges.len() * 16
            + self.field_nodes.len() * 24
            + self.filtered_index.len() * 24
    }

    /// The pointer node of variable `var` of the reached pair `mc`.
    pub fn var_node(&self, mc: u32, var: u32) -> u32 {
        if !self.var_maps.is_empty() {
            if let Some(map) = self.var_maps.get(&mc) {
                return map[var as usize];
            }
        }
        self.base[mc as usize] + var
    }
}
