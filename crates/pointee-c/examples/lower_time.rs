//! Times lowering alone: `cargo run --release -p pointee-c --example lower_time -- FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: lower_time FILE");
    let text = std::fs::read_to_string(&path).expect("readable file");
    let t = std::time::Instant::now();
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("ABI match");
    let tree = parser.parse(&text, None).expect("a tree");
    println!("parse alone: {:.1} ms", t.elapsed().as_secs_f64() * 1e3);
    drop(tree);
    let t = std::time::Instant::now();
    let f = pointee_c::lower_file(&path, &text);
    let elapsed = t.elapsed();
    let stmts: u32 = f.program.functions.iter().map(|f| f.stmt_count).sum();
    println!(
        "{} lines, {} functions, {} statements lowered in {:.1} ms",
        text.lines().count(),
        f.program.functions.len(),
        stmts,
        elapsed.as_secs_f64() * 1e3
    );
}
