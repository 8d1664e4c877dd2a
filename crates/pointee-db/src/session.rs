//! A C analysis kept alive between requests: one engine run per linked
//! program, owned by a thread of its own (the engine's result borrows the
//! program), answering queries sent to it. The server keeps one per program
//! revision, so highlights and inlay hints after the first cost a query, not
//! an analysis. Answers are position-free (the engine's names).

use pointee_flow::Analysis;
use pointee_ir::{Point, Program, Rvalue};
use std::panic::AssertUnwindSafe;
use std::sync::mpsc;
use std::sync::Arc;

type Job = Box<dyn for<'a, 'p> FnOnce(&'a mut Analysis<'p>, &'p Program) + Send>;

/// One engine run over one program, queried from any thread.
pub struct CSession {
    program: Arc<Program>,
    settings: pointee_flow::Settings,
    tx: mpsc::Sender<Job>,
}

impl CSession {
    /// Starts analysing `program` on a thread of its own.
    pub fn start(program: Arc<Program>, settings: pointee_flow::Settings) -> CSession {
        let (tx, rx) = mpsc::channel::<Job>();
        let p = program.clone();
        let settings_copy = settings.clone();
        std::thread::Builder::new()
            .name("pointee-c-session".into())
            .stack_size(256 << 20)
            .spawn(move || {
                let program: &Program = &p;
                let analysed = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    pointee_flow::analyze(program, settings)
                }));
                let Ok(mut a) = analysed else { return };
                while let Ok(job) = rx.recv() {
                    // A panicking query drops its reply channel; the session
                    // goes on serving.
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut a, program)));
                }
            })
            .expect("spawning the analysis session thread");
        CSession {
            program,
            settings: settings_copy,
            tx,
        }
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// Whether this session analysed a program equal to `p` with `settings`.
    pub fn is_for(&self, p: &Arc<Program>, settings: &pointee_flow::Settings) -> bool {
        let same = self.settings.malloc_may_fail == settings.malloc_may_fail
            && self.settings.max_contexts_per_function == settings.max_contexts_per_function;
        same && (Arc::ptr_eq(&self.program, p) || *self.program == **p)
    }

    fn ask<T: Send + 'static>(
        &self,
        f: impl for<'a, 'p> FnOnce(&'a mut Analysis<'p>, &'p Program) -> T + Send + 'static,
    ) -> Option<T> {
        let (rtx, rrx) = mpsc::sync_channel(1);
        let job: Job = Box::new(move |a, p| {
            let _ = rtx.send(f(a, p));
        });
        self.tx.send(job).ok()?;
        rrx.recv().ok()
    }

    /// The merged values of several rvalues of one function.
    pub fn values(
        &self,
        function: &str,
        queries: Vec<(Point, Rvalue)>,
    ) -> Option<Vec<crate::Values>> {
        let function = function.to_string();
        self.ask(move |a, _| {
            queries
                .iter()
                .map(|(point, rv)| {
                    let per = a.values_at(&function, *point, rv);
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

/// The Java analysis of one program, kept between requests (it owns its
/// result, so no thread is needed).
pub struct JavaSession {
    ir: Arc<crate::JavaIr>,
    config: crate::Config,
    a: Option<pointee_cspta::Analysis>,
}

impl JavaSession {
    /// Analyses `ir` with the configured sensitivity and roots (as
    /// `java_analysis` does).
    pub fn start(ir: Arc<crate::JavaIr>, config: crate::Config) -> JavaSession {
        let variant = match &config.java_cs {
            Some(s) => pointee_cspta::Variant::parse(s).ok(),
            None => Some(pointee_cspta::Variant::default()),
        };
        let a = variant.map(|v| {
            let roots = crate::java_roots(&ir, &config);
            let roots: Vec<&str> = roots.iter().map(|s| &**s).collect();
            pointee_cspta::Analysis::run(&ir.program, &roots, v)
        });
        JavaSession { ir, config, a }
    }

    pub fn is_for(&self, ir: &Arc<crate::JavaIr>, config: &crate::Config) -> bool {
        (Arc::ptr_eq(&self.ir, ir) || *self.ir == **ir) && self.config == *config
    }

    /// The abstract objects a place of `function` may denote or hold (its
    /// value), over every context of the method; `None` when the method is
    /// not reached or the place is not modelled.
    pub fn objects(&self, function: &str, place: &pointee_ir::Place) -> Option<Vec<u32>> {
        use pointee_ir::{Base, Sel};
        let a = self.a.as_ref()?;
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
        let Some(a) = &self.a else { return Vec::new() };
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
