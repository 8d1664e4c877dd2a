//! The `pointee` command line: reads files, asks `pointee-ide`, prints text or
//! JSON. The only crate that does file I/O and knows output formats.
//!
//! Exit codes: 0 fine, 1 an alias check failed, 2 bad input (one line on
//! stderr).

mod args;
mod load;
mod render;

use args::{Command, Format, Invocation};
use pointee_ide::InputError;
use std::process::ExitCode;

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
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
            eprintln!("pointee: {e}");
            ExitCode::from(2)
        }
    }
}

fn run(argv: &[String]) -> Result<u8, InputError> {
    let inv = args::parse(argv)?;
    let opts = pointee_ide::Options {
        cs: inv.cs.clone(),
        entry: inv.entry.clone(),
        verbose: inv.verbose,
        no_facts: inv.no_facts,
        c_context_bound: inv.context_bound,
        c_entries: None,
    };
    match &inv.command {
        Command::Lsp => Ok(pointee_lsp::run_stdio()),
        Command::Help => {
            print!("{}", args::USAGE);
            Ok(0)
        }
        Command::Dump { paths } => {
            let ws = load::workspace(paths)?;
            let mut dump = pointee_ide::dump(&ws, &opts)?;
            if inv.no_facts {
                // What the analysis found goes; what the front end read stays.
                dump.sections.retain(|(title, _)| title == "macro expansions");
                for f in &mut dump.functions {
                    for l in &mut f.lines {
                        l.facts.clear();
                    }
                }
            }
            emit(&inv, render::dump_text(&dump), || render::dump_json(&dump));
            Ok(0)
        }
        Command::Hover { pos, with } => {
            let ws = load::workspace_with(&pos.file, with)?;
            let hover = pointee_ide::hover(&ws, &pos.file, pos.line, pos.column, &opts)?;
            emit(&inv, render::hover_text(&hover), || {
                render::hover_json(&hover)
            });
            Ok(0)
        }
        Command::Callees { pos, with } => {
            let ws = load::workspace_with(&pos.file, with)?;
            let callees = pointee_ide::callees(&ws, &pos.file, pos.line, pos.column, &opts)?;
            emit(&inv, render::callees_text(&callees), || {
                render::callees_json(&callees)
            });
            Ok(0)
        }
        Command::Check { paths, each } => {
            let programs = if *each {
                load::each_file(paths)?
            } else {
                vec![load::workspace(paths)?]
            };
            let mut report = pointee_ide::CheckReport::default();
            for ws in &programs {
                let r = pointee_ide::check(ws, &opts)?;
                report.alias_checks.extend(r.alias_checks);
                report.diagnostics.extend(r.diagnostics);
                for (name, value) in r.stats {
                    match report.stats.iter_mut().find(|(n, _)| *n == name) {
                        Some((_, v)) => *v += value,
                        None => report.stats.push((name, value)),
                    }
                }
            }
            report.alias_checks.sort();
            report.diagnostics.sort();
            emit(&inv, render::check_text(&report), || {
                render::check_json(&report)
            });
            Ok(if report.all_ok() { 0 } else { 1 })
        }
    }
}

fn emit(inv: &Invocation, text: String, json: impl FnOnce() -> serde_json::Value) {
    use std::io::Write;
    let out = match inv.format {
        Format::Text => text,
        Format::Json => {
            let v = json();
            serde_json::to_string_pretty(&v).expect("JSON values always serialise") + "\n"
        }
    };
    // A reader that stops early (`| head`) is not an error of ours.
    let _ = std::io::stdout().lock().write_all(out.as_bytes());
}
