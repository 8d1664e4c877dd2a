//! The `dump` answer: every function's IR, line by line, with the source line
//! each statement came from and the facts after it.

use crate::Location;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Dump {
    /// Globals with their initial values, one a line.
    pub globals: Vec<String>,
    pub functions: Vec<DumpFunction>,
    /// Whole-program sections after the functions, e.g. the invocation graph.
    pub sections: Vec<(String, Vec<String>)>,
    pub notes: Vec<DumpNote>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpFunction {
    pub name: String,
    pub at: Location,
    /// `fn f(p: int*) -> int`.
    pub header: String,
    /// Locals and temporaries with their types.
    pub locals: String,
    pub lines: Vec<DumpLine>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpLine {
    /// The 1-based source line of a basic statement.
    pub line: Option<u32>,
    /// Nesting depth of the statement in the structured body.
    pub depth: usize,
    pub text: String,
    /// Facts after the statement (empty until an analysis provides them).
    pub facts: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct DumpNote {
    pub at: Location,
    pub kind: String,
    pub message: String,
}
