//! The host's workspace: several files form one program per language;
//! clashing `static` names stay apart; C files that do not link are each
//! analysed on their own (with the headers) and their diagnostics say so;
//! changes (a new text, a removed file, the configuration) reach every
//! answer.

use pointee_ide::{
    Analysis, AnalysisHost, Change, Config, DiagnosticsConfig, FilePosition, Lang, Severity,
};

/// The hover targets' names at the first occurrence of `needle` (offset
/// `plus` into it) in `file`.
fn hover_names(a: &Analysis, file: &str, needle: &str, plus: u32) -> Vec<String> {
    let f = a.file_id(file).unwrap();
    let offset = a.file_text(f).find(needle).unwrap() as u32 + plus;
    let h = a.hover(FilePosition { file: f, offset }).unwrap().unwrap();
    h.targets.into_iter().map(|t| t.name).collect()
}

/// Two files with a `static` function and a `static` global of one name:
/// the linker renames them (`pick@b.c`), and every answer inside each file
/// is about that file's own.
#[test]
fn clashing_statics_of_two_files_stay_apart() {
    let a = "static int *pick(int *p) { return p; }\nint x;\nstatic int *last;\nint *from_a(void) { last = &x; return pick(last); }\n";
    let b = "static int *pick(int *p) { return p; }\nint y;\nstatic int *last;\nint *from_a(void);\nint main(void) { int *q = from_a(); last = &y; q = pick(last); return 0; }\n";
    let host = AnalysisHost::with_files([("a.c", a), ("b.c", b)], Config::default());
    let an = host.analysis();
    assert_eq!(hover_names(&an, "a.c", "return p", 7), ["x"]);
    assert_eq!(hover_names(&an, "b.c", "return p", 7), ["y"]);
    assert_eq!(hover_names(&an, "a.c", "pick(last)", 5), ["x"]);
    assert_eq!(hover_names(&an, "b.c", "pick(last)", 5), ["y"]);
    // The call in b.c reaches b.c's pick.
    let f = an.file_id("b.c").unwrap();
    let offset = b.find("pick(last)").unwrap() as u32;
    let callees = an
        .callees(FilePosition { file: f, offset })
        .unwrap()
        .unwrap();
    assert_eq!(callees.len(), 1);
    assert_eq!(callees[0].name, "pick@b.c");
    assert_eq!(callees[0].decl.unwrap().file, f);
}

/// A folder of examples, every file with its own `main`: each `.c` file is
/// answered from its own program (with the headers), and its diagnostics
/// say why.
#[test]
fn files_that_do_not_link_are_analysed_one_by_one() {
    let a = "void MUSTALIAS(void *, void *);\nint g;\nint f(int *p) { return 0; }\nint main(void) {\n    int *p = &g, *q = &g;\n    int (*fp)(int *) = f;\n    fp(p);\n    MUSTALIAS(p, q);\n    return 0;\n}\n";
    let b = "int h;\nint main(void) { int *r = &h; return 0; }\n";
    let h = "struct s { int *x; };\n";
    let host =
        AnalysisHost::with_files([("a.c", a), ("b.c", b), ("common.h", h)], Config::default());
    let an = host.analysis();
    assert!(an.program_error(Lang::C).unwrap().is_some());
    assert_eq!(hover_names(&an, "a.c", "p = &g", 0), ["g"]);
    assert_eq!(hover_names(&an, "b.c", "r = &h", 0), ["h"]);
    let fa = an.file_id("a.c").unwrap();
    let offset = a.find("fp(p)").unwrap() as u32;
    let targets = an
        .goto_definition(FilePosition { file: fa, offset })
        .unwrap();
    assert_eq!(targets.len(), 1);
    let d = an.diagnostics(fa, &DiagnosticsConfig::default()).unwrap();
    let codes: Vec<(&str, Severity)> = d.iter().map(|d| (d.code.as_str(), d.severity)).collect();
    assert_eq!(
        codes,
        [
            ("separate-program", Severity::Info),
            ("alias-check", Severity::Hint)
        ]
    );
    assert!(
        d[0].message.contains("`main` is defined in both"),
        "{}",
        d[0].message
    );
}

/// Changes reach the answers: a new text, a file removed and added again,
/// and the configuration.
#[test]
fn changes_reach_every_answer() {
    let mut host = AnalysisHost::default();
    let mut change = Change::new();
    change.set_file(
        "m.c",
        "int g, h;\nint main(void) { int *p = &g; return 0; }\n",
    );
    change.set_file("notes.txt", "not a program file");
    host.apply_change(change);
    let an = host.analysis();
    assert!(an.file_id("notes.txt").is_none());
    assert_eq!(hover_names(&an, "m.c", "p = ", 0), ["g"]);
    let old = an.file_id("m.c").unwrap();
    drop(an);
    let mut change = Change::new();
    change.set_file(
        "m.c",
        "int g, h;\nint main(void) { int *p = &h; return 0; }\n",
    );
    host.apply_change(change);
    assert_eq!(hover_names(&host.analysis(), "m.c", "p = ", 0), ["h"]);
    let mut change = Change::new();
    change.remove_file("m.c");
    host.apply_change(change);
    assert!(host.analysis().file_id("m.c").is_none());
    let mut change = Change::new();
    change.set_file(
        "m.c",
        "int g, h;\nint main(void) { int *p = &g; return 0; }\n",
    );
    host.apply_change(change);
    let an = host.analysis();
    assert_eq!(an.file_id("m.c"), Some(old), "the file keeps its id");
    assert_eq!(hover_names(&an, "m.c", "p = ", 0), ["g"]);
    drop(an);
    // A Java sensitivity that does not exist is the program's error.
    let mut change = Change::new();
    change.set_file(
        "Main.java",
        "public class Main { public static void main(String[] a) {} }\n",
    );
    change.set_config(Config {
        java_cs: Some("5-obj".into()),
        ..Config::default()
    });
    host.apply_change(change);
    let an = host.analysis();
    assert!(an.program_error(Lang::Java).unwrap().is_some());
    assert_eq!(an.program_error(Lang::C).unwrap(), None);
}
