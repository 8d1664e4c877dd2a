//! pointee-java: lowers a Java teaching subset (a tree-sitter-java syntax
//! tree, several files forming one program) to the pointer IR: classes,
//! methods as functions (`A.foo(Object,int)`, `this` first), static fields as
//! globals (`A.f`), and a source map per file.
//!
//! Generics are erased. Beyond the subset, anonymous, inner and local classes,
//! lambdas and method references (to functional interfaces it knows), enums,
//! records, switch expressions and exceptions are lowered to the same IR;
//! library code is one "library heap" location with a callbacks root. What is
//! still outside (reflection, ...) is parsed, lowered soundly
//! where possible and listed as `Unsupported` notes; docs/java-analysis.md
//! has the whole list. It must never analyse, do I/O or panic on any input.

mod constant;
mod decl;
mod library;
mod lower;
mod made;
pub mod par;
mod syntax;
mod types;
mod unit;

use crate::syntax::Fields;
pub use decl::{ClassDecl, ClassTable};
pub use lower::LIBRARY;
use lower::{range, Pools};
pub use made::LIBRARY_OBJECT;
use pointee_ir::{Global, GlobalKind, Name, Note, NoteKind, Program, Range, SourceMap};
use std::sync::Arc;
use tree_sitter::{Node, Parser, Tree};
pub use unit::LoweredUnit;

/// The lowered program, one source map per input file (same order), and the
/// entry points.
#[derive(Clone, Debug, Default)]
pub struct JavaProgram {
    pub program: Program,
    pub sources: Vec<SourceMap>,
    /// Every `public static void main(String[])`, in file order.
    pub mains: Vec<Name>,
    /// Functions run before any entry, in the empty context: each file's
    /// literal pool and the library's callbacks. (Not the static
    /// initialisers `C.<clinit>()`: the analysis runs one when its class is
    /// initialised, JLS 12.4.1.)
    pub initializers: Vec<Name>,
}

/// The roots of an analysis: the functions run before any entry
/// (`initializers`), then every `main(String[])`, or those of `entry` (a
/// class, `C.main`, or a method's full name). `Err` when `entry` names no
/// `main`.
pub fn analysis_roots(
    mains: &[Name],
    initializers: &[Name],
    entry: Option<&str>,
) -> Result<Vec<Name>, String> {
    let chosen: Vec<Name> = match entry {
        None => mains.to_vec(),
        Some(e) => {
            let hit: Vec<Name> = mains
                .iter()
                .filter(|m| {
                    &***m == e || m.split('.').next() == Some(e) || m.starts_with(&format!("{e}("))
                })
                .cloned()
                .collect();
            if hit.is_empty() {
                return Err(format!("no `main(String[])` in `{e}`"));
            }
            hit
        }
    };
    Ok(initializers.iter().cloned().chain(chosen).collect())
}

/// A parser for the Java grammar.
pub fn parser() -> Parser {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into())
        .expect("tree-sitter-java is compatible with tree-sitter");
    p
}

/// A file's outline: the classes it declares, as the program's class table
/// holds them (position-free), their names' ranges, its units (top-level
/// type declarations) and the notes on its syntax. Reads no method body.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileOutline {
    /// Shared with the class table built from them.
    pub classes: Vec<Arc<decl::ClassDecl>>,
    /// Where each class's name is, in `classes` order.
    pub class_ranges: Vec<Range>,
    /// The byte range of each unit, in file order.
    pub units: Vec<Range>,
    /// Syntax errors, and declarations pass 1 skips.
    pub notes: Vec<Note>,
}

/// The outline of the file `file` (its text `src` parsed into `tree`).
pub fn outline(file: &str, src: &str, tree: &Tree) -> FileOutline {
    outline_reusing(file, src, tree, None).0
}

/// The outline of the file `file` (its text `src` parsed into `tree`),
/// taking each unit's part from `old` (the outline of the text `old.0`)
/// where the unit at that place has the same text: a unit's part depends on
/// its text alone (moved to where it now is). Only when neither text has a
/// syntax error, where a tree may recover differently around a unit. Also
/// returns how many units were outlined afresh.
pub fn outline_reusing(
    file: &str,
    src: &str,
    tree: &Tree,
    old: Option<(&str, &FileOutline)>,
) -> (FileOutline, usize) {
    let root = tree.root_node();
    let mut out = FileOutline::default();
    syntax_notes(root, &mut out.notes);
    let old = old.filter(|(_, o)| {
        out.notes.is_empty() && !o.notes.iter().any(|n| n.kind == NoteKind::Syntax)
    });
    // The old outline's classes and notes of each unit (in unit order).
    let (mut old_class, mut old_note) = (0, 0);
    let mut fresh = 0;
    let units = decl::units(root);
    let reuses: Vec<Option<(&FileOutline, Range)>> = units
        .iter()
        .enumerate()
        .map(|(u, &unit)| {
            let r = range(unit);
            old.and_then(|(old_src, o)| {
                let or = *o.units.get(u)?;
                (old_src.get(or.start as usize..or.end as usize)?
                    == &src[r.start as usize..r.end as usize])
                    .then_some((o, or))
            })
        })
        .collect();
    // The units not reused are outlined on the machine's cores.
    let mut outlined = par::par_map(&units, |u, &unit| {
        reuses[u].is_none().then(|| {
            let mut collected = Vec::new();
            let mut skipped = Vec::new();
            decl::collect_unit(
                unit,
                src,
                false,
                &decl::nothing_known,
                &mut collected,
                &mut skipped,
            );
            (collected, skipped)
        })
    });
    for (u, &unit) in units.iter().enumerate() {
        let r = range(unit);
        out.units.push(r);
        if let Some((o, or)) = reuses[u] {
            let delta = i64::from(r.start) - i64::from(or.start);
            let moved = |x: Range| Range {
                start: (i64::from(x.start) + delta) as u32,
                end: (i64::from(x.end) + delta) as u32,
            };
            while old_class < o.classes.len()
                && o.classes[old_class]
                    .origin
                    .as_ref()
                    .is_some_and(|c| c.unit < u as u32)
            {
                old_class += 1;
            }
            while old_class < o.classes.len()
                && o.classes[old_class]
                    .origin
                    .as_ref()
                    .is_some_and(|c| c.unit == u as u32)
            {
                out.classes.push(o.classes[old_class].clone());
                out.class_ranges.push(moved(o.class_ranges[old_class]));
                old_class += 1;
            }
            while old_note < o.notes.len() && o.notes[old_note].range.start < or.start {
                old_note += 1;
            }
            while old_note < o.notes.len() && o.notes[old_note].range.start < or.end {
                let mut n = o.notes[old_note].clone();
                n.range = moved(n.range);
                out.notes.push(n);
                old_note += 1;
            }
            continue;
        }
        fresh += 1;
        let (collected, skipped) = outlined[u].take().expect("outlined: not reused");
        for (i, mut c) in collected.into_iter().enumerate() {
            Arc::make_mut(&mut c.decl).origin = Some(decl::Origin {
                file: file.to_string(),
                unit: u as u32,
                index: i as u32,
            });
            let name = c.syntax.node.field("name").unwrap_or(c.syntax.node);
            out.class_ranges.push(range(name));
            out.classes.push(c.decl);
        }
        for (node, message) in skipped {
            out.notes.push(Note {
                range: range(node),
                kind: NoteKind::Unsupported,
                message,
            });
        }
    }
    (out, fresh)
}

/// The program's class table: the built-in classes, then every file's
/// classes; a second class of one name is ignored, with a note (by file
/// index) at its name.
pub fn class_table(outlines: &[&FileOutline]) -> (ClassTable, Vec<(usize, Note)>) {
    let classes: Vec<&[Arc<ClassDecl>]> = outlines.iter().map(|o| &o.classes[..]).collect();
    let (table, ignored) = class_table_of(&classes);
    let notes = ignored
        .into_iter()
        .map(|(f, c)| (f, ignored_class_note(outlines[f], c)))
        .collect();
    (table, notes)
}

/// The class table from each file's classes (position-free, so equal after
/// an edit inside a body): the built-in classes, then every file's classes.
/// A second class of one name is ignored and listed as (file, class) indices.
pub fn class_table_of(files: &[&[Arc<ClassDecl>]]) -> (ClassTable, Vec<(usize, usize)>) {
    let mut table = ClassTable::default();
    for c in decl::builtins() {
        table.insert(c);
    }
    let mut ignored = Vec::new();
    for (f, classes) in files.iter().enumerate() {
        for (i, c) in classes.iter().enumerate() {
            if !table.insert(c.clone()) {
                ignored.push((f, i));
            }
        }
    }
    (table, ignored)
}

/// The note at the name of the class `class` of `outline`, which the class
/// table ignores (a second class of its name).
pub fn ignored_class_note(outline: &FileOutline, class: usize) -> Note {
    Note {
        range: outline.class_ranges[class],
        kind: NoteKind::Unsupported,
        message: format!(
            "a second class named `{}` is ignored",
            outline.classes[class].name
        ),
    }
}

/// Lowers the unit at `index` of file `file` (its text `src` parsed into
/// `tree`) against the program's class table.
pub fn lower_unit(
    table: &ClassTable,
    file: &str,
    src: &str,
    tree: &Tree,
    index: usize,
) -> LoweredUnit {
    match decl::units(tree.root_node()).get(index) {
        Some(&u) => unit::lower_unit(table, file, src, u, index as u32),
        None => LoweredUnit::default(),
    }
}

/// Lowers a unit from its own text (its first type declaration), as the
/// unit at `index` of file `file`: positions are relative to the text.
pub fn lower_unit_text(table: &ClassTable, file: &str, text: &str, index: usize) -> LoweredUnit {
    let tree = parser()
        .parse(text, None)
        .expect("parse without cancellation");
    match decl::units(tree.root_node()).first() {
        Some(&u) => unit::lower_unit(table, file, text, u, index as u32),
        None => LoweredUnit::default(),
    }
}

/// Lowers every unit of file `file` (its text `src` parsed into `tree`)
/// against the program's class table, each with positions relative to its
/// own start: what [`lower_unit_text`] gives from each unit's text, in one
/// walk of the file's tree and without parsing again.
pub fn lower_units_relative(
    table: &ClassTable,
    file: &str,
    src: &str,
    tree: &Tree,
) -> Vec<LoweredUnit> {
    lower_files_units_relative(table, &[(file, src, tree)])
        .pop()
        .unwrap_or_default()
}

/// [`lower_units_relative`] of every `(file, src, tree)`, the units of all
/// the files spread over the cores together (a program of many small
/// files keeps both cores busy, as one large file does).
pub fn lower_files_units_relative(
    table: &ClassTable,
    files: &[(&str, &str, &Tree)],
) -> Vec<Vec<LoweredUnit>> {
    lower_files_units(table, files, true, &|_, _| true)
        .into_iter()
        .map(|units| units.into_iter().flatten().collect())
        .collect()
}

/// [`lower_files_units_relative`] of only the units `(file, unit)` for
/// which `which` answers true (the others `None`): after a declaration
/// changed, the units that read it, lowered again from the trees on every
/// core.
pub fn lower_files_units_relative_where(
    table: &ClassTable,
    files: &[(&str, &str, &Tree)],
    which: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Vec<Vec<Option<LoweredUnit>>> {
    lower_files_units(table, files, true, which)
}

/// The units `(file, unit)` of every `(file, src, tree)` for which `which`
/// answers true lowered against the class table, per file in unit order
/// (`None` for the others); positions relative to each unit's start when
/// `relative`, else in the file.
fn lower_files_units(
    table: &ClassTable,
    files: &[(&str, &str, &Tree)],
    relative: bool,
    which: &(dyn Fn(usize, usize) -> bool + Sync),
) -> Vec<Vec<Option<LoweredUnit>>> {
    let units: Vec<(usize, usize, Node, bool)> = files
        .iter()
        .enumerate()
        .flat_map(|(f, (_, _, tree))| {
            decl::units(tree.root_node())
                .into_iter()
                .enumerate()
                .map(move |(i, u)| (f, i, u, which(f, i)))
        })
        .collect();
    let todo: Vec<&(usize, usize, Node, bool)> = units.iter().filter(|u| u.3).collect();
    let mut lowered = par::par_map(&todo, |_, &&(f, i, u, _)| {
        let (file, src, _) = files[f];
        let mut lowered = unit::lower_unit(table, file, src, u, i as u32);
        if relative {
            lowered.shift(-i64::from(lowered.origin));
        }
        lowered
    })
    .into_iter();
    let mut out: Vec<Vec<Option<LoweredUnit>>> = vec![Vec::new(); files.len()];
    for &(f, _, _, todo) in &units {
        out[f].push(if todo { lowered.next() } else { None });
    }
    out
}

/// One file's parts, for [`assemble`].
pub struct FileParts<'p> {
    pub file: &'p str,
    /// The file's notes before its units' (syntax, skipped declarations,
    /// ignored classes).
    pub notes: Vec<Note>,
    /// Each unit lowered, with where the unit now starts in the file.
    pub units: Vec<(u32, &'p LoweredUnit)>,
}

/// The program from its files' lowered units: the built-in classes, every
/// unit's classes, functions and static fields (in file and unit order),
/// the globals bodies need, the literal and box pools, and the library's
/// callbacks; the source maps with positions in their files.
pub fn assemble(table: &ClassTable, files: &[FileParts]) -> JavaProgram {
    let mut out = JavaProgram::default();
    for c in table.classes.iter().filter(|c| c.builtin) {
        out.program.classes.push(pointee_ir::Class {
            name: c.name.as_str().into(),
            superclass: c.superclass.as_deref().map(Into::into),
            interfaces: Vec::new(),
            is_interface: false,
            is_abstract: false,
            fields: Vec::new(),
            methods: c
                .methods
                .iter()
                .map(|m| pointee_ir::Method {
                    signature: m.signature.as_str().into(),
                    function: None,
                    is_static: m.is_static,
                })
                .collect(),
        });
    }
    let (mut thrown, mut library) = (false, false);
    let mut pools = Vec::with_capacity(files.len());
    for f in files {
        let mut source = SourceMap {
            file: f.file.into(),
            notes: f.notes.clone(),
            ..Default::default()
        };
        let mut pool = Pools::default();
        for (start, u) in &f.units {
            let delta = i64::from(*start) - i64::from(u.origin);
            out.program.classes.extend(u.classes.iter().cloned());
            out.program.functions.extend(u.functions.iter().cloned());
            out.program.globals.extend(u.globals.iter().cloned());
            out.mains.extend(u.mains.iter().cloned());
            let mut s = u.source.clone();
            let mut p = u.pools.clone();
            if delta != 0 {
                s.shift_from(0, delta);
                p.shift(delta);
            }
            source.functions.append(&mut s.functions);
            source.globals.append(&mut s.globals);
            source.notes.append(&mut s.notes);
            pool.append(&mut p);
            thrown |= u.uses_thrown;
            library |= u.uses_library;
        }
        out.sources.push(source);
        pools.push(pool);
    }
    if thrown {
        declare_global(&mut out, lower::THROWN, "Throwable");
    }
    if library {
        declare_global(&mut out, lower::LIBRARY, "Object");
    }
    let mut sources = std::mem::take(&mut out.sources);
    made::box_pools(&mut out, &mut sources, &pools);
    made::literal_pools(&mut out, &mut sources, &pools);
    made::library_callbacks(&mut out, &mut sources);
    out.sources = sources;
    out
}

/// Lowers the given `(file name, text)` pairs as one program. Never fails:
/// what cannot be lowered is noted in the file's source map.
pub fn lower(files: &[(&str, &str)]) -> JavaProgram {
    // Files parse and outline, then units lower, in parallel.
    let parsed: Vec<(Tree, FileOutline)> = par::par_map(files, |_, (name, text)| {
        let tree = parser()
            .parse(text, None)
            .expect("parse without cancellation");
        let o = outline(name, text, &tree);
        (tree, o)
    });
    let outlines: Vec<&FileOutline> = parsed.iter().map(|(_, o)| o).collect();
    let (table, table_notes) = class_table(&outlines);
    let with_trees: Vec<(&str, &str, &Tree)> = files
        .iter()
        .zip(&parsed)
        .map(|(&(name, text), (tree, _))| (name, text, tree))
        .collect();
    let lowered = lower_files_units(&table, &with_trees, false, &|_, _| true);
    let parts: Vec<FileParts> = files
        .iter()
        .enumerate()
        .map(|(i, (name, _))| FileParts {
            file: name,
            notes: outlines[i]
                .notes
                .iter()
                .cloned()
                .chain(
                    table_notes
                        .iter()
                        .filter(|(f, _)| *f == i)
                        .map(|(_, n)| n.clone()),
                )
                .collect(),
            units: lowered[i].iter().flatten().map(|u| (u.origin, u)).collect(),
        })
        .collect();
    assemble(&table, &parts)
}

/// Declares a static-field global the bodies use.
fn declare_global(out: &mut JavaProgram, name: &str, class: &str) {
    out.program.globals.push(Global {
        name: name.into(),
        ty: pointee_ir::Type::Class(class.into()),
        kind: GlobalKind::StaticField,
        init: Vec::new(),
    });
}

fn syntax_notes(node: Node, notes: &mut Vec<Note>) {
    if !node.has_error() {
        return;
    }
    if node.is_error() || node.is_missing() {
        notes.push(Note {
            range: range(node),
            kind: NoteKind::Syntax,
            message: "syntax error".into(),
        });
        return;
    }
    let mut c = node.walk();
    for ch in node.children(&mut c) {
        syntax_notes(ch, notes);
    }
}
#[cfg(test)]
mod tests {
    #[test]
    fn set_language_succeeds() {
        let mut p = super::parser();
        let t = p
            .parse("class A { void m() { A a = new A(); } }", None)
            .unwrap();
        assert!(!t.root_node().has_error());
    }
}
