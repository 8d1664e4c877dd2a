//! Linking units by external names: `static` names per unit, `extern`
//! declarations joined to the one definition, tentative definitions merged
//! (with a warning), two definitions an error naming both units, library
//! globals one object that no unit defines.

use pointee_c::{lower, CProgram};
use pointee_ir::{Definition, GlobalKind, Rvalue};

fn link(files: &[(&str, &str)]) -> CProgram {
    lower(files).unwrap_or_else(|e| panic!("link error: {e}"))
}

fn definition(p: &CProgram, name: &str) -> Definition {
    match p
        .program
        .global(name)
        .unwrap_or_else(|| panic!("no global {name}"))
        .kind
    {
        GlobalKind::Variable { definition, .. } => definition,
        _ => panic!("{name} is not a C global"),
    }
}

#[test]
fn static_names_stay_per_unit() {
    let p = link(&[
        (
            "a.c",
            "static int n; static int *get(void) { return &n; } int *a(void) { return get(); }",
        ),
        (
            "b.c",
            "static int n; static int *get(void) { return &n; } int *b(void) { return get(); }",
        ),
    ]);
    let mut fns: Vec<&str> = p.program.functions.iter().map(|f| &*f.name).collect();
    fns.sort();
    assert_eq!(fns, ["a", "b", "get@a.c", "get@b.c"]);
    let mut globals: Vec<&str> = p.program.globals.iter().map(|g| &*g.name).collect();
    globals.sort();
    assert_eq!(globals, ["n@a.c", "n@b.c"]);
    assert!(p.warnings.is_empty());
}

#[test]
fn an_extern_declaration_is_the_one_definition() {
    let header = "extern int *shared; extern int x;";
    let p = link(&[
        (
            "a.c",
            &format!("{header} int *use(void) {{ return shared; }}"),
        ),
        ("b.c", &format!("{header} int x; int *shared = &x;")),
        ("c.c", &format!("{header} void set(void) {{ shared = 0; }}")),
    ]);
    let g = p.program.global("shared").unwrap();
    assert_eq!(definition(&p, "shared"), Definition::Initialised);
    assert_eq!(g.init.len(), 1);
    assert!(matches!(&g.init[0].values[..], [Rvalue::AddrOf(_)]));
    assert_eq!(
        p.program
            .globals
            .iter()
            .filter(|g| &*g.name == "shared")
            .count(),
        1
    );
    assert_eq!(definition(&p, "x"), Definition::Tentative);
    assert!(p.warnings.is_empty(), "{:?}", p.warnings);
}

#[test]
fn tentative_definitions_merge_with_a_warning() {
    let p = link(&[
        ("a.c", "int *t; int *u;"),
        ("b.c", "int *t; int v; int *u = &v;"),
        ("c.c", "int *t;"),
    ]);
    assert_eq!(definition(&p, "t"), Definition::Tentative);
    assert_eq!(definition(&p, "u"), Definition::Initialised);
    assert_eq!(p.program.global("u").unwrap().init.len(), 1);
    let msgs: Vec<&str> = p.warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        msgs,
        [
            "`t` is defined in 3 units (a.c, b.c, c.c): one object, as with gcc's -fcommon",
            "`u` is defined in 2 units (a.c, b.c): one object, as with gcc's -fcommon",
        ]
    );
    assert_eq!(&*p.warnings[1].files[1], "b.c");
}

#[test]
fn two_initialised_definitions_are_an_error_naming_both_units() {
    let e = lower(&[("a.c", "int n = 1;"), ("b.c", "int n = 2;")]).unwrap_err();
    assert_eq!(e.0, "`n` is initialised in both a.c and b.c");
    let e = lower(&[("a.c", "void f(void) {}"), ("b.c", "void f(void) {}")]).unwrap_err();
    assert_eq!(e.0, "`f` is defined in both a.c and b.c");
    let e = lower(&[
        ("a.c", "int main(void) { return 0; }"),
        ("b.c", "int main(void) { return 1; }"),
    ])
    .unwrap_err();
    assert!(e.0.starts_with("`main` is defined in both a.c and b.c (a folder with several programs needs a pointee.toml"));
    let e = lower(&[("a.c", "int g;"), ("b.c", "void g(void) {}")]).unwrap_err();
    assert_eq!(e.0, "`g` is a function in b.c and a global in a.c");
}

#[test]
fn library_globals_are_one_object_that_no_unit_defines() {
    let p = link(&[
        (
            "a.c",
            "void a(void) { fprintf(stderr, \"a\"); char *o = optarg; }",
        ),
        ("b.c", "void b(void) { fprintf(stderr, \"b\"); }"),
        (
            "c.c",
            "extern char **environ; char **e(void) { return environ; }",
        ),
    ]);
    for name in ["stderr", "optarg", "environ"] {
        assert_eq!(definition(&p, name), Definition::Extern, "{name}");
        assert!(p.program.global(name).unwrap().init.is_empty());
        assert_eq!(
            p.program
                .globals
                .iter()
                .filter(|g| &*g.name == name)
                .count(),
            1
        );
    }
    assert!(p.warnings.is_empty());
}

#[test]
fn a_block_scope_extern_keeps_the_file_definition() {
    let p = link(&[(
        "a.c",
        "int x; int *g = &x; int *f(void) { extern int *g; return g; }",
    )]);
    assert_eq!(definition(&p, "g"), Definition::Initialised);
    assert_eq!(p.program.global("g").unwrap().init.len(), 1);
}

#[test]
fn an_incomplete_array_declaration_takes_the_definition_type() {
    let p = link(&[
        (
            "a.c",
            "extern int *tab[]; int *first(void) { return tab[0]; }",
        ),
        ("b.c", "int x; int *tab[4] = { &x };"),
    ]);
    let t = pointee_ir::type_to_string(&p.program.global("tab").unwrap().ty);
    assert_eq!(t, "scalar*[4]");
}

/// The units of a program are lowered on several threads
/// (`lower_units`); the result is the units lowered one by one, in order,
/// whatever thread took which (every fixture project, headers included).
#[test]
fn units_lowered_on_threads_equal_units_lowered_one_by_one() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c");
    let mut fs = pointee_c::pointee_cpp::MemoryFs::new();
    let mut units = Vec::new();
    for dir in [
        "projects/macros",
        "projects/library_tables",
        "projects/statics_two_units",
        "flow",
    ] {
        for entry in std::fs::read_dir(root.join(dir)).expect("a fixture folder") {
            let path = entry.expect("an entry").path();
            let name = format!("{dir}/{}", path.file_name().unwrap().to_string_lossy());
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            if name.ends_with(".c") {
                units.push(name.clone());
            }
            fs.insert(&name, &text);
        }
    }
    units.sort();
    assert!(units.len() > 10, "{units:?}");
    let paths: Vec<&str> = units.iter().map(String::as_str).collect();
    let none = pointee_c::pointee_cpp::MemoryFs::new();
    let config = pointee_c::Config::default();
    let on_threads = pointee_c::lower_units(&paths, &|_| Some(&config), &fs, &none);
    let mut session = pointee_c::Session::one_pass();
    let one_by_one: Vec<pointee_c::CFile> = paths
        .iter()
        .map(|p| pointee_c::lower_unit(&mut session, &config, &fs, p))
        .collect();
    assert!(on_threads == one_by_one);
}
