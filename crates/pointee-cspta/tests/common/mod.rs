//! Shared test helpers: loading fixtures, running every variant, and the
//! `//@` expectations written in the fixtures.

#![allow(dead_code)]

pub mod gen;
pub mod reference;

use pointee_cspta::{Analysis, Variant};
use pointee_java::JavaProgram;
use std::path::{Path, PathBuf};

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java")
}

/// Every fixture: a `.java` file, or a directory of them (one program).
pub fn fixtures() -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "java"))
        .collect();
    out.sort();
    out
}

/// The files of a fixture: (name relative to the fixtures dir, text).
pub fn load(path: &Path) -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = if path.is_dir() {
        std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "java"))
            .collect()
    } else {
        vec![path.to_path_buf()]
    };
    files.sort();
    files
        .into_iter()
        .map(|f| {
            let name = f
                .strip_prefix(fixtures_dir())
                .unwrap_or(&f)
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read_to_string(&f).unwrap())
        })
        .collect()
}

pub fn lower(files: &[(String, String)]) -> JavaProgram {
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    pointee_java::lower(&refs)
}

pub fn roots(jp: &JavaProgram) -> Vec<&str> {
    jp.initializers
        .iter()
        .chain(&jp.mains)
        .map(|s| &**s)
        .collect()
}

pub fn analyse(jp: &JavaProgram, variant: &str) -> Analysis {
    Analysis::run(&jp.program, &roots(jp), Variant::parse(variant).unwrap())
}

/// One `//@` expectation: (file index, 1-based line, text after `//@`).
pub fn expectations(files: &[(String, String)]) -> Vec<(usize, u32, String)> {
    let mut out = Vec::new();
    for (fi, (_, text)) in files.iter().enumerate() {
        for (li, line) in text.lines().enumerate() {
            if let Some(i) = line.find("//@") {
                out.push((fi, li as u32 + 1, line[i + 3..].trim().to_string()));
            }
        }
    }
    out
}

/// `ci=a,b 1-call=c *=d` -> the value for `variant` (`*` is the default).
pub fn value_for(spec: &str, variant: &str) -> Option<String> {
    let mut default = None;
    for tok in spec.split_whitespace() {
        let Some((k, v)) = tok.split_once('=') else {
            continue;
        };
        if k == variant {
            return Some(v.to_string());
        }
        if k == "*" {
            default = Some(v.to_string());
        }
    }
    default
}

pub fn line_of(text: &str, offset: u32) -> u32 {
    text[..offset as usize].matches('\n').count() as u32 + 1
}
