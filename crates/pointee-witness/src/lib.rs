//! pointee-witness: finds an input that makes a dereference fault.
//!
//! Given a function of pointee's IR and one dereference in it, a bounded
//! symbolic executor (seed 002, Pham et al., sections 3-5: the core heap
//! language of locals, field loads and stores, allocation, `free`, null
//! tests, branches and calls) runs the function on a symbolic input and
//! looks for a path on which the dereferenced pointer is NULL or points to
//! freed memory (or into a returned frame). Inputs are built by *lazy
//! initialisation*: a pointer that is part of the input (a parameter, or a
//! field of an input object) gets a value when it is first read: NULL, a
//! fresh object, or an input object
//! already made of the same type. The choices are *guided by points-to
//! facts* ([`Facts`]): a read whose set excludes NULL never tries NULL, and
//! a pointer never aliases an object whose set it does not overlap. The
//! path condition (the choices as pointer (dis)equalities) is decided by
//! Z3 ([`solve`]), whose model orders the objects of the input.
//!
//! What it answers is plain data ([`Outcome`]): the input (arguments and
//! the objects they reach, field by field), the branch decisions of the
//! path, and what was cut by the bounds; [`emit::c_test`] writes a C test
//! program that builds the input and calls the function, [`emit::java_test`]
//! a Java class that does the same through reflection. Java methods run on
//! the same rules: objects of classes, virtual calls dispatched on the
//! receiver's class (a call on null faults), `new` objects zeroed.
//!
//! It must never do I/O, parse source text, or know source positions,
//! LSP or JSON: positions are the caller's (pointee-ide) business, and
//! points-to facts come only through the narrow [`Facts`] trait.

pub mod emit;
mod exec;
pub mod solve;
pub mod spec;

use pointee_ir::{Name, Place, Point, Sel, StmtId, Type};

pub use exec::{find, generate};

/// What the points-to analysis says about a pointer value.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Pointee {
    Null,
    /// An abstract location of the analysis, by an id only equality of
    /// which matters.
    Loc(u32),
    /// May point anywhere.
    Unknown,
}

/// The narrow view of a points-to analysis the executor uses to prune
/// lazy initialisation. `None` means "no facts" (all candidates stay).
pub trait Facts {
    /// What the value of `place` may point to at `point` of `function`,
    /// over every calling context.
    fn pointees(&mut self, function: &str, point: Point, place: &Place) -> Option<Vec<Pointee>>;

    /// Called between steps of the search, so that a caller that no longer
    /// wants the answer (an editor's newer edit, a cancelled request) can
    /// stop it: by unwinding with its own cancellation payload, which the
    /// caller catches. The default never stops.
    fn check_cancelled(&mut self) {}
}

/// No facts: plain lazy initialisation.
pub struct NoFacts;

impl Facts for NoFacts {
    fn pointees(&mut self, _: &str, _: Point, _: &Place) -> Option<Vec<Pointee>> {
        None
    }
}

/// How far the search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// Iterations of each loop on one path.
    pub loop_unfoldings: u32,
    /// Nested calls below the analysed function.
    pub call_depth: u32,
    /// Paths explored (each choice point counts its branches).
    pub max_paths: u32,
    /// Wall-clock budget, in milliseconds.
    pub time_ms: u64,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            loop_unfoldings: 4,
            call_depth: 4,
            max_paths: 20_000,
            time_ms: 5_000,
        }
    }
}

/// What to search for.
#[derive(Clone, Debug)]
pub struct Query {
    /// The function whose input is searched (the program's name of it).
    pub function: Name,
    /// The dereference to make fault ([`find`]); [`generate`] ignores it.
    pub target: Option<Target>,
    pub bounds: Bounds,
    /// Restrict lazy initialisation by the facts (true), or try every
    /// candidate (false: plain lazy initialisation, for comparison).
    pub guided: bool,
    /// The predicates and precondition (`//@` annotations), if any.
    pub spec: Option<spec::Spec>,
    /// `malloc` and `calloc` may return NULL: each call is also a branch
    /// where it fails.
    pub malloc_may_fail: bool,
}

/// A dereference: the statement and the pointer it dereferences (a place
/// of the function, undereferenced).
#[derive(Clone, Debug)]
pub struct Target {
    pub stmt: StmtId,
    pub pointer: Place,
}

/// The id of an object of the input (`o1`, `o2`, ... in the answer).
pub type ObjectId = usize;

/// A value of the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Null,
    Object(ObjectId),
    /// A non-pointer value the path never read as an integer: any value
    /// will do (the test passes 0).
    Scalar,
    /// An integer the path's conditions need (Z3's model).
    Int(i64),
}

impl Value {
    /// The value as the answers write it: `NULL`, `o1`, `any`.
    pub fn text(&self) -> String {
        match self {
            Value::Null => "NULL".into(),
            Value::Object(k) => format!("o{}", k + 1),
            Value::Scalar => "any".into(),
            Value::Int(n) => n.to_string(),
        }
    }
}

/// An object of the input: its type and the pointer fields the path read
/// before writing them (others are "don't care": the test leaves them
/// zero, i.e. NULL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputObject {
    pub id: ObjectId,
    pub ty: Type,
    pub fields: Vec<(Vec<Sel>, Value)>,
}

/// One branch decision of the path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub function: Name,
    /// The last statement run before the branch (`None`: at the function's
    /// start).
    pub after: Option<StmtId>,
    /// The condition, as pointee reads it (`p == NULL`), or `None` for a
    /// condition the IR keeps opaque (integers, pointer comparisons).
    pub test: Option<String>,
    pub taken: bool,
}

impl Decision {
    /// The decision in words: `list == NULL is false`.
    pub fn describe(&self) -> String {
        format!(
            "{} is {}",
            self.test
                .as_deref()
                .unwrap_or("a condition pointee does not model"),
            self.taken
        )
    }
}

/// How the dereference faults.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    Null,
    UseAfterFree,
    /// A pointer to a local of a function that has returned.
    Dangling,
}

impl Fault {
    /// A short name for tools (`null`, `use-after-free`).
    pub fn code(self) -> &'static str {
        match self {
            Fault::Null => "null",
            Fault::UseAfterFree => "use-after-free",
            Fault::Dangling => "dangling",
        }
    }

    /// What the fault is, in words (`NULL dereference`).
    pub fn describe(self) -> &'static str {
        match self {
            Fault::Null => "NULL dereference",
            Fault::UseAfterFree => "use after free",
            Fault::Dangling => "dangling pointer to a returned function's local",
        }
    }
}

/// An input that makes the dereference fault (or, in test generation,
/// the input of one path), and the path it takes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// How it faults (`None`: a generated input whose path does not).
    pub fault: Option<Fault>,
    /// The function's parameters, in order: name, type and value.
    pub args: Vec<(Name, Type, Value)>,
    pub objects: Vec<InputObject>,
    pub path: Vec<Decision>,
    /// Branches on conditions the IR keeps opaque that the path assumed:
    /// when not zero, a concrete run of the input may take another path.
    pub assumed: usize,
    /// Calls to functions without a body whose effects the path ignored.
    pub unmodelled_calls: usize,
    /// The `malloc`/`calloc` calls (1-based, counted from the function's
    /// start along the path) that return NULL on the path.
    pub failed_allocs: Vec<u32>,
}

impl Witness {
    /// The input, one line per argument (`list = o1`) then per object
    /// (`o1: struct node { next = NULL }`).
    pub fn input_lines(&self) -> Vec<String> {
        let args = self
            .args
            .iter()
            .map(|(name, _, v)| format!("{name} = {}", v.text()));
        let objects = self.objects.iter().map(|o| {
            let fields: Vec<String> = o
                .fields
                .iter()
                .map(|(p, v)| match field_text(p) {
                    f if f.is_empty() => format!("*o{} = {}", o.id + 1, v.text()),
                    f => format!("{f} = {}", v.text()),
                })
                .collect();
            let fields = if fields.is_empty() {
                "{}".to_string()
            } else {
                format!("{{ {} }}", fields.join(", "))
            };
            format!("o{}: {} {fields}", o.id + 1, type_text(&o.ty))
        });
        let allocs = self
            .failed_allocs
            .iter()
            .map(|k| format!("malloc/calloc call {k} = NULL"));
        args.chain(objects).chain(allocs).collect()
    }

    /// Whether a concrete run of the input surely takes the path: no
    /// branch assumed and no library call ignored.
    pub fn confirmed(&self) -> bool {
        self.assumed == 0 && self.unmodelled_calls == 0
    }

    /// Why a concrete run may take another path, when it may.
    pub fn unconfirmed_note(&self) -> Option<String> {
        (!self.confirmed()).then(|| {
            format!(
                "the path assumes {} branch(es) on conditions pointee does not model and ignores {} library call(s)",
                self.assumed, self.unmodelled_calls
            )
        })
    }
}

/// How much the search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Paths that ended (returned, faulted, or were cut).
    pub paths: u32,
    /// Lazy-initialisation choices made (values given to input pointers).
    pub choices: u32,
    /// Candidates the facts ruled out.
    pub pruned: u32,
    /// Paths cut by a bound (loop, call depth) or by something the
    /// executor does not model (goto, calls through pointers).
    pub cut: u32,
    /// Paths that faulted at another dereference first.
    pub faulted_elsewhere: u32,
    /// Path conditions Z3 found unsatisfiable.
    pub infeasible: u32,
}

impl Stats {
    /// The figures in words.
    pub fn describe(&self) -> String {
        format!(
            "{} paths, {} choices, {} candidates pruned by the facts, {} paths cut by the bounds, {} faulted elsewhere",
            self.paths, self.choices, self.pruned, self.cut, self.faulted_elsewhere
        )
    }
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Found(Witness, Stats),
    /// Every path within the bounds was explored: none faults there.
    NoneWithinBounds(Stats),
    /// The budget (paths or time) ran out first.
    BudgetExhausted(Stats),
    /// The query names no function of the program.
    NoFunction,
}

/// A field path as C spells it after the object (`next`, `kids[0]`,
/// `a.b`); empty for the object itself.
pub fn field_text(path: &[Sel]) -> String {
    let mut s = String::new();
    for sel in path {
        match sel {
            Sel::Field(f) if s.is_empty() => s.push_str(f),
            Sel::Field(f) => s = format!("{s}.{f}"),
            Sel::Index(pointee_ir::Index::Zero) => s.push_str("[0]"),
            Sel::Index(_) => s.push_str("[1]"),
        }
    }
    s
}

/// A type as pointee shows it (`struct node*`).
pub fn type_text(ty: &Type) -> String {
    pointee_ir::type_to_string(ty)
}
