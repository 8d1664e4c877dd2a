//! The `pointee` command line: reads files, applies them to a
//! `pointee_ide::AnalysisHost` as one change, asks its snapshot, prints
//! text or JSON. With the language server, the only crates that do file
//! I/O and know output formats; it must never hold analysis logic.
//!
//! Exit codes: 0 fine, 1 an alias check failed, 2 bad input (one line on
//! stderr per problem).

mod args;
mod load;
mod locate;
mod render;
mod sarif;
mod witness;
mod workspace;

use args::{Command, FailOn, Format, Invocation};
use locate::Locator;
use pointee_ide::{DumpConfig, InputError, Lang};
use std::process::ExitCode;
use workspace::now;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().map(String::as_str) == Some("lsp") {
        // Before any other thread allocates: a long session's memory stays
        // near the first analysis's (see the function).
        pointee_lsp::disk::one_allocator_arena();
    }
    // Deeply nested programs recurse in the front end's helpers; give the
    // work a large stack rather than rely on the main thread's.
    let worker = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || run(&argv));
    let result = match worker {
        Ok(handle) => handle.join().unwrap_or_else(|_| {
            Err(InputError(
                "internal error: the analysis panicked (please report it)".into(),
            ))
        }),
        Err(e) => Err(InputError(format!("cannot start: {e}"))),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // One line per problem (a loader reports every unreadable file).
            for line in e.0.lines() {
                eprintln!("pointee: {line}");
            }
            ExitCode::from(2)
        }
    }
}

fn run(argv: &[String]) -> Result<u8, InputError> {
    let inv = args::parse(argv)?;
    let config = pointee_ide::Config {
        java_cs: inv.cs.clone(),
        java_entry: inv.entry.clone(),
        c_context_bound: inv.context_bound,
        c_entries: None,
        c_assume_alloc_succeeds: inv.assume_alloc_succeeds,
        c_budget_steps: inv.budget_steps,
        c_budget_ms: inv.budget_ms,
        c_max_memory_mb: inv.max_memory_mb,
    };
    match &inv.command {
        Command::Lsp => Ok(pointee_lsp::run_stdio()),
        Command::Help => {
            print!("{}", args::USAGE);
            Ok(0)
        }
        Command::Dump { paths } => {
            let (lang, analysis) = load::workspace(paths)?.analyse(config)?;
            let dump_config = DumpConfig {
                verbose: inv.verbose,
                no_facts: inv.no_facts,
            };
            let dump = now(analysis.dump(lang, &dump_config));
            let loc = Locator {
                analysis: &analysis,
            };
            emit(&inv, render::dump_text(&dump, &loc), || {
                render::dump_json(&dump, &loc)
            });
            Ok(0)
        }
        Command::Hover { pos, with } => {
            let (lang, analysis) = load::workspace_with(&pos.file, with)?.analyse(config)?;
            let loc = Locator {
                analysis: &analysis,
            };
            let at = loc.position(&pos.file, pos.line, pos.column)?;
            let Some(hover) = now(analysis.hover(at)) else {
                let what = match lang {
                    Lang::C => "no pointer expression here",
                    Lang::Java => "no reference-typed expression here",
                };
                return Err(not_here(pos, what));
            };
            emit(&inv, render::hover_text(&hover, &loc), || {
                render::hover_json(&hover, &loc)
            });
            Ok(0)
        }
        Command::Callees { pos, with } => {
            let (lang, analysis) = load::workspace_with(&pos.file, with)?.analyse(config)?;
            let loc = Locator {
                analysis: &analysis,
            };
            let at = loc.position(&pos.file, pos.line, pos.column)?;
            let Some(callees) = now(analysis.callees(at)) else {
                let what = match lang {
                    Lang::C => "no call here",
                    Lang::Java => "no call of a program method here",
                };
                return Err(not_here(pos, what));
            };
            emit(&inv, render::callees_text(&callees, &loc), || {
                render::callees_json(&callees, &loc)
            });
            Ok(0)
        }
        Command::Witness {
            pos,
            with,
            emit_test,
            all,
            plain,
            no_requires,
            bounds,
        } => {
            let options = witness::options(*plain, *no_requires, inv.assume_alloc_succeeds, bounds);
            let emit_test = emit_test.as_deref();
            if *all {
                witness::run_all(&inv, config, pos, with, emit_test, options)
            } else {
                witness::run(&inv, config, pos, with, emit_test, options)
            }
        }
        Command::Check {
            paths,
            each,
            model,
            baseline,
        } => {
            // Read first: a bad baseline is bad input, before any work.
            let baseline = baseline.as_deref().map(sarif::Baseline::read).transpose()?;
            let programs = if *each {
                load::each_file(paths)?
                    .into_iter()
                    .map(|ws| (ws, None))
                    .collect()
            } else {
                let p = load::program(paths, model.as_ref())?;
                for n in &p.notes {
                    eprintln!("pointee: note: {n}");
                }
                vec![(p.ws, p.entries)]
            };
            let mut report = render::CheckReport::default();
            for (ws, entries) in &programs {
                let config = pointee_ide::Config {
                    c_entries: entries.clone(),
                    ..config.clone()
                };
                let (lang, analysis) = ws.analyse(config)?;
                let loc = Locator {
                    analysis: &analysis,
                };
                report.add(now(analysis.check(lang)), &loc);
            }
            if let Some(b) = &baseline {
                b.apply(&mut report);
            }
            if inv.format == Format::Sarif {
                let v = sarif::check_sarif(&report);
                print_out(
                    serde_json::to_string_pretty(&v).expect("JSON values always serialise") + "\n",
                );
            } else {
                emit(&inv, render::check_text(&report), || {
                    render::check_json(&report)
                });
            }
            let threshold = match inv.fail_on {
                FailOn::Error => Some(pointee_ide::Severity::Error),
                FailOn::Warning => Some(pointee_ide::Severity::Warning),
                FailOn::Never => None,
            };
            Ok(if report.partial.is_some() {
                // Not a complete answer, whatever it says.
                3
            } else if report.all_ok() && !report.fails_on(threshold) {
                0
            } else {
                1
            })
        }
    }
}

pub(crate) fn not_here(pos: &args::Position, what: &str) -> InputError {
    InputError(format!("{}:{}:{}: {what}", pos.file, pos.line, pos.column))
}

pub(crate) fn emit(inv: &Invocation, text: String, json: impl FnOnce() -> serde_json::Value) {
    let out = match inv.format {
        Format::Text => text,
        Format::Json | Format::Sarif => {
            let v = json();
            serde_json::to_string_pretty(&v).expect("JSON values always serialise") + "\n"
        }
    };
    print_out(out);
}

fn print_out(out: String) {
    use std::io::Write;
    // A reader that stops early (`| head`) is not an error of ours.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
}
