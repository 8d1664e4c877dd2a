//! Where a Java variable is known not to be `null` because a test said so
//! (`if (x != null) x.f()`, `if (x == null) return; x.f()`,
//! `while (x != null) { ... }`, `x != null && x.f != null`): the Java
//! checkers skip a `null-deref` there. The analysis is flow-insensitive;
//! this is a walk over the method's structured body with the null tests
//! the front end keeps in `Cond`. A variable stops being known at any
//! assignment to it; a loop forgets, on entry, every variable its body
//! assigns.

use pointee_ir::{Base, Basic, Cond, Function, Place, Rvalue, Sel, Stmt, StmtId};
use std::collections::{HashMap, HashSet};

/// One thing known along a path.
#[derive(Clone, Debug, PartialEq)]
enum Key {
    /// The variable is not null.
    Var(u32),
    /// The field path `v.path` is not null (its value, loaded again, is
    /// the tested one while no call, store or assignment of `v` runs).
    Field(u32, Vec<Sel>),
    /// The variable holds the value of `v.path` now.
    Load(u32, u32, Vec<Sel>),
}

impl Key {
    fn mentions(&self, x: u32) -> bool {
        match self {
            Key::Var(v) | Key::Field(v, _) => *v == x,
            Key::Load(t, v, _) => *t == x || *v == x,
        }
    }
}

/// For each statement, the variables known not null just before it (only
/// statements with some).
pub(crate) fn not_null_before(f: &Function) -> HashMap<StmtId, Vec<u32>> {
    let mut out = HashMap::new();
    walk(&f.body, Vec::new(), &mut out);
    out
}

/// Walks `block` from what is `known`; returns what is known where it
/// falls through (`None`: it never does).
fn walk(block: &[Stmt], known: Vec<Key>, out: &mut HashMap<StmtId, Vec<u32>>) -> Option<Vec<Key>> {
    let mut known = Some(known);
    for s in block {
        // Code after a jump is reached only through a label (C) or not at
        // all: nothing is known there.
        let k = known.take().unwrap_or_default();
        known = match s {
            Stmt::Basic(id, b) => {
                let vars: Vec<u32> = k
                    .iter()
                    .filter_map(|x| match x {
                        Key::Var(v) => Some(*v),
                        _ => None,
                    })
                    .collect();
                if !vars.is_empty() {
                    out.insert(*id, vars);
                }
                Some(step(k, b))
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let then_k = walk(then_branch, tested(&k, cond, true), out);
                let else_k = walk(else_branch, tested(&k, cond, false), out);
                match (then_k, else_k) {
                    (Some(a), Some(b)) => Some(merge(a, b, then_branch, else_branch)),
                    (a, b) => a.or(b),
                }
            }
            Stmt::Loop { body } => {
                let k = unchanged(k, &[body]);
                walk(body, k.clone(), out);
                Some(k)
            }
            Stmt::Switch { arms, .. } => {
                let blocks: Vec<&[Stmt]> = arms.iter().map(|a| &a[..]).collect();
                let k = unchanged(k, &blocks);
                for a in arms {
                    walk(a, k.clone(), out);
                }
                Some(k)
            }
            Stmt::Break | Stmt::Continue | Stmt::Return | Stmt::Goto(_) => None,
            Stmt::Label(_) => Some(Vec::new()),
        };
    }
    known
}

/// What is known after both sides of an `If`: what both know, and a load
/// one side made (`t = v.f`, the right operand's effects of `a && b`) that
/// the other leaves alone (assigns neither `t` nor `v`, makes no call or
/// store): where `t` is tested later, the loading side ran.
fn merge(a: Vec<Key>, b: Vec<Key>, a_block: &[Stmt], b_block: &[Stmt]) -> Vec<Key> {
    let one_sided = |k: &Key, other: &[Key], block: &[Stmt]| {
        matches!(k, Key::Load(..))
            && !other.contains(k)
            && unchanged(vec![k.clone()], &[block]).len() == 1
    };
    let mut out: Vec<Key> = a
        .iter()
        .filter(|x| b.contains(x) || one_sided(x, &b, b_block))
        .cloned()
        .collect();
    out.extend(b.iter().filter(|x| one_sided(x, &a, a_block)).cloned());
    out
}

/// What stays known through a basic statement.
fn step(mut k: Vec<Key>, b: &Basic) -> Vec<Key> {
    let (lhs, rhs) = match b {
        Basic::Assign { lhs, rhs } => (Some(lhs), Some(rhs)),
        Basic::Call { lhs, .. } => (lhs.as_ref(), None),
        Basic::Use(_) => (None, None),
    };
    // A call or a store may change any field (an integer store, which the
    // lowering keeps for the witness, changes no reference).
    if matches!(b, Basic::Call { .. }) || (lhs.is_some_and(|l| l.deref) && !stores_integer(b)) {
        k.retain(|x| matches!(x, Key::Var(_)));
    }
    let Some(Base::Var(t)) = lhs.filter(|l| !l.deref).map(|l| l.base.clone()) else {
        return k;
    };
    k.retain(|x| !x.mentions(t.0));
    if let Some(Rvalue::Use(Place {
        base: Base::Var(v),
        deref: true,
        path,
    })) = rhs
    {
        if v.0 != t.0 {
            if k.contains(&Key::Field(v.0, path.clone())) {
                k.push(Key::Var(t.0));
            }
            k.push(Key::Load(t.0, v.0, path.clone()));
        }
    }
    k
}

/// `known` where `cond` is `holds`: its variables, and the fields they
/// were loaded from.
fn tested(known: &[Key], cond: &Cond, holds: bool) -> Vec<Key> {
    let mut k = known.to_vec();
    for v in implied(cond, holds) {
        let fields: Vec<Key> = known
            .iter()
            .filter_map(|x| match x {
                Key::Load(t, b, p) if *t == v => Some(Key::Field(*b, p.clone())),
                _ => None,
            })
            .collect();
        for x in std::iter::once(Key::Var(v)).chain(fields) {
            if !k.contains(&x) {
                k.push(x);
            }
        }
    }
    k
}

/// `known` without what the blocks may change (a loop's body runs again,
/// a switch's arms fall through).
fn unchanged(known: Vec<Key>, blocks: &[&[Stmt]]) -> Vec<Key> {
    let mut changed = HashSet::new();
    let mut writes = false;
    for b in blocks {
        pointee_ir::for_each_basic(b, &mut |_, b| {
            if let Some(v) = assigned(b) {
                changed.insert(v);
            }
            writes |= !matches!(b, Basic::Use(_)) && assigned(b).is_none() && !stores_integer(b);
            writes |= matches!(b, Basic::Call { .. });
        });
    }
    known
        .into_iter()
        .filter(|x| !changed.iter().any(|&v| x.mentions(v)))
        .filter(|x| !writes || matches!(x, Key::Var(_)))
        .collect()
}

fn union(a: Vec<u32>, b: Vec<u32>) -> Vec<u32> {
    let mut a = a;
    for v in b {
        if !a.contains(&v) {
            a.push(v);
        }
    }
    a
}

/// The variables `cond` says are not null where it is `holds`.
fn implied(cond: &Cond, holds: bool) -> Vec<u32> {
    let var = |p: &Place| match (&p.base, p.deref, p.path.is_empty()) {
        (Base::Var(v), false, true) => vec![v.0],
        _ => Vec::new(),
    };
    match (cond, holds) {
        (Cond::NotNull(p), true) | (Cond::IsNull(p), false) => var(p),
        (Cond::And(a, b), true) | (Cond::Or(a, b), false) => {
            union(implied(a, holds), implied(b, holds))
        }
        (Cond::And(a, b), false) | (Cond::Or(a, b), true) => {
            let b = implied(b, holds);
            implied(a, holds)
                .into_iter()
                .filter(|x| b.contains(x))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// An assignment of an integer (`(*this).size = int (*this).size + 1`).
fn stores_integer(b: &Basic) -> bool {
    matches!(
        b,
        Basic::Assign {
            rhs: Rvalue::Int(_) | Rvalue::Scalar,
            ..
        }
    )
}

/// The variable a basic statement assigns.
fn assigned(b: &Basic) -> Option<u32> {
    let lhs = match b {
        Basic::Assign { lhs, .. } => Some(lhs),
        Basic::Call { lhs, .. } => lhs.as_ref(),
        Basic::Use(_) => None,
    }?;
    match (&lhs.base, lhs.deref) {
        (Base::Var(v), false) => Some(v.0),
        _ => None,
    }
}
