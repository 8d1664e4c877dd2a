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
pub use model::{is_model_file, CFolder, CModel};
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
    c_folders: Option<Vec<CFolder>>,
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

    /// The workspace's folders, each with its C program model: with two or
    /// more, the files under each folder form a program of their own (its
    /// model's units, preprocessed as it says, from its entries); files
    /// under no folder form another. With one, its model is the
    /// workspace's (as `set_c_model`).
    pub fn set_c_folders(&mut self, folders: Vec<CFolder>) {
        self.c_folders = Some(folders);
    }

    /// Files beneath the workspace's own (the system's: headers on disk)
    /// may have changed: C units are preprocessed again.
    pub fn system_changed(&mut self) {
        self.system_changed = true;
    }
}

/// The state of the workspace: the database and which files form which
/// program. Every C and Java file forms one program per language (per
/// workspace folder, when there are several: [`Change::set_c_folders`]);
/// when the C files of one cannot be linked (two `main`s, as in a folder
/// of examples), each `.c` file is also analysed on its own together with
/// the headers, and answers for that file come from there.
pub struct AnalysisHost {
    db: Database,
    /// The files under no folder of `folders` (all of them, with one
    /// folder or none).
    main: Project,
    /// The program of each folder (root, program), when there are several.
    folders: Arc<Vec<(String, Project)>>,
    /// Their models, in the same order.
    folder_models: Vec<CFolder>,
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
            folders: Arc::default(),
            folder_models: Vec::new(),
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
            folders: self.folders.clone(),
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
        let mut model_changed = change.c_model.as_ref().is_some_and(|m| *m != self.c_model);
        if let Some(model) = change.c_model {
            self.c_model = model;
        }
        if let Some(mut folders) = change.c_folders {
            // A folder given twice is one; one folder is the workspace;
            // several are programs of their own.
            let mut seen = std::collections::BTreeSet::new();
            folders.retain(|f| seen.insert(f.root.clone()));
            let (model, folders) = if folders.len() >= 2 {
                (None, folders)
            } else {
                (folders.into_iter().next().and_then(|f| f.model), Vec::new())
            };
            if model != self.c_model || folders != self.folder_models {
                model_changed = true;
                self.c_model = model;
                self.folder_models = folders;
            }
        }
        let config_given = change.config.is_some();
        if let Some(config) = change.config {
            self.config = config;
        }
        if listed || model_changed {
            // In path order (the map's).
            let files: Vec<FileId> = self.files.values().copied().collect();
            let mut groups = vec![Vec::new(); self.folder_models.len() + 1];
            for &f in &files {
                if !self.outside_model(f) {
                    groups[self.folder_index(f.path(&self.db)).map_or(0, |i| i + 1)].push(f);
                }
            }
            let mut groups = groups.into_iter();
            let in_main = groups.next().unwrap_or_default();
            if *self.main.files(&self.db) != in_main {
                self.db.will_write();
                self.main.set_files(&mut self.db).to(in_main);
            }
            let mut folders = Vec::new();
            for (folder, in_folder) in self.folder_models.iter().zip(groups) {
                let known = self.folders.iter().find(|(root, _)| *root == folder.root);
                let p = match known {
                    Some(&(_, p)) => {
                        if *p.files(&self.db) != in_folder {
                            self.db.will_write();
                            p.set_files(&mut self.db).to(in_folder);
                        }
                        p
                    }
                    None => {
                        Project::new(&self.db, in_folder, self.config_with(folder.model.as_ref()))
                    }
                };
                folders.push((folder.root.clone(), p));
            }
            if *self.folders != folders {
                self.folders = Arc::new(folders);
            }
            // C includes find the workspace's files before the system's.
            pointee_db::set_c_files(&mut self.db, &files);
        }
        if config_given || model_changed {
            let config = self.config_with(self.c_model.as_ref());
            pointee_db::set_config(&mut self.db, self.main, config);
            for (i, &(_, p)) in self.folders.clone().iter().enumerate() {
                let config = self.config_with(self.folder_models[i].model.as_ref());
                pointee_db::set_config(&mut self.db, p, config);
            }
        }
        let unit_configs = match change.unit_configs {
            Some(configs) => Some(configs),
            None if model_changed => Some(
                self.c_model
                    .iter()
                    .chain(self.folder_models.iter().filter_map(|f| f.model.as_ref()))
                    .flat_map(|m| m.configs.clone())
                    .collect(),
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

    /// The configuration as given, from `model`'s entries unless it names
    /// some.
    fn config_with(&self, model: Option<&CModel>) -> Config {
        let mut config = self.config.clone();
        if config.c_entries.is_none() {
            config.c_entries = model.and_then(|m| m.entries.clone());
        }
        config
    }

    /// The folder (of several) a path is under: the innermost one.
    fn folder_index(&self, path: &str) -> Option<usize> {
        innermost(self.folder_models.iter().map(|f| f.root.as_str()), path)
    }

    /// Whether a file is a `.c` file the C program model of its folder
    /// leaves out.
    fn outside_model(&self, f: FileId) -> bool {
        let path = f.path(&self.db);
        let model = match self.folder_index(path) {
            Some(i) => self.folder_models[i].model.as_ref(),
            None => self.c_model.as_ref(),
        };
        path.ends_with(".c")
            && model
                .and_then(|m| m.units.as_ref())
                .is_some_and(|units| !units.contains(&pointee_project::paths::normalize(path)))
    }

    /// One program per `.c` file (with the headers) while the C files of a
    /// program (the workspace's, or a folder's) do not link, and for each
    /// `.c` file its model leaves out; none otherwise.
    fn split_if_unlinked(&mut self) {
        let mut singles = BTreeMap::new();
        let groups: Vec<(Option<usize>, Project)> = std::iter::once((None, self.main))
            .chain(
                self.folders
                    .iter()
                    .enumerate()
                    .map(|(i, &(_, p))| (Some(i), p)),
            )
            .collect();
        for (group, project) in groups {
            let db = &self.db;
            let c_files: Vec<FileId> = project
                .files(db)
                .iter()
                .copied()
                .filter(|f| Lang::of_path(f.path(db)) == Some(Lang::C))
                .collect();
            let (headers, sources): (Vec<FileId>, Vec<FileId>) = c_files
                .into_iter()
                .partition(|f| !Lang::is_c_unit(f.path(db)));
            let broken = sources.len() > 1 && pointee_db::c_program(db, project).is_err();
            let left_out: Vec<FileId> = self
                .files
                .values()
                .copied()
                .filter(|&f| self.folder_index(f.path(db)) == group && self.outside_model(f))
                .collect();
            let alone: Vec<FileId> = if broken {
                sources.into_iter().chain(left_out).collect()
            } else {
                left_out
            };
            let config = project.config(&self.db).clone();
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
            .chain(self.folders.iter().map(|&(_, p)| p))
            .chain(self.singles.values().copied())
            .collect();
        self.db.keep_engines_of(&in_use);
    }
}

/// The innermost of `roots` that `path` is under.
fn innermost<'r>(roots: impl Iterator<Item = &'r str>, path: &str) -> Option<usize> {
    roots
        .enumerate()
        .filter(|(_, root)| {
            let root = root.trim_end_matches('/');
            path.strip_prefix(root)
                .is_some_and(|rest| rest.starts_with('/'))
        })
        .max_by_key(|(_, root)| root.len())
        .map(|(i, _)| i)
}

/// A snapshot of the workspace: answers every question. Cheap to clone;
/// answers on another thread while the host waits to write (a write cancels
/// the snapshot's queries: they return `Cancelled`).
#[derive(Clone)]
pub struct Analysis {
    db: Database,
    main: Project,
    folders: Arc<Vec<(String, Project)>>,
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
        let path = file.path(&self.db);
        self.singles
            .get(path)
            .copied()
            .unwrap_or_else(|| self.program_of_path(path))
    }

    /// The program of the files under the workspace folder `path` is in (of
    /// several), or of the workspace.
    pub(crate) fn program_of_path(&self, path: &str) -> Project {
        innermost(self.folders.iter().map(|(root, _)| root.as_str()), path)
            .map_or(self.main, |i| self.folders[i].1)
    }

    /// Every program: the workspace's, the folders', the single files'.
    pub(crate) fn programs(&self) -> impl Iterator<Item = Project> + '_ {
        std::iter::once(self.main)
            .chain(self.folders.iter().map(|&(_, p)| p))
            .chain(self.singles.values().copied())
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
