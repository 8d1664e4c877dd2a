//! pointee-ide: the questions users ask (hover, callees, alias checks, dump),
//! answered as plain data in editor terms: file names, 1-based lines and
//! character columns, names and kinds.
//!
//! It ties the front ends and the analyses together for one program given as
//! in-memory texts. It must never do I/O, and never know about LSP, JSON or
//! the command line: those render its answers at the edge.

mod answer;
mod program;

pub use answer::*;
pub use program::{Language, SourceFile, Workspace};
