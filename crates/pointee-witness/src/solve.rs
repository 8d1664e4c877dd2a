//! The path condition of a witness, decided by Z3.
//!
//! Lazy initialisation gives each input pointer a value when it is first
//! read: NULL or one of the input's objects. As in the seed's symbolic
//! heaps, the path condition is the conjunction of these choices as
//! (dis)equalities over addresses: every object has an address that is not
//! NULL (0) and differs from every other object's (the separating
//! conjunction of their points-to facts), and each input pointer equals
//! NULL or its object's address. Z3 decides it and gives the addresses of
//! a model.
//!
//! Integer cells join as their own question ([`integers`]): the input's
//! integers are Z3 constants, the path's integer branches the facts over
//! them (pointers and integers never mix, so the two are decided apart).
//!
//! Never does I/O.

use pointee_ir::{CmpOp, IntOp};
use std::rc::Rc;
use z3::ast::{Ast, Bool, Int};
use z3::{SatResult, Solver};

/// A symbolic integer of a path: a constant, the value of the input's
/// integer cell number `k`, or arithmetic on them (C's and Java's:
/// division truncates).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Num {
    Const(i64),
    Input(usize),
    Bin(Rc<Num>, IntOp, Rc<Num>),
}

impl Num {
    /// `a op b`, folded when both are constants (`None`: the operation
    /// overflows or divides by zero, so its value is not modelled).
    pub fn bin(a: Rc<Num>, op: IntOp, b: Rc<Num>) -> Option<Rc<Num>> {
        if let (Num::Const(x), Num::Const(y)) = (&*a, &*b) {
            let v = match op {
                IntOp::Add => x.checked_add(*y),
                IntOp::Sub => x.checked_sub(*y),
                IntOp::Mul => x.checked_mul(*y),
                IntOp::Div => x.checked_div(*y),
                IntOp::Rem => x.checked_rem(*y),
            }?;
            return Some(Rc::new(Num::Const(v)));
        }
        Some(Rc::new(Num::Bin(a, op, b)))
    }
}

/// An integer branch the path took: `a op b` holds.
pub type IntFact = (Rc<Num>, CmpOp, Rc<Num>);

/// The values of `inputs` integer inputs in a model of `facts` (each input
/// within a C `int`'s range), or `None` when unsatisfiable.
pub fn integers(inputs: usize, facts: &[IntFact]) -> Option<Vec<i64>> {
    thread_local! {
        static SOLVER: Solver = Solver::new_for_logic("QF_NIA").unwrap_or_default();
    }
    SOLVER.with(|solver| {
        solver.push();
        let answer = decide_integers(solver, inputs, facts);
        solver.pop(1);
        answer
    })
}

fn decide_integers(solver: &Solver, inputs: usize, facts: &[IntFact]) -> Option<Vec<i64>> {
    let vars: Vec<Int> = (0..inputs)
        .map(|k| Int::new_const(format!("i{k}")))
        .collect();
    let (lo, hi) = (
        Int::from_i64(i32::MIN.into()),
        Int::from_i64(i32::MAX.into()),
    );
    for v in &vars {
        solver.assert(v.ge(&lo));
        solver.assert(v.le(&hi));
    }
    for (a, op, b) in facts {
        let (a, b) = (term(a, &vars), term(b, &vars));
        let holds: Bool = match op {
            CmpOp::Eq => a.eq(&b),
            CmpOp::Ne => a.eq(&b).not(),
            CmpOp::Lt => a.lt(&b),
            CmpOp::Le => a.le(&b),
            CmpOp::Gt => a.gt(&b),
            CmpOp::Ge => a.ge(&b),
        };
        solver.assert(&holds);
    }
    if solver.check() != SatResult::Sat {
        return None;
    }
    let model = solver.get_model()?;
    vars.iter()
        .map(|v| model.eval(v, true).and_then(|x| x.as_i64()))
        .collect()
}

/// The Z3 term of a symbolic integer.
fn term(n: &Num, vars: &[Int]) -> Int {
    match n {
        Num::Const(k) => Int::from_i64(*k),
        Num::Input(k) => vars[*k].clone(),
        Num::Bin(a, op, b) => {
            let (a, b) = (term(a, vars), term(b, vars));
            match op {
                IntOp::Add => Int::add(&[&a, &b]),
                IntOp::Sub => Int::sub(&[&a, &b]),
                IntOp::Mul => Int::mul(&[&a, &b]),
                IntOp::Div => truncating_div(&a, &b),
                IntOp::Rem => {
                    let q = truncating_div(&a, &b);
                    Int::sub(&[&a, &Int::mul(&[&b, &q])])
                }
            }
        }
    }
}

/// C's `a / b` (rounds toward zero; Z3's `div` rounds down): the
/// quotient of the magnitudes, with the sign of the operands'.
fn truncating_div(a: &Int, b: &Int) -> Int {
    let zero = Int::from_i64(0);
    let abs = |x: &Int| x.ge(&zero).ite(x, &x.unary_minus());
    let q = abs(a).div(abs(b));
    a.ge(&zero).eq(b.ge(&zero)).ite(&q, &q.unary_minus())
}

/// One input pointer's choice: NULL, or the object with this index.
pub type Choice = Option<usize>;

/// Decides the path condition of `choices` over `objects` objects, with
/// the pairs of values the precondition says differ (`x != y`): the
/// address of each object in a model, or `None` when unsatisfiable.
pub fn addresses(
    objects: usize,
    choices: &[Choice],
    distinct: &[(Choice, Choice)],
) -> Option<Vec<i64>> {
    thread_local! {
        // Making a solver costs tens of milliseconds; one per thread is
        // reset for each question.
        static SOLVER: Solver = Solver::new_for_logic("QF_LIA").unwrap_or_default();
    }
    SOLVER.with(|solver| {
        solver.push();
        let answer = decide(solver, objects, choices, distinct);
        solver.pop(1);
        answer
    })
}

fn decide(
    solver: &Solver,
    objects: usize,
    choices: &[Choice],
    distinct: &[(Choice, Choice)],
) -> Option<Vec<i64>> {
    let addr: Vec<Int> = (0..objects)
        .map(|k| Int::new_const(format!("o{}", k + 1)))
        .collect();
    let null = Int::from_i64(0);
    for a in &addr {
        solver.assert(a.gt(&null));
    }
    if addr.len() > 1 {
        solver.assert(Int::distinct(&addr));
    }
    for (i, c) in choices.iter().enumerate() {
        let v = Int::new_const(format!("p{i}"));
        match c {
            None => solver.assert(v.eq(&null)),
            Some(k) => solver.assert(v.eq(&addr[*k])),
        }
    }
    let value = |c: &Choice| match c {
        None => null.clone(),
        Some(k) => addr[*k].clone(),
    };
    for (a, b) in distinct {
        solver.assert(value(a).eq(value(b)).not());
    }
    if solver.check() != SatResult::Sat {
        return None;
    }
    let model = solver.get_model()?;
    addr.iter()
        .map(|a| model.eval(a, true).and_then(|v| v.as_i64()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn objects_get_distinct_non_null_addresses() {
        let a = addresses(3, &[None, Some(0), Some(2), Some(0)], &[]).unwrap();
        assert_eq!(a.len(), 3);
        assert!(a.iter().all(|&x| x > 0));
        assert!(a[0] != a[1] && a[1] != a[2] && a[0] != a[2]);
    }

    #[test]
    fn no_objects_is_satisfiable() {
        assert_eq!(addresses(0, &[None, None], &[]), Some(Vec::new()));
    }

    fn num(k: i64) -> Rc<Num> {
        Rc::new(Num::Const(k))
    }

    #[test]
    fn integer_facts_give_a_model_or_none() {
        let x = Rc::new(Num::Input(0));
        let sum = Num::bin(x.clone(), IntOp::Add, num(3)).unwrap();
        let m = integers(1, &[(sum.clone(), CmpOp::Gt, num(9))]).unwrap();
        assert!(m[0] + 3 > 9, "{m:?}");
        let both = [
            (sum.clone(), CmpOp::Gt, num(9)),
            (x.clone(), CmpOp::Le, num(6)),
        ];
        assert_eq!(integers(1, &both), None);
    }

    #[test]
    fn division_truncates_toward_zero_as_in_c() {
        let x = Rc::new(Num::Input(0));
        let q = Num::bin(x.clone(), IntOp::Div, num(10)).unwrap();
        let r = Num::bin(x.clone(), IntOp::Rem, num(10)).unwrap();
        let facts = [
            (x.clone(), CmpOp::Eq, num(-17)),
            (q, CmpOp::Eq, num(-1)),
            (r, CmpOp::Eq, num(-7)),
        ];
        assert_eq!(integers(1, &facts), Some(vec![-17]));
        assert_eq!(Num::bin(num(-17), IntOp::Div, num(10)), Some(num(-1)));
        assert_eq!(Num::bin(num(1), IntOp::Div, num(0)), None);
    }

    #[test]
    fn a_value_that_must_differ_from_null_cannot_be_null() {
        assert_eq!(addresses(1, &[None], &[(None, None)]), None);
        assert!(addresses(1, &[Some(0)], &[(Some(0), None)]).is_some());
    }
}
