//! The answers, as plain data. Lists are sorted (file, line, column, name) by
//! whoever builds them, so every rendering is deterministic.

/// A position or declaration: file name as given, 1-based line, 1-based
/// column counted in characters.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Location {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// A source range, end-exclusive, in the same units as [`Location`].
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Span {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// What kind of abstract location a target is (the contract's `kind` field).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetKind {
    Local,
    Param,
    Global,
    Field,
    Array,
    Heap,
    Function,
    String,
    Symbolic,
    Null,
    Uninit,
    Freed,
    Dangling,
    Unknown,
    Object,
}

impl TargetKind {
    pub fn as_str(self) -> &'static str {
        match self {
            TargetKind::Local => "local",
            TargetKind::Param => "param",
            TargetKind::Global => "global",
            TargetKind::Field => "field",
            TargetKind::Array => "array",
            TargetKind::Heap => "heap",
            TargetKind::Function => "function",
            TargetKind::String => "string",
            TargetKind::Symbolic => "symbolic",
            TargetKind::Null => "null",
            TargetKind::Uninit => "uninit",
            TargetKind::Freed => "freed",
            TargetKind::Dangling => "dangling",
            TargetKind::Unknown => "unknown",
            TargetKind::Object => "object",
        }
    }
}

/// One element of a points-to set.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Target {
    pub name: String,
    pub kind: TargetKind,
    /// The pointer definitely points here (C); always false for Java.
    pub definite: bool,
    /// Declaration or allocation site, when the target has one in the source.
    pub decl: Option<Location>,
    /// Java: the heap context of the object, e.g. `[new A() at 12]`.
    pub heap_context: Option<String>,
}

/// The targets in one calling context (C: the call chain from the entry;
/// Java: the method context's elements).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContextTargets {
    pub chain: Vec<String>,
    pub targets: Vec<Target>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hover {
    /// The expression's source text.
    pub expr: String,
    pub span: Span,
    /// False when no analysed context reaches the point.
    pub reachable: bool,
    /// True when contexts were merged by a bound (the result is coarser).
    pub merged: bool,
    /// True when the point is only reached from an extra entry (a function
    /// not reached from `main`, analysed with unknown inputs).
    pub extra_entry: bool,
    /// Merged over contexts: definite only if definite in every context.
    pub targets: Vec<Target>,
    pub contexts: Vec<ContextTargets>,
}

/// A possible callee of a call.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Callee {
    pub name: String,
    /// Where the callee is defined; `None` for a library function.
    pub decl: Option<Location>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    No,
    May,
    Must,
    Unreachable,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::No => "no",
            Verdict::May => "may",
            Verdict::Must => "must",
            Verdict::Unreachable => "unreachable",
        }
    }
}

/// One `MUSTALIAS(p, q)`-style check found in the source.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct AliasCheck {
    pub at: Location,
    /// The check's name as written, e.g. `NOALIAS`.
    pub check: String,
    pub verdict: Verdict,
    pub ok: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Error,
    Warning,
    Info,
    Hint,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub span: Span,
    pub severity: Severity,
    pub code: String,
    pub message: String,
}

/// The result of `check`: alias checks, diagnostics and figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    pub alias_checks: Vec<AliasCheck>,
    pub diagnostics: Vec<Diagnostic>,
    /// Named figures (reachable functions, call-graph edges, ...), in order.
    pub stats: Vec<(String, u64)>,
}

impl CheckReport {
    pub fn all_ok(&self) -> bool {
        self.alias_checks.iter().all(|c| c.ok)
    }
}

/// Bad input from the user: one clear line, exit code 2 at the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}
