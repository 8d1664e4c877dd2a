//! pointee-lsp: the language server (`pointee lsp`), on tower-lsp-server and
//! tokio. The only crate that knows LSP types; conversions live in
//! [`convert`].
//!
//! - Documents are synced incrementally: each `didChange` is applied to the
//!   document store before the handler awaits anything (so edits apply in
//!   order), and the tree-sitter tree is edited and re-parsed incrementally.
//! - Requests run off the request loop (`spawn_blocking`) on a snapshot of
//!   the documents and a clone of the salsa database; a panic becomes an
//!   error response, and a query cancelled by a newer edit answers
//!   `ContentModified`.
//! - Analysis (diagnostics) is debounced after edits, dropped when a newer
//!   edit arrives, and reports `$/progress` when it takes longer than a
//!   moment.

mod actions;
pub mod convert;
pub mod disk;
pub mod docs;
mod sanitize;
pub mod settings;
mod store;

use convert::Files;
use docs::{Doc, Docs};
use pointee_ide::{Cancellable, Cancelled, Lang};
use settings::Settings;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use store::Store;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types as lsp;
use tower_lsp_server::{Client, LanguageServer, LspService, Server};

/// Set when a `shutdown` request was answered (the exit code follows it).
static SHUT_DOWN: AtomicBool = AtomicBool::new(false);

/// Runs the server over stdin/stdout until the client exits. Returns the
/// process exit code the LSP asks for: 0 after `shutdown` then `exit`, 1 when
/// the client exits (or goes away) without `shutdown`.
pub fn run_stdio() -> u8 {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_stack_size(64 << 20)
        .enable_all()
        .build()
        .expect("building the tokio runtime");
    rt.block_on(serve(tokio::io::stdin(), tokio::io::stdout()));
    // Reading stdin blocks a thread; do not wait for it.
    rt.shutdown_timeout(Duration::from_millis(100));
    if SHUT_DOWN.load(Ordering::SeqCst) {
        0
    } else {
        1
    }
}

/// Serves the protocol on any byte streams (stdio, in-process tests and
/// benchmarks). Malformed messages are answered with errors, never end it.
pub async fn serve<I, O>(input: I, output: O)
where
    I: tokio::io::AsyncRead + Unpin + Send + 'static,
    O: tokio::io::AsyncWrite,
{
    let (service, socket) = LspService::build(Backend::new)
        .custom_method("pointee/malformed", Backend::malformed)
        .custom_method("pointee/invalidRequest", Backend::invalid_request)
        .custom_method("pointee/graph", Backend::graph)
        .finish();
    let (pipe_in, pipe_out) = tokio::io::duplex(1 << 20);
    let pump = tokio::spawn(sanitize::pump(input, pipe_in));
    let server = Server::new(pipe_out, output, socket).serve(service);
    tokio::pin!(server);
    tokio::select! {
        _ = &mut server => {}
        end = pump => {
            if matches!(end, Ok(sanitize::InputEnd::Exit)) {
                // tower-lsp-server's `serve` waits for every handler still
                // running, and one waiting on the client (which stops
                // answering at `exit`) would never end: `exit` ends the
                // server after a moment to flush what is ready.
                let _ = tokio::time::timeout(EXIT_GRACE, server).await;
            } else {
                server.await;
            }
        }
    }
}

/// How long the server may still write after `exit`.
const EXIT_GRACE: Duration = Duration::from_millis(500);

struct Shared {
    docs: Mutex<Docs>,
    store: Store,
    settings: Mutex<Settings>,
    folders: Mutex<Vec<PathBuf>>,
    /// Each folder with its C program model (`pointee.toml`,
    /// `compile_commands.json`, or every `.c` file), read by pointee-ide:
    /// with several folders, each is a program of its own.
    model: Mutex<Vec<pointee_ide::CFolder>>,
    /// The client accepts `window/workDoneProgress/create`.
    progress: AtomicBool,
    /// The client can register file watchers dynamically.
    watch_dynamic: AtomicBool,
    /// The client takes `pointee/status` after each analysis
    /// (`capabilities.experimental.pointeeStatus`; the VS Code extension).
    status: AtomicBool,
    /// Files that have diagnostics published (to clear them later).
    published: Mutex<BTreeSet<String>>,
    progress_tokens: AtomicU64,
    /// The problems shown to the user, by what they concern (a file's path,
    /// a folder's model): each is shown once while it stands.
    reported: Mutex<BTreeMap<String, String>>,
    /// The client opens documents on `window/showDocument`.
    show_document: AtomicBool,
    /// The client applies workspace edits that create files.
    create_files: AtomicBool,
    /// Witness inputs found by "Find an input that triggers this".
    witnesses: actions::Witnesses,
}

pub struct Backend {
    client: Client,
    shared: Arc<Shared>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn content_modified() -> Error {
    Error {
        code: ErrorCode::ServerError(-32801),
        message: "content modified: a newer edit cancelled this request".into(),
        data: None,
    }
}

/// Cancels a request's snapshot when the request's future is dropped
/// before it is answered.
#[derive(Default)]
struct CancelOnDrop(Arc<Mutex<CancelState>>);

#[derive(Default)]
struct CancelState {
    dropped: bool,
    /// The snapshot's token, while the request runs on it.
    token: Option<pointee_ide::CancellationToken>,
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let mut c = lock(&self.0);
        c.dropped = true;
        if let Some(t) = c.token.take() {
            t.cancel();
        }
    }
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

/// Where a request's answer comes from: the documents and the analysis of
/// one revision.
struct Ctx<'a> {
    files: Files<'a>,
}

impl Ctx<'_> {
    fn analysis(&self) -> &pointee_ide::Analysis {
        self.files.analysis
    }

    fn doc(&self, name: &str) -> Option<&Doc> {
        self.files.snap.doc(name)
    }
}

impl Backend {
    async fn malformed(&self) -> Result<()> {
        Err(Error::parse_error())
    }

    /// `pointee/graph`: the call graph, the C invocation graph or the Java
    /// pointer flow graph of the program a document belongs to, optionally
    /// around the function at a position (`convert::graph_request`).
    async fn graph(&self, params: serde_json::Value) -> Result<Option<serde_json::Value>> {
        let Some(params) = convert::graph_request(&params) else {
            return Err(Error::invalid_params(
                "pointee/graph takes {textDocument: {uri}, kind: \"call\" | \"invocation\" | \"pointerFlow\", position?, root?, depth?, maxNodes?}",
            ));
        };
        if !self.doc_exists(&params.name) {
            return Ok(None);
        }
        self.run(move |cx| {
            let Some(file) = cx.analysis().file_id(&params.name) else {
                return Ok(None);
            };
            let focus = match params.start {
                convert::GraphStart::At(pos) => match cx.files.position(&params.name, pos) {
                    Some(at) => pointee_ide::GraphFocus::At(at),
                    None => return Ok(None),
                },
                convert::GraphStart::Node(id) => pointee_ide::GraphFocus::Node(id),
                convert::GraphStart::File => pointee_ide::GraphFocus::File,
            };
            let request = pointee_ide::GraphRequest {
                file,
                kind: params.kind,
                focus,
                depth: params.depth,
                max_nodes: params.max_nodes,
            };
            let graph = cx.analysis().graph(&request)?;
            Ok(graph.map(|g| convert::graph(&cx.files, params.kind, &g)))
        })
        .await
    }

    /// Whether the user asked definition to answer only on indirect and
    /// virtual calls in this document's language (`goto.indirectCallsOnly`).
    fn indirect_calls_only(&self, name: &str) -> bool {
        lock(&self.shared.settings)
            .indirect_calls_only
            .applies_to(name)
    }

    async fn invalid_request(&self) -> Result<()> {
        Err(Error::invalid_request())
    }

    pub fn new(client: Client) -> Backend {
        Backend {
            client,
            shared: Arc::new(Shared {
                docs: Mutex::default(),
                store: Store::default(),
                settings: Mutex::default(),
                folders: Mutex::default(),
                model: Mutex::default(),
                progress: AtomicBool::new(false),
                watch_dynamic: AtomicBool::new(false),
                status: AtomicBool::new(false),
                published: Mutex::default(),
                progress_tokens: AtomicU64::new(0),
                reported: Mutex::default(),
                show_document: AtomicBool::new(false),
                create_files: AtomicBool::new(false),
                witnesses: actions::Witnesses::default(),
            }),
        }
    }

    /// Runs `f` off the request loop on the current documents and an
    /// analysis snapshot. Panics become error responses; cancellation by a
    /// newer edit becomes `ContentModified`. A request dropped before its
    /// answer (`$/cancelRequest`) cancels its snapshot, so what runs on it
    /// (a query, a witness search) stops.
    async fn run<T, F>(&self, f: F) -> Result<T>
    where
        T: Send + 'static,
        F: FnOnce(&Ctx) -> Cancellable<T> + Send + 'static,
    {
        let snap = lock(&self.shared.docs).snapshot();
        let settings = lock(&self.shared.settings).clone();
        let model = lock(&self.shared.model).clone();
        let shared = self.shared.clone();
        let guard = CancelOnDrop::default();
        let cancel = guard.0.clone();
        let job = tokio::task::spawn_blocking(move || {
            std::panic::catch_unwind(AssertUnwindSafe(|| {
                let analysis = shared.store.sync(&snap, &settings, model);
                {
                    let mut c = lock(&cancel);
                    if c.dropped {
                        analysis.cancellation_token().cancel();
                    }
                    c.token = Some(analysis.cancellation_token());
                }
                f(&Ctx {
                    files: Files {
                        analysis: &analysis,
                        snap: &snap,
                    },
                })
            }))
        });
        let done = job.await;
        lock(&guard.0).token = None;
        match done {
            Ok(Ok(Ok(v))) => Ok(v),
            Ok(Ok(Err(_cancelled))) => Err(content_modified()),
            Ok(Err(p)) if p.is::<Cancelled>() => Err(content_modified()),
            Ok(Err(p)) => Err(Error {
                code: ErrorCode::InternalError,
                message: format!("pointee: internal error: {}", panic_message(&*p)).into(),
                data: None,
            }),
            Err(e) => Err(Error {
                code: ErrorCode::InternalError,
                message: format!("pointee: the request failed: {e}").into(),
                data: None,
            }),
        }
    }

    /// Re-analyses after a pause, unless a newer change comes first; then
    /// publishes diagnostics.
    fn schedule_analysis(&self) {
        let rev = lock(&self.shared.docs).rev;
        let debounce = lock(&self.shared.settings).debounce_ms;
        let shared = self.shared.clone();
        let client = self.client.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(debounce)).await;
            if lock(&shared.docs).rev != rev {
                return; // a newer edit schedules its own run
            }
            analyse_and_publish(shared, client, rev).await;
        });
    }

    fn doc_exists(&self, name: &str) -> bool {
        lock(&self.shared.docs).map.contains_key(name)
    }

    /// Reads the C program model of every folder again (pointee-ide reads
    /// it; the files it asks for come from the disk). A model that cannot
    /// be read is shown as an error, and the folder's `.c` files are the
    /// program meanwhile. Bumps the documents' revision when it changed.
    async fn reload_model(&self) {
        let folders = lock(&self.shared.folders).clone();
        let mut models = Vec::new();
        let mut problems = Vec::new();
        for f in &folders {
            let mut listing = Vec::new();
            list_files(f, f, &mut listing, &mut disk::SeenFolders::default(), 0);
            let root = f.to_string_lossy();
            let mut read = |p: &str| {
                std::fs::read(p)
                    .map_err(|e| disk::io_reason(&e))
                    .and_then(disk::utf8_text)
            };
            let about = format!("the program model of {root}");
            let model = match pointee_ide::CModel::read(&root, &listing, &mut read) {
                Ok(m) => {
                    problems.push((about, None));
                    Some(m)
                }
                Err(e) => {
                    problems.push((about, Some(format!("pointee: {e}"))));
                    None
                }
            };
            models.push(pointee_ide::CFolder {
                root: root.into_owned(),
                model,
            });
        }
        let model = models;
        let changed = {
            let mut current = lock(&self.shared.model);
            let changed = *current != model;
            *current = model;
            changed
        };
        if changed {
            lock(&self.shared.docs).rev += 1;
        }
        self.report(lsp::MessageType::ERROR, problems).await;
    }

    /// Shows each problem (what it concerns, and its message or `None` when
    /// it has none any more) that is not shown already: a malformed model or
    /// an unreadable file is reported once, not at every reload, and again
    /// only after it was fixed and broke anew.
    async fn report(&self, typ: lsp::MessageType, problems: Vec<(String, Option<String>)>) {
        let mut new = Vec::new();
        {
            let mut shown = lock(&self.shared.reported);
            for (about, message) in problems {
                match message {
                    Some(m) if shown.get(&about) != Some(&m) => {
                        shown.insert(about, m.clone());
                        new.push(m);
                    }
                    Some(_) => {}
                    None => {
                        shown.remove(&about);
                    }
                }
            }
        }
        for m in new {
            self.client.show_message(typ, m).await;
        }
    }

    /// Reports the files a read left out of the program (and forgets the
    /// problems of files read fine now).
    async fn report_reads(&self, reads: Vec<(String, Option<String>)>) {
        let problems = reads
            .into_iter()
            .map(|(path, reason)| {
                let m = reason.map(|r| format!("pointee: {path}: {r}; left out of the program"));
                (path, m)
            })
            .collect();
        self.report(lsp::MessageType::WARNING, problems).await;
    }

    /// Reads the C and Java files under `folders` into the documents (open
    /// buffers win). Synchronous, so requests after the notification that
    /// asked for it see the files. Returns each file read and why it was
    /// left out, if it was (for [`Backend::report_reads`]).
    fn scan_folders(&self, folders: &[PathBuf]) -> Vec<(String, Option<String>)> {
        let mut found = Vec::new();
        let mut seen = disk::SeenFolders::default();
        for f in folders {
            scan(f, &mut found, &mut seen, 0);
        }
        let mut docs = lock(&self.shared.docs);
        let mut changed = false;
        let mut reads = Vec::new();
        for (name, text) in found {
            let text = match text {
                Ok(t) => t,
                Err(reason) => {
                    reads.push((name, Some(reason)));
                    continue;
                }
            };
            reads.push((name.clone(), None));
            if docs.map.get(&name).is_some_and(|d| d.open) {
                continue;
            }
            docs.map
                .insert(name.clone(), Arc::new(Doc::from_disk(&name, &text)));
            changed = true;
        }
        if changed {
            docs.rev += 1;
        }
        reads
    }
}

const MAX_FILES: usize = 20_000;
const MAX_FILE_BYTES: u64 = 4 << 20;

/// Every file under `dir` (skipping hidden folders and build output), as a
/// path relative to `root` with `/` between folders: what the program
/// model is read from. Symbolic links are followed, each folder once.
fn list_files(
    root: &std::path::Path,
    dir: &std::path::Path,
    out: &mut Vec<String>,
    seen: &mut disk::SeenFolders,
    depth: usize,
) {
    if depth > 40 || out.len() >= MAX_FILES || seen.first_visit(dir) != Ok(true) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !skipped_folder(&name) {
                list_files(root, &path, out, seen, depth + 1);
            }
        } else if let Ok(rel) = path.strip_prefix(root) {
            let parts: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            out.push(parts.join("/"));
        }
    }
    out.sort();
}

/// Whether a path names a program model file (`pointee.toml`,
/// `compile_commands.json`, `build/compile_commands.json`).
fn is_model_path(name: &str) -> bool {
    let parts: Vec<&str> = name.rsplit('/').take(2).collect();
    pointee_ide::is_model_file(parts[0])
        || (parts.len() == 2 && pointee_ide::is_model_file(&format!("{}/{}", parts[1], parts[0])))
}

/// Folders neither the scan nor the model look into.
fn skipped_folder(name: &str) -> bool {
    name.starts_with('.') || name == "target" || name == "node_modules"
}

/// Every .c, .h and .java file under `dir` (skipping hidden folders and
/// build output; symbolic links followed, each folder once), with its text
/// or why it cannot be read.
fn scan(
    dir: &std::path::Path,
    out: &mut Vec<(String, std::result::Result<String, String>)>,
    seen: &mut disk::SeenFolders,
    depth: usize,
) {
    if depth > 40 || out.len() >= MAX_FILES || seen.first_visit(dir) != Ok(true) {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        let path = e.path();
        let name = e.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !skipped_folder(&name) {
                scan(&path, out, seen, depth + 1);
            }
        } else if Lang::of_path(&name).is_some() {
            out.push((path.to_string_lossy().into_owned(), read_source(&path)));
        }
    }
}

/// A source file's text, or why the server leaves it out: it cannot be
/// read, is not UTF-8, or is larger than the server reads from the disk
/// (opened in the editor, it is analysed whatever its size).
fn read_source(path: &std::path::Path) -> std::result::Result<String, String> {
    let len = std::fs::metadata(path)
        .map_err(|e| disk::io_reason(&e))?
        .len();
    if len > MAX_FILE_BYTES {
        return Err(format!(
            "{:.1} MiB, more than the {} MiB the server reads from the disk",
            len as f64 / (1 << 20) as f64,
            MAX_FILE_BYTES >> 20
        ));
    }
    std::fs::read(path)
        .map_err(|e| disk::io_reason(&e))
        .and_then(disk::utf8_text)
}

/// `pointee/status`: how the last analysis went, for a status bar.
enum StatusNotification {}

impl lsp::notification::Notification for StatusNotification {
    type Params = serde_json::Value;
    const METHOD: &'static str = "pointee/status";
}

async fn send_status(shared: &Shared, client: &Client, params: serde_json::Value) {
    if shared.status.load(Ordering::Relaxed) {
        client.send_notification::<StatusNotification>(params).await;
    }
}

async fn analyse_and_publish(shared: Arc<Shared>, client: Client, rev: u64) {
    let started = std::time::Instant::now();
    let snap = lock(&shared.docs).snapshot();
    let settings = lock(&shared.settings).clone();
    let model = lock(&shared.model).clone();
    let progress_after = Duration::from_millis(settings.progress_after_ms);
    let s2 = shared.clone();
    let snap2 = snap.clone();
    let mut job = tokio::task::spawn_blocking(move || {
        std::panic::catch_unwind(AssertUnwindSafe(|| {
            let analysis = s2.store.sync(&snap2, &settings, model);
            // Every file's diagnostics, in path order.
            let files: Vec<(String, pointee_ide::FileId)> =
                analysis.files().map(|(p, f)| (p.to_string(), f)).collect();
            let mut out = Vec::new();
            for (path, file) in &files {
                out.push((
                    path.clone(),
                    analysis.diagnostics(*file, &settings.diagnostics)?,
                ));
            }
            // Witnesses name files by id: their paths, for the conversion.
            let names: HashMap<pointee_ide::FileId, String> =
                files.into_iter().map(|(p, f)| (f, p)).collect();
            let partial = analysis.c_partial()?;
            Ok::<_, Cancelled>((out, names, partial))
        }))
    });
    // Progress only when the analysis takes longer than a moment.
    let mut progress = None;
    // `progressAfterMs: 0` reports every run (deterministic, for tests).
    let quick = if progress_after.is_zero() {
        None
    } else {
        tokio::time::timeout(progress_after, &mut job).await.ok()
    };
    let result = match quick {
        Some(r) => r,
        None => {
            if shared.progress.load(Ordering::Relaxed) {
                let n = shared.progress_tokens.fetch_add(1, Ordering::Relaxed);
                let token = lsp::ProgressToken::String(format!("pointee-analysis-{n}"));
                if client
                    .create_work_done_progress(token.clone())
                    .await
                    .is_ok()
                {
                    progress = Some(
                        client
                            .progress(token, "pointee")
                            .with_message("analysing")
                            .begin()
                            .await,
                    );
                }
            }
            job.await
        }
    };
    if let Some(p) = progress {
        p.finish().await;
    }
    let (diags, names, partial) = match result {
        Ok(Ok(Ok(d))) => d,
        Ok(Ok(Err(_cancelled))) => return,
        Ok(Err(p)) => {
            if !p.is::<Cancelled>() {
                let message = format!("analysis failed: {}", panic_message(&*p));
                client
                    .log_message(lsp::MessageType::ERROR, format!("pointee: {message}"))
                    .await;
                send_status(
                    &shared,
                    &client,
                    serde_json::json!({"state": "failed", "message": message}),
                )
                .await;
            }
            return;
        }
        Err(_) => return,
    };
    if lock(&shared.docs).rev != rev {
        return; // stale: a newer edit's run will publish
    }
    shared
        .witnesses
        .retain_current(|file| snap.doc(file).map(|d| d.text.clone()));
    let mut to_clear: BTreeSet<String> = lock(&shared.published).clone();
    let mut now = BTreeSet::new();
    for (file, list) in &diags {
        let Some(doc) = snap.doc(file) else { continue };
        let Some(uri) = convert::name_to_uri(file) else {
            continue;
        };
        let related = |r: pointee_ide::FileRange| {
            let name = names.get(&r.file)?;
            let doc = snap.doc(name)?;
            Some(lsp::Location::new(
                convert::name_to_uri(name)?,
                convert::range(&doc.lines, r.range),
            ))
        };
        let items: Vec<lsp::Diagnostic> = list
            .iter()
            .map(|d| {
                let mut item = convert::diagnostic(doc, d, &related);
                if let Some(f) = shared.witnesses.for_diagnostic(file, &doc.text, &item) {
                    actions::mark(&mut item, &f);
                }
                item
            })
            .collect();
        to_clear.remove(file);
        if !items.is_empty() {
            now.insert(file.clone());
        }
        client.publish_diagnostics(uri, items, None).await;
    }
    for file in to_clear {
        if let Some(uri) = convert::name_to_uri(&file) {
            client.publish_diagnostics(uri, Vec::new(), None).await;
        }
    }
    *lock(&shared.published) = now;
    let ms = started.elapsed().as_millis() as u64;
    let mut status = serde_json::json!({"state": "ready", "ms": ms, "partial": partial.is_some()});
    if let Some(p) = &partial {
        status["message"] = serde_json::json!(format!(
            "partial: the C analysis stopped at its {} after {} calls; {} functions not finished",
            p.spent,
            p.steps,
            p.incomplete.len()
        ));
    }
    send_status(&shared, &client, status).await;
}

fn text_position(p: &lsp::TextDocumentPositionParams) -> (String, lsp::Position) {
    (convert::uri_to_name(&p.text_document.uri), p.position)
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: lsp::InitializeParams) -> Result<lsp::InitializeResult> {
        if let Some(opts) = &params.initialization_options {
            lock(&self.shared.settings).update(opts);
        }
        let caps = &params.capabilities;
        let progress = caps
            .window
            .as_ref()
            .and_then(|w| w.work_done_progress)
            .unwrap_or(false);
        self.shared.progress.store(progress, Ordering::Relaxed);
        let watch = caps
            .workspace
            .as_ref()
            .and_then(|w| w.did_change_watched_files.as_ref())
            .and_then(|d| d.dynamic_registration)
            .unwrap_or(false);
        self.shared.watch_dynamic.store(watch, Ordering::Relaxed);
        let status = caps
            .experimental
            .as_ref()
            .and_then(|e| e.get("pointeeStatus"))
            .and_then(|v| v.as_bool())
            .unwrap_or(false);
        self.shared.status.store(status, Ordering::Relaxed);
        let show_document = caps
            .window
            .as_ref()
            .and_then(|w| w.show_document.as_ref())
            .is_some_and(|s| s.support);
        self.shared
            .show_document
            .store(show_document, Ordering::Relaxed);
        self.shared
            .create_files
            .store(actions::can_create_files(caps), Ordering::Relaxed);
        let mut folders = Vec::new();
        if let Some(ws) = &params.workspace_folders {
            for f in ws {
                if let Some(p) = f.uri.to_file_path() {
                    folders.push(p.into_owned());
                }
            }
        }
        #[allow(deprecated)]
        if folders.is_empty() {
            if let Some(p) = params.root_uri.as_ref().and_then(|u| u.to_file_path()) {
                folders.push(p.into_owned());
            }
        }
        *lock(&self.shared.folders) = folders;
        // The program is every C and Java file under the folders: read them
        // before answering, so the first requests see the whole program.
        let folders = lock(&self.shared.folders).clone();
        let reads = self.scan_folders(&folders);
        self.report_reads(reads).await;
        self.reload_model().await;
        Ok(lsp::InitializeResult {
            server_info: Some(lsp::ServerInfo {
                name: "pointee".into(),
                version: Some(env!("CARGO_PKG_VERSION").into()),
            }),
            capabilities: lsp::ServerCapabilities {
                text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
                    lsp::TextDocumentSyncOptions {
                        open_close: Some(true),
                        change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                        ..Default::default()
                    },
                )),
                position_encoding: Some(lsp::PositionEncodingKind::UTF16),
                hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
                definition_provider: Some(lsp::OneOf::Left(true)),
                declaration_provider: Some(lsp::DeclarationCapability::Simple(true)),
                implementation_provider: Some(lsp::ImplementationProviderCapability::Simple(true)),
                call_hierarchy_provider: Some(lsp::CallHierarchyServerCapability::Simple(true)),
                document_highlight_provider: Some(lsp::OneOf::Left(true)),
                references_provider: Some(lsp::OneOf::Left(true)),
                inlay_hint_provider: Some(lsp::OneOf::Left(true)),
                code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
                    lsp::CodeActionOptions {
                        code_action_kinds: Some(vec![lsp::CodeActionKind::QUICKFIX]),
                        ..Default::default()
                    },
                )),
                execute_command_provider: Some(lsp::ExecuteCommandOptions {
                    commands: actions::COMMANDS.iter().map(|c| c.to_string()).collect(),
                    ..Default::default()
                }),
                workspace: Some(lsp::WorkspaceServerCapabilities {
                    workspace_folders: Some(lsp::WorkspaceFoldersServerCapabilities {
                        supported: Some(true),
                        change_notifications: Some(lsp::OneOf::Left(true)),
                    }),
                    file_operations: None,
                }),
                // Says that `pointee/status` follows each analysis.
                experimental: Some(serde_json::json!({ "pointeeStatus": true })),
                ..Default::default()
            },
            ..Default::default()
        })
    }

    async fn initialized(&self, _: lsp::InitializedParams) {
        if self.shared.watch_dynamic.load(Ordering::Relaxed) {
            let opts = lsp::DidChangeWatchedFilesRegistrationOptions {
                watchers: vec![lsp::FileSystemWatcher {
                    glob_pattern: lsp::GlobPattern::String(
                        "**/{*.c,*.h,*.java,pointee.toml,compile_commands.json}".into(),
                    ),
                    kind: None,
                }],
            };
            let _ = self
                .client
                .register_capability(vec![lsp::Registration {
                    id: "pointee-watch".into(),
                    method: "workspace/didChangeWatchedFiles".into(),
                    register_options: serde_json::to_value(opts).ok(),
                }])
                .await;
        }
        self.schedule_analysis();
    }

    async fn shutdown(&self) -> Result<()> {
        SHUT_DOWN.store(true, Ordering::SeqCst);
        Ok(())
    }

    async fn did_open(&self, params: lsp::DidOpenTextDocumentParams) {
        let name = convert::uri_to_name(&params.text_document.uri);
        {
            let mut docs = lock(&self.shared.docs);
            docs.map.insert(
                name.clone(),
                Arc::new(Doc::new(&name, &params.text_document.text, true)),
            );
            docs.rev += 1;
        }
        self.schedule_analysis();
    }

    async fn did_change(&self, params: lsp::DidChangeTextDocumentParams) {
        // Applied before anything awaits: edits keep their order.
        let name = convert::uri_to_name(&params.text_document.uri);
        {
            let mut docs = lock(&self.shared.docs);
            let Some(doc) = docs.map.get(&name) else {
                return; // a change to a document never opened: ignored
            };
            let mut doc = (**doc).clone();
            doc.ensure_tree();
            for change in &params.content_changes {
                match change.range {
                    Some(r) => {
                        let start = convert::offset(&doc.lines, &doc.text, r.start);
                        let end = convert::offset(&doc.lines, &doc.text, r.end);
                        doc.edit(start, end, &change.text);
                    }
                    None => doc.set_text(&name, &change.text),
                }
            }
            doc.reparse();
            docs.map.insert(name, Arc::new(doc));
            docs.rev += 1;
        }
        self.schedule_analysis();
    }

    async fn did_close(&self, params: lsp::DidCloseTextDocumentParams) {
        let name = convert::uri_to_name(&params.text_document.uri);
        // Back to the file on disk, or out of the program if there is none
        // (or it cannot be read: reported).
        let path = std::path::Path::new(&name);
        let read = path.exists().then(|| read_source(path));
        let in_folder = {
            let folders = lock(&self.shared.folders);
            folders
                .iter()
                .any(|f| std::path::Path::new(&name).starts_with(f))
        };
        {
            let mut docs = lock(&self.shared.docs);
            match &read {
                Some(Ok(text)) if in_folder => {
                    docs.map
                        .insert(name.clone(), Arc::new(Doc::from_disk(&name, text)));
                }
                _ => {
                    docs.map.remove(&name);
                }
            }
            docs.rev += 1;
        }
        if let Some(read) = read.filter(|_| in_folder) {
            self.report_reads(vec![(name, read.err())]).await;
        }
        self.schedule_analysis();
    }

    async fn did_change_configuration(&self, params: lsp::DidChangeConfigurationParams) {
        let hints_before = lock(&self.shared.settings).inlay_hints;
        let hints_now = {
            let mut s = lock(&self.shared.settings);
            s.update(&params.settings);
            s.inlay_hints
        };
        lock(&self.shared.docs).rev += 1;
        self.schedule_analysis();
        if hints_before != hints_now {
            // Not awaited here: a notification's handler never waits on
            // the client (the next messages queue behind it).
            let client = self.client.clone();
            tokio::spawn(async move { client.inlay_hint_refresh().await });
        }
    }

    async fn did_change_watched_files(&self, params: lsp::DidChangeWatchedFilesParams) {
        let mut changed = false;
        let mut reads = Vec::new();
        // A model file, or a `.c` file added or removed (a unit when no
        // model file names the units), changes the program.
        let model_touched = params.changes.iter().any(|ev| {
            let name = convert::uri_to_name(&ev.uri);
            is_model_path(&name) || (name.ends_with(".c") && ev.typ != lsp::FileChangeType::CHANGED)
        });
        for ev in params.changes {
            let name = convert::uri_to_name(&ev.uri);
            if Lang::of_path(&name).is_none() {
                continue;
            }
            let open = lock(&self.shared.docs)
                .map
                .get(&name)
                .is_some_and(|d| d.open);
            if open {
                continue; // the buffer wins over the disk
            }
            let text = if ev.typ == lsp::FileChangeType::DELETED {
                reads.push((name.clone(), None));
                None
            } else {
                // Read before awaiting anything, so later requests see it.
                let read = read_source(std::path::Path::new(&name));
                reads.push((name.clone(), read.as_ref().err().cloned()));
                read.ok()
            };
            let mut docs = lock(&self.shared.docs);
            match text {
                Some(t) => {
                    docs.map
                        .insert(name.clone(), Arc::new(Doc::from_disk(&name, &t)));
                }
                None => {
                    docs.map.remove(&name);
                }
            }
            changed = true;
        }
        if changed {
            lock(&self.shared.docs).rev += 1;
        }
        self.report_reads(reads).await;
        if model_touched {
            self.reload_model().await;
        }
        if changed || model_touched {
            self.schedule_analysis();
        }
    }

    async fn did_save(&self, params: lsp::DidSaveTextDocumentParams) {
        // A client that watches no files still says when a model file it
        // edited is saved.
        if is_model_path(&convert::uri_to_name(&params.text_document.uri)) {
            self.reload_model().await;
            self.schedule_analysis();
        }
    }

    async fn did_change_workspace_folders(&self, params: lsp::DidChangeWorkspaceFoldersParams) {
        {
            let mut folders = lock(&self.shared.folders);
            for f in &params.event.removed {
                if let Some(p) = f.uri.to_file_path() {
                    folders.retain(|x| x != &*p);
                }
            }
            for f in &params.event.added {
                if let Some(p) = f.uri.to_file_path() {
                    // A folder added twice is one folder (one program).
                    if !folders.iter().any(|x| x == &*p) {
                        folders.push(p.into_owned());
                    }
                }
            }
        }
        {
            // Drop closed files no folder holds any more.
            let folders = lock(&self.shared.folders).clone();
            let mut docs = lock(&self.shared.docs);
            docs.map.retain(|n, d| {
                d.open
                    || folders
                        .iter()
                        .any(|f| std::path::Path::new(n).starts_with(f))
            });
            docs.rev += 1;
        }
        let added: Vec<PathBuf> = params
            .event
            .added
            .iter()
            .filter_map(|f| f.uri.to_file_path().map(|p| p.into_owned()))
            .collect();
        let reads = self.scan_folders(&added);
        self.report_reads(reads).await;
        self.reload_model().await;
        self.schedule_analysis();
    }

    async fn hover(&self, params: lsp::HoverParams) -> Result<Option<lsp::Hover>> {
        let (name, pos) = text_position(&params.text_document_position_params);
        if !self.doc_exists(&name) {
            return Ok(None);
        }
        self.run(move |cx| {
            let Some(at) = cx.files.position(&name, pos) else {
                return Ok(None);
            };
            let h = cx.analysis().hover(at)?;
            Ok(h.map(|h| convert::hover(&cx.files, &h)))
        })
        .await
    }

    async fn goto_definition(
        &self,
        params: lsp::GotoDefinitionParams,
    ) -> Result<Option<lsp::GotoDefinitionResponse>> {
        let (name, pos) = text_position(&params.text_document_position_params);
        if !self.doc_exists(&name) {
            return Ok(None);
        }
        let only_calls = self.indirect_calls_only(&name);
        self.run(move |cx| {
            let Some(at) = cx.files.position(&name, pos) else {
                return Ok(None);
            };
            let targets = if only_calls {
                cx.analysis().goto_implementation(at)?
            } else {
                cx.analysis().goto_definition(at)?
            };
            Ok(convert::locations(&cx.files, &targets))
        })
        .await
    }

    async fn references(&self, params: lsp::ReferenceParams) -> Result<Option<Vec<lsp::Location>>> {
        let (name, pos) = text_position(&params.text_document_position);
        if !self.doc_exists(&name) {
            return Ok(None);
        }
        self.run(move |cx| {
            let Some(at) = cx.files.position(&name, pos) else {
                return Ok(None);
            };
            let refs = cx.analysis().references(at)?;
            Ok((!refs.is_empty()).then(|| convert::references(&cx.files, &refs)))
        })
        .await
    }

    async fn goto_implementation(
        &self,
        params: lsp::request::GotoImplementationParams,
    ) -> Result<Option<lsp::request::GotoImplementationResponse>> {
        let (name, pos) = text_position(&params.text_document_position_params);
        if !self.doc_exists(&name) {
            return Ok(None);
        }
        self.run(move |cx| {
            let Some(at) = cx.files.position(&name, pos) else {
                return Ok(None);
            };
            Ok(convert::locations(
                &cx.files,
                &cx.analysis().goto_implementation(at)?,
            ))
        })
        .await
    }

    async fn goto_declaration(
        &self,
        params: lsp::request::GotoDeclarationParams,
    ) -> Result<Option<lsp::request::GotoDeclarationResponse>> {
        let (name, pos) = text_position(&params.text_document_position_params);
        if !self.doc_exists(&name) || self.indirect_calls_only(&name) {
            return Ok(None);
        }
        self.run(move |cx| {
            let Some(at) = cx.files.position(&name, pos) else {
                return Ok(None);
            };
            Ok(convert::locations(
                &cx.files,
                &cx.analysis().goto_declaration(at)?,
            ))
        })
        .await
    }

    async fn prepare_call_hierarchy(
        &self,
        params: lsp::CallHierarchyPrepareParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyItem>>> {
        let (name, pos) = text_position(&params.text_document_position_params);
        if !self.doc_exists(&name) {
            return Ok(None);
        }
        self.run(move |cx| {
            let Some(at) = cx.files.position(&name, pos) else {
                return Ok(None);
            };
            let items: Vec<lsp::CallHierarchyItem> = cx
                .analysis()
                .call_hierarchy(at)?
                .iter()
                .filter_map(|i| convert::call_item(&cx.files, i))
                .collect();
            Ok((!items.is_empty()).then_some(items))
        })
        .await
    }

    async fn incoming_calls(
        &self,
        params: lsp::CallHierarchyIncomingCallsParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyIncomingCall>>> {
        let (file, function) = convert::call_item_function(&params.item);
        self.run(move |cx| {
            let Some(file) = cx.analysis().file_id(&file) else {
                return Ok(Some(Vec::new()));
            };
            let links = cx.analysis().incoming_calls(file, &function)?;
            Ok(Some(convert::incoming(&cx.files, &links)))
        })
        .await
    }

    async fn outgoing_calls(
        &self,
        params: lsp::CallHierarchyOutgoingCallsParams,
    ) -> Result<Option<Vec<lsp::CallHierarchyOutgoingCall>>> {
        let (file, function) = convert::call_item_function(&params.item);
        self.run(move |cx| {
            let Some(file) = cx.analysis().file_id(&file) else {
                return Ok(Some(Vec::new()));
            };
            let links = cx.analysis().outgoing_calls(file, &function)?;
            Ok(Some(convert::outgoing(&cx.files, &links)))
        })
        .await
    }

    async fn document_highlight(
        &self,
        params: lsp::DocumentHighlightParams,
    ) -> Result<Option<Vec<lsp::DocumentHighlight>>> {
        let (name, pos) = text_position(&params.text_document_position_params);
        if !self.doc_exists(&name) {
            return Ok(None);
        }
        self.run(move |cx| {
            let (Some(at), Some(doc)) = (cx.files.position(&name, pos), cx.doc(&name)) else {
                return Ok(None);
            };
            let hs = cx.analysis().highlights(at)?;
            Ok((!hs.is_empty()).then(|| convert::highlights(doc, &hs)))
        })
        .await
    }

    async fn inlay_hint(
        &self,
        params: lsp::InlayHintParams,
    ) -> Result<Option<Vec<lsp::InlayHint>>> {
        let name = convert::uri_to_name(&params.text_document.uri);
        if !self.doc_exists(&name) || !lock(&self.shared.settings).inlay_hints {
            return Ok(None);
        }
        let range = params.range;
        self.run(move |cx| {
            let (Some(r), Some(doc)) = (cx.files.range(&name, range), cx.doc(&name)) else {
                return Ok(None);
            };
            let hints = cx.analysis().inlay_hints(r)?;
            Ok(Some(convert::inlay_hints(doc, &hints)))
        })
        .await
    }
    async fn code_action(
        &self,
        params: lsp::CodeActionParams,
    ) -> Result<Option<lsp::CodeActionResponse>> {
        // Only what the client sends and the witnesses found: no analysis,
        // so the lightbulb stays quick.
        let name = convert::uri_to_name(&params.text_document.uri);
        let text = lock(&self.shared.docs)
            .map
            .get(&name)
            .map(|d| d.text.clone());
        let witnesses = &self.shared.witnesses;
        let found = |d: &lsp::Diagnostic| {
            text.as_ref()
                .and_then(|t| witnesses.for_diagnostic(&name, t, d))
        };
        let create = self.shared.create_files.load(Ordering::Relaxed);
        let mut list = actions::code_actions(
            &params.text_document.uri,
            &params.context.diagnostics,
            found,
            create,
        );
        if let Some(text) = &text {
            list.extend(actions::java_dereference_action(
                &params.text_document.uri,
                text,
                params.range.start,
                &list,
            ));
        }
        Ok((!list.is_empty()).then_some(list))
    }

    async fn execute_command(
        &self,
        params: lsp::ExecuteCommandParams,
    ) -> Result<Option<serde_json::Value>> {
        let args = &params.arguments;
        match params.command.as_str() {
            actions::FIND_INPUT => self.find_input(args).await.map(Some),
            actions::WRITE_TEST => self.write_test(args).await.map(Some),
            actions::SHOW_WITNESS => self.show_witness(args).await.map(Some),
            other => Err(Error::invalid_params(format!(
                "pointee has no command `{other}` (it has {})",
                actions::COMMANDS.join(", ")
            ))),
        }
    }
}

/// What a witness search answered, converted for the client.
struct Searched {
    line: u32,
    outcome: &'static str,
    report: String,
    /// A faulting input, for the test and to mark warnings confirmed.
    found: Option<actions::Found>,
}

impl Backend {
    /// A command that cannot run where it was asked: the user reads why,
    /// and the answer says it.
    async fn refuse(&self, message: String) -> serde_json::Value {
        self.client
            .show_message(lsp::MessageType::WARNING, &message)
            .await;
        serde_json::json!({"outcome": "error", "message": message})
    }

    /// `pointee.findInput {uri, position}`: searches a witness input for
    /// the dereference there (pointee-ide, off the request loop, within
    /// `witness` bounds of the settings, stopped by an edit or
    /// `$/cancelRequest`), shows the report, marks the warnings it
    /// confirms and offers to write the test.
    async fn find_input(&self, args: &[serde_json::Value]) -> Result<serde_json::Value> {
        let Some((name, pos)) = actions::position_arg(args) else {
            return Err(Error::invalid_params(
                "pointee.findInput takes [{uri, position}]",
            ));
        };
        if !self.doc_exists(&name) {
            return Ok(self
                .refuse(format!("pointee: {name}: not a document pointee knows"))
                .await);
        }
        let (bounds, malloc_may_fail) = {
            let s = lock(&self.shared.settings);
            (s.witness, !s.config.c_assume_alloc_succeeds)
        };
        let source = name.clone();
        let searched = self
            .run(move |cx| {
                let Some(at) = cx.files.position(&source, pos) else {
                    return Ok(Err("no such position".to_string()));
                };
                let options = pointee_ide::WitnessOptions {
                    bounds,
                    malloc_may_fail,
                    ..Default::default()
                };
                let answer = match cx.analysis().witness(at, options)? {
                    Ok(a) => a,
                    Err(e) => return Ok(Err(e.describe())),
                };
                let line = convert::line_of(&cx.files, answer.stmt).unwrap_or(0);
                let found = match (
                    &answer.outcome,
                    cx.doc(&source),
                    cx.files.lsp_range(answer.stmt),
                ) {
                    (pointee_ide::Outcome::Found(w, _), Some(doc), Some(stmt)) => w
                        .fault
                        .zip(match answer.java {
                            Some(_) => answer.java_test(
                                &actions::test_class(&source, line),
                                actions::file_name(&source),
                                line,
                            ),
                            None => answer.c_test(actions::file_name(&source), line),
                        })
                        .map(|(fault, text)| actions::Found {
                            file: source.clone(),
                            text: doc.text.clone(),
                            stmt,
                            fault,
                            confirmed: w.confirmed(),
                            report: None,
                            test: actions::TestFile {
                                path: actions::test_path(&source, line),
                                text,
                            },
                        }),
                    _ => None,
                };
                Ok(Ok(Searched {
                    line,
                    outcome: match answer.outcome {
                        pointee_ide::Outcome::Found(..) => "found",
                        pointee_ide::Outcome::NoneWithinBounds(_) => "none-within-bounds",
                        pointee_ide::Outcome::BudgetExhausted(_) => "budget-exhausted",
                        pointee_ide::Outcome::NoFunction => "no-function",
                    },
                    report: convert::witness_report(&cx.files, &answer),
                    found,
                }))
            })
            .await?;
        let s = match searched {
            Ok(s) => s,
            Err(why) => {
                let message = format!(
                    "pointee: no witness search at {name}:{}: {why}",
                    pos.line + 1
                );
                return Ok(self.refuse(message).await);
            }
        };
        let report = self.show_report(&name, s.line, "input", &s.report).await;
        let mut answer = serde_json::json!({
            "outcome": s.outcome,
            "report": report.as_ref().map(|u| u.as_str()),
        });
        if let Some(mut found) = s.found {
            found.report = report;
            answer["fault"] = serde_json::json!(found.fault.code());
            answer["confirmed"] = serde_json::json!(found.confirmed);
            answer["test"] = serde_json::json!(found.test.path);
            self.shared.witnesses.insert(found.clone());
            // Publish again, the warnings it confirms marked.
            let rev = lock(&self.shared.docs).rev;
            tokio::spawn(analyse_and_publish(
                self.shared.clone(),
                self.client.clone(),
                rev,
            ));
            // Offer the test without holding the command's answer.
            let (shared, client) = (self.shared.clone(), self.client.clone());
            tokio::spawn(async move {
                let write = lsp::MessageActionItem {
                    title: "Write the test".into(),
                    properties: HashMap::new(),
                };
                let asked = client
                    .show_message_request(
                        lsp::MessageType::INFO,
                        format!(
                            "pointee: an input makes line {} fault ({}). Write a test that builds it ({})?",
                            s.line,
                            found.fault.describe(),
                            actions::file_name(&found.test.path)
                        ),
                        Some(vec![write.clone()]),
                    )
                    .await;
                if let Ok(Some(chosen)) = asked {
                    if chosen.title == write.title {
                        if let Err(why) = write_test_file(&shared, &client, &found.test).await {
                            client
                                .show_message(lsp::MessageType::ERROR, format!("pointee: {why}"))
                                .await;
                        }
                    }
                }
            });
        }
        Ok(answer)
    }

    /// `pointee.writeWitnessTest {uri, position}`: writes the test of the
    /// witness input found for the statement there.
    async fn write_test(&self, args: &[serde_json::Value]) -> Result<serde_json::Value> {
        let Some((name, pos)) = actions::position_arg(args) else {
            return Err(Error::invalid_params(
                "pointee.writeWitnessTest takes [{uri, position}]",
            ));
        };
        let text = lock(&self.shared.docs)
            .map
            .get(&name)
            .map(|d| d.text.clone());
        let Some(found) = text.and_then(|t| self.shared.witnesses.at(&name, &t, pos)) else {
            let message = format!(
                "pointee: no witness input found at {name}:{} (run \"Find an input that triggers this\" first)",
                pos.line + 1
            );
            return Ok(self.refuse(message).await);
        };
        Ok(
            match write_test_file(&self.shared, &self.client, &found.test).await {
                Ok(()) => serde_json::json!({"outcome": "written", "test": found.test.path}),
                Err(why) => self.refuse(format!("pointee: {why}")).await,
            },
        )
    }

    /// `pointee.showWitness {uri, range, code}`: the related locations of
    /// the diagnostic there, as a document.
    async fn show_witness(&self, args: &[serde_json::Value]) -> Result<serde_json::Value> {
        let Some((name, range, code)) = actions::diagnostic_arg(args) else {
            return Err(Error::invalid_params(
                "pointee.showWitness takes [{uri, range, code}]",
            ));
        };
        if !self.doc_exists(&name) {
            return Ok(self
                .refuse(format!("pointee: {name}: not a document pointee knows"))
                .await);
        }
        let config = lock(&self.shared.settings).diagnostics.clone();
        let source = name.clone();
        let report = self
            .run(move |cx| {
                let (Some(file), Some(doc)) = (cx.analysis().file_id(&source), cx.doc(&source))
                else {
                    return Ok(None);
                };
                let found = cx
                    .analysis()
                    .diagnostics(file, &config)?
                    .into_iter()
                    .find(|d| d.code == code && convert::range(&doc.lines, d.range.range) == range);
                Ok(found.map(|d| convert::related_report(&cx.files, &d)))
            })
            .await?;
        let Some(report) = report else {
            let message = format!(
                "pointee: no such diagnostic at {name}:{} now (the file changed?)",
                range.start.line + 1
            );
            return Ok(self.refuse(message).await);
        };
        let uri = self
            .show_report(&name, range.start.line + 1, "witness", &report)
            .await;
        Ok(serde_json::json!({"outcome": "shown", "report": uri.as_ref().map(|u| u.as_str())}))
    }

    /// Writes a Markdown report to the temporary folder and shows it: as a
    /// document where the client opens them (`window/showDocument`), else
    /// as a message with the text. The report's URI, when it was written.
    async fn show_report(&self, source: &str, line: u32, what: &str, md: &str) -> Option<lsp::Uri> {
        let path = actions::report_path(source, line, what);
        let written =
            std::fs::create_dir_all(actions::report_dir()).and_then(|_| std::fs::write(&path, md));
        let uri = written
            .ok()
            .and_then(|_| convert::name_to_uri(&path.to_string_lossy()));
        let shown = match &uri {
            Some(uri) if self.shared.show_document.load(Ordering::Relaxed) => self
                .client
                .show_document(lsp::ShowDocumentParams {
                    uri: uri.clone(),
                    external: None,
                    take_focus: Some(true),
                    selection: None,
                })
                .await
                .unwrap_or(false),
            _ => false,
        };
        if !shown {
            self.client.show_message(lsp::MessageType::INFO, md).await;
        }
        uri
    }
}

/// Creates a test file: by a workspace edit where the client applies ones
/// that create files (the editor then has it, unsaved edits and undo
/// included), else on the disk; then opens it where the client can.
async fn write_test_file(
    shared: &Shared,
    client: &Client,
    test: &actions::TestFile,
) -> std::result::Result<(), String> {
    let by_edit = match actions::create_edit(test) {
        Some(edit) if shared.create_files.load(Ordering::Relaxed) => {
            client.apply_edit(edit).await.is_ok_and(|r| r.applied)
        }
        _ => false,
    };
    if !by_edit {
        std::fs::write(&test.path, &test.text).map_err(|e| format!("{}: {e}", test.path))?;
    }
    if let Some(uri) = convert::name_to_uri(&test.path) {
        if shared.show_document.load(Ordering::Relaxed) {
            let _ = client
                .show_document(lsp::ShowDocumentParams {
                    uri,
                    external: None,
                    take_focus: Some(true),
                    selection: None,
                })
                .await;
        }
    }
    client
        .show_message(
            lsp::MessageType::INFO,
            format!(
                "pointee: wrote {} (build it with `gcc -g -fsanitize=address`)",
                test.path
            ),
        )
        .await;
    Ok(())
}

#[cfg(test)]
mod tests;
