//! What the command-line tests share: the workspace root and a run of the
//! real `pointee` binary from it. Each test file uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

/// `pointee ARGS...`, run in the workspace root.
pub fn pointee(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pointee"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("pointee runs")
}
