//! pointee-ide: the one answer layer. Every question users ask (hover,
//! callees, go to definition/declaration/implementation, highlights,
//! references, inlay hints, call hierarchy, diagnostics, alias checks,
//! dump, graphs) is answered here, on top of the incremental database
//! (pointee-db), as plain data: file ids and byte ranges, names and typed
//! kinds.
//!
//! In the manner of rust-analyzer's `AnalysisHost` / `Analysis`: an
//! [`AnalysisHost`] takes changes (file texts, removed files, the
//! configuration) and hands out cheap [`Analysis`] snapshots; a snapshot has
//! one method per feature, each in its own module, and answers or returns
//! [`Cancelled`] when a newer change is being applied. The language server
//! converts and schedules; the command line is a one-shot use of the same
//! host.
//!
//! It must never do I/O, and never know about LSP, JSON, UTF-16 or the
//! command line's 1-based positions: those are converted at the edge.

mod answer;
mod c;
mod call_hierarchy;
mod callees;
mod check;
mod checks;
mod diagnostics;
mod dump;
mod goto;
mod graph;
mod highlights;
mod hover;
mod inlay_hints;
mod java;
mod java_checks;
mod java_tested;
mod model;
mod program;
mod references;
mod syntax;
mod witness;

pub use answer::*;
pub use checks::RULES;
pub use dump::{Dump, DumpConfig, DumpFunction, DumpLine, DumpNote};
pub use graph::{
    EdgeKind, Graph, GraphEdge, GraphFocus, GraphKind, GraphNode, GraphRequest, NodeKind,
};
pub use java_checks::JAVA_RULES;
pub use model::{is_model_file, CModel};
pub use pointee_db::salsa::{CancellationToken, Cancelled};
pub use pointee_db::{
    Config, FileSystem, Lang, PartialRun, System, TreeHandle, UnitConfig, DEFAULT_MAX_MEMORY_MB,
};
pub use pointee_ir::{LineIndex, Range};
pub use witness::{
    field_text, type_text, Bounds, Decision, Fault, InputObject, Inputs, Outcome, PathStep, Stats,
    Value, Witness, WitnessAnswer, WitnessError, WitnessOptions,
};

use pointee_db::salsa::Setter;
use pointee_db::{Database, Project};
use std::collections::{BTreeMap, HashMap};
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// A file of the workspace: the database's source-file input (cheap to
/// copy; stable for the host's lifetime, also across removal and re-adding).
pub type FileId = pointee_db::SourceFile;

/// An answer, or `Cancelled` when a newer change is being applied.
pub type Cancellable<T> = Result<T, Cancelled>;

/// A file's new text (with the editor's tree of it), or `None`: removed.
type FileChange = Option<(Arc<str>, Option<TreeHandle>)>;

/// A batch of changes to apply at once.
#[derive(Default)]
pub struct Change {
    files: Vec<(String, FileChange)>,
    config: Option<Config>,
    unit_configs: Option<BTreeMap<String, UnitConfig>>,
    c_model: Option<Option<CModel>>,
    system_changed: bool,
}

impl Change {
    pub fn new() -> Change {
        Change::default()
    }

    /// Every file of `files` (path, text), and the configuration.
    pub fn of_files<P: Into<String>, T: Into<Arc<str>>>(
        files: impl IntoIterator<Item = (P, T)>,
        config: Config,
    ) -> Change {
        let mut change = Change::new();
        for (path, text) in files {
            change.set_file(path, text);
        }
        change.set_config(config);
        change
    }

    /// Adds a file or replaces its text.
    pub fn set_file(&mut self, path: impl Into<String>, text: impl Into<Arc<str>>) {
        self.files.push((path.into(), Some((text.into(), None))));
    }

    /// Adds a file or replaces its text, with the tree an editor re-parsed
    /// incrementally from that text (lowering then reads it, parsing
    /// nothing).
    pub fn set_file_parsed(&mut self, path: impl Into<String>, text: Arc<str>, tree: TreeHandle) {
        self.files.push((path.into(), Some((text, Some(tree)))));
    }

    pub fn remove_file(&mut self, path: impl Into<String>) {
        self.files.push((path.into(), None));
    }

    pub fn set_config(&mut self, config: Config) {
        self.config = Some(config);
    }

    /// How each C unit (by path) is preprocessed; a unit not named gets
    /// the default.
    pub fn set_unit_configs(&mut self, configs: BTreeMap<String, UnitConfig>) {
        self.unit_configs = Some(configs);
    }

    /// The C program model of the workspace (`None`: none, every `.c`
    /// file is a unit with the default configuration). Its units form the
    /// program (other `.c` files are analysed on their own), preprocessed
    /// as it says, from its entries unless the configuration names some.
    pub fn set_c_model(&mut self, model: Option<CModel>) {
        self.c_model = Some(model);
    }

    /// Files beneath the workspace's own (the system's: headers on disk)
    /// may have changed: C units are preprocessed again.
    pub fn system_changed(&mut self) {
        self.system_changed = true;
    }
}

/// The state of the workspace: the database and which files form which
/// program. Every C and Java file forms one program per language; when the
/// C files cannot be linked into one (two `main`s, as in a folder of
/// examples), each `.c` file is also analysed on its own together with the
/// workspace's headers, and answers for that file come from there.
pub struct AnalysisHost {
    db: Database,
    main: Project,
    /// `.c` file path → its own program, while the C files do not link.
    singles: Arc<BTreeMap<String, Project>>,
    /// The files in the workspace, by path.
    files: Arc<BTreeMap<String, FileId>>,
    /// Every file ever seen (a file removed and added again keeps its id).
    inputs: HashMap<String, FileId>,
    /// The C program model, when one was given.
    c_model: Option<CModel>,
    /// The configuration as last given (the model's entries are added).
    config: Config,
}

impl Default for AnalysisHost {
    fn default() -> Self {
        AnalysisHost::new(Database::default())
    }
}

impl AnalysisHost {
    /// A host that reads what the workspace's files do not hold (C
    /// `#include`s) from `system` (the disk, given by the edge).
    pub fn with_system(system: System) -> AnalysisHost {
        AnalysisHost::new(Database::default().with_system(system))
    }

    /// A host on `db` (a database with an event hook, for tests).
    pub fn new(db: Database) -> AnalysisHost {
        let main = Project::new(&db, Vec::new(), Config::default());
        AnalysisHost {
            db,
            main,
            singles: Arc::default(),
            files: Arc::default(),
            inputs: HashMap::new(),
            c_model: None,
            config: Config::default(),
        }
    }

    /// A host holding `files` (path, text) as one change: the command
    /// line's and the tests' way in.
    pub fn with_files<P: Into<String>, T: Into<Arc<str>>>(
        files: impl IntoIterator<Item = (P, T)>,
        config: Config,
    ) -> AnalysisHost {
        let mut host = AnalysisHost::default();
        host.apply_change(Change::of_files(files, config));
        host
    }

    /// A snapshot to answer questions on (cheap: a database clone).
    pub fn analysis(&self) -> Analysis {
        Analysis {
            db: self.db.clone(),
            main: self.main,
            singles: self.singles.clone(),
            files: self.files.clone(),
        }
    }

    /// The database (for benchmarks and tests of incrementality).
    pub fn raw_database(&self) -> &Database {
        &self.db
    }

    /// Applies a change. Writing an input cancels the queries of every
    /// snapshot and waits for them to unwind, so call this off any event
    /// loop.
    pub fn apply_change(&mut self, change: Change) {
        let mut listed = false;
        for (path, text) in change.files {
            if Lang::of_path(&path).is_none() {
                continue;
            }
            let Some((text, tree)) = text else {
                listed |= Arc::make_mut(&mut self.files).remove(&path).is_some();
                continue;
            };
            let file = match self.inputs.get(&path) {
                Some(&f) => {
                    let same = Arc::ptr_eq(f.text(&self.db), &text)
                        || (tree.is_none() && **f.text(&self.db) == *text);
                    if !same {
                        self.db.set_text(f, text, tree);
                    }
                    f
                }
                None => {
                    let f = FileId::new(&self.db, path.clone(), text, tree);
                    self.inputs.insert(path.clone(), f);
                    f
                }
            };
            if !self.files.contains_key(&path) {
                Arc::make_mut(&mut self.files).insert(path, file);
                listed = true;
            }
        }
        let model_changed = change.c_model.as_ref().is_some_and(|m| *m != self.c_model);
        if let Some(model) = change.c_model {
            self.c_model = model;
        }
        if listed || model_changed {
            // In path order (the map's).
            let files: Vec<FileId> = self.files.values().copied().collect();
            let in_main: Vec<FileId> = files
                .iter()
                .copied()
                .filter(|&f| !self.outside_model(f))
                .collect();
            if *self.main.files(&self.db) != in_main {
                self.db.will_write();
                self.main.set_files(&mut self.db).to(in_main);
            }
            // C includes find the workspace's files before the system's.
            pointee_db::set_c_files(&mut self.db, &files);
        }
        let config_given = change.config.is_some();
        if let Some(config) = change.config {
            self.config = config;
        }
        if config_given || model_changed {
            let mut config = self.config.clone();
            if config.c_entries.is_none() {
                config.c_entries = self.c_model.as_ref().and_then(|m| m.entries.clone());
            }
            pointee_db::set_config(&mut self.db, self.main, config);
        }
        let unit_configs = match change.unit_configs {
            Some(configs) => Some(configs),
            None if model_changed => Some(
                self.c_model
                    .as_ref()
                    .map(|m| m.configs.clone())
                    .unwrap_or_default(),
            ),
            None => None,
        };
        if let Some(configs) = unit_configs {
            pointee_db::set_c_configs(&mut self.db, configs);
        }
        if change.system_changed {
            pointee_db::system_changed(&mut self.db);
        }
        self.split_if_unlinked();
    }

    /// Whether a file is a `.c` file the C program model leaves out.
    fn outside_model(&self, f: FileId) -> bool {
        let path = f.path(&self.db);
        path.ends_with(".c")
            && self
                .c_model
                .as_ref()
                .and_then(|m| m.units.as_ref())
                .is_some_and(|units| !units.contains(&pointee_project::paths::normalize(path)))
    }

    /// One program per `.c` file (with the headers) while the C files do not
    /// link, and for each `.c` file the model leaves out; none otherwise.
    fn split_if_unlinked(&mut self) {
        let db = &self.db;
        let c_files: Vec<FileId> = self
            .main
            .files(db)
            .iter()
            .copied()
            .filter(|f| Lang::of_path(f.path(db)) == Some(Lang::C))
            .collect();
        let (headers, sources): (Vec<FileId>, Vec<FileId>) = c_files
            .into_iter()
            .partition(|f| !Lang::is_c_unit(f.path(db)));
        let broken = sources.len() > 1 && pointee_db::c_program(db, self.main).is_err();
        let left_out: Vec<FileId> = self
            .files
            .values()
            .copied()
            .filter(|&f| self.outside_model(f))
            .collect();
        let alone: Vec<FileId> = if broken {
            sources.into_iter().chain(left_out).collect()
        } else {
            left_out
        };
        let mut singles = BTreeMap::new();
        if !alone.is_empty() {
            let config = self.main.config(&self.db).clone();
            for f in alone {
                let path = f.path(&self.db).clone();
                let mut files = headers.clone();
                files.push(f);
                files.sort_by(|a, b| a.path(&self.db).cmp(b.path(&self.db)));
                let p = match self.singles.get(&path) {
                    Some(&p) => {
                        if *p.files(&self.db) != files {
                            self.db.will_write();
                            p.set_files(&mut self.db).to(files);
                        }
                        pointee_db::set_config(&mut self.db, p, config.clone());
                        p
                    }
                    None => Project::new(&self.db, files, config.clone()),
                };
                singles.insert(path, p);
            }
        }
        if *self.singles != singles {
            self.singles = Arc::new(singles);
        }
        let in_use: Vec<Project> = std::iter::once(self.main)
            .chain(self.singles.values().copied())
            .collect();
        self.db.keep_engines_of(&in_use);
    }
}

/// A snapshot of the workspace: answers every question. Cheap to clone;
/// answers on another thread while the host waits to write (a write cancels
/// the snapshot's queries: they return `Cancelled`).
#[derive(Clone)]
pub struct Analysis {
    db: Database,
    main: Project,
    singles: Arc<BTreeMap<String, Project>>,
    files: Arc<BTreeMap<String, FileId>>,
}

impl Analysis {
    /// Runs `f`; a query cancelled by a newer change makes it `Cancelled`.
    fn with_db<T>(&self, f: impl FnOnce(&Analysis) -> T) -> Cancellable<T> {
        Cancelled::catch(AssertUnwindSafe(|| f(self)))
    }

    /// A token that cancels this snapshot's work from another thread: its
    /// queries, and a witness search running on it, then end in
    /// `Cancelled` (an editor's cancelled request). It is this handle's
    /// own: a clone of the snapshot has another.
    pub fn cancellation_token(&self) -> CancellationToken {
        pointee_db::salsa::Database::cancellation_token(&self.db)
    }

    pub(crate) fn db(&self) -> &Database {
        &self.db
    }

    /// A sort key of a range: file path, then offsets.
    pub(crate) fn key(&self, r: FileRange) -> (&str, u32, u32) {
        (self.file_path(r.file), r.range.start, r.range.end)
    }

    /// The program that answers for `file`.
    pub(crate) fn project_of(&self, file: FileId) -> Project {
        self.singles
            .get(file.path(&self.db))
            .copied()
            .unwrap_or(self.main)
    }

    /// The program of every file of a language.
    pub(crate) fn main(&self) -> Project {
        self.main
    }

    /// The programs of single `.c` files, when the C files do not link.
    pub(crate) fn singles(&self) -> &BTreeMap<String, Project> {
        &self.singles
    }

    /// The file with this path, when it is in the workspace.
    pub fn file_id(&self, path: &str) -> Option<FileId> {
        self.files.get(path).copied()
    }

    /// Every file of the workspace, in path order.
    pub fn files(&self) -> impl Iterator<Item = (&str, FileId)> {
        self.files.iter().map(|(p, &f)| (p.as_str(), f))
    }

    pub fn file_path(&self, file: FileId) -> &str {
        file.path(&self.db)
    }

    pub fn file_text(&self, file: FileId) -> Arc<str> {
        file.text(&self.db).clone()
    }

    pub fn lang(&self, file: FileId) -> Option<Lang> {
        Lang::of_path(self.file_path(file))
    }

    /// The file's line index (bytes to lines and columns).
    pub fn line_index(&self, file: FileId) -> Cancellable<Arc<LineIndex>> {
        self.with_db(|a| pointee_db::line_index(&a.db, file).clone())
    }

    /// Why the program of a language cannot be analysed (C files that do
    /// not link, a Java entry or sensitivity that does not exist), if so.
    pub fn program_error(&self, lang: Lang) -> Cancellable<Option<InputError>> {
        self.with_db(|a| a.program_error_now(a.main, lang))
    }

    pub(crate) fn program_error_now(&self, project: Project, lang: Lang) -> Option<InputError> {
        match lang {
            Lang::C => pointee_db::c_program(&self.db, project)
                .as_ref()
                .err()
                .map(|e| InputError(e.clone())),
            Lang::Java => pointee_db::java_engine(&self.db, project)
                .0
                .analysis()
                .err()
                .map(|e| InputError(e.to_string())),
        }
    }

    /// The points-to set of the innermost pointer expression at `pos`,
    /// merged over calling contexts and per context; `None` when there is
    /// no pointer expression there (or the program cannot be analysed).
    pub fn hover(&self, pos: FilePosition) -> Cancellable<Option<Hover>> {
        self.with_db(|a| hover::hover(a, pos))
    }

    /// For the dereference at `pos`: an input of its function that makes
    /// it fault (NULL or freed), with the path, or what the bounded search
    /// explored without finding one.
    pub fn witness(
        &self,
        pos: FilePosition,
        options: WitnessOptions,
    ) -> Cancellable<Result<WitnessAnswer, WitnessError>> {
        self.with_db(|a| witness::witness(a, pos, options))
    }

    /// Test generation for the function around `pos`: the input of every
    /// path that ends within the bounds.
    pub fn witness_inputs(
        &self,
        pos: FilePosition,
        options: WitnessOptions,
    ) -> Cancellable<Result<Inputs, WitnessError>> {
        self.with_db(|a| witness::inputs(a, pos, options))
    }

    /// The possible callees of the innermost call at `pos`; `None` when
    /// there is no call there.
    pub fn callees(&self, pos: FilePosition) -> Cancellable<Option<Vec<Callee>>> {
        self.with_db(|a| callees::callees(a, pos))
    }

    /// On the callee of an indirect or virtual call: every possible callee;
    /// elsewhere the declaration of what is named at `pos`.
    pub fn goto_definition(&self, pos: FilePosition) -> Cancellable<Vec<NavTarget>> {
        self.with_db(|a| goto::definition(a, pos))
    }

    /// The declaration of what is named at `pos`.
    pub fn goto_declaration(&self, pos: FilePosition) -> Cancellable<Vec<NavTarget>> {
        self.with_db(|a| goto::declaration(a, pos))
    }

    /// On the callee of an indirect or virtual call: every possible callee.
    pub fn goto_implementation(&self, pos: FilePosition) -> Cancellable<Vec<NavTarget>> {
        self.with_db(|a| goto::implementation(a, pos))
    }

    /// The expressions of the function at `pos` that may point where the
    /// one under the cursor points.
    pub fn highlights(&self, pos: FilePosition) -> Cancellable<Vec<Highlight>> {
        self.with_db(|a| highlights::highlights(a, pos))
    }

    /// Across the program: the pointer expressions that may point where the
    /// expression at `pos` points (or to the variable or field it names),
    /// must-aliases first, and the stores that may write it.
    pub fn references(&self, pos: FilePosition) -> Cancellable<Vec<Reference>> {
        self.with_db(|a| references::references(a, pos))
    }

    /// What each pointer assignment in `range` leaves its pointer pointing to.
    pub fn inlay_hints(&self, range: FileRange) -> Cancellable<Vec<InlayHint>> {
        self.with_db(|a| inlay_hints::inlay_hints(a, range))
    }

    /// The functions the call hierarchy starts from at `pos`.
    pub fn call_hierarchy(&self, pos: FilePosition) -> Cancellable<Vec<CallItem>> {
        self.with_db(|a| call_hierarchy::prepare(a, pos))
    }

    /// Callers of `function` (a name of the program of `file`, as in
    /// [`CallItem::name`]), with the edges resolved through function
    /// pointers and virtual dispatch.
    pub fn incoming_calls(&self, file: FileId, function: &str) -> Cancellable<Vec<CallLink>> {
        self.with_db(|a| call_hierarchy::incoming(a, file, function))
    }

    /// Callees of `function`, with the calls in its body.
    pub fn outgoing_calls(&self, file: FileId, function: &str) -> Cancellable<Vec<CallLink>> {
        self.with_db(|a| call_hierarchy::outgoing(a, file, function))
    }

    /// The diagnostics of a file.
    pub fn diagnostics(
        &self,
        file: FileId,
        config: &DiagnosticsConfig,
    ) -> Cancellable<Vec<Diagnostic>> {
        self.with_db(|a| diagnostics::diagnostics(a, file, config))
    }

    /// The alias checks, diagnostics and figures of a language's program.
    pub fn check(&self, lang: Lang) -> Cancellable<CheckReport> {
        self.with_db(|a| check::check(a, lang))
    }

    /// Whether a C analysis (the linked program's, or a single file's when
    /// the files do not link) stopped at its budget, and what it did not
    /// finish: its answers are sound but may say less.
    pub fn c_partial(&self) -> Cancellable<Option<PartialRun>> {
        self.with_db(check::c_partial)
    }

    /// Graph data for an editor to draw (`None`: the kind does not apply to
    /// the file's language: invocation graphs are C's, pointer flow graphs
    /// Java's).
    pub fn graph(&self, request: &GraphRequest) -> Cancellable<Option<Graph>> {
        self.with_db(|a| graph::graph(a, request))
    }

    /// Every function's IR (and, unless `config.facts` is off, the facts
    /// after each statement and the whole-program sections).
    pub fn dump(&self, lang: Lang, config: &DumpConfig) -> Cancellable<Dump> {
        self.with_db(|a| dump::dump(a, lang, config))
    }
}
