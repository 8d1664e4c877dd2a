//! pointee-cspta: context-sensitive, inclusion-based, flow-insensitive
//! points-to analysis for the Java subset (pointee's IR with classes), with an
//! on-the-fly call graph. Context sensitivity is pluggable through one
//! selector interface: `ci`, `k-call`, `k-obj`, `k-type` (k = 1..3), heap
//! contexts of length k-1.
//!
//! It must never parse, do I/O, or know about LSP, JSON or the command line;
//! its output is deterministic for a given program, roots and variant.

mod alias;
mod compile;
mod context;
use pointee_ir::fxhash;
mod nullness;
mod ptset;
mod result;
mod resume;
mod retract;
mod solver;
mod types;

pub use alias::{alias_checks, check_kind, AliasResult, AliasVerdict, CheckKind};
pub use compile::{
    Alloc, CallKind, CallStmt, CastStmt, Facts, MethodFacts, NoObject, NoObjectFact, NoObjectInto,
    ARRAY_FIELD, LIBRARY_HEAP,
};
pub use context::{Contexts, CtxId, Elem, Kind, Receiver, Selector, Variant, EMPTY};
pub use nullness::{NullSource, Nullness};
pub use ptset::PtSet;
pub use result::{Analysis, Stats};
pub use resume::Resumed;
pub use solver::{CallEdge, Interrupted, MethodCtx};
pub use types::{TypeInfo, TypeTests};
