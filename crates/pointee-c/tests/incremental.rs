//! Lowering function by function (the outline, then each body from its own
//! text) gives exactly what lowering the whole file gives, and the pieces
//! change only where the text changed: what lets an editor re-lower one
//! function after an edit.

use pointee_c::{CFile, FunctionSyntax, Outline};
use std::path::{Path, PathBuf};

fn parse(text: &str) -> tree_sitter::Tree {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("tree-sitter-c loads");
    p.parse(text, None).expect("a tree")
}

fn outline(text: &str) -> Outline {
    pointee_c::outline("t.c", text, &parse(text))
}

/// Lowers one function from its own text (positions relative to it).
fn lower_one(o: &Outline, text: &str, f: &FunctionSyntax) -> CFile {
    pointee_c::lower_function(
        &o.scope,
        "t.c",
        &text[f.range.start as usize..f.range.end as usize],
    )
}

/// Preprocesses, outlines the expanded text, lowers each function from its
/// own text, assembles and maps back: what an editor's database does.
fn by_functions(text: &str) -> CFile {
    let pp = pointee_c::preprocess_file("t.c", text);
    let text = &pp.text;
    let o = outline(text);
    let parts: Vec<CFile> = o.functions.iter().map(|f| lower_one(&o, text, f)).collect();
    let starts = o.functions.iter().map(|f| f.range.start);
    pointee_c::to_source(pointee_c::assemble(&o.file, parts.iter().zip(starts)), &pp)
}

fn c_files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c")];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("readable fixtures") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "c") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn function_by_function_equals_whole_file_on_every_fixture() {
    for path in c_files() {
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let whole = pointee_c::lower_file("t.c", &text);
        let pieces = by_functions(&text);
        assert_eq!(
            whole.program,
            pieces.program,
            "IR differs for {}",
            path.display()
        );
        assert_eq!(
            whole.source,
            pieces.source,
            "source map differs for {}",
            path.display()
        );
    }
}

const FILE: &str = "struct s { int *p; };
int g;
int *first(struct s *a) {
    return a->p;
}
/* a comment */
void second(struct s *a) {
    a->p = &g;
}
";

fn ir_of(text: &str, name: &str) -> std::sync::Arc<pointee_ir::Function> {
    let o = outline(text);
    let f = o
        .functions
        .iter()
        .find(|f| &*f.name == name)
        .expect("the function is outlined");
    lower_one(&o, text, f)
        .program
        .functions
        .into_iter()
        .next()
        .expect("one function")
}

#[test]
fn a_body_edit_changes_that_function_only() {
    let edited = FILE.replace("a->p = &g;", "a->p = 0;");
    assert_eq!(
        outline(FILE).scope,
        outline(&edited).scope,
        "a body edit leaves the file scope equal"
    );
    assert_eq!(ir_of(FILE, "first"), ir_of(&edited, "first"));
    assert_ne!(ir_of(FILE, "second"), ir_of(&edited, "second"));
}

#[test]
fn comments_whitespace_and_moves_change_no_ir() {
    let commented = FILE.replace(
        "/* a comment */",
        "/* a longer comment\n   over two lines */\n\n",
    );
    let moved = format!(
        "{}\n{}",
        &FILE[FILE.find("/* a comment */").unwrap()..],
        &FILE[..FILE.find("/* a comment */").unwrap()]
    );
    for other in [&commented, &moved] {
        assert_eq!(outline(FILE).scope, outline(other).scope);
        for name in ["first", "second"] {
            assert_eq!(
                ir_of(FILE, name),
                ir_of(other, name),
                "{name} after an edit outside it"
            );
        }
    }
}

#[test]
fn a_declaration_edit_changes_the_scope() {
    let edited = FILE.replace("struct s { int *p; };", "struct s { int *p; int *q; };");
    assert_ne!(outline(FILE).scope, outline(&edited).scope);
}

#[test]
fn records_in_definition_headers_are_numbered_as_before() {
    // The outline reads a header with a record body more than once (to
    // know every function early, in file order, and its parameters),
    // numbering its anonymous records each time, as it always has; headers
    // without one are read once, which must not move any number.
    let text = "\
struct { int *a; } *mk(struct { int *p; } *q) { return 0; }
struct node { struct node *next; };
struct node *plain(struct node *n, int k) { return n; }
struct { int *b; } g;
";
    let lowered = pointee_c::lower_file("t.c", text);
    let keys: Vec<&str> = lowered.program.types.records.keys().map(|k| &**k).collect();
    assert_eq!(
        keys,
        vec![
            "DIR",
            "FILE",
            "fpos_t",
            "jmp_buf",
            "pthread_mutex_t",
            "pthread_t",
            "struct <anon1>",
            "struct <anon2>",
            "struct <anon3>",
            "struct <anon4>",
            "struct <anon5>",
            "struct <anon6>",
            "struct node",
            "va_list",
        ]
    );
    let sources: Vec<(&str, u32, u32)> = lowered
        .source
        .records
        .iter()
        .map(|(k, r)| (&**k, r.start, r.end))
        .collect();
    assert_eq!(
        sources,
        vec![
            ("struct <anon1>", 0, 18),
            ("struct <anon2>", 23, 41),
            ("struct <anon3>", 0, 18),
            ("struct <anon4>", 23, 41),
            ("struct <anon5>", 23, 41),
            ("struct node", 60, 94),
            ("struct <anon6>", 152, 170),
            // `mk`'s own lowering names its header's records again.
            ("struct <anon1>", 0, 18),
            ("struct <anon2>", 23, 41),
            ("struct <anon3>", 23, 41),
        ]
    );
}

#[test]
fn a_header_reads_the_typedefs_declared_before_it() {
    // Functions are known (with a type) before any declaration is read;
    // the type in the scope must still be the one read in file order,
    // where `IP` is known.
    let by_typedef = "typedef int *IP;\nIP f(IP p) { return p; }\n";
    let spelled_out = "typedef int *IP;\nint *f(int *p) { return p; }\n";
    assert_eq!(outline(by_typedef).scope, outline(spelled_out).scope);
    let unknown = "typedef int *IP;\nQ f(Q p) { return p; }\n";
    assert_ne!(outline(by_typedef).scope, outline(unknown).scope);
}
