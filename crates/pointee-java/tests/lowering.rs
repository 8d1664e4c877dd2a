//! The front end on its own: the IR of a small program, IR invariants on
//! every fixture and on every prefix of some (a half-typed file never
//! crashes), and notes for constructs outside the subset.

use pointee_ir::{Base, Basic, Callee, Function, NoteKind, Place, Rvalue, Stmt};
use std::path::{Path, PathBuf};

fn fixtures() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java");
    let mut out = Vec::new();
    let mut todo = vec![dir];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|e| e == "java") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn basics<'a>(b: &'a [Stmt], out: &mut Vec<(u32, &'a Basic)>) {
    for s in b {
        match s {
            Stmt::Basic(id, b) => out.push((id.0, b)),
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => {
                basics(then_branch, out);
                basics(else_branch, out);
            }
            Stmt::Loop { body } => basics(body, out),
            Stmt::Switch { arms, .. } => arms.iter().for_each(|a| basics(a, out)),
            _ => {}
        }
    }
}

/// Ids are dense, variables exist, each side has at most one dereference,
/// and the source map has an entry per variable, statement and site.
fn check_invariants(jp: &pointee_java::JavaProgram) {
    // One function and one class per name (a name stands for one method
    // or class; the analysis resolves calls by name).
    let mut names = std::collections::HashSet::new();
    for f in &jp.program.functions {
        assert!(names.insert(&*f.name), "two functions {}", f.name);
    }
    let mut names = std::collections::HashSet::new();
    for c in &jp.program.classes {
        assert!(names.insert(&*c.name), "two classes {}", c.name);
    }
    for f in &jp.program.functions {
        let fs = jp
            .sources
            .iter()
            .find_map(|s| s.function(&f.name))
            .unwrap_or_else(|| panic!("no source for {}", f.name));
        assert_eq!(fs.vars.len(), f.vars.len(), "{}", f.name);
        assert_eq!(fs.stmts.len(), f.stmt_count as usize, "{}", f.name);
        assert_eq!(fs.sites.len(), f.site_count as usize, "{}", f.name);
        let mut bs = Vec::new();
        basics(&f.body, &mut bs);
        let ids: Vec<u32> = bs.iter().map(|b| b.0).collect();
        assert_eq!(
            ids,
            (0..f.stmt_count).collect::<Vec<_>>(),
            "{}: statement ids in pre-order",
            f.name
        );
        let ok_place = |p: &Place| match &p.base {
            Base::Var(v) => (v.0 as usize) < f.vars.len() && p.path.len() <= 1,
            Base::Global(g) => jp.program.global(g).is_some() && !p.deref,
        };
        for (_, b) in bs {
            match b {
                Basic::Assign { lhs, rhs } => {
                    assert!(ok_place(lhs), "{}: {}", f.name, f.basic_to_string(b));
                    if let Rvalue::Use(p) | Rvalue::Cast(p, _) = rhs {
                        assert!(ok_place(p));
                        assert!(
                            !lhs.deref || !(p.deref || matches!(p.base, Base::Global(_))),
                            "{}: {}",
                            f.name,
                            f.basic_to_string(b)
                        );
                    }
                }
                Basic::Call {
                    site,
                    callee,
                    args,
                    lhs,
                } => {
                    assert!(site.0 < f.site_count);
                    if let Callee::Direct(n) = callee {
                        assert!(
                            jp.program.function(n).is_some(),
                            "{}: call to missing {n}",
                            f.name
                        );
                    }
                    for a in args {
                        if let Rvalue::Use(p) = a {
                            assert!(
                                !p.deref && p.path.is_empty() && matches!(p.base, Base::Var(_))
                            );
                        }
                    }
                    if let Some(l) = lhs {
                        assert!(!l.deref && l.path.is_empty());
                    }
                }
                Basic::Use(_) => {}
            }
        }
    }
}

fn lower_path(p: &Path) -> pointee_java::JavaProgram {
    let text = std::fs::read_to_string(p).unwrap();
    pointee_java::lower(&[(p.to_str().unwrap(), &text)])
}

#[test]
fn every_fixture_lowers_with_invariants() {
    for p in fixtures() {
        let jp = lower_path(&p);
        check_invariants(&jp);
        assert!(
            !jp.mains.is_empty() || p.to_string_lossy().contains("MultiFile"),
            "{}: a main",
            p.display()
        );
    }
}

#[test]
fn every_prefix_of_some_fixtures_lowers() {
    // PREFIX_ALL=1: every prefix of every fixture (slow; for a release run).
    let all = std::env::var("PREFIX_ALL").is_ok();
    for p in fixtures().into_iter().filter(|p| {
        let n = p.file_name().unwrap().to_string_lossy();
        all || [
            "Constructors",
            "NotModelled",
            "SwitchCases",
            "GenericsErased",
            "ArrayInitializers",
            "Lambdas",
            "Enums",
            "Boxing",
            "LibraryLambdas",
        ]
        .iter()
        .any(|f| n.starts_with(f))
    }) {
        let text = std::fs::read_to_string(&p).unwrap();
        let mut cut = 0;
        while cut < text.len() {
            if text.is_char_boundary(cut) {
                let jp = pointee_java::lower(&[("P.java", &text[..cut])]);
                check_invariants(&jp);
            }
            cut += if all { 1 } else { 5 };
        }
    }
}

/// Each line of some fixtures written twice (a declaration's head twice
/// makes nested classes of one name, as an edit in the editor may): every
/// such text lowers with the invariants. Found by the 10,000-edit Java run
/// (a local class holding a member class of its own name was lowered twice).
#[test]
fn every_line_of_some_fixtures_doubled_lowers() {
    for p in fixtures().into_iter().filter(|p| {
        let n = p.file_name().unwrap().to_string_lossy();
        ["CtorReceivers", "LocalClasses", "Anonymous", "InnerClasses"]
            .iter()
            .any(|f| n.starts_with(f))
    }) {
        let text = std::fs::read_to_string(&p).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for i in 0..lines.len() {
            let mut doubled = lines.clone();
            doubled.insert(i, lines[i]);
            let jp = pointee_java::lower(&[("P.java", &doubled.join("\n"))]);
            check_invariants(&jp);
        }
    }
}

fn body(f: &Function) -> String {
    f.body_to_string()
}

#[test]
fn lowers_a_small_program() {
    let src = "class A {
    B f;
    static A g;
    A(B b) { f = b; }
    B get() { return this.f; }
    static B make() { A a = new A(new B()); A.g = a; return a.get(); }
}
class B {}
";
    let jp = pointee_java::lower(&[("A.java", src)]);
    let f = jp.program.function("A.make()").unwrap();
    assert_eq!(
        body(f),
        "  t1 = new B#0\n  call#1 B.<init>()(t1)\n  t2 = new A#2\n  call#3 A.<init>(B)(t2, t1)\n  a = t2\n  A.g = a\n  ret = call#4 a.<virtual get()>(a)\n  return\n"
    );
    let c = jp.program.function("A.<init>(B)").unwrap();
    assert_eq!(body(c), "  (*this).f = b\n");
    let class = jp.program.classes.iter().find(|c| &*c.name == "A").unwrap();
    assert_eq!(class.superclass.as_deref(), Some("Object"));
    let sigs: Vec<&str> = class.methods.iter().map(|m| &*m.signature).collect();
    assert_eq!(sigs, vec!["<init>(B)", "get()", "make()"]);
    assert!(jp.program.global("A.g").is_some());
}

#[test]
fn constructs_outside_the_subset_are_notes() {
    let src = "class M { public static void main(String[] a) { Strange r = () -> {}; Object o = new Object() {}; try { throw new RuntimeException(); } catch (RuntimeException e) {} java.util.List<Object> l = new java.util.ArrayList<>(); l.add(r); } }";
    let jp = pointee_java::lower(&[("M.java", src)]);
    let msgs: Vec<&str> = jp.sources[0]
        .notes
        .iter()
        .map(|n| n.message.as_str())
        .collect();
    for want in ["a lambda", "library class `ArrayList`", "call to `l.add`"] {
        assert!(msgs.iter().any(|m| m.contains(want)), "{want} in {msgs:?}");
    }
    check_invariants(&jp);
}

#[test]
fn overloads_resolve_by_arity_and_declared_types() {
    let src = "class M {
    static void f(Object o) {}
    static void f(M m) {}
    static void f(M m, Object o) {}
    static void f(int i) {}
    static void run() { M m = new M(); Object o = m; f(m); f(o); f(m, m); f(3); f(null); }
}";
    let jp = pointee_java::lower(&[("M.java", src)]);
    let f = jp.program.function("M.run()").unwrap();
    let mut calls = Vec::new();
    let mut bs = Vec::new();
    basics(&f.body, &mut bs);
    for (_, b) in bs {
        if let Basic::Call {
            callee: Callee::Direct(n),
            ..
        } = b
        {
            calls.push(n.to_string());
        }
    }
    assert_eq!(
        calls,
        vec![
            "M.<init>()",
            "M.f(M)",
            "M.f(Object)",
            "M.f(M,Object)",
            "M.f(int)",
            "M.f(M)"
        ]
    );
}

#[test]
fn function_names_are_unique_even_in_wrong_programs() {
    let src =
        "class A { void f() { Object a = new A(); } void f() { Object b = null; Object c = b; } }
class A { void g() {} }
class B { Object x() { return null; } Object x() { return this; } }";
    let jp = pointee_java::lower(&[("A.java", src)]);
    let names: Vec<&str> = jp.program.functions.iter().map(|f| &*f.name).collect();
    assert_eq!(
        names,
        ["A.f()", "A.<init>()", "B.x()", "B.<init>()"],
        "{names:?}"
    );
    check_invariants(&jp);
    // A local class holding a member class of its own name, in a broken
    // text (the 10,000-edit Java run's reduced case): the inner one is
    // ignored with a note, the outer lowered once.
    let src = "public class C ){
    public static void main(String[] args) {
        h = new Holder(bb);
    }
    static Shape make(boolean big) {
class Q implements Shape {
class Q implements Shape {
class Holder {
    Holder(Box b) {
}";
    let jp = pointee_java::lower(&[("C.java", src)]);
    let names: Vec<&str> = jp.program.functions.iter().map(|f| &*f.name).collect();
    assert_eq!(
        names,
        [
            "C.main(String[])",
            "C.make(boolean)",
            "C.<init>()",
            "Q.<init>()",
            "Holder.<init>(Box)"
        ],
        "{names:?}"
    );
    let classes: Vec<&str> = jp.program.classes.iter().map(|c| &*c.name).collect();
    assert_eq!(classes, ["Object", "String", "C", "Q", "Holder"]);
    let notes: Vec<&str> = jp.sources[0].notes.iter().map(|n| &*n.message).collect();
    assert!(
        notes.contains(&"a second class named `Q` is ignored"),
        "{notes:?}"
    );
    check_invariants(&jp);
}

/// Lowers `files` as an editor does: each file's outline, the class table,
/// then each unit from its own text (positions relative to it), assembled.
/// Checks on the way that lowering the units from the file's tree
/// (`lower_units_relative`) gives each unit the same, and so does lowering
/// it against a table of only the classes it read (`LoweredUnit::reads`).
fn lower_by_units(files: &[(&str, &str)]) -> pointee_java::JavaProgram {
    let trees: Vec<_> = files
        .iter()
        .map(|(_, t)| pointee_java::parser().parse(t, None).unwrap())
        .collect();
    let outlines: Vec<_> = files
        .iter()
        .zip(&trees)
        .map(|((n, t), tree)| pointee_java::outline(n, t, tree))
        .collect();
    let (table, notes) = pointee_java::class_table(&outlines.iter().collect::<Vec<_>>());
    let units: Vec<Vec<(u32, pointee_java::LoweredUnit)>> = files
        .iter()
        .zip(&outlines)
        .zip(&trees)
        .map(|(((n, t), o), tree)| {
            // The same units lowered from the file's tree, made relative.
            let relative = pointee_java::lower_units_relative(&table, n, t, tree);
            assert_eq!(relative.len(), o.units.len(), "{n}");
            o.units
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    let text = &t[r.start as usize..r.end as usize];
                    let u = pointee_java::lower_unit_text(&table, n, text, i);
                    assert_eq!(u.origin, 0);
                    assert_eq!(relative[i], u, "{n}: unit {i} from the file's tree");
                    // What the unit read of the table is all it depends on:
                    // against a table of only those classes it is the same.
                    let mut read = pointee_java::ClassTable::default();
                    for c in &table.classes {
                        if u.reads.binary_search(&c.name).is_ok() {
                            read.insert(c.clone());
                        }
                    }
                    let again = pointee_java::lower_unit_text(&read, n, text, i);
                    assert_eq!(again, u, "{n}: unit {i} against the classes it read");
                    (r.start, u)
                })
                .collect()
        })
        .collect();
    let parts: Vec<_> = files
        .iter()
        .enumerate()
        .map(|(i, (n, _))| pointee_java::FileParts {
            file: n,
            notes: outlines[i]
                .notes
                .iter()
                .cloned()
                .chain(
                    notes
                        .iter()
                        .filter(|(f, _)| *f == i)
                        .map(|(_, n)| n.clone()),
                )
                .collect(),
            units: units[i].iter().map(|(s, u)| (*s, u)).collect(),
        })
        .collect();
    pointee_java::assemble(&table, &parts)
}

#[test]
fn lowering_unit_by_unit_from_their_own_texts_gives_the_same_program() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java");
    let mut programs: Vec<Vec<PathBuf>> = fixtures()
        .into_iter()
        .filter(|p| p.parent() == Some(dir.as_path()))
        .map(|p| vec![p])
        .collect();
    // The multi-file program, as one.
    programs.push(
        fixtures()
            .into_iter()
            .filter(|p| p.parent() != Some(dir.as_path()))
            .collect(),
    );
    for paths in programs {
        let texts: Vec<(String, String)> = paths
            .iter()
            .map(|p| {
                (
                    p.to_string_lossy().into_owned(),
                    std::fs::read_to_string(p).unwrap(),
                )
            })
            .collect();
        let files: Vec<(&str, &str)> = texts
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        let whole = pointee_java::lower(&files);
        let units = lower_by_units(&files);
        let name = &texts[0].0;
        assert_eq!(whole.program, units.program, "{name}: program");
        assert_eq!(whole.sources, units.sources, "{name}: source maps");
        assert_eq!(whole.mains, units.mains, "{name}");
        assert_eq!(whole.initializers, units.initializers, "{name}");
    }
}

/// An outline that takes the parts of units whose text is unchanged from
/// the outline before an edit equals a fresh one, on every fixture: after a
/// comment before each unit (no unit outlined again) and after a line
/// added inside each unit (that unit alone outlined again).
#[test]
fn an_outline_reusing_the_last_one_equals_a_fresh_one() {
    let mut p = pointee_java::parser();
    for path in fixtures() {
        let name = path.to_string_lossy().into_owned();
        let old = std::fs::read_to_string(&path).unwrap();
        let old_outline = pointee_java::outline(&name, &old, &p.parse(&old, None).unwrap());
        if old_outline.notes.iter().any(|n| n.kind == NoteKind::Syntax) {
            continue;
        }
        for (u, r) in old_outline.units.iter().enumerate() {
            let inside = r.start as usize + old[r.start as usize..].find('{').unwrap() + 1;
            for (at, insert, outlined) in
                [(r.start as usize, "/* moved */\n", 0), (inside, "\n", 1)]
            {
                let new = format!("{}{insert}{}", &old[..at], &old[at..]);
                let tree = p.parse(&new, None).unwrap();
                let (reusing, fresh) =
                    pointee_java::outline_reusing(&name, &new, &tree, Some((&old, &old_outline)));
                assert_eq!(
                    reusing,
                    pointee_java::outline(&name, &new, &tree),
                    "{name}: unit {u}"
                );
                assert_eq!(fresh, outlined, "{name}: unit {u}, `{insert}` at {at}");
            }
        }
    }
}

/// Integers for the witness (`lower/int.rs`): every store to an integer or
/// boolean local or instance field, as an integer expression where it has
/// one and `scalar` where not (a call's result, a shift); comparisons and
/// boolean tests as `Compare`, a field side read into a temporary; tests
/// on array elements and static fields stay opaque (a primitive static
/// field's access stays `use C.count`, which initialises `C`).
#[test]
fn integer_locals_fields_and_comparisons_are_lowered() {
    let src = "class C {
    int size = 2;
    boolean on;
    static int count;
    int[] xs;
    int n() { return 1; }
    void f(int k) {
        int j = k * 2 + 1;
        size++;
        size += j;
        j = n();
        j = -k << 1;
        on = true;
        if (size > j && !on) { j--; }
        if (on) { count = 3; }
        if (count > 0) { j = 0; }
        if (xs[0] == 1) { j = 0; }
    }
}
";
    let jp = pointee_java::lower(&[("C.java", src)]);
    let f = jp.program.function("C.f(int)").unwrap();
    assert_eq!(
        body(f),
        "  j = int ((k * 2) + 1)
  (*this).size = int ((*this).size + 1)
  (*this).size = int ((*this).size + j)
  call#0 this.<virtual n()>(this)
  j = scalar
  j = scalar
  (*this).on = int 1
  t1 = int (*this).size
  if (t1 > j) {
    t2 = int (*this).on
  }
  if ((t1 > j && t2 == 0)) {
    j = int (j - 1)
  }
  t3 = int (*this).on
  if (t3 != 0) {
    use C.count
  }
  use C.count
  if (?) {
    j = int 0
  }
  t4 = (*this).xs
  if (?) {
    j = int 0
  }
"
    );
    let init = jp.program.function("C.<init>()").unwrap();
    assert!(
        body(init).contains("(*this).size = int 2\n"),
        "{}",
        body(init)
    );
}
