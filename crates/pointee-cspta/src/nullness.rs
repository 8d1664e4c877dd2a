//! Where `null`, and values of constructs the front end does not model,
//! may flow: points-to sets hold objects only, so the nullness of a pointer
//! is a second pass over the solved pointer-flow graph (the solver's edges,
//! casts included: `null` passes every cast). Flow-insensitive like the
//! solve: "may be null" means some path of the program, in some order of
//! its statements, puts `null` there.
//!
//! Sources of `null`:
//! - the statements that put the `null` constant into a variable, a field,
//!   a static field or an argument (`MethodFacts::no_objects`), in every
//!   reached context of their method;
//! - a field of an object of the program (not of the library) that no
//!   statement ever stores into, and a static field of the program no
//!   statement writes: Java starts every field as `null` and nothing
//!   changes it.
//!
//! Values of unmodelled constructs flow the same way, as "unknown": a
//! pointer that holds no object but is reached by one may hold anything, so
//! no definite claim is made there. Neither flows through the library heap
//! (what the library returns is its own business) or the thrown-exception
//! slot (a `throw null` throws a new NullPointerException).

use crate::compile::{NoObject, NoObjectInto};
use crate::result::Analysis;

/// Where the `null` that reaches a pointer comes from (the first source
/// found, for the witness).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NullSource {
    /// Statement `stmt` of `method` puts the `null` constant somewhere.
    Stmt { method: u32, stmt: u32 },
    /// The field `field` of object `obj` is never stored into.
    Field { obj: u32, field: u32 },
    /// The static field is never written.
    Static(u32),
}

/// The nullness of every pointer node of a solve.
pub struct Nullness {
    null: Vec<Option<NullSource>>,
    unknown: Vec<bool>,
}

impl Nullness {
    /// Whether `null` may reach variable `var` of the reached pair `mc`,
    /// and from where.
    pub fn null(&self, a: &Analysis, mc: u32, var: u32) -> Option<NullSource> {
        self.null[a.rest.var_node(mc, var) as usize]
    }

    /// Whether a value of an unmodelled construct may reach the variable.
    pub fn unknown(&self, a: &Analysis, mc: u32, var: u32) -> bool {
        self.unknown[a.rest.var_node(mc, var) as usize]
    }
}

impl Analysis {
    /// The nullness of every pointer of the solution.
    pub fn nullness(&self) -> Nullness {
        let st = &self.rest;
        let n = st.pt.len();
        // Synthetic static fields (`Library.<heap>`, `Throwable.<thrown>`,
        // the literal and box pools) hold what the model puts there.
        let mut closed = vec![false; n];
        for (s, name) in self.facts.statics.iter().enumerate() {
            if name.contains('<') {
                closed[st.static_nodes[s] as usize] = true;
            }
        }
        let mut stored = vec![false; n];
        for succ in &st.succ {
            for &t in succ {
                stored[t as usize] = true;
            }
        }
        for targets in st.filtered.values() {
            for &(t, _) in targets {
                stored[t as usize] = true;
            }
        }
        let mut callees: crate::fxhash::FxHashMap<(u32, u32), Vec<u32>> = Default::default();
        for e in &self.cg {
            callees
                .entry((e.caller, e.call))
                .or_default()
                .push(e.callee);
        }

        let mut null_seeds: Vec<(u32, NullSource)> = Vec::new();
        let mut unknown_seeds: Vec<u32> = Vec::new();
        for (mc, r) in self.reached.iter().enumerate() {
            let mc = mc as u32;
            let m = &self.facts.methods[r.method as usize];
            for f in &m.no_objects {
                let mut targets = Vec::new();
                match f.into {
                    NoObjectInto::Var(x) => targets.push(st.var_node(mc, x)),
                    NoObjectInto::Field(base, field) => {
                        for o in self.var_pts(mc, base).iter() {
                            if let Some(&node) = self.fields.get(&(o, field)) {
                                targets.push(node);
                            }
                        }
                    }
                    NoObjectInto::Static(s) => targets.push(st.static_nodes[s as usize]),
                    NoObjectInto::Arg(call, i) => {
                        for &callee in callees.get(&(mc, call)).into_iter().flatten() {
                            let cm =
                                &self.facts.methods[self.reached[callee as usize].method as usize];
                            if let Some(&p) = cm.params.get(i as usize) {
                                targets.push(st.var_node(callee, p));
                            }
                        }
                    }
                }
                for t in targets {
                    match f.what {
                        NoObject::Null => null_seeds.push((
                            t,
                            NullSource::Stmt {
                                method: r.method,
                                stmt: f.stmt,
                            },
                        )),
                        NoObject::Unknown => unknown_seeds.push(t),
                    }
                }
            }
        }
        for (&(obj, field), &node) in &self.fields {
            let a = &self.facts.allocs[self.objs[obj as usize].1 as usize];
            if !stored[node as usize] && !a.library && !a.empty {
                null_seeds.push((node, NullSource::Field { obj, field }));
            }
        }
        for (s, &node) in st.static_nodes.iter().enumerate() {
            if !stored[node as usize] && !closed[node as usize] {
                null_seeds.push((node, NullSource::Static(s as u32)));
            }
        }
        // Deterministic: seeds in a fixed order, the first source wins.
        null_seeds.sort_by_key(|&(t, _)| t);

        let mut null: Vec<Option<NullSource>> = vec![None; n];
        let mut work: Vec<u32> = Vec::new();
        for (t, src) in null_seeds {
            if null[t as usize].is_none() && !closed[t as usize] {
                null[t as usize] = Some(src);
                work.push(t);
            }
        }
        while let Some(u) = work.pop() {
            let src = null[u as usize];
            self.flow_from(u, &closed, &mut |t| {
                if null[t as usize].is_none() {
                    null[t as usize] = src;
                    work.push(t);
                }
            });
        }
        let mut unknown = vec![false; n];
        for t in unknown_seeds {
            if !unknown[t as usize] && !closed[t as usize] {
                unknown[t as usize] = true;
                work.push(t);
            }
        }
        while let Some(u) = work.pop() {
            self.flow_from(u, &closed, &mut |t| {
                if !std::mem::replace(&mut unknown[t as usize], true) {
                    work.push(t);
                }
            });
        }
        Nullness { null, unknown }
    }

    /// Calls `to` with every node an edge (a cast's too) leads to from `u`,
    /// except closed ones.
    fn flow_from(&self, u: u32, closed: &[bool], to: &mut dyn FnMut(u32)) {
        if closed[u as usize] {
            return;
        }
        let st = &self.rest;
        for &t in &st.succ[u as usize] {
            if !closed[t as usize] {
                to(t);
            }
        }
        for &(t, _) in st.filtered.get(&u).into_iter().flatten() {
            if !closed[t as usize] {
                to(t);
            }
        }
    }
}
