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

/// A marked line of a witness fixture: `// WITNESS(p): OUTCOME key=value...`
/// (`fixtures/c/witness/README.md`, `fixtures/witness-java/README.md`).
pub struct WitnessMark {
    pub file: PathBuf,
    /// 1-based.
    pub line: usize,
    pub pointer: String,
    /// The line before the mark.
    pub code: String,
    pub outcome: String,
    /// The words after the outcome, split at `=`.
    pub keys: Vec<(String, String)>,
}

impl WitnessMark {
    /// `FILE:LINE:COL` relative to the root, with `column` (1-based).
    pub fn position(&self, column: usize) -> String {
        let rel = self.file.strip_prefix(root()).unwrap();
        format!("{}:{}:{column}", rel.display(), self.line)
    }

    pub fn unknown(&self, key: &str) -> ! {
        panic!("{}:{}: unknown `{key}`", self.file.display(), self.line)
    }
}

pub fn witness_marks(file: &Path) -> Vec<WitnessMark> {
    let text = std::fs::read_to_string(file).unwrap();
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some(at) = line.find("// WITNESS(") else {
            continue;
        };
        let rest = &line[at + "// WITNESS(".len()..];
        let (pointer, rest) = rest.split_once("):").expect("WITNESS(p): ...");
        let mut words = rest.split_whitespace();
        out.push(WitnessMark {
            file: file.to_path_buf(),
            line: i + 1,
            pointer: pointer.to_string(),
            code: line[..at].to_string(),
            outcome: words.next().expect("an outcome").to_string(),
            keys: words
                .map(|w| {
                    let (k, v) = w.split_once('=').unwrap_or((w, ""));
                    (k.to_string(), v.to_string())
                })
                .collect(),
        });
    }
    out
}

/// The files of folder `dir` (relative to the root) ending in `.ext`,
/// sorted.
pub fn files_with(dir: &str, ext: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// The outcome of `pointee witness --format json` as the marks spell it:
/// the fault (`null`, ...), `none`, or the JSON's word.
pub fn witness_outcome(v: &serde_json::Value) -> String {
    match v["outcome"].as_str().unwrap() {
        "found" => v["fault"].as_str().unwrap().to_string(),
        "none-within-bounds" => "none".into(),
        other => other.to_string(),
    }
}
