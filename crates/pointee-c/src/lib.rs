//! pointee-c: lowers C source (a tree-sitter-c syntax tree) to the pointer IR.
//!
//! It must never analyse: it only turns syntax into IR plus a source map.

use pointee_ir::{Program, SourceMap};

/// The lowered program and one source map per input file (same order).
#[derive(Clone, Debug, Default)]
pub struct CProgram {
    pub program: Program,
    pub sources: Vec<SourceMap>,
}

/// A program that cannot be formed (e.g. two external definitions of one name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LowerError(pub String);

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Lowers the given `(file name, text)` pairs as one program.
pub fn lower(files: &[(&str, &str)]) -> Result<CProgram, LowerError> {
    let sources = files
        .iter()
        .map(|(name, _)| SourceMap {
            file: (*name).into(),
            ..Default::default()
        })
        .collect();
    Ok(CProgram {
        program: Program::default(),
        sources,
    })
}
