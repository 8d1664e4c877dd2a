//! Command-line arguments, parsed by hand: a handful of flags do not need a
//! parser library.

use pointee_ide::InputError;

pub const USAGE: &str = "\
pointee: what pointers point to, for C and a Java-like language

usage:
  pointee dump FILE... [--verbose] [--no-facts] IR of every function, facts
  pointee hover FILE:LINE:COL [--with PATH...] points-to set at a position
  pointee callees FILE:LINE:COL [--with PATH...] possible callees of a call
  pointee check PATH... [--each]               alias checks and diagnostics
  pointee check --compile-commands FILE        the program a compilation
                                               database describes
  pointee check --project TOML [DIR]           the program a pointee.toml
                                               describes (root: DIR, else
                                               the file's folder)
  pointee witness FILE:LINE:COL [--with PATH...] [--emit-test OUT]
                                               an input that makes the
                                               dereference there fault
  pointee lsp                                  language server over stdio

options:
  --format text|json|sarif
                       output format (default text; sarif: SARIF 2.1.0,
                       for check only)
  --cs VARIANT         Java context sensitivity: ci, 1-call..3-call,
                       1-obj..3-obj, 1-type..3-type (default 2-obj)
  --entry NAME         Java entry class when several have main
  --context-bound N    C: at most N calling contexts per function, then
                       contexts merge (hover says so); default 256
  --budget-steps N     C: stop the analysis after N calls analysed
  --budget-ms N        C: stop the analysis after N milliseconds
  --max-memory-mb N    C: stop the analysis when the process holds N MB
                       (default 2048). A stopped analysis gives a partial
                       result: sound, possibly coarser, the functions it
                       did not finish listed; hover says partial
  --assume-alloc-succeeds
                       C: malloc, calloc, realloc and fopen never return
                       NULL (default: they may, and an unchecked use of
                       their result is a warning; witness: a malloc or
                       calloc call may fail on the path)
  --emit-test OUT      witness: write a C test that builds the input,
                       calls the function and faults there (Java: the
                       class OUT = NAME.java, compiled with the source,
                       throwing NullPointerException there)
  --all                witness: one input per path of the function
                       (test generation); --emit-test then names a
                       folder for the tests
  --plain              witness: lazy initialisation without the
                       points-to facts (every candidate)
  --no-requires        witness: ignore the function's //@ preconditions
  --loops N, --depth N, --paths N, --time-ms N
                       witness: loop unfoldings (4), call depth (4),
                       paths explored (20000), time budget (5000 ms)
  --fail-on error|warning|never
                       check: which diagnostics make the exit code 1
                       (default error)
  --baseline FILE.sarif
                       check: report (and fail on) only the diagnostics
                       and failing alias checks that FILE, the SARIF log
                       of an earlier run, does not have
Lines and columns are 1-based; a column counts characters.
Exit codes: 0 ok, 1 an alias check is not ok or a diagnostic at or above
--fail-on was reported, 2 bad input, 3 check's C analysis stopped at its
budget (the result is partial).
";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    /// SARIF 2.1.0 (`check` only).
    Sarif,
}

/// Which diagnostics make `check` exit with 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailOn {
    Error,
    Warning,
    Never,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    Help,
    Dump {
        paths: Vec<String>,
    },
    Hover {
        pos: Position,
        with: Vec<String>,
    },
    Callees {
        pos: Position,
        with: Vec<String>,
    },
    Check {
        paths: Vec<String>,
        each: bool,
        /// `--compile-commands FILE`, `--project FILE`: the program model.
        model: Option<ModelFile>,
        /// `--baseline FILE.sarif`: report only what that earlier run did not.
        baseline: Option<String>,
    },
    Witness {
        pos: Position,
        with: Vec<String>,
        emit_test: Option<String>,
        /// `--all`: every path's input (test generation).
        all: bool,
        plain: bool,
        /// `--no-requires`: ignore the `//@` preconditions.
        no_requires: bool,
        /// Loop unfoldings, call depth, paths, milliseconds.
        bounds: [Option<u64>; 4],
    },
    Lsp,
}

/// A program model file given on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelFile {
    CompileCommands(String),
    Manifest(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    pub command: Command,
    pub format: Format,
    pub verbose: bool,
    pub no_facts: bool,
    pub context_bound: Option<u32>,
    /// C: the analysis's budget (`--budget-steps`, `--budget-ms`,
    /// `--max-memory-mb`).
    pub budget_steps: Option<u64>,
    pub budget_ms: Option<u64>,
    pub max_memory_mb: Option<u64>,
    pub cs: Option<String>,
    pub entry: Option<String>,
    pub assume_alloc_succeeds: bool,
    pub fail_on: FailOn,
}

pub fn parse(argv: &[String]) -> Result<Invocation, InputError> {
    let mut it = argv.iter();
    let name = match it.next() {
        Some(n) => n.as_str(),
        None => return Err(InputError("no command given (try `pointee help`)".into())),
    };
    let mut format = Format::Text;
    let mut verbose = false;
    let mut no_facts = false;
    let mut context_bound = None;
    let (mut budget_steps, mut budget_ms, mut max_memory_mb) = (None, None, None);
    let mut each = false;
    let mut cs = None;
    let mut entry = None;
    let mut model = None;
    let mut baseline = None;
    let mut assume_alloc_succeeds = false;
    let mut fail_on = FailOn::Error;
    let mut positional = Vec::new();
    let mut with = Vec::new();
    let mut in_with = false;
    let mut emit_test = None;
    let mut plain = false;
    let mut all = false;
    let mut no_requires = false;
    let mut bounds: [Option<u64>; 4] = [None; 4];
    while let Some(arg) = it.next() {
        let mut value = |flag: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| InputError(format!("{flag} needs a value")))
        };
        match arg.as_str() {
            "--format" => {
                format = match value("--format")?.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    "sarif" => Format::Sarif,
                    other => {
                        return Err(InputError(format!(
                            "--format must be text, json or sarif, not `{other}`"
                        )))
                    }
                };
                in_with = false;
            }
            "--verbose" | "-v" => verbose = true,
            "--no-facts" => no_facts = true,
            "--context-bound" => {
                let v = value("--context-bound")?;
                context_bound =
                    Some(v.parse::<u32>().ok().filter(|&n| n > 0).ok_or_else(|| {
                        InputError(format!(
                            "--context-bound takes a positive whole number, not `{v}`"
                        ))
                    })?);
            }
            "--budget-steps" => budget_steps = Some(whole(arg, &value(arg)?, 0)?),
            "--budget-ms" => budget_ms = Some(whole(arg, &value(arg)?, 0)?),
            "--max-memory-mb" => max_memory_mb = Some(whole(arg, &value(arg)?, 1)?),
            "--each" => each = true,
            "--assume-alloc-succeeds" => assume_alloc_succeeds = true,
            "--fail-on" => {
                fail_on = match value("--fail-on")?.as_str() {
                    "error" => FailOn::Error,
                    "warning" => FailOn::Warning,
                    "never" => FailOn::Never,
                    other => {
                        return Err(InputError(format!(
                            "--fail-on must be error, warning or never, not `{other}`"
                        )))
                    }
                }
            }
            "--cs" => cs = Some(value("--cs")?),
            "--entry" => entry = Some(value("--entry")?),
            "--compile-commands" => {
                model = Some(ModelFile::CompileCommands(value("--compile-commands")?))
            }
            "--project" => model = Some(ModelFile::Manifest(value("--project")?)),
            "--baseline" => baseline = Some(value("--baseline")?),
            "--with" => in_with = true,
            "--emit-test" => {
                emit_test = Some(value("--emit-test")?);
                in_with = false;
            }
            "--plain" => plain = true,
            "--all" => all = true,
            "--no-requires" => no_requires = true,
            flag @ ("--loops" | "--depth" | "--paths" | "--time-ms") => {
                let v = value(flag)?;
                let n = v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(|| {
                    InputError(format!("{flag} takes a positive whole number, not `{v}`"))
                })?;
                let i = ["--loops", "--depth", "--paths", "--time-ms"]
                    .iter()
                    .position(|f| f == &flag)
                    .expect("one of the four");
                bounds[i] = Some(n);
                in_with = false;
            }
            s if s.starts_with("--") => return Err(InputError(format!("unknown option `{s}`"))),
            s if in_with => with.push(s.to_string()),
            s => positional.push(s.to_string()),
        }
    }
    let one_position = |what: &str| -> Result<Position, InputError> {
        match positional.as_slice() {
            [p] => parse_position(p),
            [] => Err(InputError(format!("{what} needs FILE:LINE:COL"))),
            _ => Err(InputError(format!(
                "{what} takes one FILE:LINE:COL (use --with for more files)"
            ))),
        }
    };
    let command = match name {
        "help" | "--help" | "-h" => Command::Help,
        "lsp" => Command::Lsp,
        "dump" if positional.is_empty() => {
            return Err(InputError("dump needs at least one FILE".into()))
        }
        "dump" => Command::Dump {
            paths: positional.clone(),
        },
        "hover" => Command::Hover {
            pos: one_position("hover")?,
            with,
        },
        "callees" => Command::Callees {
            pos: one_position("callees")?,
            with,
        },
        "witness" => Command::Witness {
            pos: one_position("witness")?,
            with,
            emit_test,
            all,
            plain,
            no_requires,
            bounds,
        },
        "check" if positional.is_empty() && model.is_none() => {
            return Err(InputError("check needs at least one PATH".into()))
        }
        "check" => Command::Check {
            paths: positional.clone(),
            each,
            model,
            baseline: baseline.take(),
        },
        other => {
            return Err(InputError(format!(
                "unknown command `{other}` (try `pointee help`)"
            )))
        }
    };
    if format == Format::Sarif && !matches!(command, Command::Check { .. }) {
        return Err(InputError("--format sarif is for check only".into()));
    }
    if baseline.is_some() {
        return Err(InputError("--baseline is for check only".into()));
    }
    Ok(Invocation {
        command,
        format,
        verbose,
        no_facts,
        context_bound,
        budget_steps,
        budget_ms,
        max_memory_mb,
        cs,
        entry,
        assume_alloc_succeeds,
        fail_on,
    })
}

/// A whole number of at least `min` given to `flag`.
fn whole(flag: &str, v: &str, min: u64) -> Result<u64, InputError> {
    v.parse::<u64>().ok().filter(|&n| n >= min).ok_or_else(|| {
        let what = if min == 0 {
            "a whole number"
        } else {
            "a positive whole number"
        };
        InputError(format!("{flag} takes {what}, not `{v}`"))
    })
}

/// `FILE:LINE:COL`; the file name may itself contain colons.
fn parse_position(s: &str) -> Result<Position, InputError> {
    let bad = || InputError(format!("`{s}` is not FILE:LINE:COL"));
    let (rest, col) = s.rsplit_once(':').ok_or_else(bad)?;
    let (file, line) = rest.rsplit_once(':').ok_or_else(bad)?;
    let line: u32 = line.parse().map_err(|_| bad())?;
    let column: u32 = col.parse().map_err(|_| bad())?;
    if file.is_empty() {
        return Err(bad());
    }
    if line == 0 || column == 0 {
        return Err(InputError(format!("`{s}`: lines and columns start at 1")));
    }
    Ok(Position {
        file: file.to_string(),
        line,
        column,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Invocation, InputError> {
        parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_positions_and_flags() {
        let inv = p(&[
            "hover",
            "a:b.c:3:4",
            "--format",
            "json",
            "--with",
            "x.c",
            "y.c",
        ])
        .unwrap();
        assert_eq!(inv.format, Format::Json);
        assert_eq!(
            inv.command,
            Command::Hover {
                pos: Position {
                    file: "a:b.c".into(),
                    line: 3,
                    column: 4
                },
                with: vec!["x.c".into(), "y.c".into()]
            }
        );
        assert!(p(&["hover", "a.c:0:1"]).is_err());
        assert!(p(&["hover", "a.c:1"]).is_err());
        assert!(p(&["dump"]).is_err());
        assert!(p(&["frobnicate"]).is_err());
        assert!(p(&["dump", "a.c", "--format", "xml"]).is_err());
    }
}
