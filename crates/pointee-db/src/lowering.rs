//! C lowering queries: per file, per function, and the linked program.

use crate::{CFile, Db, FunctionKey, Lang, Project, SourceFile};
use pointee_ir::{
    Basic, Block, Callee, Function, FunctionSource, GlobalSource, Name, Program, Rvalue, SourceMap,
    Stmt, StmtId,
};
use std::sync::Arc;

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

pub(crate) fn walk_calls<'a>(b: &'a Block, f: &mut impl FnMut(StmtId, &'a Callee, &'a [Rvalue])) {
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
