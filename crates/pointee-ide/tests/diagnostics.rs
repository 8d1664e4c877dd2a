//! The checkers on `fixtures/c/diagnostics/`: every finding (code, line,
//! severity) is marked in the fixture with `// DIAG: code severity`, and
//! every mark is found, exactly. Each fixture also compiles with gcc; a
//! `// RUN: clean` one runs clean under AddressSanitizer, a `// RUN: faults`
//! one must really fault, a `// RUN: valgrind` one (a read through an
//! uninitialised pointer, which AddressSanitizer does not see) must trip
//! valgrind's memcheck (see the folder's README.md).

mod expect;
mod marks;

use marks::marks;
use pointee_ide::{Config, Lang, Severity, RULES};
use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/diagnostics")
}

fn fixtures() -> Vec<PathBuf> {
    marks::fixtures("c/diagnostics", "c")
}

fn is_checker(code: &str) -> bool {
    RULES.iter().any(|(c, _)| *c == code)
}

#[test]
fn checker_fixtures_report_exactly_what_they_mark() {
    let mut failures = Vec::new();
    let mut total = 0;
    for path in fixtures() {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let config = Config {
            c_assume_alloc_succeeds: text.contains("// ASSUME-ALLOC-SUCCEEDS"),
            ..Config::default()
        };
        let a = expect::analyse(&[(name.clone(), text.clone())], config);
        let report = a.check(Lang::C).unwrap();
        let got = marks::found(&a, &report, &name, &is_checker);
        let want = marks(&text);
        total += want.len();
        failures.extend(marks::differences(&name, &want, &got));
    }
    assert!(total > 20, "only {total} marks");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn findings_carry_a_message_naming_the_pointer_and_a_witness() {
    let text = std::fs::read_to_string(dir().join("null_direct.c")).unwrap();
    let a = expect::analyse(&[("null_direct.c".into(), text)], Config::default());
    let report = a.check(Lang::C).unwrap();
    let file = a.file_id("null_direct.c").unwrap();
    let src = a.file_text(file);
    let at = |d: &pointee_ide::Diagnostic| {
        &src[d.range.range.start as usize..d.range.range.end as usize]
    };
    let p = report
        .diagnostics
        .iter()
        .find(|d| at(d) == "p" && d.severity == Severity::Error)
        .expect("the NULL dereference of p");
    assert_eq!(
        p.message,
        "`p` is NULL where it is dereferenced: it points to {NULL}"
    );
    assert_eq!(p.related.len(), 1);
    assert_eq!(p.related[0].message, "`p` is set to NULL here");
    // In a callee: the calling context where it happens.
    let n = report
        .diagnostics
        .iter()
        .find(|d| at(d) == "n")
        .expect("the possible NULL dereference in get");
    assert!(
        n.message.ends_with("(in 1 of 2 calling contexts)"),
        "{}",
        n.message
    );
    assert_eq!(n.related.len(), 1);
    assert_eq!(
        n.related[0].message,
        "in the calling context main > get@32:14"
    );
}

#[test]
fn a_possibly_null_result_names_the_call_that_may_return_null() {
    // The front end puts a call's result in a temporary and copies it into
    // the variable: the witness follows the copy to the call. getcwd and
    // realpath return NULL on failure (their effect also allocates).
    let notes = |name: &str| {
        let text = std::fs::read_to_string(dir().join(name)).unwrap();
        let a = expect::analyse(&[(name.into(), text.clone())], Config::default());
        let report = a.check(Lang::C).unwrap();
        let file = a.file_id(name).unwrap();
        report
            .diagnostics
            .iter()
            .filter(|d| d.range.file == file && d.code == "null-deref")
            .map(|d| {
                let line = text[..d.range.range.start as usize].matches('\n').count() + 1;
                let notes: Vec<String> = d.related.iter().map(|r| r.message.clone()).collect();
                (line, notes)
            })
            .collect::<Vec<_>>()
    };
    let one = |s: &str| vec![s.to_string()];
    assert_eq!(
        notes("null_alloc.c"),
        vec![
            (9, one("`malloc` may return NULL here")),
            (11, one("`realloc` may return NULL here")),
            (13, one("`fopen` may return NULL here")),
            (14, one("`fopen` may return NULL here")),
        ]
    );
    assert_eq!(
        notes("null_library.c"),
        vec![
            (17, one("`calloc` may return NULL here")),
            (21, one("`getcwd` may return NULL here")),
            (24, one("`realpath` may return NULL here")),
        ]
    );
}

fn have(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok()
}

#[test]
fn checker_fixtures_compile_and_run_as_they_say() {
    assert!(have("gcc"), "gcc is needed (.ci/run installs it)");
    let out_dir = std::env::temp_dir().join(format!("pointee-diag-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let mut failures = Vec::new();
    for path in fixtures() {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        let mode = marks::run_mode(&name, &text, "clean|faults|compile");
        let exe = out_dir.join(&name);
        let mut gcc = Command::new("gcc");
        gcc.args(["-std=gnu11", "-g"]);
        if mode == "valgrind" {
            // Memcheck and AddressSanitizer do not run together.
            gcc.arg("-O0");
        } else {
            gcc.args(["-fsanitize=address", "-fno-omit-frame-pointer"]);
        }
        if mode == "compile" {
            gcc.arg("-c"); // no `main` needed
        }
        let built = gcc.arg("-o").arg(&exe).arg(&path).output().unwrap();
        if !built.status.success() {
            failures.push(format!(
                "{name}: gcc failed: {}",
                String::from_utf8_lossy(&built.stderr)
            ));
            continue;
        }
        if mode == "compile" {
            continue;
        }
        if mode == "valgrind" {
            assert!(have("valgrind"), "valgrind is needed (.ci/run installs it)");
            let run = Command::new("valgrind")
                .args(["-q", "--error-exitcode=99"])
                .arg(&exe)
                .output()
                .unwrap();
            let report = String::from_utf8_lossy(&run.stderr);
            if !report.contains("uninitialised") {
                failures.push(format!(
                    "{name}: valgrind should report an uninitialised read: {report}"
                ));
            }
            continue;
        }
        let run = Command::new(&exe)
            .env(
                "ASAN_OPTIONS",
                "detect_stack_use_after_return=1:detect_leaks=0",
            )
            .output()
            .unwrap();
        let clean = run.status.success();
        match mode.as_str() {
            "clean" if !clean => failures.push(format!(
                "{name}: should run clean: {}",
                String::from_utf8_lossy(&run.stderr)
            )),
            "faults" if clean => failures.push(format!("{name}: should fault but ran clean")),
            "clean" | "faults" => {}
            other => failures.push(format!("{name}: unknown RUN mode `{other}`")),
        }
    }
    let _ = std::fs::remove_dir_all(&out_dir);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
