//! Linking lowered units into one program by external names, as a C
//! linker does (with gcc's `-fcommon`):
//!
//! - `static` functions and globals stay per unit: a name that another unit
//!   uses too becomes `name@file`;
//! - a global declared `extern` (a header) and defined in one unit is one
//!   object; one defined by no unit keeps `Definition::Extern`: the C
//!   library's globals (`stdin`, `errno`, ...; the analysis gives them the
//!   library's value) or code outside the program (an unknown value);
//! - tentative definitions (`int x;`) of one name in several units are one
//!   object, with a warning naming the units; an initialised definition
//!   beside them is that object's definition;
//! - two initialised definitions of a global, or two definitions of a
//!   function, are an error naming both units.
//!
//! It must never read files or positions: it sees units' IR and the names
//! in their source maps only.

use crate::{CFile, CProgram};
use pointee_ir::{
    Base, Basic, Callee, Definition, Function, Global, GlobalKind, Name, Place, Program, Rvalue,
    SourceMap, Stmt, Type,
};
use std::collections::{HashMap, HashSet};

/// A program that cannot be formed (e.g. two external definitions of one name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError(pub String);

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Something linking accepted but the user should know, about the global
/// or function `name` as the `files` declare it (the source maps locate it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkWarning {
    pub name: Name,
    pub files: Vec<Name>,
    pub message: String,
}

fn definition(g: &Global) -> Option<Definition> {
    match g.kind {
        GlobalKind::Variable {
            is_static: false,
            definition,
        } => Some(definition),
        _ => None,
    }
}

/// Folds another declaration of the same global into `into`: the stronger
/// definition (`Definition` order) keeps its initialiser; a complete array
/// type wins over an incomplete one (`extern int a[];` then `int a[10];`).
/// Within one file and across units alike.
pub fn merge_declaration(into: &mut Global, from: Global) {
    let (mine, theirs) = (definition_or_static(into), definition_or_static(&from));
    let keep_type =
        matches!(from.ty, Type::Array(_, None)) && !matches!(into.ty, Type::Array(_, None));
    if theirs > mine || (theirs == mine && into.init.is_empty() && !from.init.is_empty()) {
        let old_ty = into.ty.clone();
        *into = from;
        if keep_type {
            into.ty = old_ty;
        }
    } else if matches!(into.ty, Type::Array(_, None)) && !matches!(from.ty, Type::Array(_, None)) {
        into.ty = from.ty;
    }
}

fn definition_or_static(g: &Global) -> Definition {
    match g.kind {
        GlobalKind::Variable { definition, .. } => definition,
        _ => Definition::Initialised,
    }
}

pub(crate) fn link(files: Vec<CFile>) -> Result<CProgram, LowerError> {
    if files.len() == 1 {
        let f = files.into_iter().next().expect("one file");
        return Ok(CProgram {
            program: f.program,
            sources: vec![f.source],
            warnings: Vec::new(),
        });
    }
    let names: Vec<UnitNames<'_>> = files.iter().map(UnitNames::of).collect();
    let mut linker = Linker::new(&names)?;
    let mut sources = Vec::new();
    for (i, mut f) in files.into_iter().enumerate() {
        let renames = linker.renames(i);
        if !renames.is_empty() {
            rename_source(&mut f.source, renames);
        }
        linker.add(i, f.program);
        sources.push(f.source);
    }
    let (program, warnings) = linker.finish();
    Ok(CProgram {
        program,
        sources,
        warnings,
    })
}

/// A unit as linking decides from it: its file, its functions (name, and
/// whether `static`) and its globals.
pub struct UnitNames<'a> {
    pub file: &'a Name,
    pub functions: Vec<(&'a Name, bool)>,
    pub globals: &'a [Global],
}

impl UnitNames<'_> {
    fn of(f: &CFile) -> UnitNames<'_> {
        UnitNames {
            file: &f.source.file,
            functions: f
                .program
                .functions
                .iter()
                .map(|func| (&func.name, func.is_static))
                .collect(),
            globals: &f.program.globals,
        }
    }
}

/// Links units one by one once it knows every unit's names: which static
/// names to rename (`renames`), what to warn of; then each unit's program
/// is added ([`Linker::add`]). A unit's functions may be added with it or,
/// renamed with [`rename_function`], kept apart (the database links
/// function by function): the result does not depend on it.
pub struct Linker {
    /// Per unit, its static names that another unit uses too, and their
    /// new names.
    renames: Vec<HashMap<Name, Name>>,
    /// The external functions' names and the static ones' after renaming.
    defined: HashSet<Name>,
    warnings: Vec<LinkWarning>,
    program: Program,
}

impl Linker {
    /// Decides from the units' names; fails when they cannot form one
    /// program (a name defined twice).
    pub fn new(units: &[UnitNames<'_>]) -> Result<Linker, LowerError> {
        // Which unit defines each external function, and the units that
        // define each external global (initialised, tentatively).
        let mut functions: HashMap<Name, Name> = HashMap::new();
        let mut initialised: HashMap<Name, Name> = HashMap::new();
        let mut tentative: HashMap<Name, Vec<Name>> = HashMap::new();
        let mut statics: Vec<HashSet<Name>> = Vec::new();
        for u in units {
            let file = u.file;
            let mut mine = HashSet::new();
            for &(name, is_static) in &u.functions {
                if is_static {
                    mine.insert(name.clone());
                } else if let Some(other) = functions.insert(name.clone(), file.clone()) {
                    return Err(twice("is defined", name, &other, file));
                }
            }
            for g in u.globals {
                match definition(g) {
                    None => {
                        if matches!(
                            g.kind,
                            GlobalKind::Variable {
                                is_static: true,
                                ..
                            }
                        ) {
                            mine.insert(g.name.clone());
                        }
                    }
                    Some(Definition::Initialised) => {
                        if let Some(other) = initialised.insert(g.name.clone(), file.clone()) {
                            return Err(twice("is initialised", &g.name, &other, file));
                        }
                    }
                    Some(Definition::Tentative) => tentative
                        .entry(g.name.clone())
                        .or_default()
                        .push(file.clone()),
                    Some(Definition::Extern) => {}
                }
            }
            statics.push(mine);
        }
        for (name, units) in &tentative {
            if let Some(other) = functions.get(name) {
                return Err(LowerError(format!(
                    "`{name}` is a function in {other} and a global in {}",
                    units[0]
                )));
            }
        }
        let mut warnings = Vec::new();
        for (name, mut units) in tentative {
            if let Some(def) = initialised.get(&name) {
                units.push(def.clone());
            }
            if units.len() > 1 {
                units.sort();
                let list: Vec<&str> = units.iter().map(|u| &**u).collect();
                warnings.push(LinkWarning {
                    message: format!(
                        "`{name}` is defined in {} units ({}): one object, as with gcc's -fcommon",
                        units.len(),
                        list.join(", ")
                    ),
                    name,
                    files: units,
                });
            }
        }
        warnings.sort_by(|a, b| a.name.cmp(&b.name));
        // A static name needs renaming only where another file uses it too.
        let mut seen: HashMap<&Name, usize> = HashMap::new();
        for u in units {
            for n in u
                .functions
                .iter()
                .map(|&(n, _)| n)
                .chain(u.globals.iter().map(|g| &g.name))
            {
                *seen.entry(n).or_default() += 1;
            }
        }
        let renames: Vec<HashMap<Name, Name>> = units
            .iter()
            .zip(&statics)
            .map(|(u, mine)| {
                mine.iter()
                    .filter(|n| seen.get(n).copied().unwrap_or(0) > 1)
                    .map(|n| (n.clone(), format!("{n}@{}", u.file).into()))
                    .collect()
            })
            .collect();
        let defined = units
            .iter()
            .zip(&renames)
            .flat_map(|(u, r)| {
                u.functions
                    .iter()
                    .map(|&(n, _)| r.get(n).unwrap_or(n).clone())
            })
            .collect();
        Ok(Linker {
            renames,
            defined,
            warnings,
            program: Program::default(),
        })
    }

    /// The static names of unit `unit` that linking renames, and their
    /// new names.
    pub fn renames(&self, unit: usize) -> &HashMap<Name, Name> {
        &self.renames[unit]
    }

    /// Adds the program of unit `unit` (in the order of the units),
    /// renaming its static names.
    pub fn add(&mut self, unit: usize, mut program: Program) {
        let renames = &self.renames[unit];
        if !renames.is_empty() {
            rename(&mut program, renames);
        }
        merge(&mut self.program, program);
    }

    /// The linked program: what was added, with the declarations of
    /// functions some unit defines left out, and the warnings.
    pub fn finish(mut self) -> (Program, Vec<LinkWarning>) {
        let defined = &self.defined;
        self.program.externs.retain(|e| !defined.contains(&e.name));
        let mut seen_ext = HashSet::new();
        self.program
            .externs
            .retain(|e| seen_ext.insert(e.name.clone()));
        (self.program, self.warnings)
    }
}

/// "`x` is defined in both a.c and b.c", with a hint for `main`: a folder
/// of several programs needs a model naming one program's units.
fn twice(what: &str, name: &str, first: &str, second: &str) -> LowerError {
    let hint = if name == "main" {
        " (a folder with several programs needs a pointee.toml or compile_commands.json naming one program's units)"
    } else {
        ""
    };
    LowerError(format!(
        "`{name}` {what} in both {first} and {second}{hint}"
    ))
}

fn merge(into: &mut Program, from: Program) {
    for (k, r) in from.types.records {
        match into.types.records.get(&k) {
            Some(existing) if existing.complete => {}
            _ => {
                into.types.records.insert(k, r);
            }
        }
    }
    for g in from.globals {
        match into.globals.iter_mut().find(|x| x.name == g.name) {
            Some(existing) => merge_declaration(existing, g),
            None => into.globals.push(g),
        }
    }
    into.functions.extend(from.functions);
    into.externs.extend(from.externs);
}

fn rename(p: &mut Program, renames: &HashMap<Name, Name>) {
    for g in &mut p.globals {
        if let Some(new) = renames.get(&g.name) {
            g.name = new.clone();
        }
        for i in &mut g.init {
            for v in &mut i.values {
                rename_rvalue(v, renames);
            }
        }
    }
    for f in &mut p.functions {
        rename_function(f, renames);
    }
}

/// Renames static names in a function as linking its unit does
/// ([`Linker::renames`]).
pub fn rename_function(f: &mut std::sync::Arc<Function>, renames: &HashMap<Name, Name>) {
    if renames.is_empty() {
        return;
    }
    let f = std::sync::Arc::make_mut(f);
    if let Some(new) = renames.get(&f.name) {
        f.name = new.clone();
    }
    rename_block(&mut f.body, renames);
}

/// Renames static names in a file's source map as the linker renamed them
/// in its program (`name` -> `name@file`): function and global names, and
/// the places of its expressions.
pub fn rename_source(s: &mut SourceMap, renames: &HashMap<Name, Name>) {
    let r = |n: &mut Name| {
        if let Some(new) = renames.get(n) {
            *n = new.clone();
        }
    };
    for f in &mut s.functions {
        r(&mut f.name);
        for e in &mut f.exprs {
            rename_place(&mut e.place, renames);
        }
    }
    for g in &mut s.globals {
        r(&mut g.name);
    }
}

fn rename_place(p: &mut Place, renames: &HashMap<Name, Name>) {
    if let Base::Global(g) = &mut p.base {
        if let Some(new) = renames.get(g) {
            *g = new.clone();
        }
    }
}

fn rename_rvalue(v: &mut Rvalue, renames: &HashMap<Name, Name>) {
    match v {
        Rvalue::Use(p) | Rvalue::AddrOf(p) | Rvalue::Offset(p, ..) | Rvalue::Cast(p, _) => {
            rename_place(p, renames)
        }
        Rvalue::Function(f) => {
            if let Some(new) = renames.get(f) {
                *f = new.clone();
            }
        }
        Rvalue::Int(e) => e
            .places_mut()
            .into_iter()
            .for_each(|p| rename_place(p, renames)),
        _ => {}
    }
}

fn rename_block(b: &mut [Stmt], renames: &HashMap<Name, Name>) {
    for s in b {
        match s {
            Stmt::Basic(_, Basic::Assign { lhs, rhs }) => {
                rename_place(lhs, renames);
                rename_rvalue(rhs, renames);
            }
            Stmt::Basic(
                _,
                Basic::Call {
                    lhs, callee, args, ..
                },
            ) => {
                if let Some(l) = lhs {
                    rename_place(l, renames);
                }
                match callee {
                    Callee::Direct(f) => {
                        if let Some(new) = renames.get(f) {
                            *f = new.clone();
                        }
                    }
                    Callee::Indirect(p) | Callee::Virtual { receiver: p, .. } => {
                        rename_place(p, renames)
                    }
                }
                for a in args {
                    rename_rvalue(a, renames);
                }
            }
            Stmt::Basic(_, Basic::Use(p)) => rename_place(p, renames),
            Stmt::If {
                cond,
                then_branch,
                else_branch,
            } => {
                for p in cond.places_mut() {
                    rename_place(p, renames);
                }
                rename_block(then_branch, renames);
                rename_block(else_branch, renames);
            }
            Stmt::Loop { body } => rename_block(body, renames),
            Stmt::Switch { arms, .. } => {
                for a in arms {
                    rename_block(a, renames);
                }
            }
            _ => {}
        }
    }
}
