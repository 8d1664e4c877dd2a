//! Lowering function by function: which lowerings an edit re-runs (from
//! salsa's `WillExecute` events), and that the assembled file always equals
//! lowering the whole file at once.

use super::*;
use crate::tests::{Harness, PROGRAM};
use pointee_ir::Program;
use std::path::{Path, PathBuf};

fn count(ran: &[String], query: &str) -> usize {
    ran.iter().filter(|r| *r == query).count()
}

/// The runs of one per-function query, e.g. `["lower_function(id)"]`.
fn runs_of<'a>(ran: &'a [String], query: &str) -> Vec<&'a str> {
    ran.iter()
        .filter(|r| r.starts_with(&format!("{query}(")))
        .map(|r| r.as_str())
        .collect()
}

/// What `file_decls` must be: the whole file's declarations, by name.
fn decls_of(lowered: &CFile) -> Program {
    let p = &lowered.program;
    let mut globals = p.globals.clone();
    globals.sort_by(|a, b| a.name.cmp(&b.name));
    let mut externs = p.externs.clone();
    externs.sort_by(|a, b| a.name.cmp(&b.name));
    Program {
        types: p.types.clone(),
        globals,
        functions: Vec::new(),
        externs,
        classes: p.classes.clone(),
    }
}

/// Every query of a file agrees with lowering its current text at once.
fn assert_like_whole_file(db: &Database, file: SourceFile, what: &str) {
    let path = file.path(db);
    let whole = pointee_c::lower_file(path, file.text(db));
    let by_function = lower_c(db, file);
    assert_eq!(by_function.program, whole.program, "IR of {what}");
    assert_eq!(by_function.source, whole.source, "source map of {what}");
    let mut names: Vec<Name> = whole
        .program
        .functions
        .iter()
        .map(|f| f.name.clone())
        .collect();
    names.sort();
    assert_eq!(**file_functions(db, file), names, "functions of {what}");
    for key in function_keys(db, file) {
        let name = key.name(db);
        assert_eq!(
            c_function(db, key).as_deref(),
            whole.program.function(name),
            "`{name}` of {what}"
        );
    }
    assert_eq!(**file_decls(db, file), decls_of(&whole), "decls of {what}");
    assert_eq!(
        **file_notes(db, file),
        whole.source.notes,
        "notes of {what}"
    );
}

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c");
    let mut out = Vec::new();
    for dir in ["lower", "flow"] {
        for e in std::fs::read_dir(root.join(dir)).expect("the fixtures are readable") {
            let p = e.expect("a directory entry").path();
            if p.extension().is_some_and(|x| x == "c") {
                out.push(p);
            }
        }
    }
    out.sort();
    assert!(out.len() > 50, "fixtures found: {}", out.len());
    out
}

/// A file in a database, edited as an editor does: the text with the tree
/// re-parsed incrementally from the previous one.
struct Editor {
    db: Database,
    file: SourceFile,
    text: String,
    tree: tree_sitter::Tree,
}

impl Editor {
    fn new(path: &str, text: &str) -> Editor {
        let mut db = Database::default();
        let project = Project::new(&db, Vec::new(), Config::default());
        let tree = parse(Lang::C, text, None);
        let handle = Some(TreeHandle(Arc::new(tree.clone())));
        let file = upsert_file(&mut db, project, path, text.into(), handle);
        Editor {
            db,
            file,
            text: text.to_string(),
            tree,
        }
    }

    /// Replaces `text[start..end]` with `with`.
    fn replace(&mut self, start: usize, end: usize, with: &str) {
        let new = format!("{}{with}{}", &self.text[..start], &self.text[end..]);
        let point = |s: &str, off: usize| {
            let before = &s[..off];
            let row = before.matches('\n').count();
            let column = off - before.rfind('\n').map(|i| i + 1).unwrap_or(0);
            tree_sitter::Point { row, column }
        };
        self.tree.edit(&tree_sitter::InputEdit {
            start_byte: start,
            old_end_byte: end,
            new_end_byte: start + with.len(),
            start_position: point(&self.text, start),
            old_end_position: point(&self.text, end),
            new_end_position: point(&new, start + with.len()),
        });
        self.tree = parse(Lang::C, &new, Some(&self.tree));
        self.text = new;
        let handle = Some(TreeHandle(Arc::new(self.tree.clone())));
        self.db
            .set_text(self.file, self.text.as_str().into(), handle);
    }

    /// The byte range of the `i`th function definition (from the end when
    /// `i` is negative), as the whole-file lowering sees it.
    fn function(&self, i: isize) -> Option<(usize, usize)> {
        let fs = pointee_c::lower_file("x.c", &self.text).source.functions;
        let i = if i < 0 { fs.len() as isize + i } else { i };
        let r = fs.get(usize::try_from(i).ok()?)?.range;
        Some((r.start as usize, r.end as usize))
    }
}

#[test]
fn lower_c_equals_whole_file_lowering_on_every_fixture() {
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("a readable fixture");
        // Without a tree (the database parses) and with one.
        let mut h = Harness::new(&[("x.c", &text)]);
        h.run();
        assert_like_whole_file(&h.db, h.file("x.c"), &path.display().to_string());
        let e = Editor::new("x.c", &text);
        assert_like_whole_file(&e.db, e.file, &path.display().to_string());
    }
}

#[test]
fn lower_c_stays_equal_through_incremental_edits_on_every_fixture() {
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("a readable fixture");
        let name = path.display().to_string();
        let mut e = Editor::new("x.c", &text);
        lower_c(&e.db, e.file);
        // A comment at the top moves everything.
        e.replace(0, 0, "/* an edit */\n");
        assert_like_whole_file(&e.db, e.file, &format!("{name} + comment"));
        if let Some((start, end)) = e.function(0) {
            // A statement in the first body.
            if let Some(brace) = e.text[start..end].find('{') {
                let at = start + brace + 1;
                e.replace(at, at, "\n    int edit_probe;");
                assert_like_whole_file(&e.db, e.file, &format!("{name} + statement"));
            }
            // The first function defined again at the end: the later wins.
            let copy = format!("\n{}\n", &e.text[start..end]);
            let len = e.text.len();
            e.replace(len, len, &copy);
            assert_like_whole_file(&e.db, e.file, &format!("{name} + duplicate"));
        }
        // The last function moved to the top, then removed.
        if let Some((start, end)) = e.function(-1) {
            let moved = format!("{}\n", &e.text[start..end]);
            e.replace(start, end, "");
            e.replace(0, 0, &moved);
            assert_like_whole_file(&e.db, e.file, &format!("{name} + move"));
            e.replace(0, moved.len(), "");
            assert_like_whole_file(&e.db, e.file, &format!("{name} + removal"));
        }
        // Declarations every body may see.
        e.replace(0, 0, "typedef int *edit_t;\nint *edit_global;\n");
        assert_like_whole_file(&e.db, e.file, &format!("{name} + declarations"));
    }
}

#[test]
fn editing_one_body_relowers_only_that_function() {
    let mut h = Harness::new(&[("a.c", PROGRAM)]);
    let first = h.run();
    assert_eq!(
        runs_of(&first, "lower_function"),
        vec![
            "lower_function(id)",
            "lower_function(main)",
            "lower_function(set)"
        ]
    );
    h.edit("a.c", "    return p;", "    p = p;\n    return p;");
    let ran = h.run();
    assert_eq!(runs_of(&ran, "lower_function"), vec!["lower_function(id)"]);
    // The other functions' IR is not even projected again, so nothing
    // downstream of it runs.
    assert_eq!(runs_of(&ran, "c_function"), vec!["c_function(id)"]);
    assert_eq!(runs_of(&ran, "function_calls"), vec!["function_calls(id)"]);
    assert_eq!(count(&ran, "c_program"), 1, "{ran:?}");
    assert_eq!(count(&ran, "lower_c"), 1, "{ran:?}");
    assert_like_whole_file(&h.db, h.file("a.c"), "the edited file");
}

#[test]
fn edits_between_functions_and_moves_relower_nothing() {
    let mut h = Harness::new(&[("a.c", PROGRAM)]);
    h.run();
    h.edit(
        "a.c",
        "/* set: stores its argument */",
        "/* set: stores\n   its argument, longer now */\n\n",
    );
    let quiet = |ran: &[String], what: &str| {
        assert_eq!(count(ran, "lower_c"), 1, "{what}: {ran:?}");
        for r in ran {
            assert!(
                !r.starts_with("lower_function")
                    && !r.starts_with("c_function")
                    && !r.starts_with("function_calls")
                    && r != "c_program"
                    && r != "c_analysis",
                "{r} re-executed after {what}: {ran:?}"
            );
        }
    };
    let ran = h.run();
    quiet(&ran, "a comment edit");
    assert_like_whole_file(&h.db, h.file("a.c"), "the commented file");

    let f = h.file("a.c");
    let text = f.text(&h.db).to_string();
    let id_fn = "int *id(int *p) {\n    return p;\n}\n\n";
    let moved = text.replacen(id_fn, "", 1) + "\n" + id_fn;
    h.db.set_text(f, moved.into(), None);
    let ran = h.run();
    quiet(&ran, "moving a function");
    assert_like_whole_file(&h.db, h.file("a.c"), "the file with `id` moved");
}

#[test]
fn a_new_declaration_relowers_every_function_of_the_file() {
    let src = "\
int g;

int *first(void) {
    T x;
    x = &h;
    return x;
}

int *second(int *p) {
    return p;
}
";
    let mut h = Harness::new(&[("a.c", src), ("b.c", "int *other(int *q) { return q; }\n")]);
    h.run();
    let before = c_function(
        &h.db,
        FunctionKey::new(&h.db, h.file("a.c"), Name::from("first")),
    )
    .clone();
    for (what, from, to) in [
        ("a global", "int g;\n", "int g;\nint h;\n"),
        ("a typedef", "int g;\n", "typedef int *T;\nint g;\n"),
    ] {
        h.edit("a.c", from, to);
        let ran = h.run();
        // The file scope changed: every function of a.c is lowered again,
        // none of b.c.
        assert_eq!(
            runs_of(&ran, "lower_function"),
            vec!["lower_function(first)", "lower_function(second)"],
            "after {what}"
        );
        assert_eq!(count(&ran, "c_analysis"), 1, "after {what}: {ran:?}");
        assert_like_whole_file(&h.db, h.file("a.c"), &format!("a.c with {what}"));
    }
    let after = c_function(
        &h.db,
        FunctionKey::new(&h.db, h.file("a.c"), Name::from("first")),
    )
    .clone();
    assert_ne!(before, after, "`first` now reads the new declarations");
}

#[test]
fn a_name_defined_twice_keeps_the_later_definition() {
    let src = "\
int g, h;
int *f(int *p) {
    static int *s;
    s = p;
    return &g;
}
int *other(void) {
    return f(0);
}
int *f(int *p) {
    return &h;
}
";
    let mut h = Harness::new(&[("a.c", src)]);
    h.run();
    let file = h.file("a.c");
    assert_eq!(
        **file_functions(&h.db, file),
        vec![Name::from("f"), "other".into()]
    );
    assert_eq!(
        function_text(&h.db, FunctionKey::new(&h.db, file, Name::from("f"))).len(),
        2
    );
    assert_like_whole_file(&h.db, file, "two definitions of `f`");
    // Editing the first definition re-lowers `f` (both definitions) only.
    h.edit("a.c", "    s = p;\n", "    s = p;\n    p = s;\n");
    let ran = h.run();
    assert_eq!(runs_of(&ran, "lower_function"), vec!["lower_function(f)"]);
    assert_like_whole_file(&h.db, h.file("a.c"), "the first `f` edited");
}

#[test]
fn knr_and_implicit_int_definitions_relower_alone() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/lower/knr_implicit_int.c");
    let src = std::fs::read_to_string(path).expect("the K&R fixture");
    let mut h = Harness::new(&[("a.c", &src)]);
    h.run();
    // A K&R parameter declaration is part of its definition's text.
    h.edit("a.c", "    int *b;\n", "    int *b; /* the second */\n");
    let ran = h.run();
    assert_eq!(
        runs_of(&ran, "lower_function"),
        vec!["lower_function(pick)"]
    );
    assert!(runs_of(&ran, "function_calls").is_empty(), "{ran:?}");
    assert_like_whole_file(&h.db, h.file("a.c"), "pick's declarations edited");
    h.edit("a.c", "    count(3);\n", "    count(3);\n    count(4);\n");
    let ran = h.run();
    assert_eq!(
        runs_of(&ran, "lower_function"),
        vec!["lower_function(main)"]
    );
    assert_eq!(
        runs_of(&ran, "function_calls"),
        vec!["function_calls(main)"]
    );
    assert_like_whole_file(&h.db, h.file("a.c"), "main edited");
}

const MACROS: &str = "\
#define NEXT(n) ((n)->next)
struct node { struct node *next; };

struct node *uses(struct node *n) {
    return NEXT(n);
}

struct node *plain(struct node *n) {
    return n;
}
";

#[test]
fn editing_a_define_relowers_only_the_functions_that_use_it() {
    let mut h = Harness::new(&[("a.c", MACROS)]);
    h.run();
    h.edit("a.c", "#define NEXT(n) ((n)->next)", "#define NEXT(n) (n)");
    let ran = h.run();
    assert_eq!(
        runs_of(&ran, "lower_function"),
        vec!["lower_function(uses)"]
    );
    assert_eq!(runs_of(&ran, "c_function"), vec!["c_function(uses)"]);
    assert_like_whole_file(&h.db, h.file("a.c"), "the file with NEXT changed");
    // A body edit that touches no directive leaves the other alone.
    h.edit("a.c", "    return n;", "    n = n;\n    return n;");
    let ran = h.run();
    assert_eq!(
        runs_of(&ran, "lower_function"),
        vec!["lower_function(plain)"]
    );
}

/// `a` of `a.c` reads `NEXT(n)` as the edited header defines it.
fn assert_a_sees_the_edited_next(h: &Harness) {
    let name: Name = "a".into();
    let f = c_function(&h.db, FunctionKey::new(&h.db, h.file("a.c"), name))
        .clone()
        .expect("a is lowered");
    assert!(
        f.body_lines().iter().any(|l| l.text.contains("(*t1).next")),
        "{:?}",
        f.body_lines()
            .iter()
            .map(|l| l.text.clone())
            .collect::<Vec<_>>()
    );
}

#[test]
fn editing_a_header_relowers_the_units_that_include_it() {
    let header = "#ifndef LIST_H\n#define LIST_H\nstruct node { struct node *next; };\n#define NEXT(n) ((n)->next)\n#endif\n";
    let a = "#include \"list.h\"\nstruct node *a(struct node *n) { return NEXT(n); }\n";
    let b = "struct node *b(struct node *n) { return n; }\n";
    let mut h = Harness::new(&[("list.h", header), ("a.c", a), ("b.c", b)]);
    let first = h.run();
    assert_eq!(
        runs_of(&first, "lower_function"),
        vec!["lower_function(a)", "lower_function(b)"]
    );
    h.edit("list.h", "((n)->next)", "((n)->next->next)");
    let ran = h.run();
    assert_eq!(runs_of(&ran, "lower_function"), vec!["lower_function(a)"]);
    assert_eq!(runs_of(&ran, "c_function"), vec!["c_function(a)"]);
    assert_like_whole_file(&h.db, h.file("b.c"), "the unit that includes nothing");
    // The unit sees the header's new text.
    assert_a_sees_the_edited_next(&h);
}

/// The class: a run of the preprocessor resumed after an include must keep
/// depending on that include's text, or a later header edit is missed.
#[test]
fn a_header_edited_after_a_resumed_run_still_reaches_the_unit() {
    let header = "struct node { struct node *next; };\n#define NEXT(n) ((n)->next)\n";
    let a = "#include \"list.h\"\nint x;\nstruct node *a(struct node *n) { return NEXT(n); }\n";
    let mut h = Harness::new(&[("list.h", header), ("a.c", a)]);
    h.run();
    // An edit after the include: the preprocessor resumes past it.
    h.edit("a.c", "return NEXT(n);", "x = 1; return NEXT(n);");
    h.run();
    h.edit("list.h", "((n)->next)", "((n)->next->next)");
    let ran = h.run();
    assert_eq!(runs_of(&ran, "lower_function"), vec!["lower_function(a)"]);
    assert_a_sees_the_edited_next(&h);
}

#[test]
fn includes_not_in_the_program_are_read_from_the_system() {
    let mut system = pointee_c::pointee_cpp::MemoryFs::new();
    system.insert(
        "inc/list.h",
        "struct node { struct node *next; };\n#define NEXT(n) ((n)->next)\n",
    );
    let mut db = Database::default().with_system(Arc::new(system));
    let project = Project::new(&db, Vec::new(), Config::default());
    let a = "#include \"list.h\"\nstruct node *a(struct node *n) { return NEXT(n); }\n";
    let file = upsert_file(&mut db, project, "src/a.c", a.into(), None);
    let notes = file_notes(&db, file).clone();
    assert_eq!(
        notes.iter().map(|n| n.message.as_str()).collect::<Vec<_>>(),
        ["`list.h` not found; its names are unknown"]
    );
    // With the unit's include directory, the header is found.
    let config = pointee_c::Config {
        include_dirs: vec!["inc".into()],
        ..Default::default()
    };
    set_c_configs(&mut db, [("src/a.c".to_string(), config)].into());
    assert!(
        file_notes(&db, file).is_empty(),
        "{:?}",
        file_notes(&db, file)
    );
    let lowered = lower_c(&db, file);
    assert!(lowered.program.types.records.contains_key("struct node"));
    // The header's record lands in the header.
    assert_eq!(lowered.headers.len(), 1);
    assert_eq!(&*lowered.headers[0].file, "inc/list.h");
}

/// The outline of the editor's current text in a fresh database.
fn fresh_outline(e: &Editor) -> Arc<COutline> {
    let fresh = Editor::new("x.c", &e.text);
    c_outline(&fresh.db, fresh.file).clone()
}

#[test]
fn a_body_edit_keeps_the_outline_moved_and_equal_to_a_fresh_one() {
    let mut e = Editor::new("x.c", PROGRAM);
    let before = c_outline(&e.db, e.file).clone();
    let (start, end) = e.function(0).expect("a function");
    let brace = start + e.text[start..end].find('{').expect("a body") + 1;
    e.replace(brace, brace, "\n    int edit_probe = 1;");
    let after = c_outline(&e.db, e.file).clone();
    // Kept: the scope is the previous outline's, not made again.
    assert!(Arc::ptr_eq(&before.scope, &after.scope), "not kept");
    assert_eq!(*after, *fresh_outline(&e));
    assert_like_whole_file(&e.db, e.file, "the edited body");

    // Edits that change more than one body's inside are outlined again,
    // and equal a fresh outline too: an unbalanced brace, the braces
    // themselves, the signature, a new declaration after the body.
    type At<'a> = &'a dyn Fn(&str) -> usize;
    let edits: [(&str, At); 4] = [
        ("{ {", &|t| t.find("int edit_probe").unwrap()),
        ("", &|t| t.find('{').unwrap()),
        ("const ", &|_| start),
        ("int *before_edit;\n", &|_| 0),
    ];
    for (with, at) in edits {
        let before = c_outline(&e.db, e.file).clone();
        let at = at(&e.text);
        let end = if with.is_empty() { at + 1 } else { at };
        e.replace(at, end, with);
        let after = c_outline(&e.db, e.file).clone();
        assert!(
            !Arc::ptr_eq(&before.scope, &after.scope),
            "kept after {with:?}"
        );
        assert_eq!(*after, *fresh_outline(&e), "after {with:?}");
        assert_like_whole_file(&e.db, e.file, &format!("after {with:?}"));
    }
}

#[test]
fn body_edits_of_every_fixture_give_the_outline_of_a_fresh_parse() {
    let mut kept = 0;
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("a readable fixture");
        let name = path.display().to_string();
        let mut e = Editor::new("x.c", &text);
        let count = pointee_c::lower_file("x.c", &text).source.functions.len();
        for k in 0..count.min(6) {
            let Some((start, end)) = e.function(k as isize) else {
                break;
            };
            let Some(brace) = e.text[start..end].find('{') else {
                continue;
            };
            let before = c_outline(&e.db, e.file).clone();
            let at = start + brace + 1;
            e.replace(at, at, "\n    int edit_probe;");
            let after = c_outline(&e.db, e.file).clone();
            kept += usize::from(Arc::ptr_eq(&before.scope, &after.scope));
            assert_eq!(*after, *fresh_outline(&e), "{name}: edit of function {k}");
        }
        assert_like_whole_file(&e.db, e.file, &name);
    }
    assert!(kept > 100, "only {kept} outlines kept");
}

/// The linked program as `pointee_c::lower` links the project's units
/// lowered whole, up to the order of functions, globals and externs (the
/// database keeps each file's by name).
fn assert_linked_like_whole(h: &Harness, what: &str) {
    let files: Vec<(String, String)> = h
        .project
        .files(&h.db)
        .iter()
        .map(|f| (f.path(&h.db).clone(), f.text(&h.db).to_string()))
        .collect();
    let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (&**p, &**t)).collect();
    let sorted = |p: &Program| {
        let mut p = p.clone();
        p.functions.sort_by(|a, b| a.name.cmp(&b.name));
        p.globals.sort_by(|a, b| a.name.cmp(&b.name));
        p.externs.sort_by(|a, b| a.name.cmp(&b.name));
        p
    };
    let whole = pointee_c::lower(&refs).expect("the units link");
    let linked = c_link(&h.db, h.project).as_ref().expect("the units link");
    assert_eq!(sorted(&linked.program), sorted(&whole.program), "{what}");
    assert_eq!(linked.warnings, whole.warnings, "{what}");
}

/// The class: linking again after an edit. An edit that changes no
/// declaration and no function's name (a body edit) links no declaration
/// again; one that does re-links them; the program always equals linking
/// the units lowered whole (static names of two units renamed apart).
#[test]
fn a_body_edit_links_no_declaration_again() {
    let a = "static int slot;\nstatic int *cache;\nstatic int *pick(void) {\n    cache = &slot;\n    return cache;\n}\nint shared;\nint *from_a(void) { return pick(); }\n";
    let b = "static int slot;\nint shared;\nstatic int *pick(void) { return &slot; }\nint *from_a(void);\nint main(void) {\n    int *p = pick();\n    return from_a() == p;\n}\n";
    let mut h = Harness::new(&[("a.c", a), ("b.c", b)]);
    let first = h.run();
    assert_eq!(count(&first, "c_link_decls"), 1, "{first:?}");
    assert_linked_like_whole(&h, "the first run");
    assert!(c_program(&h.db, h.project)
        .as_ref()
        .expect("links")
        .function("pick@b.c")
        .is_some());

    h.edit(
        "a.c",
        "    return cache;",
        "    cache = cache;\n    return cache;",
    );
    let ran = h.run();
    assert_eq!(count(&ran, "c_link"), 1, "{ran:?}");
    assert_eq!(count(&ran, "c_link_decls"), 0, "{ran:?}");
    assert_eq!(runs_of(&ran, "c_function"), vec!["c_function(pick)"]);
    assert_linked_like_whole(&h, "after a body edit");

    // A new global, and a function made external: declarations again.
    h.edit("b.c", "int main", "int extra;\nint main");
    let ran = h.run();
    assert_eq!(count(&ran, "c_link_decls"), 1, "{ran:?}");
    assert_linked_like_whole(&h, "after a new global");
    h.edit("b.c", "static int *pick", "int *pick_b");
    h.edit("b.c", "= pick()", "= pick_b()");
    let ran = h.run();
    assert_eq!(count(&ran, "c_link_decls"), 1, "{ran:?}");
    assert_linked_like_whole(&h, "after a function renamed");
}

/// `text_edit` (blocks compared at once) finds the edit a byte-by-byte
/// comparison finds, with its points, for edits at every place and of
/// every size around a block's length.
#[test]
fn text_edit_finds_the_edit_byte_by_byte_comparison_finds() {
    let naive = |old: &str, new: &str| {
        let (a, b) = (old.as_bytes(), new.as_bytes());
        let start = a.iter().zip(b).take_while(|(x, y)| x == y).count();
        let tail = a[start..]
            .iter()
            .rev()
            .zip(b[start..].iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        let point = |s: &[u8], at: usize| {
            let before = &s[..at];
            let row = before.iter().filter(|&&c| c == b'\n').count();
            let column = at
                - before
                    .iter()
                    .rposition(|&c| c == b'\n')
                    .map_or(0, |i| i + 1);
            tree_sitter::Point { row, column }
        };
        tree_sitter::InputEdit {
            start_byte: start,
            old_end_byte: a.len() - tail,
            new_end_byte: b.len() - tail,
            start_position: point(a, start),
            old_end_position: point(a, a.len() - tail),
            new_end_position: point(b, b.len() - tail),
        }
    };
    let base: String = (0..300)
        .map(|i| {
            if i % 17 == 0 {
                '\n'
            } else {
                (b'a' + (i % 7) as u8) as char
            }
        })
        .collect();
    for at in (0..base.len()).step_by(7) {
        for len in [0, 1, 5, 63, 64, 65, 130] {
            let end = (at + len).min(base.len());
            for with in ["", "x", "\nnew\nlines\n", "aaaaaaaa"] {
                let new = format!("{}{with}{}", &base[..at], &base[end..]);
                assert_eq!(
                    text_edit(&base, &new),
                    naive(&base, &new),
                    "{at} {len} {with:?}"
                );
            }
        }
    }
}
