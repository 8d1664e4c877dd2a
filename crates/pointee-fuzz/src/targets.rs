//! The fuzz targets: each takes any bytes and drives one layer as a user's
//! input would. A target returns `Err` when a property other than "no
//! panic" fails (an LSP request left unanswered, a position map pointing
//! outside its file); a panic is a failure by itself.
//!
//! The C engine has no step budget yet (issue 10): until it lands, its run
//! is stopped by the engine's interrupt after [`ANALYSIS_BUDGET`], and such
//! an input counts as "over budget", not as a failure. The driver's
//! wall-clock guard (far longer) is what catches a hang.

use pointee_flow::{Analysis, Interrupt, Interrupted, Settings};
use pointee_ide::{Options, SourceFile, Workspace};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long one C analysis may run before it is stopped (a stand-in for
/// the engine's step budget).
pub const ANALYSIS_BUDGET: Duration = Duration::from_secs(3);

/// Inputs whose analysis was stopped by [`ANALYSIS_BUDGET`] (reported by the
/// drivers: many of them would mean the fuzzing tests little).
pub static OVER_BUDGET: AtomicUsize = AtomicUsize::new(0);

fn interrupt_after(limit: Duration) -> Interrupt {
    let start = Instant::now();
    Interrupt(Some(Arc::new(move || start.elapsed() > limit)))
}

/// Text from bytes as an editor would show them.
fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
}

/// Positions to ask about: the start of every expression the front end
/// records (first 40), and edge positions past the ends of lines and file.
fn probe_positions(text: &str, offsets: impl Iterator<Item = u32>) -> Vec<(u32, u32)> {
    let index = pointee_ir::LineIndex::new(text);
    let mut out: Vec<(u32, u32)> = offsets
        .take(40)
        .map(|o| {
            let (l, c) = index.line_col_chars(o.min(text.len() as u32));
            (l as u32 + 1, c as u32 + 1)
        })
        .collect();
    let lines = text.lines().count() as u32;
    out.extend([(1, 1), (1, 1000), (lines.max(1), 1), (lines + 1, 1), (lines + 5, 3)]);
    out
}

// ------------------------------------------------------------------- cpp

/// The preprocessor: the input is up to three files split at NUL bytes
/// (`main.c`, `a.h`, `inc/b.h`, with `inc` an include directory), so that
/// mutations of includes and macros across files are reachable. Checks that
/// every span of the position map lands inside a file it was given.
pub fn cpp(data: &[u8]) -> Result<(), String> {
    let mut parts = data.splitn(3, |&b| b == 0).map(text_of);
    let names = ["main.c", "a.h", "inc/b.h"];
    let mut fs = pointee_cpp::MemoryFs::new();
    let mut texts = Vec::new();
    for name in names {
        let text = parts.next().unwrap_or_default();
        fs.insert(name, &text);
        texts.push((name, text));
    }
    let config = pointee_cpp::Config {
        include_dirs: vec!["inc".into()],
        ..Default::default()
    };
    let out = pointee_cpp::preprocess(&config, &fs, "main.c");
    let len_of = |file: u32| -> Option<usize> {
        let path = &out.files.get(file as usize)?.path;
        texts
            .iter()
            .find(|(n, _)| n == path)
            .map(|(_, t)| t.len())
    };
    for s in &out.map.spans {
        if s.expanded.end as usize > out.text.len() || s.expanded.start > s.expanded.end {
            return Err(format!("span {:?} outside the expanded text", s.expanded));
        }
        if s.to.file as usize >= out.files.len() {
            return Err(format!("span lands in file {} of {}", s.to.file, out.files.len()));
        }
        if let Some(len) = len_of(s.to.file) {
            if s.to.range.end as usize > len || s.to.range.start > s.to.range.end {
                return Err(format!("span lands at {:?}, past the file's {len} bytes", s.to.range));
            }
        }
    }
    // Every range of the expanded text resolves (or not) without panicking.
    let n = out.text.len() as u32;
    for (a, b) in [(0, n), (n / 3, n / 2), (n / 2, n / 2 + 1), (n, n)] {
        let _ = out.map.resolve(pointee_cpp::Range::new(a, b));
    }
    let _ = out.map.expansions();
    // And the same main file with the bundled C library's headers.
    let main = &texts[0].1;
    let _ = pointee_c::preprocess_file("main.c", main);
    Ok(())
}

// --------------------------------------------------------------------- C

/// C text to IR to analysis: the input is one C file.
pub fn c_text(data: &[u8]) -> Result<(), String> {
    analyse_c(&text_of(data))
}

/// A generated C program ([`crate::gen::c_program`]) to IR to analysis.
pub fn c_gen(data: &[u8]) -> Result<(), String> {
    analyse_c(&crate::gen::c_program(data))
}

/// Lowers, analyses (under the budget) and asks every question the engine
/// answers; when the analysis is quick, also the user's questions through
/// pointee-ide (check, dump, hover and callees at many positions).
pub fn analyse_c(text: &str) -> Result<(), String> {
    let Ok(lowered) = pointee_c::lower(&[("fuzz.c", text)]) else {
        return Ok(()); // a link error: reported to the user, nothing to analyse
    };
    for src in lowered.sources.iter().flat_map(|s| s.functions.iter()) {
        let Some(func) = lowered.program.function(&src.name) else {
            return Err(format!("{}: in the source map, not in the program", src.name));
        };
        if func.stmt_count as usize != src.stmts.len() || func.vars.len() != src.vars.len() {
            return Err(format!("{}: IR and source map disagree", func.name));
        }
    }
    let started = Instant::now();
    let settings = Settings {
        interrupt: interrupt_after(ANALYSIS_BUDGET),
        ..Settings::default()
    };
    let program = &lowered.program;
    let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
        let mut a = pointee_flow::analyze(program, settings);
        for s in &lowered.sources {
            for fs in &s.functions {
                for e in &fs.exprs {
                    let rv = pointee_ir::Rvalue::Use(e.place.clone());
                    let per = a.values_at(&fs.name, e.point, &rv);
                    if let Some(set) = Analysis::merge_values(&per) {
                        let _ = a.render_set(&set);
                    }
                    for c in &per {
                        let _ = a.chain_paths(c.unit, 4);
                    }
                }
            }
        }
        let _ = a.call_edges();
        let _ = a.render_graph();
        let _ = a.stats();
    }));
    match ran {
        Ok(()) => {}
        Err(p) if p.is::<Interrupted>() => {
            OVER_BUDGET.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        Err(p) => std::panic::resume_unwind(p),
    }
    // The user's path re-analyses once per question: only when cheap.
    if started.elapsed() < ANALYSIS_BUDGET / 20 {
        let offsets = lowered
            .sources
            .iter()
            .filter(|s| s.file == "fuzz.c")
            .flat_map(|s| s.functions.iter())
            .flat_map(|f| f.exprs.iter().map(|e| e.range.start));
        ask_ide("fuzz.c", text, probe_positions(text, offsets));
    }
    Ok(())
}

/// Asks pointee-ide everything about a one-file program. Input errors (a
/// position outside the file) are answers; only panics are failures.
fn ask_ide(name: &str, text: &str, positions: Vec<(u32, u32)>) {
    let ws = Workspace::new(vec![SourceFile::new(name, text)]);
    let opts = Options::default();
    let _ = pointee_ide::check(&ws, &opts);
    let _ = pointee_ide::dump(&ws, &opts);
    for (i, (line, col)) in positions.into_iter().enumerate() {
        // Hover re-analyses: a few positions, callees at all of them.
        if i % 8 == 0 {
            let _ = pointee_ide::hover(&ws, name, line, col, &opts);
        }
        if i % 8 == 1 {
            let _ = pointee_ide::callees(&ws, name, line, col, &opts);
        }
    }
}

// ------------------------------------------------------------------ Java

/// Java text to analysis: lowering, the default analysis, check, dump, and
/// hover and callees at many positions.
pub fn java(data: &[u8]) -> Result<(), String> {
    let text = text_of(data);
    let jp = pointee_java::lower(&[("Main.java", &text)]);
    let offsets: Vec<u32> = jp
        .sources
        .iter()
        .flat_map(|s| s.functions.iter())
        .flat_map(|f| f.exprs.iter().map(|e| e.range.start))
        .collect();
    ask_ide("Main.java", &text, probe_positions(&text, offsets.into_iter()));
    Ok(())
}

// ------------------------------------------------------------------- LSP

/// The server's message framing: a valid `initialize`, then the input as
/// raw bytes on the server's standard input, then end of input. The server
/// must end (not hang), not panic, and write only well-framed JSON.
pub fn lsp_frames(data: &[u8]) -> Result<(), String> {
    let mut input = frame(&init_request());
    input.extend_from_slice(data);
    let out = crate::lsp::session(vec![input], false, Duration::from_secs(30))?;
    out.check_no_internal_errors()
}

/// The server's requests: a document (C or Java, from the input) opened,
/// then a sequence of edits, requests at arbitrary positions, cancellations,
/// configuration changes and unknown methods, built from the input; every
/// request must be answered, none with an internal error.
pub fn lsp_requests(data: &[u8]) -> Result<(), String> {
    let (messages, ids) = crate::lsp::script(data);
    let out = crate::lsp::session(messages, true, Duration::from_secs(60))?;
    out.check_no_internal_errors()?;
    out.check_answered(&ids)
}

pub(crate) fn init_request() -> serde_json::Value {
    serde_json::json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "processId": null, "rootUri": null, "capabilities": {},
            "initializationOptions": {"debounceMs": 0, "progressAfterMs": 100000}
        }
    })
}

pub(crate) fn frame(v: &serde_json::Value) -> Vec<u8> {
    let body = v.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}
