//! Preprocesses every `.c` file of a folder (with the folder and the given
//! system directories as include directories) and prints the totals and
//! the time: `cargo run --release -p pointee-cpp --example pp -- DIR [SYSDIR...]`.
//! With `PRINT=1` it prints each expanded text instead.

use pointee_cpp::{Config, FileSystem, Session};
use std::sync::Arc;

/// The disk, each file read once.
#[derive(Default)]
struct Disk(std::sync::Mutex<std::collections::HashMap<String, Option<Arc<str>>>>);

impl FileSystem for Disk {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        let mut files = self.0.lock().expect("not poisoned");
        files
            .entry(path.to_string())
            .or_insert_with(|| {
                let bytes = std::fs::read(path).ok()?;
                Some(String::from_utf8_lossy(&bytes).into())
            })
            .clone()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = &args[0];
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c"))
        .collect();
    files.sort();
    let config = Config {
        include_dirs: vec![dir.clone()],
        system_dirs: args[1..].to_vec(),
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let mut session = Session::default();
    let disk = Disk::default();
    let (mut bytes, mut diagnostics) = (0, 0);
    for f in &files {
        let out = session.preprocess(&config, &disk, f.to_str().expect("a UTF-8 path"));
        bytes += out.text.len();
        diagnostics += out.diagnostics.len();
        if std::env::var("PRINT").is_ok() {
            println!("{}", out.text);
            for d in &out.diagnostics {
                eprintln!(
                    "{}: {:?} {}",
                    out.files[d.file as usize].path, d.severity, d.message
                );
            }
        }
    }
    eprintln!(
        "{} files, {} bytes expanded, {} diagnostics, {:?}",
        files.len(),
        bytes,
        diagnostics,
        start.elapsed()
    );
}
