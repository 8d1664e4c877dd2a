//! Java queries: lowering (all Java files together) and the analysis.

use crate::{AliasCheck, CallEdge, CallKind, Config, Db, Lang, Project};
use pointee_ir::{Basic, Block, Callee, Name, Program, StmtId};
use std::sync::Arc;

/// The Java files lowered together (the class table spans files).
#[derive(Clone, Debug, Default)]
pub struct JavaLowered(pub pointee_java::JavaProgram);

impl PartialEq for JavaLowered {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        a.program == b.program
            && a.sources == b.sources
            && a.mains == b.mains
            && a.initializers == b.initializers
    }
}
impl Eq for JavaLowered {}

/// The position-free part of the Java program: what the analysis sees.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JavaIr {
    pub program: Program,
    pub mains: Vec<Name>,
    pub initializers: Vec<Name>,
}

/// The Java IR without source maps, backdated after edits the IR does not
/// see (comments, whitespace, moved members).
#[salsa::tracked(returns(ref))]
pub fn java_ir(db: &dyn Db, project: Project) -> Arc<JavaIr> {
    let jp = &java_program(db, project).0;
    Arc::new(JavaIr {
        program: jp.program.clone(),
        mains: jp.mains.clone(),
        initializers: jp.initializers.clone(),
    })
}

/// What the Java analysis found under the configured context sensitivity,
/// position-free: call edges (virtual calls resolved by the analysis) and
/// alias-check verdicts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JavaAnalysis {
    pub edges: Vec<CallEdge>,
    pub alias_checks: Vec<AliasCheck>,
}

/// The Java analysis kept for requests (hover, callees, highlights,
/// diagnostics). Equal only to itself: `java_analysis` after it is what
/// gets backdated.
#[derive(Clone)]
pub struct JavaEngine(pub Arc<crate::session::JavaSession>);

impl PartialEq for JavaEngine {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}
impl Eq for JavaEngine {}

impl std::fmt::Debug for JavaEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JavaEngine").finish_non_exhaustive()
    }
}

/// Runs the Java analysis with the configured sensitivity and roots.
/// Re-executes only when the Java IR or the configuration changed.
#[salsa::tracked(returns(ref))]
pub fn java_engine(db: &dyn Db, project: Project) -> JavaEngine {
    let session = crate::session::JavaSession::start(java_ir(db, project), project.config(db));
    JavaEngine(Arc::new(session))
}

/// The call edges and alias checks of the Java analysis, position-free.
#[salsa::tracked(returns(ref))]
pub fn java_analysis(db: &dyn Db, project: Project) -> Result<Arc<JavaAnalysis>, String> {
    let engine = java_engine(db, project).clone();
    let a = engine.0.analysis().map_err(str::to_string)?;
    let ir = java_ir(db, project);
    let mut out = JavaAnalysis::default();
    for f in &ir.program.functions {
        let Some(m) = a.method(&f.name) else { continue };
        walk_calls_with_site(&f.body, &mut |stmt, site, callee| {
            for t in a.callees(m, site.0) {
                out.edges.push(CallEdge {
                    caller: f.name.clone(),
                    stmt,
                    callee: a.facts.method_names[t as usize].as_str().into(),
                    kind: match callee {
                        Callee::Virtual { .. } => CallKind::Virtual,
                        _ => CallKind::Direct,
                    },
                });
            }
        });
    }
    out.edges.sort();
    out.edges.dedup();
    for c in pointee_cspta::alias_checks(a, &ir.program) {
        out.alias_checks.push(AliasCheck {
            function: ir.program.functions[c.method as usize].name.clone(),
            stmt: StmtId(c.stmt),
            check: c.kind.name().into(),
            verdict: c.verdict,
            ok: c.ok(),
        });
    }
    Ok(Arc::new(out))
}

/// The roots (the literal pools and library callbacks, then every `main`, or those of the
/// configured entry), as pointee-ide chooses them.
pub fn java_roots(ir: &JavaIr, config: &Config) -> Result<Vec<Name>, String> {
    pointee_java::analysis_roots(&ir.mains, &ir.initializers, config.java_entry.as_deref())
}

fn walk_calls_with_site<'a>(
    b: &'a Block,
    f: &mut impl FnMut(StmtId, pointee_ir::SiteId, &'a Callee),
) {
    pointee_ir::for_each_basic(b, &mut |id, basic| {
        if let Basic::Call { site, callee, .. } = basic {
            f(id, *site, callee)
        }
    });
}

/// Every Java file of the project lowered as one program.
#[salsa::tracked(returns(ref))]
pub fn java_program(db: &dyn Db, project: Project) -> Arc<JavaLowered> {
    let files: Vec<(&str, &str)> = project
        .files(db)
        .iter()
        .filter(|f| Lang::of_path(f.path(db)) == Some(Lang::Java))
        .map(|f| (f.path(db).as_str(), &**f.text(db)))
        .collect();
    Arc::new(JavaLowered(pointee_java::lower(&files)))
}
