//! Paths as text, joined and normalised lexically (no file system: the
//! model never reads the disk; the preprocessor's `join`, `normalize` and
//! `parent`), and the glob patterns of `pointee.toml`.

pub use pointee_cpp::{join, normalize, parent};

/// `p` relative to `root` when it lies under it, as written otherwise.
pub fn relative_to<'a>(p: &'a str, root: &str) -> &'a str {
    if root == "." || root.is_empty() {
        return p;
    }
    let r = root.trim_end_matches('/');
    match p.strip_prefix(r) {
        Some(rest) if rest.starts_with('/') => &rest[1..],
        _ => p,
    }
}

/// Whether `path` (relative, `/`-separated) matches `pattern`: `*` is any
/// run of characters inside one segment, `?` one character, `**` any number
/// of whole segments; a pattern naming a folder (`src`, `src/`) matches
/// everything under it.
pub fn glob_match(pattern: &str, path: &str) -> bool {
    let pat: Vec<&str> = pattern
        .trim_end_matches('/')
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let segs: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    match_segments(&pat, &segs, true)
}

fn match_segments(pat: &[&str], segs: &[&str], prefix_ok: bool) -> bool {
    match pat.split_first() {
        // The whole pattern matched a leading part: a folder's contents.
        None => segs.is_empty() || prefix_ok,
        Some((&"**", rest)) => {
            (0..=segs.len()).any(|k| match_segments(rest, &segs[k..], prefix_ok))
        }
        Some((p, rest)) => match segs.split_first() {
            Some((s, more)) => {
                match_name(p.as_bytes(), s.as_bytes()) && match_segments(rest, more, prefix_ok)
            }
            None => false,
        },
    }
}

/// `*` and `?` inside one name.
pub fn match_name(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|k| match_name(rest, &s[k..])),
        Some((b'?', rest)) => !s.is_empty() && match_name(rest, &s[1..]),
        Some((c, rest)) => s.first() == Some(c) && match_name(rest, &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_and_normalises() {
        assert_eq!(join("/w/build", "../src/./a.c"), "/w/src/a.c");
        assert_eq!(join("/w", "/abs/x.c"), "/abs/x.c");
        assert_eq!(join(".", "a/b.c"), "a/b.c");
        assert_eq!(join("dir/", "a.c"), "dir/a.c");
        assert_eq!(join("../up", "x/../y.c"), "../up/y.c");
        assert_eq!(normalize("/../a"), "/a");
        assert_eq!(parent("a/b.c"), "a");
        assert_eq!(parent("b.c"), "");
        assert_eq!(parent("/b.c"), "/");
        assert_eq!(relative_to("/w/src/a.c", "/w/"), "src/a.c");
        assert_eq!(relative_to("/wx/a.c", "/w"), "/wx/a.c");
    }

    #[test]
    fn globs() {
        assert!(glob_match("*.c", "a.c"));
        assert!(!glob_match("*.c", "src/a.c"));
        assert!(glob_match("src/*.c", "src/a.c"));
        assert!(glob_match("**/*.c", "src/x/a.c"));
        assert!(glob_match("**/*.c", "a.c"));
        assert!(glob_match("src", "src/x/a.c"));
        assert!(glob_match("src/", "src/a.c"));
        assert!(glob_match("l?b.c", "lib.c"));
        assert!(!glob_match("lib.c", "lib.cc"));
        assert!(glob_match("lua_*", "lua_newstate"));
    }
}
