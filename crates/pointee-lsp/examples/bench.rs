//! The language server benchmark (not a timed test): drives the server
//! in-process over the real protocol on one C file (the generated 10k-line
//! program of the C engine benchmark) and prints hover latencies, the time
//! to fresh diagnostics after edits, and the process's peak memory.
//!
//! ```text
//! cargo bench -p pointee-flow --bench scale -- --emit 10000 > /tmp/gen10k.c
//! cargo run --release -p pointee-lsp --example bench -- /tmp/gen10k.c
//! ```

use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

struct Client {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    read: BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    next: i64,
}

impl Client {
    async fn send(&mut self, v: &Value) {
        let body = serde_json::to_string(v).unwrap();
        let msg = format!("Content-Length: {}\r\n\r\n{}", body.len(), body);
        self.write.write_all(msg.as_bytes()).await.unwrap();
        self.write.flush().await.unwrap();
    }

    async fn recv(&mut self) -> Value {
        let mut len = 0usize;
        loop {
            let mut line = String::new();
            self.read.read_line(&mut line).await.unwrap();
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(v) = line.strip_prefix("Content-Length: ") {
                len = v.parse().unwrap();
            }
        }
        let mut buf = vec![0; len];
        self.read.read_exact(&mut buf).await.unwrap();
        let v: Value = serde_json::from_slice(&buf).unwrap();
        if v.get("method").is_some() && v.get("id").is_some() {
            let id = v["id"].clone();
            self.send(&json!({"jsonrpc": "2.0", "id": id, "result": null}))
                .await;
        }
        v
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let v = self.recv().await;
            if v.get("id") == Some(&json!(id)) && v.get("method").is_none() {
                return v;
            }
        }
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    async fn next_diagnostics(&mut self) {
        loop {
            let v = self.recv().await;
            if v["method"] == "textDocument/publishDiagnostics" {
                return;
            }
        }
    }
}

fn percentile(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn peak_rss_mb() -> (f64, f64) {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let get = |k: &str| {
        s.lines()
            .find(|l| l.starts_with(k))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<f64>().ok())
            .unwrap_or(0.0)
            / 1024.0
    };
    (get("VmRSS:"), get("VmHWM:"))
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: bench FILE.c [HOVERS]");
    let hovers: usize = std::env::args()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let text = std::fs::read_to_string(&path).expect("reading the C file");
    let dir = std::env::temp_dir().join(format!("pointee-lsp-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bench.c");
    std::fs::write(&file, &text).unwrap();
    let uri = format!("file://{}", file.display());

    // Pointer expressions to hover, from the front end's source map.
    let db = pointee_db::Database::default();
    let mut db = db;
    let project = pointee_db::Project::new(&db, Vec::new(), Default::default());
    let f = pointee_db::upsert_file(&mut db, project, "bench.c", text.as_str().into(), None);
    let lowered = pointee_db::lower_c(&db, f).clone();
    let lines = pointee_ir::LineIndex::new(&text);
    let mut exprs: Vec<u32> = lowered
        .source
        .functions
        .iter()
        .flat_map(|fs| fs.exprs.iter().map(|e| e.range.start))
        .collect();
    exprs.sort();
    exprs.dedup();
    let step = (exprs.len() / hovers).max(1);
    let targets: Vec<(usize, usize)> = exprs
        .iter()
        .step_by(step)
        .take(hovers)
        .map(|&o| lines.line_col_utf16(o))
        .collect();
    // A function body to edit: the first `helper_` function.
    let helper = lowered
        .source
        .functions
        .iter()
        .find(|fs| fs.name.starts_with("helper_"))
        .or(lowered.source.functions.first())
        .expect("a function");
    let body_line = lines.line_of(helper.range.start) + 1;
    // A statement that changes what the helper leaves behind (its module's
    // list head), so its callers are analysed again too.
    let module = helper.name.rsplit('_').next().unwrap_or("0").to_string();
    let changes_output = format!("    g{module}_head = 0;\n");
    drop(db);

    // The pieces of an edit, alone: a full parse, the incremental edit and
    // re-parse of a one-line insertion, and lowering the file.
    let t = Instant::now();
    let _ = pointee_db::parse(pointee_db::Lang::C, &text, None);
    let parse_ms = t.elapsed().as_secs_f64() * 1000.0;
    let mut doc = pointee_lsp::docs::Doc::new("bench.c", &text, true);
    let at = lines.offset_utf16(body_line, 0).unwrap();
    let mut reparse = Vec::new();
    for i in 0..20 {
        let t = Instant::now();
        if i % 2 == 0 {
            doc.edit(at, at, "    int bench_unused = 0;\n");
        } else {
            doc.edit(at, at + "    int bench_unused = 0;\n".len() as u32, "");
        }
        doc.reparse();
        reparse.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    // Lowering the whole file from its tree, in a fresh database.
    let t = Instant::now();
    let mut fresh = pointee_db::Database::default();
    let project = pointee_db::Project::new(&fresh, Vec::new(), Default::default());
    let f = pointee_db::upsert_file(
        &mut fresh,
        project,
        "bench.c",
        doc.text.clone(),
        doc.tree.clone(),
    );
    let _ = pointee_db::lower_c(&fresh, f);
    let lower_ms = t.elapsed().as_secs_f64() * 1000.0;
    drop(fresh);
    println!(
        "full parse {parse_ms:.1} ms; one-line edit applied and re-parsed incrementally: p50 {:.2} ms; lowering the file: {lower_ms:.1} ms",
        percentile(&mut reparse, 0.5)
    );

    let (a, b) = tokio::io::duplex(1 << 24);
    let (sr, sw) = tokio::io::split(b);
    tokio::spawn(pointee_lsp::serve(sr, sw));
    let (r, w) = tokio::io::split(a);
    let mut c = Client {
        write: w,
        read: BufReader::new(r),
        next: 1,
    };
    let root = format!("file://{}", dir.display());
    c.request(
        "initialize",
        json!({"processId": null, "rootUri": root, "capabilities": {},
               "initializationOptions": {"debounceMs": 0}}),
    )
    .await;
    c.notify("initialized", json!({})).await;
    let t = Instant::now();
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": uri, "languageId": "c", "version": 1, "text": text}}),
    )
    .await;
    c.next_diagnostics().await;
    let scratch = t.elapsed().as_secs_f64() * 1000.0;
    println!(
        "file: {path} ({} lines), {} pointer expressions",
        text.lines().count(),
        exprs.len()
    );
    println!("open to first diagnostics (from scratch): {scratch:.1} ms");

    let mut times = Vec::new();
    for (i, &(line, col)) in targets.iter().enumerate() {
        let t = Instant::now();
        let r = c
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": col}}),
            )
            .await;
        times.push(t.elapsed().as_secs_f64() * 1000.0);
        if i == 0 {
            assert!(r["result"].is_object(), "hover answered: {r}");
        }
    }
    let (p50, p99) = (percentile(&mut times, 0.5), percentile(&mut times, 0.99));
    println!(
        "hover ({} requests): p50 {p50:.1} ms, p99 {p99:.1} ms",
        times.len()
    );

    // Edits: insert and remove a statement that changes nothing the
    // function's output depends on; one that changes its output; and a
    // comment-only edit.
    let mut version = 2;
    let mut edit = |c: &mut Client, text: &str, remove: bool| {
        let v = version;
        version += 1;
        let change = if remove {
            json!({"range": {"start": {"line": body_line, "character": 0},
                              "end": {"line": body_line + 1, "character": 0}}, "text": ""})
        } else {
            json!({"range": {"start": {"line": body_line, "character": 0},
                              "end": {"line": body_line, "character": 0}}, "text": text})
        };
        let msg = json!({"textDocument": {"uri": uri, "version": v}, "contentChanges": [change]});
        let _ = c;
        msg
    };
    let mut body = Vec::new();
    let mut output = Vec::new();
    let mut comment = Vec::new();
    for i in 0..30 {
        let (insert, list) = match i % 3 {
            0 => ("    int bench_unused = 0;\n", &mut body),
            1 => (changes_output.as_str(), &mut output),
            _ => ("    /* a comment */\n", &mut comment),
        };
        for remove in [false, true] {
            let msg = edit(&mut c, insert, remove);
            let t = Instant::now();
            c.notify("textDocument/didChange", msg).await;
            c.next_diagnostics().await;
            list.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    let b50 = percentile(&mut body, 0.5);
    let o50 = percentile(&mut output, 0.5);
    let c50 = percentile(&mut comment, 0.5);
    println!(
        "edit inside one body to fresh diagnostics: p50 {b50:.1} ms ({:.0}% of from scratch)",
        100.0 * b50 / scratch
    );
    println!(
        "edit that changes the function's output to fresh diagnostics: p50 {o50:.1} ms ({:.0}% of from scratch)",
        100.0 * o50 / scratch
    );
    println!("comment edit to fresh diagnostics: p50 {c50:.1} ms");
    let (rss, hwm) = peak_rss_mb();
    println!("memory (whole process, client included): RSS {rss:.0} MB, peak {hwm:.0} MB");
    let _ = std::fs::remove_dir_all(&dir);
    tokio::time::sleep(Duration::from_millis(10)).await;
    std::process::exit(0);
}
