//! Analyses kept alive between requests. The C engine's run is kept by the
//! `c_engine` query itself (`CEngine`); here are its position-free queries,
//! and the Java analysis kept per program revision. Answers are
//! position-free (the engines' names).

use crate::CEngine;
use pointee_flow::Analysis;
use pointee_ir::{Point, Program, Rvalue};
use std::sync::Arc;

impl CEngine {
    /// The program analysed.
    pub fn program(&self) -> Arc<Program> {
        self.with_owned(|o| o.program().clone())
    }

    /// The merged values of several rvalues of one function.
    pub fn values(&self, function: &str, queries: Vec<(Point, Rvalue)>) -> Vec<crate::Values> {
        self.with(|_, a| {
            queries
                .iter()
                .map(|(point, rv)| {
                    let per = a.values_at(function, *point, rv);
                    Analysis::merge_values(&per).map(|set| {
                        let mut v: Vec<(String, bool)> =
                            set.iter().map(|&(l, d)| (a.name(l), d)).collect();
                        v.sort();
                        v
                    })
                })
                .collect()
        })
    }
}

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

    /// The abstract objects a place of `function` may denote or hold (its
    /// value), over every context of the method; `None` when the method is
    /// not reached or the place is not modelled.
    pub fn objects(&self, function: &str, place: &pointee_ir::Place) -> Option<Vec<u32>> {
        use pointee_ir::{Base, Sel};
        let a = self.a.as_ref().ok()?;
        let mut set = pointee_cspta::PtSet::new();
        match &place.base {
            Base::Var(v) => {
                let m = a.method(function)?;
                let ctxs = a.contexts_of(m);
                if ctxs.is_empty() {
                    return None;
                }
                for &mc in ctxs {
                    set.union_with(a.var_pts(mc, v.0));
                }
            }
            Base::Global(g) => {
                set.union_with(a.static_pts(g)?);
            }
        }
        for sel in &place.path {
            let field = match sel {
                Sel::Field(f) => f.to_string(),
                Sel::Index(_) => pointee_cspta::ARRAY_FIELD.to_string(),
            };
            let mut next = pointee_cspta::PtSet::new();
            for o in set.iter() {
                if let Some(s) = a.field_pts(o, &field) {
                    next.union_with(s);
                }
            }
            set = next;
        }
        Some(set.iter().collect())
    }
}

/// Where an abstract Java object was allocated.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct JavaObject {
    /// The method holding the allocation site.
    pub method: String,
    pub site: u32,
    /// `A`, `A[]`, `String`.
    pub class: String,
    pub is_string: bool,
}

impl JavaSession {
    /// The allocation sites of objects (heap contexts dropped, deduplicated).
    pub fn sites(&self, objs: &[u32]) -> Vec<JavaObject> {
        let Ok(a) = &self.a else { return Vec::new() };
        let mut out: Vec<JavaObject> = objs
            .iter()
            .filter_map(|&o| {
                let (_, alloc) = *a.objs.get(o as usize)?;
                let al = a.facts.allocs.get(alloc as usize)?;
                Some(JavaObject {
                    method: a.facts.method_names.get(al.method as usize)?.clone(),
                    site: al.site,
                    class: al.class.clone(),
                    is_string: al.is_string,
                })
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }
}
