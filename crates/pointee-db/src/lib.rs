//! pointee-db: the incremental database behind the language server.
//!
//! Inputs are the source files (path, text and, when an editor keeps one, the
//! tree-sitter tree re-parsed incrementally from that text) and the
//! configuration. Tracked queries derive, for C:
//!
//! ```text
//! SourceFile ──lower_c──▶ CFile (IR + source map, per file)
//!     ├─ file_functions ──▶ names of the file's functions
//!     ├─ c_function(FunctionKey) ──▶ one function's IR (position-free)
//!     │     └─ function_calls(FunctionKey) ──▶ its call sites (direct callees)
//!     └─ file_decls ──▶ globals, externs, records (position-free)
//! Project ──c_program──▶ the linked Program (from c_function + file_decls)
//!         ──c_analysis──▶ position-free results of the whole-program engine
//! ```
//!
//! Every position-bearing value (the source map) stays in `lower_c`; all the
//! queries after it see only the IR, which is position-free. So a comment or
//! whitespace edit, or a moved function, re-runs `lower_c` and the cheap
//! per-function projections, whose results compare equal: salsa backdates
//! them and nothing downstream (per-function queries, `c_program`,
//! `c_analysis`) re-executes. Editing one function body changes only that
//! function's `c_function` value, so only its downstream per-function queries
//! re-execute (plus the whole-program ones, see below).
//!
//! Not yet cached finer than the whole program: the C engine (pointee-flow)
//! solves the program in one go, so `c_analysis` re-runs whenever the linked
//! program changes. Caching per (function, input) needs the engine to accept
//! the previous run's units; `c_analysis` is the seam where that goes.
//! Recursive cycles are solved inside the engine, i.e. inside one query.
//!
//! This crate must never depend on tokio, LSP types or serde.

pub use pointee_c::CFile;
use pointee_ir::{
    Basic, Block, Callee, Function, FunctionSource, GlobalSource, Name, Point, Program, Rvalue,
    SourceMap, Stmt, StmtId,
};
use std::sync::Arc;

pub use salsa;
use salsa::Setter;

pub mod session;

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
}

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

/// A function of a file, by name (the unit of per-function queries).
#[salsa::interned(debug)]
pub struct FunctionKey<'db> {
    #[returns(copy)]
    pub file: SourceFile,
    #[returns(ref)]
    pub name: Name,
}

#[salsa::db]
pub trait Db: salsa::Database {}

/// The database. Cheap to clone: clones share the storage, and a clone can
/// answer queries on another thread while the original waits to write.
#[salsa::db]
#[derive(Clone)]
pub struct Database {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for Database {}

#[salsa::db]
impl Db for Database {}

impl Default for Database {
    fn default() -> Self {
        Database {
            storage: salsa::Storage::new(None),
        }
    }
}

impl Database {
    /// A database that reports every salsa event to `on_event` (tests use
    /// `WillExecute` to see which queries ran).
    pub fn with_events(on_event: impl Fn(salsa::Event) + Send + Sync + 'static) -> Database {
        Database {
            storage: salsa::Storage::new(Some(Box::new(on_event))),
        }
    }

    /// Replaces a file's text (and the tree parsed from it).
    pub fn set_text(&mut self, file: SourceFile, text: Arc<str>, tree: Option<TreeHandle>) {
        file.set_text(self).to(text);
        file.set_tree(self).to(tree);
    }
}

// ---------------------------------------------------------------- C queries

/// One C file lowered on its own: the IR and its source map. Re-runs on every
/// edit of the file (lowering needs the file scope, so it is per file); the
/// queries below project position-free parts out of it.
#[salsa::tracked(returns(ref))]
pub fn lower_c(db: &dyn Db, file: SourceFile) -> Arc<CFile> {
    let path = file.path(db);
    let text = file.text(db);
    let lowered = match file.tree(db) {
        Some(tree) => pointee_c::lower_parsed(path, text, &tree.0),
        None => pointee_c::lower_file(path, text),
    };
    Arc::new(lowered)
}

/// The names of the functions defined in a C file, sorted by name (so that
/// moving a function changes nothing here).
#[salsa::tracked(returns(ref))]
pub fn file_functions(db: &dyn Db, file: SourceFile) -> Arc<Vec<Name>> {
    let mut names: Vec<Name> = lower_c(db, file)
        .program
        .functions
        .iter()
        .map(|f| f.name.clone())
        .collect();
    names.sort();
    Arc::new(names)
}

/// The per-function keys of a C file.
pub fn function_keys(db: &dyn Db, file: SourceFile) -> Vec<FunctionKey<'_>> {
    file_functions(db, file)
        .iter()
        .map(|n| FunctionKey::new(db, file, n.clone()))
        .collect()
}

/// One function's IR. Position-free, so it compares equal (and is backdated)
/// after any edit that does not change the function's meaning.
#[salsa::tracked(returns(ref))]
pub fn c_function<'db>(db: &'db dyn Db, key: FunctionKey<'db>) -> Option<Arc<Function>> {
    lower_c(db, key.file(db))
        .program
        .function(key.name(db))
        .map(|f| Arc::new(f.clone()))
}

/// A call site of a function, without positions.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallSite {
    pub stmt: StmtId,
    /// The callee when the call is direct.
    pub direct: Option<Name>,
}

/// The call sites of one function (a per-function query downstream of the IR).
#[salsa::tracked(returns(ref))]
pub fn function_calls<'db>(db: &'db dyn Db, key: FunctionKey<'db>) -> Arc<Vec<CallSite>> {
    let mut out = Vec::new();
    if let Some(f) = c_function(db, key) {
        walk_calls(&f.body, &mut |stmt, callee, _| {
            out.push(CallSite {
                stmt,
                direct: match callee {
                    Callee::Direct(n) => Some(n.clone()),
                    _ => None,
                },
            })
        });
    }
    Arc::new(out)
}

fn walk_calls<'a>(b: &'a Block, f: &mut impl FnMut(StmtId, &'a Callee, &'a [Rvalue])) {
    for s in b {
        match s {
            Stmt::Basic(id, Basic::Call { callee, args, .. }) => f(*id, callee, args),
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => {
                walk_calls(then_branch, f);
                walk_calls(else_branch, f);
            }
            Stmt::Loop { body } => walk_calls(body, f),
            Stmt::Switch { arms, .. } => arms.iter().for_each(|a| walk_calls(a, f)),
            _ => {}
        }
    }
}

/// Everything of a C file but its function bodies, position-free: globals,
/// externs and records, plus the names the linker needs.
#[salsa::tracked(returns(ref))]
pub fn file_decls(db: &dyn Db, file: SourceFile) -> Arc<Program> {
    let p = &lower_c(db, file).program;
    // Sorted by name: moving a declaration changes nothing here.
    let mut globals = p.globals.clone();
    globals.sort_by(|a, b| a.name.cmp(&b.name));
    let mut externs = p.externs.clone();
    externs.sort_by(|a, b| a.name.cmp(&b.name));
    Arc::new(Program {
        types: p.types.clone(),
        globals,
        functions: Vec::new(),
        externs,
        classes: p.classes.clone(),
    })
}

/// The linked C program, assembled from the per-function IR and the
/// position-free declarations of every C file. `Err` when the files cannot
/// form one program (a name defined twice).
#[salsa::tracked(returns(ref))]
pub fn c_program(db: &dyn Db, project: Project) -> Result<Arc<Program>, String> {
    let mut files = Vec::new();
    for &file in project.files(db) {
        if Lang::of_path(file.path(db)) != Some(Lang::C) {
            continue;
        }
        let decls = file_decls(db, file);
        let mut program = (**decls).clone();
        for key in function_keys(db, file) {
            if let Some(f) = c_function(db, key) {
                program.functions.push((**f).clone());
            }
        }
        // The linker reads names only from the source map; give it a
        // position-free one so this query does not depend on positions.
        let source = SourceMap {
            file: file.path(db).as_str().into(),
            functions: program
                .functions
                .iter()
                .map(|f| FunctionSource {
                    name: f.name.clone(),
                    ..Default::default()
                })
                .collect(),
            globals: program
                .globals
                .iter()
                .map(|g| GlobalSource {
                    name: g.name.clone(),
                    name_range: Default::default(),
                    sites: Vec::new(),
                })
                .collect(),
            ..Default::default()
        };
        files.push(CFile { program, source });
    }
    pointee_c::link_files(files)
        .map(|p| Arc::new(p.program))
        .map_err(|e| e.0)
}

/// The C engine's settings for a configuration.
pub fn c_settings(config: &Config) -> pointee_flow::Settings {
    let mut s = pointee_flow::Settings::default();
    if let Some(bound) = config.c_context_bound {
        s.max_contexts_per_function = bound.max(1) as usize;
    }
    s
}

/// A resolved call edge of the invocation graph, without positions.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CallEdge {
    pub caller: Name,
    pub stmt: StmtId,
    pub callee: Name,
    /// The call goes through a function pointer.
    pub indirect: bool,
}

/// The verdict of a `MUSTALIAS`-style check.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    No,
    May,
    Must,
    Unreachable,
}

/// An alias check found in a function, with the engine's verdict.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AliasCheck {
    pub function: Name,
    pub stmt: StmtId,
    pub check: Name,
    pub verdict: Verdict,
    pub ok: bool,
}

/// What the whole-program C analysis found, position-free: call edges
/// (direct and through function pointers), alias-check verdicts, figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CAnalysis {
    pub edges: Vec<CallEdge>,
    pub alias_checks: Vec<AliasCheck>,
    pub stats: Vec<(String, u64)>,
}

/// Runs the C engine over the linked program. This is the seam for caching
/// per (function, input): today the engine solves the whole program (its
/// recursive cycles inside this one query); it re-executes only when the
/// linked program changed, never after an edit the IR does not see.
#[salsa::tracked(returns(ref))]
pub fn c_analysis(db: &dyn Db, project: Project) -> Result<Arc<CAnalysis>, String> {
    let program = c_program(db, project).clone()?;
    let config = project.config(db);
    let mut a = pointee_flow::analyze(&program, c_settings(config));
    let mut out = CAnalysis::default();
    for f in &program.functions {
        walk_calls(&f.body, &mut |stmt, callee, args| {
            // Direct calls to defined functions are edges even where the
            // analysis never reaches them.
            if let Callee::Direct(name) = callee {
                if program.function(name).is_some() {
                    out.edges.push(CallEdge {
                        caller: f.name.clone(),
                        stmt,
                        callee: name.clone(),
                        indirect: false,
                    });
                }
            }
            for c in a.callees(&f.name, stmt) {
                out.edges.push(CallEdge {
                    caller: f.name.clone(),
                    stmt,
                    callee: c,
                    indirect: matches!(callee, Callee::Indirect(_)),
                });
            }
            if let Callee::Direct(name) = callee {
                if pointee_flow::is_alias_check(name) && args.len() == 2 {
                    out.alias_checks.push(AliasCheck {
                        function: f.name.clone(),
                        stmt,
                        check: name.clone(),
                        verdict: Verdict::Unreachable,
                        ok: false,
                    });
                }
            }
        });
    }
    for check in &mut out.alias_checks {
        let f = program
            .function(&check.function)
            .expect("checks come from the program's functions");
        let mut args = None;
        walk_calls(&f.body, &mut |stmt, _, a| {
            if stmt == check.stmt {
                args = Some(a.to_vec());
            }
        });
        let args = args.expect("the check's call is in its function");
        let v = match a.alias(
            &check.function,
            Point::Before(check.stmt),
            &args[0],
            &args[1],
        ) {
            pointee_flow::Alias::No => Verdict::No,
            pointee_flow::Alias::May => Verdict::May,
            pointee_flow::Alias::Must => Verdict::Must,
            pointee_flow::Alias::Unreachable => Verdict::Unreachable,
        };
        check.verdict = v;
        check.ok = match (&*check.check, v) {
            (_, Verdict::Unreachable) => false,
            ("NOALIAS" | "EXPECTEDFAIL_NOALIAS", v) => v == Verdict::No,
            (_, v) => v != Verdict::No,
        };
    }
    out.edges.sort();
    out.edges.dedup();
    out.stats = a.stats();
    Ok(Arc::new(out))
}

/// What one place denotes or holds at a point, merged over contexts: target
/// names (the engine's, e.g. `x`, `heap#3`) with a definite flag; `None` when
/// no analysed context reaches the point.
pub type Values = Option<Vec<(String, bool)>>;

// ------------------------------------------------------------- Java queries

/// The Java files lowered together (the class table spans files).
#[derive(Clone, Debug, Default)]
pub struct JavaLowered(pub pointee_java::JavaProgram);

impl PartialEq for JavaLowered {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        a.program == b.program
            && a.sources == b.sources
            && a.mains == b.mains
            && a.initializers == b.initializers
    }
}
impl Eq for JavaLowered {}

/// The position-free part of the Java program: what the analysis sees.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JavaIr {
    pub program: Program,
    pub mains: Vec<Name>,
    pub initializers: Vec<Name>,
}

/// The Java IR without source maps, backdated after edits the IR does not
/// see (comments, whitespace, moved members).
#[salsa::tracked(returns(ref))]
pub fn java_ir(db: &dyn Db, project: Project) -> Arc<JavaIr> {
    let jp = &java_program(db, project).0;
    Arc::new(JavaIr {
        program: jp.program.clone(),
        mains: jp.mains.clone(),
        initializers: jp.initializers.clone(),
    })
}

/// Call edges of the Java program under the configured context sensitivity
/// (virtual calls resolved by the analysis; `indirect` marks them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JavaAnalysis {
    pub edges: Vec<CallEdge>,
}

#[salsa::tracked(returns(ref))]
pub fn java_analysis(db: &dyn Db, project: Project) -> Result<Arc<JavaAnalysis>, String> {
    let ir = java_ir(db, project);
    let config = project.config(db);
    let variant = match &config.java_cs {
        Some(s) => pointee_cspta::Variant::parse(s)?,
        None => pointee_cspta::Variant::default(),
    };
    let roots = java_roots(ir, config);
    let roots: Vec<&str> = roots.iter().map(|s| &**s).collect();
    let a = pointee_cspta::Analysis::run(&ir.program, &roots, variant);
    let mut out = JavaAnalysis::default();
    for f in &ir.program.functions {
        let Some(m) = a.method(&f.name) else { continue };
        walk_calls_with_site(&f.body, &mut |stmt, site, callee| {
            for t in a.callees(m, site.0) {
                out.edges.push(CallEdge {
                    caller: f.name.clone(),
                    stmt,
                    callee: a.facts.method_names[t as usize].as_str().into(),
                    indirect: matches!(callee, Callee::Virtual { .. }),
                });
            }
        });
    }
    out.edges.sort();
    out.edges.dedup();
    Ok(Arc::new(out))
}

/// The roots as pointee-ide chooses them: static initialisers, then every
/// `main` (or those of the configured entry).
pub fn java_roots(ir: &JavaIr, config: &Config) -> Vec<Name> {
    let mains = ir.mains.iter().filter(|m| match &config.java_entry {
        None => true,
        Some(e) => {
            &***m == e || m.split('.').next() == Some(e.as_str()) || m.starts_with(&format!("{e}("))
        }
    });
    ir.initializers.iter().chain(mains).cloned().collect()
}

fn walk_calls_with_site<'a>(
    b: &'a Block,
    f: &mut impl FnMut(StmtId, pointee_ir::SiteId, &'a Callee),
) {
    for s in b {
        match s {
            Stmt::Basic(id, Basic::Call { site, callee, .. }) => f(*id, *site, callee),
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => {
                walk_calls_with_site(then_branch, f);
                walk_calls_with_site(else_branch, f);
            }
            Stmt::Loop { body } => walk_calls_with_site(body, f),
            Stmt::Switch { arms, .. } => arms.iter().for_each(|a| walk_calls_with_site(a, f)),
            _ => {}
        }
    }
}

/// Every Java file of the project lowered as one program.
#[salsa::tracked(returns(ref))]
pub fn java_program(db: &dyn Db, project: Project) -> Arc<JavaLowered> {
    let files: Vec<(&str, &str)> = project
        .files(db)
        .iter()
        .filter(|f| Lang::of_path(f.path(db)) == Some(Lang::Java))
        .map(|f| (f.path(db).as_str(), &**f.text(db)))
        .collect();
    Arc::new(JavaLowered(pointee_java::lower(&files)))
}

// ------------------------------------------------------------------ helpers

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
    if let Some(f) = file_by_path(db, project, path) {
        if **f.text(db) != *text || tree.is_some() {
            db.set_text(f, text, tree);
        }
        return f;
    }
    let f = SourceFile::new(db, path.to_string(), text, tree);
    let mut files = project.files(db).clone();
    files.push(f);
    files.sort_by(|a, b| a.path(db).cmp(b.path(db)));
    project.set_files(db).to(files);
    f
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
    project.set_files(db).to(kept);
    true
}

/// Sets the configuration (only when it changed).
pub fn set_config(db: &mut Database, project: Project, config: Config) {
    if *project.config(db) != config {
        project.set_config(db).to(config);
    }
}

#[cfg(test)]
mod tests;
