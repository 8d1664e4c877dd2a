//! `Settings::interrupt` stops a run: it unwinds with `Interrupted` when the
//! check says stop, and a check that never fires changes nothing.

use pointee_flow::{Interrupt, Interrupted, OwnedAnalysis, Settings};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

#[path = "../benches/common/mod.rs"]
mod generated;

fn program() -> Arc<pointee_ir::Program> {
    let text = generated::generate(1000, 42);
    Arc::new(pointee_c::lower(&[("gen.c", &text)]).unwrap().program)
}

#[test]
fn an_interrupt_that_fires_unwinds_with_interrupted() {
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let settings = Settings {
        // Stop at the first look.
        interrupt: Interrupt(Some(Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
            true
        }))),
        ..Settings::default()
    };
    let p = program();
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        OwnedAnalysis::run(p, settings)
    }));
    let payload = run.expect_err("the run stops");
    assert!(payload.is::<Interrupted>(), "unwound with another payload");
    assert_eq!(asked.load(Ordering::Relaxed), 1);
}

#[test]
fn an_interrupt_that_never_fires_changes_nothing() {
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let settings = Settings {
        interrupt: Interrupt(Some(Arc::new(move || {
            counter.fetch_add(1, Ordering::Relaxed);
            false
        }))),
        ..Settings::default()
    };
    let p = program();
    let mut with = OwnedAnalysis::run(p.clone(), settings);
    let mut without = OwnedAnalysis::run(p, Settings::default());
    assert!(asked.load(Ordering::Relaxed) > 0, "the run looked at it");
    let graph = |a: &mut OwnedAnalysis| a.with(|a| a.render_graph());
    assert_eq!(graph(&mut with), graph(&mut without));
}

/// The interrupt is asked inside a body, not only at calls: a body of
/// 3,000 assignments and no call (asked every 256 calls, it was never
/// asked) stops.
#[test]
fn a_long_body_without_calls_is_interrupted() {
    let mut text = String::from("int x; int *g;\nint main(void) { int *q = &x;\n");
    for _ in 0..3000 {
        text.push_str("  q = &x;\n");
    }
    text.push_str("  g = q; return 0; }\n");
    let p = Arc::new(pointee_c::lower(&[("long.c", &text)]).unwrap().program);
    let settings = Settings {
        interrupt: Interrupt(Some(Arc::new(|| true))),
        ..Settings::default()
    };
    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        OwnedAnalysis::run(p, settings)
    }));
    assert!(run.expect_err("the run stops").is::<Interrupted>());
}
