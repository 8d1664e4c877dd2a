//! Prints the tree-sitter tree of a C file's expanded text (after
//! preprocessing), to see how a construct parses:
//! `cargo run -p pointee-c --example tree -- FILE`.

fn main() {
    let path = std::env::args().nth(1).expect("a file");
    let text = std::fs::read_to_string(&path).expect("readable");
    let pp = pointee_c::preprocess_file(&path, &text);
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("tree-sitter-c loads");
    let tree = parser.parse(&pp.text, None).expect("a tree");
    let mut cursor = tree.walk();
    let mut depth = 0;
    loop {
        let n = cursor.node();
        if n.is_named() || n.is_error() || n.is_missing() {
            let text: String = pp.text[n.start_byte()..n.end_byte()]
                .chars()
                .take(40)
                .collect();
            let field = cursor
                .field_name()
                .map(|f| format!("{f}: "))
                .unwrap_or_default();
            println!(
                "{}{field}{} {:?}",
                "  ".repeat(depth),
                n.kind(),
                text.replace('\n', " ")
            );
        }
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return;
            }
            depth -= 1;
        }
    }
}
