//! Debug aid: prints a C file's IR statements with their ids and the
//! pointer expressions of the source map.
//! `cargo run -p pointee-flow --example ir -- file.c`
fn main() {
    let path = std::env::args().nth(1).expect("file");
    let text = std::fs::read_to_string(&path).unwrap();
    let c = pointee_c::lower(&[(&path, &text)]).unwrap();
    for f in &c.program.functions {
        println!("{}", f.header_to_string());
        for l in f.body_lines() {
            let id = l.stmt.map(|s| format!("s{}", s.0)).unwrap_or_default();
            println!("{id:>5} {}{}", "  ".repeat(l.depth), l.text);
        }
        if let Some(fs) = c.sources[0].function(&f.name) {
            for e in &fs.exprs {
                println!(
                    "  expr {:?} {:?} {}",
                    &text[e.range.start as usize..e.range.end as usize],
                    e.point,
                    f.place_to_string(&e.place)
                );
            }
        }
    }
}
