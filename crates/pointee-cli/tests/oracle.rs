//! A runtime oracle for the C analysis' soundness: random small C programs
//! (`oracle/gen.rs`) are compiled with gcc (with a second file defining the
//! functions the analysis sees only declared) and run on a few inputs; at
//! each probe the program prints the call chain that reached it and which
//! of its objects the probed pointer points to, and every object seen must
//! be in the analysis' answer at that point, over all contexts and in the
//! one context the chain reached (`oracle/engine.rs`; `unknown` covers
//! everything; a symbolic name covers what it stands for along the chain,
//! `1_p (x)`); a point the runs reach must be reachable there; a lone
//! definite target must be the object seen on every run.
//!
//! `ORACLE_SEEDS=a..b` picks other seeds (default `0..60`, to keep CI
//! bounded: the unions, copies, casts and unknown functions made programs
//! slower; the long run is in docs/reliability.md);
//! every eighth program has mutual recursion, `ORACLE_CYCLES=1` gives it to
//! every program (slow in debug);
//! `ORACLE_NO_BACKWARD=1` leaves out backward walks over arrays and negative
//! indices (they found `fixtures/c/soundness/negative_index.c`, since fixed);
//! `ORACLE_FIRST_MEMBER_LOADS=1` adds casts between a struct pointer and
//! its first (pointer) member's: `*(int **)sp`, `((struct S *)&s.f)->h`
//! (they found `fixtures/c/soundness/first_member_cast.c`,
//! `fixtures/c/soundness/memcpy_first_member.c` and, in a step-budget
//! partial run, `tests/budget.rs::a_function_not_analysed_answers_may`;
//! all fixed). Still off by default for time, not soundness: with them
//! seeds 16 and 36 took 433 s and 181 s in a debug build at load 13, and
//! seed 155 ran past 10 minutes (one body's analysis, which the budget's
//! clock does not stop: docs/reliability.md);
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

use engine::{Answer, ChainError, Query};
use generator::{Class, Probe, Program};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Seeds that fail today and the probe that records the reduced problem.
/// (Seed 53 with first-member casts was one until 2026-11-27: a function
/// the step budget stopped before any context answered alias checks
/// `unreachable`; `tests/budget.rs::a_function_not_analysed_answers_may`.)
/// (Seed 146 was one, found by the long run of 2026-11-27: `memmove` from
/// a first-member cast kept the destination's old fields; sound since
/// main's merges that day, `fixtures/c/soundness/copy_from_first_member_cast.c`.)
const KNOWN: &[(u64, &str)] = &[];

/// Seeds whose analysis takes most of a minute or more in a debug build (a
/// performance problem, not a soundness one): skipped unless ORACLE_SEEDS
/// names a range explicitly. None today: seeds 28 and 93 (once ~90 s and
/// ~40 s) take 0.5 s and 1.8 s of test time now (debug build, loaded
/// machine), so they run in CI again.
const SLOW: &[u64] = &[];

/// One object a probe saw: its names in the analysis' terms (a struct and
/// its first member, a union and its members: one address, several
/// names), and for a heap object whether it was its site's most recent
/// allocation at the time.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Seen {
    names: Vec<String>,
    newest: Option<bool>,
}

impl std::fmt::Display for Seen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.names.join("="))?;
        if self.newest == Some(true) {
            write!(f, " (newest)")?;
        }
        Ok(())
    }
}

struct Entry {
    names: Vec<String>,
    /// Heap objects: the site and the address of the allocated object.
    site: Option<(String, u64)>,
}

/// A call chain: the lines of the calls from `main` to the probe.
type Chain = Vec<u32>;

/// What the runs saw: probe id -> call chain -> objects.
type Observations = BTreeMap<usize, BTreeMap<Chain, BTreeSet<Seen>>>;

/// Runs the program's executable with `input`.
fn run(exe: &Path, input: u32, probes: &[Probe]) -> Result<Observations, String> {
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
    let mut seen = Observations::new();
    let mut chain: Chain = Vec::new();
    let addr = |s: &str| u64::from_str_radix(s.trim_start_matches("0x"), 16).ok();
    for line in out.lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        match w.as_slice() {
            ["C", lines @ ..] => {
                chain = lines
                    .iter()
                    .map(|l| l.parse().map_err(|_| format!("bad call line {l}")))
                    .collect::<Result<_, _>>()?;
            }
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
                let e = objects.entry((class, a)).or_insert(Entry {
                    names: Vec::new(),
                    site,
                });
                if !e.names.iter().any(|n| n == name) {
                    e.names.push(name.to_string());
                }
            }
            ["P", id, a] => {
                let id: usize = id.parse().map_err(|_| "bad probe id")?;
                let probe = probes.get(id).ok_or("bad probe id")?;
                let s = if *a == "(nil)" {
                    Seen {
                        names: vec!["NULL".into()],
                        newest: None,
                    }
                } else {
                    let v = addr(a).ok_or_else(|| format!("bad address {a}"))?;
                    match objects.get(&(probe.class, v)) {
                        Some(e) => Seen {
                            names: e.names.clone(),
                            newest: e
                                .site
                                .as_ref()
                                .map(|(site, base)| newest.get(site) == Some(base)),
                        },
                        // Not an object of the program: the generator's bug.
                        None => Seen {
                            names: vec![format!("?{v:x}")],
                            newest: None,
                        },
                    }
                };
                seen.entry(id)
                    .or_default()
                    .entry(std::mem::take(&mut chain))
                    .or_default()
                    .insert(s);
            }
            _ => {}
        }
    }
    Ok(seen)
}

/// Whether an answer (`unknown` in it, the names it covers) covers an
/// object seen. A site's summary `heap@L` covers every object of the site
/// (the engine demotes its newest object into it); `newest heap@L`
/// (recency) only the site's most recent object.
fn covered(s: &Seen, unknown: bool, names: &BTreeSet<String>) -> bool {
    unknown
        || s.names.iter().any(|n| {
            names.contains(n) || s.newest == Some(true) && names.contains(&format!("newest {n}"))
        })
}

/// The objects seen that an answer does not cover.
fn missed(objs: &BTreeSet<Seen>, unknown: bool, names: &BTreeSet<String>) -> Vec<String> {
    objs.iter()
        .filter(|s| !covered(s, unknown, names))
        .map(|s| s.to_string())
        .collect()
}

fn listed(objs: &BTreeSet<Seen>) -> String {
    objs.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
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
    /// (probe, call chain) pairs checked against their own context.
    contexts: usize,
    /// Programs whose analysis stopped at the step budget.
    partial: usize,
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
        std::env::var_os("ORACLE_FIRST_MEMBER_LOADS").is_some(),
    );
    let file = format!("oracle_{seed}.c");
    let src = dir.join(&file);
    std::fs::write(&src, &program.text).expect("write program");
    let unknown = dir.join(format!("oracle_{seed}_unknown.c"));
    std::fs::write(&unknown, &program.unknown).expect("write program");
    let exe = dir.join(format!("oracle_{seed}"));
    let t = Instant::now();
    let built = Command::new("gcc")
        .args(["-w", "-O0", "-DORACLE_RT", "-o"])
        .arg(&exe)
        .arg(&src)
        .arg(&unknown)
        .output()
        .expect("gcc runs");
    let _ = std::fs::remove_file(&unknown);
    tally.gcc += t.elapsed();
    if !built.status.success() {
        return vec![format!(
            "seed {seed}: gcc rejects the program: {}",
            String::from_utf8_lossy(&built.stderr)
        )];
    }
    let mut by_chain = Observations::new();
    let mut problems = Vec::new();
    let t = Instant::now();
    for &input in &program.inputs {
        match run(&exe, input, &program.probes) {
            Ok(s) => {
                for (id, chains) in s {
                    let mine = by_chain.entry(id).or_default();
                    for (chain, objs) in chains {
                        mine.entry(chain).or_default().extend(objs);
                    }
                }
            }
            Err(e) => problems.push(format!("seed {seed}: {e}")),
        }
    }
    // Over all chains.
    let seen: BTreeMap<usize, BTreeSet<Seen>> = by_chain
        .iter()
        .map(|(&id, chains)| (id, chains.values().flatten().cloned().collect()))
        .collect();
    tally.runs += t.elapsed();
    let _ = std::fs::remove_file(&exe);
    tally.programs += 1;
    let reached: Vec<usize> = (0..program.probes.len())
        .filter(|id| seen.contains_key(id))
        .collect();
    tally.unreached += program.probes.len() - reached.len();
    let queries: Vec<Query> = reached
        .iter()
        .map(|&id| Query {
            line: program.probes[id].line,
            column: program.probes[id].column,
            function: program.probes[id].function.clone(),
            chains: by_chain[&id].keys().cloned().collect(),
        })
        .collect();
    let mut answers = BTreeMap::new();
    let t = Instant::now();
    let answered = engine::answers(&file, &program.text, &queries);
    tally.analysis += t.elapsed();
    match answered {
        Ok((v, partial)) => {
            tally.partial += partial as usize;
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
        let seen_txt = listed(objs);
        if let Some(s) = objs.iter().find(|s| s.names[0].starts_with('?')) {
            problems.push(format!(
                "seed {seed}: probe {id} `{}` saw an address outside the program's objects ({s})",
                p.expr
            ));
            continue;
        }
        if !a.reachable && a.not_analysed {
            tally.unverifiable += 1;
            continue;
        }
        if !a.reachable {
            bad.push(format!(
                "line {} `{}` in {}: reached at run time (saw {{{seen_txt}}}) but the analysis says unreachable",
                p.line, p.expr, p.function
            ));
            continue;
        }
        let missed = missed(objs, a.unknown, &a.names);
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
            bad.extend(check_contexts(&by_chain[id], a, p, tally));
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

/// Each call chain's observations against the one context it reached:
/// what the run saw there must be in that context's set, even when another
/// context's set has it (the merged answer, checked before, covers it).
fn check_contexts(
    chains: &BTreeMap<Chain, BTreeSet<Seen>>,
    a: &Answer,
    p: &Probe,
    tally: &mut Tally,
) -> Vec<String> {
    let mut bad = Vec::new();
    for ((chain, objs), c) in chains.iter().zip(&a.contexts) {
        let c = match c {
            Ok(c) => c,
            Err(ChainError::CutOff) => {
                tally.unverifiable += 1;
                continue;
            }
            Err(ChainError::Missing(why)) => {
                bad.push(format!(
                    "line {} `{}` in {}, reached by calls on lines {chain:?}: {why}",
                    p.line, p.expr, p.function
                ));
                continue;
            }
        };
        tally.contexts += 1;
        let seen_txt = listed(objs);
        if !c.reachable {
            bad.push(format!(
                "line {} `{}` in {}, context #{} (calls on lines {chain:?}): reached at run time (saw {{{seen_txt}}}) but unreachable in that context",
                p.line, p.expr, p.function, c.number
            ));
            continue;
        }
        let missed = missed(objs, c.unknown, &c.names);
        if missed.is_empty() {
            continue;
        }
        if c.unresolved {
            tally.unverifiable += 1;
            continue;
        }
        bad.push(format!(
            "line {} col {} `{}` in {}, context #{} (calls on lines {chain:?}): saw {{{seen_txt}}}, that context {{{}}} (all contexts {{{}}}); missed {{{}}}",
            p.line,
            p.column,
            p.expr,
            p.function,
            c.number,
            c.shown,
            a.shown(),
            missed.join(", ")
        ));
    }
    bad
}

fn seeds() -> std::ops::Range<u64> {
    match std::env::var("ORACLE_SEEDS") {
        Ok(s) => {
            let (a, b) = s.split_once("..").expect("ORACLE_SEEDS=a..b");
            a.parse().expect("seed")..b.parse().expect("seed")
        }
        Err(_) => 0..60,
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
        total.contexts += t.contexts;
        total.partial += t.partial;
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
        "oracle: {} programs ({} stopped at the step budget), {} probes reached ({} observations, {} (probe, call chain) pairs checked in their own context, {} with a lone definite target, {} unverifiable: unresolved symbolic names or chains cut off by the budget, {} answered `unknown`), {} probes never reached; {:.1} s (summed over workers: gcc {:.1} s, runs {:.1} s, analysis {:.1} s)",
        total.programs,
        total.partial,
        total.probes,
        total.observations,
        total.contexts,
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
    assert!(total.probes > 0, "no probe was checked");
    // The budget bounds the slow programs, it must not hide most of them.
    assert!(
        total.partial * 10 <= total.programs,
        "{} of {} programs over the step budget",
        total.partial,
        total.programs
    );
    assert!(
        total.contexts > 0 || std::env::var_os("ORACLE_HOVER").is_some(),
        "no probe was checked in its own context"
    );
}
