//! The mutation driver: runs a target on its regressions and seeds, then on
//! inputs mutated from them (bytes flipped, inserted, deleted, ranges
//! duplicated, pieces of other inputs spliced in, C and Java tokens
//! inserted), each on its own thread under a wall-clock guard. No coverage
//! feedback: a plain build runs it anywhere (`cargo test`, the binary).

use crate::rand::Rng;
use crate::Target;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What went wrong on one input.
#[derive(Debug)]
pub struct Failure {
    pub target: &'static str,
    pub input: Vec<u8>,
    /// A panic's message, a hang, or the target's own error.
    pub what: String,
}

/// How a run went.
#[derive(Debug, Default)]
pub struct Report {
    pub cases: usize,
    pub failures: Vec<Failure>,
}

/// How long one input may take before it counts as a hang (far beyond any
/// input of the targets' sizes: a guard, not a speed limit).
pub const HANG_GUARD: Duration = Duration::from_secs(120);

const TOKENS: &[&[u8]] = &[
    b"*",
    b"&",
    b"->",
    b".",
    b";",
    b"{",
    b"}",
    b"(",
    b")",
    b"[",
    b"]",
    b",",
    b"=",
    b"0",
    b"NULL",
    b"int *",
    b"struct S",
    b"union",
    b"typedef ",
    b"#define X(a) a\n",
    b"#if 0\n",
    b"#endif\n",
    b"#include \"a.h\"\n",
    b"\\\n",
    b"/*",
    b"*/",
    b"\"",
    b"'",
    b"malloc(",
    b"free(",
    b"goto L;",
    b"L:",
    b"return",
    b"while (1)",
    b"for (;;)",
    b"switch (x) {",
    b"case 1:",
    b"class A {",
    b"new A()",
    b"null",
    b"this.",
    b"extends ",
    b"static ",
    b"(Object)",
    b"->",
    b"::",
    b"...",
    b"\xff",
    b"\xc3\xa9",
    b"\0",
];

/// One mutation of `input` (pieces of `others` may be spliced in).
pub fn mutate(rng: &mut Rng, input: &[u8], others: &[Vec<u8>], max_len: usize) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(v.len() + 1);
        match rng.below(7) {
            0 if !v.is_empty() => {
                let i = at.min(v.len() - 1);
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let end = (at + 1 + rng.below(16)).min(v.len());
                v.drain(at..end);
            }
            2 => v
                .splice(at..at, rng.pick(TOKENS).iter().copied())
                .for_each(drop),
            3 if !v.is_empty() => {
                let s = rng.below(v.len());
                let e = (s + 1 + rng.below(64)).min(v.len());
                let piece = v[s..e].to_vec();
                v.splice(at..at, piece).for_each(drop);
            }
            4 if !others.is_empty() => {
                let o = rng.pick(others);
                if !o.is_empty() {
                    let s = rng.below(o.len());
                    let e = (s + 1 + rng.below(256)).min(o.len());
                    v.splice(at..at, o[s..e].iter().copied()).for_each(drop);
                }
            }
            5 => v.insert(at, rng.next_u64() as u8),
            _ => {
                let end = (at + rng.below(8)).min(v.len());
                v.splice(at..end, rng.pick(TOKENS).iter().copied())
                    .for_each(drop);
            }
        }
    }
    v.truncate(max_len);
    v
}

/// Runs `target` on one input on its own thread (with a large stack, as the
/// product runs analyses) under [`HANG_GUARD`].
pub fn run_one(target: &'static Target, input: &[u8]) -> Result<(), Failure> {
    crate::panics::install();
    let (tx, rx) = mpsc::channel();
    let data = input.to_vec();
    let run = target.run;
    let spawned = std::thread::Builder::new()
        .name(format!("fuzz-{}", target.name))
        .stack_size(256 << 20)
        .spawn(move || {
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| run(&data)));
            let _ = tx.send(r);
        });
    let fail = |what: String| Failure {
        target: target.name,
        input: input.to_vec(),
        what,
    };
    if let Err(e) = spawned {
        return Err(fail(format!("could not start a thread: {e}")));
    }
    match rx.recv_timeout(HANG_GUARD) {
        Ok(Ok(Ok(()))) => Ok(()),
        Ok(Ok(Err(e))) => Err(fail(e)),
        Ok(Err(p)) => Err(fail(format!("panicked: {}", crate::panics::message(&*p)))),
        // The thread is left running: the run fails anyway.
        Err(_) => Err(fail(format!("no answer within {HANG_GUARD:?}"))),
    }
}

/// Runs `target`: every regression, then seeds and mutations until `cases`
/// of them ran or `budget` passed (whichever first). Seeded by
/// `seed`: the same arguments run the same inputs.
pub fn fuzz(target: &'static Target, seed: u64, cases: usize, budget: Duration) -> Report {
    let started = Instant::now();
    let mut report = Report::default();
    let check = |input: &[u8], report: &mut Report| {
        report.cases += 1;
        if let Err(f) = run_one(target, input) {
            report.failures.push(f);
        }
    };
    for (_, input) in crate::regressions(target.name) {
        check(&input, &mut report);
    }
    let mut rng = Rng::new(seed);
    let mut pool = (target.seeds)();
    pool.retain(|s| s.len() <= target.max_len);
    pool.sort_by_key(|s| s.len());
    if pool.is_empty() {
        pool.push(Vec::new());
    }
    let replayed = report.cases;
    while report.cases - replayed < cases
        && started.elapsed() < budget
        && report.failures.is_empty()
    {
        let base = pool[rng.below(pool.len())].clone();
        let input = if rng.ratio(1, 8) {
            base
        } else {
            mutate(&mut rng, &base, &pool, target.max_len)
        };
        check(&input, &mut report);
    }
    report
}

/// Saves a failing input under `target/fuzz-failures/TARGET/` and returns
/// the path (move it to `crates/pointee-fuzz/regressions/TARGET/` with the
/// fix).
pub fn save(f: &Failure) -> std::path::PathBuf {
    let dir = crate::repo_root()
        .join("target/fuzz-failures")
        .join(f.target);
    let _ = std::fs::create_dir_all(&dir);
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in &f.input {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    let path = dir.join(format!("{h:016x}"));
    let _ = std::fs::write(&path, &f.input);
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picky(data: &[u8]) -> Result<(), String> {
        if data.contains(&b'!') {
            panic!("a bang");
        }
        if data.contains(&b'?') {
            return Err("a question".into());
        }
        Ok(())
    }

    fn seeds() -> Vec<Vec<u8>> {
        vec![b"abc".to_vec()]
    }

    static PICKY: Target = Target {
        name: "picky",
        run: picky,
        seeds,
        max_len: 64,
    };

    #[test]
    fn panics_and_errors_are_failures_with_their_input() {
        let f = run_one(&PICKY, b"x!y").unwrap_err();
        assert_eq!(
            (f.what.as_str(), f.input.as_slice()),
            ("panicked: a bang", &b"x!y"[..])
        );
        let f = run_one(&PICKY, b"?").unwrap_err();
        assert_eq!(f.what, "a question");
        assert!(run_one(&PICKY, b"fine").is_ok());
    }

    #[test]
    fn mutations_are_seeded_and_bounded() {
        let others = vec![b"int *p;".to_vec()];
        let run = |seed| {
            let mut rng = Rng::new(seed);
            (0..200)
                .map(|_| mutate(&mut rng, b"int x, *p = &x;", &others, 24))
                .collect::<Vec<_>>()
        };
        let (a, b) = (run(3), run(3));
        assert_eq!(a, b);
        assert!(a.iter().all(|m| m.len() <= 24));
        assert!(
            a.iter()
                .filter(|m| m.as_slice() != b"int x, *p = &x;")
                .count()
                > 150
        );
    }
}
