//! pointee-c: lowers C source (a tree-sitter-c syntax tree) to the pointer IR.
//!
//! It must never analyse: it only turns syntax into IR plus a source map.
