//! Every C fixture under `fixtures/c/lower/` ends with an `/* IR ... */`
//! block: the exact output of `pointee dump --verbose --no-facts` for that file. This
//! test runs the real binary on each fixture and compares. Refresh the
//! blocks with `UPDATE_EXPECT=1 cargo test -p pointee-cli --test lower_fixtures`
//! (then read the diff: the expectation must be right, not just current).

use std::path::{Path, PathBuf};
use std::process::Command;

const MARKER: &str = "/* IR\n";

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

fn fixtures() -> Vec<PathBuf> {
    let dir = workspace_root().join("fixtures/c/lower");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("fixtures/c/lower exists")
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    files
}

fn dump(relative: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_pointee"))
        .current_dir(workspace_root())
        .args(["dump", "--verbose", "--no-facts", relative])
        .output()
        .expect("pointee runs");
    assert!(
        out.status.success(),
        "pointee dump {relative} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

#[test]
fn every_fixture_lowers_to_its_expected_ir() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some();
    let root = workspace_root();
    let mut failures = Vec::new();
    let files = fixtures();
    assert!(
        files.len() >= 30,
        "expected at least 30 lowering fixtures, found {}",
        files.len()
    );
    for path in files {
        let relative = path
            .strip_prefix(&root)
            .expect("under the root")
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let (code, expected) = match text.find(MARKER) {
            Some(i) => (
                &text[..i],
                Some(
                    text[i + MARKER.len()..]
                        .trim_end()
                        .trim_end_matches("*/")
                        .trim_end(),
                ),
            ),
            None => (text.as_str(), None),
        };
        let actual = dump(&relative);
        let actual = actual.trim_end();
        if expected == Some(actual) {
            continue;
        }
        if update {
            let new = format!(
                "{}{MARKER}{actual}\n*/\n",
                code.trim_end().to_string() + "\n\n"
            );
            std::fs::write(&path, new).expect("writable fixture");
        } else {
            failures.push(format!(
                "--- {relative}: expected\n{}\n--- actual\n{actual}\n",
                expected.unwrap_or("(no /* IR block)")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} fixture(s) differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// The fixtures are real C: gcc accepts each (unless it says `// NOGCC`
/// for a deliberately broken program), with the options of its
/// `GCCFLAGS:` line if it has one.
#[test]
fn fixtures_are_c_that_gcc_accepts() {
    if Command::new("gcc").arg("--version").output().is_err() {
        // Outside CI a missing tool skips; in CI it is a failure (.ci/run
        // installs it), never a silent pass.
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs gcc for this test"
        );
        eprintln!("gcc not installed; skipping");
        return;
    }
    for path in fixtures() {
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        if text.contains("// NOGCC") {
            continue;
        }
        let flags: Vec<&str> = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("GCCFLAGS:"))
            .map(|f| f.trim_end_matches("*/").split_whitespace().collect())
            .unwrap_or_default();
        let out = Command::new("gcc")
            .args(["-fsyntax-only", "-w", "-std=gnu99"])
            .args(&flags)
            .args(["-x", "c"])
            .arg(&path)
            .output()
            .expect("gcc runs");
        assert!(
            out.status.success(),
            "gcc rejects {}:\n{}",
            path.display(),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
