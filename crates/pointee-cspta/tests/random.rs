//! On generated random programs, for every variant, the worklist solver's
//! solution equals the reference solver's (seed 003's rules iterated to a
//! fixed point).

mod common;

use common::gen;
use pointee_cspta::{Analysis, Variant};

#[test]
fn random_programs_match_the_reference_in_every_variant() {
    let mut fails = Vec::new();
    for seed in 0..40u64 {
        let classes = 2 + (seed as usize % 5);
        let stmts = 6 + (seed as usize % 3) * 3;
        let text = gen::random(seed, classes, stmts);
        let jp = pointee_java::lower(&[("Main.java", &text)]);
        let roots = common::roots(&jp);
        for v in Variant::ALL {
            let a = Analysis::run(&jp.program, &roots, Variant::parse(v).unwrap());
            let ours = a.facts_text();
            let reference = common::reference::Reference::run(&jp.program, &roots, v);
            if ours != reference {
                let extra: Vec<_> = ours.difference(&reference).take(3).collect();
                let missing: Vec<_> = reference.difference(&ours).take(3).collect();
                fails.push(format!(
                    "seed {seed} [{v}]: extra {extra:?} missing {missing:?}"
                ));
            }
            assert!(
                ours.iter().any(|l| l.starts_with("pt ")),
                "seed {seed}: the program does something"
            );
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

#[test]
fn benchmark_programs_match_the_reference_in_every_variant() {
    let text = gen::large(3, 4, 9);
    let jp = pointee_java::lower(&[("Main.java", &text)]);
    let roots = common::roots(&jp);
    for v in Variant::ALL {
        let a = Analysis::run(&jp.program, &roots, Variant::parse(v).unwrap());
        let reference = common::reference::Reference::run(&jp.program, &roots, v);
        assert!(a.facts_text() == reference, "{v}");
    }
}

#[test]
fn the_analysis_is_deterministic() {
    let text = gen::random(7, 5, 14);
    let jp = pointee_java::lower(&[("Main.java", &text)]);
    let roots = common::roots(&jp);
    for v in ["ci", "2-obj", "2-call", "2-type"] {
        let a = Analysis::run(&jp.program, &roots, Variant::parse(v).unwrap());
        let b = Analysis::run(&jp.program, &roots, Variant::parse(v).unwrap());
        assert_eq!(a.facts_text(), b.facts_text());
        assert_eq!(a.stats(), b.stats());
        assert_eq!(a.objs, b.objs, "object numbering is deterministic");
    }
}

#[test]
fn generated_large_programs_lower_without_notes() {
    let text = gen::large(3, 4, 1);
    let jp = pointee_java::lower(&[("Main.java", &text)]);
    let notes: Vec<_> = jp.sources[0]
        .notes
        .iter()
        .map(|n| n.message.clone())
        .collect();
    assert!(notes.is_empty(), "{notes:?}");
    let a = Analysis::run(&jp.program, &common::roots(&jp), Variant::default());
    assert!(a.stats().reachable_methods > 20);
}

/// Every line-boundary prefix of every fixture (what a user typing leaves
/// in the file) lowers and is analysed without a panic.
#[test]
fn every_prefix_of_every_fixture_is_analysed() {
    for p in common::fixtures().into_iter().filter(|p| p.is_file()) {
        let text = std::fs::read_to_string(&p).unwrap();
        let cuts = text.match_indices('\n').map(|(i, _)| i + 1);
        for cut in cuts {
            let jp = pointee_java::lower(&[("P.java", &text[..cut])]);
            let ci = Variant::parse("ci").expect("ci is a variant");
            let a = Analysis::run(&jp.program, &common::roots(&jp), ci);
            let _ = pointee_cspta::alias_checks(&a, &jp.program);
            let _ = a.stats();
        }
    }
}
