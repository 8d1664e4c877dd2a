//! The fuzz targets: each takes any bytes and drives one layer as a user's
//! input would. A target returns `Err` when a property other than "no
//! panic" fails (an LSP request left unanswered, a position map pointing
//! outside its file); a panic is a failure by itself, and the driver's
//! wall-clock guard (generous: never an assertion on speed) catches a hang.

use crate::answers::{answers, Probe};
use pointee_flow::{Interrupt, Interrupted, Settings};
use pointee_ide::{AnalysisHost, Config};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Text from bytes as an editor would show them.
fn text_of(data: &[u8]) -> String {
    String::from_utf8_lossy(data).into_owned()
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
        texts.iter().find(|(n, _)| n == path).map(|(_, t)| t.len())
    };
    for s in &out.map.spans {
        if s.expanded.end as usize > out.text.len() || s.expanded.start > s.expanded.end {
            return Err(format!("span {:?} outside the expanded text", s.expanded));
        }
        if s.to.file as usize >= out.files.len() {
            return Err(format!(
                "span lands in file {} of {}",
                s.to.file,
                out.files.len()
            ));
        }
        if let Some(len) = len_of(s.to.file) {
            if s.to.range.end as usize > len || s.to.range.start > s.to.range.end {
                return Err(format!(
                    "span lands at {:?}, past the file's {len} bytes",
                    s.to.range
                ));
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

// ------------------------------------------------------------- C and Java

/// C text to IR to analysis: the input is one C file, asked every question
/// at every fourth position.
pub fn c_text(data: &[u8]) -> Result<(), String> {
    ask_everything("fuzz.c", &text_of(data))
}

/// A generated C program ([`crate::gen::c_program`]) to IR to analysis.
pub fn c_gen(data: &[u8]) -> Result<(), String> {
    ask_everything("fuzz.c", &crate::gen::c_program(data))
}

/// Java text to analysis: the input is one Java file.
pub fn java(data: &[u8]) -> Result<(), String> {
    ask_everything("Main.java", &text_of(data))
}

/// How many times the C engine may look at its interrupt (once every 256
/// statements, calls and passes of unknown code) on one input, and how long
/// it may take, before the input counts as over budget. The interrupt, not
/// the engine's own budget (`pointee_flow::Budget`), since an input over
/// it is not asked its questions, whose replays that budget does not
/// bound (docs/reliability.md). Generated programs with many recursive
/// function-pointer calls need far more.
pub const ENGINE_BUDGET: (u64, Duration) = (400, Duration::from_secs(5));

/// Past this, an analysis that finished is not asked every question
/// through pointee-ide (which runs it again and replays bodies).
const ASK_BUDGET: Duration = Duration::from_secs(1);

/// Inputs whose C analysis was stopped by [`ENGINE_BUDGET`] (the drivers
/// report them: many would mean the fuzzing tests little).
pub static OVER_BUDGET: AtomicUsize = AtomicUsize::new(0);

/// Every answer of pointee-ide on a one-file workspace. Input errors (a
/// program that cannot be analysed) are answers; only panics fail. A C
/// program is first analysed by the engine alone under [`ENGINE_BUDGET`];
/// past it, the input only checks the front end and the engine's first
/// steps.
fn ask_everything(name: &str, text: &str) -> Result<(), String> {
    if name.ends_with(".c") && !engine_within_budget(name, text) {
        OVER_BUDGET.fetch_add(1, Ordering::Relaxed);
        return Ok(());
    }
    let host = AnalysisHost::with_files([(name, text)], Config::default());
    answers(&host.analysis(), Probe { stride: 4 })
        .map(|_| ())
        .map_err(|_| "cancelled with nobody writing".to_string())
}

/// Lowers and analyses a C file with the engine stopped after
/// [`ENGINE_BUDGET`]; false when it was stopped or took longer than
/// [`ASK_BUDGET`].
fn engine_within_budget(name: &str, text: &str) -> bool {
    let Ok(lowered) = pointee_c::lower(&[(name, text)]) else {
        return true; // a link error: answered as such, nothing to analyse
    };
    let looks = Arc::new(AtomicU64::new(0));
    let start = Instant::now();
    let settings = Settings {
        interrupt: Interrupt(Some(Arc::new(move || {
            looks.fetch_add(1, Ordering::Relaxed) >= ENGINE_BUDGET.0
                || start.elapsed() > ENGINE_BUDGET.1
        }))),
        ..Settings::default()
    };
    let ran = std::panic::catch_unwind(AssertUnwindSafe(|| {
        drop(pointee_flow::analyze(&lowered.program, settings));
    }));
    match ran {
        Ok(()) => start.elapsed() < ASK_BUDGET,
        Err(p) if p.is::<Interrupted>() => false,
        Err(p) => std::panic::resume_unwind(p),
    }
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
