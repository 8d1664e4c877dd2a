//! The solution, and the questions asked of it: points-to sets per method
//! context, field and static points-to sets, the call graph, and the
//! precision figures of the seeds' tables.

use crate::compile::{CallKind, CastStmt, Facts};
use crate::context::{Contexts, CtxId, Elem, Selector, Variant};
use crate::fxhash::FxHashMap;
use crate::ptset::PtSet;
use crate::solver::{CallEdge, Interrupted, MethodCtx, Solver, State};
use pointee_ir::Program;
use std::collections::{BTreeMap, BTreeSet};

pub struct Analysis {
    pub facts: Facts,
    pub variant: Variant,
    pub ctxs: Contexts,
    /// Abstract objects: (heap context, allocation site).
    pub objs: Vec<(CtxId, u32)>,
    /// Reached (method, context) pairs, in the order they were reached.
    pub reached: Vec<MethodCtx>,
    pub cg: Vec<CallEdge>,
    /// The roots the solve began from, by name.
    pub(crate) roots: Vec<String>,
    /// The rest of the solver's state (without the four fields above),
    /// kept so that a later solve can go on from this one.
    pub(crate) rest: State,
    /// (object, field) -> node, sorted.
    pub(crate) fields: BTreeMap<(u32, u32), u32>,
    /// Reached pairs per method: those of method `m` are
    /// `by_method[starts[m]..starts[m + 1]]` (one list, not one per
    /// method: a solve after an edit builds it again).
    by_method: Vec<u32>,
    starts: Vec<u32>,
    /// (method, site) -> callee methods, sorted.
    callees: FxHashMap<(u32, u32), Vec<u32>>,
    pub heap_bytes: usize,
}

/// The figures of the seeds' tables, and sizes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub reachable_methods: u64,
    pub method_contexts: u64,
    /// Context-insensitive (call site -> method) edges.
    pub call_edges: u64,
    pub cs_call_edges: u64,
    /// Reachable virtual call sites with two or more targets.
    pub polymorphic_call_sites: u64,
    /// Reachable casts some object of whose source may not fit.
    pub may_fail_casts: u64,
    pub reachable_casts: u64,
    pub objects: u64,
    pub pointers: u64,
}

impl Stats {
    pub fn named(&self) -> Vec<(String, u64)> {
        vec![
            ("reachable methods".into(), self.reachable_methods),
            ("method contexts".into(), self.method_contexts),
            ("call-graph edges".into(), self.call_edges),
            (
                "context-sensitive call-graph edges".into(),
                self.cs_call_edges,
            ),
            ("polymorphic call sites".into(), self.polymorphic_call_sites),
            ("casts that may fail".into(), self.may_fail_casts),
            ("reachable casts".into(), self.reachable_casts),
            ("abstract objects".into(), self.objects),
        ]
    }
}

impl Analysis {
    /// Analyses `program` from `roots` (function names; unknown ones are
    /// skipped), each in the empty context.
    pub fn run(program: &Program, roots: &[&str], variant: Variant) -> Analysis {
        Analysis::run_with(program, roots, variant, &variant)
    }

    /// Same with any selector (`variant` only names it).
    pub fn run_with(
        program: &Program,
        roots: &[&str],
        variant: Variant,
        sel: &dyn Selector,
    ) -> Analysis {
        match Analysis::solve(program, roots, variant, sel, None) {
            Ok(a) => a,
            Err(Interrupted) => unreachable!("a solve without an interrupt runs to the end"),
        }
    }

    /// Same as [`Analysis::run`], stopping (`Err(Interrupted)`) soon after
    /// `interrupt` answers true: an editor's newer edit made this run
    /// outdated.
    pub fn run_interruptible(
        program: &Program,
        roots: &[&str],
        variant: Variant,
        interrupt: &dyn Fn() -> bool,
    ) -> Result<Analysis, Interrupted> {
        Analysis::solve(program, roots, variant, &variant, Some(interrupt))
    }

    fn solve(
        program: &Program,
        roots: &[&str],
        variant: Variant,
        sel: &dyn Selector,
        interrupt: Option<&dyn Fn() -> bool>,
    ) -> Result<Analysis, Interrupted> {
        let facts = Facts::new(program);
        let root_ids: Vec<u32> = roots
            .iter()
            .filter_map(|r| facts.method_index.get(*r).copied())
            .collect();
        let mut s = Solver::new(&facts, sel);
        s.solve(&root_ids, interrupt)?;
        let st = s.st;
        Ok(Analysis::finish(facts, variant, roots, st))
    }

    /// The solution of `facts` in solver state `st`, ready for questions.
    pub(crate) fn finish(
        facts: Facts,
        variant: Variant,
        roots: &[&str],
        mut st: State,
    ) -> Analysis {
        let heap_bytes = st.heap_bytes();
        let mut starts = vec![0u32; facts.methods.len() + 1];
        for r in &st.reached {
            starts[r.method as usize + 1] += 1;
        }
        for m in 0..facts.methods.len() {
            starts[m + 1] += starts[m];
        }
        let mut next = starts.clone();
        let mut by_method = vec![0u32; st.reached.len()];
        for (i, r) in st.reached.iter().enumerate() {
            let at = &mut next[r.method as usize];
            by_method[*at as usize] = i as u32;
            *at += 1;
        }
        let fields = st.field_nodes.iter().map(|(&k, &v)| (k, v)).collect();
        let ctxs = std::mem::take(&mut st.ctxs);
        let objs = std::mem::take(&mut st.objs);
        let reached = std::mem::take(&mut st.reached);
        let cg = std::mem::take(&mut st.cg);
        let mut callees: FxHashMap<(u32, u32), Vec<u32>> = Default::default();
        for e in &cg {
            let caller = reached[e.caller as usize].method;
            let site = facts.methods[caller as usize].calls[e.call as usize].site;
            callees
                .entry((caller, site))
                .or_default()
                .push(reached[e.callee as usize].method);
        }
        for v in callees.values_mut() {
            v.sort_unstable();
            v.dedup();
        }
        Analysis {
            facts,
            variant,
            ctxs,
            objs,
            reached,
            cg,
            roots: roots.iter().map(|r| r.to_string()).collect(),
            rest: st,
            fields,
            by_method,
            starts,
            callees,
            heap_bytes,
        }
    }

    /// The whole solver state (a copy), to go on from.
    pub(crate) fn state(&self) -> State {
        let mut st = self.rest.clone();
        st.ctxs = self.ctxs.clone();
        st.objs = self.objs.clone();
        st.reached = self.reached.clone();
        st.cg = self.cg.clone();
        st
    }

    pub fn method(&self, name: &str) -> Option<u32> {
        self.facts.method_index.get(name).copied()
    }

    /// The reached pairs of a method (indices into `reached`).
    pub fn contexts_of(&self, method: u32) -> &[u32] {
        let m = method as usize;
        &self.by_method[self.starts[m] as usize..self.starts[m + 1] as usize]
    }

    pub fn var_pts(&self, mc: u32, var: u32) -> &PtSet {
        &self.rest.pt[self.rest.var_node(mc, var) as usize]
    }

    pub fn field_pts(&self, obj: u32, field: &str) -> Option<&PtSet> {
        let f = *self.facts.field_index.get(field)?;
        self.fields
            .get(&(obj, f))
            .map(|&n| &self.rest.pt[n as usize])
    }

    /// Every non-empty field of every object: (object, field name, set).
    pub fn all_fields(&self) -> impl Iterator<Item = (u32, &str, &PtSet)> {
        self.fields
            .iter()
            .map(|(&(o, f), &n)| {
                (
                    o,
                    self.facts.fields[f as usize].as_str(),
                    &self.rest.pt[n as usize],
                )
            })
            .filter(|(_, _, s)| !s.is_empty())
    }

    pub fn static_pts(&self, name: &str) -> Option<&PtSet> {
        let s = *self.facts.static_index.get(name)?;
        Some(&self.rest.pt[self.rest.static_nodes[s as usize] as usize])
    }

    /// The methods a call (method, site) may reach, in any context; sorted.
    pub fn callees(&self, method: u32, site: u32) -> Vec<u32> {
        self.callees
            .get(&(method, site))
            .cloned()
            .unwrap_or_default()
    }

    /// Casts of reached methods: (method, cast, may fail).
    pub fn casts(&self) -> Vec<(u32, &CastStmt, bool)> {
        let mut tests = crate::types::TypeTests::new(&self.facts);
        let mut out = Vec::new();
        for (m, mf) in self.facts.methods.iter().enumerate() {
            if self.contexts_of(m as u32).is_empty() {
                continue;
            }
            for c in &mf.casts {
                let fails = self.contexts_of(m as u32).iter().any(|&mc| {
                    self.var_pts(mc, c.from).iter().any(|o| {
                        let a = &self.facts.allocs[self.objs[o as usize].1 as usize];
                        !tests.must_fit(a.ty, c.ty)
                    })
                });
                out.push((m as u32, c, fails));
            }
        }
        out
    }

    pub fn stats(&self) -> Stats {
        let reachable_methods = (0..self.facts.methods.len() as u32)
            .filter(|&m| !self.contexts_of(m).is_empty())
            .count() as u64;
        let mut ci_edges: BTreeSet<(u32, u32, u32)> = BTreeSet::new();
        let mut targets: BTreeMap<(u32, u32), BTreeSet<u32>> = BTreeMap::new();
        for e in &self.cg {
            let caller = self.reached[e.caller as usize].method;
            let callee = self.reached[e.callee as usize].method;
            ci_edges.insert((caller, e.call, callee));
            if let CallKind::Virtual(..) =
                self.facts.methods[caller as usize].calls[e.call as usize].kind
            {
                targets.entry((caller, e.call)).or_default().insert(callee);
            }
        }
        let casts = self.casts();
        Stats {
            reachable_methods,
            method_contexts: self.reached.len() as u64,
            call_edges: ci_edges.len() as u64,
            cs_call_edges: self.cg.len() as u64,
            polymorphic_call_sites: targets.values().filter(|t| t.len() > 1).count() as u64,
            may_fail_casts: casts.iter().filter(|c| c.2).count() as u64,
            reachable_casts: casts.len() as u64,
            objects: self.objs.len() as u64,
            pointers: self.rest.pt.len() as u64,
        }
    }

    /// A context in the canonical text form of `facts_text`.
    pub fn ctx_key(&self, ctx: CtxId) -> String {
        let parts: Vec<String> = self
            .ctxs
            .get(ctx)
            .iter()
            .map(|e| self.elem_key(*e))
            .collect();
        format!("[{}]", parts.join(","))
    }

    pub fn elem_key(&self, e: Elem) -> String {
        match e {
            Elem::Call(m, s) => format!("call:{}#{s}", self.facts.method_names[m as usize]),
            Elem::Alloc(a) => {
                let a = &self.facts.allocs[a as usize];
                format!(
                    "obj:{}#{}",
                    self.facts.method_names[a.method as usize], a.site
                )
            }
            Elem::Type(t) => format!("type:{}", self.facts.classes[t as usize]),
        }
    }

    pub fn obj_key(&self, o: u32) -> String {
        let (h, a) = self.objs[o as usize];
        let a = &self.facts.allocs[a as usize];
        format!(
            "{}{}#{}",
            self.ctx_key(h),
            self.facts.method_names[a.method as usize],
            a.site
        )
    }

    /// The whole solution as sorted lines, independent of internal ids: what
    /// the reference solver in the tests computes too.
    pub fn facts_text(&self) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for r in &self.reached {
            let m = &self.facts.method_names[r.method as usize];
            out.insert(format!("reach {m} {}", self.ctx_key(r.ctx)));
        }
        for (mc, r) in self.reached.iter().enumerate() {
            let m = &self.facts.method_names[r.method as usize];
            for v in 0..self.facts.methods[r.method as usize].nvars {
                for o in self.var_pts(mc as u32, v).iter() {
                    out.insert(format!(
                        "pt {m} {} v{v} -> {}",
                        self.ctx_key(r.ctx),
                        self.obj_key(o)
                    ));
                }
            }
        }
        for (o, f, s) in self.all_fields() {
            for t in s.iter() {
                out.insert(format!(
                    "fpt {}.{f} -> {}",
                    self.obj_key(o),
                    self.obj_key(t)
                ));
            }
        }
        for (i, name) in self.facts.statics.iter().enumerate() {
            for t in self.rest.pt[self.rest.static_nodes[i] as usize].iter() {
                out.insert(format!("spt {name} -> {}", self.obj_key(t)));
            }
        }
        for e in &self.cg {
            let (a, b) = (
                self.reached[e.caller as usize],
                self.reached[e.callee as usize],
            );
            let site = self.facts.methods[a.method as usize].calls[e.call as usize].site;
            out.insert(format!(
                "cg {} {} #{site} -> {} {}",
                self.facts.method_names[a.method as usize],
                self.ctx_key(a.ctx),
                self.facts.method_names[b.method as usize],
                self.ctx_key(b.ctx)
            ));
        }
        out
    }
}
