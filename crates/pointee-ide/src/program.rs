//! Either language's program, for the answers that read both the same way:
//! where functions are, the resolved call edges, and the callees of a call
//! (one answer for `callees`, go to implementation and definition, hover's
//! "may call" and the call hierarchy).

use crate::c::CProgram;
use crate::java::JavaProgram;
use crate::{Analysis, Callee, FileId, FileRange, Lang};
use pointee_db::{CallEdge, Project};
use pointee_ir::{CallInfo, FunctionSource, SourceMap};

pub(crate) enum Program<'a> {
    C(CProgram<'a>),
    Java(JavaProgram<'a>),
}

impl<'a> Program<'a> {
    pub fn new(a: &'a Analysis, lang: Lang, project: Project) -> Program<'a> {
        match lang {
            Lang::C => Program::C(CProgram::new(a, project)),
            Lang::Java => Program::Java(JavaProgram::new(a, project)),
        }
    }

    /// The program `file` belongs to.
    pub fn of(a: &'a Analysis, file: FileId) -> Option<Program<'a>> {
        Some(Program::new(a, a.lang(file)?, a.project_of(file)))
    }

    pub fn lang(&self) -> Lang {
        match self {
            Program::C(_) => Lang::C,
            Program::Java(_) => Lang::Java,
        }
    }

    /// A file's source map.
    pub fn source(&self, file: FileId) -> Option<&'a SourceMap> {
        match self {
            Program::C(c) => Some(c.source(file)),
            Program::Java(j) => j.source_map(file),
        }
    }

    /// The program's name of a function as `file` names it (C: a renamed
    /// static).
    pub fn program_name(&self, file: FileId, name: &str) -> String {
        match self {
            Program::C(c) => c.program_name(file, name).to_string(),
            Program::Java(_) => name.to_string(),
        }
    }

    /// The program's names of every copy of the function `name` of `file`
    /// (C: a header's function has one per includer; otherwise `name`).
    pub fn copy_names(&self, file: FileId, name: &str) -> Vec<String> {
        match self {
            Program::C(c) => c
                .copy_names(file, name)
                .iter()
                .map(|n| n.to_string())
                .collect(),
            Program::Java(_) => vec![name.to_string()],
        }
    }

    /// Where a function of the program is defined.
    pub fn function_source(&self, name: &str) -> Option<(FileId, &'a FunctionSource)> {
        match self {
            Program::C(c) => c.function_source(name),
            Program::Java(j) => j.function_source(name),
        }
    }

    /// The resolved call edges of the program (direct ones, and those
    /// through function pointers or virtual dispatch the analysis found).
    pub fn edges(&self) -> &'a [CallEdge] {
        match self {
            Program::C(c) => pointee_db::c_analysis(c.db, c.project)
                .as_ref()
                .map(|a| &a.edges[..])
                .unwrap_or(&[]),
            Program::Java(j) => pointee_db::java_analysis(j.db(), j.project)
                .as_ref()
                .map(|a| &a.edges[..])
                .unwrap_or(&[]),
        }
    }

    /// The edges of one call of `caller` (a program name).
    pub fn edges_of<'s>(
        &'s self,
        caller: &'s str,
        call: &'s CallInfo,
    ) -> impl Iterator<Item = &'a CallEdge> + 's {
        self.edges()
            .iter()
            .filter(move |e| *e.caller == *caller && e.stmt == call.stmt)
    }

    /// Every function the call may reach, by name, with where it is
    /// defined (none for a library function). A direct call no analysed
    /// context reaches still names its callee.
    pub fn callees(&self, caller: &str, call: &CallInfo) -> Vec<Callee> {
        let mut names: Vec<&str> = self.edges_of(caller, call).map(|e| &*e.callee).collect();
        let direct;
        if names.is_empty() {
            direct = self.direct_callee(caller, call);
            names.extend(direct.as_deref());
        }
        names.sort();
        names.dedup();
        names
            .into_iter()
            .map(|n| Callee {
                name: n.to_string(),
                decl: self.function_source(n).map(|(file, fs)| FileRange {
                    file,
                    range: fs.name_range,
                }),
            })
            .collect()
    }

    /// The callees of the call `pick` finds in `file`, merged over every
    /// copy of it the program compiled (a C header's functions: one per
    /// includer, `CProgram::copies`); `None` when no copy has that call.
    /// One function defined once is listed once (a header's static
    /// function has a name per copy).
    pub fn callees_in_copies(
        &self,
        file: FileId,
        pick: impl Fn(&'a SourceMap) -> Option<(&'a FunctionSource, &'a CallInfo)>,
    ) -> Option<Vec<Callee>> {
        let copies = match self {
            Program::C(c) => c.copies(file),
            Program::Java(j) => vec![(file, j.source_map(file)?)],
        };
        let mut found = false;
        let mut out: Vec<Callee> = Vec::new();
        for (unit, map) in copies {
            let Some((fs, call)) = pick(map) else {
                continue;
            };
            found = true;
            for callee in self.callees(&self.program_name(unit, &fs.name), call) {
                let same = |o: &Callee| match (o.decl, callee.decl) {
                    (Some(a), Some(b)) => a == b,
                    _ => o.name == callee.name,
                };
                if !out.iter().any(same) {
                    out.push(callee);
                }
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        found.then_some(out)
    }

    /// The callee a C call names (`None` through a function pointer).
    pub fn direct_callee(&self, caller: &str, call: &CallInfo) -> Option<String> {
        let Program::C(c) = self else { return None };
        let program = pointee_db::c_program(c.db, c.project).as_ref().ok()?;
        let f = program.function(caller)?;
        let mut out = None;
        pointee_ir::for_each_basic(&f.body, &mut |id, b| {
            if let pointee_ir::Basic::Call {
                callee: pointee_ir::Callee::Direct(n),
                ..
            } = b
            {
                if id == call.stmt {
                    out = Some(n.to_string());
                }
            }
        });
        out
    }
}
