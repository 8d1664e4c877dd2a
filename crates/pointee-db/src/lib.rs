//! pointee-db: the incremental database behind the language server.
//!
//! Inputs are the source files (path, text and, when an editor keeps one, the
//! tree-sitter tree re-parsed incrementally from that text) and the
//! configuration. Tracked queries derive, for C:
//!
//! ```text
//! SourceFile ──c_expanded──▶ the unit preprocessed (expanded text and its
//!     │                      map back; reads the texts of its includes and
//!     │                      its configuration from CInputs)
//!     └─c_outline──▶ COutline (file scope, declarations, function spans)
//!     ├─ file_scope ──▶ what bodies may name (position-free)
//!     ├─ file_functions ──▶ names of the file's functions
//!     ├─ function_text(FunctionKey) ──▶ the definition's text
//!     │     └─ lower_function(FunctionKey) ──▶ CFile, positions relative to
//!     │           │                             the definition (+ file_scope)
//!     │           └─ c_function(FunctionKey) ──▶ one function's IR (position-free)
//!     │                 └─ function_calls(FunctionKey) ──▶ its call sites
//!     ├─ file_decls ──▶ globals, externs, records (position-free; the
//!     │                 outline's and what bodies add)
//!     └─ lower_c ──▶ CFile (IR + source maps): the outline and every
//!                    lower_function shifted to where the function is now
//!                    and mapped back to the files (pointee_c::to_source)
//! Project ──c_program──▶ the linked Program (from c_function + file_decls)
//!         ├─ c_symbols ──▶ which file defines each name of the program
//!         ──c_engine──▶ the engine's run (CEngine), kept for requests
//!         ──c_analysis──▶ its position-free results (call edges, checks)
//! ```
//!
//! For Java, lowered by unit (a top-level type declaration) as C is by
//! function:
//!
//! ```text
//! SourceFile ──java_outline──▶ FileOutline (classes' declarations, units' spans)
//!     ├─ java_file_classes ──▶ its classes (position-free)
//!     └─ java_unit_text(JavaUnitKey) ──▶ the unit's text
//! Project ──java_class_table──▶ the class table (from java_file_classes)
//! JavaUnitKey ──java_unit──▶ LoweredUnit (positions relative to the unit;
//!                            its text + the class table)
//! Project ──java_program──▶ the units assembled (IR + source maps)
//!         ──java_ir──▶ position-free; ──java_config──▶ the Java settings
//!         ──java_engine──▶ the analysis kept for requests (java_ir + java_config)
//!         ──java_analysis──▶ its position-free results
//! ```
//!
//! An edit inside a method body outlines and lowers that body's unit
//! again and no other (`JavaReuse` keeps each file's last outline); a
//! comment or a moved unit lowers none; a changed declaration
//! (class, field, method signature) changes the class table and lowers
//! again only the units whose last lowering looked that class up
//! (`java_unit_decls`: each unit records the names it read of the table,
//! `java_class_versions` gives each class a version). Switching the
//! context sensitivity runs the analysis once and lowers nothing.
//!
//! For answers (pointee-ide), per file: `line_index` and `syntax_tree`.
//!
//! Every edit of a file re-runs `c_expanded` (the preprocessor resumes the
//! unit's last run from the last checkpoint before the edit and takes the
//! rest of its output, see `docs/preprocessor.md`) and `c_outline` (it
//! parses the expanded text incrementally from the unit's last tree, and
//! keeps the last outline, positions moved, when the edit lies inside one
//! function body; else it lowers the declarations again, but no body) and
//! the O(1) per-function `function_text` projections; `lower_c` (which only shifts and assembles) runs when a
//! request needs positions, diagnostics read `file_notes`. A function
//! is lowered again only when its text or the file scope changed: editing a
//! body re-lowers that function; a comment or whitespace edit between
//! functions, or a moved function, re-lowers none; a new typedef or global
//! re-lowers all of the file's functions. A name defined twice in a file is
//! one `FunctionKey` whose text and lowering list both definitions; the
//! later one wins, as in `pointee_c::assemble`.
//!
//! Positions stay in `c_outline`, `lower_function` (relative to the
//! definition, so a move changes nothing there) and `lower_c`; `c_function`,
//! `file_decls` and everything after them see only the IR, which is
//! position-free, so their results compare equal unless the meaning
//! changed: salsa backdates
//! them and nothing downstream (per-function queries, `c_program`,
//! `c_analysis`) re-executes. Editing one function body changes only that
//! function's `c_function` value, so only its downstream per-function
//! queries re-execute (plus the whole-program ones, see below).
//!
//! The engine's results per (function, input) are its units. `c_engine`
//! re-executes when the linked program changed, and takes over the previous
//! run of the same project: only the units an edit can have changed are
//! analysed again, and callers whose inputs and callees' outputs came out
//! unchanged are kept (`pointee_flow::OwnedAnalysis::rerun_owned`; equal to
//! a scratch run, as pointee-flow's reuse tests check). Recursive cycles are
//! solved inside the engine, i.e. inside this one query: salsa cannot see
//! call chains, which are found during the analysis (function pointers).
//!
//! This crate must never depend on tokio, LSP types or serde, and never
//! answers users' questions itself: pointee-ide does, on top of it.

/// How one C unit is preprocessed (include directories, `-D`/`-U`, ...).
pub use pointee_c::Config as UnitConfig;
pub use pointee_c::{CFile, FileSystem};
use pointee_ir::Name;
use std::sync::Arc;

pub use salsa;
use salsa::Setter;

mod engine;
mod graveyard;
mod java;
mod lowering;
pub mod session;
mod symbols;
pub use engine::*;
pub use java::*;
pub use lowering::*;
pub use symbols::*;

/// A tree-sitter tree, compared by identity (a tree has no `Eq`): a new tree
/// is set together with the new text it was parsed from.
#[derive(Clone)]
pub struct TreeHandle(pub Arc<tree_sitter::Tree>);

impl PartialEq for TreeHandle {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for TreeHandle {}
impl std::hash::Hash for TreeHandle {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (Arc::as_ptr(&self.0) as usize).hash(state)
    }
}
impl std::fmt::Debug for TreeHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TreeHandle({:p})", Arc::as_ptr(&self.0))
    }
}

/// The language of a path, by extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    C,
    Java,
}

impl Lang {
    pub fn of_path(path: &str) -> Option<Lang> {
        match path.rsplit_once('.').map(|(_, e)| e)? {
            "c" | "h" => Some(Lang::C),
            "java" => Some(Lang::Java),
            _ => None,
        }
    }

    /// Whether a file of this path is a C translation unit: a C file that
    /// is not a header. Headers are read by the units that include them,
    /// never preprocessed, lowered or linked on their own (a header may
    /// define what one unit only may define, or need its includer's
    /// macros); the program model names `.c` files only.
    pub fn is_c_unit(path: &str) -> bool {
        Lang::of_path(path) == Some(Lang::C) && !path.ends_with(".h")
    }

    pub fn tree_sitter_language(self) -> tree_sitter::Language {
        match self {
            Lang::C => tree_sitter_c::LANGUAGE.into(),
            Lang::Java => tree_sitter_java::LANGUAGE.into(),
        }
    }
}

/// Parses `text` from scratch, or incrementally from `old` when `old` was
/// edited (`Tree::edit`) to match `text`.
pub fn parse(lang: Lang, text: &str, old: Option<&tree_sitter::Tree>) -> tree_sitter::Tree {
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&lang.tree_sitter_language())
        .expect("the grammar matches the tree-sitter runtime");
    parser
        .parse(text, old)
        .expect("parsing without a timeout or cancellation always yields a tree")
}

/// Settings of the analyses, as the user configured them.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Config {
    /// Java context sensitivity (`ci`, `2-obj`, ...); `None` is the default.
    pub java_cs: Option<String>,
    /// Java entry class or method.
    pub java_entry: Option<String>,
    /// The most calling contexts the C engine analyses per function
    /// (`None`: the engine's default).
    pub c_context_bound: Option<u32>,
    /// C: the functions to analyse as entries (names or `*`/`?` patterns,
    /// the program model's `entries`); `None` is the engine's rule (`main`,
    /// or every externally visible function without one).
    pub c_entries: Option<Vec<String>>,
    /// C: `malloc`, `calloc`, `realloc` and `fopen` never return `NULL`
    /// (for code bases that abort on allocation failure); by default they
    /// may.
    pub c_assume_alloc_succeeds: bool,
    /// C: the run's budget (see pointee-flow's `budget.rs`): the calls it
    /// may analyse, its time in milliseconds, and the process's memory
    /// ceiling in MB (`None`: [`DEFAULT_MAX_MEMORY_MB`]). Past any of them
    /// the run stops with a partial, sound result.
    pub c_budget_steps: Option<u64>,
    pub c_budget_ms: Option<u64>,
    pub c_max_memory_mb: Option<u64>,
}

/// The memory ceiling of a C run when the configuration gives none.
pub const DEFAULT_MAX_MEMORY_MB: u64 = 2048;

/// One source file of the program.
#[salsa::input(debug)]
pub struct SourceFile {
    #[returns(ref)]
    pub path: String,
    #[returns(ref)]
    pub text: Arc<str>,
    /// The tree parsed from `text`, when the caller keeps one (an editor's
    /// incremental re-parse); `None` makes lowering parse the text itself.
    #[returns(ref)]
    pub tree: Option<TreeHandle>,
}

/// The program: its files (in a stable order) and the configuration.
#[salsa::input(debug)]
pub struct Project {
    #[returns(ref)]
    pub files: Vec<SourceFile>,
    #[returns(ref)]
    pub config: Config,
}

/// A function of a file, by name (the unit of per-function queries; a name
/// defined twice in the file is one key).
#[salsa::interned(debug)]
pub struct FunctionKey<'db> {
    #[returns(copy)]
    pub file: SourceFile,
    #[returns(ref)]
    pub name: Name,
}

#[salsa::db]
pub trait Db: salsa::Database {
    /// What the C front end reads beside the files' texts: the files
    /// includes find first, each unit's preprocessor configuration (see
    /// `lowering::CInputs`).
    fn c_inputs(&self) -> CInputs;

    /// The files beneath the database's own (the disk, given by the edge;
    /// nothing by default) and the preprocessor's cache of lexed files.
    fn front_end(&self) -> &FrontEnd;

    /// The C engine's last run per project, which the next run reuses (see
    /// `c_engine`).
    fn last_c_engines(&self) -> &LastEngines;

    /// The Java analysis' last run per project, which the next run goes
    /// on from when the edit only added facts (see `java_engine`).
    fn last_java_engines(&self) -> &LastJavaEngines;

    /// What the Java queries reuse beyond salsa's memos: units lowered
    /// ahead from their file's tree, each file's last outline (see
    /// `JavaReuse`).
    fn java_reuse(&self) -> &std::sync::Mutex<JavaReuse>;

    /// Counts writes to the inputs: an engine run stops when it changes
    /// (see [`Database::will_write`]).
    fn writes(&self) -> Arc<std::sync::atomic::AtomicU64>;

    /// Another handle on the same storage, for one thread of a query that
    /// spreads independent queries over the cores (`java_outlines`).
    fn fork(&self) -> Box<dyn Db + Send>;
}

/// The database. Cheap to clone: clones share the storage, and a clone can
/// answer queries on another thread while the original waits to write.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
    /// Shared by clones: whichever clone runs the engine leaves its result
    /// for the next run.
    last_c_engines: Arc<LastEngines>,
    last_java_engines: Arc<LastJavaEngines>,
    java_reuse: Arc<std::sync::Mutex<JavaReuse>>,
    writes: Arc<std::sync::atomic::AtomicU64>,
    c_inputs: Option<CInputs>,
    front_end: Arc<FrontEnd>,
}

/// The C engine's last run of each project.
pub type LastEngines = std::sync::Mutex<std::collections::HashMap<Project, CEngine>>;

/// The Java analysis' last run of each project.
pub type LastJavaEngines = std::sync::Mutex<std::collections::HashMap<Project, JavaEngine>>;

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {
    fn last_c_engines(&self) -> &LastEngines {
        &self.last_c_engines
    }

    fn last_java_engines(&self) -> &LastJavaEngines {
        &self.last_java_engines
    }

    fn java_reuse(&self) -> &std::sync::Mutex<JavaReuse> {
        &self.java_reuse
    }

    fn writes(&self) -> Arc<std::sync::atomic::AtomicU64> {
        self.writes.clone()
    }

    fn c_inputs(&self) -> CInputs {
        self.c_inputs.expect("made with the database")
    }

    fn front_end(&self) -> &FrontEnd {
        &self.front_end
    }

    fn fork(&self) -> Box<dyn Db + Send> {
        Box::new(self.clone())
    }
}

impl Default for Database {
    fn default() -> Self {
        Database::on(salsa::Storage::new(None))
    }
}

impl Database {
    /// Drops the kept engine runs of projects no longer in use (their
    /// memory; a project used again starts from scratch).
    pub fn keep_engines_of(&self, projects: &[Project]) {
        self.last_c_engines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|p, _| projects.contains(p));
        self.last_java_engines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .retain(|p, _| projects.contains(p));
        let files: Vec<SourceFile> = projects
            .iter()
            .flat_map(|p| p.files(self).iter().copied())
            .collect();
        self.java_reuse
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keep_projects(projects, &files);
    }

    /// Call before writing an input: engine runs of older revisions (on
    /// other clones) stop soon instead of running to the end while the
    /// write waits for them (salsa itself cancels only between queries).
    pub fn will_write(&self) {
        self.writes
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    }

    /// A database on `storage`, with nothing kept yet.
    fn on(storage: salsa::Storage<Self>) -> Database {
        let mut db = Database {
            storage,
            last_c_engines: Arc::default(),
            last_java_engines: Arc::default(),
            java_reuse: Arc::default(),
            writes: Arc::default(),
            c_inputs: None,
            front_end: Arc::default(),
        };
        db.c_inputs = Some(
            CInputs::builder(Arc::default(), Arc::default(), 0)
                .durability(salsa::Durability::MEDIUM)
                .new(&db),
        );
        db
    }

    /// This database reading what its own files do not hold (C includes)
    /// from `system` (the disk, at the edge; memory in tests).
    pub fn with_system(mut self, system: System) -> Database {
        self.front_end = Arc::new(FrontEnd::new(system));
        self
    }

    /// A database that reports every salsa event to `on_event` (tests use
    /// `WillExecute` to see which queries ran).
    pub fn with_events(on_event: impl Fn(salsa::Event) + Send + Sync + 'static) -> Database {
        Database::on(salsa::Storage::new(Some(Box::new(on_event))))
    }

    /// Replaces a file's text (and the tree parsed from it).
    pub fn set_text(&mut self, file: SourceFile, text: Arc<str>, tree: Option<TreeHandle>) {
        self.will_write();
        let durability = durability_of(&tree);
        file.set_text(self).with_durability(durability).to(text);
        file.set_tree(self).with_durability(durability).to(tree);
    }
}

// ------------------------------------------------------------------ helpers

/// How often a file's text changes: often while an editor holds it (it
/// comes with the editor's tree), seldom otherwise (read from the disk).
/// After an edit salsa then checks only the results that depend on a
/// file an editor holds (or on what changed); those of the other files
/// stay valid without walking their dependencies.
fn durability_of(tree: &Option<TreeHandle>) -> salsa::Durability {
    match tree {
        Some(_) => salsa::Durability::LOW,
        None => salsa::Durability::MEDIUM,
    }
}

/// Files of the project, by path.
pub fn file_by_path(db: &dyn Db, project: Project, path: &str) -> Option<SourceFile> {
    project
        .files(db)
        .iter()
        .copied()
        .find(|f| f.path(db) == path)
}

/// Adds a file (keeping the files sorted by path) or replaces its text.
pub fn upsert_file(
    db: &mut Database,
    project: Project,
    path: &str,
    text: Arc<str>,
    tree: Option<TreeHandle>,
) -> SourceFile {
    upsert_files(db, project, vec![(path, text, tree)])[0]
}

/// [`upsert_file`] of each `(path, text, tree)`, the project's file list
/// set once for all of them (a workspace read from the disk adds many
/// files at once).
pub fn upsert_files(
    db: &mut Database,
    project: Project,
    files: Vec<(&str, Arc<str>, Option<TreeHandle>)>,
) -> Vec<SourceFile> {
    let mut all = project.files(db).clone();
    let mut by_path: std::collections::HashMap<String, SourceFile> =
        all.iter().map(|&f| (f.path(db).clone(), f)).collect();
    let mut added = false;
    let mut out = Vec::with_capacity(files.len());
    for (path, text, tree) in files {
        if let Some(&f) = by_path.get(path) {
            if **f.text(db) != *text || tree.is_some() {
                db.set_text(f, text, tree);
            }
            out.push(f);
            continue;
        }
        let f = SourceFile::builder(path.to_string(), text, tree.clone())
            .durability(durability_of(&tree))
            .new(db);
        all.push(f);
        by_path.insert(path.to_string(), f);
        added = true;
        out.push(f);
    }
    if added {
        all.sort_by(|a, b| a.path(db).cmp(b.path(db)));
        db.will_write();
        project.set_files(db).to(all.clone());
        set_c_files(db, &all);
    }
    out
}

/// Removes a file from the program (its input stays, unused).
pub fn remove_file(db: &mut Database, project: Project, path: &str) -> bool {
    let files = project.files(db).clone();
    let kept: Vec<SourceFile> = files
        .iter()
        .copied()
        .filter(|f| f.path(db) != path)
        .collect();
    if kept.len() == files.len() {
        return false;
    }
    db.will_write();
    project.set_files(db).to(kept.clone());
    set_c_files(db, &kept);
    true
}

/// Sets the configuration (only when it changed).
pub fn set_config(db: &mut Database, project: Project, config: Config) {
    if *project.config(db) != config {
        db.will_write();
        project.set_config(db).to(config);
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_java;
#[cfg(test)]
mod tests_lowering;
