//! Driving the language server in-process for the LSP targets: a session
//! writes messages to `pointee_lsp::serve` over a pipe, answers the server's
//! own requests, and collects everything it writes; a script turns fuzzer
//! bytes into a sequence of protocol messages.

use crate::rand::Bytes;
use crate::targets::{frame, init_request};
use serde_json::{json, Value};
use std::collections::BTreeSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// What the server wrote in one session.
pub struct Session {
    pub messages: Vec<Value>,
    /// Panics on the session's runtime threads (recorded by the hook).
    pub panics: Vec<String>,
}

impl Session {
    /// No internal error (a panic the server caught), no failed analysis
    /// and no panic on the server's threads.
    pub fn check_no_internal_errors(&self) -> Result<(), String> {
        if let Some(p) = self.panics.first() {
            return Err(format!("the server panicked: {p}"));
        }
        for m in &self.messages {
            if m.pointer("/error/code") == Some(&json!(-32603)) {
                return Err(format!("internal error: {m}"));
            }
            if m["method"] == "window/logMessage" && m.pointer("/params/type") == Some(&json!(1)) {
                return Err(format!("the server logged an error: {m}"));
            }
        }
        Ok(())
    }

    /// Every request id of `ids` got a response.
    pub fn check_answered(&self, ids: &BTreeSet<i64>) -> Result<(), String> {
        let answered: BTreeSet<i64> = self
            .messages
            .iter()
            .filter(|m| m.get("method").is_none())
            .filter_map(|m| m["id"].as_i64())
            .collect();
        let missing: Vec<&i64> = ids.difference(&answered).collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!("requests never answered: {missing:?}"))
        }
    }
}

static SESSIONS: AtomicUsize = AtomicUsize::new(0);

/// Runs the server on `messages` (raw bytes, written in order), then ends
/// its input and waits until it ends or `guard` passes (a hang: an error);
/// returns what it wrote. A `scripted` session (messages from [`script`],
/// which end with `shutdown`) keeps the input open until the answer to
/// `shutdown` arrives, answering the server's own requests meanwhile, then
/// sends `exit`.
pub fn session(messages: Vec<Vec<u8>>, scripted: bool, guard: Duration) -> Result<Session, String> {
    let n = SESSIONS.fetch_add(1, Ordering::Relaxed);
    let thread_name = format!("pointee-fuzz-lsp-{n}");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(64 << 20)
        .thread_name(thread_name.clone())
        .enable_all()
        .build()
        .map_err(|e| format!("runtime: {e}"))?;
    let result = rt.block_on(async move {
        let (client, server) = tokio::io::duplex(1 << 20);
        let (sr, sw) = tokio::io::split(server);
        let served = tokio::spawn(pointee_lsp::serve(sr, sw));
        let (mut cr, mut cw) = tokio::io::split(client);
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<Value>();
        // Reader: every message the server writes; the server's own
        // requests are answered with null through the writer.
        let reader = tokio::spawn(async move {
            let mut buf = Vec::new();
            let mut chunk = vec![0u8; 1 << 16];
            let mut out = Vec::new();
            loop {
                while let Some((msg, used)) = parse_frame(&buf) {
                    buf.drain(..used);
                    match msg {
                        Ok(v) => {
                            let _ = tx.send(v.clone());
                            out.push(v);
                        }
                        Err(e) => return Err(e),
                    }
                }
                match cr.read(&mut chunk).await {
                    Ok(0) | Err(_) => return Ok(out),
                    Ok(k) => buf.extend_from_slice(&chunk[..k]),
                }
            }
        });
        let deadline = tokio::time::Instant::now() + guard;
        for m in &messages {
            if cw.write_all(m).await.is_err() {
                break;
            }
        }
        let _ = cw.flush().await;
        if scripted {
            // Wait for the answer to `shutdown` (the last request), answering
            // the server's requests meanwhile.
            loop {
                let next = tokio::time::timeout_at(deadline, rx.recv()).await;
                let Ok(Some(v)) = next else {
                    return Err("no answer to shutdown before the guard".to_string());
                };
                if v.get("method").is_some() && v.get("id").is_some() {
                    let answer = json!({"jsonrpc": "2.0", "id": v["id"], "result": null});
                    let _ = cw.write_all(&frame(&answer)).await;
                } else if v.get("method").is_none() && v["id"] == json!(SHUTDOWN_ID) {
                    break;
                }
            }
            let _ = cw
                .write_all(&frame(&json!({"jsonrpc": "2.0", "method": "exit"})))
                .await;
        }
        let _ = cw.shutdown().await;
        drop(cw);
        match tokio::time::timeout_at(deadline, served).await {
            Err(_) => return Err("the server did not end before the guard".to_string()),
            Ok(Err(e)) if e.is_panic() => return Err("the server's task panicked".to_string()),
            Ok(_) => {}
        }
        match tokio::time::timeout_at(deadline, reader).await {
            Ok(Ok(r)) => r,
            _ => Err("the output did not end".to_string()),
        }
    });
    rt.shutdown_timeout(Duration::from_millis(200));
    let messages = result?;
    let panics = crate::panics::take(&thread_name);
    Ok(Session { messages, panics })
}

/// One framed message at the start of `buf` and its length; `None` when
/// more bytes are needed.
fn parse_frame(buf: &[u8]) -> Option<(Result<Value, String>, usize)> {
    let end = buf.windows(4).position(|w| w == b"\r\n\r\n")?;
    let headers = String::from_utf8_lossy(&buf[..end]);
    let len = headers.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| v.trim().parse::<usize>().ok())?
    });
    let Some(len) = len else {
        return Some((
            Err(format!("server wrote a header without a length: {headers}")),
            end + 4,
        ));
    };
    if buf.len() < end + 4 + len {
        return None;
    }
    let body = &buf[end + 4..end + 4 + len];
    let v = serde_json::from_slice(body).map_err(|e| {
        format!(
            "server wrote bad JSON ({e}): {}",
            String::from_utf8_lossy(body)
        )
    });
    Some((v, end + 4 + len))
}

/// The id of the script's closing `shutdown`.
pub const SHUTDOWN_ID: i64 = 1_000_000;

const SNIPPETS: &[&str] = &[
    "",
    "\n",
    "*",
    "&",
    "p",
    "int *p = &x;\n",
    "}",
    "{",
    "(",
    ")",
    ";",
    "/*",
    "*/",
    "\"",
    "#define F(x) (x)\n",
    "#include \"a.h\"\n",
    "#if 1\n",
    "#endif\n",
    "é",
    "😀",
    "\r\n",
    "q = p->n;",
    "f(&g);",
    "class A { A f; }",
    "return null;",
    "new A();",
    "\\\n",
];

/// Positions: small ones, ones past the ends, and extremes.
fn position(u: &mut Bytes) -> Value {
    let pick = |u: &mut Bytes| -> u64 {
        match u.below(6) {
            0..=2 => u.below(12) as u64,
            3 => u.below(200) as u64,
            4 => u32::MAX as u64,
            _ => (u32::MAX / 2) as u64 + 1,
        }
    };
    json!({"line": pick(u), "character": pick(u)})
}

fn range(u: &mut Bytes) -> Value {
    json!({"start": position(u), "end": position(u)})
}

/// A script from fuzzer bytes: the messages and the ids of the requests
/// that must be answered.
pub fn script(data: &[u8]) -> (Vec<Vec<u8>>, BTreeSet<i64>) {
    let mut u = Bytes::new(data);
    let java = u.ratio(1, 4);
    let (uri, lang) = if java {
        ("file:///fuzz/Main.java", "java")
    } else {
        ("file:///fuzz/main.c", "c")
    };
    let text = if !java && u.ratio(2, 3) {
        let n = u.below(256);
        let bytes = u.bytes(n);
        crate::gen::c_program(bytes)
    } else {
        let n = u.below(512);
        String::from_utf8_lossy(u.bytes(n)).into_owned()
    };
    let mut out = vec![
        frame(&init_request()),
        frame(&json!({"jsonrpc": "2.0", "method": "initialized", "params": {}})),
        frame(
            &json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
            "textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}}}),
        ),
    ];
    let mut ids = BTreeSet::from([0, SHUTDOWN_ID]);
    let mut version = 1;
    let next_id = std::cell::Cell::new(1i64);
    let doc = json!({"uri": uri});
    let request = |out: &mut Vec<Vec<u8>>, ids: &mut BTreeSet<i64>, method: &str, params: Value| {
        let id = next_id.get();
        ids.insert(id);
        out.push(frame(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        ));
        next_id.set(id + 1);
    };
    let notify = |out: &mut Vec<Vec<u8>>, method: &str, params: Value| {
        out.push(frame(
            &json!({"jsonrpc": "2.0", "method": method, "params": params}),
        ));
    };
    for _ in 0..40 {
        if u.is_empty() {
            break;
        }
        let pos = |u: &mut Bytes| json!({"textDocument": doc, "position": position(u)});
        match u.below(18) {
            0..=3 => {
                version += 1;
                let text = if u.ratio(1, 3) {
                    String::from_utf8_lossy({
                        let k = u.below(24);
                        u.bytes(k)
                    })
                    .into_owned()
                } else {
                    SNIPPETS[u.below(SNIPPETS.len())].to_string()
                };
                notify(
                    &mut out,
                    "textDocument/didChange",
                    json!({
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"range": range(&mut u), "text": text}]}),
                );
            }
            4 => {
                version += 1;
                let n = u.below(128);
                let text = String::from_utf8_lossy(u.bytes(n)).into_owned();
                notify(
                    &mut out,
                    "textDocument/didChange",
                    json!({
                    "textDocument": {"uri": uri, "version": version},
                    "contentChanges": [{"text": text}]}),
                );
            }
            5 | 6 => {
                let p = pos(&mut u);
                request(&mut out, &mut ids, "textDocument/hover", p);
            }
            7 => {
                let m = [
                    "textDocument/definition",
                    "textDocument/implementation",
                    "textDocument/declaration",
                ][u.below(3)];
                let p = pos(&mut u);
                request(&mut out, &mut ids, m, p);
            }
            8 => {
                let p = pos(&mut u);
                request(&mut out, &mut ids, "textDocument/documentHighlight", p);
            }
            9 => {
                let r = range(&mut u);
                request(
                    &mut out,
                    &mut ids,
                    "textDocument/inlayHint",
                    json!({"textDocument": doc, "range": r}),
                );
            }
            10 => {
                let p = pos(&mut u);
                request(&mut out, &mut ids, "textDocument/prepareCallHierarchy", p);
            }
            11 => {
                let m = ["callHierarchy/incomingCalls", "callHierarchy/outgoingCalls"][u.below(2)];
                let name = ["main", "f0", "op0", "", "A.m"][u.below(5)];
                let (r, s) = (range(&mut u), range(&mut u));
                request(
                    &mut out,
                    &mut ids,
                    m,
                    json!({"item": {
                    "name": name, "kind": 12, "uri": uri, "range": r, "selectionRange": s}}),
                );
            }
            12 => {
                // Cancel an earlier request (or one that never existed).
                let id = u.below(next_id.get() as usize + 2);
                notify(&mut out, "$/cancelRequest", json!({"id": id}));
            }
            13 => {
                let bound = [
                    json!(0),
                    json!(1),
                    json!(4),
                    json!(u32::MAX),
                    json!(-1),
                    json!("x"),
                ][u.below(6)]
                .clone();
                let cs = ["ci", "2-obj", "1-call", "bogus", ""][u.below(5)];
                notify(
                    &mut out,
                    "workspace/didChangeConfiguration",
                    json!({"settings": {"pointee": {
                    "c": {"contextBound": bound}, "java": {"contextSensitivity": cs},
                    "inlayHints": {"enable": true}}}}),
                );
            }
            14 => {
                notify(
                    &mut out,
                    "textDocument/didClose",
                    json!({"textDocument": doc}),
                );
                if u.ratio(1, 2) {
                    version += 1;
                    notify(
                        &mut out,
                        "textDocument/didOpen",
                        json!({"textDocument": {
                        "uri": uri, "languageId": lang, "version": version, "text": "int *p;\n"}}),
                    );
                }
            }
            15 => {
                let other = [
                    "file:///fuzz/none.c",
                    "untitled:Untitled-1",
                    "file:///",
                    "file:///fuzz/x.java",
                ][u.below(4)];
                let p = position(&mut u);
                request(
                    &mut out,
                    &mut ids,
                    "textDocument/hover",
                    json!({
                    "textDocument": {"uri": other}, "position": p}),
                );
            }
            16 => {
                request(&mut out, &mut ids, "pointee/noSuchMethod", json!({}));
            }
            _ => {
                // A request whose parameters have the wrong shape.
                let m = [
                    "textDocument/hover",
                    "textDocument/definition",
                    "callHierarchy/incomingCalls",
                ][u.below(3)];
                request(
                    &mut out,
                    &mut ids,
                    m,
                    json!({"textDocument": 3, "position": "here"}),
                );
            }
        }
    }
    out.push(frame(
        &json!({"jsonrpc": "2.0", "id": SHUTDOWN_ID, "method": "shutdown"}),
    ));
    (out, ids)
}
