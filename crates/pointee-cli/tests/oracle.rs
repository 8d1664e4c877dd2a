//! A runtime oracle for the C analysis' soundness: random small C programs
//! (`oracle/gen.rs`) are compiled with gcc and run on a few inputs; at each
//! probe the program prints which of its objects the probed pointer points
//! to, and every object seen must be in the analysis' hover answer at that
//! point (`unknown` covers everything; a symbolic name covers what it stands
//! for in a call chain, `1_p (x)`); a point the runs reach must be reachable;
//! a lone definite target must be the object seen on every run.
//!
//! `ORACLE_SEEDS=a..b` picks other seeds (default `0..200`);
//! every eighth program has mutual recursion, `ORACLE_CYCLES=1` gives it to
//! every program (slow in debug);
//! `ORACLE_NO_BACKWARD=1` leaves out backward walks over arrays and negative
//! indices (they found `fixtures/c/soundness/negative_index.c`, since fixed);
//! `ORACLE_SHOW=1` prints every probe's observations and answer;
//! `ORACLE_VERBOSE=1` the time per program; `ORACLE_KEEP=1` keeps the
//! programs in `$TMPDIR/pointee-oracle-kept/`; failing
//! programs are written to `$TMPDIR/pointee-oracle-failures/`. Skipped when
//! gcc is missing. Seeds that fail today are listed in `KNOWN`, each with
//! the soundness probe (`fixtures/c/soundness/`) that reduces it.

#[path = "oracle/engine.rs"]
mod engine;
#[path = "oracle/gen.rs"]
mod generator;

use engine::Answer;
use generator::{Class, Probe, Program};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Seeds that fail today and the probe that records the reduced problem.
const KNOWN: &[(u64, &str)] = &[];

/// Seeds whose analysis takes most of a minute or more in a debug build (a
/// performance problem, not a soundness one): skipped unless ORACLE_SEEDS
/// names a range explicitly. None today: seeds 28 and 93 (once ~90 s and
/// ~40 s) take 0.5 s and 1.8 s of test time now (debug build, loaded
/// machine), so they run in CI again.
const SLOW: &[u64] = &[];

/// One object a probe saw: its name in the analysis' terms, and for a heap
/// object whether it was its site's most recent allocation at the time.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Seen {
    name: String,
    newest: Option<bool>,
}

impl std::fmt::Display for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.newest {
            Some(true) => write!(f, "{} (newest)", self.name),
            _ => write!(f, "{}", self.name),
        }
    }
}

struct Entry {
    name: String,
    /// Heap objects: the site and the address of the allocated object.
    site: Option<(String, u64)>,
}

/// Runs the program's executable with `input`; probe id -> objects seen.
fn run(
    exe: &Path,
    input: u32,
    probes: &[Probe],
) -> Result<BTreeMap<usize, BTreeSet<Seen>>, String> {
    let mut child = Command::new(exe)
        .arg(input.to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot run: {e}"))?;
    let mut stdout = child.stdout.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut stdout, &mut s).map(|_| s)
    });
    let start = Instant::now();
    loop {
        if let Some(st) = child.try_wait().map_err(|e| e.to_string())? {
            if !st.success() {
                return Err(format!("input {input}: exit status {st}"));
            }
            break;
        }
        if start.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("input {input}: did not terminate"));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    let out = reader.join().expect("reader").map_err(|e| e.to_string())?;
    // (class, address) -> object; heap objects also by site, with the
    // address of each site's most recent object.
    let mut objects: HashMap<(Class, u64), Entry> = HashMap::new();
    let mut newest: HashMap<String, u64> = HashMap::new();
    let mut seen: BTreeMap<usize, BTreeSet<Seen>> = BTreeMap::new();
    let addr = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["O", name, class, a, rest @ ..] => {
                let class = Class::of_tag(class).ok_or("bad class")?;
                let a = addr(a).ok_or_else(|| format!("bad address {a}"))?;
                let site = if name.starts_with("heap@") {
                    let site = name.split('.').next().expect("site").to_string();
                    // `same`: another slot of the site's newest object.
                    if !name.contains('.') && rest != ["same"] {
                        newest.insert(site.clone(), a);
                    }
                    let base = newest.get(&site).copied().unwrap_or(a);
                    Some((site, base))
                } else {
                    None
                };
                let name = name.to_string();
                objects.insert((class, a), Entry { name, site });
            }
            ["P", id, a] => {
                let id: usize = id.parse().map_err(|_| "bad probe id")?;
                let probe = probes.get(id).ok_or("bad probe id")?;
                let s = if *a == "(nil)" {
                    Seen {
                        name: "NULL".into(),
                        newest: None,
                    }
                } else {
                    let v = addr(a).ok_or_else(|| format!("bad address {a}"))?;
                    match objects.get(&(probe.class, v)) {
                        Some(e) => Seen {
                            name: e.name.clone(),
                            newest: e
                                .site
                                .as_ref()
                                .map(|(site, base)| newest.get(site) == Some(base)),
                        },
                        // Not an object of the program: the generator's bug.
                        None => Seen {
                            name: format!("?{v:x}"),
                            newest: None,
                        },
                    }
                };
                seen.entry(id).or_default().insert(s);
            }
            _ => {}
        }
    }
    Ok(seen)
}

/// Whether the answer covers an object seen. A site's summary `heap@L`
/// covers every object of the site (the engine demotes its newest object
/// into it); `newest heap@L` (recency) only the site's most recent object.
fn covered(s: &Seen, a: &Answer) -> bool {
    a.unknown
        || a.names.contains(&s.name)
        || s.newest == Some(true) && a.names.contains(&format!("newest {}", s.name))
}

#[derive(Default)]
struct Tally {
    programs: usize,
    probes: usize,
    observations: usize,
    definite: usize,
    unverifiable: usize,
    unreached: usize,
    unknown: usize,
    gcc: Duration,
    runs: Duration,
    analysis: Duration,
}

/// Generates, compiles, runs and checks one program; violations as text.
fn check_seed(seed: u64, dir: &Path, tally: &mut Tally) -> Vec<String> {
    let program: Program = generator::generate(
        seed,
        // Mutual recursion in every eighth program (25 of the default 200:
        // all of them took 223 s in a debug build at load 10), in all with
        // ORACLE_CYCLES=1.
        seed % 8 == 0 || std::env::var_os("ORACLE_CYCLES").is_some(),
        std::env::var_os("ORACLE_NO_BACKWARD").is_none(),
    );
    let file = format!("oracle_{seed}.c");
    let src = dir.join(&file);
    std::fs::write(&src, &program.text).expect("write program");
    let exe = dir.join(format!("oracle_{seed}"));
    let t = Instant::now();
    let built = Command::new("gcc")
        .args(["-w", "-O0", "-o"])
        .arg(&exe)
        .arg(&src)
        .output()
        .expect("gcc runs");
    tally.gcc += t.elapsed();
    if !built.status.success() {
        return vec![format!(
            "seed {seed}: gcc rejects the program: {}",
            String::from_utf8_lossy(&built.stderr)
        )];
    }
    let mut seen: BTreeMap<usize, BTreeSet<Seen>> = BTreeMap::new();
    let mut problems = Vec::new();
    let t = Instant::now();
    for &input in &program.inputs {
        match run(&exe, input, &program.probes) {
            Ok(s) => {
                for (id, objs) in s {
                    seen.entry(id).or_default().extend(objs);
                }
            }
            Err(e) => problems.push(format!("seed {seed}: {e}")),
        }
    }
    tally.runs += t.elapsed();
    let _ = std::fs::remove_file(&exe);
    tally.programs += 1;
    let reached: Vec<usize> = (0..program.probes.len())
        .filter(|id| seen.contains_key(id))
        .collect();
    tally.unreached += program.probes.len() - reached.len();
    let positions: Vec<(u32, u32)> = reached
        .iter()
        .map(|&id| (program.probes[id].line, program.probes[id].column))
        .collect();
    let mut answers = BTreeMap::new();
    let t = Instant::now();
    let answered = engine::answers(&file, &program.text, &positions);
    tally.analysis += t.elapsed();
    match answered {
        Ok(v) => {
            for (&id, a) in reached.iter().zip(v) {
                let p = &program.probes[id];
                if a.expr.replace(' ', "") != p.expr.replace(' ', "") {
                    problems.push(format!(
                        "seed {seed}: probe {id} at {}:{} selects `{}`, not `{}`",
                        p.line, p.column, a.expr, p.expr
                    ));
                } else {
                    answers.insert(id, a);
                }
            }
        }
        Err(e) => problems.push(format!("seed {seed}: no answer: {e}")),
    }
    let mut bad = Vec::new();
    for (id, a) in &answers {
        let p = &program.probes[*id];
        let objs = &seen[id];
        tally.probes += 1;
        tally.observations += objs.len();
        let seen_txt = objs
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ");
        if let Some(s) = objs.iter().find(|s| s.name.starts_with('?')) {
            problems.push(format!(
                "seed {seed}: probe {id} `{}` saw an address outside the program's objects ({s})",
                p.expr
            ));
            continue;
        }
        if !a.reachable {
            bad.push(format!(
                "line {} `{}` in {}: reached at run time (saw {{{seen_txt}}}) but the analysis says unreachable",
                p.line, p.expr, p.function
            ));
            continue;
        }
        let missed: Vec<String> = objs
            .iter()
            .filter(|s| !covered(s, a))
            .map(|s| s.to_string())
            .collect();
        let lone_definite = a.lone_definite();
        tally.unknown += a.unknown as usize;
        if std::env::var_os("ORACLE_SHOW").is_some() {
            eprintln!(
                "seed {seed} line {} `{}`: saw {{{seen_txt}}}, analysis {{{}}}",
                p.line,
                p.expr,
                a.shown()
            );
        }
        if lone_definite {
            tally.definite += 1;
        }
        if missed.is_empty() {
            continue;
        }
        if a.unresolved {
            tally.unverifiable += 1;
            continue;
        }
        bad.push(format!(
            "line {} col {} `{}` in {}: saw {{{seen_txt}}}, analysis {{{}}}{}; missed {{{}}}",
            p.line,
            p.column,
            p.expr,
            p.function,
            a.shown(),
            if lone_definite {
                " (a lone definite target)"
            } else {
                ""
            },
            missed.join(", ")
        ));
    }
    if !bad.is_empty() {
        let keep = std::env::temp_dir().join("pointee-oracle-failures");
        let _ = std::fs::create_dir_all(&keep);
        let kept = keep.join(&file);
        let _ = std::fs::write(&kept, &program.text);
        problems.push(format!(
            "seed {seed} ({}, inputs {:?}):\n  {}",
            kept.display(),
            program.inputs,
            bad.join("\n  ")
        ));
    }
    if std::env::var_os("ORACLE_KEEP").is_some() {
        let keep = std::env::temp_dir().join("pointee-oracle-kept");
        let _ = std::fs::create_dir_all(&keep);
        let _ = std::fs::write(keep.join(&file), &program.text);
    }
    let _ = std::fs::remove_file(&src);
    problems
}

fn seeds() -> std::ops::Range<u64> {
    match std::env::var("ORACLE_SEEDS") {
        Ok(s) => {
            let (a, b) = s.split_once("..").expect("ORACLE_SEEDS=a..b");
            a.parse().expect("seed")..b.parse().expect("seed")
        }
        Err(_) => 0..200,
    }
}

#[test]
fn generated_programs_are_analysed_soundly() {
    if Command::new("gcc").arg("--version").output().is_err() {
        // Outside CI a missing tool skips; in CI it is a failure (.ci/run
        // installs it), never a silent pass.
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs gcc for this test"
        );
        eprintln!("gcc not installed; skipping the runtime oracle");
        return;
    }
    let started = Instant::now();
    let dir: PathBuf = std::env::temp_dir().join(format!("pointee-oracle-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let explicit = std::env::var_os("ORACLE_SEEDS").is_some();
    let seeds: Vec<u64> = seeds().filter(|s| explicit || !SLOW.contains(s)).collect();
    let workers = 2;
    let results: Vec<(Tally, Vec<(u64, Vec<String>)>)> = std::thread::scope(|sc| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let seeds = &seeds;
                let dir = &dir;
                sc.spawn(move || {
                    let mut tally = Tally::default();
                    let mut failures = Vec::new();
                    for &seed in seeds.iter().skip(w).step_by(workers) {
                        let t = Instant::now();
                        let p = check_seed(seed, dir, &mut tally);
                        if std::env::var_os("ORACLE_VERBOSE").is_some() {
                            eprintln!(
                                "seed {seed}: {:.1} s, {} problems",
                                t.elapsed().as_secs_f64(),
                                p.len()
                            );
                        }
                        if !p.is_empty() {
                            failures.push((seed, p));
                        }
                    }
                    (tally, failures)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("worker"))
            .collect()
    });
    let _ = std::fs::remove_dir_all(&dir);
    let mut total = Tally::default();
    let mut unexpected = Vec::new();
    for (t, failures) in results {
        total.programs += t.programs;
        total.probes += t.probes;
        total.observations += t.observations;
        total.definite += t.definite;
        total.unverifiable += t.unverifiable;
        total.unreached += t.unreached;
        total.unknown += t.unknown;
        total.gcc += t.gcc;
        total.runs += t.runs;
        total.analysis += t.analysis;
        for (seed, p) in failures {
            match KNOWN.iter().find(|k| k.0 == seed) {
                Some((_, probe)) => {
                    eprintln!("seed {seed}: known, reduced in {probe}:\n{}", p.join("\n"))
                }
                None => unexpected.extend(p),
            }
        }
    }
    eprintln!(
        "oracle: {} programs, {} probes reached ({} observations, {} with a lone definite target, {} unverifiable: unresolved symbolic names, {} answered `unknown`), {} probes never reached; {:.1} s (summed over workers: gcc {:.1} s, runs {:.1} s, analysis {:.1} s)",
        total.programs,
        total.probes,
        total.observations,
        total.definite,
        total.unverifiable,
        total.unknown,
        total.unreached,
        started.elapsed().as_secs_f64(),
        total.gcc.as_secs_f64(),
        total.runs.as_secs_f64(),
        total.analysis.as_secs_f64()
    );
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
}
