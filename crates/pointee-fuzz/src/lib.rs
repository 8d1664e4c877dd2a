//! pointee-fuzz: the reliability checks of `docs/reliability.md`. Incremental
//! answers against fresh ones over random edit sequences ([`incremental`]),
//! fuzz targets for every layer that reads outside input ([`targets`]: C
//! text to IR to analysis, generated C programs, Java text to analysis, the
//! preprocessor, the server's framing and requests) and the mutation driver
//! that runs them ([`driver`]). `cargo test -p pointee-fuzz` runs each for
//! a bounded budget; the `pointee-fuzz` binary runs them as long as asked.
//!
//! It must never be a dependency of the product's crates, and never assert
//! how fast anything runs (wall-clock limits only guard against hangs).

pub mod answers;
pub mod edits;
pub mod incremental;
pub mod rand;

use std::path::{Path, PathBuf};

/// The repository's root (the fixtures are inputs).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}
