//! The Java answers (hover, callees, check, dump) on small programs and
//! every fixture under `fixtures/java/`, in process through the host.

use pointee_ide::{Analysis, AnalysisHost, Config, Dump, FilePosition, Lang, Verdict};

/// The one-shot analysis of some files under a configuration.
fn analyse(files: &[(String, String)], config: Config) -> Analysis {
    AnalysisHost::with_files(files.iter().cloned(), config).analysis()
}

fn ws(text: &str) -> Vec<(String, String)> {
    vec![("Main.java".to_string(), text.to_string())]
}

fn cs(variant: &str) -> Config {
    Config {
        java_cs: Some(variant.into()),
        ..Default::default()
    }
}

fn at(a: &Analysis, file: &str, line: u32, column: u32) -> FilePosition {
    let file = a.file_id(file).unwrap();
    let offset = a
        .line_index(file)
        .unwrap()
        .offset_chars(line as usize - 1, column as usize - 1)
        .unwrap();
    FilePosition { file, offset }
}

fn hover(
    w: &[(String, String)],
    file: &str,
    line: u32,
    column: u32,
    config: Config,
) -> pointee_ide::Hover {
    let a = analyse(w, config);
    a.hover(at(&a, file, line, column)).unwrap().unwrap()
}

fn callees(w: &[(String, String)], file: &str, line: u32, column: u32) -> Vec<pointee_ide::Callee> {
    let a = analyse(w, Config::default());
    a.callees(at(&a, file, line, column)).unwrap().unwrap()
}

fn check(w: &[(String, String)], config: Config) -> pointee_ide::CheckReport {
    let a = analyse(w, config);
    assert_eq!(a.program_error(Lang::Java).unwrap(), None);
    a.check(Lang::Java).unwrap()
}

fn dump(w: &[(String, String)], config: Config) -> Dump {
    analyse(w, config)
        .dump(Lang::Java, &Default::default())
        .unwrap()
}

const PROG: &str = "public class Main {
    public static void main(String[] args) {
        A a1 = new A();
        A a2 = new A();
        B b1 = new B();
        B b2 = new B();
        a1.set(b1);
        a2.set(b2);
        B x = a1.get();
        NOALIAS(x, b2);
    }
    static void NOALIAS(Object a, Object b) {}
}
class A {
    B f;
    void set(B b) { this.doSet(b); }
    void doSet(B p) { this.f = p; }
    B get() { return this.f; }
}
class B {}
";

#[test]
fn hover_names_allocation_sites_with_heap_contexts() {
    let w = ws(PROG);
    let h = hover(&w, "Main.java", 9, 11, Config::default());
    assert_eq!(h.expr, "x");
    let names: Vec<String> = h
        .targets
        .iter()
        .map(|t| format!("{} {}", t.name, t.heap_context.clone().unwrap()))
        .collect();
    assert_eq!(names, vec!["new B() at 5 []"]);
    assert!(h.reachable);
    let h = hover(&w, "Main.java", 9, 11, cs("ci"));
    let names: Vec<&str> = h.targets.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec!["new B() at 5", "new B() at 6"]);
}

#[test]
fn hover_on_a_field_lists_each_receiver_context() {
    let w = ws(PROG);
    // `this.f` in doSet, under 2-obj: one context per receiver object.
    let h = hover(&w, "Main.java", 17, 28, Config::default());
    assert_eq!(h.expr, "this.f");
    assert_eq!(h.contexts.len(), 2);
    assert_eq!(h.contexts[0].chain, vec!["new A() at 3"]);
    assert_eq!(h.contexts[1].chain, vec!["new A() at 4"]);
    assert_eq!(h.contexts[1].targets[0].name, "new B() at 6");
    assert_eq!(h.contexts[0].targets.len(), 1);
    assert_eq!(h.contexts[0].targets[0].name, "new B() at 5");
}

#[test]
fn hover_on_declarations_of_parameters_and_fields() {
    let w = ws(PROG);
    // `B p` of doSet: one context per receiver under 2-obj.
    let h = hover(&w, "Main.java", 17, 18, Config::default());
    assert_eq!(h.expr, "p");
    let names: Vec<&str> = h.targets.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec!["new B() at 5", "new B() at 6"]);
    assert_eq!(h.contexts.len(), 2);
    // The field `f` of A: what every A object's f may hold.
    let h = hover(&w, "Main.java", 15, 7, Config::default());
    assert_eq!(h.expr, "f");
    let names: Vec<&str> = h.targets.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, vec!["new B() at 5", "new B() at 6"]);
    assert_eq!(
        h.contexts
            .iter()
            .map(|c| c.chain.clone())
            .collect::<Vec<_>>(),
        vec![vec!["new A() at 3"], vec!["new A() at 4"]]
    );
}

#[test]
fn hover_and_callees_never_panic_anywhere_in_some_fixtures() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java");
    for name in ["Constructors.java", "NotModelled.java", "StaticInit.java"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let a = analyse(&[(name.to_string(), text.clone())], Config::default());
        for (li, line) in text.lines().enumerate() {
            for col in (1..=line.chars().count() as u32 + 1).step_by(3) {
                let pos = at(&a, name, li as u32 + 1, col);
                let _ = a.hover(pos).unwrap();
                let _ = a.callees(pos).unwrap();
            }
        }
    }
}

fn section(d: &Dump, name: &str) -> Vec<String> {
    d.sections
        .iter()
        .find(|s| s.0.starts_with(name))
        .map(|s| s.1.clone())
        .unwrap_or_default()
}

/// Seed 001, "C.I. vs. C.S. (1-call-site)": the program of the slide, line
/// for line, and its call graph (constructors left out, as on the slide).
#[test]
fn seed_slide_call_graph_under_ci_and_1_call() {
    let src = "class C {
    public static void main(String[] args) {
        C c = new C();
        c.m();
    }
    Number id(Number n) {
        return n;
    }

    void m() {
        Number n1, n2, x, y;
        n1 = new One();
        n2 = new Two();
        x = this.id(n1);
        y = this.id(n2);
        x.get();
    }
}
interface Number { int get(); }
class One implements Number { public int get() { return 1; } }
class Two implements Number { public int get() { return 2; } }
";
    let w = vec![("C.java".to_string(), src.to_string())];
    let cg = |variant: &str| -> Vec<String> {
        let d = dump(&w, cs(variant));
        section(&d, "call graph")
            .into_iter()
            .filter(|l| !l.contains("<init>"))
            .collect()
    };
    assert_eq!(
        cg("1-call"),
        vec![
            "C.m() [call at 4] call at 14 -> C.id(Number) [call at 14]",
            "C.m() [call at 4] call at 15 -> C.id(Number) [call at 15]",
            "C.m() [call at 4] call at 16 -> One.get() [call at 16]",
            "C.main(String[]) [] call at 4 -> C.m() [call at 4]",
        ]
    );
    assert_eq!(
        cg("ci"),
        vec![
            "C.m() [] call at 14 -> C.id(Number) []",
            "C.m() [] call at 15 -> C.id(Number) []",
            "C.m() [] call at 16 -> One.get() []",
            "C.m() [] call at 16 -> Two.get() []",
            "C.main(String[]) [] call at 4 -> C.m() []",
        ]
    );
}

/// Seed 001, "Type vs. object sensitivity": the contexts of foo().
#[test]
fn seed_slide_contexts_of_foo_under_obj_and_type() {
    let src = "class X {
    void main2() {
        Y y1 = new Y();
        y1.foo();
        Y y2 = new Y();
        y2.foo();
        Y y3 = new Y();
        y3.foo();
    }
    public static void main(String[] args) { new X().main2(); }
}
class Y {
    void foo() {}
}
";
    let w = vec![("X.java".to_string(), src.to_string())];
    let contexts = |variant: &str| -> Vec<String> {
        let d = dump(&w, cs(variant));
        section(&d, "call graph")
            .into_iter()
            .filter_map(|l| l.split_once("-> Y.foo() ").map(|(_, c)| c.to_string()))
            .collect()
    };
    assert_eq!(
        contexts("1-obj"),
        vec!["[new Y() at 3]", "[new Y() at 5]", "[new Y() at 7]"]
    );
    assert_eq!(contexts("1-type"), vec!["[X]", "[X]", "[X]"]);
    let d = dump(&w, cs("1-type"));
    let figures = section(&d, "figures");
    assert!(
        figures.contains(&"method contexts: 5".to_string()),
        "{figures:?}"
    );
}

#[test]
fn every_fixture_checks_and_dumps() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java");
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        let files: Vec<std::path::PathBuf> = if p.is_dir() {
            let mut v: Vec<_> = std::fs::read_dir(&p)
                .unwrap()
                .map(|e| e.unwrap().path())
                .collect();
            v.sort();
            v
        } else {
            vec![p.clone()]
        };
        let sources = files
            .iter()
            .filter(|f| f.extension().is_some_and(|e| e == "java"))
            .map(|f| {
                (
                    f.to_string_lossy().into_owned(),
                    std::fs::read_to_string(f).unwrap(),
                )
            })
            .collect();
        let w: Vec<(String, String)> = sources;
        for variant in ["ci", "2-obj", "1-type"] {
            let r = check(&w, cs(variant));
            assert!(
                r.stats
                    .iter()
                    .any(|(k, v)| k == "reachable methods" && *v > 0),
                "{}",
                p.display()
            );
            let d = analyse(&w, cs(variant))
                .dump(
                    Lang::Java,
                    &pointee_ide::DumpConfig {
                        verbose: true,
                        no_facts: false,
                    },
                )
                .unwrap();
            assert!(
                d.sections
                    .iter()
                    .any(|s| s.0 == "call graph" && !s.1.is_empty()),
                "{}",
                p.display()
            );
        }
    }
}

#[test]
fn callees_and_check() {
    let w = ws(PROG);
    let a = analyse(&w, Config::default());
    let c = callees(&w, "Main.java", 7, 12);
    assert_eq!(
        c.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
        vec!["A.set(B)"]
    );
    let decl = c[0].decl.unwrap();
    let line = a.line_index(decl.file).unwrap().line_of(decl.range.start) + 1;
    assert_eq!(line, 16);
    let r = check(&w, Config::default());
    assert_eq!(r.alias_checks.len(), 1);
    assert_eq!(r.alias_checks[0].verdict, Verdict::No);
    assert!(r.all_ok());
    let r = check(&w, cs("ci"));
    assert_eq!(r.alias_checks[0].verdict, Verdict::May);
    assert!(!r.all_ok());
    assert!(
        r.stats
            .iter()
            .any(|(k, v)| k == "reachable methods" && *v == 7),
        "{:?}",
        r.stats
    );
}

#[test]
fn bad_variant_and_entry_are_input_errors() {
    let w = ws(PROG);
    let error = |config: Config| analyse(&w, config).program_error(Lang::Java).unwrap();
    assert!(error(cs("5-obj")).is_some());
    let entry = |e: &str| Config {
        java_entry: Some(e.into()),
        ..Default::default()
    };
    assert!(error(entry("Nope")).is_some());
    assert!(error(entry("Main")).is_none());
}

#[test]
fn dump_has_facts_and_call_graph() {
    let d = dump(&ws(PROG), Config::default());
    let cg = &d.sections.iter().find(|s| s.0 == "call graph").unwrap().1;
    assert!(
        cg.iter()
            .any(|l| l
                .starts_with("A.set(B) [new A() at 3] call at 16 -> A.doSet(B) [new A() at 3]")),
        "{cg:#?}"
    );
}

/// Go to definition on a field access follows the operand's static type:
/// the field of that class or of its nearest supertype declaring it, not
/// the first field of that name.
#[test]
fn definition_of_a_field_follows_the_static_type() {
    let text = "\
class A { Object f; Object g; }
class B extends A { Object f; }
class C { Object f; static Object s; }
public class Main {
    Object f;
    void m(B b, A a, C c) {
        Object x = b.f;
        Object y = a.f;
        Object z = b.g;
        Object w = c.f;
        Object v = this.f;
        Object u = C.s;
        Object t = new B().f;
        Object r = ((A) b).f;
    }
    public static void main(String[] args) { new Main().m(new B(), new A(), new C()); }
}
";
    let a = analyse(&ws(text), Config::default());
    let file = a.file_id("Main.java").unwrap();
    // The offset of the name after `before` (the `n`-th match).
    let after = |before: &str| (text.find(before).unwrap() + before.len()) as u32;
    let cases = [
        ("b.f;", "class B extends A { Object "),
        ("a.f;", "class A { Object "),
        ("b.g;", "class A { Object f; Object "),
        ("c.f;", "class C { Object "),
        ("this.f;", "public class Main {\n    Object "),
        ("C.s;", "class C { Object f; static Object "),
        ("new B().f;", "class B extends A { Object "),
        ("((A) b).f;", "class A { Object "),
    ];
    for (access, decl) in cases {
        let on_field = after(access) - 2;
        let d = a
            .goto_definition(FilePosition {
                file,
                offset: on_field,
            })
            .unwrap();
        let starts: Vec<u32> = d.iter().map(|t| t.range.start).collect();
        assert_eq!(starts, vec![after(decl)], "{access}");
    }
}

/// Switching the context sensitivity on a running host moves every answer
/// to the new setting and back (the database's
/// `switching_the_context_sensitivity_analyses_once_and_lowers_nothing`
/// shows that each switch analyses once and lowers nothing).
#[test]
fn switching_the_context_sensitivity_on_a_host_moves_every_answer() {
    let w = ws(PROG);
    let mut host = AnalysisHost::with_files(w.iter().cloned(), Config::default());
    for (variant, targets, verdict) in [
        ("2-obj", vec!["new B() at 5"], Verdict::No),
        ("ci", vec!["new B() at 5", "new B() at 6"], Verdict::May),
        ("2-obj", vec!["new B() at 5"], Verdict::No),
    ] {
        let mut change = pointee_ide::Change::new();
        change.set_config(cs(variant));
        host.apply_change(change);
        let a = host.analysis();
        let h = a.hover(at(&a, "Main.java", 9, 11)).unwrap().unwrap();
        let names: Vec<&str> = h.targets.iter().map(|t| t.name.as_str()).collect();
        assert_eq!(names, targets, "{variant}");
        let r = a.check(Lang::Java).unwrap();
        assert_eq!(r.alias_checks[0].verdict, verdict, "{variant}");
        // The answers equal a fresh host's under the same setting.
        let fresh = analyse(&w, cs(variant));
        assert_eq!(
            format!("{:?}", r),
            format!("{:?}", fresh.check(Lang::Java).unwrap()),
            "{variant}"
        );
    }
}
