//! Multi-file C projects under `fixtures/c/projects/NAME/`: the program
//! model (`pointee.toml`, `compile_commands.json`, or every `.c` file; read
//! by pointee-project) names the units and the entries, and the files carry
//! expectations as the single-file fixtures do (`expect/mod.rs`: HOVER,
//! CALLEES, alias checks), checked against pointee-ide in process. (Each
//! project is also built with gcc and run: pointee-flow's
//! `tests/projects.rs`.)
//!
//! `POINTEE_UPDATE=1` rewrites HOVER and CALLEES expectations.

mod expect;

use pointee_ide::Config;
use pointee_project::ProgramModel;
use std::path::{Path, PathBuf};

fn projects_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/projects")
}

fn projects() -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(projects_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    v.sort();
    v
}

/// The files under `dir`, relative to it.
fn listing(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                out.push(p.strip_prefix(root).unwrap().to_string_lossy().into_owned());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out.sort();
    out
}

fn root_of(dir: &Path) -> String {
    pointee_project::paths::normalize(&dir.to_string_lossy())
}

fn model(dir: &Path) -> ProgramModel {
    pointee_project::load(&root_of(dir), &listing(dir), &mut |p: &str| {
        std::fs::read_to_string(p).map_err(|e| e.to_string())
    })
    .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
}

/// The units as files named from the projects folder (`NAME/x.c`), so
/// that answers (a renamed `static`'s `name@file`) do not depend on where
/// the repository is.
fn units(m: &ProgramModel) -> Vec<(String, String)> {
    m.units
        .iter()
        .map(|u| (shown(&u.file), std::fs::read_to_string(&u.file).unwrap()))
        .collect()
}

fn shown(file: &str) -> String {
    pointee_project::paths::relative_to(file, &root_of(&projects_dir())).to_string()
}

#[test]
fn c_projects() {
    let update = std::env::var("POINTEE_UPDATE").is_ok();
    let mut failures = Vec::new();
    let (mut expectations, mut checks) = (0, 0);
    for dir in projects() {
        let m = model(&dir);
        let config = Config {
            c_entries: m.entries.clone(),
            ..Config::default()
        };
        let configs = m
            .units
            .iter()
            .map(|u| (shown(&u.file), u.config.clone()))
            .collect();
        let a = expect::analyse_in(&units(&m), config, configs, Some(projects_dir()));
        for u in &m.units {
            let (n, new_text) =
                expect::check_expectations(&a, &shown(&u.file), update, &mut failures);
            expectations += n;
            if let Some(s) = new_text {
                std::fs::write(&u.file, s).unwrap();
            }
        }
        checks += expect::check_alias_checks(&a, &dir.to_string_lossy(), &mut failures);
    }
    eprintln!("{expectations} hover/callee expectations, {checks} alias checks");
    assert!(expectations > 0 && checks > 0);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
