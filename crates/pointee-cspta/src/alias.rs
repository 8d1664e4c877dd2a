//! Alias checks written as calls to static methods named MAYALIAS(a, b),
//! NOALIAS(a, b) and MUSTALIAS(a, b): evaluated in every method context that
//! reaches them, objects told apart by allocation site and heap context.

use crate::result::Analysis;
use pointee_ir::{Basic, Callee, Program, Rvalue, Stmt};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CheckKind {
    May,
    No,
    Must,
}

impl CheckKind {
    pub fn name(self) -> &'static str {
        match self {
            CheckKind::May => "MAYALIAS",
            CheckKind::No => "NOALIAS",
            CheckKind::Must => "MUSTALIAS",
        }
    }
}

/// The verdict over every context that reaches a check (pointee-ir's, one
/// type for every analysis; a flow-insensitive analysis never claims
/// `Must`).
pub use pointee_ir::Verdict as AliasVerdict;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasResult {
    /// The function (index in `Program::functions`) holding the check.
    pub method: u32,
    /// The call's site and statement.
    pub site: u32,
    pub stmt: u32,
    pub kind: CheckKind,
    pub verdict: AliasVerdict,
    /// How many method contexts reach it.
    pub contexts: usize,
}

impl AliasResult {
    /// Whether the check holds (the one rule, `pointee_ir::Verdict::holds`).
    pub fn ok(&self) -> bool {
        self.verdict.holds(self.kind.name())
    }
}

/// The check a direct callee names, if any (`Main.NOALIAS(Object,Object)`).
pub fn check_kind(callee: &str) -> Option<CheckKind> {
    let simple = callee.split('(').next()?.rsplit('.').next()?;
    match simple {
        "MAYALIAS" => Some(CheckKind::May),
        "NOALIAS" => Some(CheckKind::No),
        "MUSTALIAS" => Some(CheckKind::Must),
        _ => None,
    }
}

/// Every alias check of the program, in function and statement order.
pub fn alias_checks(a: &Analysis, p: &Program) -> Vec<AliasResult> {
    let mut out = Vec::new();
    for (fi, f) in p.functions.iter().enumerate() {
        let mut calls = Vec::new();
        collect(&f.body, &mut calls);
        for (stmt, b) in calls {
            let Basic::Call {
                site,
                callee: Callee::Direct(name),
                args,
                ..
            } = b
            else {
                continue;
            };
            let Some(kind) = check_kind(name) else {
                continue;
            };
            if args.len() != 2 {
                continue;
            }
            let var = |r: &Rvalue| match r {
                Rvalue::Use(pl) if !pl.deref && pl.path.is_empty() => match pl.base {
                    pointee_ir::Base::Var(v) => Some(v.0),
                    _ => None,
                },
                _ => None,
            };
            let (x, y) = (var(&args[0]), var(&args[1]));
            // (A second function of the same name is not analysed.)
            let ctxs = match a.method(&f.name) {
                Some(m) if m as usize == fi => a.contexts_of(m).to_vec(),
                _ => Vec::new(),
            };
            let verdict = if ctxs.is_empty() {
                AliasVerdict::Unreachable
            } else {
                let may = match (x, y) {
                    (Some(x), Some(y)) => ctxs
                        .iter()
                        .any(|&mc| a.var_pts(mc, x).intersects(a.var_pts(mc, y))),
                    _ => false,
                };
                if may {
                    AliasVerdict::May
                } else {
                    AliasVerdict::No
                }
            };
            out.push(AliasResult {
                method: fi as u32,
                site: site.0,
                stmt,
                kind,
                verdict,
                contexts: ctxs.len(),
            });
        }
    }
    out
}

fn collect<'a>(block: &'a [Stmt], out: &mut Vec<(u32, &'a Basic)>) {
    pointee_ir::for_each_basic(block, &mut |id, b| out.push((id.0, b)));
}
