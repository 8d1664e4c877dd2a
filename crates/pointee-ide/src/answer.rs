//! The answers, as plain data: file ids and byte ranges, names and typed
//! kinds. Lists are sorted by whoever builds them (by file path, then
//! offset), so every rendering is deterministic.

use crate::FileId;
use pointee_db::Lang;
use pointee_ir::Range;
pub use pointee_ir::Verdict;

/// A byte offset in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FilePosition {
    pub file: FileId,
    pub offset: u32,
}

/// A byte range in a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileRange {
    pub file: FileId,
    pub range: Range,
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

    /// A value that is no object of the program (NULL, uninitialised,
    /// freed, dangling, unknown): it never makes two pointers aliases.
    pub fn is_special(self) -> bool {
        matches!(
            self,
            TargetKind::Null
                | TargetKind::Uninit
                | TargetKind::Freed
                | TargetKind::Dangling
                | TargetKind::Unknown
        )
    }
}

/// One element of a points-to set.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Target {
    pub name: String,
    pub kind: TargetKind,
    /// The pointer definitely points here (C); always false for Java.
    pub definite: bool,
    /// Declaration or allocation site, when the target has one in the source.
    pub decl: Option<FileRange>,
    /// Java: the heap context of the object, e.g. `[new A() at 12]`.
    pub heap_context: Option<String>,
    /// C: what a symbolic name stands for in the user's terms, e.g. `1_p`
    /// is "what callers of `f` pass as `p`" (see `c::meaning`).
    pub meaning: Option<String>,
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
    pub range: FileRange,
    /// False when no analysed context reaches the point.
    pub reachable: bool,
    /// True when contexts were merged by a bound (the result is coarser).
    pub merged: bool,
    /// True when a context was analysed with one input per function inside
    /// a large recursive cycle (the inputs of its calls merged; coarser).
    pub merged_in_cycle: bool,
    /// True when the C analysis stopped at its budget and this answer may
    /// miss what it did not finish: the function lacks contexts a cut-off
    /// call would have made, or a context's result depends on such a call
    /// (the answer is sound, coarser; "unreachable" is not a finding then).
    pub partial: bool,
    /// True when the point is only reached from an extra entry (a function
    /// not reached from `main`, analysed with unknown inputs).
    pub extra_entry: bool,
    /// Merged over contexts: definite only if definite in every context.
    pub targets: Vec<Target>,
    pub contexts: Vec<ContextTargets>,
    /// The functions a call through the expression may reach: on the callee
    /// of a call, that call's callees (as `callees` answers); on another
    /// function pointer, the functions it points to.
    pub may_call: Vec<Callee>,
}

/// A possible callee of a call.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Callee {
    pub name: String,
    /// The callee's name where it is defined; `None` for a library function.
    pub decl: Option<FileRange>,
}

/// Where the user can go: a declaration, a definition, a callee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NavTarget {
    pub file: FileId,
    /// The name, or the whole range when there is no name.
    pub range: Range,
}

/// One `MUSTALIAS(p, q)`-style check found in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AliasCheck {
    /// The check's call (C) or statement (Java).
    pub at: FileRange,
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub range: FileRange,
    pub severity: Severity,
    pub code: String,
    pub message: String,
    /// The witness: the locations that explain the diagnostic (where a
    /// value came from, the calling contexts), in order.
    pub related: Vec<Related>,
}

impl Diagnostic {
    /// Whether it marks code that does nothing (shown faded: LSP's
    /// `DiagnosticTag::UNNECESSARY`): a method nothing calls.
    pub fn is_unnecessary(&self) -> bool {
        self.code == "unreachable-method"
    }
}

/// A location that explains a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    pub range: FileRange,
    pub message: String,
}

/// The result of `check`: alias checks, diagnostics and figures.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    pub alias_checks: Vec<AliasCheck>,
    pub diagnostics: Vec<Diagnostic>,
    /// Named figures (reachable functions, call-graph edges, ...), in order.
    pub stats: Vec<(String, u64)>,
    /// C: the analysis stopped at its budget; its answers are sound but may
    /// say less, and the functions listed miss what it did not finish.
    pub partial: Option<pointee_db::PartialRun>,
}

impl CheckReport {
    pub fn all_ok(&self) -> bool {
        self.alias_checks.iter().all(|c| c.ok)
    }
}

/// Which diagnostics to publish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagnosticsConfig {
    /// Alias checks that fail (warnings).
    pub alias_checks: bool,
    /// Alias checks that hold (hints).
    pub ok_checks: bool,
    /// What the front end skipped or approximated.
    pub notes: bool,
    /// The checkers' findings (NULL dereferences, use after free, ...).
    pub checkers: bool,
    /// Codes turned off (`null-deref`, `alias-check`, ...): not reported,
    /// and a checker whose codes are all off does not run.
    pub disabled: std::collections::BTreeSet<String>,
}

impl DiagnosticsConfig {
    /// Whether diagnostics with this code are reported.
    pub fn enabled(&self, code: &str) -> bool {
        !self.disabled.contains(code)
    }
}

impl Default for DiagnosticsConfig {
    fn default() -> Self {
        DiagnosticsConfig {
            alias_checks: true,
            ok_checks: true,
            notes: true,
            checkers: true,
            disabled: Default::default(),
        }
    }
}

/// A function of the call hierarchy.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CallItem {
    pub lang: Lang,
    /// The function's name in the program (`f`, `A.m(int)`, `f@file.c`).
    pub name: String,
    pub file: FileId,
    /// The whole definition.
    pub range: Range,
    pub name_range: Range,
}

/// A caller or callee, with the calls between the two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallLink {
    pub item: CallItem,
    /// The call expressions (in the caller's file).
    pub calls: Vec<FileRange>,
}

/// How an expression of document highlight relates to the one under the
/// cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HighlightKind {
    /// A must-alias, read.
    Read,
    /// A must-alias, written.
    Write,
    /// A may-alias.
    Text,
}

/// A place in the program that refers to what the cursor names: an
/// expression that may point to it, or a store that may write it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub range: FileRange,
    pub kind: ReferenceKind,
}

/// How a reference refers, in the order answers list them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ReferenceKind {
    /// Points to the same one object, definitely (C only).
    MustAlias,
    /// May point to one of the same objects.
    MayAlias,
    /// A store that may write one of the objects (or the field named).
    Write,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    pub range: Range,
    pub kind: HighlightKind,
}

/// A label shown after a byte offset of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InlayHint {
    pub offset: u32,
    pub label: String,
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
