//! Tests of the whole preprocessor: text in, expanded text and positions out.

use crate::*;

/// Preprocesses `main.c` of the given files; the expanded text with runs of
/// whitespace collapsed.
fn pp(files: &[(&str, &str)]) -> Output {
    let mut fs = MemoryFs::new();
    for (p, t) in files {
        fs.insert(p, t);
    }
    preprocess(&Config::default(), &fs, "main.c")
}

fn squeeze(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn expand(text: &str) -> String {
    squeeze(&pp(&[("main.c", text)]).text)
}

#[test]
fn object_like_macros_expand_and_rescan() {
    assert_eq!(expand("#define A B\n#define B 1\nA + B"), "1 + 1");
}
