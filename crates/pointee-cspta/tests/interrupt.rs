//! The solver's interrupt: a solve asks it every so many worklist steps and
//! stops when it answers true (an editor's newer edit); one it never stops
//! is the plain run.

mod common;

use common::gen;
use pointee_cspta::{Analysis, Interrupted, Variant};
use std::cell::Cell;

fn program() -> pointee_java::JavaProgram {
    pointee_java::lower(&[("Main.java", &gen::large(25, 6, 9))])
}

#[test]
fn a_solve_stops_when_its_interrupt_answers_true() {
    let jp = program();
    let roots = common::roots(&jp);
    for v in ["ci", "2-obj", "2-type", "1-call"] {
        let asked = Cell::new(0u32);
        let stop_at_third = || {
            asked.set(asked.get() + 1);
            asked.get() == 3
        };
        let run = Analysis::run_interruptible(
            &jp.program,
            &roots,
            Variant::parse(v).unwrap(),
            &stop_at_third,
        );
        assert!(matches!(run, Err(Interrupted)), "{v}");
        assert_eq!(asked.get(), 3, "{v}: asked until it answered true");
    }
}

#[test]
fn a_solve_never_interrupted_is_the_plain_run() {
    let jp = program();
    let roots = common::roots(&jp);
    for v in ["ci", "2-obj", "2-type", "1-call"] {
        let variant = Variant::parse(v).unwrap();
        let asked = Cell::new(0u32);
        let never = || {
            asked.set(asked.get() + 1);
            false
        };
        let a = Analysis::run_interruptible(&jp.program, &roots, variant, &never).unwrap();
        assert!(asked.get() > 0, "{v}: the solve looked at its interrupt");
        let b = Analysis::run(&jp.program, &roots, variant);
        assert!(a.facts_text() == b.facts_text(), "{v}");
    }
}
