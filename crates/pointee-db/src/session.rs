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
    tx: mpsc::Sender<Job>,
}

impl CSession {
    /// Starts analysing `program` on a thread of its own.
    pub fn start(program: Arc<Program>) -> CSession {
        let (tx, rx) = mpsc::channel::<Job>();
        let p = program.clone();
        std::thread::Builder::new()
            .name("pointee-c-session".into())
            .stack_size(256 << 20)
            .spawn(move || {
                let program: &Program = &p;
                let analysed = std::panic::catch_unwind(AssertUnwindSafe(|| {
                    pointee_flow::analyze(program, pointee_flow::Settings::default())
                }));
                let Ok(mut a) = analysed else { return };
                while let Ok(job) = rx.recv() {
                    // A panicking query drops its reply channel; the session
                    // goes on serving.
                    let _ = std::panic::catch_unwind(AssertUnwindSafe(|| job(&mut a, program)));
                }
            })
            .expect("spawning the analysis session thread");
        CSession { program, tx }
    }

    pub fn program(&self) -> &Arc<Program> {
        &self.program
    }

    /// Whether this session analysed a program equal to `p`.
    pub fn is_for(&self, p: &Arc<Program>) -> bool {
        Arc::ptr_eq(&self.program, p) || *self.program == **p
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
