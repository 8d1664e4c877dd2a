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

/// The same class found again by `incremental java 1950 11 3` (fixture
/// `ArrayInitializers.java`, seed 11000037, edit 15: the Java checkers'
/// `null_deref` reached `var_pts` first), reduced to five lines: an
/// unclosed initialiser block, `throw new nested(..)` of an undeclared
/// class, two `class B {}`. The dump and the checks answer.
#[test]
fn a_second_broken_java_text_dumps_and_checks() {
    use pointee_ide::{AnalysisHost, Config, DumpConfig};
    let text = include_str!("../regressions/incremental/java_check_panic_after_edits.java");
    let host = AnalysisHost::with_files([("ArrayInitializers.java", text)], Config::default());
    let a = host.analysis();
    assert!(a.dump(Lang::Java, &DumpConfig::default()).is_ok());
    let file = a.file_id("ArrayInitializers.java").unwrap();
    assert!(a.diagnostics(file, &Default::default()).is_ok());
}

/// Found by the C 10,000-edit run (docs/reliability.md): after 38 seeded
/// edits of `projects/library_tables` (seed 7000190), `check`'s figure
/// `exit facts possible` was 233 through the edited host and 360 fresh.
/// Reduced to one line of `driver.c` and one edit: `extern const struct
/// ops file_ops, mem_ops;` with `extern` replaced by `mem_ops` (a broken
/// text). The outline re-parses a unit's own text incrementally from its
/// previous trees, and tree-sitter recovers from that syntax error
/// otherwise than a parse from scratch: the edited host lowered a global
/// `mem_ops: struct ops`, the fresh one `struct` and `mem_ops` of no type.
/// A broken piece is now parsed afresh (`pointee_c::parse_unit`).
#[test]
fn a_broken_declarations_lowering_does_not_follow_the_edit_history() {
    let program = |decl: &str| {
        format!(
            "struct ops {{ int (*open)(void *arg); }};\n{decl} const struct ops file_ops, mem_ops;\n\
             int use(const struct ops *o, void *arg) {{ return o->open(arg); }}\n\
             int main(void) {{ int x; return use(&file_ops, &x) + use(&mem_ops, &x); }}\n"
        )
    };
    let (before, after) = (program("extern"), program("mem_ops"));
    assert_eq!(
        edited_and_fresh_differ(&[("driver.c", &before)], &[("driver.c", &after)]),
        None
    );
}

/// The answers of a host given `before` and then `after` (as an editor's
/// change, with the tree re-parsed incrementally) against a fresh host's
/// on `after`: the first difference, if any.
fn edited_and_fresh_differ(before: &[(&str, &str)], after: &[(&str, &str)]) -> Option<String> {
    use pointee_fuzz::answers::answers;
    use pointee_ide::{AnalysisHost, Change, Config};
    let mut host = AnalysisHost::with_files(before.iter().copied(), Config::default());
    answers(&host.analysis(), Probe { stride: 1 }).expect("nobody writes");
    let mut change = Change::new();
    for (path, text) in after {
        change.set_file(*path, *text);
    }
    host.apply_change(change);
    let edited = answers(&host.analysis(), Probe { stride: 1 }).expect("nobody writes");
    let fresh = AnalysisHost::with_files(after.iter().copied(), Config::default());
    let fresh = answers(&fresh.analysis(), Probe { stride: 1 }).expect("nobody writes");
    edited.first_difference(&fresh)
}

/// The class of the bug above: every C fixture edited line by line into
/// broken texts (a line's first word replaced by the next line's, a
/// line's last character deleted, each edit then undone; every eighth
/// line), the unit's
/// pieces re-parsed from the previous pieces as the outline does; after
/// every edit the trees equal a parse from scratch of the same text.
#[test]
fn pieces_reparsed_after_broken_edits_are_the_fresh_parse() {
    use pointee_c::{parse_unit, preprocess_file, Piece, TreeCache};
    let sexps = |pieces: &[Piece]| -> Vec<(usize, usize, String)> {
        pieces
            .iter()
            .map(|p| (p.start, p.end, p.tree.root_node().to_sexp()))
            .collect()
    };
    let (mut edits, mut broken) = (0, 0);
    let mut differing = Vec::new();
    for (k, case) in fixture_cases(Lang::C).into_iter().enumerate() {
        for (name, original) in case.files.iter().filter(|(n, _)| n.ends_with(".c")) {
            let cache = TreeCache::new();
            let mut expanded = preprocess_file(name, original);
            let mut pieces = parse_unit(&cache, &expanded, &[]);
            let lines: Vec<&str> = original.split_inclusive('\n').collect();
            let first_word = |l: &str| {
                let start = l.find(|c: char| c.is_ascii_alphabetic() || c == '_')?;
                let len = l[start..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(l.len() - start);
                Some((start, len))
            };
            // Every eighth line (a different eighth in each fixture), to
            // keep the test short.
            for i in (k % 8..lines.len()).step_by(8) {
                let line = lines[i].trim_end_matches('\n');
                let mut variants = Vec::new();
                if let (Some((s, n)), Some(next)) = (
                    first_word(line),
                    lines
                        .get(i + 1)
                        .and_then(|l| first_word(l).map(|(t, m)| &l[t..t + m])),
                ) {
                    variants.push(format!("{}{next}{}", &line[..s], &line[s + n..]));
                }
                if !line.is_empty() {
                    variants.push(line[..line.len() - 1].to_string());
                }
                for variant in variants {
                    let mut edited = lines.clone();
                    let with_newline = format!("{variant}\n");
                    edited[i] = &with_newline;
                    // The edit, then the original text back.
                    for text in [edited.concat(), original.clone()] {
                        let next = preprocess_file(name, &text);
                        let edit = pointee_db::text_edit(&expanded.text, &next.text);
                        for p in &mut pieces {
                            p.edit(&edit);
                        }
                        pieces = parse_unit(&cache, &next, &pieces);
                        let fresh = parse_unit(&TreeCache::new(), &next, &[]);
                        edits += 1;
                        broken += usize::from(fresh.iter().any(|p| p.tree.root_node().has_error()));
                        if sexps(&pieces) != sexps(&fresh) && differing.len() < 5 {
                            differing.push(format!(
                                "{}: line {} edited to {variant:?}",
                                case.name,
                                i + 1
                            ));
                        }
                        expanded = next;
                    }
                }
            }
        }
    }
    eprintln!("{edits} edits, {broken} broken texts");
    assert!(
        broken > 300,
        "only {broken} broken texts among {edits} edits"
    );
    assert!(
        differing.is_empty(),
        "re-parsed trees differ from fresh ones: {differing:#?}"
    );
}
