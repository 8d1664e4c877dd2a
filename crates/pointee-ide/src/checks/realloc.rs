//! The failure branch of `realloc`: `t = realloc(p, n); if (!t) { free(p);
//! ... }`. The engine frees `p`'s block possibly at every `realloc` (the
//! block moves only sometimes) and cannot tie that to the result's NULL
//! test; where the result was tested NULL, `realloc` failed and freed
//! nothing, so `p` there is not "may be freed" by it. This pass finds the
//! statements of such a branch, from its start to its first call (a `free`
//! of `p` there is the idiom; after it, `p` is freed for real), while `p`
//! is not assigned.

use pointee_ir::{Base, Basic, Callee, Cond, Function, Place, Rvalue, Stmt, StmtId};

/// True when `at` lies at the start of the branch where the result of a
/// `realloc(ptr, ..)` just before it was tested NULL, before any call but
/// `at` itself and any assignment of `ptr`.
pub(crate) fn in_failed_realloc(f: &Function, at: StmtId, ptr: &Place) -> bool {
    !ptr.deref && search(&f.body, at, ptr)
}

fn search(block: &[Stmt], at: StmtId, ptr: &Place) -> bool {
    block.iter().enumerate().any(|(i, s)| match s {
        Stmt::Basic(_, b) => {
            realloc_result(b, ptr).is_some_and(|t| after(&block[i + 1..], t, at, ptr))
        }
        Stmt::If {
            then_branch,
            else_branch,
            ..
        } => search(then_branch, at, ptr) || search(else_branch, at, ptr),
        Stmt::Loop { body } => search(body, at, ptr),
        Stmt::Switch { arms, .. } => arms.iter().any(|a| search(a, at, ptr)),
        _ => false,
    })
}

/// The variable `b` stores `realloc(ptr, ..)`'s result in.
fn realloc_result(b: &Basic, ptr: &Place) -> Option<u32> {
    match b {
        Basic::Call {
            lhs: Some(lhs),
            callee: Callee::Direct(n),
            args,
            ..
        } if &**n == "realloc" && matches!(args.first(), Some(Rvalue::Use(p)) if p == ptr) => {
            var(lhs)
        }
        _ => None,
    }
}

fn var(p: &Place) -> Option<u32> {
    match (&p.base, p.deref, p.path.is_empty()) {
        (Base::Var(v), false, true) => Some(v.0),
        _ => None,
    }
}

/// The statements after the `realloc` whose result is in `t`: copies of
/// the result and reads, then the test.
fn after(rest: &[Stmt], t: u32, at: StmtId, ptr: &Place) -> bool {
    let mut results = vec![t];
    for s in rest {
        match s {
            Stmt::Basic(
                _,
                Basic::Assign {
                    lhs,
                    rhs: Rvalue::Use(src),
                },
            ) if var(src).is_some_and(|v| results.contains(&v)) && lhs != ptr => {
                if let Some(x) = var(lhs) {
                    results.push(x);
                } else {
                    return false;
                }
            }
            Stmt::Basic(_, Basic::Use(_)) => {}
            Stmt::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let failed = match cond {
                    Cond::IsNull(p) if var(p).is_some_and(|v| results.contains(&v)) => then_branch,
                    Cond::NotNull(p) if var(p).is_some_and(|v| results.contains(&v)) => else_branch,
                    _ => return false,
                };
                return branch_start(failed, at, ptr);
            }
            _ => return false,
        }
    }
    false
}

/// `at` is in the straight-line start of `branch`, up to its first call,
/// before any assignment of `ptr`.
fn branch_start(branch: &[Stmt], at: StmtId, ptr: &Place) -> bool {
    for s in branch {
        let Stmt::Basic(id, b) = s else { return false };
        if *id == at {
            return true;
        }
        let assigns = match b {
            Basic::Assign { lhs, .. } => lhs.base == ptr.base,
            Basic::Call { lhs, .. } => lhs.as_ref().is_some_and(|l| l.base == ptr.base),
            Basic::Use(_) => false,
        };
        if assigns || matches!(b, Basic::Call { .. }) {
            return false;
        }
    }
    false
}
