//! Witness inputs: for the dereference at a position, an input of its
//! function that makes it fault, searched by pointee-witness's symbolic
//! executor with lazy initialisation guided by the C engine's facts.
//!
//! This module finds the dereference (the statement around the position,
//! the pointer under the cursor when a statement dereferences two), lends
//! the engine's facts through `pointee_witness::Facts`, and turns the
//! answer's statements into byte ranges. It never searches itself.

use crate::c::{CProgram, Flow};
use crate::{Analysis, FileId, FilePosition, FileRange};

mod java;
use pointee_db::CEngine;
use pointee_flow::{FREED, NULL, UNINIT, UNKNOWN};
use pointee_ir::{
    for_each_basic, Basic, Callee, FunctionSource, Name, Place, Point, Program, Range, Rvalue,
    StmtId,
};
use pointee_witness::spec::Spec;
pub use pointee_witness::{
    field_text, type_text, Bounds, Decision, Fault, InputObject, Outcome, Stats, Value, Witness,
};
use std::sync::Arc;

/// How to search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WitnessOptions {
    pub bounds: Bounds,
    /// Prune lazy initialisation by the points-to facts (default), or try
    /// every candidate.
    pub guided: bool,
    /// Read the function's `//@` preconditions (default), or search
    /// unconstrained inputs.
    pub preconditions: bool,
    /// `malloc` and `calloc` may return NULL (default; the checkers'
    /// `c.mallocMayFail`, the command line's `--assume-alloc-succeeds`).
    pub malloc_may_fail: bool,
}

impl Default for WitnessOptions {
    fn default() -> Self {
        WitnessOptions {
            bounds: Bounds::default(),
            guided: true,
            preconditions: true,
            malloc_may_fail: true,
        }
    }
}

impl WitnessOptions {
    /// The bounds and mode in words.
    pub fn describe(&self) -> String {
        let b = self.bounds;
        format!(
            "loops unfolded {} times, call depth {}, {} paths, {} ms; {}{}{}",
            b.loop_unfoldings,
            b.call_depth,
            b.max_paths,
            b.time_ms,
            if self.guided {
                "guided by points-to facts"
            } else {
                "plain lazy initialisation"
            },
            if self.preconditions {
                ""
            } else {
                "; preconditions ignored"
            },
            if self.malloc_may_fail {
                ""
            } else {
                "; malloc never fails"
            }
        )
    }
}

/// A branch decision of the witness's path, placed in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathStep {
    /// The statement run just before the branch (`None`: the function's
    /// start, then `function` is where).
    pub after: Option<FileRange>,
    pub function: String,
    pub decision: Decision,
}

/// The answer for one dereference.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessAnswer {
    /// The function whose input was searched, as the source names it.
    pub function: String,
    /// The dereferencing statement.
    pub stmt: FileRange,
    /// The pointer dereferenced, as pointee reads it (`head`).
    pub pointer: String,
    pub outcome: Outcome,
    /// The path of a found witness, in source terms.
    pub path: Vec<PathStep>,
    pub options: WitnessOptions,
    /// The Java method, when the function is one.
    pub java: Option<JavaMethod>,
}

/// A Java method whose input is searched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JavaMethod {
    /// pointee's name of it (`List.add(Node,int)`).
    pub name: Name,
    /// Static (no receiver).
    pub is_static: bool,
}

impl WitnessAnswer {
    /// The outcome in words: `faults (NULL dereference) with the input`,
    /// `no input within the bounds (...)`, ...
    pub fn verdict(&self) -> String {
        match &self.outcome {
            Outcome::Found(w, _) if self.java.is_some() && w.fault == Some(Fault::Null) => {
                "throws NullPointerException with the input".into()
            }
            Outcome::Found(w, _) => format!(
                "faults ({}) with the input",
                w.fault.map_or("no fault", Fault::describe)
            ),
            Outcome::NoneWithinBounds(_) => {
                format!("no input within the bounds ({})", self.options.describe())
            }
            Outcome::BudgetExhausted(_) => format!(
                "the budget ran out before an input was found ({})",
                self.options.describe()
            ),
            Outcome::NoFunction => "the function is not in the linked program".into(),
        }
    }

    /// The search's figures (none when the function was not found).
    pub fn stats(&self) -> Option<&Stats> {
        match &self.outcome {
            Outcome::Found(_, s) | Outcome::NoneWithinBounds(s) | Outcome::BudgetExhausted(s) => {
                Some(s)
            }
            Outcome::NoFunction => None,
        }
    }

    /// The Java test class `test_class` of a found witness in a Java
    /// method (`None` otherwise); `source` and `fault_line` (1-based) for
    /// its comment.
    pub fn java_test(&self, test_class: &str, source: &str, fault_line: u32) -> Option<String> {
        match (&self.outcome, &self.java) {
            (Outcome::Found(w, _), Some(m)) => Some(pointee_witness::emit::java_test(
                w,
                test_class,
                &m.name,
                m.is_static,
                source,
                fault_line,
            )),
            _ => None,
        }
    }

    /// The C test program of a found witness, including the analysed file
    /// as `include` names it; `fault_line` (1-based) for its comment.
    pub fn c_test(&self, include: &str, fault_line: u32) -> Option<String> {
        match &self.outcome {
            Outcome::Found(w, _) if self.java.is_none() => Some(pointee_witness::emit::c_test(
                w,
                &self.function,
                include,
                fault_line,
            )),
            _ => None,
        }
    }
}

/// Why there is no answer at a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WitnessError {
    /// Not a C file of an analysable program.
    NotC,
    /// No function around the position.
    NotInFunction,
    /// No dereference at the position.
    NoDereference,
    /// A `//@` annotation of the function could not be read.
    Annotation(String),
}

impl WitnessError {
    /// The reason in words.
    pub fn describe(&self) -> String {
        match self {
            WitnessError::NotC => {
                "witness inputs are for C files of a program that links, and Java files".into()
            }
            WitnessError::NotInFunction => "not inside a function".into(),
            WitnessError::NoDereference => "no dereference here".into(),
            WitnessError::Annotation(why) => format!("in the function's annotations: {why}"),
        }
    }
}

/// The `//@` annotations that hold for function `f` (one of the file's
/// `functions`): every `pred` of the file, and the `requires` written
/// after the previous function and before this one. A line that starts with
/// neither keyword continues the declaration above it. `None` when there
/// are none.
fn annotations(text: &str, functions: &[FunctionSource], f: &FunctionSource) -> Option<String> {
    let start = f.range.start;
    let after = functions
        .iter()
        .map(|g| g.range.end)
        .filter(|&e| e <= start)
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    let mut keep = false;
    let mut offset = 0u32;
    for line in text.split_inclusive('\n') {
        let here = offset;
        offset += line.len() as u32;
        let Some(body) = line.trim_start().strip_prefix("//@") else {
            continue;
        };
        let body = body.trim();
        if body.starts_with("pred") {
            keep = true;
        } else if body.starts_with("requires") {
            keep = here >= after && here < start;
        }
        if keep {
            out.push_str(body);
            out.push('\n');
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The engine's facts as the executor sees them. The engine is locked
/// only while one question is answered, so other requests on the same
/// snapshot (hovers) go on during a search; the snapshot's database stops
/// the search when a newer change (or the caller, through
/// [`Analysis::cancellation_token`]) cancels it.
struct FlowFacts<'a> {
    engine: &'a CEngine,
    db: &'a pointee_db::Database,
}

impl pointee_witness::Facts for FlowFacts<'_> {
    fn pointees(
        &mut self,
        function: &str,
        point: Point,
        place: &Place,
    ) -> Option<Vec<pointee_witness::Pointee>> {
        self.engine.with(|_, flow| {
            let per = flow.values_at(function, point, &Rvalue::Use(place.clone()));
            let merged = Flow::merge_values(&per)?;
            Some(
                merged
                    .iter()
                    .filter(|&&(l, _)| l != UNINIT && l != FREED)
                    .map(|&(l, _)| match l {
                        NULL => pointee_witness::Pointee::Null,
                        UNKNOWN => pointee_witness::Pointee::Unknown,
                        l => pointee_witness::Pointee::Loc(l.0),
                    })
                    .collect(),
            )
        })
    }

    fn check_cancelled(&mut self) {
        // Unwinds with salsa's `Cancelled`, which `Analysis` catches.
        pointee_db::salsa::Database::unwind_if_revision_cancelled(self.db);
    }
}

impl<'a> FlowFacts<'a> {
    fn new(a: &'a Analysis, engine: &'a CEngine) -> FlowFacts<'a> {
        FlowFacts { engine, db: a.db() }
    }
}

/// What to search in function `name`.
fn query(
    name: Name,
    target: Option<pointee_witness::Target>,
    options: WitnessOptions,
    spec: Option<Spec>,
) -> pointee_witness::Query {
    pointee_witness::Query {
        function: name,
        target,
        bounds: options.bounds,
        guided: options.guided,
        spec,
        malloc_may_fail: options.malloc_may_fail,
    }
}

/// The linked program and the engine's run over it.
fn program_and_engine(c: &CProgram) -> Result<(Arc<Program>, CEngine), WitnessError> {
    let program = pointee_db::c_program(c.db, c.project)
        .as_ref()
        .map_err(|_| WitnessError::NotC)?
        .clone();
    Ok((program, c.engine().ok_or(WitnessError::NotC)?))
}

/// The pointers a basic statement dereferences (undereferenced places).
fn dereferenced(b: &Basic) -> Vec<Place> {
    let mut places: Vec<&Place> = Vec::new();
    let arg = |rv: &'_ Rvalue| -> Option<Place> {
        match rv {
            Rvalue::Use(p) | Rvalue::Offset(p, ..) | Rvalue::Cast(p, _) => Some(p.clone()),
            _ => None,
        }
    };
    let mut owned: Vec<Place> = Vec::new();
    match b {
        Basic::Assign { lhs, rhs } => {
            places.push(lhs);
            owned.extend(arg(rhs));
            // An integer read through a reference (`t = int (*l).size`).
            if let Rvalue::Int(e) = rhs {
                owned.extend(e.clone().places_mut().into_iter().map(|p| p.clone()));
            }
        }
        Basic::Use(p) => places.push(p),
        Basic::Call {
            lhs, args, callee, ..
        } => {
            places.extend(lhs);
            owned.extend(args.iter().filter_map(arg));
            match callee {
                Callee::Indirect(p) => places.push(p),
                // A Java call on a reference dereferences the receiver.
                Callee::Virtual { receiver, .. } => owned.push(Place {
                    deref: true,
                    ..receiver.clone()
                }),
                Callee::Direct(_) => {}
            }
        }
    }
    places
        .into_iter()
        .cloned()
        .chain(owned)
        .filter(|p| p.deref)
        .map(|p| Place {
            base: p.base,
            deref: false,
            path: Vec::new(),
        })
        .collect()
}

/// The function around `pos`: its program, source, program name and
/// annotations.
fn function_at<'a>(
    a: &'a Analysis,
    pos: FilePosition,
    preconditions: bool,
) -> Result<(CProgram<'a>, &'a FunctionSource, Name, Option<Spec>), WitnessError> {
    let c = CProgram::of(a, pos.file).ok_or(WitnessError::NotC)?;
    let source = c.source(pos.file);
    let fs = source
        .functions
        .iter()
        .find(|fs| fs.range.contains(pos.offset))
        .ok_or(WitnessError::NotInFunction)?;
    let name = c.program_name(pos.file, &fs.name);
    let spec = annotations(&a.file_text(pos.file), &source.functions, fs)
        .filter(|_| preconditions)
        .map(|t| pointee_witness::spec::parse(&t))
        .transpose()
        .map_err(WitnessError::Annotation)?;
    Ok((c, fs, name, spec))
}

/// Every input the bounded search gives the function around `pos`: one
/// per path that ends within the bounds (test generation, for the
/// benchmark).
pub(crate) fn inputs(
    a: &Analysis,
    pos: FilePosition,
    options: WitnessOptions,
) -> Result<Inputs, WitnessError> {
    if a.lang(pos.file) == Some(pointee_db::Lang::Java) {
        return java::inputs(a, pos, options);
    }
    let (c, fs, name, spec) = function_at(a, pos, options.preconditions)?;
    let (program, engine) = program_and_engine(&c)?;
    let query = query(name, None, options, spec);
    let (inputs, stats, exhausted) =
        pointee_witness::generate(&program, &query, &mut FlowFacts::new(a, &engine))
            .ok_or(WitnessError::NotInFunction)?;
    Ok(Inputs {
        function: fs.name.to_string(),
        inputs,
        stats,
        exhausted,
        java: None,
    })
}

/// The inputs of test generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inputs {
    pub function: String,
    pub inputs: Vec<Witness>,
    pub stats: Stats,
    /// The budget ran out before every path was explored.
    pub exhausted: bool,
    /// The Java method, when the function is one.
    pub java: Option<JavaMethod>,
}

impl Inputs {
    /// The Java test class `test_class` of input `i` (`None` for C).
    pub fn java_test(&self, i: usize, test_class: &str, source: &str) -> Option<String> {
        let m = self.java.as_ref()?;
        Some(pointee_witness::emit::java_test(
            &self.inputs[i],
            test_class,
            &m.name,
            m.is_static,
            source,
            0,
        ))
    }

    /// The C test program of input `i`, including the analysed file as
    /// `include` names it.
    pub fn c_test(&self, i: usize, include: &str) -> String {
        pointee_witness::emit::c_test(&self.inputs[i], &self.function, include, 0)
    }
}

pub(crate) fn witness(
    a: &Analysis,
    pos: FilePosition,
    options: WitnessOptions,
) -> Result<WitnessAnswer, WitnessError> {
    if a.lang(pos.file) == Some(pointee_db::Lang::Java) {
        return java::witness(a, pos, options);
    }
    let (c, fs, name, spec) = function_at(a, pos, options.preconditions)?;
    let source = c.source(pos.file);
    let (program, engine) = program_and_engine(&c)?;
    // The pointer under the cursor, when it is a plain variable.
    let cursor: Option<Place> = source
        .expr_at(pos.offset)
        .map(|(_, e)| c.place(pos.file, &e.place))
        .filter(|p| !p.deref && p.path.is_empty());
    let f = program.function(&name).ok_or(WitnessError::NotInFunction)?;
    let (stmt, pointer) = dereference_at(f, fs, pos.offset, cursor.as_ref())?;
    let target = pointee_witness::Target {
        stmt,
        pointer: pointer.clone(),
    };
    let query = query(name, Some(target), options, spec);
    let outcome = pointee_witness::find(&program, &query, &mut FlowFacts::new(a, &engine));
    let path = path_steps(&outcome, |name| c.function_source(name));
    Ok(WitnessAnswer {
        function: fs.name.to_string(),
        stmt: FileRange {
            file: pos.file,
            range: fs
                .stmts
                .get(stmt.0 as usize)
                .copied()
                .unwrap_or(Range::default()),
        },
        pointer: pointee_ir_place_text(f, &pointer),
        outcome,
        path,
        options,
        java: None,
    })
}

/// The dereference the position means in function `f` (its source `fs`):
/// of the statements around `offset` that dereference, the innermost,
/// preferring one that dereferences the pointer under the cursor.
fn dereference_at(
    f: &pointee_ir::Function,
    fs: &FunctionSource,
    offset: u32,
    cursor: Option<&Place>,
) -> Result<(StmtId, Place), WitnessError> {
    let mut found: Vec<(u32, StmtId, Place)> = Vec::new();
    for_each_basic(&f.body, &mut |id, b| {
        let Some(r) = fs.stmts.get(id.0 as usize) else {
            return;
        };
        if !r.touches(offset) {
            return;
        }
        for p in dereferenced(b) {
            found.push((r.len(), id, p));
        }
    });
    found.sort_by_key(|&(len, id, _)| (len, id));
    let chosen = found
        .iter()
        .find(|(_, _, p)| Some(p) == cursor)
        .or(found.first())
        .cloned()
        .ok_or(WitnessError::NoDereference)?;
    Ok((chosen.1, chosen.2))
}

/// The path of a found witness in source terms; `source` says where a
/// function (by its program name) is defined.
fn path_steps<'s>(
    outcome: &Outcome,
    source: impl Fn(&str) -> Option<(FileId, &'s FunctionSource)>,
) -> Vec<PathStep> {
    let Outcome::Found(w, _) = outcome else {
        return Vec::new();
    };
    w.path
        .iter()
        .map(|d| {
            let at = source(&d.function);
            PathStep {
                after: d.after.and_then(|s| {
                    let (file, fs) = at?;
                    let range = *fs.stmts.get(s.0 as usize)?;
                    Some(FileRange { file, range })
                }),
                function: at
                    .map(|(_, fs)| fs.name.to_string())
                    .unwrap_or_else(|| d.function.to_string()),
                decision: d.clone(),
            }
        })
        .collect()
}

fn pointee_ir_place_text(f: &pointee_ir::Function, p: &Place) -> String {
    match &p.base {
        pointee_ir::Base::Var(v) => f.var(*v).name.to_string(),
        pointee_ir::Base::Global(g) => g.to_string(),
    }
}
