//! Linking lowered files into one program: external names are shared, a name
//! defined twice externally is an error, and `static` names of different
//! files are kept apart by renaming (`name@file`).

use crate::{CFile, CProgram};
use pointee_ir::{Base, Basic, Callee, GlobalKind, Name, Place, Program, Rvalue, SourceMap, Stmt};
use std::collections::{HashMap, HashSet};

/// A program that cannot be formed (e.g. two external definitions of one name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError(pub String);

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

pub(crate) fn link(files: Vec<CFile>) -> Result<CProgram, LowerError> {
    if files.len() == 1 {
        let f = files.into_iter().next().expect("one file");
        return Ok(CProgram {
            program: f.program,
            sources: vec![f.source],
        });
    }
    // Which file defines each external name.
    let mut defined: HashMap<Name, Name> = HashMap::new();
    let mut statics: Vec<HashSet<Name>> = Vec::new();
    for f in &files {
        let mut mine = HashSet::new();
        for func in &f.program.functions {
            if func.is_static {
                mine.insert(func.name.clone());
            } else if let Some(other) = defined.insert(func.name.clone(), f.source.file.clone()) {
                return Err(LowerError(format!(
                    "`{}` is defined in both {} and {}",
                    func.name, other, f.source.file
                )));
            }
        }
        for g in &f.program.globals {
            if matches!(g.kind, GlobalKind::Variable { is_static: true }) {
                mine.insert(g.name.clone());
            } else if !g.init.is_empty() {
                if let Some(other) = defined.insert(g.name.clone(), f.source.file.clone()) {
                    if other != f.source.file {
                        return Err(LowerError(format!(
                            "`{}` is defined (initialised) in both {} and {}",
                            g.name, other, f.source.file
                        )));
                    }
                }
            }
        }
        statics.push(mine);
    }
    // A static name needs renaming only where another file uses it too.
    let mut seen: HashMap<Name, usize> = HashMap::new();
    for f in &files {
        for n in f
            .program
            .functions
            .iter()
            .map(|x| &x.name)
            .chain(f.program.globals.iter().map(|g| &g.name))
        {
            *seen.entry(n.clone()).or_default() += 1;
        }
    }
    let mut program = Program::default();
    let mut sources = Vec::new();
    for (i, mut f) in files.into_iter().enumerate() {
        let renames: HashMap<Name, Name> = statics[i]
            .iter()
            .filter(|n| seen.get(*n).copied().unwrap_or(0) > 1)
            .map(|n| (n.clone(), format!("{n}@{}", f.source.file).into()))
            .collect();
        if !renames.is_empty() {
            rename(&mut f.program, &mut f.source, &renames);
        }
        merge(&mut program, f.program);
        sources.push(f.source);
    }
    let defined_fns: HashSet<Name> = program.functions.iter().map(|f| f.name.clone()).collect();
    program.externs.retain(|e| !defined_fns.contains(&e.name));
    let mut seen_ext = HashSet::new();
    program.externs.retain(|e| seen_ext.insert(e.name.clone()));
    Ok(CProgram { program, sources })
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
            Some(existing) => {
                if existing.init.is_empty() && !g.init.is_empty() {
                    *existing = g;
                }
            }
            None => into.globals.push(g),
        }
    }
    into.functions.extend(from.functions);
    into.externs.extend(from.externs);
}

fn rename(p: &mut Program, s: &mut SourceMap, renames: &HashMap<Name, Name>) {
    let r = |n: &mut Name| {
        if let Some(new) = renames.get(n) {
            *n = new.clone();
        }
    };
    for g in &mut p.globals {
        r(&mut g.name);
        for i in &mut g.init {
            for v in &mut i.values {
                rename_rvalue(v, renames);
            }
        }
    }
    for f in &mut p.functions {
        let f = std::sync::Arc::make_mut(f);
        r(&mut f.name);
        rename_block(&mut f.body, renames);
    }
    rename_source(s, renames);
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
        Rvalue::Use(p) | Rvalue::AddrOf(p) | Rvalue::Offset(p, _) | Rvalue::Cast(p, _) => {
            rename_place(p, renames)
        }
        Rvalue::Function(f) => {
            if let Some(new) = renames.get(f) {
                *f = new.clone();
            }
        }
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
                if let pointee_ir::Cond::IsNull(p) | pointee_ir::Cond::NotNull(p) = cond {
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
