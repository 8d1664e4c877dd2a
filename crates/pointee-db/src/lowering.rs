//! C lowering queries: per file (preprocessed, then outlined), per
//! function, and the linked program.

use crate::{CFile, Db, FunctionKey, Lang, Project, SourceFile};
use pointee_c::{FileScope, FunctionSyntax, Outline};
use pointee_ir::fxhash::FxHashMap;
use pointee_ir::{
    Basic, Block, Callee, Extern, Function, Global, Name, Note, Program, Rvalue, SourceMap, StmtId,
};
use salsa::Setter;
use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

/// What the C front end reads beside a unit's own text.
#[salsa::input(debug)]
pub struct CInputs {
    /// The files includes find first (the editor's buffers, the program's
    /// files), by normalised path; others are read from the system.
    #[returns(ref)]
    pub files: Arc<BTreeMap<String, SourceFile>>,
    /// Each unit's preprocessor configuration (include directories,
    /// `-D`/`-U`, ...), by normalised path; the default when absent.
    #[returns(ref)]
    pub configs: Arc<BTreeMap<String, pointee_c::Config>>,
    /// Changed when files of the system (the disk) may have changed.
    pub system_revision: u64,
}

/// The files beneath the database's own: the disk at the edge, memory in
/// tests (the pattern of ty's `System`).
pub type System = Arc<dyn pointee_c::FileSystem + Send + Sync>;

/// The C front end's state outside salsa: the system, and the
/// preprocessor's cache of lexed files (results never depend on it).
pub struct FrontEnd {
    system: System,
    session: std::sync::Mutex<pointee_c::Session>,
    /// Each unit's last outline and what it was made from, which the next
    /// outline of the unit starts from (results never depend on it).
    last_outlines: std::sync::Mutex<FxHashMap<SourceFile, LastOutline>>,
    /// The trees of headers' text, shared by the units that include them
    /// (results never depend on it).
    trees: pointee_c::TreeCache,
}

/// A unit's expanded text, its syntax (in pieces) and its outline.
struct LastOutline {
    expanded: Arc<Expanded>,
    pieces: Vec<pointee_c::Piece>,
    outline: Arc<COutline>,
}

impl FrontEnd {
    pub fn new(system: System) -> FrontEnd {
        FrontEnd {
            system,
            session: Default::default(),
            last_outlines: Default::default(),
            trees: Default::default(),
        }
    }
}

impl Default for FrontEnd {
    fn default() -> FrontEnd {
        FrontEnd::new(Arc::new(pointee_c::pointee_cpp::MemoryFs::new()))
    }
}

/// Makes `files` the ones C includes find first (sets the input only when
/// that changes what a path finds).
pub fn set_c_files(db: &mut crate::Database, files: &[SourceFile]) {
    let inputs = db.c_inputs();
    let map: BTreeMap<String, SourceFile> = files
        .iter()
        .map(|&f| (pointee_c::pointee_cpp::normalize(f.path(db)), f))
        .collect();
    if **inputs.files(db) != map {
        db.will_write();
        inputs.set_files(db).to(Arc::new(map));
    }
}

/// The workspace file includes find at this path (normalised): a header a
/// unit's source map names.
pub fn c_file_at(db: &dyn Db, path: &str) -> Option<SourceFile> {
    db.c_inputs().files(db).get(path).copied()
}

/// Sets the preprocessor's configuration of each unit (by path).
pub fn set_c_configs(db: &mut crate::Database, configs: BTreeMap<String, pointee_c::Config>) {
    let inputs = db.c_inputs();
    let configs: BTreeMap<String, pointee_c::Config> = configs
        .into_iter()
        .map(|(p, c)| (pointee_c::pointee_cpp::normalize(&p), c))
        .collect();
    if **inputs.configs(db) != configs {
        db.will_write();
        inputs.set_configs(db).to(Arc::new(configs));
    }
}

/// Files of the system may have changed: units preprocess again.
pub fn system_changed(db: &mut crate::Database) {
    let inputs = db.c_inputs();
    let next = inputs.system_revision(db) + 1;
    db.will_write();
    inputs.set_system_revision(db).to(next);
}

/// A preprocessed C unit: its expanded text and the map back to the files.
#[derive(Debug, PartialEq, Eq)]
pub struct Expanded(pub pointee_c::pointee_cpp::Output);

/// Includes read through the database: the unit's own text, the files of
/// `CInputs` (whose texts are tracked), then the system.
struct DbFiles<'db> {
    db: &'db dyn Db,
    unit: SourceFile,
    unit_path: String,
    inputs: CInputs,
}

impl pointee_c::FileSystem for DbFiles<'_> {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        if path == self.unit_path {
            return Some(self.unit.text(self.db).clone());
        }
        if let Some(f) = self.inputs.files(self.db).get(path) {
            return Some(f.text(self.db).clone());
        }
        self.db.front_end().system.read(path)
    }
}

/// A C file preprocessed as a translation unit. Reads its text, the texts
/// of the files it includes, and its configuration; equal (and backdated)
/// when the expanded text and its map are.
#[salsa::tracked(returns(ref))]
pub fn c_expanded(db: &dyn Db, file: SourceFile) -> Arc<Expanded> {
    let inputs = db.c_inputs();
    let path = pointee_c::pointee_cpp::normalize(file.path(db));
    let config = inputs.configs(db).get(&path).cloned().unwrap_or_default();
    let _ = inputs.system_revision(db);
    let fs = DbFiles {
        db,
        unit: file,
        unit_path: path.clone(),
        inputs,
    };
    let mut session = db
        .front_end()
        .session
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    let out = pointee_c::preprocess(&mut session, &config, &fs, &path);
    drop(session);
    // A run resumed from the session's checkpoint skips the includes read
    // before it, so their reads would vanish from this query's inputs
    // (salsa then reports a backdate violation, and a later edit of such a
    // header would be missed). Read every input the output came from, the
    // same on every run, whatever the session skipped.
    let _ = file.text(db);
    let files = inputs.files(db);
    for included in &out.files {
        if let Some(f) = files.get(&included.path) {
            let _ = f.text(db);
        }
    }
    Arc::new(Expanded(out))
}

/// A C file's outline (file scope, declarations and the span of each
/// function definition), indexed by function name so that the per-function
/// projections below are O(1). Positions are offsets of the expanded text.
///
/// Fields in the order they are compared: the spans differ after most
/// edits, so an outline that changed is told apart without comparing the
/// scope.
#[derive(Debug, PartialEq, Eq)]
pub struct COutline {
    /// Every function definition, in file order.
    pub functions: Vec<FunctionSyntax>,
    /// Globals, records and prototypes (no functions), with their source map.
    pub file: CFile,
    /// What bodies may name; shared so that `file_scope` need not copy it.
    pub scope: Arc<FileScope>,
    /// For each name, its definitions (indices into `functions`), in file
    /// order: one, unless the file defines the name more than once.
    pub by_name: FxHashMap<Name, Vec<usize>>,
}

/// The outline of a C file, from its expanded text. Re-executes when the
/// expansion changed; it lowers declarations but no body.
///
/// The text is parsed in pieces (`pointee_c::parse_unit`): the headers'
/// pieces come from the trees other units parsed, the main file's are
/// parsed incrementally from the unit's previous trees (tree-sitter's
/// incremental parse yields the tree a parse from scratch would, unless
/// the text has a syntax error: such a piece is parsed afresh). When the
/// edit lies inside one function's body and the syntax changed nowhere
/// else, the previous outline is kept with the positions after the edit
/// moved (the outline reads no body).
#[salsa::tracked(returns(ref))]
pub fn c_outline(db: &dyn Db, file: SourceFile) -> Arc<COutline> {
    let expanded = c_expanded(db, file);
    let text = &expanded.0.text;
    let front_end = db.front_end();
    let lock = || {
        front_end
            .last_outlines
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    };
    let last = lock().remove(&file);
    let (pieces, kept) = match last {
        Some(mut last) => {
            let edit = text_edit(&last.expanded.0.text, text);
            for p in &mut last.pieces {
                p.edit(&edit);
            }
            let pieces = pointee_c::parse_unit(&front_end.trees, &expanded.0, &last.pieces);
            let kept = outline_after_body_edit(&last.outline, &last.pieces, &pieces, &edit);
            (pieces, kept)
        }
        None => (
            pointee_c::parse_unit(&front_end.trees, &expanded.0, &[]),
            None,
        ),
    };
    let outline = kept.unwrap_or_else(|| outline_of(file.path(db), text, &pieces));
    lock().insert(
        file,
        LastOutline {
            expanded: expanded.clone(),
            pieces,
            outline: outline.clone(),
        },
    );
    outline
}

/// Outlines a parsed expanded text.
fn outline_of(path: &str, text: &str, pieces: &[pointee_c::Piece]) -> Arc<COutline> {
    let Outline {
        scope,
        file: outline_file,
        functions,
    } = pointee_c::outline_pieces(path, text, &pointee_c::trees(pieces));
    let mut by_name: FxHashMap<Name, Vec<usize>> =
        FxHashMap::with_capacity_and_hasher(functions.len(), Default::default());
    for (i, f) in functions.iter().enumerate() {
        by_name.entry(f.name.clone()).or_default().push(i);
    }
    crate::graveyard::shared(Arc::new(COutline {
        functions,
        file: outline_file,
        scope: Arc::new(scope),
        by_name,
    }))
}

/// The outline after `edit` when the edit lies inside the body of one
/// function definition of `last` (strictly between its braces) and the
/// syntax changed nowhere else: `last`, with that definition's end and
/// everything after it moved by the edit's change of length. `None`
/// otherwise. `old` are the previous pieces, edited; `new` the pieces of
/// the new text: the same ranges, the edit inside one piece of the main
/// file, re-parsed from its old tree.
fn outline_after_body_edit(
    last: &COutline,
    old: &[pointee_c::Piece],
    new: &[pointee_c::Piece],
    edit: &tree_sitter::InputEdit,
) -> Option<Arc<COutline>> {
    let same_cuts = old.len() == new.len()
        && old
            .iter()
            .zip(new)
            .all(|(a, b)| (a.start, a.end, a.shared) == (b.start, b.end, b.shared));
    let k = new.partition_point(|p| p.end <= edit.start_byte);
    let piece = new.get(k)?;
    if !same_cuts || piece.shared || edit.new_end_byte > piece.end {
        return None;
    }
    let (old, new) = (&old[k].tree, &piece.tree);
    let delta = edit.new_end_byte as i64 - edit.old_end_byte as i64;
    let (start, old_end) = (edit.start_byte as u32, edit.old_end_byte as u32);
    let k = last
        .functions
        .partition_point(|f| f.range.start < start)
        .checked_sub(1)?;
    let def = &last.functions[k];
    if old_end >= def.range.end {
        return None;
    }
    let moved_end = (i64::from(def.range.end) + delta) as usize;
    // In the new tree: a definition at the same start, ending where the
    // old one ends after the edit, whose body holds the edit.
    let root = new.root_node();
    let node = root.first_child_for_byte(edit.start_byte)?;
    let body = node.child_by_field_name("body")?;
    if node.kind() != "function_definition"
        || node.start_byte() != def.range.start as usize
        || node.end_byte() != moved_end
        || body.start_byte() >= edit.start_byte
        || body.end_byte() <= edit.new_end_byte
    {
        return None;
    }
    // Nothing else changed, and the body's braces stayed.
    let inside =
        |r: &tree_sitter::Range| r.start_byte > body.start_byte() && r.end_byte < body.end_byte();
    if !old.changed_ranges(new).all(|r| inside(&r)) {
        return None;
    }
    let mut functions = last.functions.clone();
    let shift = |o: u32| (i64::from(o) + delta) as u32;
    functions[k].range.end = moved_end as u32;
    for f in &mut functions[k + 1..] {
        f.range = pointee_ir::Range {
            start: shift(f.range.start),
            end: shift(f.range.end),
        };
    }
    let mut file = last.file.clone();
    file.source.shift_from(def.range.end, delta);
    Some(crate::graveyard::shared(Arc::new(COutline {
        functions,
        file,
        scope: last.scope.clone(),
        by_name: last.by_name.clone(),
    })))
}

/// The edit that makes `new` of `old`: what lies between their common
/// start and their common end. Runs after every edit over the whole
/// expanded text, so it counts lines once.
pub fn text_edit(old: &str, new: &str) -> tree_sitter::InputEdit {
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let (start, old_end, new_end) = pointee_c::pointee_cpp::changed_range(a, b);
    let lines = |s: &[u8]| s.iter().filter(|&&c| c == b'\n').count();
    // The point after `s[from..to]` read from `at`.
    let after = |at: tree_sitter::Point, s: &[u8], from: usize, to: usize| {
        let part = &s[from..to];
        match part.iter().rposition(|&c| c == b'\n') {
            Some(last) => tree_sitter::Point {
                row: at.row + lines(part),
                column: part.len() - last - 1,
            },
            None => tree_sitter::Point {
                row: at.row,
                column: at.column + part.len(),
            },
        }
    };
    let start_position = after(tree_sitter::Point::default(), a, 0, start);
    tree_sitter::InputEdit {
        start_byte: start,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position,
        old_end_position: after(start_position, a, start, old_end),
        new_end_position: after(start_position, b, start, new_end),
    }
}

/// What the bodies of a C file may name. Position-free: equal (and
/// backdated) unless a declaration changed, so a body edit re-lowers only
/// that body.
#[salsa::tracked(returns(ref))]
pub fn file_scope(db: &dyn Db, file: SourceFile) -> Arc<FileScope> {
    c_outline(db, file).scope.clone()
}

/// The text of each definition of a function, in file order (one, unless
/// the name is defined more than once). Equal after an edit elsewhere or a
/// move, so the function is not lowered again. Re-runs for every function
/// after each edit of the file, hence the outline's index by name.
#[salsa::tracked(returns(ref))]
pub fn function_text<'db>(db: &'db dyn Db, key: FunctionKey<'db>) -> Arc<[Arc<str>]> {
    let file = key.file(db);
    let outline = c_outline(db, file);
    let text = &c_expanded(db, file).0.text;
    let Some(defs) = outline.by_name.get(key.name(db)) else {
        return Arc::new([]);
    };
    defs.iter()
        .map(|&i| {
            let r = outline.functions[i].range;
            Arc::from(&text[r.start as usize..r.end as usize])
        })
        .collect()
}

/// Each definition of a function lowered from its own text against the file
/// scope (positions relative to the definition's start). Depends on nothing
/// else, so it re-executes only when the definition's text or the file
/// scope changed.
#[salsa::tracked(returns(ref))]
pub fn lower_function<'db>(db: &'db dyn Db, key: FunctionKey<'db>) -> Arc<[CFile]> {
    let file = key.file(db);
    let scope = file_scope(db, file);
    let path = file.path(db);
    function_text(db, key)
        .iter()
        .map(|text| pointee_c::lower_function(scope, path, text))
        .collect()
}

/// One C file lowered, with absolute positions: the outline and every
/// function's lowering, shifted to where the function now is. Re-executes on
/// every edit of the file, but lowers nothing itself.
///
/// Not compared with its previous value (`no_eq`): no query reads it, so
/// backdating it would save nothing, and comparing two whole files costs
/// about as much as assembling one (after a comment edit the IR is all
/// equal and only the positions differ).
#[salsa::tracked(returns(ref), no_eq)]
pub fn lower_c(db: &dyn Db, file: SourceFile) -> Arc<CFile> {
    let outline = c_outline(db, file);
    let mut parts = Vec::with_capacity(outline.functions.len());
    // The parts stay as cached: `assemble` copies each once, shifted.
    for_each_definition(db, file, |def, part| parts.push((part, def.range.start)));
    let expanded = pointee_c::assemble(&outline.file, parts);
    let lowered = pointee_c::to_source(expanded, &c_expanded(db, file).0);
    crate::graveyard::shared(Arc::new(lowered))
}

/// The front end's notes on a C unit (syntax errors, what it could not
/// model), as in `lower_c` but without assembling the file: diagnostics need
/// only these.
#[salsa::tracked(returns(ref))]
pub fn file_notes(db: &dyn Db, file: SourceFile) -> Arc<Vec<Note>> {
    unit_notes(db, file).0.clone()
}

/// The front end's notes on a header: those of every unit of the project
/// that lands a note in it (a header is never preprocessed on its own:
/// what it means depends on its includer). Each note once, in order.
pub fn header_notes(db: &dyn Db, project: Project, header: SourceFile) -> Vec<Note> {
    let path = pointee_c::pointee_cpp::normalize(header.path(db));
    let mut out: Vec<Note> = c_units(db, project)
        .flat_map(|unit| unit_notes(db, unit).1.iter())
        .filter(|(file, _)| **file == *path)
        .flat_map(|(_, notes)| notes.iter().cloned())
        .collect();
    out.sort_by(|a, b| {
        (a.range.start, a.range.end, &a.message).cmp(&(b.range.start, b.range.end, &b.message))
    });
    out.dedup();
    out
}

/// A unit's notes where they land: in the unit, and in each header (by
/// normalised path).
#[salsa::tracked(returns(ref))]
fn unit_notes(db: &dyn Db, file: SourceFile) -> Arc<(Arc<Vec<Note>>, Vec<(Name, Vec<Note>)>)> {
    let mut notes = c_outline(db, file).file.source.notes.clone();
    for_each_definition(db, file, |def, part| {
        notes.extend(part.source.notes.iter().map(|n| Note {
            range: n.range.shifted(def.range.start),
            ..n.clone()
        }))
    });
    // Where they land in the file, with the preprocessor's own.
    let only_notes = CFile {
        source: SourceMap {
            notes,
            ..Default::default()
        },
        ..Default::default()
    };
    let mapped = pointee_c::to_source(only_notes, &c_expanded(db, file).0);
    let headers = mapped
        .headers
        .into_iter()
        .filter(|h| !h.notes.is_empty())
        .map(|h| (h.file, h.notes))
        .collect();
    Arc::new((Arc::new(mapped.source.notes), headers))
}

/// Calls `f` with each function definition of a file (in file order) and
/// its lowering.
fn for_each_definition<'db>(
    db: &'db dyn Db,
    file: SourceFile,
    mut f: impl FnMut(&'db FunctionSyntax, &'db CFile),
) {
    let outline = c_outline(db, file);
    for (i, def) in outline.functions.iter().enumerate() {
        // Which of the name's definitions this is (0 but for a duplicate).
        let nth = outline.by_name[&def.name]
            .iter()
            .position(|&j| j == i)
            .expect("every definition is indexed");
        let key = FunctionKey::new(db, file, def.name.clone());
        if let Some(part) = lower_function(db, key).get(nth) {
            f(def, part);
        }
    }
}

/// The names of the functions defined in a C file, sorted by name (so that
/// moving a function changes nothing here).
#[salsa::tracked(returns(ref))]
pub fn file_functions(db: &dyn Db, file: SourceFile) -> Arc<Vec<Name>> {
    let mut names: Vec<Name> = c_outline(db, file).by_name.keys().cloned().collect();
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
    let name = key.name(db);
    // The last definition of a name wins, as in `pointee_c::assemble`.
    lower_function(db, key)
        .iter()
        .rev()
        .find_map(|part| part.program.functions.iter().find(|f| f.name == *name))
        .cloned()
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

/// Calls `f` with every call of a body: (statement, callee, arguments).
pub(crate) fn walk_calls<'a>(b: &'a Block, f: &mut impl FnMut(StmtId, &'a Callee, &'a [Rvalue])) {
    pointee_ir::for_each_basic(b, &mut |id, basic| {
        if let Basic::Call { callee, args, .. } = basic {
            f(id, callee, args)
        }
    });
}

/// Everything of a C file but its functions, position-free: globals,
/// externs and records, from the outline and from what the bodies add
/// (static locals, implicitly declared callees, local records), merged as
/// `pointee_c::assemble` merges them.
#[salsa::tracked(returns(ref))]
pub fn file_decls(db: &dyn Db, file: SourceFile) -> Arc<Program> {
    let outline = c_outline(db, file);
    let p = &outline.file.program;
    let mut types = p.types.clone();
    // By name (so moving a declaration changes nothing here); a global's
    // declarations merge as linking merges them, the first extern and
    // record stay.
    let mut globals: BTreeMap<Name, Global> = p
        .globals
        .iter()
        .map(|g| (g.name.clone(), g.clone()))
        .collect();
    let mut externs: BTreeMap<Name, Extern> = BTreeMap::new();
    let mut add_externs = |es: &[Extern]| {
        for e in es {
            externs.entry(e.name.clone()).or_insert_with(|| e.clone());
        }
    };
    add_externs(&p.externs);
    let mut defined = HashSet::new();
    for_each_definition(db, file, |_, part| {
        let q = &part.program;
        for g in &q.globals {
            match globals.get_mut(&g.name) {
                // A block-scope `extern` must not undo the file's definition.
                Some(x) => pointee_c::merge_declaration(x, g.clone()),
                None => {
                    globals.insert(g.name.clone(), g.clone());
                }
            }
        }
        for (k, r) in &q.types.records {
            types.records.entry(k.clone()).or_insert_with(|| r.clone());
        }
        add_externs(&q.externs);
        defined.extend(q.functions.iter().map(|f| f.name.clone()));
    });
    Arc::new(Program {
        types,
        globals: globals.into_values().collect(),
        functions: Vec::new(),
        externs: externs
            .into_values()
            .filter(|e| !defined.contains(&e.name))
            .collect(),
        classes: p.classes.clone(),
    })
}

/// The linked C program (see `c_link`).
#[salsa::tracked(returns(ref))]
pub fn c_program(db: &dyn Db, project: Project) -> Result<Arc<Program>, String> {
    c_link(db, project)
        .as_ref()
        .map(|l| l.program.clone())
        .map_err(Clone::clone)
}

/// A linked C program and what linking accepted but the user should know
/// (tentative definitions merged across units), position-free.
#[derive(Debug, PartialEq, Eq)]
pub struct CLinked {
    pub program: Arc<Program>,
    pub warnings: Vec<pointee_c::LinkWarning>,
}

/// The linked C program: the linked declarations (`c_link_decls`) and
/// every function's IR, its static names renamed as linking its file does.
/// `Err` when the files cannot form one program (a name defined twice).
/// After a body edit it gathers the functions again (most of them as they
/// are cached) but links no declaration.
#[salsa::tracked(returns(ref))]
pub fn c_link(db: &dyn Db, project: Project) -> Result<Arc<CLinked>, String> {
    let decls = c_link_decls(db, project).as_ref().map_err(Clone::clone)?;
    let mut functions = Vec::new();
    for (file, renames) in c_units(db, project).zip(&decls.renames) {
        for f in file_function_irs(db, file).iter() {
            let mut f = f.clone();
            pointee_c::rename_function(&mut f, renames);
            functions.push(f);
        }
    }
    let program = Program {
        functions,
        ..decls.program.clone()
    };
    Ok(Arc::new(CLinked {
        program: crate::graveyard::shared(Arc::new(program)),
        warnings: decls.warnings.clone(),
    }))
}

/// The IR of every function a C file defines, by name: what linking
/// gathers, one query per file rather than one per function.
#[salsa::tracked(returns(ref))]
pub fn file_function_irs(db: &dyn Db, file: SourceFile) -> Arc<Vec<Arc<Function>>> {
    Arc::new(
        function_keys(db, file)
            .into_iter()
            .filter_map(|key| c_function(db, key).clone())
            .collect(),
    )
}

/// The C translation units of a project, in its order (its headers are
/// read by includes only: `Lang::is_c_unit`).
pub fn c_units(db: &dyn Db, project: Project) -> impl Iterator<Item = SourceFile> + '_ {
    project
        .files(db)
        .iter()
        .copied()
        .filter(move |f| Lang::is_c_unit(f.path(db)))
}

/// A C program's declarations linked: globals, records and externs (no
/// functions), with how each file's static names are renamed (per C file,
/// in the project's order) and the warnings.
#[derive(Debug, PartialEq, Eq)]
pub struct LinkedDecls {
    pub program: Program,
    pub renames: Vec<std::collections::HashMap<Name, Name>>,
    pub warnings: Vec<pointee_c::LinkWarning>,
}

/// Links the position-free declarations of every C file (`file_decls`)
/// by the names of the functions each defines (`file_link_names`): equal
/// (and backdated) after an edit that changes no declaration and no
/// function's name, so a body edit links no declaration again.
#[salsa::tracked(returns(ref))]
pub fn c_link_decls(db: &dyn Db, project: Project) -> Result<Arc<LinkedDecls>, String> {
    let files: Vec<SourceFile> = c_units(db, project).collect();
    let names: Vec<Name> = files.iter().map(|f| f.path(db).as_str().into()).collect();
    let units: Vec<pointee_c::UnitNames<'_>> = files
        .iter()
        .zip(&names)
        .map(|(&file, name)| pointee_c::UnitNames {
            file: name,
            functions: file_link_names(db, file)
                .iter()
                .map(|(n, s)| (n, *s))
                .collect(),
            globals: &file_decls(db, file).globals,
        })
        .collect();
    let mut linker = pointee_c::Linker::new(&units).map_err(|e| e.0)?;
    let renames = (0..files.len())
        .map(|i| linker.renames(i).clone())
        .collect();
    for (i, &file) in files.iter().enumerate() {
        linker.add(i, (**file_decls(db, file)).clone());
    }
    let (program, warnings) = linker.finish();
    Ok(Arc::new(LinkedDecls {
        program,
        renames,
        warnings,
    }))
}

/// The functions a C file defines as linking sees them: name and whether
/// `static`, by name. Position-free, equal after a body edit.
#[salsa::tracked(returns(ref))]
pub fn file_link_names(db: &dyn Db, file: SourceFile) -> Arc<Vec<(Name, bool)>> {
    Arc::new(
        file_function_irs(db, file)
            .iter()
            .map(|f| (f.name.clone(), f.is_static))
            .collect(),
    )
}
