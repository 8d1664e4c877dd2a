//! Loading the model from in-memory workspaces: which source wins, discovery, the database, the manifest, and one-line errors.

use super::*;
use std::collections::HashMap;

fn define(d: &str) -> MacroOption {
    MacroOption::define(d)
}

fn undef(n: &str) -> MacroOption {
    MacroOption::Undef(n.into())
}

fn listing(files: &[&str]) -> Vec<String> {
    files.iter().map(|s| s.to_string()).collect()
}

/// `load` over in-memory files (paths as `load` joins them).
fn load_with(root: &str, files: &[(&str, &str)]) -> Result<ProgramModel, ModelError> {
    let texts: HashMap<String, String> = files
        .iter()
        .map(|(p, t)| (paths::join(root, p), t.to_string()))
        .collect();
    let names: Vec<String> = files.iter().map(|(p, _)| p.to_string()).collect();
    load(root, &names, &mut |p: &str| {
        texts
            .get(p)
            .cloned()
            .ok_or_else(|| "no such file or directory".to_string())
    })
}

fn files(m: &ProgramModel) -> Vec<&str> {
    m.units.iter().map(|u| u.file.as_str()).collect()
}

#[test]
fn without_model_files_every_c_file_is_a_unit() {
    let m = load_with(
        "proj",
        &[
            ("b.c", ""),
            ("src/a.c", ""),
            ("include/a.h", ""),
            ("x.h", ""),
            (".git/hook.c", ""),
            ("notes.txt", ""),
        ],
    )
    .unwrap();
    assert_eq!(m.origin, Origin::Discovered);
    assert_eq!(files(&m), ["proj/b.c", "proj/src/a.c"]);
    assert_eq!(
        m.unit("proj/src/a.c").unwrap().config.include_dirs,
        ["proj/src", "proj/include", "proj"]
    );
    assert_eq!(
        m.unit("proj/b.c").unwrap().config.include_dirs,
        ["proj", "proj/include"]
    );
    assert_eq!(m.entries, None);
}

#[test]
fn a_compilation_database_names_the_units_and_their_flags() {
    let db = r#"[
      {"directory": "/w/build", "file": "../src/a.c",
       "arguments": ["cc", "-c", "-I../include", "-DFAST", "-o", "a.o", "../src/a.c"]},
      {"directory": "/w", "command": "gcc -DNAME=\"a b\" -U NDEBUG -include cfg.h -std=gnu99 -c src/b.c", "file": "src/b.c"},
      {"directory": "/w", "command": "g++ -c x.cpp", "file": "x.cpp"},
      {"directory": "/w", "command": "cc -c src/b.c", "file": "src/b.c"}
    ]"#;
    let m = load_with("/w", &[("compile_commands.json", db), ("src/a.c", "")]).unwrap();
    assert_eq!(
        m.origin,
        Origin::CompileCommands("/w/compile_commands.json".into())
    );
    assert_eq!(m.root, "/w");
    assert_eq!(files(&m), ["/w/src/a.c", "/w/src/b.c"]);
    let a = &m.units[0].config;
    assert_eq!(a.include_dirs, ["/w/include"]);
    assert_eq!(a.macros, [define("FAST")]);
    let b = &m.units[1].config;
    assert_eq!(b.macros, [define("NAME=a b"), undef("NDEBUG")]);
    assert_eq!(b.forced_includes, ["/w/cfg.h"]);
    assert_eq!(b.std, Some(Standard::Gnu99));
    assert_eq!(m.notes.len(), 2, "{:?}", m.notes);
    assert!(m.notes[0].contains("x.cpp is not a C file"));
    assert!(m.notes[1].contains("listed again"));
}

#[test]
fn a_relative_directory_starts_at_the_database() {
    let db = r#"[{"directory": ".", "file": "src/a.c", "arguments": ["cc", "-Iinc", "src/a.c"]}]"#;
    let m = load_with(
        "proj",
        &[("build/compile_commands.json", db), ("src/a.c", "")],
    )
    .unwrap();
    assert_eq!(files(&m), ["proj/build/src/a.c"]);
    assert_eq!(m.units[0].config.include_dirs, ["proj/build/inc"]);
}

#[test]
fn the_database_in_build_is_found() {
    let db = r#"[{"directory": "/w", "file": "a.c", "arguments": ["cc", "a.c"]}]"#;
    let m = load_with("/w", &[("build/compile_commands.json", db), ("a.c", "")]).unwrap();
    assert_eq!(files(&m), ["/w/a.c"]);
}

#[test]
fn a_malformed_database_is_one_line_naming_the_file() {
    for (db, want) in [
        (
            "[{\"directory\": \"/w\",\n \"file\": }]",
            "/w/compile_commands.json:2: unexpected character in JSON",
        ),
        (
            "{}",
            "/w/compile_commands.json: expected an array of compile commands",
        ),
        (
            "[{\"file\": \"a.c\", \"command\": \"cc\"}]",
            "/w/compile_commands.json: entry 1 has no `directory`",
        ),
        (
            "[{\"directory\": \"/w\", \"file\": \"a.c\"}]",
            "/w/compile_commands.json: entry 1 has neither `arguments` nor `command`",
        ),
        (
            "[{\"directory\": \"/w\", \"file\": \"a.c\", \"command\": \"cc '-DX\"}]",
            "/w/compile_commands.json: entry 1: unterminated `'` in the command",
        ),
        (
            "[{\"directory\": \"/w\", \"file\": \"a.c\", \"arguments\": [\"cc\", \"-I\"]}]",
            "/w/compile_commands.json: entry 1: `-I` has no argument",
        ),
        ("[3]", "/w/compile_commands.json: entry 1 is not an object"),
    ] {
        let e = load_with("/w", &[("compile_commands.json", db)]).unwrap_err();
        assert_eq!(e.0, want);
        assert!(!e.0.contains('\n'));
    }
}

#[test]
fn a_manifest_names_units_settings_and_entries() {
    let toml = r#"
# bzip2, the program
units = ["bzip2.c", "lib/*.c"]
exclude = ["lib/skip.c"]
include_dirs = ["inc"]
defines = ["A", "B=2"]
undefines = ["NDEBUG"]
std = "c99"
entries = ["main", "api_*"]

[[unit]]
file = "lib/x.c"
defines = ["B=3", "C"]
undefines = ["A"]

[[unit]]
file = "extra.c"
"#;
    let m = load_with(
        "p",
        &[
            ("pointee.toml", toml),
            ("bzip2.c", ""),
            ("other.c", ""),
            ("lib/x.c", ""),
            ("lib/skip.c", ""),
            ("extra.c", ""),
        ],
    )
    .unwrap();
    assert_eq!(m.origin, Origin::Manifest("p/pointee.toml".into()));
    assert_eq!(files(&m), ["p/bzip2.c", "p/lib/x.c", "p/extra.c"]);
    assert_eq!(
        m.entries,
        Some(vec!["main".to_string(), "api_*".to_string()])
    );
    let x = &m.units[1].config;
    assert_eq!(x.include_dirs, ["p/inc"]);
    // The common settings, then the unit's: undefines before defines.
    assert_eq!(
        x.macros,
        [
            undef("NDEBUG"),
            define("A"),
            define("B=2"),
            undef("A"),
            define("B=3"),
            define("C")
        ]
    );
    assert_eq!(x.std, Some(Standard::C99));
    assert_eq!(m.units[0].config.macros.len(), 3);
    // A `[[unit]]` not among the units adds it, with the common settings.
    assert_eq!(m.units[2].config.include_dirs, ["p/inc"]);
}

#[test]
fn a_manifest_may_take_its_units_from_a_database() {
    let db = r#"[{"directory": "/w", "file": "a.c", "arguments": ["cc", "-DX", "a.c"]},
                 {"directory": "/w", "file": "b.c", "arguments": ["cc", "b.c"]}]"#;
    let toml =
        "compile_commands = \"out/cc.json\"\nunits = [\"a.c\"]\ndefines = [\"Y\"]\nentries = []\n";
    let m = load_with(
        "/w",
        &[
            ("pointee.toml", toml),
            ("out/cc.json", db),
            ("a.c", ""),
            ("b.c", ""),
        ],
    )
    .unwrap();
    assert_eq!(files(&m), ["/w/a.c"]);
    assert_eq!(m.units[0].config.macros, [define("X"), define("Y")]);
    assert_eq!(m.entries, Some(vec![]));
}

#[test]
fn a_malformed_manifest_is_one_line_naming_the_file_and_line() {
    for (toml, want) in [
        ("units = [\"a.c\"]\nunit = 3\n", "p/pointee.toml:2: `unit` must be an array of tables (`[[unit]]`), not an integer"),
        ("\nsources = []\n", "p/pointee.toml:2: unknown key `sources` (known: units, exclude, compile_commands, include_dirs, defines, undefines, forced_includes, std, entries, unit)"),
        ("units = \"a.c\"\n", "p/pointee.toml:1: `units` must be an array of strings"),
        ("units = [\"nope/*.c\"]\n", "p/pointee.toml:1: `nope/*.c` matches no C file under p"),
        ("std = 99\n", "p/pointee.toml:1: `std` must be a string, not an integer"),
        ("std = \"c98\"\n", "p/pointee.toml:1: `std` is not a C standard gcc knows: `c98`"),
        ("[[unit]]\ndefines = []\n", "p/pointee.toml:1: a `[[unit]]` needs `file`"),
        ("[[unit]]\nfile = \"gone.c\"\n", "p/pointee.toml:2: p/gone.c: no such file"),
        ("[[unit]]\nfile = \"a.c\"\nentries = []\n", "p/pointee.toml:3: unknown key `entries` (known: file, include_dirs, defines, undefines, forced_includes, std)"),
        ("compile_commands = \"cc.json\"\n", "p/pointee.toml:1: p/cc.json: no such file or directory"),
        ("units = [\n\"a.c\",\n{}\n", "p/pointee.toml:3: inline tables are not supported in pointee.toml"),
    ] {
        let e = load_with("p", &[("pointee.toml", toml), ("a.c", "")]).unwrap_err();
        assert_eq!(e.0, want);
    }
}

#[test]
fn model_files_are_recognised() {
    assert!(is_model_file("pointee.toml"));
    assert!(is_model_file("compile_commands.json"));
    assert!(is_model_file("build/compile_commands.json"));
    assert!(!is_model_file("src/pointee.toml"));
    let _ = listing(&[]);
}
