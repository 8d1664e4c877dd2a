//! `lower_function` lowers a shallow definition on the calling thread and a
//! deep one on a thread with a deep stack: both fit in a small stack.

fn parse(text: &str) -> tree_sitter::Tree {
    let mut p = tree_sitter::Parser::new();
    p.set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("tree-sitter-c loads");
    p.parse(text, None).expect("a tree")
}

/// The definitions of each shape of nesting, `n` levels deep.
fn shapes(n: usize) -> Vec<String> {
    vec![
        format!(
            "int *f(int *p) {{ return {}p{}; }}",
            "(".repeat(n),
            ")".repeat(n)
        ),
        format!(
            "void f(int *p) {{ {} p = p; {} }}",
            "{".repeat(n),
            "}".repeat(n)
        ),
        format!("void f(int *p) {{ {} p = p; }}", "if (p) ".repeat(n)),
        format!("int f(int *p) {{ return {}p; }}", "*p + ".repeat(n)),
        format!(
            "int *f(int *p) {{ return {}p{}; }}",
            "f(".repeat(n),
            ")".repeat(n)
        ),
        format!("int *f(int *p) {{ return {}p; }}", "p ? p : ".repeat(n)),
    ]
}

/// Lowers each definition on a thread with 512 KiB of stack (a quarter of
/// what a spawned thread gets by default); an overflow aborts the test.
fn lower_on_small_stack(texts: Vec<String>) {
    std::thread::Builder::new()
        .stack_size(512 << 10)
        .spawn(move || {
            for text in texts {
                let o = pointee_c::outline("t.c", &text, &parse(&text));
                let f = o.functions.first().expect("one definition");
                let def = &text[f.range.start as usize..f.range.end as usize];
                let lowered = pointee_c::lower_function(&o.scope, "t.c", def);
                assert_eq!(lowered.program.functions.len(), 1, "{def}");
            }
        })
        .expect("spawning")
        .join()
        .expect("lowered");
}

#[test]
fn shallow_definitions_lower_on_the_calling_thread_within_a_small_stack() {
    // 40 levels of each shape stay within the depth lowered inline.
    lower_on_small_stack(shapes(20).into_iter().chain(shapes(40)).collect());
}

#[test]
fn deep_definitions_go_to_the_lowering_thread() {
    lower_on_small_stack(shapes(1500));
}
