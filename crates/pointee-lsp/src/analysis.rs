//! The features in plain data (file names and byte ranges): what the
//! database and pointee-ide answer, before convert.rs turns it into LSP.
//! Everything here runs off the request loop on a database snapshot; a
//! snapshot's queries unwind with `salsa::Cancelled` when a newer edit is
//! written.

use crate::docs::Snapshot;
use pointee_db::salsa::Setter;
use pointee_db::{self as db, Database, Lang, Project, SourceFile};
use pointee_ir::{
    Basic, Callee, Function, FunctionSource, NoteKind, Point, Range, Rvalue, SourceMap, StmtId,
};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};

/// What the user configured (initializationOptions and
/// workspace/didChangeConfiguration).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub java_cs: Option<String>,
    pub java_entry: Option<String>,
    pub c_context_bound: Option<u32>,
    /// Alias checks that fail (warnings).
    pub diag_alias_checks: bool,
    /// Alias checks that hold (hints).
    pub diag_ok_checks: bool,
    /// What the front end skipped or approximated.
    pub diag_notes: bool,
    pub inlay_hints: bool,
    /// Milliseconds to wait after an edit before analysing.
    pub debounce_ms: u64,
    /// Milliseconds an analysis may take before it reports `$/progress`.
    pub progress_after_ms: u64,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            java_cs: None,
            java_entry: None,
            c_context_bound: None,
            diag_alias_checks: true,
            diag_ok_checks: true,
            diag_notes: true,
            inlay_hints: false,
            debounce_ms: 150,
            progress_after_ms: 300,
        }
    }
}

impl Settings {
    /// Reads `{"pointee": {...}}` or the inner object; unknown keys are
    /// ignored, missing ones keep their value.
    pub fn update(&mut self, v: &serde_json::Value) {
        let v = v.get("pointee").unwrap_or(v);
        let s = |v: &serde_json::Value, path: &[&str]| -> Option<serde_json::Value> {
            let mut cur = v;
            for p in path {
                cur = cur.get(p)?;
            }
            Some(cur.clone())
        };
        if let Some(x) = s(v, &["java", "contextSensitivity"]) {
            self.java_cs = x.as_str().map(str::to_string);
        }
        if let Some(x) = s(v, &["java", "entry"]) {
            self.java_entry = x.as_str().map(str::to_string);
        }
        if let Some(x) = s(v, &["c", "contextBound"]) {
            self.c_context_bound = x.as_u64().map(|n| n as u32);
        }
        let flag = |path: &[&str], f: &mut bool| {
            if let Some(b) = s(v, path).and_then(|x| x.as_bool()) {
                *f = b;
            }
        };
        flag(&["diagnostics", "aliasChecks"], &mut self.diag_alias_checks);
        flag(&["diagnostics", "okChecks"], &mut self.diag_ok_checks);
        flag(&["diagnostics", "notes"], &mut self.diag_notes);
        flag(&["inlayHints", "enable"], &mut self.inlay_hints);
        if let Some(n) = s(v, &["debounceMs"]).and_then(|x| x.as_u64()) {
            self.debounce_ms = n;
        }
        if let Some(n) = s(v, &["progressAfterMs"]).and_then(|x| x.as_u64()) {
            self.progress_after_ms = n;
        }
    }

    fn db_config(&self) -> db::Config {
        db::Config {
            java_cs: self.java_cs.clone(),
            java_entry: self.java_entry.clone(),
            c_context_bound: self.c_context_bound,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlainLoc {
    pub file: String,
    pub range: Range,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiagKind {
    Error,
    Warning,
    Info,
    Hint,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diag {
    pub range: Range,
    pub kind: DiagKind,
    pub code: String,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallItem {
    pub lang: Lang,
    /// The function's name in the program (`f`, `A.m(int)`, `f@file.c`).
    pub name: String,
    pub file: String,
    pub range: Range,
    pub name_range: Range,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallLink {
    pub item: CallItem,
    pub ranges: Vec<Range>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Alias {
    MustRead,
    MustWrite,
    May,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub range: Range,
    pub alias: Alias,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    pub at: u32,
    pub label: String,
}

/// Which project answers for a file. Normally every file of a language forms
/// one program (`main`); when the C files cannot be linked into one (two
/// `main`s, as in a folder of examples), each C file is analysed on its own
/// with the workspace's headers (`singles`).
#[derive(Clone, Debug)]
pub struct Scopes {
    pub main: Project,
    pub singles: HashMap<String, Project>,
}

impl Scopes {
    pub fn for_path(&self, path: &str) -> Project {
        self.singles.get(path).copied().unwrap_or(self.main)
    }
}

struct Inner {
    db: Database,
    project: Project,
    singles: HashMap<String, Project>,
}

/// The database and the project inputs, behind a lock taken only to write
/// inputs and take a snapshot.
pub struct Store {
    inner: Mutex<Inner>,
}

impl Default for Store {
    fn default() -> Self {
        let db = Database::default().with_system(Arc::new(crate::disk::Disk));
        let project = Project::new(&db, Vec::new(), db::Config::default());
        Store {
            inner: Mutex::new(Inner {
                db,
                project,
                singles: HashMap::new(),
            }),
        }
    }
}

impl Store {
    /// Brings the database's inputs up to the documents of `snap` and returns
    /// a clone to query. Writing an input cancels older clones' queries (and
    /// waits for them to unwind), so call this off the request loop.
    pub fn sync(&self, snap: &Snapshot, settings: &Settings) -> (Database, Scopes) {
        let mut guard = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let Inner {
            db,
            project,
            singles,
        } = &mut *guard;
        let project = *project;
        let known: HashMap<String, SourceFile> = project
            .files(db)
            .iter()
            .map(|&f| (f.path(db).clone(), f))
            .collect();
        let mut added = Vec::new();
        for (name, doc) in snap.docs.iter() {
            if doc.lang.is_none() {
                continue;
            }
            match known.get(name) {
                Some(&f) => {
                    if !Arc::ptr_eq(f.text(db), &doc.text) {
                        db.set_text(f, doc.text.clone(), doc.tree.clone());
                    }
                }
                None => added.push(SourceFile::new(
                    &*db,
                    name.clone(),
                    doc.text.clone(),
                    doc.tree.clone(),
                )),
            }
        }
        // The file list is written once (sorted by path: the snapshot's map
        // is ordered), not once per file.
        if !added.is_empty() || known.keys().any(|k| !snap.docs.contains_key(k)) {
            let mut files: Vec<SourceFile> = project
                .files(db)
                .iter()
                .copied()
                .filter(|f| snap.docs.contains_key(f.path(db)))
                .chain(added)
                .collect();
            files.sort_by(|a, b| a.path(db).cmp(b.path(db)));
            db.will_write();
            project.set_files(db).to(files.clone());
            // C includes find these before the disk.
            db::set_c_files(db, &files);
        }
        let config = settings.db_config();
        db::set_config(db, project, config.clone());
        // When the C files do not link, one project per C file.
        let sources: Vec<SourceFile> = c_files(db, project)
            .into_iter()
            .filter(|f| !f.path(db).ends_with(".h"))
            .collect();
        let broken = sources.len() > 1 && db::c_program(db, project).is_err();
        if broken {
            let headers: Vec<SourceFile> = c_files(db, project)
                .into_iter()
                .filter(|f| f.path(db).ends_with(".h"))
                .collect();
            let mut keep = HashMap::new();
            for f in sources {
                let path = f.path(db).clone();
                let mut files = headers.clone();
                files.push(f);
                files.sort_by(|a, b| a.path(db).cmp(b.path(db)));
                let p = match singles.get(&path) {
                    Some(&p) => {
                        if *p.files(db) != files {
                            db.will_write();
                            p.set_files(db).to(files);
                        }
                        db::set_config(db, p, config.clone());
                        p
                    }
                    None => Project::new(&*db, files, config.clone()),
                };
                keep.insert(path, p);
            }
            *singles = keep;
        } else {
            singles.clear();
        }
        let in_use: Vec<Project> = std::iter::once(project)
            .chain(singles.values().copied())
            .collect();
        db.keep_engines_of(&in_use);
        (
            db.clone(),
            Scopes {
                main: project,
                singles: singles.clone(),
            },
        )
    }
}

// ---------------------------------------------------------------- helpers

fn c_file(db: &Database, project: Project, path: &str) -> Option<SourceFile> {
    db::file_by_path(db, project, path).filter(|f| Lang::of_path(f.path(db)) == Some(Lang::C))
}

fn c_files(db: &Database, project: Project) -> Vec<SourceFile> {
    project
        .files(db)
        .iter()
        .copied()
        .filter(|f| Lang::of_path(f.path(db)) == Some(Lang::C))
        .collect()
}

/// A program name without the linker's `@file` suffix for statics.
fn base_name(name: &str) -> (&str, Option<&str>) {
    match name.split_once('@') {
        Some((n, f)) => (n, Some(f)),
        None => (name, None),
    }
}

/// Where a function of the linked C program is defined.
fn c_function_source(
    db: &Database,
    project: Project,
    name: &str,
) -> Option<(String, FunctionSource)> {
    let (base, file) = base_name(name);
    for f in c_files(db, project) {
        if file.is_some_and(|x| x != f.path(db)) {
            continue;
        }
        let lowered = db::lower_c(db, f);
        if let Some(fs) = lowered.source.function(base) {
            return Some((f.path(db).clone(), fs.clone()));
        }
    }
    None
}

/// The program name of a function defined in `path` (statics may be renamed).
fn program_name(program: Option<&pointee_ir::Program>, path: &str, name: &str) -> String {
    let renamed = format!("{name}@{path}");
    match program {
        Some(p) if p.function(&renamed).is_some() => renamed,
        _ => name.to_string(),
    }
}

fn innermost<'a, T>(
    items: impl Iterator<Item = (&'a FunctionSource, T, Range)>,
    off: u32,
) -> Option<(&'a FunctionSource, T)> {
    let mut best: Option<(&FunctionSource, T, Range)> = None;
    for (fs, t, r) in items {
        if r.touches(off) && best.as_ref().is_none_or(|(_, _, b)| r.len() < b.len()) {
            best = Some((fs, t, r));
        }
    }
    best.map(|(fs, t, _)| (fs, t))
}

fn basic_at(f: &Function, stmt: StmtId) -> Option<&Basic> {
    let mut found = None;
    pointee_ir::for_each_basic(&f.body, &mut |id, b| {
        if id == stmt {
            found = Some(b);
        }
    });
    found
}

// ---------------------------------------------------------------- features

/// For the callee of an indirect C call at `off` (`fp` in `fp(x)`, `open` in
/// `s->ops->open(x)`): every function it may call. `None` when the cursor is
/// not on the callee of an indirect call.
pub fn c_indirect_callees(
    db: &Database,
    project: Project,
    snap: &Snapshot,
    path: &str,
    off: u32,
) -> Option<Vec<PlainLoc>> {
    let file = c_file(db, project, path)?;
    let lowered = db::lower_c(db, file);
    let (fs, call) = innermost(
        lowered
            .source
            .functions
            .iter()
            .flat_map(|fs| fs.calls.iter().map(move |c| (fs, c, c.callee_range))),
        off,
    )?;
    if !on_callee_name(snap, path, off, call.callee_range) {
        return None;
    }
    let f = lowered.program.function(&fs.name)?;
    if !matches!(
        basic_at(f, call.stmt),
        Some(Basic::Call {
            callee: Callee::Indirect(_),
            ..
        })
    ) {
        return None;
    }
    let analysis = db::c_analysis(db, project).as_ref().ok()?.clone();
    let program = db::c_program(db, project).as_ref().ok().cloned();
    let caller = program_name(program.as_deref(), path, &fs.name);
    let mut out = Vec::new();
    for e in analysis
        .edges
        .iter()
        .filter(|e| *e.caller == *caller && e.stmt == call.stmt)
    {
        if let Some((file, fs)) = c_function_source(db, project, &e.callee) {
            out.push(PlainLoc {
                file,
                range: fs.name_range,
            });
        }
    }
    Some(out)
}

/// Whether the identifier at `off` is the last name of the callee expression
/// `callee` (`fp` in `fp` or `(*fp)`, `open` in `s->ops->open`, `m` in `a.m`).
fn on_callee_name(snap: &Snapshot, path: &str, off: u32, callee: Range) -> bool {
    let Some(doc) = snap.doc(path) else {
        return false;
    };
    let Some(r) = identifier_range(snap, path, off) else {
        return false;
    };
    if r.start < callee.start || r.end > callee.end {
        return false;
    }
    doc.text
        .get(r.end as usize..callee.end as usize)
        .is_some_and(|rest| rest.chars().all(|c| c == ')' || c.is_whitespace()))
}

fn identifier_range(snap: &Snapshot, path: &str, off: u32) -> Option<Range> {
    let doc = snap.doc(path)?;
    let tree = doc.tree_or_parse()?;
    let root = tree.0.root_node();
    for at in [off as usize, (off as usize).saturating_sub(1)] {
        let Some(n) = root.descendant_for_byte_range(at, at) else {
            continue;
        };
        if matches!(n.kind(), "identifier" | "field_identifier") {
            return Some(Range::new(n.start_byte(), n.end_byte()));
        }
    }
    None
}

/// Whether `off` is on the callee of a Java call (then pointee-ide's callees
/// answer go-to-definition).
pub fn java_call_at(
    db: &Database,
    project: Project,
    snap: &Snapshot,
    path: &str,
    off: u32,
) -> bool {
    let jp = db::java_program(db, project);
    jp.0.sources
        .iter()
        .filter(|s| &*s.file == path)
        .flat_map(|s| s.functions.iter())
        .flat_map(|fs| fs.calls.iter())
        .any(|c| c.callee_range.touches(off) && on_callee_name(snap, path, off, c.callee_range))
}

/// The identifier at `off` in the document's tree.
fn identifier_at(snap: &Snapshot, path: &str, off: u32) -> Option<(String, &'static str)> {
    let doc = snap.doc(path)?;
    let tree = doc.tree_or_parse()?;
    let root = tree.0.root_node();
    for at in [off as usize, (off as usize).saturating_sub(1)] {
        let Some(n) = root.descendant_for_byte_range(at, at) else {
            continue;
        };
        let java_field = n.kind() == "identifier"
            && n.parent().is_some_and(|p| {
                p.kind() == "field_access" && p.child_by_field_name("field") == Some(n)
            });
        let kind = match n.kind() {
            "identifier" if java_field => "field",
            "identifier" => "identifier",
            "field_identifier" => "field",
            "type_identifier" => "type",
            _ => continue,
        };
        return Some((
            doc.text.get(n.start_byte()..n.end_byte())?.to_string(),
            kind,
        ));
    }
    None
}

/// Field declarations named `ident` in the program's files of `lang` (C:
/// struct and union members; Java: instance fields), found in the syntax
/// trees: the source maps do not record fields.
pub fn field_declarations(
    snap: &Snapshot,
    lang: Lang,
    ident: &str,
    within: Option<&PlainLoc>,
) -> Vec<PlainLoc> {
    let mut out = Vec::new();
    for (name, doc) in snap.docs.iter() {
        if doc.lang != Some(lang) || within.is_some_and(|w| w.file != *name) {
            continue;
        }
        // Only files that mention the name are parsed (when not yet).
        if !doc.text.contains(ident) {
            continue;
        }
        let Some(tree) = doc.tree_or_parse() else {
            continue;
        };
        let mut cursor = tree.0.walk();
        // Iterative pre-order walk.
        'walk: loop {
            let n = cursor.node();
            let is_name = match (lang, n.kind()) {
                (Lang::C, "field_identifier") => {
                    n.parent().is_some_and(|p| p.kind() != "field_expression")
                }
                (Lang::Java, "identifier") => n.parent().is_some_and(|p| {
                    p.kind() == "variable_declarator"
                        && p.child_by_field_name("name") == Some(n)
                        && p.parent().is_some_and(|g| g.kind() == "field_declaration")
                }),
                _ => false,
            };
            let inside = within.is_none_or(|w| {
                w.range.start as usize <= n.start_byte() && n.end_byte() <= w.range.end as usize
            });
            if is_name && inside && doc.text.get(n.start_byte()..n.end_byte()) == Some(ident) {
                out.push(PlainLoc {
                    file: name.clone(),
                    range: Range::new(n.start_byte(), n.end_byte()),
                });
                if out.len() >= 20 {
                    break;
                }
            }
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.goto_next_sibling() {
                    continue 'walk;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
    }
    out
}

/// C: where the record is defined whose member the field expression at
/// `off` (`a.f`, `p->f`) selects, from the IR's types: the expression's own
/// place (a pointer member), or the type of its operand.
fn c_selected_record(
    db: &Database,
    project: Project,
    snap: &Snapshot,
    path: &str,
    off: u32,
) -> Option<PlainLoc> {
    use pointee_ir::{Base, Sel, Type};
    let tree = snap.doc(path)?.tree_or_parse()?;
    let root = tree.0.root_node();
    let field = [off as usize, (off as usize).saturating_sub(1)]
        .into_iter()
        .filter_map(|at| root.descendant_for_byte_range(at, at))
        .find(|n| n.kind() == "field_identifier")?;
    let expr = field.parent().filter(|p| p.kind() == "field_expression")?;
    let operand = expr.child_by_field_name("argument")?;
    let arrow = expr.child_by_field_name("operator")?.kind() == "->";
    let lowered = db::lower_c(db, c_file(db, project, path)?).clone();
    let linked = c_linked(db, project);
    let program = linked.as_deref().unwrap_or(&lowered.program);
    let fs = lowered
        .source
        .functions
        .iter()
        .find(|fs| fs.range.touches(off))?;
    let func = program
        .function(&program_name(Some(program), path, &fs.name))
        .or_else(|| lowered.program.function(&fs.name))?;
    let range_of = |n: tree_sitter::Node| Range::new(n.start_byte(), n.end_byte());
    let record_of = |t: &Type| match t {
        Type::Record(k) => Some(k.clone()),
        _ => None,
    };
    let pointee = |t: &Type| match t {
        Type::Pointer(t) | Type::Array(t, _) => Some((**t).clone()),
        _ => None,
    };
    // The record before the place's last step (the member named).
    let from_place = |p: &pointee_ir::Place| -> Option<pointee_ir::Name> {
        let mut ty = match &p.base {
            Base::Var(v) => func.vars.get(v.0 as usize)?.ty.clone(),
            Base::Global(g) => program.global(g)?.ty.clone(),
        };
        if p.deref {
            ty = pointee(&ty)?;
        }
        let (last, before) = p.path.split_last()?;
        if !matches!(last, Sel::Field(_)) {
            return None;
        }
        for sel in before {
            ty = match sel {
                Sel::Field(f) => {
                    let r = program.types.record(&record_of(&ty)?)?;
                    r.fields.iter().find(|x| x.name == *f)?.ty.clone()
                }
                Sel::Index(_) => pointee(&ty)?,
            };
        }
        record_of(&ty)
    };
    let key = fs
        .exprs
        .iter()
        .find(|e| e.range == range_of(expr))
        .and_then(|e| from_place(&e.place))
        .or_else(|| {
            let e = fs.exprs.iter().find(|e| e.range == range_of(operand))?;
            if arrow {
                record_of(&pointee(&e.ty)?)
            } else {
                record_of(&e.ty)
            }
        })?;
    c_files(db, project).into_iter().find_map(|f| {
        let l = db::lower_c(db, f);
        let (_, range) = l.source.records.iter().find(|(k, _)| *k == key)?;
        Some(PlainLoc {
            file: f.path(db).clone(),
            range: *range,
        })
    })
}

fn strip_shadow(name: &str) -> &str {
    name.split('#').next().unwrap_or(name)
}

/// The declaration of the variable, global or function named at `off`.
pub fn declaration(
    db: &Database,
    project: Project,
    snap: &Snapshot,
    path: &str,
    off: u32,
) -> Option<PlainLoc> {
    let (ident, kind) = identifier_at(snap, path, off)?;
    let lang = Lang::of_path(path)?;
    let sources: Vec<(String, SourceMap, Option<Arc<db::CFile>>)> = match lang {
        Lang::C => c_files(db, project)
            .into_iter()
            .map(|f| {
                let l = db::lower_c(db, f).clone();
                (f.path(db).clone(), l.source.clone(), Some(l))
            })
            .collect(),
        Lang::Java => {
            let jp = db::java_program(db, project).clone();
            jp.0.sources
                .iter()
                .map(|s| (s.file.to_string(), s.clone(), None))
                .collect()
        }
    };
    let java = lang == Lang::Java;
    let jp = java.then(|| db::java_program(db, project).clone());
    let program_of = |i: usize| -> Option<&pointee_ir::Program> {
        match (&sources[i].2, &jp) {
            (Some(c), _) => Some(&c.program),
            (None, Some(j)) => Some(&j.0.program),
            _ => None,
        }
    };
    if kind == "field" {
        // C: the member of the record the expression's type selects; by
        // name alone when the type is not known.
        let record = (lang == Lang::C)
            .then(|| c_selected_record(db, project, snap, path, off))
            .flatten();
        if let Some(r) = &record {
            if let Some(found) = field_declarations(snap, lang, &ident, Some(r))
                .into_iter()
                .next()
            {
                return Some(found);
            }
        }
        return field_declarations(snap, lang, &ident, None)
            .into_iter()
            .next();
    }
    if kind == "identifier" {
        // A local or parameter of the enclosing function: the latest
        // declaration of that name before the cursor.
        if let Some(i) = sources.iter().position(|s| s.0 == path) {
            let sm = &sources[i].1;
            if let Some(fs) = sm
                .functions
                .iter()
                .filter(|fs| fs.range.touches(off))
                .min_by_key(|fs| fs.range.len())
            {
                if let Some(f) = program_of(i).and_then(|p| p.function(&fs.name)) {
                    let mut best: Option<Range> = None;
                    for (v, r) in f.vars.iter().zip(&fs.vars) {
                        let user = matches!(
                            v.kind,
                            pointee_ir::VarKind::Param | pointee_ir::VarKind::Local
                        );
                        if user
                            && strip_shadow(&v.name) == ident
                            && r.start <= off
                            && best.is_none_or(|b| r.start >= b.start)
                        {
                            best = Some(*r);
                        }
                    }
                    if let Some(r) = best {
                        return Some(PlainLoc {
                            file: path.to_string(),
                            range: r,
                        });
                    }
                }
                // A static local: a global named `function::local`.
                let sl = format!("{}::{ident}", fs.name);
                if let Some(g) = sm.global(&sl) {
                    return Some(PlainLoc {
                        file: path.to_string(),
                        range: g.name_range,
                    });
                }
            }
        }
    }
    // Globals (C) or static fields (Java), this file first.
    let mut order: Vec<usize> = (0..sources.len()).collect();
    order.sort_by_key(|&i| sources[i].0 != path);
    for &i in &order {
        for g in &sources[i].1.globals {
            let name: &str = &g.name;
            let matches = if java {
                name.rsplit('.').next() == Some(&ident)
            } else {
                name == ident
            };
            if matches && kind != "type" {
                return Some(PlainLoc {
                    file: sources[i].0.clone(),
                    range: g.name_range,
                });
            }
        }
    }
    // Functions and methods.
    for &i in &order {
        for fs in &sources[i].1.functions {
            let name: &str = &fs.name;
            let short = if java {
                name.split('(')
                    .next()
                    .and_then(|n| n.rsplit('.').next())
                    .unwrap_or(name)
            } else {
                name
            };
            if short == ident && !fs.name_range.is_empty() {
                return Some(PlainLoc {
                    file: sources[i].0.clone(),
                    range: fs.name_range,
                });
            }
        }
    }
    // Records and classes by name.
    for &i in &order {
        for (key, r) in &sources[i].1.records {
            let k: &str = key;
            if k == ident || k.rsplit(' ').next() == Some(&ident) {
                return Some(PlainLoc {
                    file: sources[i].0.clone(),
                    range: *r,
                });
            }
        }
    }
    None
}

/// Where a function of either program is defined.
fn function_source(
    db: &Database,
    project: Project,
    lang: Lang,
    name: &str,
) -> Option<(String, FunctionSource)> {
    match lang {
        Lang::C => c_function_source(db, project, name),
        Lang::Java => {
            let jp = db::java_program(db, project);
            jp.0.sources
                .iter()
                .find_map(|s| s.function(name).map(|fs| (s.file.to_string(), fs.clone())))
        }
    }
}

/// The resolved call edges of one language's program.
fn edges(db: &Database, project: Project, lang: Lang) -> Vec<db::CallEdge> {
    match lang {
        Lang::C => db::c_analysis(db, project)
            .as_ref()
            .map(|a| a.edges.clone())
            .unwrap_or_default(),
        Lang::Java => db::java_analysis(db, project)
            .as_ref()
            .map(|a| a.edges.clone())
            .unwrap_or_default(),
    }
}

/// The function whose definition or call is at `off`: the function named at
/// the cursor, or every possible callee of the call there (through function
/// pointers and virtual dispatch), or else the function the cursor is in.
pub fn call_items_at(db: &Database, project: Project, path: &str, off: u32) -> Vec<CallItem> {
    let Some(lang) = Lang::of_path(path) else {
        return Vec::new();
    };
    let functions: Vec<FunctionSource> = match lang {
        Lang::C => match c_file(db, project, path) {
            Some(f) => db::lower_c(db, f).source.functions.clone(),
            None => return Vec::new(),
        },
        Lang::Java => db::java_program(db, project)
            .0
            .sources
            .iter()
            .filter(|s| &*s.file == path)
            .flat_map(|s| s.functions.clone())
            .collect(),
    };
    let program = match lang {
        Lang::C => db::c_program(db, project).as_ref().ok().cloned(),
        Lang::Java => None,
    };
    let pname = |n: &str| program_name(program.as_deref(), path, n);
    for fs in &functions {
        if fs.name_range.touches(off) && !fs.name_range.is_empty() {
            return vec![item(lang, path, &pname(&fs.name), fs)];
        }
    }
    if let Some((fs, call)) = innermost(
        functions
            .iter()
            .flat_map(|fs| fs.calls.iter().map(move |c| (fs, c, c.callee_range))),
        off,
    ) {
        let caller = pname(&fs.name);
        let mut out: Vec<CallItem> = edges(db, project, lang)
            .iter()
            .filter(|e| *e.caller == *caller && e.stmt == call.stmt)
            .filter_map(|e| {
                function_source(db, project, lang, &e.callee)
                    .map(|(file, fs)| item(lang, &file, &e.callee, &fs))
            })
            .collect();
        out.dedup();
        if !out.is_empty() {
            return out;
        }
    }
    functions
        .iter()
        .filter(|fs| fs.range.touches(off))
        .min_by_key(|fs| fs.range.len())
        .map(|fs| vec![item(lang, path, &pname(&fs.name), fs)])
        .unwrap_or_default()
}

fn item(lang: Lang, file: &str, name: &str, fs: &FunctionSource) -> CallItem {
    CallItem {
        lang,
        name: name.to_string(),
        file: file.to_string(),
        range: fs.range,
        name_range: fs.name_range,
    }
}

/// Callers of a function, with the ranges of their calls (direct ones and
/// those resolved through function pointers or virtual dispatch).
pub fn incoming(db: &Database, project: Project, lang: Lang, name: &str) -> Vec<CallLink> {
    let all = edges(db, project, lang);
    let mut by_caller: BTreeMap<&str, Vec<StmtId>> = BTreeMap::new();
    for e in all.iter().filter(|e| &*e.callee == name) {
        by_caller.entry(&e.caller).or_default().push(e.stmt);
    }
    by_caller
        .into_iter()
        .filter_map(|(caller, stmts)| {
            let (file, fs) = function_source(db, project, lang, caller)?;
            let ranges = fs
                .calls
                .iter()
                .filter(|c| stmts.contains(&c.stmt))
                .map(|c| c.range)
                .collect();
            Some(CallLink {
                item: item(lang, &file, caller, &fs),
                ranges,
            })
        })
        .collect()
}

/// Callees of a function, with the ranges of the calls in its body.
pub fn outgoing(db: &Database, project: Project, lang: Lang, name: &str) -> Vec<CallLink> {
    let all = edges(db, project, lang);
    let mut by_callee: BTreeMap<&str, Vec<StmtId>> = BTreeMap::new();
    for e in all.iter().filter(|e| &*e.caller == name) {
        by_callee.entry(&e.callee).or_default().push(e.stmt);
    }
    let Some((_, caller_fs)) = function_source(db, project, lang, name) else {
        return Vec::new();
    };
    by_callee
        .into_iter()
        .filter_map(|(callee, stmts)| {
            let (file, fs) = function_source(db, project, lang, callee)?;
            let ranges = caller_fs
                .calls
                .iter()
                .filter(|c| stmts.contains(&c.stmt))
                .map(|c| c.range)
                .collect();
            Some(CallLink {
                item: item(lang, &file, callee, &fs),
                ranges,
            })
        })
        .collect()
}

/// The file that defines a function (for outgoing ranges).
pub fn function_file(db: &Database, project: Project, lang: Lang, name: &str) -> Option<String> {
    function_source(db, project, lang, name).map(|(f, _)| f)
}

/// Diagnostics of every C file: alias checks (failing: warning; holding:
/// hint), the front end's notes, and link errors.
pub fn c_diagnostics(
    db: &Database,
    project: Project,
    settings: &Settings,
) -> BTreeMap<String, Vec<Diag>> {
    let mut out: BTreeMap<String, Vec<Diag>> = BTreeMap::new();
    let files = c_files(db, project);
    for &f in &files {
        let path = f.path(db).clone();
        let list = out.entry(path).or_default();
        if settings.diag_notes {
            for n in db::file_notes(db, f).iter() {
                list.push(Diag {
                    range: n.range,
                    kind: match n.kind {
                        NoteKind::Syntax => DiagKind::Warning,
                        NoteKind::Unsupported => DiagKind::Info,
                        NoteKind::Preprocessor => DiagKind::Hint,
                    },
                    code: n.kind.as_str().to_string(),
                    message: n.message.clone(),
                });
            }
        }
    }
    match db::c_analysis(db, project) {
        Err(e) => {
            for &f in &files {
                out.entry(f.path(db).clone()).or_default().push(Diag {
                    range: Range::default(),
                    kind: DiagKind::Error,
                    code: "link".into(),
                    message: e.clone(),
                });
            }
        }
        Ok(a) => {
            for c in &a.alias_checks {
                if (c.ok && !settings.diag_ok_checks) || (!c.ok && !settings.diag_alias_checks) {
                    continue;
                }
                let Some((file, fs)) = c_function_source(db, project, &c.function) else {
                    continue;
                };
                let Some(call) = fs.calls.iter().find(|x| x.stmt == c.stmt) else {
                    continue;
                };
                let verdict = format!("{:?}", c.verdict).to_lowercase();
                out.entry(file).or_default().push(Diag {
                    range: call.range,
                    kind: if c.ok {
                        DiagKind::Hint
                    } else {
                        DiagKind::Warning
                    },
                    code: "alias-check".into(),
                    message: if c.ok {
                        format!("{} holds: the analysis says {verdict}", c.check)
                    } else {
                        format!("{} does not hold: the analysis says {verdict}", c.check)
                    },
                });
            }
        }
    }
    for list in out.values_mut() {
        list.sort_by_key(|d| (d.range.start, d.range.end));
    }
    out
}

/// Diagnostics of every C file, per program: the whole workspace, or each
/// file on its own when the files do not link (with a note saying so).
pub fn c_diagnostics_all(
    db: &Database,
    scopes: &Scopes,
    settings: &Settings,
) -> BTreeMap<String, Vec<Diag>> {
    if scopes.singles.is_empty() {
        return c_diagnostics(db, scopes.main, settings);
    }
    let why = db::c_program(db, scopes.main)
        .as_ref()
        .err()
        .cloned()
        .unwrap_or_default();
    let mut out: BTreeMap<String, Vec<Diag>> = BTreeMap::new();
    let mut singles: Vec<(&String, &Project)> = scopes.singles.iter().collect();
    singles.sort_by(|a, b| a.0.cmp(b.0));
    for (path, &p) in singles {
        for (file, list) in c_diagnostics(db, p, settings) {
            if file == *path || (file.ends_with(".h") && !out.contains_key(&file)) {
                out.insert(file, list);
            }
        }
        out.entry(path.clone()).or_default().insert(
            0,
            Diag {
                range: Range::default(),
                kind: DiagKind::Info,
                code: "separate-program".into(),
                message: format!(
                    "analysed on its own (with the headers): the workspace's C files do not form one program: {why}"
                ),
            },
        );
    }
    out
}

/// Java diagnostics from pointee-ide's check on the analysis kept between
/// requests, in byte ranges.
pub fn java_diagnostics(
    db: &Database,
    project: Project,
    snap: &Snapshot,
    settings: &Settings,
) -> BTreeMap<String, Vec<Diag>> {
    let mut out: BTreeMap<String, Vec<Diag>> = BTreeMap::new();
    let ws = snap.workspace(Lang::Java);
    for f in &ws.files {
        out.entry(f.name.clone()).or_default();
    }
    if ws.files.is_empty() {
        return out;
    }
    let offset = |file: &str, line: u32, col: u32| -> Option<u32> {
        snap.doc(file)?
            .lines
            .offset_chars(line.checked_sub(1)? as usize, col.checked_sub(1)? as usize)
    };
    let session = db::java_engine(db, project).clone().0;
    let jp = db::java_program(db, project).clone();
    let report = match session.analysis() {
        Ok(a) => pointee_ide::JavaAnswers::new(&ws, &jp.0, a).check(),
        Err(e) => Err(pointee_ide::InputError(e.to_string())),
    };
    match report {
        Err(e) => {
            for f in &ws.files {
                out.entry(f.name.clone()).or_default().push(Diag {
                    range: Range::default(),
                    kind: DiagKind::Error,
                    code: "input".into(),
                    message: e.0.clone(),
                });
            }
        }
        Ok(r) => {
            for c in &r.alias_checks {
                if (c.ok && !settings.diag_ok_checks) || (!c.ok && !settings.diag_alias_checks) {
                    continue;
                }
                let Some(start) = offset(&c.at.file, c.at.line, c.at.column) else {
                    continue;
                };
                out.entry(c.at.file.clone()).or_default().push(Diag {
                    range: Range {
                        start,
                        end: start + c.check.len() as u32,
                    },
                    kind: if c.ok {
                        DiagKind::Hint
                    } else {
                        DiagKind::Warning
                    },
                    code: "alias-check".into(),
                    message: format!(
                        "{} {}: the analysis says {}",
                        c.check,
                        if c.ok { "holds" } else { "does not hold" },
                        c.verdict.as_str()
                    ),
                });
            }
            for d in &r.diagnostics {
                if !settings.diag_notes {
                    continue;
                }
                let (Some(start), Some(end)) = (
                    offset(&d.span.file, d.span.line, d.span.column),
                    offset(&d.span.file, d.span.end_line, d.span.end_column),
                ) else {
                    continue;
                };
                out.entry(d.span.file.clone()).or_default().push(Diag {
                    range: Range { start, end },
                    kind: match d.severity {
                        pointee_ide::Severity::Error => DiagKind::Error,
                        pointee_ide::Severity::Warning => DiagKind::Warning,
                        pointee_ide::Severity::Info => DiagKind::Info,
                        pointee_ide::Severity::Hint => DiagKind::Hint,
                    },
                    code: d.code.clone(),
                    message: d.message.clone(),
                });
            }
        }
    }
    out
}

/// Every pointer expression of the function at `off` that may point where
/// the pointer under the cursor points (aliasing in the sense of the alias
/// checks): must-aliases (the same one definite target) as read or write by
/// how they are accessed, may-aliases (some common target) as text.
pub fn c_highlights(
    db: &Database,
    project: Project,
    session: &db::CEngine,
    path: &str,
    off: u32,
) -> Vec<Highlight> {
    let Some(file) = c_file(db, project, path) else {
        return Vec::new();
    };
    let lowered = db::lower_c(db, file).clone();
    let Some((fs, cur)) = innermost(
        lowered.source.functions.iter().flat_map(|fs| {
            fs.exprs
                .iter()
                .enumerate()
                .map(move |(i, e)| (fs, i, e.range))
        }),
        off,
    ) else {
        return Vec::new();
    };
    let fname = program_name(Some(&session.program()), path, &fs.name);
    let queries: Vec<(Point, Rvalue)> = fs
        .exprs
        .iter()
        .map(|e| (e.point, Rvalue::Use(e.place.clone())))
        .collect();
    let values = session.values(&fname, queries);
    let Some(Some(mine)) = values.get(cur) else {
        return Vec::new();
    };
    let single = |v: &[(String, bool)]| -> Option<String> {
        match v {
            [(n, true)] if !is_special(n) => Some(n.clone()),
            _ => None,
        }
    };
    let my_single = single(mine);
    let mut out: Vec<Highlight> = Vec::new();
    for (i, (e, v)) in fs.exprs.iter().zip(&values).enumerate() {
        let Some(v) = v else { continue };
        let common = v
            .iter()
            .any(|(n, _)| !is_special(n) && mine.iter().any(|(m, _)| m == n));
        if !common && i != cur {
            continue;
        }
        let must = i == cur || (my_single.is_some() && single(v) == my_single);
        push_highlight(&mut out, e.range, must, e.point);
    }
    out.sort_by_key(|h| h.range.start);
    out
}

/// Adds a highlight: a must-alias is Read or Write by its program point, a
/// may-alias is Text; the same expression read and written keeps Write.
fn push_highlight(out: &mut Vec<Highlight>, range: Range, must: bool, point: Point) {
    let alias = match (must, point) {
        (false, _) => Alias::May,
        (true, Point::After(_)) => Alias::MustWrite,
        (true, Point::Before(_)) => Alias::MustRead,
    };
    match out.iter_mut().find(|h| h.range == range) {
        Some(h) => {
            if alias == Alias::MustWrite {
                h.alias = alias;
            }
        }
        None => out.push(Highlight { range, alias }),
    }
}

/// Java: the pointer expressions of the method at `off` that may hold an
/// object the one under the cursor holds (the analysis is flow-insensitive,
/// so must-aliases are the occurrences of the same variable or field path,
/// read or written; the others are may-aliases).
pub fn java_highlights(
    db: &Database,
    project: Project,
    session: &db::session::JavaSession,
    path: &str,
    off: u32,
) -> Vec<Highlight> {
    let jp = db::java_program(db, project).clone();
    let Some(sm) = jp.0.sources.iter().find(|s| &*s.file == path) else {
        return Vec::new();
    };
    let Some((fs, cur)) = sm.expr_at(off) else {
        return Vec::new();
    };
    let mine = session.objects(&fs.name, &cur.place).unwrap_or_default();
    let mut out: Vec<Highlight> = Vec::new();
    for e in &fs.exprs {
        let must = e.place == cur.place;
        if !must {
            let theirs = session.objects(&fs.name, &e.place).unwrap_or_default();
            if !theirs.iter().any(|o| mine.contains(o)) {
                continue;
            }
        }
        push_highlight(&mut out, e.range, must, e.point);
    }
    out.sort_by_key(|h| h.range.start);
    out
}

/// Java: the objects a variable or field may hold after each assignment in
/// `range` (`new A at 12`), under the configured sensitivity, contexts
/// merged.
pub fn java_inlay_hints(
    db: &Database,
    project: Project,
    snap: &Snapshot,
    session: &db::session::JavaSession,
    path: &str,
    range: Range,
) -> Vec<Hint> {
    let jp = db::java_program(db, project).clone();
    let Some(sm) = jp.0.sources.iter().find(|s| &*s.file == path) else {
        return Vec::new();
    };
    // The 1-based line of an allocation site.
    let line_of_site = |method: &str, site: u32| -> Option<usize> {
        let (file, r) = jp.0.sources.iter().find_map(|s| {
            let fs = s.function(method)?;
            Some((s.file.to_string(), fs.sites.get(site as usize)?.range))
        })?;
        Some(snap.doc(&file)?.lines.line_of(r.start) + 1)
    };
    let mut out = Vec::new();
    for fs in &sm.functions {
        if fs.range.end < range.start || fs.range.start > range.end {
            continue;
        }
        for e in &fs.exprs {
            if !matches!(e.point, Point::After(_))
                || e.range.start < range.start
                || e.range.end > range.end
            {
                continue;
            }
            let Some(objs) = session.objects(&fs.name, &e.place) else {
                continue;
            };
            let labels: Vec<String> = session
                .sites(&objs)
                .iter()
                .map(|o| {
                    let what = if o.is_string {
                        "string".to_string()
                    } else {
                        format!("new {}", o.class)
                    };
                    match line_of_site(&o.method, o.site) {
                        Some(line) => format!("{what} at {line}"),
                        None => what,
                    }
                })
                .collect();
            let stmt_end = fs
                .stmts
                .get(e.point.stmt().0 as usize)
                .map(|r| r.end)
                .unwrap_or(e.range.end);
            out.push(Hint {
                at: stmt_end.max(e.range.end),
                label: format!("→ {{{}}}", labels.join(", ")),
            });
        }
    }
    out.sort_by_key(|h| h.at);
    out.dedup_by_key(|h| h.at);
    out
}

fn is_special(name: &str) -> bool {
    matches!(
        name,
        "NULL" | "null" | "unknown" | "uninit" | "freed" | "dangling"
    )
}

/// The points-to set after each pointer assignment in `range` of `path`.
pub fn c_inlay_hints(
    db: &Database,
    project: Project,
    session: &db::CEngine,
    path: &str,
    range: Range,
) -> Vec<Hint> {
    let Some(file) = c_file(db, project, path) else {
        return Vec::new();
    };
    let lowered = db::lower_c(db, file).clone();
    let program = session.program().clone();
    let mut out = Vec::new();
    for fs in &lowered.source.functions {
        if fs.range.end < range.start || fs.range.start > range.end {
            continue;
        }
        let written: Vec<&pointee_ir::ExprInfo> = fs
            .exprs
            .iter()
            .filter(|e| {
                matches!(e.point, Point::After(_))
                    && e.range.start >= range.start
                    && e.range.end <= range.end
            })
            .collect();
        if written.is_empty() {
            continue;
        }
        let fname = program_name(Some(&program), path, &fs.name);
        let queries: Vec<(Point, Rvalue)> = written
            .iter()
            .map(|e| (e.point, Rvalue::Use(e.place.clone())))
            .collect();
        let values = session.values(&fname, queries);
        for (e, v) in written.iter().zip(values) {
            let Some(v) = v else { continue };
            let stmt_end = fs
                .stmts
                .get(e.point.stmt().0 as usize)
                .map(|r| r.end)
                .unwrap_or(e.range.end);
            let label = format!(
                "→ {{{}}}",
                v.iter()
                    .map(|(n, d)| if *d { n.clone() } else { format!("{n}?") })
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            out.push(Hint {
                at: stmt_end.max(e.range.end),
                label,
            });
        }
    }
    out.sort_by_key(|h| h.at);
    out.dedup_by_key(|h| h.at);
    out
}

// ------------------------------------------------------- the C session

/// Hover on a C expression, answered by pointee-ide from the engine run the
/// database keeps (no lowering or analysis per request).
pub fn c_hover(
    db: &Database,
    project: Project,
    snap: &Snapshot,
    path: &str,
    line: u32,
    column: u32,
) -> Option<pointee_ide::Hover> {
    let engine = db::c_engine(db, project).as_ref().ok()?.clone();
    let files = c_files(db, project);
    let lowered: Vec<Arc<db::CFile>> = files.iter().map(|&f| db::lower_c(db, f).clone()).collect();
    let names: Vec<String> = files.iter().map(|f| f.path(db).clone()).collect();
    let ws = snap.workspace_of(&names);
    engine.with(|program, a| {
        // The linker renames clashing statics (`name@file`): rename them in
        // each file's source map as in the program.
        let mut renames: HashMap<&str, HashMap<pointee_ir::Name, pointee_ir::Name>> =
            HashMap::new();
        let names = program.functions.iter().map(|f| &f.name);
        for name in names.chain(program.globals.iter().map(|g| &g.name)) {
            if let Some((base, file)) = name.split_once('@') {
                renames
                    .entry(file)
                    .or_default()
                    .insert(base.into(), name.clone());
            }
        }
        let renamed: Vec<Option<SourceMap>> = lowered
            .iter()
            .map(|l| {
                let r = renames.get(&*l.source.file)?;
                let mut s = l.source.clone();
                pointee_c::rename_source(&mut s, r);
                Some(s)
            })
            .collect();
        let sources: Vec<&SourceMap> = lowered
            .iter()
            .zip(&renamed)
            .map(|(l, r)| r.as_ref().unwrap_or(&l.source))
            .collect();
        pointee_ide::CAnswers::new(&ws, sources, program)
            .hover(a, path, line, column)
            .ok()
    })
}

/// The linked C program, when the C files form one.
pub fn c_linked(db: &Database, project: Project) -> Option<Arc<pointee_ir::Program>> {
    db::c_program(db, project).as_ref().ok().cloned()
}
