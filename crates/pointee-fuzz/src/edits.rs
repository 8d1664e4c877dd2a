//! Random edits of a program's text, as a user makes them: insert or delete
//! a line, change a name (an assignment's right side, a function pointer's
//! target, a callee), add a function, a global, a typedef, a macro, a Java
//! field or method, delete a few characters (a half-typed program), and now
//! and then go back to the original text. Every edit is one byte range
//! replaced, so it can be applied to an editor's tree as well.

use crate::rand::Rng;
use pointee_db::Lang;

/// Bytes `start..end` replaced by `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl Edit {
    pub fn apply(&self, text: &str) -> String {
        format!("{}{}{}", &text[..self.start], self.text, &text[self.end..])
    }
}

const C_LINES: &[&str] = &[
    "int gzz;",
    "int *gpzz = 0;",
    "static int *gqzz;",
    "typedef int *zz_ptr;",
    "#define ZZ(x) (x)",
    "#define ZZP &gzz",
    "struct zz { int *f; struct zz *n; };",
    "static void fzz(void) { }",
    "int *fzz2(int *a) { return a; }",
    "static int (*gfzz)(void);",
    "    int *zz = 0;",
    "    int lzz, *pzz = &lzz;",
    "    p = q;",
    "    p = &x;",
    "    p = 0;",
    "    if (p) p = q;",
    "    fp = f;",
    "    return 0;",
    "    {",
    "    }",
    "/* a comment */",
    "",
];

const JAVA_LINES: &[&str] = &[
    "    Object fzz;",
    "    static Object gzz = new Object();",
    "    Object mzz() { return new Object(); }",
    "    static void szz(Object o) { gzz = o; }",
    "class Zz { Zz next; Object v; }",
    "interface Izz { Object get(); }",
    "        Object ozz = new Object();",
    "        ozz = null;",
    "        a = b;",
    "        a = new A();",
    "        return;",
    "        {",
    "        }",
    "    // a comment",
    "",
];

/// Where each line starts (and the text's end).
fn line_starts(text: &str) -> Vec<usize> {
    let mut v = vec![0];
    v.extend(text.match_indices('\n').map(|(i, _)| i + 1));
    if *v.last().unwrap() != text.len() {
        v.push(text.len());
    }
    v
}

/// The identifiers of the text with their byte offsets.
fn identifiers(text: &str) -> Vec<(usize, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_alphabetic() || b[i] == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((s, &text[s..i]));
        } else if b[i].is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

/// A random edit of `text` (a program in `lang`); `original` is the text
/// the sequence started from.
pub fn random_edit(rng: &mut Rng, lang: Lang, text: &str, original: &str) -> Edit {
    let starts = line_starts(text);
    let lines = starts.len() - 1;
    let line = |k: usize| (starts[k.min(lines)], starts[(k + 1).min(lines)]);
    let snippets = match lang {
        Lang::C => C_LINES,
        Lang::Java => JAVA_LINES,
    };
    match rng.below(20) {
        // Back to the original (keeps long sequences from drifting into noise).
        0 if text != original => Edit {
            start: 0,
            end: text.len(),
            text: original.to_string(),
        },
        1..=3 if lines > 0 => {
            let (s, e) = line(rng.below(lines));
            Edit {
                start: s,
                end: e,
                text: String::new(),
            }
        }
        4 | 5 if lines > 0 => {
            let (s, e) = line(rng.below(lines));
            let mut copy = text[s..e].to_string();
            if !copy.ends_with('\n') {
                copy.push('\n');
            }
            Edit {
                start: s,
                end: s,
                text: copy,
            }
        }
        6..=9 => {
            let at = starts[rng.below(starts.len())];
            let snippet = *rng.pick(snippets);
            Edit {
                start: at,
                end: at,
                text: format!("{snippet}\n"),
            }
        }
        10..=14 => {
            // A name replaced by another name of the program.
            let ids = identifiers(text);
            if ids.is_empty() {
                return Edit {
                    start: 0,
                    end: 0,
                    text: "\n".into(),
                };
            }
            let (at, old) = ids[rng.below(ids.len())];
            let new = ids[rng.below(ids.len())].1;
            Edit {
                start: at,
                end: at + old.len(),
                text: new.to_string(),
            }
        }
        15 | 16 => {
            // A few characters gone (a half-typed program).
            let at = floor_char(text, rng.below(text.len() + 1));
            let end = floor_char(text, (at + 1 + rng.below(8)).min(text.len()));
            Edit {
                start: at,
                end,
                text: String::new(),
            }
        }
        17 => {
            // Punctuation typed somewhere.
            let at = floor_char(text, rng.below(text.len() + 1));
            let piece = *rng.pick(&["*", "&", ";", "(", ")", "{", "}", "->", "."]);
            Edit {
                start: at,
                end: at,
                text: piece.to_string(),
            }
        }
        _ => {
            // Text that moves everything below it and changes no IR.
            let at = starts[rng.below(starts.len())];
            Edit {
                start: at,
                end: at,
                text: "\n".into(),
            }
        }
    }
}

fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_stay_on_character_boundaries_and_apply() {
        let original = "int x, *p = &x; /* é */\nint main(void) { return *p; }\n";
        let mut text = original.to_string();
        let mut rng = Rng::new(1);
        let mut changed = 0;
        for _ in 0..2000 {
            let e = random_edit(&mut rng, Lang::C, &text, original);
            assert!(e.start <= e.end && e.end <= text.len());
            let next = e.apply(&text);
            changed += usize::from(next != text);
            text = next;
        }
        assert!(changed > 1500, "only {changed} edits changed the text");
    }
}
