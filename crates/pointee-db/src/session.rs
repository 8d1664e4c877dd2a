//! The Java analysis kept alive between requests, per program revision (the
//! C engine's run is kept by the `c_engine` query itself, `CEngine`).
//! pointee-ide answers from it.

/// The Java analysis of one program, kept between requests by the
/// `java_engine` query.
pub struct JavaSession {
    /// `Err`: why no analysis ran (an unknown sensitivity, an entry without
    /// `main`).
    a: Result<pointee_cspta::Analysis, String>,
}

impl JavaSession {
    /// Analyses `ir` with the configured sensitivity and roots (as
    /// `java_analysis` does).
    pub fn start(ir: &crate::JavaIr, config: &crate::Config) -> JavaSession {
        let analyse = || {
            let variant = match &config.java_cs {
                Some(s) => pointee_cspta::Variant::parse(s)?,
                None => pointee_cspta::Variant::default(),
            };
            let roots = crate::java_roots(ir, config)?;
            let roots: Vec<&str> = roots.iter().map(|s| &**s).collect();
            Ok(pointee_cspta::Analysis::run(&ir.program, &roots, variant))
        };
        JavaSession { a: analyse() }
    }

    /// The analysis, or why none ran.
    pub fn analysis(&self) -> Result<&pointee_cspta::Analysis, &str> {
        self.a.as_ref().map_err(|e| e.as_str())
    }
}
