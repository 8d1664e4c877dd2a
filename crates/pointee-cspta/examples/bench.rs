//! The Java benchmark (not a timed test): generates a large program in the
//! subset, then analyses it with every variant, one process per variant so
//! that each peak memory figure is its own.
//!
//!     cargo run --release -p pointee-cspta --example bench -- [--modules N] [--depth D] [--variant V]
//!
//! Prints one row per variant: statements, classes, the wall time (and in
//! parentheses the CPU time, which the machine's load does not inflate) of
//! tree-sitter's parse alone, of parsing and lowering, of the analysis and
//! of both, the peak resident memory, and the precision figures.

#[path = "../tests/common/gen.rs"]
#[allow(dead_code)]
mod gen;

use pointee_cspta::{Analysis, Variant};
use std::time::Instant;

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

fn peak_rss_mb() -> f64 {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    s.lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|k| k.parse::<f64>().ok())
        .map_or(0.0, |k| k / 1024.0)
}

/// The process's CPU time (user and system) so far, in seconds: unlike the
/// wall clock, it does not grow with the machine's load.
fn cpu_s() -> f64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // The fields after the command name (which is in parentheses).
    let rest = s.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<f64> = rest
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    // utime and stime are fields 14 and 15 (11 and 12 after the name), in
    // clock ticks of 1/100 s.
    (f.get(11).unwrap_or(&0.0) + f.get(12).unwrap_or(&0.0)) / 100.0
}

fn count_stmts(p: &pointee_ir::Program) -> u64 {
    p.functions.iter().map(|f| f.stmt_count as u64).sum()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let modules: usize = arg(&args, "--modules").map_or(1000, |v| v.parse().unwrap());
    let depth: usize = arg(&args, "--depth").map_or(6, |v| v.parse().unwrap());
    match arg(&args, "--variant") {
        Some(v) => {
            let text = gen::large(modules, depth, 42);
            // The parse alone, for the record (lowering parses again).
            let c = cpu_s();
            let t = Instant::now();
            let tree = pointee_java::parser().parse(&text, None);
            let (parse_s, parse_cpu) = (t.elapsed().as_secs_f64(), cpu_s() - c);
            drop(tree);
            let c0 = cpu_s();
            let t0 = Instant::now();
            let jp = pointee_java::lower(&[("Main.java", &text)]);
            let (lower_s, lower_cpu) = (t0.elapsed().as_secs_f64(), cpu_s() - c0);
            let roots: Vec<&str> = jp
                .initializers
                .iter()
                .chain(&jp.mains)
                .map(|s| &**s)
                .collect();
            let c1 = cpu_s();
            let t1 = Instant::now();
            let a = Analysis::run(&jp.program, &roots, Variant::parse(&v).unwrap());
            let (secs, cpu) = (t1.elapsed().as_secs_f64(), cpu_s() - c1);
            let s = a.stats();
            println!(
                "| {v} | {} | {} | {parse_s:.2} ({parse_cpu:.2}) | {lower_s:.2} ({lower_cpu:.2}) | {secs:.2} ({cpu:.2}) | {:.2} ({:.2}) | {:.0} | {} | {} | {} | {} | {} | {} |",
                count_stmts(&jp.program),
                jp.program.classes.len(),
                lower_s + secs,
                lower_cpu + cpu,
                peak_rss_mb(),
                s.reachable_methods,
                s.method_contexts,
                s.call_edges,
                s.polymorphic_call_sites,
                s.may_fail_casts,
                s.objects
            );
        }
        None => {
            println!("| variant | IR statements | classes | parse s | parse+lower s | analysis s | total s | peak RSS MB | reachable methods | method contexts | call-graph edges | polymorphic call sites | casts that may fail | abstract objects |");
            println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            let exe = std::env::current_exe().unwrap();
            for v in Variant::ALL {
                let out = std::process::Command::new(&exe)
                    .args([
                        "--modules",
                        &modules.to_string(),
                        "--depth",
                        &depth.to_string(),
                        "--variant",
                        v,
                    ])
                    .output()
                    .expect("run the benchmark child");
                print!("{}", String::from_utf8_lossy(&out.stdout));
                if !out.status.success() {
                    println!(
                        "| {v} | failed: {} |",
                        String::from_utf8_lossy(&out.stderr)
                            .lines()
                            .last()
                            .unwrap_or("")
                    );
                }
            }
        }
    }
}
