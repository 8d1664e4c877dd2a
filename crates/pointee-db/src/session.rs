//! The Java analysis kept alive between requests, per program revision (the
//! C engine's run is kept by the `c_engine` query itself, `CEngine`).
//! pointee-ide answers from it.

use std::sync::Arc;

/// The Java analysis of one program, kept between requests by the
/// `java_engine` query, and for the next run to go on from.
pub struct JavaSession {
    /// `Err`: why no analysis ran (an unknown sensitivity, an entry without
    /// `main`).
    a: Result<pointee_cspta::Analysis, String>,
    /// The program and configuration it analysed.
    ir: Arc<crate::JavaIr>,
    config: crate::Config,
    /// Whether it went on from the run before (`None`: there was none to
    /// go on from).
    resumed: Option<pointee_cspta::Resumed>,
}

impl JavaSession {
    /// Analyses `ir` with the configured sensitivity and roots (as
    /// `java_analysis` does), going on from `previous` when the edit since
    /// only added facts; `Err` when `interrupt` stopped the solve.
    pub fn start(
        ir: &Arc<crate::JavaIr>,
        config: &crate::Config,
        previous: Option<&JavaSession>,
        interrupt: &dyn Fn() -> bool,
    ) -> Result<JavaSession, pointee_cspta::Interrupted> {
        let session = |a, resumed| JavaSession {
            a,
            ir: ir.clone(),
            config: config.clone(),
            resumed,
        };
        let variant = match &config.java_cs {
            Some(s) => pointee_cspta::Variant::parse(s),
            None => Ok(pointee_cspta::Variant::default()),
        };
        let roots = crate::java_roots(ir, config);
        let (variant, roots) = match (variant, roots) {
            (Ok(v), Ok(r)) => (v, r),
            (Err(e), _) | (_, Err(e)) => return Ok(session(Err(e), None)),
        };
        let roots: Vec<&str> = roots.iter().map(|s| &**s).collect();
        let previous = previous.and_then(|p| Some((p, p.a.as_ref().ok()?)));
        let (a, resumed) = match previous {
            Some((p, pa)) if p.config == *config => {
                let (a, how) = pointee_cspta::Analysis::resume(
                    pa,
                    &p.ir.program,
                    &ir.program,
                    &roots,
                    variant,
                    Some(interrupt),
                )?;
                (a, Some(how))
            }
            _ => (
                pointee_cspta::Analysis::run_interruptible(
                    &ir.program,
                    &roots,
                    variant,
                    interrupt,
                )?,
                None,
            ),
        };
        Ok(session(Ok(a), resumed))
    }

    /// The analysis, or why none ran.
    pub fn analysis(&self) -> Result<&pointee_cspta::Analysis, &str> {
        self.a.as_ref().map_err(|e| e.as_str())
    }

    /// How the solve began: from the run before (`Continued`), or from
    /// scratch and why (`None`: no run before of this configuration).
    pub fn resumed(&self) -> Option<pointee_cspta::Resumed> {
        self.resumed
    }
}
