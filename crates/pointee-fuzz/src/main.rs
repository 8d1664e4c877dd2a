//! The `pointee-fuzz` binary: the long runs of `docs/reliability.md`.
//!
//! `pointee-fuzz incremental c|java EDITS [SEED] [STRIDE]`: EDITS random
//! edits spread over the language's fixtures (seeded; STRIDE: ask at every
//! STRIDE-th position, 1 = all), each checked against a fresh analysis; the
//! first difference is printed, its workspace saved, and the exit code is 1.
//!
//! `pointee-fuzz fuzz TARGET CASES [SEED] [SECONDS]`: the mutation driver on
//! one target (`cpp`, `c_text`, `c_gen`, `java`, `lsp_frames`,
//! `lsp_requests`); failing inputs are saved under `target/fuzz-failures/`.
//!
//! `pointee-fuzz run TARGET FILE`: one input; `pointee-fuzz gen FILE`: the C
//! program the `c_gen` target makes of FILE's bytes.
//!
//! It must never be a dependency of the product's crates.

use pointee_db::Lang;
use pointee_fuzz::answers::Probe;
use pointee_fuzz::incremental::{fixture_cases, run};
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| -> u64 {
        args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("incremental") => {
            let lang = match args.get(1).map(String::as_str) {
                Some("c") => Lang::C,
                Some("java") => Lang::Java,
                _ => return usage(),
            };
            incremental(lang, num(2, 1000) as usize, num(3, 1), num(4, 1) as usize)
        }
        Some("fuzz") => {
            let Some(target) = args.get(1).and_then(|t| pointee_fuzz::target(t)) else {
                return usage();
            };
            let budget = std::time::Duration::from_secs(num(4, 1800));
            let report =
                pointee_fuzz::driver::fuzz(target, num(3, 1), num(2, 1000) as usize, budget);
            for f in &report.failures {
                println!(
                    "{}: {} (input saved in {})",
                    f.target,
                    f.what,
                    pointee_fuzz::driver::save(f).display()
                );
            }
            println!(
                "{}: {} inputs, {} failures",
                target.name,
                report.cases,
                report.failures.len()
            );
            if report.failures.is_empty() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Some("run") => {
            let (Some(target), Some(file)) = (
                args.get(1).and_then(|t| pointee_fuzz::target(t)),
                args.get(2),
            ) else {
                return usage();
            };
            let input = std::fs::read(file).unwrap_or_default();
            match pointee_fuzz::driver::run_one(target, &input) {
                Ok(()) => ExitCode::SUCCESS,
                Err(f) => {
                    println!("{}: {}", f.target, f.what);
                    ExitCode::from(1)
                }
            }
        }
        Some("gen") => {
            let input = args
                .get(1)
                .and_then(|f| std::fs::read(f).ok())
                .unwrap_or_default();
            print!("{}", pointee_fuzz::gen::c_program(&input));
            ExitCode::SUCCESS
        }
        _ => usage(),
    }
}

fn usage() -> ExitCode {
    eprintln!(
        "usage: pointee-fuzz incremental c|java EDITS [SEED] [STRIDE]\n       \
         pointee-fuzz fuzz TARGET CASES [SEED] [SECONDS]\n       \
         pointee-fuzz run TARGET FILE\n       pointee-fuzz gen FILE"
    );
    ExitCode::from(2)
}

fn incremental(lang: Lang, edits: usize, seed: u64, stride: usize) -> ExitCode {
    let cases = fixture_cases(lang);
    let per_case = edits.div_ceil(cases.len()).max(1);
    let started = Instant::now();
    let (mut done, mut changed) = (0, 0);
    // POINTEE_FUZZ_ONLY=TEXT: only the fixtures whose name has TEXT (each
    // with the seed it has in the whole run), to replay one.
    // POINTEE_FUZZ_FROM=N: start at the Nth fixture (1-based, with the
    // seeds of the whole run), to finish a run that stopped early.
    let only = std::env::var("POINTEE_FUZZ_ONLY").ok();
    let from = std::env::var("POINTEE_FUZZ_FROM")
        .ok()
        .and_then(|n| n.parse::<usize>().ok())
        .unwrap_or(1);
    for (k, case) in cases.iter().enumerate() {
        if k + 1 < from
            || only
                .as_ref()
                .is_some_and(|o| !case.name.contains(o.as_str()))
        {
            continue;
        }
        let case_seed = seed.wrapping_mul(1_000_003).wrapping_add(k as u64);
        match run(
            case,
            case_seed,
            per_case,
            Probe {
                stride: stride.max(1),
            },
        ) {
            Ok(n) => changed += n,
            Err(d) => {
                let dir = std::env::temp_dir().join("pointee-incremental-difference");
                let _ = std::fs::create_dir_all(&dir);
                for (path, text) in &d.files {
                    let _ = std::fs::write(dir.join(path.replace('/', "_")), text);
                }
                println!(
                    "{d}edits: {:?}\nworkspace saved in {}",
                    d.edits,
                    dir.display()
                );
                return ExitCode::from(1);
            }
        }
        done += per_case;
        // Progress, so that a run stopped early still says how far it got.
        eprintln!(
            "{lang:?}: fixture {}/{}: {done} edits ({changed} changed a text), 0 differences, {:.0} s",
            k + 1,
            cases.len(),
            started.elapsed().as_secs_f64()
        );
    }
    println!(
        "{lang:?}: {} fixtures, {done} edits ({changed} changed a text), 0 differences, {:.0} s",
        cases.len(),
        started.elapsed().as_secs_f64()
    );
    ExitCode::SUCCESS
}
