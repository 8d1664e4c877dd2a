//! Headers preprocessed once per incoming state: a header's run is kept
//! with what it read of the state it was entered in, and a later
//! inclusion of the same file that finds that state the same takes the
//! kept output instead of reading the header again. The units of a
//! program include the same headers with the same macros (the command
//! line's and those of the headers before), so each is read about once.
//!
//! What a header's output may depend on, and how it is kept:
//! - the macros it looks up before it writes them (`Capture::macros`:
//!   each name's definition at its first such lookup, compared without
//!   the place it was defined at), and the `#pragma once` files and
//!   missing headers it asks about;
//! - the file system's answers (`reads`, compared again when taken), its
//!   own text, where it was found (`#include_next`) and the search path;
//! - whether the output was empty when it began (its first token is then
//!   written without a newline before it), and when its first token does
//!   not start a line, the output's last character (which decides whether
//!   a space goes before it).
//!
//! A header whose output depends on anything else is not kept: one that
//! expands `__COUNTER__`, `__INCLUDE_LEVEL__` or `__BASE_FILE__`, uses
//! `push_macro`/`pop_macro`, touches a conditional group it did not open,
//! nests too deep, or starts with a sign after an exponent's letter. A header
//! entered while a macro's arguments are read (an `#include` inside them)
//! is neither kept nor taken. The output with kept headers equals a run
//! that reads every header (the tests compare them).

use crate::macros::{Macro, Pos, Sym};
use crate::map::Span;
use crate::process::{Cond, Pp};
use crate::resume::{Reads, TopLevel};
use crate::{Diagnostic, FileId, FileInfo, Loc};
use pointee_ir::fxhash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// The most output the kept runs may hold together; past it, the memo
/// starts again (an editor makes new versions of a header as it is
/// edited).
const MEMO_BYTES: usize = 32 << 20;

/// Kept runs of headers, by path (several per path: one per incoming
/// state).
#[derive(Debug, Default)]
pub(crate) struct HeaderMemo {
    runs: FxHashMap<String, Vec<Arc<Run>>>,
    bytes: usize,
    /// How many inclusions took a kept run (for tests and benchmarks).
    pub(crate) taken: u64,
}

/// A header's kept run: the state it read, and what it did. File ids are
/// relative to the header's own (`base`).
#[derive(Debug)]
pub(crate) struct Run {
    // What it read.
    text: Arc<str>,
    found_at: Option<usize>,
    search: Vec<String>,
    angle_start: usize,
    output_was_empty: bool,
    /// The output's last character, when the first token depends on it.
    after: Option<char>,
    macros: Vec<(Sym, Option<Arc<Macro>>)>,
    once: Vec<(String, bool)>,
    missing: Vec<(String, bool)>,
    reads: Reads,
    // What it did.
    base: FileId,
    defines: Vec<(Sym, Option<Arc<Macro>>)>,
    once_added: Vec<String>,
    missing_added: Vec<String>,
    out: String,
    spans: Vec<Span>,
    files: Vec<(FileInfo, Arc<str>)>,
    diagnostics: Vec<Diagnostic>,
    /// Brackets opened minus closed, whether it wrote a token, and whether
    /// its last token is one that ends an item (at depth 0).
    depth: i32,
    wrote: bool,
    ends_item: bool,
    line_used: bool,
}

/// A header being read for keeping.
#[derive(Debug)]
pub(crate) struct Capture {
    /// `frames.len()` while the header is the current file.
    frames: usize,
    path: String,
    text: Arc<str>,
    found_at: Option<usize>,
    output_was_empty: bool,
    last_char: Option<char>,
    after: Option<char>,
    base: FileId,
    text_start: usize,
    spans_start: usize,
    diagnostics_start: usize,
    reads_start: usize,
    conds: Vec<Cond>,
    top: TopLevel,
    macros: FxHashMap<Sym, Option<Arc<Macro>>>,
    written: FxHashSet<Sym>,
    once: FxHashMap<String, bool>,
    once_added: FxHashSet<String>,
    missing: FxHashMap<String, bool>,
    missing_added: FxHashSet<String>,
    line_used: bool,
    pub(crate) first_token_seen: bool,
    poisoned: bool,
}

/// Two definitions of a macro alike, wherever they are written.
fn same_definition(a: &Option<Arc<Macro>>, b: &Option<Arc<Macro>>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(a), Some(b)) => {
            Arc::ptr_eq(a, b)
                || (a.params == b.params && a.variadic == b.variadic && a.body == b.body)
        }
        _ => false,
    }
}

impl Pp<'_> {
    /// The definition of `name`, noted as read by every header being kept
    /// that has not written it.
    pub(crate) fn macro_def(&mut self, name: Sym) -> Option<Arc<Macro>> {
        let m = self.macros.get(&name).cloned();
        for c in &mut self.captures {
            if !c.written.contains(&name) {
                c.macros.entry(name).or_insert_with(|| m.clone());
            }
        }
        m
    }

    /// Notes a write of `name`'s definition (a `#define` or `#undef`).
    pub(crate) fn note_macro_write(&mut self, name: Sym) {
        for c in &mut self.captures {
            c.written.insert(name);
        }
    }

    /// Whether `#pragma once` (or `#import`) closed `path`, noted as read.
    pub(crate) fn once_has(&mut self, path: &str) -> bool {
        let has = self.once.contains(path);
        for c in &mut self.captures {
            if !c.once_added.contains(path) {
                c.once.entry(path.to_string()).or_insert(has);
            }
        }
        has
    }

    pub(crate) fn once_add(&mut self, path: String) {
        for c in &mut self.captures {
            c.once_added.insert(path.clone());
        }
        self.once.insert(path);
    }

    /// Notes a missing header as reported; whether it was new.
    pub(crate) fn missing_add(&mut self, name: &str) -> bool {
        let had = self.reported_missing.contains(name);
        for c in &mut self.captures {
            if !c.missing_added.contains(name) {
                c.missing.entry(name.to_string()).or_insert(had);
                c.missing_added.insert(name.to_string());
            }
        }
        self.reported_missing.insert(name.to_string())
    }

    /// The headers being kept cannot be: what they do depends on more
    /// than the memo compares.
    pub(crate) fn poison_captures(&mut self) {
        for c in &mut self.captures {
            c.poisoned = true;
        }
    }

    /// A token of the header being kept is written: when its first does
    /// not start a line (or the output), how it is written depends on the
    /// character before it, which the kept run then compares.
    pub(crate) fn note_emitted(&mut self, line_start: bool, spelling: &str) {
        for c in &mut self.captures {
            if !c.first_token_seen {
                c.first_token_seen = true;
                if !line_start && !c.output_was_empty {
                    // Written with a space or not by the character before
                    // it, and by more than that after an exponent.
                    c.after = c.last_char;
                    c.poisoned |= spelling.starts_with(['+', '-'])
                        && matches!(c.last_char, Some('e' | 'E' | 'p' | 'P'));
                }
            }
        }
    }

    pub(crate) fn note_line_used(&mut self) {
        for c in &mut self.captures {
            c.line_used = true;
        }
    }

    /// Whether headers may be kept or taken here: no macro's arguments or
    /// lookahead being read.
    fn memo_allowed(&self) -> bool {
        self.memo_on
            && self.reading_ahead == 0
            && self.contexts.is_empty()
            && self.lookahead.is_none()
    }

    /// Takes a kept run of the header at `path` when the state is as it
    /// read it; `true` when it did (the header is then done).
    pub(crate) fn take_kept(
        &mut self,
        path: &str,
        text: &Arc<str>,
        found_at: Option<usize>,
        at: Pos,
        resume: u32,
    ) -> bool {
        if !self.memo_allowed() {
            return false;
        }
        let Some(runs) = self.memo.runs.get(path) else {
            return false;
        };
        let Some(run) = runs
            .iter()
            .find(|r| self.state_matches(r, text, found_at))
            .cloned()
        else {
            return false;
        };
        self.memo.taken += 1;
        self.replay(&run, at);
        if let Some(parent) = self.frames.last() {
            self.out.resume(parent.file, resume);
        }
        true
    }

    fn state_matches(&self, r: &Run, text: &Arc<str>, found_at: Option<usize>) -> bool {
        (Arc::ptr_eq(&r.text, text) || r.text == *text)
            && r.found_at == found_at
            && r.output_was_empty == self.out.text.is_empty()
            && r.after.is_none_or(|c| self.out.text.ends_with(c))
            && r.search == self.search
            && r.angle_start == self.angle_start
            && r.macros
                .iter()
                .all(|(name, m)| same_definition(&self.macros.get(name).cloned(), m))
            && r.once.iter().all(|(p, has)| self.once.contains(p) == *has)
            && r.missing
                .iter()
                .all(|(n, had)| self.reported_missing.contains(n) == *had)
            && r.reads
                .iter()
                .all(|(p, answer)| crate::resume::same(&self.fs.read(p), answer))
    }

    /// Does what `r` did, as if the header were read here.
    fn replay(&mut self, r: &Run, at: Pos) {
        let base = self.files.len() as FileId;
        let shift = |f: FileId| f - r.base + base;
        let shift_loc = |l: Loc| Loc {
            file: shift(l.file),
            range: l.range,
        };
        // What enclosing kept headers read and write through it.
        for (name, m) in &r.macros {
            for c in &mut self.captures {
                if !c.written.contains(name) {
                    c.macros.entry(*name).or_insert_with(|| m.clone());
                }
            }
        }
        for (p, has) in &r.once {
            for c in &mut self.captures {
                if !c.once_added.contains(p) {
                    c.once.entry(p.clone()).or_insert(*has);
                }
            }
        }
        for (n, had) in &r.missing {
            for c in &mut self.captures {
                if !c.missing_added.contains(n) {
                    c.missing.entry(n.clone()).or_insert(*had);
                }
            }
        }
        for c in &mut self.captures {
            c.line_used |= r.line_used;
            if !c.first_token_seen && r.wrote {
                // Its first token is the kept run's, which was written
                // after the same character.
                c.first_token_seen = true;
                c.after = r.after;
            }
        }
        for (name, m) in &r.defines {
            self.note_macro_write(*name);
            match m {
                Some(m) if r.base == base => self.macros.insert(*name, m.clone()),
                Some(m) => self.macros.insert(
                    *name,
                    Arc::new(Macro {
                        at: Pos {
                            file: shift(m.at.file),
                            range: m.at.range,
                        },
                        ..(**m).clone()
                    }),
                ),
                None => self.macros.remove(name),
            };
        }
        self.macros_changed |= !r.defines.is_empty();
        for p in &r.once_added {
            self.once_add(p.clone());
        }
        for n in &r.missing_added {
            self.missing_add(n);
        }
        for (k, (info, text)) in r.files.iter().enumerate() {
            let included_at = if k == 0 {
                Some(at.into())
            } else {
                info.included_at.map(shift_loc)
            };
            self.files.push(FileInfo {
                path: info.path.clone(),
                included_at,
            });
            self.texts.push(text.clone());
        }
        let start = self.out.text.len() as u32;
        self.out.text.push_str(&r.out);
        self.out.spans.extend(r.spans.iter().map(|s| Span {
            expanded: crate::Range::new(s.expanded.start + start, s.expanded.end + start),
            to: shift_loc(s.to),
            exact: s.exact,
            outer: s.outer.map(shift_loc),
        }));
        self.diagnostics
            .extend(r.diagnostics.iter().map(|d| Diagnostic {
                file: shift(d.file),
                ..d.clone()
            }));
        self.reads.extend(r.reads.iter().cloned());
        self.top.replay(r.depth, r.wrote, r.ends_item);
        self.line_used |= r.line_used;
    }

    /// Starts keeping the header just entered (its frame is the last).
    pub(crate) fn start_capture(&mut self, found_at: Option<usize>) {
        if !self.memo_allowed() {
            return;
        }
        let frame = self.frames.last().expect("the header's frame");
        let capture = Capture {
            frames: self.frames.len(),
            path: frame.path.clone(),
            text: frame.lexed.text.clone(),
            found_at,
            output_was_empty: self.out.text.is_empty(),
            last_char: self.out.text.chars().next_back(),
            after: None,
            base: frame.file,
            text_start: self.out.text.len(),
            spans_start: self.out.spans.len(),
            diagnostics_start: self.diagnostics.len(),
            reads_start: self.reads.len(),
            conds: self.conds.clone(),
            top: self.top,
            macros: FxHashMap::default(),
            written: FxHashSet::default(),
            once: FxHashMap::default(),
            once_added: FxHashSet::default(),
            missing: FxHashMap::default(),
            missing_added: FxHashSet::default(),
            line_used: false,
            first_token_seen: false,
            poisoned: false,
        };
        self.captures.push(capture);
    }

    /// The header read for keeping ended (its frame was just popped):
    /// keeps its run unless something poisoned it.
    pub(crate) fn end_capture(&mut self) {
        if self
            .captures
            .last()
            .is_none_or(|c| c.frames != self.frames.len() + 1)
        {
            return;
        }
        let c = self.captures.pop().expect("checked above");
        if c.poisoned || self.conds != c.conds {
            return;
        }
        let base = c.base;
        let inside = |f: FileId| f >= base;
        let spans = &self.out.spans[c.spans_start..];
        let diagnostics = &self.diagnostics[c.diagnostics_start..];
        if !spans
            .iter()
            .all(|s| inside(s.to.file) && s.outer.is_none_or(|o| inside(o.file)))
            || !diagnostics.iter().all(|d| inside(d.file))
        {
            return;
        }
        let defines: Vec<(Sym, Option<Arc<Macro>>)> = c
            .written
            .iter()
            .map(|&name| (name, self.macros.get(&name).cloned()))
            .collect();
        if defines
            .iter()
            .any(|(_, m)| m.as_ref().is_some_and(|m| !inside(m.at.file)))
        {
            return;
        }
        let text_start = c.text_start as u32;
        let out = self.out.text[c.text_start..].to_string();
        let (depth, ends_item) = self.top.since(&c.top);
        let run = Run {
            text: c.text,
            found_at: c.found_at,
            search: self.search.clone(),
            angle_start: self.angle_start,
            output_was_empty: c.output_was_empty,
            after: c.after,
            macros: c.macros.into_iter().collect(),
            once: c.once.into_iter().collect(),
            missing: c.missing.into_iter().collect(),
            reads: self.reads[c.reads_start..].to_vec(),
            base,
            defines,
            once_added: c.once_added.into_iter().collect(),
            missing_added: c.missing_added.into_iter().collect(),
            wrote: !out.is_empty(),
            out,
            spans: spans
                .iter()
                .map(|s| Span {
                    expanded: crate::Range::new(
                        s.expanded.start - text_start,
                        s.expanded.end - text_start,
                    ),
                    ..*s
                })
                .collect(),
            files: self.files[base as usize..]
                .iter()
                .cloned()
                .zip(self.texts[base as usize..].iter().cloned())
                .collect(),
            diagnostics: diagnostics.to_vec(),
            depth,
            ends_item,
            line_used: c.line_used,
        };
        let bytes = run.out.len() + run.spans.len() * std::mem::size_of::<Span>();
        if self.memo.bytes + bytes > MEMO_BYTES {
            self.memo.runs.clear();
            self.memo.bytes = 0;
        }
        self.memo.bytes += bytes;
        self.memo
            .runs
            .entry(c.path)
            .or_default()
            .push(Arc::new(run));
    }
}
