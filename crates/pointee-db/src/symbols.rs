//! Where things are, for answers: each file's line index and syntax tree,
//! and which file defines each name of the linked C program.
//!
//! The linker renames a `static` name that clashes across files to
//! `name@file`; the index below reads that renaming from the linked program
//! (it never renames anything itself).

use crate::lowering::{c_program, c_units, file_decls, file_functions};
use crate::{Db, Lang, Project, SourceFile, TreeHandle};
use pointee_ir::fxhash::FxHashMap;
use pointee_ir::{LineIndex, Name, Program};
use std::sync::Arc;

/// The line index of a file's text (bytes to lines and columns).
#[salsa::tracked(returns(ref))]
pub fn line_index(db: &dyn Db, file: SourceFile) -> Arc<LineIndex> {
    Arc::new(LineIndex::new(file.text(db)))
}

/// The file's syntax tree: the editor's incrementally re-parsed tree when it
/// gave one without syntax errors, else a parse of the text. A re-parse of
/// a broken text may recover from the error differently than a fresh parse
/// does, and answers must not depend on the edits that led to a text.
#[salsa::tracked(returns(ref), no_eq)]
pub fn syntax_tree(db: &dyn Db, file: SourceFile) -> Option<TreeHandle> {
    if let Some(tree) = file.tree(db) {
        if !tree.0.root_node().has_error() {
            return Some(tree.clone());
        }
    }
    let lang = Lang::of_path(file.path(db))?;
    Some(TreeHandle(Arc::new(crate::parse(
        lang,
        file.text(db),
        None,
    ))))
}

/// Which file defines each function and global of the linked C program, by
/// the name the program uses (`name`, or `name@file` for a renamed static),
/// with the name the file itself uses. Position-free: backdated unless a
/// definition moved to another file or a name appeared or went away.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct CSymbols {
    pub functions: FxHashMap<Name, (SourceFile, Name)>,
    /// Globals: every file that declares the name, in path order.
    pub globals: FxHashMap<Name, Vec<(SourceFile, Name)>>,
}

impl CSymbols {
    /// The program's name of `name` as file `file` uses it.
    pub fn program_name(&self, db: &dyn Db, file: SourceFile, name: &str) -> Name {
        let renamed: Name = format!("{name}@{}", file.path(db)).into();
        if self.functions.contains_key(&renamed) || self.globals.contains_key(&renamed) {
            renamed
        } else {
            name.into()
        }
    }
}

/// The C symbol index of a project (see [`CSymbols`]). Empty when the files
/// do not link.
#[salsa::tracked(returns(ref))]
pub fn c_symbols(db: &dyn Db, project: Project) -> Arc<CSymbols> {
    let mut out = CSymbols::default();
    let Ok(program) = c_program(db, project) else {
        return Arc::new(out);
    };
    for file in c_units(db, project) {
        for name in file_functions(db, file).iter() {
            let key = linked_name(program, file.path(db), name, |p, n| p.function(n).is_some());
            out.functions.insert(key, (file, name.clone()));
        }
        for g in &file_decls(db, file).globals {
            let key = linked_name(program, file.path(db), &g.name, |p, n| {
                p.global(n).is_some()
            });
            out.globals
                .entry(key)
                .or_default()
                .push((file, g.name.clone()));
        }
    }
    Arc::new(out)
}

/// The linked program's name for `name` of file `path`: renamed when the
/// linker renamed it.
fn linked_name(
    program: &Program,
    path: &str,
    name: &Name,
    defines: impl Fn(&Program, &str) -> bool,
) -> Name {
    let renamed = format!("{name}@{path}");
    if defines(program, &renamed) {
        renamed.into()
    } else {
        name.clone()
    }
}
