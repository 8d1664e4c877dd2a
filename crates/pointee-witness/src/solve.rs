//! The path condition of a witness, decided by Z3.
//!
//! Lazy initialisation gives each input pointer a value when it is first
//! read: NULL or one of the input's objects. As in the seed's symbolic
//! heaps, the path condition is the conjunction of these choices as
//! (dis)equalities over addresses: every object has an address that is not
//! NULL (0) and differs from every other object's (the separating
//! conjunction of their points-to facts), and each input pointer equals
//! NULL or its object's address. Z3 decides it and gives the addresses of
//! a model. Today every choice names its value outright, so such a
//! condition is always satisfiable; the solver is where the conditions of
//! integer branches and preconditions will join it.
//!
//! Never does I/O.

use z3::ast::{Ast, Int};
use z3::{SatResult, Solver};

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
    let solver = Solver::new();
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

    #[test]
    fn a_value_that_must_differ_from_null_cannot_be_null() {
        assert_eq!(addresses(1, &[None], &[(None, None)]), None);
        assert!(addresses(1, &[Some(0)], &[(Some(0), None)]).is_some());
    }
}
