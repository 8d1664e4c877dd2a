//! `pointee check` through the program model: a directory (its
//! `pointee.toml`, its `compile_commands.json`, or every `.c` file under
//! it), `--compile-commands FILE` and `--project FILE`; malformed model
//! files are one error line with exit code 2. Runs the real binary.

mod common;
use common::pointee;

use std::path::{Path, PathBuf};
use std::process::Output;

/// A fresh folder holding `files` (path, text).
fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pointee-model-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}

fn dir_arg(d: &Path) -> &str {
    d.to_str().unwrap()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_bad_input(out: &Output, mentions: &str) {
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "stderr: {err}");
    assert_eq!(err.lines().count(), 1, "one line expected, got: {err}");
    assert!(
        err.starts_with("pointee: ") && err.contains(mentions),
        "stderr: {err}"
    );
}

const MAIN: &str = "#include \"alias_runtime.h\"\nint *use_a(void);\nint *use_b(void);\n\
    int main(void) { int *a = use_a(); int *b = use_b(); NOALIAS(a, b); return 0; }\n";
const A: &str =
    "#include <stdio.h>\nstatic int n;\nint *use_a(void) { fprintf(stderr, \"a\"); return &n; }\n";
const B: &str =
    "#include <stdio.h>\nstatic int n;\nint *use_b(void) { fprintf(stderr, \"b\"); return &n; }\n";

#[test]
fn a_folder_without_model_files_is_every_c_file_linked() {
    let d = folder(
        "discover",
        &[
            ("main.c", MAIN),
            ("lib/a.c", A),
            ("lib/b.c", B),
            (".hidden/other.c", "int main(void) { return 1; }"),
        ],
    );
    let out = pointee(&["check", dir_arg(&d)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = stdout(&out);
    assert!(text.contains("NOALIAS -> no (ok)"), "{text}");
    assert!(text.contains("1 alias checks, 0 not ok"), "{text}");
}

#[test]
fn a_folder_with_several_programs_asks_for_a_model() {
    let d = folder(
        "two-mains",
        &[
            ("one.c", "int main(void) { return 0; }"),
            ("two.c", "int main(void) { return 1; }"),
        ],
    );
    assert_bad_input(&pointee(&["check", dir_arg(&d)]), "needs a pointee.toml");
    // The manifest names one program.
    std::fs::write(d.join("pointee.toml"), "units = [\"one.c\"]\n").unwrap();
    let out = pointee(&["check", dir_arg(&d)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn tentative_definitions_in_two_units_are_one_object_with_a_warning() {
    let d = folder(
        "tentative",
        &[
            (
                "a.c",
                "int *shared;\nint x;\nvoid set(void) { shared = &x; }\n",
            ),
            (
                "b.c",
                "#include \"alias_runtime.h\"\nint *shared;\nint x;\nvoid set(void);\n\
                int main(void) { set(); MUSTALIAS(shared, &x); return 0; }\n",
            ),
        ],
    );
    let out = pointee(&["check", dir_arg(&d)]);
    let text = stdout(&out);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("MUSTALIAS -> must (ok)"), "{text}");
    assert!(
        text.contains("a.c:1:6: warning[link]: `shared` is defined in 2 units"),
        "{text}"
    );
}

#[test]
fn a_compilation_database_names_the_program() {
    let db = r#"[
  {"directory": "..", "file": "main.c", "arguments": ["cc", "-c", "main.c"]},
  {"directory": "..", "file": "lib/a.c", "command": "cc -DFAST -c lib/a.c"},
  {"directory": "..", "file": "lib/b.c", "command": "cc -c 'lib/b.c'"},
  {"directory": "..", "file": "tool.cpp", "command": "c++ -c tool.cpp"}
]"#;
    let d = folder(
        "compdb",
        &[
            ("main.c", MAIN),
            ("lib/a.c", A),
            ("lib/b.c", B),
            ("other.c", "int main(void) { return 1; }"),
            ("build/compile_commands.json", db),
        ],
    );
    let file = d.join("build/compile_commands.json");
    let out = pointee(&["check", "--compile-commands", file.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(stdout(&out).contains("NOALIAS -> no (ok)"));
    assert!(err.contains("tool.cpp is not a C file; skipped"), "{err}");
    // The folder finds its database in build/ too.
    let out = pointee(&["check", dir_arg(&d)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_bad_input(
        &pointee(&[
            "check",
            "--compile-commands",
            file.to_str().unwrap(),
            dir_arg(&d),
        ]),
        "give no PATH",
    );
}

#[test]
fn a_manifest_given_by_path_describes_a_folder() {
    let d = folder(
        "project",
        &[
            ("src/main.c", MAIN),
            ("src/a.c", A),
            ("src/b.c", B),
            ("src/demo.c", "int main(void) { return 1; }"),
        ],
    );
    let toml = folder(
        "project-toml",
        &[("p.toml", "exclude = [\"src/demo.c\"]\n")],
    )
    .join("p.toml");
    let out = pointee(&["check", "--project", toml.to_str().unwrap(), dir_arg(&d)]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout(&out).contains("NOALIAS -> no (ok)"));
}

#[test]
fn malformed_model_files_are_one_line_and_exit_code_2() {
    let d = folder(
        "bad-toml",
        &[
            ("a.c", A),
            ("pointee.toml", "units = [\"a.c\"]\nsources = 1\n"),
        ],
    );
    assert_bad_input(
        &pointee(&["check", dir_arg(&d)]),
        "pointee.toml:2: unknown key `sources`",
    );
    let d = folder(
        "bad-db",
        &[
            ("a.c", A),
            ("compile_commands.json", "[{\"file\": \"a.c\"]"),
        ],
    );
    assert_bad_input(
        &pointee(&["check", dir_arg(&d)]),
        "compile_commands.json:1: ",
    );
    let d = folder(
        "no-units",
        &[("a.c", A), ("pointee.toml", "units = [\"b/*.c\"]\n")],
    );
    assert_bad_input(&pointee(&["check", dir_arg(&d)]), "matches no C file");
    assert_bad_input(
        &pointee(&[
            "check",
            "--compile-commands",
            "no/such/compile_commands.json",
        ]),
        "no such file",
    );
}

#[test]
fn a_library_without_main_has_its_entries() {
    let d = folder(
        "library",
        &[
            (
                "api.c",
                "#include \"alias_runtime.h\"\nint shared;\nint *give(void) { return &shared; }\n\
                int same(int *p) { MAYALIAS(p, &shared); return p == &shared; }\n",
            ),
            ("pointee.toml", "entries = [\"same\"]\n"),
        ],
    );
    let out = pointee(&["check", dir_arg(&d)]);
    assert_eq!(out.status.code(), Some(0), "{}", stdout(&out));
    assert!(
        stdout(&out).contains("MAYALIAS -> may (ok)"),
        "{}",
        stdout(&out)
    );
}
