//! Dump: every function's IR, line by line, with the statement each line
//! came from and the facts after it; globals with their initial values;
//! whole-program sections (C: the invocation graph; Java: points-to sets,
//! field and static points-to sets, the call graph, figures); the front
//! end's notes.

use crate::c::{CProgram, Flow};
use crate::java::JavaProgram;
use crate::{Analysis, FileId, FileRange, Lang};
use pointee_cspta::{CtxId, PtSet};
use pointee_ir::{Name, Point, Program, SourceMap, StmtId};
use std::collections::{HashMap, HashSet};

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dump {
    /// Globals with their initial values, one a line.
    pub globals: Vec<String>,
    pub functions: Vec<DumpFunction>,
    /// Whole-program sections after the functions, e.g. the invocation graph.
    pub sections: Vec<(String, Vec<String>)>,
    pub notes: Vec<DumpNote>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpFunction {
    pub name: String,
    /// The function's name in its definition.
    pub at: FileRange,
    /// `fn f(p: int*) -> int`.
    pub header: String,
    /// Locals and temporaries with their types.
    pub locals: String,
    pub lines: Vec<DumpLine>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpLine {
    /// The source of a basic statement.
    pub at: Option<FileRange>,
    /// Nesting depth of the statement in the structured body.
    pub depth: usize,
    pub text: String,
    /// Facts after the statement (empty without an analysis).
    pub facts: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpNote {
    pub at: FileRange,
    pub kind: String,
    pub message: String,
}

/// What to dump.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DumpConfig {
    /// The front end's notes (what it skipped or approximated).
    pub verbose: bool,
    /// Without facts: the IR only (C runs no analysis); no sections.
    pub no_facts: bool,
}

pub(crate) fn dump(a: &Analysis, lang: Lang, config: &DumpConfig) -> Dump {
    let mut dump = match lang {
        Lang::C => c_dump(a, &CProgram::new(a, a.main()), config),
        Lang::Java => java_dump(a, &JavaProgram::new(a, a.main()), config),
    };
    dump.functions
        .sort_by(|x, y| (a.key(x.at), &x.name).cmp(&(a.key(y.at), &y.name)));
    dump.notes.sort_by(|x, y| {
        (a.key(x.at), &x.kind, &x.message).cmp(&(a.key(y.at), &y.kind, &y.message))
    });
    if config.no_facts {
        // What the analysis found goes; what the front end read stays.
        dump.sections.retain(|(title, _)| title == MACRO_EXPANSIONS);
    }
    dump
}

const MACRO_EXPANSIONS: &str = "macro expansions";

/// Each outermost macro use of the files (with `verbose`): `file:line:col:
/// use => expansion`, in file order.
fn expansions(a: &Analysis, files: &[(FileId, &SourceMap)]) -> Option<(String, Vec<String>)> {
    let mut lines: Vec<((&str, u32), String)> = Vec::new();
    for &(file, source) in files {
        let text = a.file_text(file);
        let Ok(index) = a.line_index(file) else {
            continue;
        };
        let path = a.file_path(file);
        for e in &source.expansions {
            let (line, col) = index.line_col_chars(e.range.start);
            let used = text
                .get(e.range.start as usize..e.range.end as usize)
                .unwrap_or("");
            lines.push((
                (path, e.range.start),
                format!(
                    "{path}:{}:{}: {used} => {}",
                    line + 1,
                    col + 1,
                    shorten(&e.text)
                ),
            ));
        }
    }
    lines.sort();
    (!lines.is_empty()).then(|| {
        (
            MACRO_EXPANSIONS.to_string(),
            lines.into_iter().map(|(_, l)| l).collect(),
        )
    })
}

/// A long expansion, cut to a line's length.
fn shorten(text: &str) -> String {
    const MAX: usize = 160;
    match text.char_indices().nth(MAX) {
        Some((i, _)) => format!("{} ...", &text[..i]),
        None => text.to_string(),
    }
}

/// The functions of one file with their IR lines; `name` gives a
/// function's name in `program` (renamed statics), `facts` the lines to
/// show after a statement.
fn functions_of(
    dump: &mut Dump,
    file: FileId,
    source: &SourceMap,
    program: &Program,
    name: impl Fn(&str) -> Name,
    config: &DumpConfig,
    mut facts: impl FnMut(&str, StmtId) -> Vec<String>,
) {
    for fs in &source.functions {
        let Some(func) = program.function(&name(&fs.name)) else {
            continue;
        };
        let lines = func
            .body_lines()
            .into_iter()
            .map(|l| DumpLine {
                at: l
                    .stmt
                    .and_then(|s| fs.stmts.get(s.0 as usize))
                    .map(|&range| FileRange { file, range }),
                depth: l.depth,
                facts: l.stmt.map(|s| facts(&func.name, s)).unwrap_or_default(),
                text: l.text,
            })
            .collect();
        dump.functions.push(DumpFunction {
            name: func.name.to_string(),
            at: FileRange {
                file,
                range: fs.name_range,
            },
            header: func.header_to_string(),
            locals: func.locals_to_string(),
            lines,
        });
    }
    if config.verbose {
        dump.notes.extend(source.notes.iter().map(|n| DumpNote {
            at: FileRange {
                file,
                range: n.range,
            },
            kind: n.kind.as_str().to_string(),
            message: n.message.clone(),
        }));
    }
}

fn c_dump(a: &Analysis, c: &CProgram, config: &DumpConfig) -> Dump {
    let mut dump = Dump::default();
    let Ok(program) = pointee_db::c_program(c.db, c.project) else {
        return dump;
    };
    if config.verbose {
        let files: Vec<(FileId, &SourceMap)> = c.files().map(|f| (f, c.source(f))).collect();
        dump.sections.extend(expansions(a, &files));
    }
    let engine = (!config.no_facts).then(|| c.engine()).flatten();
    let mut units: HashMap<String, Vec<pointee_flow::UnitId>> = HashMap::new();
    for file in c.files() {
        let source = c.source(file);
        let name = |n: &str| c.program_name(file, n);
        functions_of(&mut dump, file, source, program, name, config, |f, s| {
            let Some(engine) = &engine else {
                return Vec::new();
            };
            engine.with(|_, a| {
                let units = units.entry(f.to_string()).or_insert_with(|| a.units_of(f));
                facts_after(a, units, s)
            })
        });
    }
    // Globals in the order the files declare them (the linked program keeps
    // them by name).
    let mut seen = HashSet::new();
    for file in c.files() {
        for g in &pointee_db::lower_c(c.db, file).program.globals {
            let name = c.program_name(file, &g.name);
            if seen.insert(name.clone()) {
                if let Some(g) = program.global(&name) {
                    dump.globals.push(g.to_display_string());
                }
            }
        }
    }
    if let Some(engine) = &engine {
        let graph: Vec<String> = engine
            .with(|_, a| a.render_graph())
            .lines()
            .map(str::to_string)
            .collect();
        dump.sections.push(("invocation graph".into(), graph));
    }
    dump
}

/// The facts after a statement, merged over the contexts that reach it.
fn facts_after(a: &mut Flow, units: &[pointee_flow::UnitId], s: StmtId) -> Vec<String> {
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

fn java_dump(a: &Analysis, j: &JavaProgram, config: &DumpConfig) -> Dump {
    let mut dump = Dump::default();
    for sm in &j.jp.sources {
        let Some(file) = a.file_id(&sm.file) else {
            continue;
        };
        functions_of(
            &mut dump,
            file,
            sm,
            &j.jp.program,
            |n| n.into(),
            config,
            |_, _| Vec::new(),
        );
    }
    let Some(pta) = j.pta else { return dump };
    let show = |set: &PtSet| -> String {
        let parts: Vec<String> = j
            .targets(set)
            .iter()
            .map(|t| format!("{} {}", t.name, t.heap_context.as_deref().unwrap_or("[]")))
            .collect();
        format!("{{{}}}", parts.join(", "))
    };
    let ctx = |c: CtxId| format!("[{}]", j.ctx_labels(c).join(", "));
    let mut pts = Vec::new();
    for (mc, r) in pta.reached.iter().enumerate() {
        let func = &j.jp.program.functions[r.method as usize];
        for (vi, v) in func.vars.iter().enumerate() {
            let set = pta.var_pts(mc as u32, vi as u32);
            if !set.is_empty() {
                pts.push(format!(
                    "{} {}: {} -> {}",
                    func.name,
                    ctx(r.ctx),
                    v.name,
                    show(set)
                ));
            }
        }
    }
    pts.sort();
    let mut fields: Vec<String> = pta
        .all_fields()
        .map(|(o, f, set)| {
            let t = j.target(o);
            format!(
                "{} {}.{f} -> {}",
                t.name,
                t.heap_context.unwrap_or_default(),
                show(set)
            )
        })
        .collect();
    fields.sort();
    let mut statics: Vec<String> = pta
        .facts
        .statics
        .iter()
        .filter_map(|g| {
            pta.static_pts(g)
                .filter(|p| !p.is_empty())
                .map(|p| format!("{g} -> {}", show(p)))
        })
        .collect();
    statics.sort();
    let mut cg: Vec<(String, String, u32, String)> = pta
        .cg
        .iter()
        .map(|e| {
            let (from, to) = (
                pta.reached[e.caller as usize],
                pta.reached[e.callee as usize],
            );
            let call = &pta.facts.methods[from.method as usize].calls[e.call as usize];
            let (site, loc) = j.site_label(from.method, call.site, "");
            let line = loc.map_or(0, |l| j.line(l.file, l.range.start));
            let caller = format!(
                "{} {}",
                pta.facts.method_names[from.method as usize],
                ctx(from.ctx)
            );
            let callee = format!(
                "{} {}",
                pta.facts.method_names[to.method as usize],
                ctx(to.ctx)
            );
            (caller, site, line, callee)
        })
        .collect();
    cg.sort_by(|x, y| (&x.0, x.2, &x.3).cmp(&(&y.0, y.2, &y.3)));
    let cg: Vec<String> = cg
        .into_iter()
        .map(|(from, site, _, to)| format!("{from} {site} -> {to}"))
        .collect();
    let figures = pta
        .stats()
        .named()
        .into_iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    dump.sections
        .push((format!("points-to sets ({})", pta.variant.name()), pts));
    dump.sections.push(("field points-to sets".into(), fields));
    dump.sections.push(("static fields".into(), statics));
    dump.sections.push(("call graph".into(), cg));
    dump.sections.push(("figures".into(), figures));
    dump
}
