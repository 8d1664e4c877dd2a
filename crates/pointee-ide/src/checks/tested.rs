//! Re-loads of a tested place: `if (z->f) z->f->g`. The front end loads
//! each `z->f` into its own temporary, and the engine refines a branch only
//! for a place with one definite location that is not a summary, so when
//! `z` points into an array tail or a heap summary the use still "may be
//! NULL". At run time `z` holds one address, though: when nothing between
//! the test and the re-load can change `z` or the memory it reads (only
//! assignments to the front end's temporaries, which have no address), the
//! re-loaded value is the tested one. This pass finds such temporaries so
//! the memory checker does not report them as NULL.

use pointee_ir::{Base, Basic, Cond, Function, Place, Rvalue, Sel, Stmt, StmtId, VarId, VarKind};

/// True when the pointer `ptr` used at `at` is a temporary loaded, with
/// nothing in between that could change it, from a place that the
/// enclosing branch tested to be non-NULL.
pub(crate) fn tested_non_null(f: &Function, at: StmtId, ptr: &Place) -> bool {
    let Base::Var(t) = ptr.base else {
        return false;
    };
    if ptr.deref || !ptr.path.is_empty() || f.var(t).kind != VarKind::Temp {
        return false;
    }
    let mut state = Known::default();
    walk(f, &f.body, at, &mut state) == Some(true) && state.non_null.contains(&t)
}

/// What holds at a point of the walk.
#[derive(Clone, Default)]
struct Known {
    /// Places a branch tested non-NULL, unchanged since.
    tested: Vec<Place>,
    /// Temporaries loaded from one of those places, not assigned since.
    non_null: Vec<VarId>,
}

impl Known {
    fn forget(&mut self) {
        self.tested.clear();
        self.non_null.clear();
    }
}

/// Walks `block` up to the statement `at`: `Some(true)` when found (with
/// `state` as it holds just before it), `None` when not in this block
/// (with `state` as it holds at the block's end).
fn walk(f: &Function, block: &[Stmt], at: StmtId, state: &mut Known) -> Option<bool> {
    for s in block {
        match s {
            Stmt::Basic(id, _) if *id == at => return Some(true),
            Stmt::Basic(_, b) => step(f, b, state),
            Stmt::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let mut ends = Vec::new();
                for (branch, taken) in [(then_branch, true), (else_branch, false)] {
                    let mut inner = state.clone();
                    holds(cond, taken, &mut inner.tested);
                    if walk(f, branch, at, &mut inner).is_some() {
                        *state = inner;
                        return Some(true);
                    }
                    if falls_through(branch) {
                        ends.push(inner);
                    }
                }
                // `if (!p->f) return;`: what follows is reached only from
                // the branch that falls through; from both, keep nothing.
                match ends.len() {
                    1 => *state = ends.remove(0),
                    _ => state.forget(),
                }
            }
            Stmt::Loop { body } => {
                // The loop's head is also reached from its end.
                let mut inner = Known::default();
                if walk(f, body, at, &mut inner).is_some() {
                    *state = inner;
                    return Some(true);
                }
                state.forget();
            }
            Stmt::Switch { arms, .. } => {
                for arm in arms {
                    let mut inner = Known::default();
                    if walk(f, arm, at, &mut inner).is_some() {
                        *state = inner;
                        return Some(true);
                    }
                }
                state.forget();
            }
            // A label is reached from its gotos too.
            Stmt::Label(_) => state.forget(),
            Stmt::Break | Stmt::Continue | Stmt::Return | Stmt::Goto(_) => {}
        }
    }
    None
}

/// False when the block ends in a jump (`return`, `break`, `continue`,
/// `goto`), so control never leaves it at its end.
fn falls_through(block: &[Stmt]) -> bool {
    !matches!(
        block.last(),
        Some(Stmt::Return | Stmt::Break | Stmt::Continue | Stmt::Goto(_))
    )
}

/// The effect of one statement on what is known.
fn step(f: &Function, b: &Basic, state: &mut Known) {
    match b {
        Basic::Assign { lhs, rhs } => match plain_temp(f, lhs) {
            Some(t) => {
                state.non_null.retain(|&v| v != t);
                state.tested.retain(|p| p.base != Base::Var(t));
                if matches!(rhs, Rvalue::Use(p) if state.tested.contains(p)) {
                    state.non_null.push(t);
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
                state.non_null.retain(|x| x != v);
            }
        }
        Basic::Use(_) => {}
    }
}

/// A front-end temporary assigned as a whole.
fn plain_temp(f: &Function, p: &Place) -> Option<VarId> {
    match p.base {
        Base::Var(v) if !p.deref && p.path.is_empty() && f.var(v).kind == VarKind::Temp => Some(v),
        _ => None,
    }
}

/// The places `cond` says are non-NULL where it is `taken` (or not). A
/// place with an element selector is left out: `a[i].f` and `a[j].f` are
/// one place in the IR.
fn holds(cond: &Cond, taken: bool, out: &mut Vec<Place>) {
    match (cond, taken) {
        (Cond::NotNull(p), true) | (Cond::IsNull(p), false)
            if !p.path.iter().any(|s| matches!(s, Sel::Index(_))) =>
        {
            out.push(p.clone());
        }
        (Cond::And(a, b), true) | (Cond::Or(a, b), false) => {
            holds(a, taken, out);
            holds(b, taken, out);
        }
        _ => {}
    }
}
