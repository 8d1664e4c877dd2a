//! The analysis' answer at a probe, asked of the engine directly: one
//! lowering and one analysis per program, then `values_at` per probe (what
//! `pointee_ide::hover` does, without re-analysing the program for every
//! question). Names follow `crates/pointee-ide/src/c.rs`: locals, globals,
//! fields and elements by the engine's name, heap sites as `heap@LINE`
//! (`newest heap@LINE` for a site's most recent object), symbolic names as
//! the objects they stand for along each call chain.
//!
//! Only contexts reached from `main` count (the runs start there); hover
//! also merges in extra-entry contexts, whose `unknown` inputs cover
//! everything. `ORACLE_HOVER=1` asks pointee-ide's hover instead (the
//! user's path, and that looser check).
//!
//! Per context: a run's call chain (the lines of the calls from `main` to
//! the probe) is followed through the invocation graph from `main`'s
//! context, call statement by call statement, to the one context that
//! analysed the probe's function for that chain (a recursive call's edge
//! leads back to its recursive ancestor, whose result covers every depth);
//! what the run saw there must be in that context's set, symbolic names
//! resolved along that chain. A set that misses an object in one context
//! is wrong even when another context's set has it.

use pointee_flow::{Analysis, LocId, Root, Settings, UnitId};
use pointee_ide::{AnalysisHost, Config, FilePosition, TargetKind};
use pointee_ir::StmtId;
use std::collections::BTreeSet;

/// What the analysis answers at a probe.
pub struct Answer {
    /// The source text of the expression the position selects.
    pub expr: String,
    pub reachable: bool,
    /// The run stopped at its budget before any context of the function
    /// (listed in `Partial::incomplete`, no context): "not analysed", no
    /// claim of unreachability (its alias checks answer `may`).
    pub not_analysed: bool,
    /// Merged over contexts: (name, definite, symbolic).
    pub targets: Vec<(String, bool, bool)>,
    /// Every name that covers an object seen: the merged targets and what
    /// symbolic names stand for in each call chain.
    pub names: BTreeSet<String>,
    /// An `unknown` target: covers everything.
    pub unknown: bool,
    /// A symbolic target that no call chain resolves.
    pub unresolved: bool,
    /// Per call chain asked for (same order): that context's answer.
    pub contexts: Vec<Result<Context, ChainError>>,
}

/// The answer of the one context a run's call chain reached.
pub struct Context {
    /// The context's number (`Analysis::unit_number`).
    pub number: u32,
    pub reachable: bool,
    pub shown: String,
    pub names: BTreeSet<String>,
    pub unknown: bool,
    pub unresolved: bool,
}

/// Why a run's call chain has no context to check.
pub enum ChainError {
    /// A call the run made is not in the invocation graph: unsound.
    Missing(String),
    /// The budget cut the chain off: nothing exact to check.
    CutOff,
}

/// A position to ask about, with the call chains the runs reached it by.
pub struct Query {
    pub line: u32,
    pub column: u32,
    /// The function the probe is in.
    pub function: String,
    pub chains: Vec<Vec<u32>>,
}

impl Answer {
    pub fn shown(&self) -> String {
        self.targets
            .iter()
            .map(|(n, d, _)| format!("{n}{}", if *d { " D" } else { " P" }))
            .collect::<Vec<_>>()
            .join(", ")
    }
    pub fn lone_definite(&self) -> bool {
        self.targets.len() == 1 && self.targets[0].1 && !self.targets[0].2
    }
}

fn offset(text: &str, line: u32, column: u32) -> u32 {
    let before: usize = text
        .split_inclusive('\n')
        .take(line as usize - 1)
        .map(str::len)
        .sum();
    (before + column as usize - 1) as u32
}

/// The step budget of one program's analysis (`ORACLE_STEPS` overrides).
/// 10,000 since unknown code's passes and callbacks count as steps too
/// (2026-11-27): at 3,000, 9 of seeds 0..60 stopped early (4 before).
const DEFAULT_STEPS: u64 = 10_000;

/// Answers for every query in the C file `text` (per chain only when
/// asked of the engine: hover shows no call chains), and whether the
/// analysis stopped at its budget.
pub fn answers(file: &str, text: &str, queries: &[Query]) -> Result<(Vec<Answer>, bool), String> {
    if std::env::var_os("ORACLE_HOVER").is_some() {
        let host = AnalysisHost::with_files([(file, text)], Config::default());
        let analysis = host.analysis();
        return queries
            .iter()
            .map(|q| hover_answer(&analysis, file, text, q.line, q.column))
            .collect::<Result<_, _>>()
            .map(|v| (v, false));
    }
    let lowered = pointee_c::lower(&[(file, text)]).map_err(|e| e.0)?;
    let source = &lowered.sources[0];
    // A deterministic step budget keeps the slowest programs (mutual
    // recursion through tables of function pointers and unknown code:
    // minutes in a debug build) bounded; a program over it answers with
    // `unknown` where contexts were cut off, which covers anything (the
    // oracle counts such programs and probes as unverifiable).
    let mut settings = Settings::default();
    // (and time, as a guard only)
    settings.budget.time = Some(std::time::Duration::from_secs(30));
    settings.budget.steps = Some(
        std::env::var("ORACLE_STEPS")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(DEFAULT_STEPS),
    );
    let mut a = pointee_flow::analyze(&lowered.program, settings);
    let partial = a.partial().is_some();
    // A run stopped at the budget says which functions miss contexts; their
    // points are answered by their fallback (extra-entry) contexts too, as
    // the editor answers them, so those count here.
    let incomplete: Vec<pointee_ir::Name> = a.partial().map(|p| p.incomplete).unwrap_or_default();
    let site_line = |a: &Analysis, l: LocId| -> Option<String> {
        let root = a.locs().get(l).root_id;
        let (prefix, owner, site) = match &a.locs().get(root).root {
            // (by site: a run does not print the calls that made an object)
            Root::Heap(o, s, _) => ("heap", o.clone(), s.0),
            Root::Fresh(o, s, _) => ("newest heap", o.clone(), s.0),
            _ => return None,
        };
        let fs = source.function(&owner)?;
        let start = fs.sites.get(site as usize)?.range.start as usize;
        let line = text[..start].matches('\n').count() + 1;
        let name = a.name(l);
        let rest = &name[a.name(root).len()..];
        Some(format!("{prefix}@{line}{rest}"))
    };
    let name = |a: &Analysis, l: LocId| site_line(a, l).unwrap_or_else(|| a.name(l));
    // Every call of the program by its line (one call per line).
    let line_of = |off: u32| text[..off as usize].matches('\n').count() as u32 + 1;
    let mut calls: std::collections::HashMap<u32, (&str, StmtId)> = Default::default();
    for fs in &source.functions {
        for c in &fs.calls {
            calls.insert(line_of(c.range.start), (&fs.name, c.stmt));
        }
    }
    let main = a
        .units_of("main")
        .into_iter()
        .find(|&u| !a.extra_only(u))
        .ok_or("main has no context")?;
    let mut out = Vec::new();
    for q in queries {
        let (line, column) = (q.line, q.column);
        let off = offset(text, line, column);
        let mut best: Option<(&pointee_ir::FunctionSource, &pointee_ir::ExprInfo)> = None;
        for fs in &source.functions {
            for e in &fs.exprs {
                if e.range.touches(off) && best.is_none_or(|(_, b)| e.range.len() < b.range.len()) {
                    best = Some((fs, e));
                }
            }
        }
        let Some((fs, e)) = best else {
            return Err(format!("{line}:{column}: no pointer expression here"));
        };
        let rv = pointee_ir::Rvalue::Use(e.place.clone());
        // Runs start at `main`: only contexts reached from it must cover
        // what they see. A function's extra-entry context (unknown inputs,
        // `unknown` everywhere) would cover anything; a point reached at
        // run time only through extra entries is a missed call edge, unless
        // the budget cut the function's contexts off (`incomplete`).
        let cut_off = incomplete.contains(&fs.name);
        let per: Vec<_> = a
            .values_at(&fs.name, e.point, &rv)
            .into_iter()
            .filter(|c| cut_off || !a.extra_only(c.unit))
            .collect();
        let merged = Analysis::merge_values(&per);
        // An incomplete function's analysed contexts reach every point
        // (with `unknown`), so only one without any is unreached here.
        let not_analysed = cut_off && per.is_empty();
        let mut cover = Cover::default();
        let mut targets = Vec::new();
        for &(l, d) in merged.iter().flatten() {
            let n = cover.add(&a, &name, l);
            targets.push((n, d, a.kind(l) == "symbolic"));
        }
        targets.sort();
        for c in &per {
            let Some(t) = &c.targets else { continue };
            for path in a.chain_paths(c.unit, 8) {
                cover.resolve_symbolic(&mut a, &name, &path, t);
            }
        }
        let mut contexts = Vec::new();
        for chain in &q.chains {
            let path = match follow(&a, main, &calls, chain, &q.function) {
                Ok(p) => p,
                Err(e) => {
                    contexts.push(Err(e));
                    continue;
                }
            };
            let u = path.last().expect("main at least").0;
            let Some(c) = per.iter().find(|c| c.unit == u) else {
                contexts.push(Err(ChainError::Missing(format!(
                    "the chain reaches context #{} of {}, which is not among its contexts at the probe",
                    a.unit_number(u),
                    q.function
                ))));
                continue;
            };
            let mut own = Cover::default();
            let mut shown = Vec::new();
            for &(l, d) in c.targets.iter().flatten() {
                let n = own.add(&a, &name, l);
                shown.push(format!("{n}{}", if d { " D" } else { " P" }));
            }
            if let Some(t) = &c.targets {
                own.resolve_symbolic(&mut a, &name, &path, t);
            }
            contexts.push(Ok(Context {
                number: a.unit_number(u),
                reachable: c.targets.is_some(),
                shown: shown.join(", "),
                names: own.names,
                unknown: own.unknown,
                unresolved: own.unresolved,
            }));
        }
        out.push(Answer {
            expr: text[e.range.start as usize..e.range.end as usize].to_string(),
            reachable: merged.is_some(),
            not_analysed,
            targets,
            names: cover.names,
            unknown: cover.unknown,
            unresolved: cover.unresolved,
            contexts,
        });
    }
    Ok((out, partial))
}

/// The names that cover what a run saw: targets, and what symbolic
/// targets stand for along call chains.
#[derive(Default)]
struct Cover {
    names: BTreeSet<String>,
    unknown: bool,
    unresolved: bool,
}

impl Cover {
    fn add(&mut self, a: &Analysis, name: &dyn Fn(&Analysis, LocId) -> String, l: LocId) -> String {
        self.unknown |= a.kind(l) == "unknown";
        let n = name(a, l);
        self.names.insert(n.clone());
        n
    }

    fn resolve_symbolic(
        &mut self,
        a: &mut Analysis,
        name: &dyn Fn(&Analysis, LocId) -> String,
        path: &[(UnitId, Option<StmtId>)],
        targets: &[(LocId, bool)],
    ) {
        for &(l, _) in targets {
            if a.kind(l) != "symbolic" {
                continue;
            }
            let stands = a.resolve(path, l);
            if stands.is_empty() || stands == [l] {
                self.unresolved = true;
            }
            for x in stands {
                self.add(a, name, x);
            }
        }
    }
}

/// The invocation-graph path a run's call chain took: from `main`'s
/// context, each call line's statement and the callee (the function of the
/// next call line, the probe's function after the last) lead along the
/// caller context's edge.
fn follow(
    a: &Analysis,
    main: UnitId,
    calls: &std::collections::HashMap<u32, (&str, StmtId)>,
    chain: &[u32],
    probe_function: &str,
) -> Result<Vec<(UnitId, Option<StmtId>)>, ChainError> {
    let mut path = vec![(main, None)];
    for (i, line) in chain.iter().enumerate() {
        let &(caller, stmt) = calls
            .get(line)
            .ok_or_else(|| ChainError::Missing(format!("no call on line {line}")))?;
        let callee = match chain.get(i + 1) {
            Some(next) => calls.get(next).map_or("?", |c| c.0),
            None => probe_function,
        };
        let u = path.last().expect("main at least").0;
        if &**a.func_name(u) != caller {
            return Err(ChainError::Missing(format!(
                "line {line} is in {caller}, the chain is in {}",
                a.func_name(u)
            )));
        }
        let edge = a
            .unit(u)
            .calls
            .iter()
            .find(|((s, n), _)| *s == stmt && &**n == callee)
            .map(|(_, e)| e)
            .ok_or_else(|| {
                ChainError::Missing(format!(
                    "context #{} of {caller} has no call of {callee} on line {line}",
                    a.unit_number(u)
                ))
            })?;
        if edge.cut_off {
            return Err(ChainError::CutOff);
        }
        let next = edge.unit.ok_or_else(|| {
            ChainError::Missing(format!(
                "the call of {callee} on line {line} has no context"
            ))
        })?;
        path.push((next, Some(stmt)));
    }
    Ok(path)
}

/// The same answer from pointee-ide's hover.
fn hover_answer(
    analysis: &pointee_ide::Analysis,
    file: &str,
    text: &str,
    line: u32,
    column: u32,
) -> Result<Answer, String> {
    let pos = FilePosition {
        file: analysis.file_id(file).ok_or("no such file")?,
        offset: offset(text, line, column),
    };
    let hover = analysis
        .hover(pos)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("{line}:{column}: no pointer expression here"))?;
    let mut names = BTreeSet::new();
    let mut unknown = false;
    let mut unresolved = false;
    for t in &hover.targets {
        unknown |= t.kind == TargetKind::Unknown;
        names.insert(t.name.clone());
        if t.kind == TargetKind::Symbolic {
            let prefix = format!("{} (", t.name);
            unresolved |= !hover
                .contexts
                .iter()
                .any(|c| c.targets.iter().any(|x| x.name.starts_with(&prefix)));
        }
    }
    for t in hover.contexts.iter().flat_map(|c| c.targets.iter()) {
        if let (TargetKind::Symbolic, Some((_, rest))) = (t.kind, t.name.split_once(" (")) {
            for n in rest.trim_end_matches(')').split(", ") {
                names.insert(n.to_string());
            }
        }
    }
    let targets = hover
        .targets
        .iter()
        .map(|t| (t.name.clone(), t.definite, t.kind == TargetKind::Symbolic))
        .collect();
    Ok(Answer {
        expr: hover.expr,
        reachable: hover.reachable,
        // Hover's "not analysed: the analysis stopped at its budget first".
        not_analysed: !hover.reachable && hover.partial,
        targets,
        names,
        unknown,
        unresolved,
        contexts: Vec::new(),
    })
}
