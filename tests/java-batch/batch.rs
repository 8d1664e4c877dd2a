//! Runs many small Java programs in one JVM (`BatchRun.java` beside this
//! file), for the tests that compile and run fixtures: a JVM and a javac
//! per program cost minutes of CI on a loaded machine. Each program still
//! gets its own exit status, stdout and stderr, as `java FILE.java` or
//! `javac -d DIR ...; java -cp DIR MAIN` would give them. Included by the
//! tests that use it with `#[path]` (it is test code, no crate's API).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// One program: its sources, compiled together, and how to run it.
#[derive(Clone, Debug, Default)]
pub struct Job {
    pub sources: Vec<PathBuf>,
    /// The class whose `main` runs; `None`: the first class of the first
    /// source, as `java FILE.java` runs.
    pub main: Option<String>,
    /// System properties (`-DKEY=VALUE`).
    pub props: Vec<(String, String)>,
}

impl Job {
    /// `java FILE.java`.
    pub fn source_file(path: &Path) -> Job {
        Job {
            sources: vec![path.to_path_buf()],
            ..Job::default()
        }
    }
}

/// What one program did.
#[derive(Clone, Debug)]
pub struct Ran {
    /// 0 when `main` returned, 1 on an uncaught exception or a compile
    /// error, else the status it gave `System.exit`.
    pub status: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Ran {
    pub fn success(&self) -> bool {
        self.status == 0
    }
}

/// True when `javac` and `java` run.
pub fn have_jdk() -> bool {
    ["javac", "java"].iter().all(|tool| {
        Command::new(tool)
            .arg("-version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// True when a JDK is here; without one, skips with a notice outside CI
/// and fails in CI (`.ci/run` installs it), never a silent pass.
pub fn jdk_or_skip() -> bool {
    if have_jdk() {
        return true;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI needs javac and java for this test"
    );
    eprintln!("skipped: no JDK (javac, java) installed");
    false
}

fn runner() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/java-batch/BatchRun.java")
}

/// Runs every job, in order, in as few JVMs as they allow (a job that
/// calls `System.exit` ends its JVM; the next job starts a new one).
/// Panics when the runner itself fails.
pub fn run_all(jobs: &[Job]) -> Vec<Ran> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "pointee-java-batch-{}-{}",
        std::process::id(),
        NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut spec = String::new();
    for job in jobs {
        spec.push_str("job\n");
        if let Some(main) = &job.main {
            spec.push_str(&format!("main {main}\n"));
        }
        for (k, v) in &job.props {
            spec.push_str(&format!("prop {k}={v}\n"));
        }
        for s in &job.sources {
            let s = std::fs::canonicalize(s).unwrap_or_else(|_| s.clone());
            spec.push_str(&format!("source {}\n", s.display()));
        }
    }
    let spec_file = dir.join("jobs");
    std::fs::write(&spec_file, spec).unwrap();
    let read = |n: usize, ext: &str| std::fs::read_to_string(dir.join(format!("{n}.{ext}")));
    let mut out = Vec::with_capacity(jobs.len());
    while out.len() < jobs.len() {
        let first = out.len();
        let jvm = Command::new("java")
            .arg(runner())
            .arg(&spec_file)
            .arg(&dir)
            .arg(first.to_string())
            .output()
            .expect("java runs");
        let mut n = first;
        while let Ok(status) = read(n, "status") {
            out.push(Ran {
                status: status.trim().parse().expect("a status"),
                stdout: read(n, "out").unwrap_or_default(),
                stderr: read(n, "err").unwrap_or_default(),
            });
            n += 1;
        }
        if n == jobs.len() {
            break;
        }
        // Job n started and ended the JVM: its System.exit status.
        assert!(
            dir.join(format!("{n}.started")).exists() && n < jobs.len(),
            "the Java batch runner failed ({}):\n{}",
            jvm.status,
            String::from_utf8_lossy(&jvm.stderr)
        );
        out.push(Ran {
            status: jvm.status.code().unwrap_or(-1),
            stdout: read(n, "out").unwrap_or_default(),
            stderr: read(n, "err").unwrap_or_default(),
        });
    }
    let _ = std::fs::remove_dir_all(&dir);
    out
}
