//! The structured walker (Figure 1's compositional rules): sequence, if,
//! loop, switch, break, continue, return, labels and gotos. Calls are handed
//! to the interprocedural solver through [`Hooks`].

use crate::facts::{merge_into, merge_state, state_leq, Facts, State};
use crate::loc::{LocId, Locs};
use crate::transfer::{self, Scope};
use pointee_ir::{Basic, Block, Function, Point, Stmt, StmtId};

pub(crate) trait Hooks {
    fn locs(&mut self) -> &mut Locs;
    /// A call statement: returns the state after it.
    fn call(&mut self, st: Facts, stmt: StmtId, call: &Basic) -> State;
    /// Sees the state before and after every basic statement it reaches.
    fn observe(&mut self, _point: Point, _st: &Facts) {}
    fn observing(&self) -> bool {
        false
    }
    /// Sees the state before every basic statement reached, for the
    /// checkers' values (`sites.rs`).
    fn site(&mut self, _sc: Scope, _stmt: StmtId, _st: &Facts) {}
    /// The body stored through `unknown`.
    fn wild_store(&mut self) {}
    /// The body wrote into a symbolic location (a callee, a library
    /// effect: values not recorded).
    fn wrote_symbolic(&mut self) {}
    /// A basic statement is about to be transferred (the budget's clock);
    /// `false`: the body is given up, the rest of it gives bottom (the
    /// caller drops its result: `budget.rs`).
    fn tick(&mut self) -> bool {
        true
    }
    /// The body is given up (`tick` said so): the walk ends, every
    /// statement left gives bottom.
    fn given_up(&self) -> bool {
        false
    }
    /// An assignment of the body stored these (name root, value) pairs
    /// into symbolic locations.
    fn stored_symbolic(&mut self, _stored: &[(LocId, LocId)]) {}
}

pub(crate) struct Walker<'a> {
    pub sc: Scope<'a>,
    /// `Function::overwrites`.
    overwrites: &'a [StmtId],
    labels: Vec<State>,
    label_changed: bool,
    ret: State,
    brk: Vec<State>,
    cont: Vec<State>,
}

impl<'a> Walker<'a> {
    pub fn new(sc: Scope<'a>, func: &'a Function) -> Walker<'a> {
        Walker {
            sc,
            overwrites: &func.overwrites,
            labels: vec![None; func.labels as usize],
            label_changed: false,
            ret: None,
            brk: Vec::new(),
            cont: Vec::new(),
        }
    }

    /// The state at the function's exit (returns and falling off the end).
    pub fn run<H: Hooks>(&mut self, h: &mut H, func: &Function, entry: Facts) -> State {
        loop {
            self.label_changed = false;
            let out = self.block(h, &func.body, Some(entry.clone()));
            if h.given_up() {
                return None;
            }
            merge_into(&mut self.ret, &out);
            if !self.label_changed {
                return self.ret.take();
            }
        }
    }

    fn block<H: Hooks>(&mut self, h: &mut H, block: &Block, mut st: State) -> State {
        for s in block {
            st = self.stmt(h, s, st);
        }
        st
    }

    fn stmt<H: Hooks>(&mut self, h: &mut H, s: &Stmt, st: State) -> State {
        if h.given_up() {
            // Every statement gives bottom, labels and loops too: a
            // label's state from before would walk on (lvm.c went on for
            // 77 s past its memory ceiling, cloning states at labels).
            return None;
        }
        match s {
            Stmt::Basic(id, b) => {
                let mut st = st?;
                if !h.tick() {
                    return None;
                }
                if h.observing() {
                    h.observe(Point::Before(*id), &st);
                }
                h.site(self.sc, *id, &st);
                let out = match b {
                    Basic::Assign { lhs, rhs } => {
                        let over = self.overwrites.binary_search(id).is_ok();
                        let wrote = transfer::assign(h.locs(), &mut st, self.sc, lhs, rhs, over);
                        if wrote.wild {
                            h.wild_store();
                        }
                        if wrote.symbolic {
                            h.stored_symbolic(&wrote.stored);
                        }
                        Some(st)
                    }
                    Basic::Call { .. } => h.call(st, *id, b),
                    Basic::Use(_) => Some(st),
                };
                if let (Some(o), true) = (&out, h.observing()) {
                    h.observe(Point::After(*id), o);
                }
                out
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let (t, e) = match st {
                    Some(st) => {
                        let t = transfer::refine(h.locs(), st.clone(), self.sc, cond, true);
                        let e = transfer::refine(h.locs(), st, self.sc, cond, false);
                        (t, e)
                    }
                    None => (None, None),
                };
                let t = self.block(h, then_branch, t);
                let e = self.block(h, else_branch, e);
                merge_state(t, &e)
            }
            Stmt::Loop { body } => {
                let mut input = st;
                loop {
                    self.brk.push(None);
                    self.cont.push(None);
                    let out = self.block(h, body, input.clone());
                    let brk = self.brk.pop().unwrap();
                    let cont = self.cont.pop().unwrap();
                    if h.given_up() {
                        return None;
                    }
                    let next = merge_state(merge_state(input.clone(), &out), &cont);
                    if next == input {
                        return brk;
                    }
                    input = next;
                }
            }
            Stmt::Switch { arms, has_default } => {
                self.brk.push(None);
                let mut fall: State = None;
                for arm in arms {
                    let entry = merge_state(st.clone(), &fall);
                    fall = self.block(h, arm, entry);
                }
                let brk = self.brk.pop().unwrap();
                let mut out = merge_state(fall, &brk);
                if !has_default {
                    merge_into(&mut out, &st);
                }
                out
            }
            Stmt::Break => {
                if let Some(b) = self.brk.last_mut() {
                    merge_into(b, &st);
                }
                None
            }
            Stmt::Continue => {
                if let Some(c) = self.cont.last_mut() {
                    merge_into(c, &st);
                }
                None
            }
            Stmt::Return => {
                merge_into(&mut self.ret, &st);
                None
            }
            Stmt::Label(l) => {
                let at = self.labels.get(l.0 as usize).cloned().flatten();
                merge_state(st, &at)
            }
            Stmt::Goto(l) => {
                if let Some(slot) = self.labels.get_mut(l.0 as usize) {
                    // Compared, not copied: a label's state may be large
                    // and a body may jump to it from many places.
                    if !state_leq(&st, slot) {
                        merge_into(slot, &st);
                        self.label_changed = true;
                    }
                }
                None
            }
        }
    }
}
