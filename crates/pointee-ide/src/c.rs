//! The C program of a project as answers see it: where each function,
//! global and site of the linked program is in the source, and the engine's
//! locations named in the user's terms (`heap@12`, `main > start@48:9`).
//!
//! Positions come from `pointee_db::lower_c` (the file's source map); names
//! of the linked program (`name`, or `name@file` for a renamed static) are
//! mapped to files by `pointee_db::c_symbols`.

use crate::{Analysis, FileId, FileRange, Target, TargetKind};
use pointee_db::{CEngine, CSymbols, Database, Lang, Project};
use pointee_flow::{LocId, Root, Step, UnitId};
use pointee_ir::{
    Base, FunctionSource, GlobalSource, LineIndex, Name, Place, Range, Rvalue, SourceMap, StmtId,
};

/// The engine's analysis (named apart from this crate's [`Analysis`]).
pub(crate) type Flow<'p> = pointee_flow::Analysis<'p>;

#[derive(Clone)]
pub(crate) struct CProgram<'a> {
    pub db: &'a Database,
    pub project: Project,
    symbols: &'a CSymbols,
}

impl<'a> CProgram<'a> {
    pub fn new(a: &'a Analysis, project: Project) -> CProgram<'a> {
        let db = a.db();
        CProgram {
            db,
            project,
            symbols: pointee_db::c_symbols(db, project),
        }
    }

    /// The C program `file` belongs to.
    pub fn of(a: &'a Analysis, file: FileId) -> Option<CProgram<'a>> {
        (a.lang(file) == Some(Lang::C)).then(|| CProgram::new(a, a.project_of(file)))
    }

    /// The engine's run over the program, when the files link.
    pub fn engine(&self) -> Option<CEngine> {
        pointee_db::c_engine(self.db, self.project)
            .as_ref()
            .ok()
            .cloned()
    }

    /// The C translation units of the program, in path order.
    pub fn files(&self) -> impl Iterator<Item = FileId> + 'a {
        pointee_db::c_units(self.db, self.project)
    }

    /// Every source map of the program with the IR it describes: each
    /// unit's, then what each unit lowered from a header of the workspace
    /// (a header included by several units comes once per unit).
    pub fn sources(&self) -> Vec<(FileId, &'a SourceMap, &'a pointee_ir::Program)> {
        let mut out = Vec::new();
        let mut headers = Vec::new();
        for unit in self.files() {
            let l = pointee_db::lower_c(self.db, unit);
            out.push((unit, &l.source, &l.program));
            for h in &l.headers {
                if let Some(file) = pointee_db::c_file_at(self.db, &h.file) {
                    headers.push((file, h, &l.program));
                }
            }
        }
        out.extend(headers);
        out
    }

    /// A file's source map (absolute positions). A header's is what the
    /// first unit that includes it (in path order) lowered from it: the
    /// functions it defines (`static inline` ones), as that unit compiled
    /// them; a header no unit includes is lowered on its own. Answers that
    /// merge every includer's copy read [`CProgram::copies`].
    pub fn source(&self, file: FileId) -> &'a SourceMap {
        match self.includers(file).next() {
            Some((_, map)) => map,
            None => &pointee_db::lower_c(self.db, file).source,
        }
    }

    /// Every copy of `file` the program compiled, with the file whose
    /// names its functions take (`program_name`): a unit is its own one
    /// copy; a header's functions are compiled once by each unit that
    /// includes it (in path order), each copy a function of its own
    /// (`static inline`); a header no unit includes, lowered on its own.
    pub fn copies(&self, file: FileId) -> Vec<(FileId, &'a SourceMap)> {
        let mut out: Vec<_> = self.includers(file).collect();
        if out.is_empty() {
            out.push((file, &pointee_db::lower_c(self.db, file).source));
        }
        out
    }

    /// The units of the program that include the header `file`, with what
    /// each lowered from it; none for a unit.
    fn includers(&self, file: FileId) -> impl Iterator<Item = (FileId, &'a SourceMap)> + '_ {
        let header = !Lang::is_c_unit(file.path(self.db));
        self.files()
            .filter(move |_| header)
            .filter_map(move |unit| {
                let l = pointee_db::lower_c(self.db, unit);
                let h = l
                    .headers
                    .iter()
                    .find(|h| pointee_db::c_file_at(self.db, &h.file) == Some(file))?;
                Some((unit, h))
            })
    }

    pub fn lines(&self, file: FileId) -> &'a LineIndex {
        pointee_db::line_index(self.db, file)
    }

    pub fn text(&self, file: FileId, range: Range) -> &'a str {
        file.text(self.db)
            .get(range.start as usize..range.end as usize)
            .unwrap_or("")
    }

    /// The 1-based (line, character column) of an offset: how answers name
    /// sites and calls (`heap@12`, `start@48:9`).
    pub fn line_col(&self, file: FileId, offset: u32) -> (u32, u32) {
        let (l, c) = self.lines(file).line_col_chars(offset);
        (l as u32 + 1, c as u32 + 1)
    }

    /// The linked program's name of a function or global as `file` names it.
    pub fn program_name(&self, file: FileId, name: &str) -> Name {
        // A header's static functions are its includer's.
        let file = self.includers(file).next().map_or(file, |(unit, _)| unit);
        self.symbols.program_name(self.db, file, name)
    }

    /// A place of `file`'s source map as the linked program names it (a
    /// renamed static global).
    pub fn place(&self, file: FileId, place: &Place) -> Place {
        let mut p = place.clone();
        if let Base::Global(g) = &mut p.base {
            *g = self.program_name(file, g);
        }
        p
    }

    /// The value of a source expression of `file`, to ask the engine.
    pub fn rvalue(&self, file: FileId, place: &Place) -> Rvalue {
        Rvalue::Use(self.place(file, place))
    }

    /// Where a function of the linked program is defined.
    /// A function a header defines is found in the copy of the unit whose
    /// name it has (in the header).
    pub fn function_source(&self, name: &str) -> Option<(FileId, &'a FunctionSource)> {
        let (unit, base) = self.symbols.functions.get(name)?;
        if let Some(fs) = self.source(*unit).function(base) {
            return Some((*unit, fs));
        }
        pointee_db::lower_c(self.db, *unit)
            .headers
            .iter()
            .find_map(|h| Some((pointee_db::c_file_at(self.db, &h.file)?, h.function(base)?)))
    }

    /// Every copy of every file the program compiled: `(file, unit, map)`,
    /// the file its ranges are in, the unit whose names its functions and
    /// statics take (`program_name(unit, ..)`), and the map: each unit,
    /// then each header once per unit that includes it.
    pub fn every_copy(&self) -> Vec<(FileId, FileId, &'a SourceMap)> {
        let mut out = Vec::new();
        let mut headers = Vec::new();
        for unit in self.files() {
            let l = pointee_db::lower_c(self.db, unit);
            out.push((unit, unit, &l.source));
            for h in &l.headers {
                if let Some(file) = pointee_db::c_file_at(self.db, &h.file) {
                    headers.push((file, unit, h));
                }
            }
        }
        out.extend(headers);
        out
    }

    /// The program's names of the function `name` (a name of the program)
    /// of `file`: one per copy of it the program compiled (a header's
    /// function: every includer's), `name` alone otherwise.
    pub fn copy_names(&self, file: FileId, name: &str) -> Vec<Name> {
        let copies = self.copies(file);
        let base = copies.iter().find_map(|(unit, map)| {
            map.functions
                .iter()
                .find(|fs| *self.program_name(*unit, &fs.name) == *name)
                .map(|fs| fs.name.clone())
        });
        let Some(base) = base else {
            return vec![name.into()];
        };
        copies
            .iter()
            .filter(|(_, map)| map.function(&base).is_some())
            .map(|(unit, _)| self.program_name(*unit, &base))
            .collect()
    }

    /// Where a global of the linked program is declared (the first file
    /// that declares it).
    pub fn global_source(&self, name: &str) -> Option<(FileId, &'a GlobalSource)> {
        self.symbols
            .globals
            .get(name)?
            .iter()
            .find_map(|(file, base)| Some((*file, self.source(*file).global(base)?)))
    }

    /// Where a site (allocation, string, compound literal) of a function or
    /// of a global's initialiser is.
    fn site(&self, owner: &str, site: u32) -> Option<FileRange> {
        if let Some((file, fs)) = self.function_source(owner) {
            let range = fs.sites.get(site as usize)?.range;
            return Some(FileRange { file, range });
        }
        let (file, gs) = self.global_source(owner)?;
        let range = gs.sites.get(site as usize)?.range;
        Some(FileRange { file, range })
    }

    /// Where an engine location is declared or allocated.
    pub fn decl(&self, a: &Flow, l: LocId) -> Option<FileRange> {
        let root = a.locs().get(l).root_id;
        match &a.locs().get(root).root {
            Root::Var(f, v) => {
                let fname = a.locs().func_name(*f);
                let (file, fs) = self.function_source(fname)?;
                let range = *fs.vars.get(v.0 as usize)?;
                Some(FileRange { file, range })
            }
            Root::Global(_) => {
                let (file, gs) = self.global_source(&a.name(root))?;
                Some(FileRange {
                    file,
                    range: gs.name_range,
                })
            }
            Root::Func(n) => {
                let (file, fs) = self.function_source(n)?;
                Some(FileRange {
                    file,
                    range: fs.name_range,
                })
            }
            Root::Heap(o, s, _) | Root::Fresh(o, s, _) | Root::Str(o, s) | Root::Lit(o, s) => {
                self.site(o, s.0)
            }
            _ => None,
        }
    }

    /// The engine's name, with sites shown by line: `heap@12`; a heap
    /// object named by the calls that made it, with them (innermost first)
    /// by function and line: `heap@12<main@30>`; the newest object of a
    /// name: `newest heap@12<main@30>`. A site shares its line with
    /// another site of its function: with the column too (`main@18:29`),
    /// so that two locations never print alike.
    pub fn name(&self, a: &Flow, l: LocId) -> String {
        let name = a.name(l);
        let root = a.locs().get(l).root_id;
        let mut calls = String::new();
        let (prefix, owner, site) = match &a.locs().get(root).root {
            Root::Heap(o, s, ctx) | Root::Fresh(o, s, ctx) => {
                let shown: Vec<String> = ctx
                    .iter()
                    .map(|(caller, at)| match self.site_position(caller, at.0) {
                        Some(pos) => format!("{caller}@{pos}"),
                        None => format!("{caller}#{}", at.0),
                    })
                    .collect();
                if !shown.is_empty() {
                    calls = format!("<{}>", shown.join(","));
                }
                let newest = matches!(a.locs().get(root).root, Root::Fresh(..));
                (if newest { "newest heap" } else { "heap" }, o, s.0)
            }
            Root::Str(o, s) => ("string", o, s.0),
            Root::Lit(o, s) => ("literal", o, s.0),
            _ => return name,
        };
        let Some(pos) = self.site_position(owner, site) else {
            return name;
        };
        // The path after the root's own name (`.f`, `[+]`).
        let rest = format!("{calls}{}", &name[a.name(root).len()..]);
        format!("{prefix}@{pos}{rest}")
    }

    /// Where a site of `owner` (a function or a global's initialiser) is,
    /// as users read it: its line, with the column when another site of
    /// the same function shares the line.
    fn site_position(&self, owner: &str, site: u32) -> Option<String> {
        let at = self.site(owner, site)?;
        let (line, column) = self.line_col(at.file, at.range.start);
        let crowded = self.function_source(owner).is_some_and(|(file, fs)| {
            fs.sites
                .iter()
                .enumerate()
                .any(|(i, si)| i as u32 != site && self.line_col(file, si.range.start).0 == line)
        });
        Some(if crowded {
            format!("{line}:{column}")
        } else {
            line.to_string()
        })
    }

    pub fn kind(a: &Flow, l: LocId) -> TargetKind {
        match a.kind(l) {
            "local" => TargetKind::Local,
            "param" => TargetKind::Param,
            "global" => TargetKind::Global,
            "field" => TargetKind::Field,
            "array" => TargetKind::Array,
            "heap" => TargetKind::Heap,
            "function" => TargetKind::Function,
            "string" => TargetKind::String,
            "symbolic" => TargetKind::Symbolic,
            "null" => TargetKind::Null,
            "uninit" => TargetKind::Uninit,
            "freed" => TargetKind::Freed,
            "dangling" => TargetKind::Dangling,
            _ => TargetKind::Unknown,
        }
    }

    pub fn target(&self, a: &Flow, l: LocId, definite: bool) -> Target {
        Target {
            name: self.name(a, l),
            kind: Self::kind(a, l),
            definite,
            decl: self.decl(a, l),
            heap_context: None,
            meaning: meaning(a, l),
        }
    }

    /// A set's targets, sorted by name.
    pub fn targets(&self, a: &Flow, set: &[(LocId, bool)]) -> Vec<Target> {
        let mut v: Vec<Target> = set.iter().map(|&(l, d)| self.target(a, l, d)).collect();
        v.sort_by(|x, y| x.name.cmp(&y.name));
        v
    }

    /// A chain's elements: the function and where it was called from,
    /// `main`, `foo@12:5`, ...
    pub fn chain(&self, a: &Flow, path: &[(UnitId, Option<StmtId>)]) -> Vec<String> {
        let mut out = Vec::new();
        let mut caller: Option<&Name> = None;
        for &(u, via) in path {
            let name = a.func_name(u);
            let at = match (caller, via) {
                (Some(c), Some(s)) => self
                    .function_source(c)
                    .and_then(|(file, fs)| {
                        let r = fs.stmts.get(s.0 as usize)?;
                        Some(self.line_col(file, r.start))
                    })
                    .map(|(l, c)| format!("@{l}:{c}"))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            out.push(format!("{name}{at}"));
            caller = Some(name);
        }
        out
    }

    /// The targets in one call chain: symbolic names also show what they
    /// stand for there, e.g. `1_p (x)`.
    pub fn chain_targets(
        &self,
        a: &mut Flow,
        path: &[(UnitId, Option<StmtId>)],
        set: &[(LocId, bool)],
    ) -> Vec<Target> {
        let mut out = Vec::new();
        for &(l, d) in set {
            let mut t = self.target(a, l, d);
            if t.kind == TargetKind::Symbolic {
                let stands = a.resolve(path, l);
                if stands != [l] && !stands.is_empty() {
                    let names: Vec<String> = stands.iter().map(|&x| self.name(a, x)).collect();
                    t.name = format!("{} ({})", t.name, names.join(", "));
                    if stands.len() == 1 {
                        t.decl = self.decl(a, stands[0]);
                    }
                }
            }
            out.push(t);
        }
        out.sort_by(|x, y| x.name.cmp(&y.name));
        out
    }
}

/// A symbolic name in the user's terms: what it stands for when its
/// function is entered. `1_p` of a parameter `p` of `f` is "what callers of
/// `f` pass as `p`"; deeper or through a global or a field, the C
/// expression on entry (`2_p` is "`**p` on entry", `1_s.next` is
/// "`s->next` on entry"); a name standing for several objects says so.
/// `None` for what is not symbolic.
pub(crate) fn meaning(a: &Flow, l: LocId) -> Option<String> {
    let locs = a.locs();
    let d = locs.get(l);
    let Root::Sym { ptr, multi } = locs.get(d.root_id).root else {
        return None;
    };
    let several = if multi {
        ", one of several objects"
    } else {
        ""
    };
    let p = locs.get(ptr);
    if let (Root::Var(f, _), true, true) = (&p.root, p.path.is_empty(), d.path.is_empty()) {
        if a.kind(ptr) == "param" {
            return Some(format!(
                "what callers of `{}` pass as `{}`{several}",
                locs.func_name(*f),
                locs.name(ptr)
            ));
        }
    }
    Some(format!("`{}` on entry{several}", entry_expr(a, l)?))
}

/// The C expression that names a location on entry to its function:
/// `p`, `*p`, `p->next`, `(*p)[i]`, ...; `None` for a location no
/// expression names (heap objects, functions, special values).
fn entry_expr(a: &Flow, l: LocId) -> Option<String> {
    let locs = a.locs();
    let d = locs.get(l);
    let mut e = match locs.get(d.root_id).root {
        Root::Sym { ptr, .. } => format!("*{}", entry_expr(a, ptr)?),
        Root::Var(..) | Root::Global(_) => locs.name(d.root_id),
        _ => return None,
    };
    for step in &d.path {
        // A postfix step binds tighter than `*`: `*p` then `.f` is `p->f`,
        // `**p` then `.f` is `(*p)->f`, `*p` then `[0]` is `(*p)[0]`.
        let operand = |e: &str| match e.strip_prefix('*') {
            Some(inner) if inner.starts_with('*') => format!("({inner})"),
            Some(inner) => inner.to_string(),
            None => e.to_string(),
        };
        e = match (step, e.starts_with('*')) {
            (Step::Field(f), true) => format!("{}->{f}", operand(&e)),
            (Step::Field(f), false) => format!("{e}.{f}"),
            (Step::Head, true) => format!("({e})[0]"),
            (Step::Head, false) => format!("{e}[0]"),
            (Step::Tail, true) => format!("({e})[i]"),
            (Step::Tail, false) => format!("{e}[i]"),
        };
    }
    Some(e)
}
