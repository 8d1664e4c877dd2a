//! The single-definite hover expectations of the flow fixtures against real
//! runs (issue 14). A `// HOVER p = {x D}` says that after the statement on
//! its line `p` points to `x` on every path; where the fixture has a `main`,
//! the line gets a check `p == &x` after its statement, the fixture is
//! compiled by gcc (with `alias_runtime.h`) and run, and every check the run
//! reaches must hold. Only expectations whose target is a plain name and
//! whose expression is a name (or `*name`) on a line that is one statement
//! are checked; a check gcc rejects (the name is another function's local)
//! is left out and counted. Needs gcc; without it the test is skipped,
//! unless `CI` is set.

use pointee_fuzz::call_runs::have;
use std::path::Path;
use std::process::Command;

const PRELUDE: &str = "#include <stdio.h>\n\
static void pointee_definite_at(const void *p, const void *q, int line) {\n\
    fprintf(stderr, p == q ? \"held %d\\n\" : \"FAILED %d\\n\", line);\n\
}\n";

fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

/// The (expression, target) of each single-definite expectation on a line.
fn definite(comment: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for part in comment.split("HOVER ").skip(1) {
        let Some((expr, set)) = part.split_once(" = {") else {
            continue;
        };
        let Some(set) = set.split_once('}').map(|s| s.0) else {
            continue;
        };
        let Some(target) = set.strip_suffix(" D") else {
            continue;
        };
        let expr = expr.trim();
        let simple = is_name(expr) || expr.strip_prefix('*').is_some_and(is_name);
        if simple && is_name(target) {
            out.push((expr.to_string(), target.to_string()));
        }
    }
    out
}

/// The fixture with a check after the statement of each line in `lines`
/// (1-based line, expression, target).
fn instrumented(text: &str, checks: &[(usize, String, String)]) -> String {
    let mut out = String::from(PRELUDE);
    out.push_str("#line 1\n");
    for (i, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        out.push_str(code);
        for (l, expr, target) in checks.iter().filter(|c| c.0 == i + 1) {
            out.push_str(&format!(
                " pointee_definite_at((const void *)({expr}), (const void *)&{target}, {l});"
            ));
        }
        if code.len() < line.len() {
            out.push_str(&line[code.len()..]);
        }
        out.push('\n');
    }
    out
}

/// Whether a line's code is one statement a check may follow.
fn one_statement(code: &str) -> bool {
    let c = code.trim();
    let control = [
        "return", "if", "for", "while", "do", "switch", "case", "default", "goto", "break",
        "continue", "}", "{", "#",
    ];
    c.ends_with(';') && c.matches(';').count() == 1 && !control.iter().any(|k| c.starts_with(k))
}

fn gcc(dir: &Path, src: &Path, exe: &Path) -> bool {
    Command::new("gcc")
        .args(["-std=gnu99", "-w", "-O0", "-I"])
        .arg(dir)
        .arg(src)
        .arg("-o")
        .arg(exe)
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn single_definite_hovers_hold_on_real_runs() {
    if !have("gcc") {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs gcc for this test"
        );
        eprintln!("gcc not found: skipped");
        return;
    }
    let dir = pointee_fuzz::repo_root().join("fixtures/c/flow");
    let out = std::env::temp_dir().join(format!("pointee-hover-runs-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    paths.sort();
    let (mut fixtures, mut inserted, mut rejected, mut reached) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        if text.contains("NO-GCC") || !text.contains("main(") {
            continue;
        }
        let mut checks = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let Some((code, comment)) = line.split_once("//") else {
                continue;
            };
            if one_statement(code) {
                for (expr, target) in definite(comment) {
                    checks.push((i + 1, expr, target));
                }
            }
        }
        if checks.is_empty() {
            continue;
        }
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let src = out.join(format!("{name}.c"));
        let exe = out.join(&name);
        // Checks gcc rejects (a name not in scope there) are left out one
        // by one.
        std::fs::write(&src, instrumented(&text, &checks)).unwrap();
        let all_compile = gcc(&dir, &src, &exe);
        let mut kept = Vec::new();
        for c in checks.iter().filter(|_| !all_compile) {
            kept.push(c.clone());
            std::fs::write(&src, instrumented(&text, &kept)).unwrap();
            if !gcc(&dir, &src, &exe) {
                kept.pop();
                rejected += 1;
            }
        }
        if all_compile {
            kept = checks;
        }
        if kept.is_empty() {
            continue;
        }
        std::fs::write(&src, instrumented(&text, &kept)).unwrap();
        assert!(gcc(&dir, &src, &exe), "{name}: gcc");
        fixtures += 1;
        inserted += kept.len();
        let run = Command::new(&exe).output().unwrap();
        let log = String::from_utf8_lossy(&run.stderr);
        let mut lines_reached = std::collections::BTreeSet::new();
        for l in log.lines() {
            if let Some(n) = l.strip_prefix("held ") {
                lines_reached.insert(n.to_string());
            } else if let Some(n) = l.strip_prefix("FAILED ") {
                lines_reached.insert(n.to_string());
                let n: usize = n.parse().unwrap();
                let c = kept.iter().find(|c| c.0 == n).unwrap();
                failures.push(format!(
                    "{name}.c:{n}: HOVER {} = {{{} D}}, but the run saw another object",
                    c.1, c.2
                ));
            }
        }
        reached += lines_reached.len();
    }
    let _ = std::fs::remove_dir_all(&out);
    failures.sort();
    failures.dedup();
    eprintln!(
        "{fixtures} fixtures, {inserted} single-definite hovers checked ({rejected} not in scope as C, left out), \
         {reached} lines reached by the runs, {} failed",
        failures.len()
    );
    assert!(
        fixtures >= 20 && reached >= 30,
        "too little checked: {fixtures} fixtures, {reached} lines reached"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
