//! The C library model's headers: what `#include <stdio.h>` and the other
//! headers of the C library and of POSIX read (`libc/` in this crate,
//! embedded in the binary). They declare the library's types, functions,
//! constants, macros and globals (`stdin`, `errno`, `optarg`, ...: `extern`,
//! never defined by a unit); what the functions do to pointers is
//! pointee-flow's table of library effects. A header not here is reported
//! once, and its names are unknown.

use std::sync::Arc;

/// The folder the bundled headers seem to be in: searched after every
/// directory the configuration names. Not a path on any disk.
pub const DIR: &str = "<libc>";

/// The headers, by name under [`DIR`].
pub const HEADERS: &[(&str, &str)] = &[
    ("alloca.h", include_str!("../libc/alloca.h")),
    ("assert.h", include_str!("../libc/assert.h")),
    ("ctype.h", include_str!("../libc/ctype.h")),
    ("dirent.h", include_str!("../libc/dirent.h")),
    ("dlfcn.h", include_str!("../libc/dlfcn.h")),
    ("errno.h", include_str!("../libc/errno.h")),
    ("fcntl.h", include_str!("../libc/fcntl.h")),
    ("float.h", include_str!("../libc/float.h")),
    ("grp.h", include_str!("../libc/grp.h")),
    ("inttypes.h", include_str!("../libc/inttypes.h")),
    ("limits.h", include_str!("../libc/limits.h")),
    ("locale.h", include_str!("../libc/locale.h")),
    ("malloc.h", include_str!("../libc/malloc.h")),
    ("math.h", include_str!("../libc/math.h")),
    ("pthread.h", include_str!("../libc/pthread.h")),
    ("pwd.h", include_str!("../libc/pwd.h")),
    ("setjmp.h", include_str!("../libc/setjmp.h")),
    ("signal.h", include_str!("../libc/signal.h")),
    ("stdarg.h", include_str!("../libc/stdarg.h")),
    ("stdbool.h", include_str!("../libc/stdbool.h")),
    ("stddef.h", include_str!("../libc/stddef.h")),
    ("stdint.h", include_str!("../libc/stdint.h")),
    ("stdio.h", include_str!("../libc/stdio.h")),
    ("stdlib.h", include_str!("../libc/stdlib.h")),
    ("string.h", include_str!("../libc/string.h")),
    ("strings.h", include_str!("../libc/strings.h")),
    ("sys/stat.h", include_str!("../libc/sys/stat.h")),
    ("sys/time.h", include_str!("../libc/sys/time.h")),
    ("sys/times.h", include_str!("../libc/sys/times.h")),
    ("sys/types.h", include_str!("../libc/sys/types.h")),
    ("sys/wait.h", include_str!("../libc/sys/wait.h")),
    ("time.h", include_str!("../libc/time.h")),
    ("unistd.h", include_str!("../libc/unistd.h")),
    ("utime.h", include_str!("../libc/utime.h")),
    ("wchar.h", include_str!("../libc/wchar.h")),
];

/// The bundled headers as a file system (under [`DIR`]).
pub struct Bundled;

impl pointee_cpp::FileSystem for Bundled {
    fn read(&self, path: &str) -> Option<Arc<str>> {
        static TEXTS: std::sync::OnceLock<Vec<(&'static str, Arc<str>)>> =
            std::sync::OnceLock::new();
        let name = path.strip_prefix(DIR)?.strip_prefix('/')?;
        let texts =
            TEXTS.get_or_init(|| HEADERS.iter().map(|(n, t)| (*n, Arc::from(*t))).collect());
        texts
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t.clone())
    }
}

#[cfg(test)]
mod tests {
    /// Every file of `libc/` is embedded (a header added there and not to
    /// the table would be silently missing).
    #[test]
    fn every_header_is_embedded() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("libc");
        let mut on_disk = Vec::new();
        let mut stack = vec![root.clone()];
        while let Some(d) = stack.pop() {
            for e in std::fs::read_dir(&d).expect("libc/ is readable") {
                let p = e.expect("an entry").path();
                if p.is_dir() {
                    stack.push(p);
                } else {
                    let rel = p.strip_prefix(&root).expect("under libc/");
                    on_disk.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
        on_disk.sort();
        let embedded: Vec<&str> = super::HEADERS.iter().map(|(n, _)| *n).collect();
        assert_eq!(on_disk, embedded);
    }
}
