//! Cheap conventions, checked on every `cargo test`: each Rust source file
//! opens with a `//!` doc, each crate's doc says what it must never do, no
//! trailing whitespace or tabs, and the documents the README points to exist.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            if p.file_name().is_some_and(|n| n != "target") {
                rust_files(&p, out);
            }
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

#[test]
fn every_source_file_opens_with_a_module_doc() {
    let mut files = Vec::new();
    rust_files(&root().join("crates"), &mut files);
    let missing: Vec<String> = files
        .iter()
        .filter(|p| {
            let text = std::fs::read_to_string(p).unwrap_or_default();
            !text.trim_start().starts_with("//!")
        })
        .map(|p| p.strip_prefix(root()).unwrap_or(p).display().to_string())
        .collect();
    assert!(
        missing.is_empty(),
        "files without a leading //! doc: {missing:?}"
    );
}

#[test]
fn every_crate_says_what_it_must_never_do() {
    for entry in std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .flatten()
    {
        let lib = entry.path().join("src/lib.rs");
        let main = entry.path().join("src/main.rs");
        let top = if lib.exists() { lib } else { main };
        let text = std::fs::read_to_string(&top).expect("a crate root");
        let doc: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            doc.contains("never") || doc.contains("only crate"),
            "{} does not say what the crate must never do",
            top.display()
        );
    }
}

#[test]
fn no_trailing_whitespace_or_tabs() {
    let mut files = Vec::new();
    rust_files(&root().join("crates"), &mut files);
    let mut bad = Vec::new();
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap_or_default();
        for (i, line) in text.lines().enumerate() {
            if line.ends_with(' ') || line.contains('\t') {
                bad.push(format!(
                    "{}:{}",
                    p.strip_prefix(root()).unwrap_or(&p).display(),
                    i + 1
                ));
            }
        }
    }
    assert!(bad.is_empty(), "trailing whitespace or tabs at {bad:?}");
}

#[test]
fn documents_the_readme_names_exist() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    for doc in [
        "docs/architecture.md",
        "docs/c-engine.md",
        "docs/java-analysis.md",
        "docs/benchmarks.md",
    ] {
        assert!(readme.contains(doc), "README should point to {doc}");
        assert!(root().join(doc).exists(), "{doc} is missing");
    }
    assert!(
        readme.contains("bash .ci/run"),
        "README names the test command"
    );
    assert!(root().join(".ci/run").exists());
}
