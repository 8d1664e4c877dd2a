//! The front end's cost on a whole program: every `.c` file of a folder
//! preprocessed (the folder and the given directories as include
//! directories, `-D` options after them) and lowered, then linked.
//! `cargo run --release -p pointee-c --example front_end -- DIR [-Idir] [-DX]`.
//! Prints units, lines after preprocessing, functions, and the time of the
//! whole (`pointee_c::lower_units` on every core, then linking; best of
//! `ROUNDS` runs, 5 by default). With `STEPS` set, also the units one after
//! another on one thread, timing each step; then `CHECK` checks that the
//! shared pieces lower as one tree of each unit does and that headers'
//! kept runs preprocess as reading them does, `NO_MEMO` reads every
//! header at every inclusion (for comparison), `NO_SHARE` gives
//! every unit its own cache of headers' trees (for comparison), and
//! `PER_UNIT` prints each unit's time.

use pointee_c::{Config, FileSystem, Session};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The disk, each file read once (the times are the front end's).
struct Disk(std::sync::Mutex<std::collections::HashMap<String, Option<Arc<str>>>>);

impl FileSystem for Disk {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        let mut m = self.0.lock().expect("not poisoned");
        m.entry(path.to_string())
            .or_insert_with(|| {
                let b = std::fs::read(path).ok()?;
                Some(String::from_utf8_lossy(&b).into())
            })
            .clone()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = &args[0];
    let config = Config::from_args(&args[1..], "");
    let mut units: Vec<String> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .map(|p| p.to_string_lossy().to_string())
        .filter(|p| {
            !args
                .iter()
                .any(|a| a.strip_prefix("--skip=").is_some_and(|s| p.ends_with(s)))
        })
        .collect();
    units.sort();
    let disk = Disk(Default::default());
    for u in &units {
        disk.read(u);
    }
    let env = |k: &str| std::env::var(k).is_ok();
    let rounds: usize = std::env::var("ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(5);
    let paths: Vec<&str> = units.iter().map(String::as_str).collect();
    let none = pointee_c::pointee_cpp::MemoryFs::new();
    let mut best = Duration::MAX;
    let (mut functions, mut notes) = (0, 0);
    let mut calls = Calls::default();
    for _ in 0..rounds {
        let start = Instant::now();
        let lowered = pointee_c::lower_units(&paths, &|_| Some(&config), &disk, &none);
        functions = lowered.iter().map(|f| f.program.functions.len()).sum();
        notes = lowered.iter().map(|f| f.source.notes.len()).sum();
        let linked = pointee_c::link_files(lowered);
        best = best.min(start.elapsed());
        match &linked {
            Ok(p) => calls = Calls::of(&p.program),
            Err(e) => eprintln!("link: {e}"),
        }
    }
    // Lines after preprocessing, untimed.
    let mut session = Session::one_pass();
    let lines: usize = units
        .iter()
        .map(|u| {
            pointee_c::preprocess(&mut session, &config, &disk, u)
                .text
                .lines()
                .count()
        })
        .sum();
    println!(
        "{} units, {lines} lines after preprocessing, {functions} functions, {notes} notes; total with linking {:.1} ms ({} threads)",
        units.len(),
        best.as_secs_f64() * 1e3,
        std::thread::available_parallelism().map_or(1, |n| n.get()).min(units.len()),
    );
    println!(
        "calls: {} direct into the program's functions, {} into functions it does not define ({} names: {}), {} indirect",
        calls.defined,
        calls.undefined.values().sum::<usize>(),
        calls.undefined.len(),
        calls.undefined.keys().cloned().collect::<Vec<_>>().join(" "),
        calls.indirect
    );
    if env("STEPS") {
        steps(&units, &config, &disk, rounds);
    }
}

/// The call sites of a linked program: direct calls into functions it
/// defines, direct calls into others (the C library, or code it lacks) by
/// name, and indirect calls.
#[derive(Default)]
struct Calls {
    defined: usize,
    undefined: std::collections::BTreeMap<String, usize>,
    indirect: usize,
}

impl Calls {
    fn of(p: &pointee_ir::Program) -> Calls {
        let defined: std::collections::HashSet<&str> =
            p.functions.iter().map(|f| &*f.name).collect();
        let mut calls = Calls::default();
        for f in &p.functions {
            pointee_ir::for_each_basic(&f.body, &mut |_, b| {
                if let pointee_ir::Basic::Call { callee, .. } = b {
                    match callee {
                        pointee_ir::Callee::Direct(n) if defined.contains(&**n) => {
                            calls.defined += 1
                        }
                        pointee_ir::Callee::Direct(n) => {
                            *calls.undefined.entry(n.to_string()).or_default() += 1
                        }
                        _ => calls.indirect += 1,
                    }
                }
            });
        }
        calls
    }
}

/// The units one after another on this thread, each step timed.
fn steps(units: &[String], config: &Config, disk: &Disk, rounds: usize) {
    let env = |k: &str| std::env::var(k).is_ok();
    let mut best = [Duration::MAX; 3];
    for _ in 0..rounds {
        // `NO_MEMO`: every header read at every inclusion (for comparison).
        let mut session = match env("NO_MEMO") {
            true => Session::one_pass().reading_every_header(),
            false => Session::one_pass(),
        };
        // Shared by the units, as `lower_units` does.
        let trees = pointee_c::TreeCache::new();
        let (mut t_pp, mut t_lower) = (Duration::ZERO, Duration::ZERO);
        let mut lowered = Vec::new();
        let start = Instant::now();
        for u in units {
            let t = Instant::now();
            let pp = pointee_c::preprocess(&mut session, config, disk, u);
            t_pp += t.elapsed();
            if env("CHECK") {
                // Headers' kept runs give what reading them gives.
                let mut every = Session::one_pass().reading_every_header();
                assert!(
                    pointee_c::preprocess(&mut every, config, disk, u) == pp,
                    "{u}: kept headers preprocess otherwise than read ones"
                );
            }
            let t = Instant::now();
            // `NO_SHARE`: every unit parses its headers itself (as before
            // the units shared them), for comparison.
            let own = pointee_c::TreeCache::new();
            let cache = if env("NO_SHARE") { &own } else { &trees };
            let pieces = pointee_c::trees(&pointee_c::parse_unit(cache, &pp, &[]));
            if env("PER_UNIT") {
                eprintln!(
                    "{u}: {} bytes expanded, {} pieces, parsed in {:?}",
                    pp.text.len(),
                    pieces.len(),
                    t.elapsed()
                );
            }
            let unit = pointee_c::lower_pieces(u, &pp.text, &pieces);
            if env("CHECK") {
                // The pieces lower as one tree of the whole text does.
                let mut tree = tree_sitter::Parser::new();
                tree.set_language(&tree_sitter_c::LANGUAGE.into())
                    .expect("tree-sitter-c loads");
                let whole = tree.parse(&pp.text, None).expect("a tree");
                assert!(
                    pointee_c::lower_expanded(u, &pp.text, &whole) == unit,
                    "{u}: the pieces lower otherwise than the whole text"
                );
            }
            lowered.push(pointee_c::to_source(unit, &pp));
            t_lower += t.elapsed();
        }
        let _ = pointee_c::link_files(lowered);
        best[0] = best[0].min(t_pp);
        best[1] = best[1].min(t_lower);
        best[2] = best[2].min(start.elapsed());
    }
    println!(
        "one thread: preprocess {:.1} ms, parse+lower {:.1} ms, total with linking {:.1} ms",
        best[0].as_secs_f64() * 1e3,
        best[1].as_secs_f64() * 1e3,
        best[2].as_secs_f64() * 1e3
    );
    let mut session = Session::one_pass();
    for u in units {
        pointee_c::preprocess(&mut session, config, disk, u);
    }
    println!(
        "inclusions that took a header's kept run, one thread: {}",
        session.headers_taken()
    );
}
