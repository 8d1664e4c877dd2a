//! The disk, for what the C front end reads beyond the program's files (its
//! `#include`s): the edge's side of the database's `System`. A file that is
//! not UTF-8 is read lossily.

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
