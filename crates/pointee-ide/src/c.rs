//! C requests: lower the workspace's C files as one program, run the
//! points-to engine (pointee-flow) and answer in editor terms.

use crate::Language;
use crate::{
    AliasCheck, Callee, CheckReport, ContextTargets, Dump, Hover, InputError, Location, Options,
    SourceFile, Target, TargetKind, Verdict, Workspace,
};
use pointee_flow::{Alias, Analysis, LocId, Root, Settings};
use pointee_ir::{Basic, Callee as IrCallee, Function, Point, Program, SourceMap, StmtId};
use std::collections::HashMap;

/// Lowers every C file of the workspace as one program: each a translation
/// unit, whose includes are read from the workspace's files, then its
/// system.
pub(crate) fn lower(ws: &Workspace) -> Result<pointee_c::CProgram, InputError> {
    let files: Vec<(&str, &str)> = ws
        .files_of(Language::C)
        .map(|f| (f.name.as_str(), f.text.as_str()))
        .collect();
    match &ws.system {
        None => pointee_c::lower(&files),
        Some(system) => pointee_c::lower_over(&files, &*system.0),
    }
    .map_err(|e| InputError(e.0))
}

fn settings(opts: &Options, program: &Program) -> Settings {
    let mut s = Settings::default();
    if let Some(bound) = opts.c_context_bound {
        s.max_contexts_per_function = bound.max(1) as usize;
    }
    // The model's entry patterns, as the program's function names.
    s.entries = opts.c_entries.as_ref().map(|patterns| {
        program
            .functions
            .iter()
            .map(|f| f.name.clone())
            .filter(|n| {
                patterns
                    .iter()
                    .any(|p| pointee_project::paths::match_name(p.as_bytes(), n.as_bytes()))
            })
            .collect()
    });
    s
}

/// Every basic statement of a body by id.
fn basics(f: &Function) -> HashMap<StmtId, &Basic> {
    let mut out = HashMap::new();
    pointee_ir::for_each_basic(&f.body, &mut |id, b| {
        out.insert(id, b);
    });
    out
}

/// A C program already lowered and analysed, answered in editor terms: its
/// files' texts, their source maps and the linked program. The server keeps
/// the analysis between requests and builds one of these per request (cheap:
/// it borrows everything).
pub struct CAnswers<'a> {
    ws: &'a Workspace,
    sources: Vec<&'a SourceMap>,
    program: &'a Program,
}

impl<'a> CAnswers<'a> {
    /// `sources` are the source maps of the linked program's files (as
    /// `pointee_c::link_files` returns them); `ws` holds the same texts.
    pub fn new(ws: &'a Workspace, sources: Vec<&'a SourceMap>, program: &'a Program) -> Self {
        CAnswers {
            ws,
            sources,
            program,
        }
    }

    fn file_of_function(&self, name: &str) -> Option<(&SourceFile, &pointee_ir::FunctionSource)> {
        self.sources.iter().find_map(|s| {
            let fs = s.function(name)?;
            Some((self.ws.file(&s.file)?, fs))
        })
    }

    fn site_location(&self, owner: &str, site: u32) -> Option<Location> {
        if let Some((file, fs)) = self.file_of_function(owner) {
            return fs
                .sites
                .get(site as usize)
                .map(|s| file.location(s.range.start));
        }
        self.sources.iter().find_map(|s| {
            let gs = s.global(owner)?;
            let file = self.ws.file(&s.file)?;
            gs.sites
                .get(site as usize)
                .map(|si| file.location(si.range.start))
        })
    }

    fn decl(&self, a: &Analysis, l: LocId) -> Option<Location> {
        let root = a.locs().get(l).root_id;
        match &a.locs().get(root).root {
            Root::Var(f, v) => {
                let fname = &self.program.functions[*f as usize].name;
                let (file, fs) = self.file_of_function(fname)?;
                fs.vars.get(v.0 as usize).map(|r| file.location(r.start))
            }
            Root::Global(_) => {
                let name = a.name(root);
                self.sources.iter().find_map(|s| {
                    let gs = s.global(&name)?;
                    Some(self.ws.file(&s.file)?.location(gs.name_range.start))
                })
            }
            Root::Func(n) => {
                let (file, fs) = self.file_of_function(n)?;
                Some(file.location(fs.name_range.start))
            }
            Root::Heap(o, s) | Root::Fresh(o, s) | Root::Str(o, s) | Root::Lit(o, s) => {
                self.site_location(o, s.0)
            }
            _ => None,
        }
    }

    /// The engine's name, with sites shown by line: `heap@12`.
    fn name(&self, a: &Analysis, l: LocId) -> String {
        let name = a.name(l);
        let root = a.locs().get(l).root_id;
        let prefix = match &a.locs().get(root).root {
            Root::Heap(..) => "heap",
            Root::Fresh(..) => "newest heap",
            Root::Str(..) => "string",
            Root::Lit(..) => "literal",
            _ => return name,
        };
        let Some(at) = self.decl(a, l) else {
            return name;
        };
        let rest = name
            .split_once('#')
            .map(|(_, r)| r.trim_start_matches(char::is_numeric))
            .unwrap_or("");
        // By line; with the column when another site shares the line.
        let (owner, site) = match &a.locs().get(root).root {
            Root::Heap(o, s) | Root::Fresh(o, s) | Root::Str(o, s) | Root::Lit(o, s) => {
                (o.clone(), s.0)
            }
            _ => return name,
        };
        let crowded = self
            .file_of_function(&owner)
            .map(|(file, fs)| {
                fs.sites.iter().enumerate().any(|(i, si)| {
                    i as u32 != site && file.location(si.range.start).line == at.line
                })
            })
            .unwrap_or(false);
        if crowded {
            format!("{prefix}@{}:{}{rest}", at.line, at.column)
        } else {
            format!("{prefix}@{}{rest}", at.line)
        }
    }

    fn kind(a: &Analysis, l: LocId) -> TargetKind {
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

    fn targets(&self, a: &Analysis, set: &[(LocId, bool)]) -> Vec<Target> {
        let mut v: Vec<Target> = set
            .iter()
            .map(|&(l, d)| Target {
                name: self.name(a, l),
                kind: Self::kind(a, l),
                definite: d,
                decl: self.decl(a, l),
                heap_context: None,
            })
            .collect();
        v.sort_by(|x, y| x.name.cmp(&y.name));
        v
    }

    /// `main > foo@12:5 > bar@30:3` elements: the function and where it was
    /// called from.
    /// A chain's elements: the function and where it was called from,
    /// `main`, `foo@12:5`, ...
    fn chain(&self, a: &Analysis, path: &[(pointee_flow::UnitId, Option<StmtId>)]) -> Vec<String> {
        let mut out = Vec::new();
        let mut caller: Option<String> = None;
        for &(u, via) in path {
            let name = a.func_name(u);
            let at = match (&caller, via) {
                (Some(c), Some(s)) => self
                    .file_of_function(c)
                    .and_then(|(file, fs)| {
                        fs.stmts.get(s.0 as usize).map(|r| file.location(r.start))
                    })
                    .map(|l| format!("@{}:{}", l.line, l.column))
                    .unwrap_or_default(),
                _ => String::new(),
            };
            out.push(format!("{name}{at}"));
            caller = Some(name.to_string());
        }
        out
    }

    /// The targets in one call chain: symbolic names also show what they
    /// stand for there, e.g. `1_p (x)`.
    fn chain_targets(
        &self,
        a: &mut Analysis,
        path: &[(pointee_flow::UnitId, Option<StmtId>)],
        set: &[(LocId, bool)],
    ) -> Vec<Target> {
        let mut out = Vec::new();
        for &(l, d) in set {
            let mut t = self.targets(a, &[(l, d)]).remove(0);
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

impl CAnswers<'_> {
    fn source_of(&self, file: &str) -> Result<&SourceMap, InputError> {
        self.sources
            .iter()
            .copied()
            .find(|s| &*s.file == file)
            .ok_or_else(|| InputError(format!("{file}: not a C file of the program")))
    }

    /// The points-to set of the innermost pointer expression at a 1-based
    /// (line, column) of `file`, merged and per call chain.
    pub fn hover(
        &self,
        a: &mut Analysis,
        file: &str,
        line: u32,
        column: u32,
    ) -> Result<Hover, InputError> {
        let (sf, off) = self.ws.position(file, line, column)?;
        let source = self.source_of(file)?;
        let Some((fs, e)) = source.expr_at(off) else {
            return Err(InputError(format!(
                "{file}:{line}:{column}: no pointer expression here"
            )));
        };
        let rv = pointee_ir::Rvalue::Use(e.place.clone());
        let per = a.values_at(&fs.name, e.point, &rv);
        let merged = Analysis::merge_values(&per);
        let mut contexts = Vec::new();
        let mut extra = true;
        let mut merged_by_bound = false;
        for c in &per {
            let Some(t) = &c.targets else { continue };
            extra &= a.extra_only(c.unit);
            merged_by_bound |= a.unit(c.unit).merged;
            // One entry per call chain that reaches this context (a shared
            // memoized context has several).
            for path in a.chain_paths(c.unit, 8) {
                let chain = self.chain(a, &path);
                let targets = self.chain_targets(a, &path, t);
                contexts.push(ContextTargets { chain, targets });
            }
        }
        Ok(Hover {
            expr: sf.text_of(e.range).to_string(),
            span: sf.span(e.range),
            reachable: merged.is_some(),
            merged: merged_by_bound,
            extra_entry: merged.is_some() && extra,
            targets: merged.map(|m| self.targets(a, &m)).unwrap_or_default(),
            contexts,
        })
    }

    /// The possible callees of the call at a 1-based (line, column) of `file`.
    pub fn callees(
        &self,
        a: &Analysis,
        file: &str,
        line: u32,
        column: u32,
    ) -> Result<Vec<Callee>, InputError> {
        let (_, off) = self.ws.position(file, line, column)?;
        let source = self.source_of(file)?;
        let Some((fs, call)) = source.call_at(off) else {
            return Err(InputError(format!("{file}:{line}:{column}: no call here")));
        };
        let mut names = a.callees(&fs.name, call.stmt);
        if names.is_empty() {
            // No context reaches the call: a direct call still names its callee.
            if let Some(func) = self.program.function(&fs.name) {
                if let Some(Basic::Call {
                    callee: IrCallee::Direct(n),
                    ..
                }) = basics(func).get(&call.stmt)
                {
                    names.push(n.clone());
                }
            }
        }
        let mut out: Vec<Callee> = names
            .into_iter()
            .map(|n| Callee {
                decl: self
                    .file_of_function(&n)
                    .map(|(f, s)| f.location(s.name_range.start)),
                name: n.to_string(),
            })
            .collect();
        out.sort();
        Ok(out)
    }

    /// The alias checks of every file, with their verdicts, and the
    /// analysis's figures.
    pub fn check(&self, a: &mut Analysis) -> CheckReport {
        let mut report = CheckReport::default();
        for source in &self.sources {
            let Some(file) = self.ws.file(&source.file) else {
                continue;
            };
            for fs in &source.functions {
                let Some(func) = self.program.function(&fs.name) else {
                    continue;
                };
                let stmts = basics(func);
                for call in &fs.calls {
                    let Some(Basic::Call {
                        callee: IrCallee::Direct(name),
                        args,
                        ..
                    }) = stmts.get(&call.stmt)
                    else {
                        continue;
                    };
                    if !pointee_flow::is_alias_check(name) || args.len() != 2 {
                        continue;
                    }
                    let alias = a.alias(&fs.name, Point::Before(call.stmt), &args[0], &args[1]);
                    report.alias_checks.push(AliasCheck {
                        at: file.location(call.range.start),
                        check: name.to_string(),
                        verdict: verdict(alias),
                        ok: pointee_flow::check_holds(name, alias),
                    });
                }
            }
        }
        report.alias_checks.sort();
        report.stats = a.stats();
        report
    }
}

/// Lowers and analyses the workspace's C files, then answers `ask`.
fn answer<T>(
    ws: &Workspace,
    opts: &Options,
    ask: impl FnOnce(&CAnswers, &mut Analysis) -> Result<T, InputError>,
) -> Result<T, InputError> {
    let lowered = lower(ws)?;
    let mut a = pointee_flow::analyze(&lowered.program, settings(opts, &lowered.program));
    let answers = CAnswers::new(ws, lowered.sources.iter().collect(), &lowered.program);
    ask(&answers, &mut a)
}

pub(crate) fn hover(
    ws: &Workspace,
    file: &str,
    line: u32,
    column: u32,
    opts: &Options,
) -> Result<Hover, InputError> {
    answer(ws, opts, |c, a| c.hover(a, file, line, column))
}

pub(crate) fn callees(
    ws: &Workspace,
    file: &str,
    line: u32,
    column: u32,
    opts: &Options,
) -> Result<Vec<Callee>, InputError> {
    answer(ws, opts, |c, a| c.callees(a, file, line, column))
}

fn verdict(a: Alias) -> Verdict {
    match a {
        Alias::No => Verdict::No,
        Alias::May => Verdict::May,
        Alias::Must => Verdict::Must,
        Alias::Unreachable => Verdict::Unreachable,
    }
}

pub(crate) fn check(ws: &Workspace, opts: &Options) -> Result<CheckReport, InputError> {
    answer(ws, opts, |c, a| Ok(c.check(a)))
}

pub(crate) fn dump(ws: &Workspace, opts: &Options) -> Result<Dump, InputError> {
    let lowered = lower(ws)?;
    let program = &lowered.program;
    let mut a = (!opts.no_facts).then(|| pointee_flow::analyze(program, settings(opts, program)));
    let mut units = std::collections::HashMap::new();
    let mut dump = Dump::of_program(ws, program, &lowered.sources, opts, |name, s| {
        match a.as_mut() {
            Some(a) => {
                if !units.contains_key(name) {
                    units.insert(name.to_string(), a.units_of(name));
                }
                facts_after(a, &units[name], s)
            }
            None => Vec::new(),
        }
    });
    dump.globals = program
        .globals
        .iter()
        .map(|g| g.to_display_string())
        .collect();
    if let Some(a) = &a {
        let graph: Vec<String> = a.render_graph().lines().map(str::to_string).collect();
        dump.sections.push(("invocation graph".into(), graph));
    }
    Ok(dump)
}

/// The facts after a statement, merged over the contexts that reach it.
fn facts_after(a: &mut Analysis, units: &[pointee_flow::UnitId], s: StmtId) -> Vec<String> {
    let mut merged: pointee_flow::State = None;
    let mut any = false;
    for &u in units {
        if let Some(f) = a.facts_at(u, Point::After(s)) {
            let f = f.clone();
            merged = Some(match merged {
                None => f,
                Some(m) => pointee_flow::Facts::merge(&m, &f),
            });
            any = true;
        }
    }
    match merged {
        Some(m) => a.render_facts(&m),
        None if !any => vec!["unreachable".into()],
        None => Vec::new(),
    }
}
