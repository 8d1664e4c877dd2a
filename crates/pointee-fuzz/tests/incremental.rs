//! Incremental answers equal fresh ones on every fixture (`docs/reliability.md`):
//! each fixture gets a few seeded random edits through one host; after each,
//! every answer must equal a new host's on the same text. A few hundred
//! edits per language here; `pointee-fuzz incremental` runs as many as asked.

use pointee_db::Lang;
use pointee_fuzz::answers::Probe;
use pointee_fuzz::incremental::{fixture_cases, run};

/// Runs `edits_total` edits spread over the language's fixtures, asking at
/// every third position (the long run asks at all); fails on
/// the first difference, saving the workspace that shows it under
/// `target/incremental-difference/`.
fn edits_equal_fresh(lang: Lang, edits_total: usize) {
    let cases = fixture_cases(lang);
    assert!(
        cases.len() >= 40,
        "only {} {lang:?} fixtures found",
        cases.len()
    );
    let per_case = edits_total.div_ceil(cases.len());
    let mut edits = 0;
    let mut changed = 0;
    for (k, case) in cases.iter().enumerate() {
        match run(case, k as u64, per_case, Probe { stride: 3 }) {
            Ok(n) => changed += n,
            Err(d) => {
                let dir = pointee_fuzz::repo_root().join("target/incremental-difference");
                let _ = std::fs::create_dir_all(&dir);
                for (path, text) in &d.files {
                    let _ = std::fs::write(dir.join(path.replace('/', "_")), text);
                }
                panic!("{d}(workspace saved in {})", dir.display());
            }
        }
        edits += per_case;
    }
    eprintln!(
        "{lang:?}: {} fixtures, {edits} edits, {changed} changed a text",
        cases.len()
    );
    assert!(changed * 2 > edits, "too few edits changed anything");
}

#[test]
fn c_edits_answer_as_a_fresh_analysis() {
    edits_equal_fresh(Lang::C, 300);
}

#[test]
fn java_edits_answer_as_a_fresh_analysis() {
    edits_equal_fresh(Lang::Java, 300);
}

/// Found by the 10,000-edit run (docs/reliability.md): after 42 seeded
/// edits of `f4_symbolic_levels.c`, a merged symbolic name listed its
/// members in the order the edit history met them (`1_file* (1_p, 1_q,
/// 1_f, 1_main::gqzz)`), a fresh analysis in another (`1_file*
/// (1_main::gqzz, 1_p, 1_q, 1_f)`). Members are now sorted by name
/// (`Analysis::resolve`): the same edits answer as a fresh analysis.
#[test]
fn a_merged_symbolic_names_members_do_not_follow_the_edit_history() {
    let case = fixture_cases(Lang::C)
        .into_iter()
        .find(|c| c.name.ends_with("f4_symbolic_levels.c"))
        .expect("the fixture");
    if let Err(d) = run(&case, 7_000_062, 42, Probe { stride: 1 }) {
        panic!("the 42 edits answer otherwise than a fresh analysis: {d}");
    }
}

/// Found by the 10,000-edit Java run (docs/reliability.md): after 100
/// seeded edits of `CtorReceivers.java` (seed 7000034, every third
/// position), adding a line `class Q implements Shape {` (a second class
/// `Q`, the text broken) made the points-to dump panic in
/// `pointee_cspta::result::Analysis::var_pts` (index out of bounds). The
/// text here is that one reduced line by line (ten lines: a constructor
/// call `new Holder(bb)` to an undeclared `h`, a local class `Q` holding a
/// member class `Q`, an unclosed `Holder` constructor). The local `Q` was
/// lowered twice (two functions of one name), and the analysis numbered
/// methods by distinct name, so every later method's facts sat one id off
/// its function (both fixed, tests in pointee-java and pointee-cspta). The
/// dump answers, with `Holder`'s constructor run on the new `Holder`.
#[test]
fn a_broken_java_text_dumps_its_points_to_sets() {
    use pointee_ide::{AnalysisHost, Config, DumpConfig};
    let text = include_str!("../regressions/incremental/java_dump_panic_after_edits.java");
    let host = AnalysisHost::with_files([("CtorReceivers.java", text)], Config::default());
    let dumped = host
        .analysis()
        .dump(Lang::Java, &DumpConfig::default())
        .expect("the dump answers");
    let names: Vec<&str> = dumped.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "CtorReceivers.<init>()",
            "CtorReceivers.main(String[])",
            "CtorReceivers.make(boolean)",
            "Q.<init>()",
            "Holder.<init>(Box)"
        ]
    );
    let pts = &dumped
        .sections
        .iter()
        .find(|(title, _)| title.starts_with("points-to sets"))
        .expect("a points-to section")
        .1;
    assert_eq!(
        pts,
        &[
            "CtorReceivers.main(String[]) []: args -> {new String[] at 2 []}",
            "CtorReceivers.main(String[]) []: t1 -> {new String() at 2 []}",
            "CtorReceivers.main(String[]) []: t2 -> {new Holder() at 3 []}",
            "Holder.<init>(Box) [new Holder() at 3]: this -> {new Holder() at 3 []}",
        ]
    );
}
