//! Re-loads and copies of a tested place: `if (z->f) z->f->g`,
//! `while (t->link != NULL) t = t->link;`. The front end loads each
//! `z->f` into its own temporary, and the engine refines a branch only for
//! a place with one definite location that is not a summary, so when `z`
//! points into an array tail or a heap summary the use still "may be
//! NULL". At run time `z` holds one address, though: when nothing between
//! the test and the re-load can change `z` or the memory it reads, the
//! re-loaded value is the tested one.
//!
//! This pass walks the function up to the use and keeps what must hold
//! there: the places a branch tested non-NULL (forgotten at any store
//! through a pointer, call or label, and at an assignment of their base),
//! and the plain variables (temporaries and locals whose address is never
//! taken, which only an assignment to them can change) that hold a tested
//! place's value, a tested variable's, or an address. A loop's head keeps
//! what holds on entry and on every way back (`continue`, the body's end),
//! computed to a fixpoint; after the loop, what holds at every `break`.
//! The memory checker does not report such a variable as NULL.

use pointee_ir::{
    for_each_basic, Base, Basic, Callee, Cond, Function, Place, Rvalue, Sel, Stmt, StmtId, VarId,
};

/// True when the pointer `ptr` used at `at` is a plain variable that holds,
/// on every path to `at`, a value a branch tested non-NULL (or an
/// address), with nothing in between that could change it.
pub(crate) fn tested_non_null(f: &Function, at: StmtId, ptr: &Place) -> bool {
    let Base::Var(v) = ptr.base else {
        return false;
    };
    let w = Walker::new(f);
    if ptr.deref || !ptr.path.is_empty() || !w.plain(v) {
        return false;
    }
    let mut state = Known::default();
    let found = w.walk(&f.body, Some(at), &mut state, &mut Jumps::default());
    found == End::Found && state.non_null.contains(&v)
}

/// What holds at a point of the walk.
#[derive(Clone, Default, PartialEq)]
struct Known {
    /// Places a branch tested non-NULL, unchanged since.
    tested: Vec<Place>,
    /// Plain variables known not to be NULL, not assigned since.
    non_null: Vec<VarId>,
}

impl Known {
    fn forget(&mut self) {
        self.tested.clear();
        self.non_null.clear();
    }

    /// What holds on both sides of a merge.
    fn meet(&mut self, other: &Known) {
        self.tested.retain(|p| other.tested.contains(p));
        self.non_null.retain(|v| other.non_null.contains(v));
    }
}

/// What holds where control leaves a block by a jump: at each `break`
/// and `continue` of the innermost loop.
#[derive(Default)]
struct Jumps {
    breaks: Vec<Known>,
    continues: Vec<Known>,
}

/// How a walk of a block ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// At the statement looked for (the state is the one just before it).
    Found,
    /// At the block's end.
    FallsThrough,
    /// In a jump: the block's end is not reached.
    Jumped,
}

struct Walker {
    /// Variables whose address the function takes (`&v`, an array `v`
    /// decaying to a pointer): a store through a pointer may change them.
    addressed: Vec<VarId>,
}

impl Walker {
    fn new(f: &Function) -> Self {
        let mut addressed = Vec::new();
        let mut note = |rv: &Rvalue| {
            if let Rvalue::AddrOf(p) | Rvalue::Offset(p, ..) = rv {
                if let (Base::Var(v), false) = (&p.base, p.deref) {
                    addressed.push(*v);
                }
            }
        };
        for_each_basic(&f.body, &mut |_, b| match b {
            Basic::Assign { rhs, .. } => note(rhs),
            Basic::Call { args, callee, .. } => {
                args.iter().for_each(&mut note);
                if let Callee::Indirect(p) = callee {
                    note(&Rvalue::AddrOf(p.clone()));
                }
            }
            Basic::Use(_) => {}
        });
        Walker { addressed }
    }

    /// A variable only an assignment to it can change.
    fn plain(&self, v: VarId) -> bool {
        !self.addressed.contains(&v)
    }

    /// A whole plain variable (`v`, not `*v` or `v.f`).
    fn plain_var(&self, p: &Place) -> Option<VarId> {
        match p.base {
            Base::Var(v) if !p.deref && p.path.is_empty() && self.plain(v) => Some(v),
            _ => None,
        }
    }

    /// Walks `block` (up to the statement `at`, when given), updating
    /// `state` and collecting the states at its jumps.
    fn walk(
        &self,
        block: &[Stmt],
        at: Option<StmtId>,
        state: &mut Known,
        jumps: &mut Jumps,
    ) -> End {
        for s in block {
            match s {
                Stmt::Basic(id, _) if Some(*id) == at => return End::Found,
                Stmt::Basic(_, b) => self.step(b, state),
                Stmt::If {
                    cond,
                    then_branch,
                    else_branch,
                } => {
                    let mut ends: Vec<Known> = Vec::new();
                    for (branch, taken) in [(then_branch, true), (else_branch, false)] {
                        let mut inner = state.clone();
                        self.holds(cond, taken, &mut inner);
                        match self.walk(branch, at, &mut inner, jumps) {
                            End::Found => {
                                *state = inner;
                                return End::Found;
                            }
                            End::FallsThrough => ends.push(inner),
                            End::Jumped => {}
                        }
                    }
                    // `if (!p->f) return;`: what follows is reached only
                    // from the branch that falls through.
                    let Some((first, rest)) = ends.split_first_mut() else {
                        return End::Jumped;
                    };
                    rest.iter().for_each(|e| first.meet(e));
                    *state = std::mem::take(first);
                }
                Stmt::Loop { body } => match self.walk_loop(body, at, state) {
                    End::Found => return End::Found,
                    End::Jumped => return End::Jumped,
                    End::FallsThrough => {}
                },
                Stmt::Switch { arms, .. } => {
                    for arm in arms {
                        let mut inner = Known::default();
                        let r = self.walk(arm, at, &mut inner, &mut Jumps::default());
                        if r == End::Found {
                            *state = inner;
                            return End::Found;
                        }
                    }
                    state.forget();
                }
                // A label is reached from its gotos too.
                Stmt::Label(_) => state.forget(),
                Stmt::Break => {
                    jumps.breaks.push(state.clone());
                    return End::Jumped;
                }
                Stmt::Continue => {
                    jumps.continues.push(state.clone());
                    return End::Jumped;
                }
                Stmt::Return | Stmt::Goto(_) => return End::Jumped,
            }
        }
        End::FallsThrough
    }

    /// A loop entered with `state`: its head holds what holds on entry and
    /// on every way back, computed to a fixpoint (each round can only drop
    /// facts); after it, what holds at every `break`. A loop with a jump
    /// the walk does not follow (a `goto`, a label, a `continue` inside a
    /// `switch`) starts from nothing and ends with nothing.
    fn walk_loop(&self, body: &[Stmt], at: Option<StmtId>, state: &mut Known) -> End {
        let followed = follows_jumps(body, false);
        let mut head = if followed {
            state.clone()
        } else {
            Known::default()
        };
        if followed {
            loop {
                let mut end = head.clone();
                let mut jumps = Jumps::default();
                let mut back = match self.walk(body, None, &mut end, &mut jumps) {
                    End::FallsThrough => vec![end],
                    _ => Vec::new(),
                };
                back.append(&mut jumps.continues);
                let mut next = head.clone();
                back.iter().for_each(|b| next.meet(b));
                if next == head {
                    break;
                }
                head = next;
            }
        }
        let mut inner = head;
        let mut jumps = Jumps::default();
        if self.walk(body, at, &mut inner, &mut jumps) == End::Found {
            *state = inner;
            return End::Found;
        }
        if !followed {
            state.forget();
            return End::FallsThrough;
        }
        let Some((first, rest)) = jumps.breaks.split_first_mut() else {
            return End::Jumped; // never left but by `return` or `goto`
        };
        rest.iter().for_each(|b| first.meet(b));
        *state = std::mem::take(first);
        End::FallsThrough
    }

    /// The effect of one statement on what is known.
    fn step(&self, b: &Basic, state: &mut Known) {
        match b {
            Basic::Assign { lhs, rhs } => match self.plain_var(lhs) {
                Some(v) => {
                    // Decided before `v` changes: `t = t->link` copies the
                    // tested `t->link`.
                    let non_null = match rhs {
                        Rvalue::Use(q) | Rvalue::Cast(q, _) => {
                            state.tested.contains(q)
                                || self
                                    .plain_var(q)
                                    .is_some_and(|x| state.non_null.contains(&x))
                        }
                        Rvalue::AddrOf(_) | Rvalue::String(_) | Rvalue::Function(_) => true,
                        _ => false,
                    };
                    assigned(v, state);
                    if non_null {
                        state.non_null.push(v);
                    }
                }
                None => {
                    // May write memory a tested place reads (or its base).
                    state.tested.clear();
                    if let Base::Var(v) = lhs.base {
                        if !lhs.deref {
                            state.non_null.retain(|&x| x != v);
                        }
                    }
                }
            },
            Basic::Call { lhs, .. } => {
                state.tested.clear();
                if let Some(Place {
                    base: Base::Var(v),
                    deref: false,
                    ..
                }) = lhs
                {
                    assigned(*v, state);
                }
            }
            Basic::Use(_) => {}
        }
    }

    /// What `cond` says is non-NULL where it is `taken` (or not). A place
    /// with an element selector is left out: `a[i].f` and `a[j].f` are one
    /// place in the IR.
    fn holds(&self, cond: &Cond, taken: bool, state: &mut Known) {
        match (cond, taken) {
            (Cond::NotNull(p), true) | (Cond::IsNull(p), false)
                if !p.path.iter().any(|s| matches!(s, Sel::Index(_))) =>
            {
                match self.plain_var(p) {
                    Some(v) => state.non_null.push(v),
                    None => state.tested.push(p.clone()),
                }
            }
            (Cond::And(a, b), true) | (Cond::Or(a, b), false) => {
                self.holds(a, taken, state);
                self.holds(b, taken, state);
            }
            _ => {}
        }
    }
}

/// `v` is assigned: what was known of it, and of places read through it,
/// no longer holds.
fn assigned(v: VarId, state: &mut Known) {
    state.non_null.retain(|&x| x != v);
    state.tested.retain(|p| p.base != Base::Var(v));
}

/// False when `block` (a loop's body) has a jump the walk does not follow:
/// a `goto` or label anywhere, or a `continue` of this loop inside a
/// `switch` (whose arms the walk takes from nothing).
fn follows_jumps(block: &[Stmt], in_switch: bool) -> bool {
    block.iter().all(|s| match s {
        Stmt::If {
            then_branch,
            else_branch,
            ..
        } => follows_jumps(then_branch, in_switch) && follows_jumps(else_branch, in_switch),
        // A nested loop's `continue` is its own.
        Stmt::Loop { body } => follows_jumps(body, false),
        Stmt::Switch { arms, .. } => arms.iter().all(|a| follows_jumps(a, true)),
        Stmt::Continue => !in_switch,
        Stmt::Label(_) | Stmt::Goto(_) => false,
        Stmt::Basic(..) | Stmt::Break | Stmt::Return => true,
    })
}
