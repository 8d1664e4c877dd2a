//! pointee-fuzz: the reliability checks of `docs/reliability.md`. Incremental
//! answers against fresh ones over random edit sequences ([`incremental`]),
//! fuzz targets for every layer that reads outside input ([`targets`]: C
//! text to IR to analysis, generated C programs, Java text to analysis, the
//! preprocessor, the server's framing and requests) and the mutation driver
//! that runs them ([`driver`]). `cargo test -p pointee-fuzz` runs each for
//! a bounded budget; the `pointee-fuzz` binary runs them as long as asked.
//!
//! It must never be a dependency of the product's crates, and never assert
//! how fast anything runs (wall-clock limits only guard against hangs).

pub mod answers;
pub mod call_runs;
pub mod driver;
pub mod edits;
pub mod gen;
pub mod incremental;
pub mod lsp;
pub mod panics;
pub mod rand;
pub mod targets;

use std::path::{Path, PathBuf};

/// The repository's root (the fixtures are inputs).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A fuzz target: a name, what it runs on one input, and the inputs to
/// start from.
pub struct Target {
    pub name: &'static str,
    pub run: fn(&[u8]) -> Result<(), String>,
    /// Inputs to start from (files of the repository, or made here).
    pub seeds: fn() -> Vec<Vec<u8>>,
    /// Mutated inputs are cut to this length (keeps each run small: an
    /// input's questions are not bounded by the engine's budget).
    pub max_len: usize,
}

pub const TARGETS: &[Target] = &[
    Target {
        name: "cpp",
        run: targets::cpp,
        seeds: seeds_cpp,
        max_len: 16 << 10,
    },
    Target {
        name: "c_text",
        run: targets::c_text,
        seeds: seeds_c,
        max_len: 8 << 10,
    },
    Target {
        name: "c_gen",
        run: targets::c_gen,
        seeds: seeds_bytes,
        max_len: 2 << 10,
    },
    Target {
        name: "java",
        run: targets::java,
        seeds: seeds_java,
        max_len: 8 << 10,
    },
    Target {
        name: "lsp_frames",
        run: targets::lsp_frames,
        seeds: seeds_frames,
        max_len: 8 << 10,
    },
    Target {
        name: "lsp_requests",
        run: targets::lsp_requests,
        seeds: seeds_bytes,
        max_len: 4 << 10,
    },
];

pub fn target(name: &str) -> Option<&'static Target> {
    TARGETS.iter().find(|t| t.name == name)
}

/// Inputs that once failed, by target: `regressions/TARGET/*`. Each is
/// replayed first by every run of the driver.
pub fn regressions(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("regressions")
        .join(target);
    files_under(&dir, &|_| true)
        .into_iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read(&p).ok()?)))
        .collect()
}

fn files_under(dir: &Path, keep: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if keep(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn read_all(paths: Vec<PathBuf>) -> Vec<Vec<u8>> {
    paths
        .into_iter()
        .filter_map(|p| std::fs::read(p).ok())
        .collect()
}

fn with_ext(exts: &'static [&'static str]) -> impl Fn(&Path) -> bool {
    move |p: &Path| p.extension().is_some_and(|x| exts.iter().any(|e| x == *e))
}

fn seeds_c() -> Vec<Vec<u8>> {
    read_all(files_under(
        &repo_root().join("fixtures/c"),
        &with_ext(&["c"]),
    ))
}

/// Headers and units of every C fixture (the cpp target splits an input
/// into files at NUL bytes; mutation splices pieces of other seeds in).
fn seeds_cpp() -> Vec<Vec<u8>> {
    read_all(files_under(
        &repo_root().join("fixtures/c"),
        &with_ext(&["c", "h"]),
    ))
}

fn seeds_java() -> Vec<Vec<u8>> {
    read_all(files_under(
        &repo_root().join("fixtures/java"),
        &with_ext(&["java"]),
    ))
}

/// Byte strings for the structure-aware targets (any bytes are an input).
fn seeds_bytes() -> Vec<Vec<u8>> {
    let mut rng = rand::Rng::new(7);
    (0..16)
        .map(|k| (0..32 + 64 * k).map(|_| rng.next_u64() as u8).collect())
        .collect()
}

fn seeds_frames() -> Vec<Vec<u8>> {
    use serde_json::json;
    let f = |v: serde_json::Value| targets::frame(&v);
    let hover = json!({"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover",
        "params": {"textDocument": {"uri": "file:///fuzz/a.c"}, "position": {"line": 0, "character": 5}}});
    let open = json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument":
        {"uri": "file:///fuzz/a.c", "languageId": "c", "version": 1, "text": "int x, *p = &x;\n"}}});
    let mut v = vec![
        [f(open.clone()), f(hover.clone())].concat(),
        b"Content-Length: 5\r\n\r\n{\"a\":".to_vec(),
        b"Content-Length: x\r\n\r\n{}Content-Length: 2\r\n\r\n{}".to_vec(),
        b"Content-Type: a\r\nContent-Length: 2\r\n\r\n[]".to_vec(),
        b"\r\n\r\n\r\n".to_vec(),
        f(json!({"jsonrpc": "2.0", "id": [1], "method": "shutdown"})),
        f(json!({"jsonrpc": "1.0", "id": 2, "method": "x"})),
        f(json!({"jsonrpc": "2.0", "id": 3, "result": null})),
        f(json!({"jsonrpc": "2.0", "method": "exit"})),
    ];
    v.push(
        [
            f(open),
            b"Content-Length: 99999999\r\n\r\n{".to_vec(),
            f(hover),
        ]
        .concat(),
    );
    v
}
