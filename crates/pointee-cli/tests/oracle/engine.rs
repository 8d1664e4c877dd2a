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

use pointee_flow::{Analysis, LocId, Root, Settings};
use pointee_ide::{AnalysisHost, Config, FilePosition, TargetKind};
use std::collections::BTreeSet;

/// What the analysis answers at a probe.
pub struct Answer {
    /// The source text of the expression the position selects.
    pub expr: String,
    pub reachable: bool,
    /// Merged over contexts: (name, definite, symbolic).
    pub targets: Vec<(String, bool, bool)>,
    /// Every name that covers an object seen: the merged targets and what
    /// symbolic names stand for in each call chain.
    pub names: BTreeSet<String>,
    /// An `unknown` target: covers everything.
    pub unknown: bool,
    /// A symbolic target that no call chain resolves.
    pub unresolved: bool,
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

/// Answers for every (line, column) of `positions` in the C file `text`.
pub fn answers(file: &str, text: &str, positions: &[(u32, u32)]) -> Result<Vec<Answer>, String> {
    if std::env::var_os("ORACLE_HOVER").is_some() {
        let host = AnalysisHost::with_files([(file, text)], Config::default());
        let analysis = host.analysis();
        return positions
            .iter()
            .map(|&(l, c)| hover_answer(&analysis, file, text, l, c))
            .collect();
    }
    let lowered = pointee_c::lower(&[(file, text)]).map_err(|e| e.0)?;
    let source = &lowered.sources[0];
    let mut a = pointee_flow::analyze(&lowered.program, Settings::default());
    let site_line = |a: &Analysis, l: LocId| -> Option<String> {
        let root = a.locs().get(l).root_id;
        let (prefix, owner, site) = match &a.locs().get(root).root {
            Root::Heap(o, s) => ("heap", o.clone(), s.0),
            Root::Fresh(o, s) => ("newest heap", o.clone(), s.0),
            _ => return None,
        };
        let fs = source.function(&owner)?;
        let start = fs.sites.get(site as usize)?.range.start as usize;
        let line = text[..start].matches('\n').count() + 1;
        let name = a.name(l);
        let rest = name
            .split_once('#')
            .map(|(_, r)| r.trim_start_matches(char::is_numeric))
            .unwrap_or("");
        Some(format!("{prefix}@{line}{rest}"))
    };
    let name = |a: &Analysis, l: LocId| site_line(a, l).unwrap_or_else(|| a.name(l));
    let mut out = Vec::new();
    for &(line, column) in positions {
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
        // run time only through extra entries is a missed call edge.
        let per: Vec<_> = a
            .values_at(&fs.name, e.point, &rv)
            .into_iter()
            .filter(|c| !a.extra_only(c.unit))
            .collect();
        let merged = Analysis::merge_values(&per);
        let mut names = BTreeSet::new();
        let mut unknown = false;
        let mut unresolved = false;
        let mut targets = Vec::new();
        for &(l, d) in merged.iter().flatten() {
            let kind = a.kind(l);
            unknown |= kind == "unknown";
            let n = name(&a, l);
            names.insert(n.clone());
            targets.push((n, d, kind == "symbolic"));
        }
        targets.sort();
        for c in &per {
            let Some(t) = &c.targets else { continue };
            let symbolic: Vec<LocId> = t
                .iter()
                .map(|x| x.0)
                .filter(|&l| a.kind(l) == "symbolic")
                .collect();
            if symbolic.is_empty() {
                continue;
            }
            for path in a.chain_paths(c.unit, 8) {
                for &l in &symbolic {
                    let stands = a.resolve(&path, l);
                    if stands.is_empty() || stands == [l] {
                        unresolved = true;
                    }
                    for x in stands {
                        unknown |= a.kind(x) == "unknown";
                        names.insert(name(&a, x));
                    }
                }
            }
        }
        out.push(Answer {
            expr: text[e.range.start as usize..e.range.end as usize].to_string(),
            reachable: merged.is_some(),
            targets,
            names,
            unknown,
            unresolved,
        });
    }
    Ok(out)
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
        targets,
        names,
        unknown,
        unresolved,
    })
}
