//! The expanded text and its map back to the user's text.
//!
//! Tokens written in a file are copied with the whitespace between them
//! (directive lines, comments and skipped groups become spaces, newlines
//! stay), so a run of them maps byte for byte. A token from a macro is
//! written after one space; it maps to where it is spelled (an argument) or
//! to the macro's use (the body's tokens), and remembers the outermost use.

use crate::lex::Kind;
use crate::macros::{Pos, Tok, IN_MACRO, LINE_START, SPELLED, SPLICED};
use crate::{FileId, Range};

/// A place in the user's text: a range of one inclusion of a file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Loc {
    pub file: FileId,
    pub range: Range,
}

impl From<Pos> for Loc {
    fn from(p: Pos) -> Loc {
        Loc {
            file: p.file,
            range: p.range,
        }
    }
}

/// One inclusion of a file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileInfo {
    pub path: String,
    /// The `#include` line that brought it in (`None` for the main file and
    /// the pseudo-files of predefined and command-line macros).
    pub included_at: Option<Loc>,
}

/// A run of the expanded text and where it lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// A range of the expanded text.
    pub expanded: Range,
    /// Where it lands.
    pub to: Loc,
    /// Byte for byte: offset `k` of `expanded` is offset `k` of `to`
    /// (tokens spelled in a file, copied as they are). Otherwise the whole
    /// of `expanded` lands on the whole of `to` (a macro's use).
    pub exact: bool,
    /// The outermost macro use this came from, when it came from one.
    pub outer: Option<Loc>,
}

/// From the expanded text back to the user's text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PosMap {
    /// In order of `expanded`, not overlapping; the whitespace between two
    /// spans belongs to neither.
    pub spans: Vec<Span>,
}

/// One outermost macro use and what it expanded to.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Expansion {
    /// The use (`NAME` or `NAME(args)`).
    pub at: Loc,
    /// What it became, as a range of the expanded text.
    pub expanded: Range,
}

impl PosMap {
    /// The span holding the expanded offset `at`, or the first after it.
    fn span_from(&self, at: u32) -> Option<usize> {
        let k = self.spans.partition_point(|s| s.expanded.end <= at);
        (k < self.spans.len()).then_some(k)
    }

    /// The span holding the expanded offset just before `end`, or the last
    /// before it.
    fn span_until(&self, end: u32) -> Option<usize> {
        let k = self.spans.partition_point(|s| s.expanded.start < end);
        k.checked_sub(1)
    }

    /// Where a range of the expanded text (a syntax node's, which starts and
    /// ends on tokens) lands in the user's text: the text spelling it when
    /// both ends are spelled at one level (both in a file, or both inside
    /// the arguments of one macro use); otherwise the macro uses its ends
    /// came from, joined. `None` when no token is in the range.
    pub fn resolve(&self, r: Range) -> Option<Loc> {
        let first = &self.spans[self.span_from(r.start)?];
        let last = &self.spans[self.span_until(r.end.max(r.start + 1))?];
        if first.expanded.start >= r.end.max(r.start + 1) {
            return None;
        }
        let start = point(first, r.start.max(first.expanded.start));
        let end = point(last, r.end.min(last.expanded.end).max(last.expanded.start));
        let (start_loc, end_loc) = (start, end);
        if first.exact
            && last.exact
            && first.outer == last.outer
            && start_loc.file == end_loc.file
            && start_loc.range.start <= end_loc.range.end
        {
            return Some(Loc {
                file: start_loc.file,
                range: Range::new(start_loc.range.start, end_loc.range.end),
            });
        }
        let a = first.outer.unwrap_or(start_loc);
        let b = last.outer.unwrap_or(end_loc);
        Some(join(a, b))
    }

    /// Each outermost macro use and the expanded text it became.
    pub fn expansions(&self) -> Vec<Expansion> {
        let mut out: Vec<Expansion> = Vec::new();
        for s in &self.spans {
            let Some(o) = s.outer else { continue };
            match out.last_mut() {
                Some(e) if e.at == o => e.expanded.end = s.expanded.end,
                _ => out.push(Expansion {
                    at: o,
                    expanded: s.expanded,
                }),
            }
        }
        out
    }
}

/// Where the expanded offset `at` (inside or at the end of `s`) lands: one
/// point for an exact span, the whole target otherwise.
fn point(s: &Span, at: u32) -> Loc {
    if s.exact {
        let p = s.to.range.start + (at - s.expanded.start);
        Loc {
            file: s.to.file,
            range: Range::new(p, p),
        }
    } else {
        s.to
    }
}

/// From `a`'s start to `b`'s end when in one file and in order; `a` else.
fn join(a: Loc, b: Loc) -> Loc {
    if a.file == b.file && a.range.start <= b.range.end {
        Loc {
            file: a.file,
            range: Range::new(a.range.start, b.range.end.max(a.range.end)),
        }
    } else {
        a
    }
}

/// Writes the expanded text and its spans.
#[derive(Clone, Debug, Default)]
pub(crate) struct Emitter {
    pub text: String,
    /// The tokens' spans as written, each run that lands byte for byte (or
    /// on one macro use) joined as it is written, but never into a span
    /// below `floor`: a resumed run cuts the spans there and goes on in
    /// another order (runs across it are joined by [`Emitter::map`]).
    pub spans: Vec<Span>,
    /// Spans below this index are never extended (a checkpoint's cut).
    pub floor: usize,
    /// The file and end of the last token copied from a file, so that the
    /// whitespace up to the next one is copied too.
    pub last: Option<(FileId, u32)>,
}

impl Emitter {
    /// A file starts: its first token copies the whitespace before it when
    /// nothing was written yet (so a file without includes keeps its
    /// offsets).
    pub fn start_file(&mut self, file: FileId) {
        if self.text.is_empty() {
            self.last = Some((file, 0));
        }
    }

    /// Reading goes on in `file` at `at` (after an `#include` line).
    pub fn resume(&mut self, file: FileId, at: u32) {
        self.last = Some((file, at));
    }

    pub fn emit(&mut self, t: &Tok, spelling: &str, file_text: &str) {
        debug_assert!(t.kind != Kind::End && t.kind != Kind::Placemarker);
        let verbatim = t.has(SPELLED) && !t.has(IN_MACRO) && !t.has(SPLICED);
        match self.last {
            // Only the main file keeps its offsets: headers' skipped groups
            // would only make the text longer.
            Some((0, end)) if verbatim && t.pos.file == 0 && end <= t.pos.range.start => {
                // The whitespace, directives and comments before it, blanked.
                let gap = &file_text.as_bytes()[end as usize..t.pos.range.start as usize];
                self.text
                    .extend(gap.iter().map(|&c| if c == b'\n' { '\n' } else { ' ' }));
            }
            _ if self.text.is_empty() => {}
            _ if t.has(LINE_START) => self.text.push('\n'),
            _ if t.has(crate::macros::SPACE) || !glues(&self.text, spelling) => self.text.push(' '),
            _ => {}
        }
        let start = self.text.len() as u32;
        self.text.push_str(spelling);
        let expanded = Range::new(start, self.text.len() as u32);
        self.last = verbatim.then_some((t.pos.file, t.pos.range.end));
        let exact = t.has(SPELLED)
            && !t.has(SPLICED)
            && spelling.len() as u32 == t.pos.range.end - t.pos.range.start;
        let span = Span {
            expanded,
            to: t.pos.into(),
            exact,
            outer: t.has(IN_MACRO).then(|| t.outer.into()),
        };
        // Joined now rather than in `map`: a resumed run copies the spans
        // several times, and the joined ones are about a quarter of them.
        if self.spans.len() > self.floor {
            if let Some(prev) = self.spans.last_mut() {
                if continues(prev, &span) {
                    extend(prev, &span);
                    return;
                }
            }
        }
        self.spans.push(span);
    }

    /// Notes that the spans written so far may be cut here.
    pub fn cut(&mut self) {
        self.floor = self.spans.len();
    }

    /// The map: the tokens' spans, each run that lands byte for byte (or on
    /// one macro use) joined into one.
    pub fn map(&self) -> PosMap {
        let mut spans: Vec<Span> = Vec::with_capacity(self.spans.len() / 4);
        for span in &self.spans {
            if let Some(prev) = spans.last_mut() {
                if continues(prev, span) {
                    extend(prev, span);
                    continue;
                }
            }
            spans.push(*span);
        }
        PosMap { spans }
    }
}

/// Whether `next` can follow the text with no space between and still be
/// read as its own token (a macro's tokens are written as close as that).
fn glues(text: &str, next: &str) -> bool {
    let (Some(a), Some(b)) = (text.chars().next_back(), next.chars().next()) else {
        return true;
    };
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || !c.is_ascii();
    if a.is_whitespace() {
        return true;
    }
    if word(a) && (word(b) || b == '.' || b == '\'' || b == '"') {
        return false;
    }
    // A number goes on through `.`, and through a sign after an exponent.
    if a == '.' && b.is_ascii_digit() {
        return false;
    }
    if matches!(b, '+' | '-') && matches!(a, 'e' | 'E' | 'p' | 'P') {
        let run = text.trim_end_matches(|c: char| word(c) || c == '.');
        if text[run.len()..].starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            return false;
        }
    }
    if word(a) || word(b) || matches!(b, '"' | '\'') {
        return true;
    }
    // Two punctuators that would read as one (or as a comment).
    const PAIRS: [&str; 29] = [
        "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=", "%=", "+=",
        "-=", "&=", "^=", "|=", "##", "<:", ":>", "<%", "%>", "%:", "..", "/*", "//", "|=",
    ];
    let mut pair = String::with_capacity(2);
    pair.push(a);
    pair.push(b);
    !PAIRS.contains(&pair.as_str())
}

/// `prev` extended by `next`, which [`continues`] it.
fn extend(prev: &mut Span, next: &Span) {
    prev.expanded.end = next.expanded.end;
    prev.to.range.end = next.to.range.end.max(prev.to.range.end);
}

/// Whether `next` extends `prev` into one span: byte for byte on both
/// sides, or the same macro use.
fn continues(prev: &Span, next: &Span) -> bool {
    if prev.outer != next.outer || prev.to.file != next.to.file || prev.exact != next.exact {
        return false;
    }
    if prev.exact {
        next.expanded.start >= prev.expanded.end
            && next.to.range.start >= prev.to.range.end
            && next.expanded.start - prev.expanded.start
                == next.to.range.start - prev.to.range.start
    } else {
        prev.to == next.to
    }
}
