//! In-process tests of what only the protocol shows: the server runs on a
//! duplex pipe and a small JSON-RPC client drives it (document sync and
//! UTF-16 conversion, each request's conversion of pointee-ide's answers,
//! configuration, workspace files, debouncing, cancellation, progress,
//! malformed input). What the answers are is tested in pointee-ide, where
//! they are computed. Fixtures mark cursors with `$name$` (the marker is
//! removed; its position is the cursor).

mod actions;

use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};

/// Strips `$name$` markers, returning the text and the 0-based (line,
/// UTF-16 column) of each.
fn markers(src: &str) -> (String, HashMap<String, (u32, u32)>) {
    let mut text = String::new();
    let mut at = HashMap::new();
    let mut rest = src;
    while let Some(i) = rest.find('$') {
        text.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let j = after.find('$').expect("closing $");
        let line = text.matches('\n').count() as u32;
        let col = text[text.rfind('\n').map(|k| k + 1).unwrap_or(0)..]
            .encode_utf16()
            .count() as u32;
        at.insert(after[..j].to_string(), (line, col));
        rest = &after[j + 1..];
    }
    text.push_str(rest);
    (text, at)
}

struct Client {
    write: tokio::io::WriteHalf<tokio::io::DuplexStream>,
    read: BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>,
    next: i64,
    notes: Vec<Value>,
    dir: std::path::PathBuf,
    server_capabilities: Value,
    /// The server's requests to the client, as they came.
    requests: Vec<Value>,
    /// What the client answers a server request by method (else null).
    replies: HashMap<String, Value>,
}

impl Client {
    async fn start(files: &[(&str, &str)], init: Value) -> Client {
        Client::start_with(files, init, json!({"window": {"workDoneProgress": true}})).await
    }

    async fn start_with(files: &[(&str, &str)], init: Value, capabilities: Value) -> Client {
        let (a, b) = tokio::io::duplex(1 << 22);
        let (sr, sw) = tokio::io::split(b);
        tokio::spawn(crate::serve(sr, sw));
        let (r, w) = tokio::io::split(a);
        let dir = std::env::temp_dir().join(format!(
            "pointee-lsp-test-{}-{}",
            std::process::id(),
            rand_suffix()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        for (name, text) in files {
            std::fs::write(dir.join(name), text).unwrap();
        }
        let mut c = Client {
            write: w,
            read: BufReader::new(r),
            next: 1,
            notes: Vec::new(),
            dir,
            server_capabilities: Value::Null,
            requests: Vec::new(),
            replies: HashMap::new(),
        };
        let root = c.uri("");
        let r = c
            .request(
                "initialize",
                json!({
                    "processId": null,
                    "rootUri": root.trim_end_matches('/'),
                    "workspaceFolders": [{"uri": root.trim_end_matches('/'), "name": "ws"}],
                    "capabilities": capabilities,
                    "initializationOptions": init,
                }),
            )
            .await;
        assert!(r.get("result").is_some(), "{r}");
        c.server_capabilities = r["result"]["capabilities"].clone();
        c.notify("initialized", json!({})).await;
        c
    }

    fn uri(&self, name: &str) -> String {
        format!("file://{}/{}", self.dir.display(), name)
    }

    async fn send(&mut self, v: &Value) {
        let body = serde_json::to_string(v).unwrap();
        self.send_raw(&body).await;
    }

    async fn send_raw(&mut self, body: &str) {
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
        serde_json::from_slice(&buf).unwrap()
    }

    /// Reads one message; answers the server's own requests (with
    /// `replies`, else null).
    async fn pump(&mut self) -> Value {
        let v = self.recv().await;
        if let (Some(method), Some(id)) = (v["method"].as_str(), v.get("id")) {
            let result = self.replies.get(method).cloned().unwrap_or(Value::Null);
            self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}))
                .await;
            self.requests.push(v.clone());
        } else if v.get("method").is_some() {
            self.notes.push(v.clone());
        }
        v
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            let v = tokio::time::timeout_at(deadline, self.pump())
                .await
                .expect("a response in time");
            if v.get("id") == Some(&json!(id)) && v.get("method").is_none() {
                return v;
            }
        }
    }

    async fn result(&mut self, method: &str, params: Value) -> Value {
        let r = self.request(method, params).await;
        assert!(r.get("error").is_none(), "{method}: {r}");
        r["result"].clone()
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    async fn open(&mut self, name: &str, text: &str) {
        let uri = self.uri(name);
        let lang = if name.ends_with(".java") { "java" } else { "c" };
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": lang, "version": 1, "text": text}}),
        )
        .await;
    }

    async fn change(&mut self, name: &str, version: i64, changes: Value) {
        let uri = self.uri(name);
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        )
        .await;
    }

    /// The next diagnostics published for `name` that satisfy `pred`.
    async fn diagnostics(&mut self, name: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
        let uri = self.uri(name);
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        let mut seen = 0;
        loop {
            for n in self.notes[seen..].iter() {
                if n["method"] == "textDocument/publishDiagnostics"
                    && n["params"]["uri"] == json!(uri)
                {
                    let d = n["params"]["diagnostics"]
                        .as_array()
                        .cloned()
                        .unwrap_or_default();
                    if pred(&d) {
                        return d;
                    }
                }
            }
            seen = self.notes.len();
            tokio::time::timeout_at(deadline, self.pump())
                .await
                .expect("diagnostics in time");
        }
    }

    /// The first request of the server with `method` (waiting for it).
    async fn server_request(&mut self, method: &str) -> Value {
        self.wait_for(|c| c.requests.iter().find(|r| r["method"] == method).cloned())
            .await
    }

    /// The first notification of the server with `method` (waiting for
    /// it).
    async fn notification(&mut self, method: &str) -> Value {
        self.wait_for(|c| c.notes.iter().find(|n| n["method"] == method).cloned())
            .await
    }

    /// Reads messages until `found` finds what it looks for.
    async fn wait_for(&mut self, found: impl Fn(&Client) -> Option<Value>) -> Value {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        loop {
            if let Some(v) = found(self) {
                return v;
            }
            tokio::time::timeout_at(deadline, self.pump())
                .await
                .expect("the server's message in time");
        }
    }

    fn pos(&self, name: &str, (line, character): (u32, u32)) -> Value {
        json!({"textDocument": {"uri": self.uri(name)}, "position": {"line": line, "character": character}})
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn rand_suffix() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    N.fetch_add(1, Ordering::Relaxed)
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_nanos() as u64
}

const OPS: &str = r#"#include <stdlib.h>
void MUSTALIAS(void *, void *);
void NOALIAS(void *, void *);
struct file { int fd; };
struct ops { int (*open)(struct file *); };
struct device { struct ops *ops; struct file *file; };
int $disk_open$disk_open(struct file *f) { f->fd = 3; return 0; }
int $tty_open$tty_open(struct file *f) { f->fd = 1; return 0; }
struct ops disk_ops = { disk_open };
struct ops tty_ops = { tty_open };
struct file console; int flag;
int $start$start(struct device *$d_decl$d) {
    return $d$d->ops->$open$open(d->file);
}
int main(void) {
    struct device disk = { &disk_ops, &console };
    struct device tty = { &tty_ops, &console };
    start(&disk);
    start(&tty);
    int (*fp)(struct file *) = disk_open;
    if (flag) fp = tty_open;
    $fp$fp(&console);
    (*$fp2$fp)(&console);
    NOALIAS(&disk, &tty);
    MUSTALIAS(disk.file, tty.$check$file);
    return 0;
}
"#;

/// `goto.indirectCallsOnly`: definition answers only on indirect calls
/// (every possible callee) and declaration answers nothing in that
/// language, so that an editor also running clangd gets each answer once;
/// the other language and a later change back behave as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn indirect_calls_only_leaves_the_rest_to_the_languages_own_server() {
    let (text, m) = markers(OPS);
    let mut c = Client::start(&[], json!({"goto": {"indirectCallsOnly": {"c": true}}})).await;
    c.open("ops.c", &text).await;
    let callees = |d: &Value| {
        let mut lines: Vec<u64> = d.as_array().unwrap().iter().map(line_of).collect();
        lines.sort();
        lines
    };
    let both = vec![m["disk_open"].0 as u64, m["tty_open"].0 as u64];
    for at in ["open", "fp", "fp2"] {
        let d = c
            .result("textDocument/definition", c.pos("ops.c", m[at]))
            .await;
        assert_eq!(callees(&d), both, "{at}: {d}");
    }
    for at in ["d", "d_decl", "check"] {
        let d = c
            .result("textDocument/definition", c.pos("ops.c", m[at]))
            .await;
        assert!(d.is_null() || d == json!([]), "{at}: {d}");
    }
    let d = c
        .result("textDocument/declaration", c.pos("ops.c", m["fp"]))
        .await;
    assert_eq!(d, Value::Null);
    // Off again (both languages at once): definition elsewhere answers.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pointee": {"goto": {"indirectCallsOnly": false}}}}),
    )
    .await;
    let d = c
        .result("textDocument/definition", c.pos("ops.c", m["d"]))
        .await;
    assert_eq!(
        d[0]["range"]["start"],
        json!({"line": m["d_decl"].0, "character": m["d_decl"].1}),
        "{d}"
    );
}

fn line_of(v: &Value) -> u64 {
    v["range"]["start"]["line"].as_u64().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hover_definition_hierarchy_and_diagnostics_on_c() {
    let (text, m) = markers(OPS);
    let mut c = Client::start(&[], json!({})).await;
    c.open("ops.c", &text).await;

    // Hover on `d`: what it points to, and the breakdown per calling context.
    let h = c.result("textDocument/hover", c.pos("ops.c", m["d"])).await;
    let md = h["contents"]["value"].as_str().unwrap().to_string();
    assert!(md.contains("definitely: `1_d`"), "{md}");
    // The bundled example: contexts disagree (a heap device from `make`).
    let example = include_str!("../../../examples/ops.c");
    let mut e = Client::start(&[], json!({})).await;
    e.open("example.c", example).await;
    let h = e
        .result("textDocument/hover", e.pos("example.c", (37, 11)))
        .await;
    let md = h["contents"]["value"].as_str().unwrap().to_string();
    assert!(md.contains("possibly: "), "{md}");
    assert!(
        md.contains("Per calling context") && md.contains("main > start@48:9"),
        "{md}"
    );
    assert!(
        md.contains("[`heap@28<main@44:28>`](file://") && md.contains("example.c#L28,24"),
        "{md}"
    );
    drop(e);
    // On a function pointer: the functions it may call.
    let h = c
        .result("textDocument/hover", c.pos("ops.c", m["fp"]))
        .await;
    let md = h["contents"]["value"].as_str().unwrap().to_string();
    assert!(
        md.contains("May call") && md.contains("disk_open") && md.contains("tty_open"),
        "{md}"
    );

    // Go to definition on the callee of an indirect call: every possible callee.
    let d = c
        .result("textDocument/definition", c.pos("ops.c", m["open"]))
        .await;
    let mut lines: Vec<u64> = d.as_array().unwrap().iter().map(line_of).collect();
    lines.sort();
    assert_eq!(
        lines,
        vec![m["disk_open"].0 as u64, m["tty_open"].0 as u64],
        "{d}"
    );
    let d = c
        .result("textDocument/implementation", c.pos("ops.c", m["fp"]))
        .await;
    assert_eq!(d.as_array().unwrap().len(), 2, "{d}");
    let d = c
        .result("textDocument/definition", c.pos("ops.c", m["fp2"]))
        .await;
    assert_eq!(d.as_array().unwrap().len(), 2, "(*fp)(x): {d}");

    // Declaration there, and definition elsewhere, reach the declaration.
    let d = c
        .result("textDocument/declaration", c.pos("ops.c", m["fp"]))
        .await;
    assert_eq!(line_of(&d[0]), m["fp"].0 as u64 - 2, "{d}");
    let d = c
        .result("textDocument/definition", c.pos("ops.c", m["d"]))
        .await;
    assert_eq!(
        d[0]["range"]["start"],
        json!({"line": m["d_decl"].0, "character": m["d_decl"].1}),
        "{d}"
    );

    // Call hierarchy, with the edges resolved through function pointers.
    let items = c
        .result(
            "textDocument/prepareCallHierarchy",
            c.pos("ops.c", m["start"]),
        )
        .await;
    assert_eq!(items[0]["name"], "start", "{items}");
    let inc = c
        .result("callHierarchy/incomingCalls", json!({"item": items[0]}))
        .await;
    assert_eq!(inc[0]["from"]["name"], "main", "{inc}");
    assert_eq!(inc[0]["fromRanges"].as_array().unwrap().len(), 2, "{inc}");
    let out = c
        .result("callHierarchy/outgoingCalls", json!({"item": items[0]}))
        .await;
    let mut names: Vec<&str> = out
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["to"]["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, vec!["disk_open", "tty_open"], "{out}");
    let items = c
        .result(
            "textDocument/prepareCallHierarchy",
            c.pos("ops.c", m["disk_open"]),
        )
        .await;
    let inc = c
        .result("callHierarchy/incomingCalls", json!({"item": items[0]}))
        .await;
    let mut callers: Vec<&str> = inc
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["from"]["name"].as_str().unwrap())
        .collect();
    callers.sort();
    assert_eq!(callers, vec!["main", "start"], "{inc}");

    // Diagnostics: both checks hold (hints).
    let d = c
        .diagnostics("ops.c", |d| {
            d.iter().filter(|x| x["code"] == "alias-check").count() == 2
        })
        .await;
    assert!(d.iter().all(|x| x["severity"] != 2), "{d:?}");

    // An incremental edit makes the MUSTALIAS a NOALIAS that fails.
    let (l, ch) = m["check"];
    let line_text = text.lines().nth(l as usize).unwrap();
    let start = line_text.find("MUSTALIAS").unwrap() as u32;
    c.change(
        "ops.c",
        2,
        json!([{"range": {"start": {"line": l, "character": start}, "end": {"line": l, "character": start + 9}}, "text": "NOALIAS"}]),
    )
    .await;
    let _ = ch;
    let d = c
        .diagnostics("ops.c", |d| {
            d.iter()
                .any(|x| x["severity"] == 2 && x["code"] == "alias-check")
        })
        .await;
    let warn = d.iter().find(|x| x["severity"] == 2).unwrap();
    assert_eq!(warn["range"]["start"]["line"], json!(l), "{warn}");
    assert!(
        warn["message"].as_str().unwrap().contains("NOALIAS"),
        "{warn}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn incremental_edits_keep_utf16_positions() {
    let src = "int g;\nint main(void) {\n    int *p = &g;\n    return *p;\n}\n";
    let mut c = Client::start(&[], json!({})).await;
    c.open("u.c", src).await;
    // Insert a comment with characters outside the BMP before `p`, in two
    // changes of one notification, then delete part of it.
    c.change(
        "u.c",
        2,
        json!([
            {"range": {"start": {"line": 2, "character": 4}, "end": {"line": 2, "character": 4}}, "text": "/* 😀é */ "},
            {"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "// 𝄞 header\n"},
        ]),
    )
    .await;
    // Line 3 is now `    /* 😀é */ int *p = &g;`: 😀 is 2 UTF-16 units.
    let col = "    /* 😀é */ int *".encode_utf16().count() as u32;
    let h = c.result("textDocument/hover", c.pos("u.c", (3, col))).await;
    let md = h["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(md.contains("`g`") || md.contains("[`g`]"), "{h}");
    assert_eq!(
        h["range"]["start"],
        json!({"line": 3, "character": col}),
        "{h}"
    );
    // Delete the comment again (range in UTF-16 units).
    let end = "    /* 😀é */ ".encode_utf16().count() as u32;
    c.change(
        "u.c",
        3,
        json!([{"range": {"start": {"line": 3, "character": 4}, "end": {"line": 3, "character": end}}, "text": ""}]),
    )
    .await;
    let h = c.result("textDocument/hover", c.pos("u.c", (3, 9))).await;
    assert_eq!(
        h["range"]["start"],
        json!({"line": 3, "character": 9}),
        "{h}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_protocol_input_is_answered_or_ignored() {
    let mut c = Client::start(&[], json!({})).await;
    c.open("b.c", "int g;\nint main(void) { int *p = &g; return 0; }\n")
        .await;
    // Unknown method: MethodNotFound, and the server goes on.
    let r = c.request("pointee/noSuchMethod", json!({})).await;
    assert_eq!(r["error"]["code"], -32601, "{r}");
    // Unknown notification: ignored.
    c.notify("pointee/noSuchNotification", json!({"x": 1}))
        .await;
    // Positions past the end of a line or of the file.
    let r = c
        .request("textDocument/hover", c.pos("b.c", (1, 500)))
        .await;
    assert!(r.get("error").is_none(), "{r}");
    let r = c.request("textDocument/hover", c.pos("b.c", (90, 3))).await;
    assert!(r.get("error").is_none(), "{r}");
    let r = c
        .request("textDocument/definition", c.pos("b.c", (90, 3)))
        .await;
    assert!(r.get("error").is_none(), "{r}");
    // A request for a file never opened: null.
    let r = c
        .request("textDocument/hover", c.pos("nope.c", (0, 0)))
        .await;
    assert_eq!(r["result"], Value::Null, "{r}");
    // A change to an unopened file, and a change past the end: ignored/clamped.
    c.change("nope.c", 2, json!([{"text": "int x;"}])).await;
    c.change(
        "b.c",
        2,
        json!([{"range": {"start": {"line": 40, "character": 0}, "end": {"line": 50, "character": 9}}, "text": "\n"}]),
    )
    .await;
    // Malformed JSON, and a message that is not JSON-RPC.
    c.send_raw("{this is not json").await;
    c.send_raw("{\"jsonrpc\": \"2.0\", \"id\": 77}").await;
    // Params of the wrong shape.
    let r = c
        .request("textDocument/hover", json!({"textDocument": 3}))
        .await;
    assert!(r.get("error").is_some(), "{r}");
    // Still serving.
    let h = c.result("textDocument/hover", c.pos("b.c", (1, 22))).await;
    assert!(
        h["contents"]["value"].as_str().unwrap().contains('g'),
        "{h}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn highlights_and_inlay_hints() {
    let src = "\
int g, h;
int main(void) {
    int *p = &g;
    int *$q$q = p;
    int *r = &h;
    *$p$p = 1;
    *q = 2;
    *r = 3;
    return 0;
}
";
    let (text, m) = markers(src);
    let mut c = Client::start(&[], json!({})).await;
    c.open("h.c", &text).await;
    let hs = c
        .result("textDocument/documentHighlight", c.pos("h.c", m["p"]))
        .await;
    let hs = hs.as_array().unwrap();
    let lines: Vec<u64> = hs.iter().map(line_of).collect();
    assert!(lines.contains(&5) && lines.contains(&6), "{hs:?}");
    assert!(!lines.contains(&7), "r points elsewhere: {hs:?}");
    // References: locations in the answer's order (must-aliases first),
    // each place once.
    let refs = c
        .result(
            "textDocument/references",
            json!({
                "textDocument": {"uri": c.uri("h.c")},
                "position": c.pos("h.c", m["p"])["position"],
                "context": {"includeDeclaration": true}
            }),
        )
        .await;
    let at: Vec<(u64, u64, &str)> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            let s = &l["range"]["start"];
            let uri = l["uri"].as_str().unwrap();
            (
                s["line"].as_u64().unwrap(),
                s["character"].as_u64().unwrap(),
                uri,
            )
        })
        .collect();
    let uri = c.uri("h.c");
    let uri = uri.as_str();
    assert_eq!(
        at,
        [
            (2, 9, uri),
            (3, 9, uri),
            (3, 13, uri),
            (5, 5, uri),
            (6, 5, uri)
        ]
    );
    // Inlay hints are off by default.
    let range = json!({"start": {"line": 0, "character": 0}, "end": {"line": 9, "character": 0}});
    let r = c
        .result(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": c.uri("h.c")}, "range": range}),
        )
        .await;
    assert_eq!(r, Value::Null);
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pointee": {"inlayHints": {"enable": true}}}}),
    )
    .await;
    let r = c
        .result(
            "textDocument/inlayHint",
            json!({"textDocument": {"uri": c.uri("h.c")}, "range": range}),
        )
        .await;
    let labels: Vec<&str> = r
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["label"].as_str().unwrap())
        .collect();
    assert!(labels.iter().any(|l| l.contains('g')), "{labels:?}");
    let _ = m["q"];
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn workspace_files_on_disk_and_watched_changes() {
    let lib = "int *id(int *p) { return p; }\n";
    let main = "int *id(int *p);\nint g;\nint main(void) { int *q = id(&g); return 0; }\n";
    let mut c = Client::start(&[("lib.c", lib), ("main.c", main)], json!({})).await;
    // Only main.c is opened; lib.c comes from the folder scan.
    c.open("main.c", main).await;
    let col = "int main(void) { int *".len() as u32;
    let h = c
        .result("textDocument/hover", c.pos("main.c", (2, col)))
        .await;
    let md = h["contents"]["value"].as_str().unwrap().to_string();
    assert!(md.contains("`g`") || md.contains("[`g`]"), "{md}");
    let d = c
        .result("textDocument/definition", c.pos("main.c", (2, col + 4)))
        .await;
    assert!(d[0]["uri"].as_str().unwrap().ends_with("lib.c"), "{d}");
    // lib.c changes on disk: id now returns NULL.
    std::fs::write(c.dir.join("lib.c"), "int *id(int *p) { return 0; }\n").unwrap();
    let uri = c.uri("lib.c");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    )
    .await;
    let h = c
        .result("textDocument/hover", c.pos("main.c", (2, col)))
        .await;
    let md = h["contents"]["value"].as_str().unwrap().to_string();
    assert!(md.contains("null") || md.contains("NULL"), "{md}");
}

/// Go to definition on a Java field access goes to the field of the
/// operand's static class (or the nearest supertype declaring it), not to
/// the first field of that name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn java_field_definition_by_static_type() {
    let src = "\
class A { Object $a_f$f; Object $a_g$g; }
class B extends A { Object $b_f$f; }
public class Main {
    public static void main(String[] args) {
        B b = new B();
        A a = b;
        Object x = b.$use_bf$f;
        Object y = a.$use_af$f;
        Object z = b.$use_bg$g;
    }
}
";
    let (text, m) = markers(src);
    let mut c = Client::start(&[], json!({})).await;
    c.open("Main.java", &text).await;
    for (usage, decl) in [("use_bf", "b_f"), ("use_af", "a_f"), ("use_bg", "a_g")] {
        let d = c
            .result("textDocument/definition", c.pos("Main.java", m[usage]))
            .await;
        let at = |d: &Value| d[0]["range"]["start"].clone();
        assert_eq!(
            at(&d),
            json!({"line": m[decl].0, "character": m[decl].1}),
            "{usage}: {d}"
        );
        assert_eq!(d.as_array().map(Vec::len), Some(1), "{usage}: {d}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_folder_is_the_program_its_compile_commands_describe_and_reloads_with_it() {
    let header =
        "#ifndef SHARED_H\n#define SHARED_H\nextern int *slot;\nvoid fill(void);\n#endif\n";
    let a = "#include \"shared.h\"\nint *slot;\nint main(void) {\n    fill();\n    int *seen = slot;\n    return seen != 0;\n}\n";
    let b = "#include \"shared.h\"\nint x, y;\nvoid fill(void) {\n#ifdef PICK_Y\n    slot = &y;\n#else\n    slot = &x;\n#endif\n}\n";
    // Another program of the folder: a unit too, it would clash with a.c.
    let other = "int main(void) { return 0; }\n";
    let mut c = Client::start(
        &[
            ("shared.h", header),
            ("a.c", a),
            ("b.c", b),
            ("other.c", other),
        ],
        json!({"debounceMs": 0}),
    )
    .await;
    c.open("a.c", a).await;
    let at = c.pos("a.c", (4, "    int *se".len() as u32));
    let hover = |h: &Value| h["contents"]["value"].as_str().unwrap_or("").to_string();
    // The database names a.c and b.c, b.c with -DPICK_Y: one program.
    let write_db = |c: &Client, flag: &str| {
        let dir = c.dir.display().to_string();
        let entry = |f: &str, extra: &str| json!({"directory": dir, "file": f, "arguments": format!("cc {extra} -c {f}").split_whitespace().collect::<Vec<_>>()});
        let db = json!([entry("a.c", ""), entry("b.c", flag)]);
        std::fs::write(c.dir.join("compile_commands.json"), db.to_string()).unwrap();
    };
    write_db(&c, "-DPICK_Y");
    let uri = c.uri("compile_commands.json");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 1}]}),
    )
    .await;
    let md = hover(&c.result("textDocument/hover", at.clone()).await);
    assert!(md.contains("`y`") && !md.contains("`x`"), "{md}");
    // The database changes: b.c is compiled without -DPICK_Y.
    write_db(&c, "");
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 2}]}),
    )
    .await;
    let md = hover(&c.result("textDocument/hover", at.clone()).await);
    assert!(md.contains("`x`") && !md.contains("`y`"), "{md}");
    // Without it, every .c file is a unit: two mains do not link, so a.c
    // is analysed alone and `fill` stores nowhere pointee can see.
    std::fs::remove_file(c.dir.join("compile_commands.json")).unwrap();
    c.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": uri, "type": 3}]}),
    )
    .await;
    let md = hover(&c.result("textDocument/hover", at).await);
    assert!(!md.contains("`x`") && !md.contains("`y`"), "{md}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn java_hover_and_virtual_call() {
    let src = "\
class A { Object m() { return new Object(); } }
class B extends A { Object m() { return new Object(); } }
public class Main {
    public static void main(String[] args) {
        A $a$a = new A();
        if (args.length > 0) a = new B();
        Object o = a.$m$m();
    }
}
";
    let (text, m) = markers(src);
    let mut c = Client::start(&[], json!({"java": {"contextSensitivity": "1-obj"}})).await;
    c.open("Main.java", &text).await;
    let h = c
        .result("textDocument/hover", c.pos("Main.java", m["a"]))
        .await;
    let md = h["contents"]["value"].as_str().unwrap().to_string();
    assert!(
        md.contains("new A") || md.contains("A@") || md.contains('A'),
        "{md}"
    );
    let d = c
        .result("textDocument/definition", c.pos("Main.java", m["m"]))
        .await;
    assert_eq!(d.as_array().unwrap().len(), 2, "A.m and B.m: {d}");
    // Call hierarchy through virtual dispatch.
    let items = c
        .result(
            "textDocument/prepareCallHierarchy",
            c.pos("Main.java", m["m"]),
        )
        .await;
    let mut names: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, vec!["A.m()", "B.m()"], "{items}");
    let inc = c
        .result("callHierarchy/incomingCalls", json!({"item": items[1]}))
        .await;
    assert_eq!(inc[0]["from"]["name"], "Main.main(String[])", "{inc}");
    let main_item = c
        .result("callHierarchy/incomingCalls", json!({"item": items[0]}))
        .await[0]["from"]
        .clone();
    let out = c
        .result("callHierarchy/outgoingCalls", json!({"item": main_item}))
        .await;
    let mut callees: Vec<&str> = out
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["to"]["name"].as_str().unwrap())
        .collect();
    callees.sort();
    assert!(
        callees.contains(&"A.m()") && callees.contains(&"B.m()"),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_request_is_an_error_and_the_server_goes_on() {
    let (service, _socket) = tower_lsp_server::LspService::new(crate::Backend::new);
    let b = service.inner();
    let r: tower_lsp_server::jsonrpc::Result<()> = b.run(|_| panic!("boom")).await;
    let e = r.unwrap_err();
    assert!(e.message.contains("boom"), "{e:?}");
    let ok = b.run(|_| Ok(42)).await.unwrap();
    assert_eq!(ok, 42);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_analysis_reports_progress() {
    // Every analysis counts as long here.
    let mut c = Client::start(&[], json!({"debounceMs": 0, "progressAfterMs": 0})).await;
    c.open("p.c", "int g;\nint main(void) { int *p = &g; return 0; }\n")
        .await;
    c.diagnostics("p.c", |_| true).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let kinds: Vec<String> = c
            .notes
            .iter()
            .filter(|n| n["method"] == "$/progress")
            .map(|n| {
                n["params"]["value"]["kind"]
                    .as_str()
                    .unwrap_or("")
                    .to_string()
            })
            .collect();
        if kinds.contains(&"begin".to_string()) && kinds.contains(&"end".to_string()) {
            break;
        }
        tokio::time::timeout_at(deadline, c.pump())
            .await
            .expect("progress begin and end");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_asks_gets_pointee_status_after_each_analysis() {
    let caps = json!({"experimental": {"pointeeStatus": true}});
    let mut c = Client::start_with(&[], json!({"debounceMs": 0}), caps).await;
    assert_eq!(c.server_capabilities["experimental"]["pointeeStatus"], true);
    c.open("s.c", "int g;\nint main(void) { int *p = &g; return 0; }\n")
        .await;
    c.diagnostics("s.c", |_| true).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(n) = c.notes.iter().find(|n| n["method"] == "pointee/status") {
            break n["params"].clone();
        }
        tokio::time::timeout_at(deadline, c.pump())
            .await
            .expect("pointee/status in time");
    };
    assert_eq!(status["state"], "ready", "{status}");
    assert!(status["ms"].is_u64(), "{status}");
    assert_eq!(status["partial"], false, "{status}");
    // A client that does not ask never gets it.
    let mut plain = Client::start(&[], json!({"debounceMs": 0})).await;
    plain
        .open("s.c", "int g;\nint main(void) { int *p = &g; return 0; }\n")
        .await;
    plain.diagnostics("s.c", |_| true).await;
    // A second analysis: the first one's status would have come before it.
    plain
        .change(
            "s.c",
            2,
            json!([{"text": "void NOALIAS(void *, void *);\nint h;\nint main(void) { int *q = &h; NOALIAS(q, &h); return 0; }\n"}]),
        )
        .await;
    plain.diagnostics("s.c", |d| !d.is_empty()).await;
    assert!(
        !plain.notes.iter().any(|n| n["method"] == "pointee/status"),
        "{:?}",
        plain.notes
    );
}

/// `budget.steps` stops the C analysis: the status says partial and names
/// the budget, hover says partial.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_makes_the_status_and_hovers_say_partial() {
    let caps = json!({"experimental": {"pointeeStatus": true}});
    let settings = json!({"debounceMs": 0, "budget": {"steps": 0}});
    let mut c = Client::start_with(&[], settings, caps).await;
    let src = "int g;\nvoid set(int **p) { *p = &g; }\nint main(void) { int *q = 0; set(&q); return *q; }\n";
    c.open("b.c", src).await;
    c.diagnostics("b.c", |_| true).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(n) = c.notes.iter().find(|n| n["method"] == "pointee/status") {
            break n["params"].clone();
        }
        tokio::time::timeout_at(deadline, c.pump())
            .await
            .expect("pointee/status in time");
    };
    assert_eq!(status["state"], "ready", "{status}");
    assert_eq!(status["partial"], true, "{status}");
    let message = status["message"].as_str().unwrap_or_default();
    assert!(message.contains("step budget"), "{status}");
    // `q` in main after the cut-off call to `set`.
    let h = c.result("textDocument/hover", c.pos("b.c", (2, 46))).await;
    let text = h["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(text.contains("Partial"), "{h}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quick_edits_are_debounced_into_one_analysis_of_the_last_text() {
    let src = "void MUSTALIAS(void *, void *);\nint g, h;\nint main(void) {\n    int *p = &g, *q = &g;\n    MUSTALIAS(p, q);\n    return 0;\n}\n";
    let mut c = Client::start(&[], json!({"debounceMs": 400})).await;
    c.open("d.c", src).await;
    // Five edits in a row, well within the debounce: q = &h, &g, &h, &g, &h.
    for v in 0..5 {
        let (from, to) = if v % 2 == 0 {
            ("&g;", "&h;")
        } else {
            ("&h;", "&g;")
        };
        let _ = from;
        c.change(
            "d.c",
            v + 2,
            json!([{"range": {"start": {"line": 3, "character": 22}, "end": {"line": 3, "character": 25}}, "text": to}]),
        )
        .await;
    }
    // One analysis, of the last text: the MUSTALIAS fails.
    let d = c.diagnostics("d.c", |_| true).await;
    assert!(d.iter().any(|x| x["severity"] == 2), "{d:?}");
    tokio::time::sleep(Duration::from_millis(800)).await;
    let r = c.request("pointee/noSuchMethod", json!({})).await; // drains what arrived
    assert!(r.get("error").is_some());
    let publishes = c
        .notes
        .iter()
        .filter(|n| n["method"] == "textDocument/publishDiagnostics")
        .count();
    assert_eq!(publishes, 1, "{:?}", c.notes);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_overtaken_by_an_edit_publishes_nothing() {
    // No debounce: the analysis of the opened text starts at once; the edit
    // right behind it makes that analysis stale, so its result is dropped
    // and the first diagnostics published are those of the edited text.
    let mut src = String::from("void MUSTALIAS(void *, void *);\nint g, h;\n");
    for i in 0..200 {
        src.push_str(&format!("int *f{i}(int *p) {{ int *q = p; return q; }}\n"));
    }
    src.push_str(
        "int main(void) {\n    int *p = &g, *q = &g;\n    MUSTALIAS(p, q);\n    return 0;\n}\n",
    );
    let line = src.lines().position(|l| l.contains("*q = &g")).unwrap() as u32;
    let mut c = Client::start(&[], json!({"debounceMs": 0})).await;
    c.open("s.c", &src).await;
    c.change(
        "s.c",
        2,
        json!([{"range": {"start": {"line": line, "character": 22}, "end": {"line": line, "character": 25}}, "text": "&h;"}]),
    )
    .await;
    let d = c.diagnostics("s.c", |_| true).await;
    assert!(
        d.iter()
            .any(|x| x["severity"] == 2 && x["code"] == "alias-check"),
        "the first publish is of the edited text: {d:?}"
    );
}

/// Random incremental edits in UTF-16 positions: the document's text equals
/// the same edits applied to a plain string, and the incrementally re-parsed
/// tree equals a fresh parse of that text.
#[test]
fn random_incremental_edits_match_a_fresh_parse() {
    use crate::convert;
    use crate::docs::Doc;
    use tower_lsp_server::ls_types as lsp;
    let mut seed: u64 = 0x9e3779b97f4a7c15;
    let mut rand = move |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n.max(1) as u64) as usize
    };
    let pieces = [
        "int *p;",
        " ",
        "\n",
        "p = &x;",
        "/* é😀 */",
        "{",
        "}",
        "é",
        "😀",
        "struct s { int *f; };\n",
        "void f(void) {\n    int *q = 0;\n}\n",
        "\r\n",
        "x",
        "->",
        "(",
        ")",
    ];
    let mut reference = String::from("int x;\nint *p = &x;\n/* 😀 */ void g(void) { p = 0; }\n");
    let mut doc = Doc::new("r.c", &reference, true);
    let mut applied = 0;
    for round in 0..300 {
        for _ in 0..1 + rand(3) {
            // A random range at character boundaries, as an LSP client sends.
            let bounds: Vec<usize> = reference
                .char_indices()
                .map(|(i, _)| i)
                .chain([reference.len()])
                .collect();
            let mut a = bounds[rand(bounds.len())];
            let mut b = bounds[rand(bounds.len())];
            if a > b {
                std::mem::swap(&mut a, &mut b);
            }
            if b - a > 40 {
                b = a;
            }
            let new = pieces[rand(pieces.len())];
            let start = convert::position(&doc.lines, a as u32);
            let end = convert::position(&doc.lines, b as u32);
            let (s, e) = (
                convert::offset(&doc.lines, &doc.text, start),
                convert::offset(&doc.lines, &doc.text, end),
            );
            // `\r\n` line ends make a position inside the pair ambiguous;
            // the server maps it to the end of the line, as LSP says.
            if reference.get(a..b).is_none() || s as usize != a || e as usize != b {
                continue;
            }
            doc.edit(s, e, new);
            reference.replace_range(a..b, new);
            applied += 1;
            assert_eq!(&*doc.text, reference.as_str(), "round {round}");
        }
        doc.reparse();
        let fresh = pointee_db::parse(pointee_db::Lang::C, &reference, None);
        assert_eq!(
            doc.tree.as_ref().unwrap().0.root_node().to_sexp(),
            fresh.root_node().to_sexp(),
            "round {round}: {reference:?}"
        );
        let _ = lsp::Position::default();
    }
    assert!(applied > 300, "{applied} edits applied");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn added_workspace_folders_are_scanned_and_removed_ones_dropped() {
    let mut c = Client::start(
        &[("a.c", "int g;\nint main(void) { int *p = &g; return 0; }\n")],
        json!({}),
    )
    .await;
    let other = c
        .dir
        .join("../")
        .join(format!("pointee-lsp-other-{}", rand_suffix()));
    std::fs::create_dir_all(&other).unwrap();
    let other = other.canonicalize().unwrap();
    std::fs::write(
        other.join("lib.c"),
        "int h;\nint *get(void) { int *r = &h; return r; }\n",
    )
    .unwrap();
    let uri = format!("file://{}", other.display());
    let lib = format!("file://{}/lib.c", other.display());
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [{"uri": uri, "name": "other"}], "removed": []}}),
    )
    .await;
    let pos = |line: u32, ch: u32| json!({"textDocument": {"uri": lib}, "position": {"line": line, "character": ch}});
    let h = c.result("textDocument/hover", pos(1, 23)).await;
    assert!(
        h["contents"]["value"]
            .as_str()
            .unwrap_or_default()
            .contains("`h`"),
        "{h}"
    );
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [], "removed": [{"uri": uri, "name": "other"}]}}),
    )
    .await;
    let h = c.result("textDocument/hover", pos(1, 23)).await;
    assert_eq!(h, Value::Null, "the folder's files are gone");
    let _ = std::fs::remove_dir_all(&other);
}

/// Several workspace folders are programs of their own, each from its own
/// model: two folders each with a `main` and a global `g` link apart (no
/// `link` error, no file analysed on its own), a folder's `pointee.toml`
/// leaves out only its own files, and answers come from the folder's
/// program.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_workspace_folder_is_a_program_of_its_own() {
    let mut c = Client::start(&[], json!({})).await;
    let one = c.dir.join("one");
    let two = c.dir.join("two");
    std::fs::create_dir_all(&one).unwrap();
    std::fs::create_dir_all(&two).unwrap();
    std::fs::write(
        one.join("a.c"),
        "int g;\nint main(void) { int *p = &g; return *p; }\n",
    )
    .unwrap();
    std::fs::write(
        two.join("b.c"),
        "int g, h;\nint start(int *q) { return *q; }\nint main(void) { int *p = &h; return start(p) + g; }\n",
    )
    .unwrap();
    std::fs::write(two.join("extra.c"), "int main(void) { return 0; }\n").unwrap();
    std::fs::write(two.join("pointee.toml"), "units = [\"b.c\"]\n").unwrap();
    let folder = |name: &str| json!({"uri": c.uri(name).trim_end_matches('/'), "name": name});
    let (root, one_f, two_f) = (folder(""), folder("one"), folder("two"));
    c.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [one_f, two_f], "removed": [root]}}),
    )
    .await;
    let alone = |d: &[Value]| {
        d.iter()
            .any(|d| d["code"] == "link" || d["code"] == "separate-program")
    };
    c.diagnostics("one/a.c", |d| !alone(d)).await;
    c.diagnostics("two/b.c", |d| !alone(d)).await;
    // Left out by its folder's model only.
    c.diagnostics("two/extra.c", |d| {
        d.iter().any(|d| d["code"] == "separate-program")
    })
    .await;
    let hover = |uri: String, line: u32, ch: u32| json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": ch}});
    let h = c
        .result("textDocument/hover", hover(c.uri("one/a.c"), 1, 38))
        .await;
    let text = h["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(text.contains("`g`"), "{h}");
    // `start` is reached from this folder's `main` only: `q` points to `h`.
    let h = c
        .result("textDocument/hover", hover(c.uri("two/b.c"), 1, 28))
        .await;
    let text = h["contents"]["value"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(text.contains("`h`") && !text.contains("`g`"), "{h}");
}

/// `pointee/graph` as docs/lsp.md and the VS Code extension have it: node
/// ids to expand, roots, one edge per call site with its location, nodes
/// cut off marked `more`; bad params are an error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_graph_request() {
    let (text, m) = markers(OPS);
    let mut c = Client::start(&[], json!({})).await;
    c.open("ops.c", &text).await;
    let uri = c.uri("ops.c");
    let edges = |g: &Value| {
        let mut edges: Vec<String> = g["edges"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| format!("{} {} {}", e["from"], e["kind"], e["to"]))
            .collect();
        edges.sort();
        edges
    };
    // Neither position nor root: the file's functions, one step.
    let g = c
        .result(
            "pointee/graph",
            json!({"textDocument": {"uri": uri}, "kind": "call"}),
        )
        .await;
    assert_eq!(g["kind"], "call");
    assert!(
        edges(&g).contains(&r#""fn:start" "indirect" "fn:disk_open""#.to_string()),
        "{g}"
    );
    let start = g["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == "fn:start")
        .unwrap();
    assert_eq!(start["label"], "start");
    assert_eq!(start["kind"], "function");
    assert_eq!(start["location"]["range"]["start"]["line"], m["start"].0);
    // Every edge with a call site says where.
    for e in g["edges"].as_array().unwrap() {
        assert!(e["location"]["uri"].is_string(), "{e}");
    }
    // Around `disk_open`, one step: its context and the contexts calling it.
    let (l, ch) = m["disk_open"];
    let g = c
        .result(
            "pointee/graph",
            json!({"textDocument": {"uri": uri}, "kind": "invocation",
                   "position": {"line": l, "character": ch}, "depth": 1}),
        )
        .await;
    let mut labels: Vec<String> = g["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["label"].as_str().unwrap().to_string())
        .collect();
    labels.sort();
    // Its context, and the contexts that call it: `start`'s (through the
    // device's ops) and `main`'s (through `fp`).
    assert_eq!(labels, ["#0 main", "#1 start", "#2 disk_open"]);
    assert_eq!(g["roots"], json!(["ctx:2"]));
    // Expanding a node by its id, at most two nodes.
    let g = c
        .result(
            "pointee/graph",
            json!({"textDocument": {"uri": uri}, "kind": "call",
                   "root": "fn:start", "depth": 1, "maxNodes": 2}),
        )
        .await;
    assert_eq!(g["roots"], json!(["fn:start"]));
    assert_eq!(g["nodes"].as_array().unwrap().len(), 2, "{g}");
    let root = g["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["id"] == "fn:start")
        .unwrap();
    assert_eq!(root["more"], true, "{g}");
    for bad in [json!("nope"), json!("calls")] {
        let r = c
            .request(
                "pointee/graph",
                json!({"textDocument": {"uri": uri}, "kind": bad}),
            )
            .await;
        assert_eq!(r["error"]["code"], -32602, "{r}");
    }
}

/// The checkers' findings arrive with their witness as related
/// information; `c.mallocMayFail: false` and `diagnostics.checks` turn
/// them off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checker_diagnostics_carry_their_witness_and_follow_the_settings() {
    let text = "#include <stdlib.h>\n\
                int main(void) {\n\
                \x20   int *p = NULL;\n\
                \x20   int *q = malloc(sizeof *q);\n\
                \x20   *q = 1;\n\
                \x20   return *p;\n\
                }\n";
    let mut c = Client::start(&[], json!({})).await;
    c.open("m.c", text).await;
    let codes = |d: &[Value]| -> Vec<String> {
        d.iter()
            .map(|x| x["code"].as_str().unwrap_or("").to_string())
            .collect()
    };
    let d = c
        .diagnostics("m.c", |d| d.iter().any(|x| x["code"] == "null-deref"))
        .await;
    let err = d
        .iter()
        .find(|x| x["severity"] == 1)
        .expect("the NULL dereference of p, an error");
    assert_eq!(err["range"]["start"], json!({"line": 5, "character": 12}));
    assert_eq!(
        err["relatedInformation"][0]["message"],
        "`p` is set to NULL here"
    );
    assert_eq!(
        err["relatedInformation"][0]["location"]["range"]["start"],
        json!({"line": 2, "character": 9})
    );
    assert!(d
        .iter()
        .any(|x| x["severity"] == 2 && x["code"] == "null-deref"));
    // Allocation assumed to succeed: only the error stays.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pointee": {"c": {"mallocMayFail": false}}}}),
    )
    .await;
    let d = c
        .diagnostics("m.c", |d| {
            d.iter().filter(|x| x["code"] == "null-deref").count() == 1
        })
        .await;
    assert_eq!(codes(&d), vec!["null-deref"]);
    // The code turned off.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"pointee": {"diagnostics": {"checks": {"null-deref": false}}}}}),
    )
    .await;
    c.diagnostics("m.c", |d| d.iter().all(|x| x["code"] != "null-deref"))
        .await;
}

#[tokio::test]
async fn java_checker_diagnostics_are_published_and_unreachable_methods_are_faded() {
    let text = "public class Main {\n\
                \x20   public static void main(String[] args) {\n\
                \x20       Main m = null;\n\
                \x20       m.go();\n\
                \x20   }\n\
                \x20   void go() {}\n\
                \x20   static void spare() {}\n\
                }\n";
    let mut c = Client::start(&[], json!({})).await;
    c.open("Main.java", text).await;
    let d = c
        .diagnostics("Main.java", |d| {
            d.iter().any(|x| x["code"] == "null-deref")
                && d.iter().any(|x| x["code"] == "unreachable-method")
        })
        .await;
    let err = d.iter().find(|x| x["code"] == "null-deref").unwrap();
    assert_eq!(err["severity"], 1);
    assert_eq!(err["range"]["start"], json!({"line": 3, "character": 8}));
    assert_eq!(
        err["relatedInformation"][0]["message"],
        "null comes from here"
    );
    // Never called (go() is not called either: m holds no object).
    let faded: Vec<&Value> = d
        .iter()
        .filter(|x| x["code"] == "unreachable-method")
        .collect();
    assert_eq!(faded.len(), 2);
    for x in faded {
        assert_eq!(x["severity"], 4);
        assert_eq!(x["tags"], json!([1]), "DiagnosticTag::UNNECESSARY");
    }
}

/// `exit` ends the server even while a handler waits for an answer the
/// client will never give: a client stops reading at `exit`. (tower-lsp-server
/// waits for every running handler; found by the `lsp_requests` fuzz target,
/// whose session stopped answering after `shutdown`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exit_ends_the_server_while_the_client_leaves_its_requests_unanswered() {
    fn frame(v: Value) -> Vec<u8> {
        let body = v.to_string();
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }
    let (client, server) = tokio::io::duplex(1 << 22);
    let (sr, sw) = tokio::io::split(server);
    let served = tokio::spawn(crate::serve(sr, sw));
    let (mut read, mut write) = tokio::io::split(client);
    // The server's output as it comes; nothing is ever answered.
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        let mut chunk = vec![0u8; 1 << 16];
        while let Ok(n @ 1..) = read.read(&mut chunk).await {
            let _ = tx.send(String::from_utf8_lossy(&chunk[..n]).into_owned());
        }
    });
    let mut out = String::new();
    let inlay_refresh = json!({"workspace": {"inlayHint": {"refreshSupport": true}}});
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                            "params": {"processId": null, "capabilities": inlay_refresh}});
    write.write_all(&frame(initialize)).await.unwrap();
    while !out.contains("\"id\":1") {
        out.push_str(&rx.recv().await.expect("an answer to initialize"));
    }
    for m in [
        json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}),
        // The server asks the client to refresh its inlay hints.
        json!({"jsonrpc": "2.0", "method": "workspace/didChangeConfiguration",
               "params": {"settings": {"pointee": {"inlayHints": {"enable": true}}}}}),
        json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}),
    ] {
        write.write_all(&frame(m)).await.unwrap();
    }
    while !(out.contains("\"id\":2") && out.contains("workspace/inlayHint/refresh")) {
        out.push_str(
            &rx.recv()
                .await
                .expect("the shutdown answer and the refresh"),
        );
    }
    write
        .write_all(&frame(json!({"jsonrpc": "2.0", "method": "exit"})))
        .await
        .unwrap();
    write.flush().await.unwrap();
    // The input stays open, as a client's may: only `exit` ends the server.
    // A guard against a hang, not a timing: the server ends at once.
    let ended = tokio::time::timeout(Duration::from_secs(30), served).await;
    assert!(ended.is_ok(), "the server did not end after `exit`");
    drop(write);
}
