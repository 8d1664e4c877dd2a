//! The IDE fixtures under `fixtures/ide/` (C and Java): every feature's
//! answers written inside them (`expect/mod.rs`: DEF, DECL, IMPL, CALLEES,
//! CALLERS, HIGHLIGHT, HINT, HOVER, REFS) and their alias checks, checked against
//! pointee-ide in process. Each fixture also compiles (gcc, javac) and runs,
//! its alias checks as run-time assertions.
//!
//! `POINTEE_UPDATE=1 cargo test -p pointee-ide --test ide_fixtures`
//! rewrites the expectations with today's answers (review the diff).

mod expect;

use pointee_ide::{Config, Lang};
use std::path::{Path, PathBuf};

fn fixtures(lang: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/ide")
        .join(lang);
    let mut v: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "c" || e == "java"))
        .collect();
    v.sort();
    v
}

#[test]
fn ide_fixtures() {
    let update = std::env::var("POINTEE_UPDATE").is_ok();
    let mut failures = Vec::new();
    let (mut expectations, mut checks) = (0, 0);
    for (dir, lang) in [("c", Lang::C), ("java", Lang::Java)] {
        for path in fixtures(dir) {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            let text = std::fs::read_to_string(&path).unwrap();
            let a = expect::analyse(&[(name.clone(), text)], Config::default());
            let (n, new_text) = expect::check_expectations(&a, &name, update, &mut failures);
            expectations += n;
            checks += expect::check_alias_checks_of(&a, lang, &name, &mut failures);
            if let Some(s) = new_text {
                std::fs::write(&path, s).unwrap();
            }
        }
    }
    eprintln!("{expectations} expectations, {checks} alias checks");
    assert!(expectations > 0 && checks > 0);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn available(tool: &str) -> bool {
    std::process::Command::new(tool)
        .arg("--version")
        .output()
        .is_ok()
}

#[test]
fn ide_fixtures_compile_and_run() {
    let out = std::env::temp_dir().join(format!("pointee-ide-fixtures-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let runtime = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/c/flow");
    let mut failures = Vec::new();
    let mut run = |what: &Path, cmd: &mut std::process::Command| match cmd.output() {
        Ok(o) if o.status.success() => true,
        Ok(o) => {
            failures.push(format!(
                "{}: {:?}: {}{}",
                what.display(),
                o.status.code(),
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            ));
            false
        }
        Err(e) => {
            failures.push(format!("{}: {e}", what.display()));
            false
        }
    };
    if available("gcc") {
        for path in fixtures("c") {
            let exe = out.join(path.file_stem().unwrap());
            let built = run(
                &path,
                std::process::Command::new("gcc")
                    .args(["-std=gnu99", "-w", "-O0", "-I"])
                    .arg(&runtime)
                    .arg(&path)
                    .arg("-o")
                    .arg(&exe),
            );
            if built {
                run(&path, &mut std::process::Command::new(&exe));
            }
        }
    } else {
        // In CI a missing tool is a failure (.ci/run installs it).
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs gcc for this test"
        );
        eprintln!("gcc not found: C fixtures not run");
    }
    if available("javac") {
        for path in fixtures("java") {
            let classes = out.join(path.file_stem().unwrap());
            std::fs::create_dir_all(&classes).unwrap();
            let built = run(
                &path,
                std::process::Command::new("javac")
                    .arg("-d")
                    .arg(&classes)
                    .arg(&path),
            );
            if built {
                run(
                    &path,
                    std::process::Command::new("java")
                        .arg("-ea")
                        .arg("-cp")
                        .arg(&classes)
                        .arg(path.file_stem().unwrap()),
                );
            }
        }
    } else {
        // In CI a missing tool is a failure (.ci/run installs it).
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs javac for this test"
        );
        eprintln!("javac not found: Java fixtures not run");
    }
    let _ = std::fs::remove_dir_all(&out);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Without the header that declares its types, an integer of unknown type
/// (`l_uint32`) may hold a pointer as far as the front end knows: it gets
/// no hint; a pointer to an unknown record does, and so do reads not.
#[test]
fn inlay_hints_only_on_pointer_assignments_also_without_headers() {
    let text = "\
#include \"missing.h\"
l_uint32 count;
int g;
void use(int *p);
int main(void) {
    l_uint32 n = count;
    lua_State *L = 0;
    int *p = &g;
    use(p);
    n = n + 1;
    return 0;
}
";
    let a = expect::analyse(&[("unknown.c".into(), text.into())], Config::default());
    let file = a.file_id("unknown.c").unwrap();
    let whole = pointee_ide::FileRange {
        file,
        range: pointee_ide::Range {
            start: 0,
            end: text.len() as u32,
        },
    };
    let lines = a.line_index(file).unwrap();
    let hints: Vec<(usize, String)> = a
        .inlay_hints(whole)
        .unwrap()
        .into_iter()
        .map(|h| (lines.line_of(h.offset) + 1, h.label))
        .collect();
    assert_eq!(
        hints,
        [(7, "→ {NULL}".to_string()), (8, "→ {g}".to_string())]
    );
}
