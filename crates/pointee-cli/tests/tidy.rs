//! Cheap conventions, checked on every `cargo test`: each Rust source file
//! opens with a `//!` doc, each crate's doc says what it must never do, no
//! trailing whitespace or tabs, and the documents the README points to exist.

mod common;
use common::root;

use std::path::{Path, PathBuf};

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

/// The `[dependencies]` of a crate: the names of its normal dependencies.
fn dependencies(krate: &str) -> Vec<String> {
    let manifest = std::fs::read_to_string(root().join("crates").join(krate).join("Cargo.toml"))
        .expect("a crate manifest");
    manifest
        .lines()
        .skip_while(|l| l.trim() != "[dependencies]")
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| {
            let name = l.split(['=', '.', ' ']).next().unwrap_or_default();
            name.trim().to_string()
        })
        .collect()
}

/// The crates stack one way (each depends only on crates below it); the
/// server converts and schedules (pointee-ide answers, so it needs no
/// front end or engine); only the server and the command line know tokio,
/// LSP types or serde.
#[test]
fn crates_depend_one_way_and_the_server_only_on_the_answer_layer() {
    // Layers, bottom first; a crate may depend on crates of lower layers.
    let layers: &[&[&str]] = &[
        &["pointee-ir"],
        &["pointee-cpp"],
        &[
            "pointee-c",
            "pointee-flow",
            "pointee-java",
            "pointee-cspta",
            "pointee-project",
            "pointee-witness",
        ],
        &["pointee-db"],
        &["pointee-ide"],
        &["pointee-lsp"],
        &["pointee-cli"],
        // Test harnesses: never a dependency of the product.
        &["pointee-fuzz"],
    ];
    let layer = |name: &str| layers.iter().position(|l| l.contains(&name));
    let mut crates: Vec<String> = std::fs::read_dir(root().join("crates"))
        .expect("crates/")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    crates.sort();
    for krate in &crates {
        let mine = layer(krate).unwrap_or_else(|| panic!("{krate}: add it to a layer"));
        for dep in dependencies(krate) {
            if let Some(theirs) = layer(&dep) {
                assert!(
                    theirs < mine,
                    "{krate} depends on {dep}, which is not below it"
                );
            }
            let edge = ["tokio", "tower-lsp-server", "serde", "serde_json"];
            assert!(
                !edge.contains(&dep.as_str())
                    || ["pointee-lsp", "pointee-cli", "pointee-fuzz"].contains(&krate.as_str()),
                "{krate} depends on {dep}: only the server and the command line may"
            );
        }
    }
    let mut server: Vec<String> = dependencies("pointee-lsp")
        .into_iter()
        .filter(|d| d.starts_with("pointee-"))
        .collect();
    server.sort();
    assert_eq!(server, ["pointee-db", "pointee-ide", "pointee-ir"]);
    let mut cli: Vec<String> = dependencies("pointee-cli")
        .into_iter()
        .filter(|d| d.starts_with("pointee-"))
        .collect();
    cli.sort();
    // The command line reads the program model (pointee-project) from disk.
    assert_eq!(cli, ["pointee-ide", "pointee-lsp", "pointee-project"]);
}

/// The server holds no answer logic: its sources (tests aside) walk no
/// syntax tree and spell no grammar node kind of C or Java; what a node
/// means is pointee-ide's question (its `syntax` module and the front ends).
#[test]
fn the_server_spells_no_grammar_node_kind_and_walks_no_tree() {
    let mut kinds: std::collections::BTreeSet<String> = Default::default();
    for grammar in [tree_sitter_c::NODE_TYPES, tree_sitter_java::NODE_TYPES] {
        let nodes: serde_json::Value = serde_json::from_str(grammar).expect("node-types.json");
        let mut collect = |v: &serde_json::Value| {
            if v["named"] == true {
                if let Some(t) = v["type"].as_str() {
                    kinds.insert(t.to_string());
                }
            }
        };
        for node in nodes.as_array().expect("a list of nodes") {
            collect(node);
            for sub in node["subtypes"].as_array().into_iter().flatten() {
                collect(sub);
            }
        }
    }
    assert!(kinds.contains("call_expression") && kinds.contains("method_invocation"));
    let walking = [
        ".kind()",
        "kind_id()",
        "child_by_field_name",
        "named_child",
        ".parent()",
        "descendant_for_byte_range",
        ".walk()",
        "TreeCursor",
    ];
    let mut files = Vec::new();
    rust_files(&root().join("crates/pointee-lsp/src"), &mut files);
    let mut found = Vec::new();
    // The server's tests (`tests.rs` and its modules in `tests/`) spell
    // JSON such as `"null"`, not node kinds.
    let in_tests = |f: &std::path::Path| {
        f.ends_with("tests.rs") || f.parent().is_some_and(|d| d.ends_with("tests"))
    };
    for file in files.iter().filter(|f| !in_tests(f)) {
        let text = std::fs::read_to_string(file).expect("a source file");
        for (n, line) in text.lines().enumerate() {
            let code = line.split("//").next().unwrap_or_default();
            let quoted = code.split('"').skip(1).step_by(2);
            for q in quoted.filter(|q| kinds.contains(*q)) {
                found.push(format!("{}:{}: node kind \"{q}\"", file.display(), n + 1));
            }
            for w in walking.iter().filter(|w| code.contains(*w)) {
                found.push(format!("{}:{}: walks a tree ({w})", file.display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "answer logic in the server (move it to pointee-ide):\n{}",
        found.join("\n")
    );
}
