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

/// Every project as the language server holds it: every file of the folder
/// in the workspace (headers, and a `driver.c` the model leaves out,
/// included) and the model read through `CModel::read`. Headers are read
/// by the units that include them and are never linked as units: the
/// program links, and answers and alias checks are those of the units.
#[test]
fn c_projects_with_every_file_in_the_workspace() {
    let mut failures = Vec::new();
    let mut notes = Vec::new();
    for dir in projects() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let listing = listing(&dir);
        let model = pointee_ide::CModel::read(&name, &listing, &mut |p: &str| {
            std::fs::read_to_string(projects_dir().join(p)).map_err(|e| e.to_string())
        })
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        let files: Vec<(String, String)> = listing
            .iter()
            .filter(|f| f.ends_with(".c") || f.ends_with(".h"))
            .map(|f| {
                let text = std::fs::read_to_string(dir.join(f)).unwrap();
                (format!("{name}/{f}"), text)
            })
            .collect();
        let config = Config {
            c_entries: model.entries.clone(),
            ..Config::default()
        };
        let units: Vec<String> = model.configs.keys().cloned().collect();
        let system: pointee_ide::System = std::sync::Arc::new(expect::Includes {
            root: Some(projects_dir()),
        });
        let mut host = pointee_ide::AnalysisHost::with_system(system);
        let mut change = pointee_ide::Change::of_files(files, config);
        change.set_c_model(Some(model));
        host.apply_change(change);
        let a = host.analysis();
        for u in &units {
            expect::check_expectations(&a, u, false, &mut failures);
        }
        // Answers inside the functions a header defines land in the header.
        for f in listing.iter().filter(|f| f.ends_with(".h")) {
            expect::check_expectations(&a, &format!("{name}/{f}"), false, &mut failures);
        }
        expect::check_alias_checks(&a, &name, &mut failures);
        if name == "header_definitions" {
            declarations_land_in_headers(&a, &mut failures);
            header_functions_answer_for_every_includer(&a, &mut failures);
        }
        // A header's notes are those its includers land in it: no syntax
        // error from reading it alone.
        for f in listing.iter().filter(|f| f.ends_with(".h")) {
            let path = format!("{name}/{f}");
            let file = a.file_id(&path).unwrap();
            let config = pointee_ide::DiagnosticsConfig::default();
            for d in a.diagnostics(file, &config).unwrap() {
                let line = a.line_index(file).unwrap().line_of(d.range.range.start) + 1;
                notes.push(format!("{path}:{line}: {} {}", d.code, d.message));
            }
        }
    }
    assert_eq!(
        notes,
        ["header_definitions/vec.h:15: unsupported case label nested inside another statement; lowered as straight-line code"],
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Go to declaration from a unit into the workspace's headers, which are
/// not units: a global a header defines, a record and a static function
/// it declares for its includer.
fn declarations_land_in_headers(a: &pointee_ide::Analysis, failures: &mut Vec<String>) {
    for (file, line, word, want) in [
        ("main.c", 19, "&verbose", "header_definitions/settings.h:6"),
        ("main.c", 18, "second", "header_definitions/list.h:10"),
        ("main.c", 13, "vec", "header_definitions/vec.h:3"),
        // From inside a function a header defines.
        ("vec.h", 7, "vec *v", "header_definitions/vec.h:3"),
        ("vec.h", 17, "v->len", "header_definitions/vec.h:9"),
    ] {
        let main = a.file_id(&format!("header_definitions/{file}")).unwrap();
        let text = a.file_text(main);
        let line_text = text.lines().nth(line - 1).unwrap();
        let column = line_text.find(word).unwrap() as u32 + 1 + word.starts_with('&') as u32;
        let at = expect::position(a, main, line as u32, column);
        let got: Vec<String> = a
            .goto_declaration(at)
            .unwrap()
            .iter()
            .map(|t| {
                let l = a.line_index(t.file).unwrap().line_of(t.range.start) + 1;
                format!("{}:{l}", a.file_path(t.file))
            })
            .collect();
        if got != [want] {
            failures.push(format!(
                "{file}:{line}: declaration of {word}: want {want}, got {got:?}"
            ));
        }
    }
}

/// Answers on a function a header defines (`list.h`'s `static inline`
/// `second` and `visit`), which every includer compiles a copy of: the
/// call hierarchy's callers and callees, references and highlights merge
/// every includer's copy (`main.c`'s and `list.c`'s call them), not only
/// the first includer's.
fn header_functions_answer_for_every_includer(
    a: &pointee_ide::Analysis,
    failures: &mut Vec<String>,
) {
    let file = |f: &str| a.file_id(&format!("header_definitions/{f}")).unwrap();
    let at = |f: &str, line: usize, word: &str| {
        let id = file(f);
        let text = a.file_text(id);
        let column = text.lines().nth(line - 1).unwrap().find(word).unwrap() as u32 + 1;
        expect::position(a, id, line as u32, column)
    };
    let shown = |r: pointee_ide::FileRange| {
        let l = a.line_index(r.file).unwrap().line_col_chars(r.range.start);
        format!(
            "{}:{}:{}",
            a.file_path(r.file).rsplit('/').next().unwrap(),
            l.0 + 1,
            l.1 + 1
        )
    };
    let mut check = |what: &str, got: Vec<String>, want: &[&str]| {
        if got != want {
            failures.push(format!("{what}: want {want:?}, got {got:?}"));
        }
    };
    // Prepared on the header's `second`: one item, whose callers are those
    // of every copy (main.c's `main` calls its own, list.c's `other` its).
    let items = a.call_hierarchy(at("list.h", 10, "second")).unwrap();
    check(
        "call hierarchy on list.h's second",
        items
            .iter()
            .map(|i| a.file_path(i.file).to_string())
            .collect(),
        &["header_definitions/list.h"],
    );
    let links = |links: Vec<pointee_ide::CallLink>| -> Vec<String> {
        links
            .iter()
            .map(|l| format!("{} at {}", l.item.name, shown(l.calls[0])))
            .collect()
    };
    check(
        "callers of list.h's second",
        links(a.incoming_calls(items[0].file, &items[0].name).unwrap()),
        &["main at main.c:18:22", "other at list.c:16:12"],
    );
    // `visit` calls through `f`: main.c's copy `mark`, list.c's `unmark`.
    let items = a.call_hierarchy(at("list.h", 11, "visit")).unwrap();
    check(
        "callees of list.h's visit",
        links(a.outgoing_calls(items[0].file, &items[0].name).unwrap()),
        &["mark at list.h:11:70", "unmark at list.h:11:70"],
    );
    // References of `n` in `second`: main.c's `l`, which only main.c's copy
    // gets as `n`, is among them, and so is `n` itself in the header.
    let refs: Vec<String> = a
        .references(at("list.h", 10, "n)); }"))
        .unwrap()
        .iter()
        .map(|r| shown(r.range))
        .collect();
    for want in ["main.c:18:29", "list.h:10:70"] {
        if !refs.iter().any(|r| r == want) {
            failures.push(format!(
                "references of n in list.h's second: no {want} in {refs:?}"
            ));
        }
    }
}

/// The real programs' folders (`tests/real/smoke.sh` sets
/// `POINTEE_REAL_C_DIRS` to folders each holding just one program's files:
/// Lua, zlib, bzip2) as the language server holds them: every `.c` and
/// `.h` file in the workspace, the model read from the folder (no model
/// file: every `.c` file a unit). Each must link. Skipped, with a message,
/// when the variable is not set (the sources are not in the repository).
#[test]
fn real_program_folders_link_as_the_server_holds_them() {
    let Ok(dirs) = std::env::var("POINTEE_REAL_C_DIRS") else {
        eprintln!("POINTEE_REAL_C_DIRS not set (tests/real/smoke.sh sets it): skipped");
        return;
    };
    struct Disk;
    impl pointee_ide::FileSystem for Disk {
        fn read(&self, path: &str) -> Option<std::sync::Arc<str>> {
            std::fs::read_to_string(path).ok().map(Into::into)
        }
    }
    let mut failures = Vec::new();
    for dir in dirs.split(':').filter(|d| !d.is_empty()) {
        let root = pointee_project::paths::normalize(dir);
        let listing = listing(Path::new(dir));
        let model = pointee_ide::CModel::read(&root, &listing, &mut |p: &str| {
            std::fs::read_to_string(p).map_err(|e| e.to_string())
        })
        .unwrap_or_else(|e| panic!("{dir}: {e}"));
        let files: Vec<(String, String)> = listing
            .iter()
            .filter(|f| f.ends_with(".c") || f.ends_with(".h"))
            .map(|f| {
                let path = format!("{root}/{f}");
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                (path, text)
            })
            .collect();
        let headers = files.iter().filter(|(p, _)| p.ends_with(".h")).count();
        let mut host = pointee_ide::AnalysisHost::with_system(std::sync::Arc::new(Disk));
        let mut change = pointee_ide::Change::of_files(files, Config::default());
        change.set_c_model(Some(model));
        host.apply_change(change);
        let a = host.analysis();
        match a.program_error(pointee_ide::Lang::C).unwrap() {
            Some(e) => failures.push(format!("{dir}: {}", e.0)),
            None => eprintln!("{dir}: linked, {headers} headers in the workspace"),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
