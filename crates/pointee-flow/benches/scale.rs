//! Scale benchmark of the C engine: generates C programs of a given size
//! (fixed by a seed), lowers them with pointee-c and analyses them, and
//! reports analysis time and peak memory.
//!
//! ```text
//! cargo bench -p pointee-flow --bench scale               # 1k, 10k, 50k lines
//! cargo bench -p pointee-flow --bench scale -- 10000      # one size
//! cargo bench -p pointee-flow --bench scale -- --emit 1000 > gen.c
//! cargo bench -p pointee-flow --bench scale -- --cycle 200  # recursion stress
//! cargo bench -p pointee-flow --bench scale -- --rerun 10000  # one-body edit
//! cargo bench -p pointee-flow --bench scale -- a.c b.c      # real files
//! cargo bench -p pointee-flow --bench scale -- a.c --budget-steps 300
//! ```
//!
//! Shape of a generated program: `modules = lines / 64` modules; module `k`
//! has a list struct `node_k` (next, data and a function-pointer field),
//! globals (an int array, a list head, a counter, a table of 2-4 operation
//! functions), the operations, an allocator `mk_k` (heap, stores a table
//! entry into the node's function pointer), a recursive `sum_k` calling
//! through `n->op`, `swap_k(int **, int **)`, a `helper_k`, and `drive_k`,
//! which loops calling `mk_k`, a table entry through a local function
//! pointer, `swap_k`, `sum_k`, and the helper of an earlier module chosen by
//! the seed. `main` calls every `drive_k`.
//!
//! `--rerun N` analyses the N-line program, inserts a dead local into the
//! body of the middle module's `helper_k`, and times `OwnedAnalysis::rerun`
//! from the first analysis against a scratch run of the edited program.
//! It then types in `helper_0` as the language server sees it, each rerun
//! consuming the previous one: twenty rounds of a dead local inserted and
//! removed (stops at `helper_0`) and `g0_head = 0;` inserted and removed
//! (callers follow), reporting each kind of edit's time, computed units and
//! functions, scratch runs, and the units kept.

mod common;

use common::{generate, generate_cycle, generate_real};
use std::time::Instant;

/// The disk, for the real-file modes: a file's own headers (`#include
/// "lua.h"`) are read from its folder, as `pointee check` reads them.
/// (`pointee_c::lower` alone reads nothing from disk: without this the
/// bench analysed real files without their headers, a different and much
/// smaller program than the command line's.)
struct Disk;

impl pointee_c::FileSystem for Disk {
    fn read(&self, path: &str) -> Option<std::sync::Arc<str>> {
        let bytes = std::fs::read(path).ok()?;
        Some(String::from_utf8_lossy(&bytes).into())
    }
}

/// Lowers real files as the command line does (their headers from disk).
fn lower_real(files: &[(&str, &str)]) -> pointee_c::CProgram {
    pointee_c::lower_over(files, &Disk).expect("lowering")
}

fn peak_rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    for line in status.lines() {
        if let Some(v) = line.strip_prefix("VmHWM:") {
            let kb: f64 = v
                .trim()
                .trim_end_matches("kB")
                .trim()
                .parse()
                .unwrap_or(0.0);
            return kb / 1024.0;
        }
    }
    0.0
}

fn main() {
    let args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let unknown = !args.iter().any(|a| a == "--no-unknown");
    if let Some(i) = args.iter().position(|a| a == "--emit-shapes") {
        let n: usize = args.get(i + 1).and_then(|a| a.parse().ok()).unwrap_or(1000);
        print!("{}", generate_real(n, 42, unknown));
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--one") {
        // A child of `--each`: one file, one line of figures.
        one_file(&args[i + 1]);
        return;
    }
    if args.iter().any(|a| a == "--each") {
        each_file(&args);
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--emit") {
        let n: usize = args.get(i + 1).and_then(|a| a.parse().ok()).unwrap_or(1000);
        print!("{}", generate(n, 42));
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--cycle") {
        let n: usize = args.get(i + 1).and_then(|a| a.parse().ok()).unwrap_or(60);
        let text = generate_cycle(n);
        let lowered = pointee_c::lower(&[("cycle.c", &text)]).expect("lowering");
        let t1 = Instant::now();
        let a = pointee_flow::analyze(&lowered.program, pointee_flow::Settings::default());
        let stats = a.stats();
        println!(
            "cycle of {n} functions ({} lines): analyse {:.3} s, {} contexts, peak RSS {:.1} MB",
            text.lines().count(),
            t1.elapsed().as_secs_f64(),
            stats[0].1,
            peak_rss_mb()
        );
        return;
    }
    if let Some(i) = args.iter().position(|a| a == "--rerun") {
        let n: usize = args
            .get(i + 1)
            .and_then(|a| a.parse().ok())
            .unwrap_or(10_000);
        rerun(n);
        return;
    }
    // Real files: `-- path.c ...` analyses them instead.
    let files: Vec<&String> = args.iter().filter(|a| a.ends_with(".c")).collect();
    if !files.is_empty() {
        let texts: Vec<(String, String)> = files
            .iter()
            .map(|f| (f.to_string(), std::fs::read_to_string(f).expect("read")))
            .collect();
        let refs: Vec<(&str, &str)> = texts
            .iter()
            .map(|(n, t)| (n.as_str(), t.as_str()))
            .collect();
        let t0 = Instant::now();
        let lowered = lower_real(&refs);
        let lower_s = t0.elapsed().as_secs_f64();
        // `--budget-steps N`, `--budget-ms N`: the command line's budgets.
        let number = |flag: &str| -> Option<u64> {
            let i = args.iter().position(|a| a == flag)?;
            args.get(i + 1)?.parse().ok()
        };
        let settings = pointee_flow::Settings {
            budget: pointee_flow::Budget {
                steps: number("--budget-steps"),
                time: number("--budget-ms").map(std::time::Duration::from_millis),
                ..Default::default()
            },
            ..Default::default()
        };
        let t1 = Instant::now();
        let a = pointee_flow::analyze(&lowered.program, settings);
        let analyse_s = t1.elapsed().as_secs_f64();
        println!(
            "lower {lower_s:.3} s, analyse {analyse_s:.3} s, peak RSS {:.1} MB",
            peak_rss_mb()
        );
        for (k, v) in a.stats() {
            println!("  {k}: {v}");
        }
        if let Some(p) = a.partial() {
            println!(
                "  partial: {} after {} calls, {} functions not finished",
                p.spent.describe(),
                p.steps,
                p.incomplete.len()
            );
        }
        // `--top N`: the functions with the most contexts.
        if let Some(i) = args.iter().position(|a| a == "--top") {
            let n: usize = args.get(i + 1).and_then(|a| a.parse().ok()).unwrap_or(20);
            let mut per: Vec<(usize, &str)> = lowered
                .program
                .functions
                .iter()
                .map(|f| (a.units_of(&f.name).len(), &*f.name))
                .collect();
            per.sort_by(|x, y| y.cmp(x));
            for (c, f) in per.into_iter().take(n) {
                println!("  {c:>6} {f}");
            }
        }
        // Every context's body re-run (what `dump` does).
        let mut a = a;
        let before = a.units().len();
        let t2 = Instant::now();
        for f in &lowered.program.functions {
            for u in a.units_of(&f.name) {
                let _ = a.facts_at(u, pointee_ir::Point::Before(pointee_ir::StmtId(0)));
            }
        }
        println!(
            "re-run of every body {:.3} s, units added {}",
            t2.elapsed().as_secs_f64(),
            a.units().len() - before
        );
        return;
    }
    let shapes = args.iter().any(|a| a == "--shapes");
    let sizes: Vec<usize> = {
        let v: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
        if !v.is_empty() {
            v
        } else if shapes {
            vec![10_000, 50_000, 100_000]
        } else {
            vec![1000, 10_000, 50_000]
        }
    };
    println!(
        "{:>8} {:>8} {:>10} {:>10} {:>9} {:>8} {:>12} {:>9} {:>9}",
        "target",
        "lines",
        "lower s",
        "analyse s",
        "contexts",
        "funcs",
        "peak RSS MB",
        "exit D",
        "exit P"
    );
    for n in sizes {
        let text = if shapes {
            generate_real(n, 42, unknown)
        } else {
            generate(n, 42)
        };
        let lines = text.lines().count();
        let t0 = Instant::now();
        let lowered = pointee_c::lower(&[("gen.c", &text)]).expect("lowering");
        let lower_s = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        let a = pointee_flow::analyze(&lowered.program, pointee_flow::Settings::default());
        let analyse_s = t1.elapsed().as_secs_f64();
        let stats = a.stats();
        let get = |k: &str| stats.iter().find(|s| s.0 == k).map(|s| s.1).unwrap_or(0);
        println!(
            "{:>8} {:>8} {:>10.3} {:>10.3} {:>9} {:>8} {:>12.1} {:>9} {:>9}",
            n,
            lines,
            lower_s,
            analyse_s,
            get("contexts"),
            get("functions analysed"),
            peak_rss_mb(),
            get("exit facts definite"),
            get("exit facts possible")
        );
        drop(a);
    }
}

/// `--each [--timeout S] PATH...`: every `.c` file under the paths, each
/// analysed alone in a child process (its own peak memory), killed after
/// the timeout (default 60 s).
fn each_file(args: &[String]) {
    let timeout: u64 = args
        .iter()
        .position(|a| a == "--timeout")
        .and_then(|i| args.get(i + 1))
        .and_then(|a| a.parse().ok())
        .unwrap_or(60);
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    for a in args.iter().filter(|a| !a.starts_with("--")) {
        let p = std::path::Path::new(a);
        if p.is_dir() {
            let mut v: Vec<_> = std::fs::read_dir(p)
                .expect("read dir")
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "c"))
                .collect();
            v.sort();
            files.extend(v);
        } else if p.extension().is_some_and(|e| e == "c") {
            files.push(p.to_path_buf());
        }
    }
    let exe = std::env::current_exe().expect("current exe");
    println!(
        "{:<28} {:>7} {:>10} {:>9} {:>10} {:>12} {:>9} {:>9}",
        "file", "lines", "analyse s", "contexts", "locations", "peak RSS MB", "exit D", "exit P"
    );
    for f in files {
        let mut child = std::process::Command::new(&exe)
            .arg("--one")
            .arg(&f)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("spawn");
        let start = Instant::now();
        let status = loop {
            if let Some(st) = child.try_wait().expect("wait") {
                break Some(st);
            }
            if start.elapsed().as_secs() >= timeout {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let mut out = String::new();
        if let Some(mut o) = child.stdout.take() {
            use std::io::Read;
            let _ = o.read_to_string(&mut out);
        }
        match status {
            Some(st) if st.success() => print!("{name:<28} {out}"),
            Some(st) => println!("{name:<28} failed: {st}"),
            None => println!("{name:<28} killed after {timeout} s"),
        }
    }
}

/// One file for `--each`: lines, analysis time, contexts, locations, peak
/// RSS.
fn one_file(path: &str) {
    let text = std::fs::read_to_string(path).expect("read");
    let lowered = lower_real(&[(path, &text)]);
    let t = Instant::now();
    let a = pointee_flow::analyze(&lowered.program, pointee_flow::Settings::default());
    let s = t.elapsed().as_secs_f64();
    let stats = a.stats();
    let get = |k: &str| stats.iter().find(|x| x.0 == k).map(|x| x.1).unwrap_or(0);
    println!(
        "{:>7} {:>10.3} {:>9} {:>10} {:>12.1} {:>9} {:>9}",
        text.lines().count(),
        s,
        get("contexts"),
        get("locations"),
        peak_rss_mb(),
        get("exit facts definite"),
        get("exit facts possible")
    );
}

/// The best of seven timings of `f`, in seconds (the machine is shared),
/// and its last result.
fn best_of_7<T>(mut f: impl FnMut() -> T) -> (f64, T) {
    let mut best = f64::MAX;
    let mut out = None;
    for _ in 0..7 {
        let t = Instant::now();
        let r = f();
        best = best.min(t.elapsed().as_secs_f64());
        out = Some(r);
    }
    (best, out.unwrap())
}

/// `--rerun N`: a one-body edit re-analysed from the previous run vs from
/// scratch.
fn rerun(n: usize) {
    use pointee_flow::{OwnedAnalysis, Settings};
    use std::sync::Arc;
    let text = generate(n, 42);
    let modules = (n / 64).max(1);
    let k = modules / 2;
    let head = format!("int helper_{k}(int *x) {{");
    let edited = text.replacen(&head, &format!("{head} int unused_k = 0;"), 1);
    assert_ne!(text, edited);
    let p0 = Arc::new(
        pointee_c::lower(&[("gen.c", &text)])
            .expect("lowering")
            .program,
    );
    let p1 = Arc::new(
        pointee_c::lower(&[("gen.c", &edited)])
            .expect("lowering")
            .program,
    );
    let (first_s, prev) = best_of_7(|| OwnedAnalysis::run(p0.clone(), Settings::default()));
    let (scratch_s, scratch) = best_of_7(|| OwnedAnalysis::run(p1.clone(), Settings::default()));
    let (rerun_s, re) = best_of_7(|| OwnedAnalysis::rerun(&prev, p1.clone(), Settings::default()));
    // The owned form consumes the previous analysis: time it on copies.
    let mut owned_s = f64::MAX;
    for _ in 0..7 {
        let prev = OwnedAnalysis::run(p0.clone(), Settings::default());
        let t = Instant::now();
        let a = OwnedAnalysis::rerun_owned(prev, p1.clone(), Settings::default());
        owned_s = owned_s.min(t.elapsed().as_secs_f64());
        drop(a);
    }
    let r = re.reuse();
    println!(
        "{} lines, helper_{k} edited: first run {first_s:.4} s, scratch {scratch_s:.4} s, \
         rerun {rerun_s:.4} s ({:.1}% of scratch), rerun_owned {owned_s:.4} s ({:.1}%)",
        text.lines().count(),
        100.0 * rerun_s / scratch_s,
        100.0 * owned_s / scratch_s
    );
    println!(
        "  rerun: {} units reused, {} computed ({} functions), scratch run: {:?}; \
         scratch: {} units computed",
        r.reused,
        r.computed,
        r.computed_functions.len(),
        r.scratch_reason,
        scratch.reuse().computed
    );
    typing(&text);
}

/// The edit sequence of `--rerun` in `helper_0` (see the module doc).
fn typing(text: &str) {
    use pointee_flow::{OwnedAnalysis, Settings};
    use std::sync::Arc;
    let head = "int helper_0(int *x) {\n";
    let with = |line: &str| {
        let edited = text.replacen(head, &format!("{head}{line}\n"), 1);
        assert_ne!(edited, text);
        Arc::new(
            pointee_c::lower(&[("gen.c", &edited)])
                .expect("lowering")
                .program,
        )
    };
    let base = Arc::new(
        pointee_c::lower(&[("gen.c", text)])
            .expect("lowering")
            .program,
    );
    let dead = with("    int bench_unused = 0;");
    let store = with("    g0_head = 0;");
    let mut a = OwnedAnalysis::run(base.clone(), Settings::default());
    let scratch_units = a.with(|a| a.units().len());
    // Per kind of edit: (edits, total s, max s, computed units, max
    // computed functions, scratch runs).
    let kinds = ["dead local", "store", "dead local after a store"];
    let mut stats = [(0usize, 0f64, 0f64, 0usize, 0usize, 0usize); 3];
    let mut most_units = 0;
    for round in 0..20 {
        for (k, p) in [(0, &dead), (0, &base), (1, &store), (1, &base)] {
            // A dead local after an output-changing edit: problem B.
            let k = if k == 0 && round > 0 { 2 } else { k };
            let t = Instant::now();
            a = OwnedAnalysis::rerun_owned(a, p.clone(), Settings::default());
            let s = t.elapsed().as_secs_f64();
            let r = a.reuse();
            let st = &mut stats[k];
            st.0 += 1;
            st.1 += s;
            st.2 = st.2.max(s);
            st.3 += r.computed;
            st.4 = st.4.max(r.computed_functions.len());
            st.5 += r.scratch_reason.is_some() as usize;
            most_units = most_units.max(a.with(|a| a.units().len()));
        }
    }
    println!("  typing in helper_0, 20 rounds (each rerun from the previous one):");
    for (k, st) in kinds.iter().zip(stats) {
        println!(
            "    {k}: {} edits, mean {:.4} s, max {:.4} s, {:.1} units computed on average, \
             up to {} functions, {} scratch runs",
            st.0,
            st.1 / st.0 as f64,
            st.2,
            st.3 as f64 / st.0 as f64,
            st.4,
            st.5
        );
    }
    println!(
        "    units kept: at most {most_units}, at the end {} (a scratch run: {scratch_units})",
        a.with(|a| a.units().len())
    );
}
