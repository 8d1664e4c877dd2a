//! Java queries: lowering (all Java files together) and the analysis.

use crate::{AliasCheck, CallEdge, CallKind, Config, Db, Lang, Project, SourceFile};
use pointee_ir::{Basic, Block, Callee, Name, Program, StmtId};
use std::sync::Arc;

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
    crate::graveyard::shared(Arc::new(JavaIr {
        program: jp.program.clone(),
        mains: jp.mains.clone(),
        initializers: jp.initializers.clone(),
    }))
}

/// What the Java analysis found under the configured context sensitivity,
/// position-free: call edges (virtual calls resolved by the analysis) and
/// alias-check verdicts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JavaAnalysis {
    pub edges: Vec<CallEdge>,
    pub alias_checks: Vec<AliasCheck>,
}

/// The Java analysis kept for requests (hover, callees, highlights,
/// diagnostics). Equal only to itself: `java_analysis` after it is what
/// gets backdated.
#[derive(Clone)]
pub struct JavaEngine(pub Arc<crate::session::JavaSession>);

impl PartialEq for JavaEngine {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for JavaEngine {}

impl std::fmt::Debug for JavaEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JavaEngine").finish_non_exhaustive()
    }
}

/// The Java part of the configuration (the context sensitivity and the
/// entry; the rest left default): equal (backdated) after a change of the
/// C settings, so the Java analysis does not run again.
#[salsa::tracked(returns(ref))]
pub fn java_config(db: &dyn Db, project: Project) -> Config {
    let config = project.config(db);
    Config {
        java_cs: config.java_cs.clone(),
        java_entry: config.java_entry.clone(),
        ..Config::default()
    }
}

/// Runs the Java analysis with the configured sensitivity and roots.
/// Re-executes only when the Java IR or the Java configuration changed:
/// switching the context sensitivity analyses once, and lowers nothing.
/// After an edit that only adds facts (statements added to method bodies),
/// the solve goes on from the last run's solution
/// (`pointee_cspta::Analysis::resume`, which checks that it may).
#[salsa::tracked(returns(ref))]
pub fn java_engine(db: &dyn Db, project: Project) -> JavaEngine {
    // Stop when an input is about to be written: this run's revision is
    // outdated then, and the write waits for it (as `c_engine` does).
    let writes = db.writes();
    let start = writes.load(std::sync::atomic::Ordering::SeqCst);
    let outdated = || writes.load(std::sync::atomic::Ordering::SeqCst) != start;
    // The last run, which this one goes on from when the edit since only
    // added facts; it stays the last run if this one is stopped.
    let previous = db
        .last_java_engines()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(&project)
        .cloned();
    let session = crate::session::JavaSession::start(
        java_ir(db, project),
        java_config(db, project),
        previous.as_ref().map(|p| &*p.0),
        &outdated,
    )
    .unwrap_or_else(|pointee_cspta::Interrupted| {
        std::panic::resume_unwind(Box::new(salsa::Cancelled::PendingWrite))
    });
    // Freed off the edit path: the analysis an edit replaces is large.
    let engine = JavaEngine(crate::graveyard::shared(Arc::new(session)));
    db.last_java_engines()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(project, engine.clone());
    engine
}

/// The call edges and alias checks of the Java analysis, position-free.
#[salsa::tracked(returns(ref))]
pub fn java_analysis(db: &dyn Db, project: Project) -> Result<Arc<JavaAnalysis>, String> {
    let engine = java_engine(db, project).clone();
    let a = engine.0.analysis().map_err(str::to_string)?;
    let ir = java_ir(db, project);
    let mut out = JavaAnalysis::default();
    // The edges in order: the callers by name, each caller's edges sorted
    // (one sort of all of them compared the callers' names over and over,
    // half of this query's time on a large program).
    let fs = &ir.program.functions;
    let by_name = java_functions_by_name(db, project);
    let mut of_caller: Vec<CallEdge> = Vec::new();
    for (k, &i) in by_name.iter().enumerate() {
        let f = &fs[i as usize];
        if let Some(m) = a.method(&f.name) {
            walk_calls_with_site(&f.body, &mut |stmt, site, callee| {
                for t in a.callees(m, site.0) {
                    of_caller.push(CallEdge {
                        caller: f.name.clone(),
                        stmt,
                        callee: a.facts.method_names[t as usize].as_str().into(),
                        kind: match callee {
                            Callee::Virtual { .. } => CallKind::Virtual,
                            _ => CallKind::Direct,
                        },
                    });
                }
            });
        }
        // Functions of one name (none in a well-formed program) sort together.
        if !matches!(by_name.get(k + 1), Some(&n) if fs[n as usize].name == f.name) {
            // As `CallEdge`'s order, the caller's name compared by pointer
            // first (the edges of one caller share it).
            of_caller.sort_by(|a, b| {
                let caller = if Arc::ptr_eq(&a.caller, &b.caller) {
                    std::cmp::Ordering::Equal
                } else {
                    a.caller.cmp(&b.caller)
                };
                caller.then_with(|| (a.stmt, &a.callee, a.kind).cmp(&(b.stmt, &b.callee, b.kind)))
            });
            out.edges.append(&mut of_caller);
        }
    }
    out.edges.dedup();
    for c in pointee_cspta::alias_checks(a, &ir.program) {
        out.alias_checks.push(AliasCheck {
            function: ir.program.functions[c.method as usize].name.clone(),
            stmt: StmtId(c.stmt),
            check: c.kind.name().into(),
            verdict: c.verdict,
            ok: c.ok(),
        });
    }
    Ok(crate::graveyard::shared(Arc::new(out)))
}

/// The Java functions' names in program order: equal (backdated) after
/// an edit inside a body, so that their order by name is not sorted again.
#[salsa::tracked(returns(ref))]
fn java_function_names(db: &dyn Db, project: Project) -> Arc<[Name]> {
    let ir = java_ir(db, project);
    ir.program
        .functions
        .iter()
        .map(|f| f.name.clone())
        .collect()
}

/// The Java functions' indices in the order of their names (stable: the
/// functions of one name in program order).
#[salsa::tracked(returns(ref))]
fn java_functions_by_name(db: &dyn Db, project: Project) -> Arc<[u32]> {
    let names = java_function_names(db, project);
    let mut by_name: Vec<u32> = (0..names.len() as u32).collect();
    by_name.sort_by(|&i, &j| names[i as usize].cmp(&names[j as usize]));
    by_name.into()
}

/// The roots (the literal pools and library callbacks, then every `main`, or those of the
/// configured entry), as pointee-ide chooses them.
pub fn java_roots(ir: &JavaIr, config: &Config) -> Result<Vec<Name>, String> {
    pointee_java::analysis_roots(&ir.mains, &ir.initializers, config.java_entry.as_deref())
}

fn walk_calls_with_site<'a>(
    b: &'a Block,
    f: &mut impl FnMut(StmtId, pointee_ir::SiteId, &'a Callee),
) {
    pointee_ir::for_each_basic(b, &mut |id, basic| {
        if let Basic::Call { site, callee, .. } = basic {
            f(id, *site, callee)
        }
    });
}

/// The Java files of the project, in its (path) order.
fn java_files(db: &dyn Db, project: Project) -> Vec<SourceFile> {
    project
        .files(db)
        .iter()
        .copied()
        .filter(|f| Lang::of_path(f.path(db)) == Some(Lang::Java))
        .collect()
}

/// A Java file's outline: its classes' declarations (no method body), where
/// their names and its units (top-level type declarations) are, and the
/// notes on its syntax. Re-executes on every edit of the file, from the
/// editor's tree when it keeps one without errors.
#[salsa::tracked(returns(ref))]
pub fn java_outline(db: &dyn Db, file: SourceFile) -> Arc<pointee_java::FileOutline> {
    let text = file.text(db);
    let last = db
        .java_reuse()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .outlines
        .get(&file)
        .cloned();
    let last = last.as_ref().map(|(t, o)| (&**t, &**o));
    // `syntax_tree`: the editor's tree only when it has no syntax error,
    // so that a broken text outlines as a fresh parse of it does.
    let (outline, fresh) = match crate::symbols::syntax_tree(db, file) {
        Some(tree) => pointee_java::outline_reusing(file.path(db), text, &tree.0, last),
        None => {
            let tree = crate::parse(Lang::Java, text, None);
            pointee_java::outline_reusing(file.path(db), text, &tree, last)
        }
    };
    let outline = Arc::new(outline);
    let mut reuse = db.java_reuse().lock().unwrap_or_else(|e| e.into_inner());
    reuse.outlined += fresh;
    reuse.outlines.insert(file, (text.clone(), outline.clone()));
    outline
}

/// A Java file's classes as the class table holds them: position-free, so
/// equal (and backdated) after an edit inside a body.
#[salsa::tracked(returns(ref))]
pub fn java_file_classes(db: &dyn Db, file: SourceFile) -> Arc<[Arc<pointee_java::ClassDecl>]> {
    java_outline(db, file).classes.clone().into()
}

/// The program's class table, and the classes it ignores (a second class
/// of a name) as (file, class) indices into `java_files`' order. Changes
/// only when a declaration does (a class, a field, a method's signature).
#[salsa::tracked(returns(ref))]
pub fn java_class_table(
    db: &dyn Db,
    project: Project,
) -> Arc<(pointee_java::ClassTable, Vec<(usize, usize)>)> {
    let files = java_files(db, project);
    outline_in_parallel(db, &files);
    let classes: Vec<&[Arc<pointee_java::ClassDecl>]> =
        files.iter().map(|&f| &**java_file_classes(db, f)).collect();
    Arc::new(pointee_java::class_table_of(&classes))
}

/// Outlines the files (and so parses those without the editor's tree),
/// spread over the cores: each thread asks `java_outline` on its own
/// handle of the database, so what they find is salsa's memo, which the
/// caller then reads (and depends on) as if it had run the queries itself.
/// A project of many files parses on every core this way; an outline
/// already memoized is only checked. No deadlock: `java_outline` needs
/// only its file's tree, and neither waits on a query that may be waiting
/// on this one.
fn outline_in_parallel(db: &dyn Db, files: &[SourceFile]) {
    let threads = pointee_java::par::threads_for(files.len());
    if threads > 1 {
        let handles: Vec<Box<dyn Db + Send>> = (0..threads).map(|_| db.fork()).collect();
        pointee_java::par::par_map_with(handles, files, |db, _, &f| {
            java_outline(&**db, f);
        });
    }
}

/// A unit (top-level type declaration) of a Java file of a project, by its
/// place among the file's units: the unit of Java lowering.
#[salsa::interned(debug)]
pub struct JavaUnitKey<'db> {
    #[returns(copy)]
    pub project: Project,
    #[returns(copy)]
    pub file: SourceFile,
    #[returns(copy)]
    pub index: u32,
}

/// The text of a unit. Equal after an edit of another unit (or between
/// units), so the unit is not lowered again.
#[salsa::tracked(returns(ref))]
pub fn java_unit_text<'db>(db: &'db dyn Db, key: JavaUnitKey<'db>) -> Arc<str> {
    let file = key.file(db);
    let text = file.text(db);
    match java_outline(db, file).units.get(key.index(db) as usize) {
        Some(r) => Arc::from(&text[r.start as usize..r.end as usize]),
        None => Arc::from(""),
    }
}

/// A version of each class of the program's class table, by name: a
/// class keeps its version while its declaration stays equal, and gets a
/// new one (never used before) when it changes or appears. What a unit
/// read of the table is the versions of the names it looked up. Two
/// versions per class: of its declaration without where it is declared
/// (`ClassDecl::origin`, which changes when a unit before it in its file
/// comes or goes), and with it (for the unit that declares it).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ClassVersions(pointee_ir::fxhash::FxHashMap<String, (u64, u64)>);

impl ClassVersions {
    /// The version of the class `name` (with its origin when `origin`);
    /// `None` when the table has none.
    pub fn of(&self, name: &str, origin: bool) -> Option<u64> {
        self.0
            .get(name)
            .map(|&(decl, full)| if origin { full } else { decl })
    }
}

/// The versions of the class table's classes (see [`ClassVersions`]):
/// each class compared with the one of its name in the table this query
/// last saw. Re-executes when the class table changed, and makes the
/// table `java_unit` lowers against the current one.
#[salsa::tracked(returns(ref))]
pub fn java_class_versions(db: &dyn Db, project: Project) -> Arc<ClassVersions> {
    let table = java_class_table(db, project);
    let mut reuse = db.java_reuse().lock().unwrap_or_else(|e| e.into_inner());
    let reuse = &mut *reuse;
    let last = reuse.versions.get(&project);
    let mut versions = pointee_ir::fxhash::FxHashMap::default();
    let mut next = || {
        reuse.next_version += 1;
        reuse.next_version
    };
    for c in &table.0.classes {
        let old = last.and_then(|(t, v)| Some((t.0.get(&c.name)?, v.0.get(&c.name)?)));
        let (decl, full) = match old {
            // Shared with the last table when the unit was not outlined again.
            Some((o, &(decl, full))) if std::ptr::eq(o, &**c) || *o == **c => (decl, full),
            Some((o, &(decl, _))) if o.origin != c.origin && same_but_origin(o, c) => {
                (decl, next())
            }
            _ => (next(), next()),
        };
        versions.insert(c.name.clone(), (decl, full));
    }
    let versions = Arc::new(ClassVersions(versions));
    reuse
        .versions
        .insert(project, (table.clone(), versions.clone()));
    versions
}

/// `a` and `b` are equal but for where they are declared.
fn same_but_origin(a: &pointee_java::ClassDecl, b: &pointee_java::ClassDecl) -> bool {
    let moved = pointee_java::ClassDecl {
        origin: b.origin.clone(),
        ..a.clone()
    };
    moved == *b
}

/// What a unit's last lowering read of the class table: the names it
/// looked up (with whether it read where the class is declared), with the
/// versions those classes had then.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitReads {
    names: Arc<[(Arc<str>, bool)]>,
    versions: Vec<Option<u64>>,
}

impl UnitReads {
    /// The `names` read, with their versions in `now`.
    fn of(names: Arc<[(Arc<str>, bool)]>, now: &ClassVersions) -> UnitReads {
        let versions = names.iter().map(|(n, o)| now.of(n, *o)).collect();
        UnitReads { names, versions }
    }

    /// The reads of `unit`, with their versions in `now`.
    fn of_unit(unit: &pointee_java::LoweredUnit, now: &ClassVersions) -> UnitReads {
        let names = unit
            .reads
            .iter()
            .map(|n| {
                let origin = unit.origin_reads.binary_search(n).is_ok();
                (Arc::from(n.as_str()), origin)
            })
            .collect();
        UnitReads::of(names, now)
    }

    /// Some class read then has another version (or none) in `now`.
    fn stale(&self, now: &ClassVersions) -> bool {
        self.names
            .iter()
            .zip(&self.versions)
            .any(|((n, o), &v)| now.of(n, *o) != v)
    }
}

/// The declarations a unit depends on: the classes its last lowering
/// looked up, with their versions now (or, before it was ever lowered,
/// every class's version). Re-executes when the class table changed, and
/// is backdated unless one of those classes changed: an edit of a
/// declaration lowers again only the units that read it.
#[salsa::tracked(returns(ref))]
pub fn java_unit_decls<'db>(db: &'db dyn Db, key: JavaUnitKey<'db>) -> UnitDecls {
    let now = java_class_versions(db, key.project(db));
    let reuse = db.java_reuse().lock().unwrap_or_else(|e| e.into_inner());
    match reuse
        .reads
        .get(&(key.project(db), key.file(db), key.index(db)))
    {
        Some(read) => UnitDecls::Read(UnitReads::of(read.names.clone(), now)),
        None => UnitDecls::Unknown(now.clone()),
    }
}

/// See [`java_unit_decls`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnitDecls {
    Read(UnitReads),
    /// Not lowered yet: depends on every class.
    Unknown(Arc<ClassVersions>),
}

/// A unit lowered from its own text against the class table (positions
/// relative to the unit's start). Re-executes only when the unit's text or
/// a declaration it read changed (`java_unit_decls`): an edit inside a
/// method body lowers that method's top-level class again, and no other;
/// an edit of a declaration, the units that read it.
#[salsa::tracked(returns(ref))]
pub fn java_unit<'db>(db: &'db dyn Db, key: JavaUnitKey<'db>) -> Arc<pointee_java::LoweredUnit> {
    let (project, file, index) = (key.project(db), key.file(db), key.index(db));
    // First: it makes the class table current (`java_class_versions`).
    java_unit_decls(db, key);
    let text = java_unit_text(db, key);
    let mut reuse = db.java_reuse().lock().unwrap_or_else(|e| e.into_inner());
    let (table, now) = reuse
        .versions
        .get(&project)
        .cloned()
        .expect("java_unit_decls ran java_class_versions");
    let unit = match reuse.take(project, file, index, text, &table) {
        Some(u) => u,
        None => {
            reuse.parsed += 1;
            drop(reuse);
            let unit = Arc::new(pointee_java::lower_unit_text(
                &table.0,
                file.path(db),
                text,
                index as usize,
            ));
            reuse = db.java_reuse().lock().unwrap_or_else(|e| e.into_inner());
            unit
        }
    };
    reuse
        .reads
        .insert((project, file, index), UnitReads::of_unit(&unit, &now));
    unit
}

/// The class table with the classes it ignores, as `java_class_table` gives it.
type JavaTable = Arc<(pointee_java::ClassTable, Vec<(usize, usize)>)>;

/// What the Java queries reuse beyond salsa's memos; each is a pure
/// function of what it is checked against, so answers never depend on it:
/// - units lowered ahead from their file's tree (`java_program`, for the
///   units never lowered, and those whose last lowering read a class that
///   changed since, which are about to be lowered again): one walk of the
///   tree the outline read, on every core, instead of parsing each unit's
///   text once more. `java_unit` takes its unit from here only when its
///   text and the class table are still those it was lowered from, so what
///   it returns is what lowering the unit's own text gives
///   (`pointee_java::lower_units_relative`);
/// - what each unit's last lowering read of the class table, and the
///   table's classes' versions (`java_unit_decls`, `java_class_versions`);
/// - each file's last outline and text: `java_outline` re-runs on every
///   edit of the file, and takes the part of each unit whose text did not
///   change from it (`pointee_java::outline_reusing`).
#[derive(Default)]
pub struct JavaReuse {
    /// Each file's last outline, with the text it outlines.
    outlines: std::collections::HashMap<SourceFile, (Arc<str>, Arc<pointee_java::FileOutline>)>,
    /// How many units `java_outline` outlined afresh (not reused): for tests.
    pub outlined: usize,
    /// The class table `java_class_versions` last saw (the one units lower
    /// against), with its classes' versions.
    versions: std::collections::HashMap<Project, (JavaTable, Arc<ClassVersions>)>,
    /// The last version given to a class.
    next_version: u64,
    /// The class versions `lower_units_ahead` last looked for stale units
    /// against.
    ahead_against: std::collections::HashMap<Project, Arc<ClassVersions>>,
    /// What each unit's last lowering read of the class table, by
    /// (project, file, index).
    reads: std::collections::HashMap<(Project, SourceFile, u32), UnitReads>,
    /// The units waiting for `java_unit`, by (project, file, index): the
    /// file's text and the unit's range in it, the table, the unit.
    waiting: std::collections::HashMap<(Project, SourceFile, u32), AheadUnit>,
    /// How many units `java_unit` took from here, and how many it lowered
    /// from their own text (parsing it): for tests.
    pub taken: usize,
    pub parsed: usize,
}

struct AheadUnit {
    file_text: Arc<str>,
    range: pointee_ir::Range,
    table: JavaTable,
    unit: Arc<pointee_java::LoweredUnit>,
}

impl JavaReuse {
    /// The unit lowered ahead when it was lowered from `text` against `table`.
    fn take(
        &mut self,
        project: Project,
        file: SourceFile,
        index: u32,
        text: &str,
        table: &JavaTable,
    ) -> Option<Arc<pointee_java::LoweredUnit>> {
        let a = self.waiting.remove(&(project, file, index))?;
        let r = a.range.start as usize..a.range.end as usize;
        let same = Arc::ptr_eq(&a.table, table) && a.file_text.get(r) == Some(text);
        self.taken += usize::from(same);
        same.then_some(a.unit)
    }

    /// Forgets the projects not in `projects`.
    pub fn keep_projects(&mut self, projects: &[Project], files: &[SourceFile]) {
        self.outlines.retain(|f, _| files.contains(f));
        self.versions.retain(|p, _| projects.contains(p));
        self.ahead_against.retain(|p, _| projects.contains(p));
        self.reads
            .retain(|(p, f, _), _| projects.contains(p) && files.contains(f));
        self.waiting.retain(|(p, _, _), _| projects.contains(p));
    }
}

/// Lowers ahead from their trees the units of the `files` (with their
/// outlines) that are about to be lowered again, all files' units spread
/// over the cores together: those never lowered, and those that read a
/// class whose declaration changed since (see [`JavaReuse`]). A unit whose
/// text changed (an edit inside a body) is left to `java_unit`, which
/// parses only that unit's text; so is a file with a syntax error: the
/// tree of a broken file may recover differently than a unit's own text
/// does.
fn lower_units_ahead(
    db: &dyn Db,
    project: Project,
    files: &[SourceFile],
    outlines: &[&pointee_java::FileOutline],
) {
    let (table, now) = java_class_versions_now(db, project);
    let mut todo = Vec::new();
    let mut which: Vec<Vec<bool>> = Vec::new();
    {
        let mut reuse = db.java_reuse().lock().unwrap_or_else(|e| e.into_inner());
        // Against the table of the last look, no unit became stale (an
        // edit that adds or moves a unit changes the table; one that does
        // not is left to `java_unit`): not looked at again on every edit.
        let last = reuse.ahead_against.insert(project, now.clone());
        if last.is_some_and(|l| Arc::ptr_eq(&l, &now)) {
            return;
        }
        for (&file, outline) in files.iter().zip(outlines) {
            let stale: Vec<bool> = (0..outline.units.len() as u32)
                .map(|i| {
                    reuse
                        .reads
                        .get(&(project, file, i))
                        .is_none_or(|r| r.stale(&now))
                })
                .collect();
            if stale.iter().any(|&s| s) {
                todo.push((file, *outline));
                which.push(stale);
            }
        }
    }
    let mut inputs = Vec::new();
    let mut kept = Vec::new();
    for ((file, outline), stale) in todo.into_iter().zip(which) {
        let Some(tree) = crate::symbols::syntax_tree(db, file) else {
            continue;
        };
        if !tree.0.root_node().has_error() {
            inputs.push((file, outline, file.text(db).clone(), tree.0.clone()));
            kept.push(stale);
        }
    }
    let trees: Vec<(&str, &str, &tree_sitter::Tree)> = inputs
        .iter()
        .map(|(file, _, text, tree)| (file.path(db).as_str(), &**text, &**tree))
        .collect();
    let lowered = pointee_java::lower_files_units_relative_where(&table.0, &trees, &|f, i| {
        kept[f].get(i).copied().unwrap_or(false)
    });
    let mut ahead = db.java_reuse().lock().unwrap_or_else(|e| e.into_inner());
    for ((file, outline, file_text, _), units) in inputs.iter().zip(lowered) {
        if units.len() != outline.units.len() {
            continue;
        }
        for (i, (unit, &range)) in units.into_iter().zip(&outline.units).enumerate() {
            let Some(unit) = unit else { continue };
            // Recorded now, so that `java_unit_decls` depends on what this
            // lowering read.
            ahead
                .reads
                .insert((project, *file, i as u32), UnitReads::of_unit(&unit, &now));
            ahead.waiting.insert(
                (project, *file, i as u32),
                AheadUnit {
                    file_text: file_text.clone(),
                    range,
                    table: table.clone(),
                    unit: Arc::new(unit),
                },
            );
        }
    }
}

/// The class table units lower against now, with its classes' versions.
fn java_class_versions_now(db: &dyn Db, project: Project) -> (JavaTable, Arc<ClassVersions>) {
    java_class_versions(db, project);
    db.java_reuse()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .versions
        .get(&project)
        .cloned()
        .expect("java_class_versions ran")
}

/// Every Java file of the project lowered as one program: each file's
/// units (`java_unit`) shifted to where they now are, assembled with the
/// pools and callbacks. Re-executes on every Java edit, but lowers no body
/// itself.
#[salsa::tracked(returns(ref))]
pub fn java_program(db: &dyn Db, project: Project) -> Arc<JavaLowered> {
    let files = java_files(db, project);
    let table = java_class_table(db, project);
    let outlines: Vec<&pointee_java::FileOutline> =
        files.iter().map(|&f| &**java_outline(db, f)).collect();
    lower_units_ahead(db, project, &files, &outlines);
    let units: Vec<Vec<(u32, &pointee_java::LoweredUnit)>> = files
        .iter()
        .zip(&outlines)
        .map(|(&f, o)| {
            o.units
                .iter()
                .enumerate()
                .map(|(i, r)| {
                    (
                        r.start,
                        &**java_unit(db, JavaUnitKey::new(db, project, f, i as u32)),
                    )
                })
                .collect()
        })
        .collect();
    // What no `java_unit` took (its memo was still good) is not needed.
    db.java_reuse()
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .waiting
        .retain(|(p, _, _), _| *p != project);
    let parts: Vec<pointee_java::FileParts> = files
        .iter()
        .enumerate()
        .map(|(i, f)| pointee_java::FileParts {
            file: f.path(db),
            notes: outlines[i]
                .notes
                .iter()
                .cloned()
                .chain(
                    table
                        .1
                        .iter()
                        .filter(|(file, _)| *file == i)
                        .map(|&(_, c)| pointee_java::ignored_class_note(outlines[i], c)),
                )
                .collect(),
            units: units[i].clone(),
        })
        .collect();
    crate::graveyard::shared(Arc::new(JavaLowered(pointee_java::assemble(
        &table.0, &parts,
    ))))
}
