//! Which globals a function may name, directly or through anything it may
//! call. A call maps only those globals (plus what its arguments and they
//! reach): a callee cannot touch a global it neither names nor reaches, so
//! leaving the others out of its input loses nothing and lets unrelated
//! calling contexts share one memoized unit.
//!
//! Indirect calls, unknown functions and library calls that take callbacks
//! may call any function whose address is taken. (Unknown code may also
//! name every non-static global; a unit that called it is marked
//! `escaped` and its callers apply that to the globals it could not see:
//! see `effects.rs`.)

use crate::fxhash::FxHashMap as HashMap;
use crate::library::{self, Effect};
use crate::loc::{LocId, Locs};
use pointee_ir::{Base, Basic, Callee, GlobalKind, Place, Program, Rvalue, Stmt, StmtId};

struct Scan<'a> {
    globals: &'a HashMap<pointee_ir::Name, u32>,
    funcs: &'a HashMap<pointee_ir::Name, u32>,
    named: Vec<u32>,
    calls: Vec<u32>,
    any_call: bool,
    unknown_call: bool,
    pointer_call: bool,
    taken: Vec<u32>,
}

impl Scan<'_> {
    fn place(&mut self, p: &Place) {
        if let Base::Global(g) = &p.base {
            if let Some(&i) = self.globals.get(g) {
                self.named.push(i);
            }
        }
    }
    fn rvalue(&mut self, r: &Rvalue) {
        match r {
            Rvalue::Use(p) | Rvalue::AddrOf(p) | Rvalue::Offset(p, ..) | Rvalue::Cast(p, _) => {
                self.place(p)
            }
            Rvalue::Function(f) => {
                if let Some(&i) = self.funcs.get(f) {
                    self.taken.push(i);
                }
            }
            _ => {}
        }
    }
    fn block(&mut self, b: &[Stmt]) {
        for s in b {
            match s {
                Stmt::Basic(_, Basic::Assign { lhs, rhs }) => {
                    self.place(lhs);
                    self.rvalue(rhs);
                }
                Stmt::Basic(_, Basic::Use(p)) => self.place(p),
                Stmt::Basic(
                    _,
                    Basic::Call {
                        lhs, callee, args, ..
                    },
                ) => {
                    if let Some(l) = lhs {
                        self.place(l);
                    }
                    args.iter().for_each(|a| self.rvalue(a));
                    match callee {
                        Callee::Direct(n) => {
                            if let Some(&i) = self.funcs.get(n) {
                                self.calls.push(i);
                            } else if !library::is_alias_check(n) {
                                match library::effect(n) {
                                    Some(Effect::Callback { .. }) => self.any_call = true,
                                    None => {
                                        self.any_call = true;
                                        self.unknown_call = true;
                                        self.pointer_call = true;
                                    }
                                    _ => {}
                                }
                            }
                        }
                        Callee::Indirect(p) | Callee::Virtual { receiver: p, .. } => {
                            self.place(p);
                            self.any_call = true;
                            self.pointer_call = true;
                        }
                    }
                }
                Stmt::If {
                    cond,
                    then_branch,
                    else_branch,
                } => {
                    for p in cond.places() {
                        self.place(p);
                    }
                    self.block(then_branch);
                    self.block(else_branch);
                }
                Stmt::Loop { body } => self.block(body),
                Stmt::Switch { arms, .. } => arms.iter().for_each(|a| self.block(a)),
                _ => {}
            }
        }
    }
}

/// The globals external code may name: every global but `static` ones and
/// static locals (by index in `Program::globals`).
fn escaped_indices(prog: &Program) -> impl Iterator<Item = u32> + '_ {
    prog.globals.iter().enumerate().filter_map(|(i, g)| {
        (!matches!(
            g.kind,
            GlobalKind::Variable {
                is_static: true,
                ..
            } | GlobalKind::StaticLocal { .. }
        ))
        .then_some(i as u32)
    })
}

/// The roots of the non-static globals (what an unknown function may name).
pub fn escaped_globals(prog: &Program, locs: &mut Locs) -> Vec<LocId> {
    let idx: Vec<u32> = escaped_indices(prog).collect();
    idx.into_iter()
        .map(|i| locs.global(&prog.globals[i as usize].name).unwrap())
        .collect()
}

/// What one body names and calls, by index: the input of [`global_refs`].
/// It depends on the body only (and the global and function indices), so a
/// rerun rescans just the edited bodies.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuncScan {
    named: Vec<u32>,
    calls: Vec<u32>,
    any_call: bool,
    unknown_call: bool,
    /// Calls unknown code or through a pointer (which may hold `unknown`).
    pointer_call: bool,
    taken: Vec<u32>,
}

/// Scans one body.
pub fn scan_function(prog: &Program, locs: &Locs, fi: usize) -> FuncScan {
    let mut s = Scan {
        globals: &locs.global_index,
        funcs: &locs.func_index,
        named: vec![],
        calls: vec![],
        any_call: false,
        unknown_call: false,
        pointer_call: false,
        taken: vec![],
    };
    s.block(&prog.functions[fi].body);
    for v in [&mut s.named, &mut s.calls, &mut s.taken] {
        v.sort_unstable();
        v.dedup();
    }
    FuncScan {
        named: s.named,
        calls: s.calls,
        any_call: s.any_call,
        unknown_call: s.unknown_call,
        pointer_call: s.pointer_call,
        taken: s.taken,
    }
}

/// What [`global_refs`] derives from the scans.
#[derive(Clone, Debug, Default)]
pub struct Refs {
    /// The roots of the globals each function may name (sorted).
    pub refs: Vec<Vec<LocId>>,
    /// Each function may (transitively) call unknown code.
    pub calls_unknown: Vec<bool>,
    /// Each function may (transitively) call unknown code or call through
    /// a pointer, which may hold `unknown`: only such a function can call
    /// what escaped to unknown code, so only its input carries the escape
    /// marks (`unknown -> o`; see `map.rs`).
    pub needs_escapes: Vec<bool>,
    /// Each function may call itself (directly, through others, or through
    /// a function pointer): only such a function can be on the call stack
    /// when it is called, and so take part in an approximate node.
    pub cyclic: Vec<bool>,
    /// Each function's strongly connected component of the call graph
    /// (the same over-approximation of indirect calls), and per component
    /// its number of functions: calls inside a large open cycle share one
    /// context per function (`solver.rs`).
    pub scc: Vec<u32>,
    pub scc_size: Vec<u32>,
}

/// The globals each function may name, directly or through anything it
/// may call, and whether it may (transitively) call unknown code.
pub fn global_refs(prog: &Program, locs: &mut Locs, scans: &[FuncScan]) -> Refs {
    let n = prog.functions.len();
    // Two bits past the globals: may call unknown code; may call it or
    // through a pointer.
    let words = (prog.globals.len() + 2).div_ceil(64);
    let mut bits = vec![vec![0u64; words]; n];
    for (fi, s) in scans.iter().enumerate() {
        for &g in &s.named {
            bits[fi][g as usize / 64] |= 1 << (g % 64);
        }
        for (flag, g) in [
            (s.unknown_call, prog.globals.len()),
            (s.pointer_call, prog.globals.len() + 1),
        ] {
            if flag {
                bits[fi][g / 64] |= 1 << (g % 64);
            }
        }
    }
    let calls = call_graph(prog, locs, scans);
    let (cyclic, scc, scc_size) = cyclic_nodes(&calls);
    let cyclic = cyclic[..n].to_vec();
    let scc = scc[..n].to_vec();
    let n = n + 1;
    // The extra node "any address-taken function".
    bits.push(vec![0u64; words]);
    // Propagate to a fixed point over the (possibly cyclic) call graph.
    let mut changed = true;
    while changed {
        changed = false;
        for fi in 0..n {
            for &c in &calls[fi] {
                let c = c as usize;
                if c == fi {
                    continue;
                }
                let (src, dst) = if c < fi {
                    let (a, b) = bits.split_at_mut(fi);
                    (&a[c], &mut b[0])
                } else {
                    let (a, b) = bits.split_at_mut(c);
                    (&b[0], &mut a[fi])
                };
                for (d, s) in dst.iter_mut().zip(src) {
                    let add = *s & !*d;
                    if add != 0 {
                        *d |= add;
                        changed = true;
                    }
                }
            }
        }
    }
    bits.pop();
    let mut out = Vec::with_capacity(n);
    let u = prog.globals.len();
    let flag = |u: usize| -> Vec<bool> {
        bits.iter()
            .map(|b| b[u / 64] & (1 << (u % 64)) != 0)
            .collect()
    };
    let unknown = flag(u);
    let needs_escapes = flag(u + 1);
    for b in bits {
        let mut v = Vec::new();
        for (w, word) in b.iter().enumerate() {
            let mut word = *word;
            while word != 0 {
                let bit = word.trailing_zeros() as usize;
                word &= word - 1;
                let gi = w * 64 + bit;
                if gi >= prog.globals.len() {
                    continue;
                }
                v.push(locs.global(&prog.globals[gi].name).unwrap());
            }
        }
        v.sort();
        out.push(v);
    }
    Refs {
        refs: out,
        calls_unknown: unknown,
        needs_escapes,
        cyclic,
        scc,
        scc_size,
    }
}

/// The static call graph over-approximating indirect calls: one node per
/// function and one extra node (index `functions.len()`) standing for "any
/// address-taken function", which indirect calls, unknown code and
/// callback library calls reach.
fn call_graph(prog: &Program, locs: &Locs, scans: &[FuncScan]) -> Vec<Vec<u32>> {
    let n = prog.functions.len();
    let mut calls: Vec<Vec<u32>> = scans.iter().map(|s| s.calls.clone()).collect();
    calls.push(address_taken(prog, locs, scans));
    for fi in 0..n {
        if scans[fi].any_call {
            calls[fi].push(n as u32);
        }
    }
    calls
}

/// The functions whose address is taken anywhere (bodies and global
/// initialisers), sorted: what a call through a pointer, unknown code or a
/// callback library call may reach.
fn address_taken(prog: &Program, locs: &Locs, scans: &[FuncScan]) -> Vec<u32> {
    let mut taken: Vec<u32> = scans.iter().flat_map(|s| s.taken.iter().copied()).collect();
    for g in &prog.globals {
        for init in &g.init {
            for v in &init.values {
                if let Rvalue::Function(f) = v {
                    if let Some(&i) = locs.func_index.get(f) {
                        taken.push(i);
                    }
                }
            }
        }
    }
    taken.sort();
    taken.dedup();
    taken
}

/// The calls of the functions marked in `funcs`, from their bodies alone:
/// (caller, call statement, callee, through a pointer). A direct call
/// names its callee; a call through a pointer, to unknown code or to a
/// library function that takes callbacks may reach every address-taken
/// function. What a partial run answers for the functions it did not
/// finish (`query.rs`): sound for any context, whatever the budget cut.
pub fn static_call_edges(
    prog: &Program,
    locs: &Locs,
    scans: &[FuncScan],
    funcs: &[bool],
) -> Vec<(u32, StmtId, u32, bool)> {
    let taken = address_taken(prog, locs, scans);
    let mut out = Vec::new();
    for (fi, f) in prog.functions.iter().enumerate() {
        if !funcs.get(fi).copied().unwrap_or(false) {
            continue;
        }
        pointee_ir::for_each_basic(&f.body, &mut |stmt, b| {
            let Basic::Call { callee, .. } = b else {
                return;
            };
            let reach_any = match callee {
                Callee::Direct(n) => match locs.func_index.get(n) {
                    Some(&c) => {
                        out.push((fi as u32, stmt, c, false));
                        false
                    }
                    None => {
                        !library::is_alias_check(n)
                            && matches!(library::effect(n), None | Some(Effect::Callback { .. }))
                    }
                },
                Callee::Indirect(_) | Callee::Virtual { .. } => true,
            };
            if reach_any {
                out.extend(taken.iter().map(|&c| (fi as u32, stmt, c, true)));
            }
        });
    }
    out
}

/// The functions `seeds` (or anything they may call, through function
/// pointers and unknown code too) may call, seeds included.
pub fn callable_from(prog: &Program, locs: &Locs, scans: &[FuncScan], seeds: &[bool]) -> Vec<bool> {
    let calls = call_graph(prog, locs, scans);
    let mut seen = vec![false; calls.len()];
    let mut work: Vec<usize> = (0..seeds.len()).filter(|&f| seeds[f]).collect();
    for &f in &work {
        seen[f] = true;
    }
    while let Some(f) = work.pop() {
        for &c in &calls[f] {
            if !std::mem::replace(&mut seen[c as usize], true) {
                work.push(c as usize);
            }
        }
    }
    seen.truncate(prog.functions.len());
    seen
}

/// The nodes on a cycle of a graph (a strongly connected component of
/// more than one node, or a self-loop), each node's component and each
/// component's size: Tarjan's algorithm, iteratively.
fn cyclic_nodes(succ: &[Vec<u32>]) -> (Vec<bool>, Vec<u32>, Vec<u32>) {
    let n = succ.len();
    let mut comp_of = vec![0u32; n];
    let mut sizes: Vec<u32> = Vec::new();
    let mut index = vec![u32::MAX; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut out = vec![false; n];
    let mut next = 0u32;
    for root in 0..n {
        if index[root] != u32::MAX {
            continue;
        }
        // (node, next successor to visit)
        let mut work: Vec<(u32, usize)> = vec![(root as u32, 0)];
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root as u32);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = work.last_mut() {
            let v = v as usize;
            if let Some(&w) = succ[v].get(*i) {
                *i += 1;
                let w = w as usize;
                if w == v {
                    out[v] = true;
                }
                if index[w] == u32::MAX {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w as u32);
                    on_stack[w] = true;
                    work.push((w as u32, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(p, _)) = work.last() {
                low[p as usize] = low[p as usize].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                loop {
                    let w = stack.pop().unwrap() as usize;
                    on_stack[w] = false;
                    comp.push(w);
                    if w == v {
                        break;
                    }
                }
                let id = sizes.len() as u32;
                sizes.push(comp.len() as u32);
                for &w in &comp {
                    comp_of[w] = id;
                    if comp.len() > 1 {
                        out[w] = true;
                    }
                }
            }
        }
    }
    (out, comp_of, sizes)
}
