//! Prints tree-sitter-c's syntax tree of a file, for writing lowering code:
//! `cargo run -p pointee-c --example cst -- FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: cst FILE");
    let text = std::fs::read_to_string(&path).expect("readable file");
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("ABI match");
    let tree = parser.parse(&text, None).expect("a tree");
    println!("{}", tree.root_node().to_sexp());
}
