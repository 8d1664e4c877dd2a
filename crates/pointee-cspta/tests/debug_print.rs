//! Prints a fixture's IR, notes and solution (an ignored test, for debugging):
//! `FIX=Name.java VAR=2-obj cargo test -p pointee-cspta --test debug_print -- --ignored --nocapture`.

mod common;
#[test]
#[ignore]
fn print() {
    let name = std::env::var("FIX").unwrap();
    let v = std::env::var("VAR").unwrap_or("ci".into());
    let files = common::load(&common::fixtures_dir().join(name));
    let jp = common::lower(&files);
    for f in &jp.program.functions {
        println!("{}", f.header_to_string());
        print!("{}", f.body_to_string());
    }
    for s in &jp.sources { for n in &s.notes { println!("note {:?} {}", n.range, n.message); } }
    let a = common::analyse(&jp, &v);
    for l in a.facts_text() { println!("{l}"); }
    println!("{:?}", a.stats());
    for c in pointee_cspta::alias_checks(&a, &jp.program) { println!("{c:?}"); }
}
