//! Every fixture is real Java: it compiles with javac and runs with java
//! (17 or later) without an exception, so its MUSTALIAS and NOALIAS checks
//! hold at run time. Skipped, with a notice, when no JDK is installed
//! (a failure in CI).
//! All fixtures run in one JVM (`tests/java-batch`), each compiled and run
//! on its own, and each failure is reported with its fixture.

mod common;

#[path = "../../../tests/java-batch/batch.rs"]
mod batch;

use batch::Job;

/// A fixture's program: a file runs as `java FILE.java`; a directory's
/// files compile together and the class with `main` runs.
fn job(path: &std::path::Path) -> Job {
    if !path.is_dir() {
        return Job::source_file(path);
    }
    let files = common::load(path);
    let main = files
        .iter()
        .find(|(_, t)| t.contains("static void main("))
        .map(|(n, _)| {
            std::path::Path::new(n)
                .file_stem()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .unwrap_or_else(|| panic!("{}: no main", path.display()));
    Job {
        sources: files
            .iter()
            .map(|(n, _)| common::fixtures_dir().join(n))
            .collect(),
        main: Some(main),
        ..Job::default()
    }
}

#[test]
fn every_fixture_compiles_and_runs() {
    if !batch::jdk_or_skip() {
        return;
    }
    let all = common::fixtures();
    assert!(all.len() >= 60, "only {} fixtures", all.len());
    let jobs: Vec<Job> = all.iter().map(|p| job(p)).collect();
    let fails: Vec<String> = all
        .iter()
        .zip(batch::run_all(&jobs))
        .filter(|(_, ran)| !ran.success())
        .map(|(p, ran)| format!("{}: {}{}", p.display(), ran.stdout, ran.stderr))
        .collect();
    assert!(fails.is_empty(), "{}", fails.join("\n"));
}

/// The batch runner keeps programs apart: each has its own status, output,
/// statics and properties; one that exits or fails to compile does not
/// hide the next one's outcome.
#[test]
fn the_batch_runner_reports_each_programs_own_outcome() {
    if !batch::jdk_or_skip() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("pointee-batch-self-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        std::fs::write(&p, text).unwrap();
        p
    };
    // Two programs with one class name and a static counter each.
    let counter = "class Main { static int n; public static void main(String[] a) { n++; System.out.println(\"n=\" + n + \" p=\" + System.getProperty(\"k\")); } }";
    let a = write("A.java", counter);
    let b = write("B.java", counter);
    let npe = write(
        "Npe.java",
        "class Npe {\n  public static void main(String[] a) {\n    String s = a.length > 5 ? \"\" : null;\n    s.length();\n  }\n}\n",
    );
    let exit = write("Exit.java", "class Exit { public static void main(String[] a) { System.out.print(\"bye\"); System.exit(3); } }");
    let broken = write("Broken.java", "class Broken { void f( }");
    let first = write("First.java", "class First { public static void main(String[] a) { System.out.println(\"first\"); } }\nclass Second { public static void main(String[] a) { System.out.println(\"second\"); } }");
    let jobs = vec![
        Job::source_file(&a),
        Job {
            props: vec![("k".into(), "v".into())],
            ..Job::source_file(&b)
        },
        Job::source_file(&npe),
        Job::source_file(&exit),
        Job::source_file(&broken),
        Job {
            main: Some("Second".into()),
            ..Job::source_file(&first)
        },
        Job::source_file(&first),
        Job::source_file(&a),
    ];
    let ran = batch::run_all(&jobs);
    let _ = std::fs::remove_dir_all(&dir);
    let got: Vec<(i32, &str)> = ran.iter().map(|r| (r.status, r.stdout.as_str())).collect();
    assert_eq!(
        got,
        [
            (0, "n=1 p=null\n"),
            (0, "n=1 p=v\n"),
            (1, ""),
            (3, "bye"),
            (1, ""),
            (0, "second\n"),
            (0, "first\n"),
            (0, "n=1 p=null\n"),
        ]
    );
    assert!(
        ran[2]
            .stderr
            .starts_with("Exception in thread \"main\" java.lang.NullPointerException")
            && ran[2].stderr.contains("\tat Npe.main(Npe.java:4)"),
        "{}",
        ran[2].stderr
    );
    assert!(
        ran[4].stderr.contains("error: compilation failed"),
        "{}",
        ran[4].stderr
    );
}
