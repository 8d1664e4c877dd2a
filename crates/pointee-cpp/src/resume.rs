//! Preprocessing a main file again after an edit, without reading what the
//! edit cannot have changed.
//!
//! A run notes *checkpoints*: points of the main file between two
//! top-level items (after a `;` or `}` that closes no bracket, no expansion
//! or included file being read), with the preprocessor's state there. The
//! session keeps each main file's last run. The next run of the file, when
//! the configuration and every file read answer as before, starts at the
//! last checkpoint before the edit (after the headers and the items above
//! it), and when it reaches the first checkpoint after the edit in the
//! same state as the last run did, it takes the rest of the last run's
//! output with its positions moved. The output always equals a run from
//! scratch (the tests compare them on every edit).

use crate::macros::{Macro, Macros, Pos, Sym};
use crate::map::{Emitter, Span};
use crate::process::{Cond, LexedFile, Pp, Session};
use crate::{Config, Diagnostic, FileId, FileInfo, FileSystem, Loc, Output};
use pointee_ir::fxhash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Reads through the file system (path, answer), in order.
pub(crate) type Reads = Vec<(String, Option<Arc<str>>)>;

/// The fewest bytes of the main file between two checkpoints: a file of
/// many small items keeps a checkpoint per few items.
const CHECKPOINT_GAP: u32 = 64;

/// A main file's last run: what the next run of the file may resume.
#[derive(Debug)]
pub(crate) struct LastRun {
    config: Config,
    main_text: Arc<str>,
    /// Every read through the file system, and its answer.
    reads: Reads,
    /// `__LINE__` was expanded: output after an edit that adds or removes
    /// lines cannot be moved.
    line_used: bool,
    out: Emitter,
    files: Vec<FileInfo>,
    texts: Vec<Arc<str>>,
    diagnostics: Vec<Diagnostic>,
    checkpoints: Vec<Checkpoint>,
}

/// The state of a run between two top-level items of the main file.
#[derive(Clone, Debug)]
pub(crate) struct Checkpoint {
    /// The main file's next token, and its offset.
    main_next: usize,
    main_at: u32,
    /// How much of the output was written.
    text_len: usize,
    spans_len: usize,
    last: Option<(FileId, u32)>,
    diagnostics: usize,
    files: usize,
    counter: u32,
    /// Shared by consecutive checkpoints while no macro changes.
    macros: Arc<Macros>,
    pushed: FxHashMap<Sym, Vec<Option<Arc<Macro>>>>,
    conds: Vec<Cond>,
    once: FxHashSet<String>,
    reported_missing: FxHashSet<String>,
}

/// Whether the tokens written so far end a top-level item.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TopLevel {
    depth: i32,
    boundary: bool,
    /// The last token written may end an item (`;`, `}`).
    last_ends: bool,
}

impl Default for TopLevel {
    fn default() -> TopLevel {
        TopLevel {
            depth: 0,
            boundary: true,
            last_ends: true,
        }
    }
}

impl TopLevel {
    /// Follows a token written to the output.
    pub fn after(&mut self, spelling: &str) {
        match spelling {
            "(" | "[" | "{" | "<:" | "<%" => self.depth += 1,
            ")" | "]" | "}" | ":>" | "%>" => self.depth -= 1,
            _ => {}
        }
        self.last_ends = matches!(spelling, ";" | "}" | "%>");
        self.boundary = self.depth == 0 && self.last_ends;
    }

    /// What the tokens written since `before` did: brackets opened minus
    /// closed, and whether the last may end an item.
    pub fn since(&self, before: &TopLevel) -> (i32, bool) {
        (self.depth - before.depth, self.last_ends)
    }

    /// Follows tokens written elsewhere, summed up by [`TopLevel::since`].
    pub fn replay(&mut self, depth: i32, wrote: bool, last_ends: bool) {
        if wrote {
            self.depth += depth;
            self.last_ends = last_ends;
            self.boundary = self.depth == 0 && last_ends;
        }
    }
}

/// Where a resumed run may join the last run: the last run's checkpoint
/// `index`, which in the new text is at `main_at`.
#[derive(Debug)]
pub(crate) struct Target {
    last: Arc<LastRun>,
    index: usize,
    main_at: u32,
    /// The files read when the run resumed: the run joins only if it read
    /// the same ones after that (file ids must stay).
    files: usize,
    /// The edit added or removed lines.
    lines_moved: bool,
    /// Where the edit ends in the last run's text: what was there at or
    /// after it is `delta` bytes later now.
    edit_end: u32,
    delta: i64,
}

impl Session {
    /// Preprocesses the file at `path` (read through `fs`) as a translation
    /// unit, as [`crate::preprocess`] does; resumes the file's last run in
    /// this session when it can (see `resume.rs`). The output equals a run
    /// from scratch.
    pub fn preprocess(&mut self, config: &Config, fs: &dyn FileSystem, path: &str) -> Output {
        let path = crate::normalize(path);
        if !self.keep_runs {
            let mut pp = Pp::new(self, config, fs);
            pp.run(&path, fs.read(&path));
            return pp.finish();
        }
        let main_text = fs.read(&path);
        if let (Some(text), Some(last)) = (&main_text, self.last.get(&path).cloned()) {
            if last.config == *config && last.reads.iter().all(|(p, old)| same(&fs.read(p), old)) {
                if let Some(out) = self.resume(config, fs, &path, text.clone(), last) {
                    self.resumed += 1;
                    return out;
                }
            }
        }
        let mut pp = Pp::new(self, config, fs);
        pp.run(&path, main_text.clone());
        let (out, run) = pp.finish_keeping(config, main_text.unwrap_or_default());
        self.last.insert(path, Arc::new(run));
        out
    }

    /// A session for preprocessing each unit once (a whole program on the
    /// command line): it keeps no run to resume, which saves noting
    /// checkpoints and a copy of each output.
    pub fn one_pass() -> Session {
        Session {
            keep_runs: false,
            ..Session::default()
        }
    }

    /// How many runs resumed the last run of their main file instead of
    /// reading it from its start.
    pub fn resumed(&self) -> u64 {
        self.resumed
    }

    /// The same session, reading every header at every inclusion instead
    /// of taking a kept run (`memo.rs`): to compare outputs.
    pub fn reading_every_header(mut self) -> Session {
        self.memo_headers = false;
        self
    }

    /// How many inclusions took a header's kept run.
    pub fn headers_taken(&self) -> u64 {
        self.headers.taken
    }

    /// How many resumed runs took the end of the last run's output.
    pub fn joined(&self) -> u64 {
        self.joined
    }

    /// Runs `path` again, its text now `text`, from the last checkpoint of
    /// `last` before the edit. `None` when there is none.
    fn resume(
        &mut self,
        config: &Config,
        fs: &dyn FileSystem,
        path: &str,
        text: Arc<str>,
        last: Arc<LastRun>,
    ) -> Option<Output> {
        let (a, b) = (last.main_text.as_bytes(), text.as_bytes());
        let (start, old_end, new_end) = crate::changed_range(a, b);
        let from = last
            .checkpoints
            // Strictly before: the token there is as it was.
            .partition_point(|c| (c.main_at as usize) < start)
            .checked_sub(1)?;
        let lexed = self.lexed_main(path, text.clone());
        let c = &last.checkpoints[from];
        if lexed.toks.get(c.main_next).map(|t| t.start) != Some(c.main_at) {
            return None;
        }
        let newlines = |s: &[u8]| s.iter().filter(|&&x| x == b'\n').count();
        let target = last
            .checkpoints
            .iter()
            .position(|k| k.main_at as usize >= old_end && k.main_at > c.main_at)
            .map(|index| Target {
                last: last.clone(),
                index,
                main_at: (last.checkpoints[index].main_at as usize + new_end - old_end) as u32,
                files: c.files,
                lines_moved: newlines(&a[start..old_end]) != newlines(&b[start..new_end]),
                edit_end: old_end as u32,
                delta: new_end as i64 - old_end as i64,
            });
        let mut pp = Pp::new(self, config, fs);
        pp.restore(&last, from, text.clone());
        pp.reads = last.reads.clone();
        pp.target = target;
        pp.read_main_from(path, lexed, c.main_next);
        let joined = pp.joined;
        let (out, run) = pp.finish_keeping(config, text);
        self.joined += u64::from(joined);
        self.last.insert(path.to_string(), Arc::new(run));
        Some(out)
    }
}

/// Whether a file system answers as it did.
pub(crate) fn same(now: &Option<Arc<str>>, then: &Option<Arc<str>>) -> bool {
    match (now, then) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
        (None, None) => true,
        _ => false,
    }
}

/// Whether the macros `then` of the last run are `now`, those defined at
/// or after `from` in the main file moved by `delta`.
fn same_macros(then: &Arc<Macros>, now: &Arc<Macros>, from: u32, delta: i64) -> bool {
    Arc::ptr_eq(then, now)
        || (then.len() == now.len()
            && then.iter().all(|(name, m)| {
                now.get(name).is_some_and(|n| {
                    Arc::ptr_eq(m, n)
                        || (n.at == moved_pos(m.at, from, delta)
                            && n.params == m.params
                            && n.variadic == m.variadic
                            && n.body == m.body)
                })
            }))
}

/// `l` moved by `delta` when it is in the main file at or after `from`.
fn moved(l: Loc, from: u32, delta: i64) -> Loc {
    if l.file == 0 && l.range.start >= from {
        let m = |o: u32| (i64::from(o) + delta) as u32;
        Loc {
            file: 0,
            range: crate::Range::new(m(l.range.start), m(l.range.end)),
        }
    } else {
        l
    }
}

fn moved_pos(p: Pos, from: u32, delta: i64) -> Pos {
    let l = moved(p.into(), from, delta);
    Pos {
        file: l.file,
        range: l.range,
    }
}

fn moved_last(last: Option<(FileId, u32)>, from: u32, delta: i64) -> Option<(FileId, u32)> {
    last.map(|(f, end)| match f {
        0 if end >= from => (0, (i64::from(end) + delta) as u32),
        _ => (f, end),
    })
}

impl Pp<'_> {
    /// Whether the run is between two top-level items of the main file,
    /// with nothing read ahead: a point a later run may resume from.
    pub(crate) fn at_checkpoint(&self) -> bool {
        self.record
            && self.top.boundary
            && self.frames.len() == 1
            && self.frames[0].file == 0
            && self.frames[0].next < self.frames[0].lexed.toks.len()
            && self.contexts.is_empty()
            && self.lookahead.is_none()
    }

    /// Notes a checkpoint (unless the last one is too near), or joins the
    /// last run when this is where it was expected to join, in the same
    /// state: then the output is complete and `true` is returned.
    pub(crate) fn checkpoint(&mut self) -> bool {
        let main = &self.frames[0];
        let (main_next, main_at) = (main.next, main.lexed.toks[main.next].start);
        // The target is the last run's first checkpoint not passed yet.
        while self.target.as_ref().is_some_and(|t| t.main_at < main_at) {
            self.next_target();
        }
        let here = self.target.as_ref().is_some_and(|t| t.main_at == main_at);
        let near = self
            .checkpoints
            .last()
            .is_some_and(|c| main_at < c.main_at + CHECKPOINT_GAP);
        if here || !near {
            let macros = match self.checkpoints.last() {
                Some(c) if !self.macros_changed => c.macros.clone(),
                _ => Arc::new(self.macros.clone()),
            };
            self.macros_changed = false;
            self.checkpoints.push(Checkpoint {
                main_next,
                main_at,
                text_len: self.out.text.len(),
                spans_len: self.out.spans.len(),
                last: self.out.last,
                diagnostics: self.diagnostics.len(),
                files: self.files.len(),
                counter: self.counter,
                macros,
                pushed: self.pushed.clone(),
                conds: self.conds.clone(),
                once: self.once.clone(),
                reported_missing: self.reported_missing.clone(),
            });
            self.out.cut();
        }
        if !here {
            return false;
        }
        let target = self.target.take().expect("checked above");
        if !self.same_state(&target) {
            // Not (yet) as the last run was: try its next checkpoint.
            self.target = Some(target);
            self.next_target();
            return false;
        }
        self.join(&target);
        self.joined = true;
        true
    }

    /// Aims at the last run's next checkpoint, if there is one.
    fn next_target(&mut self) {
        let Some(mut t) = self.target.take() else {
            return;
        };
        t.index += 1;
        if let Some(c) = t.last.checkpoints.get(t.index) {
            t.main_at = (i64::from(c.main_at) + t.delta) as u32;
            self.target = Some(t);
        }
    }

    /// Whether the run is where the target's checkpoint was, as it was (the
    /// run's own checkpoint there was just noted).
    fn same_state(&self, t: &Target) -> bool {
        let c = &t.last.checkpoints[t.index];
        let now = self.checkpoints.last().expect("noted at the target");
        let delta = t.delta;
        !(t.lines_moved && t.last.line_used)
            && self.files.len() == c.files
            && self.files[t.files..]
                .iter()
                .zip(&t.last.files[t.files..c.files])
                .all(|(n, o)| {
                    n.path == o.path
                        && n.included_at == o.included_at.map(|l| moved(l, t.edit_end, delta))
                })
            && self.counter == c.counter
            && self.out.last == moved_last(c.last, t.edit_end, delta)
            // The blanked text before the next token is written with it:
            // it must lie after the edit.
            && c.last.is_none_or(|(file, end)| file != 0 || end >= t.edit_end)
            && same_macros(&c.macros, &now.macros, t.edit_end, delta)
            && self.pushed == c.pushed
            && self.conds == c.conds
            && self.once == c.once
            && self.reported_missing == c.reported_missing
    }

    /// Takes the rest of the last run's output, from the target's
    /// checkpoint on, with positions moved.
    fn join(&mut self, t: &Target) {
        let last = &t.last;
        let c = &last.checkpoints[t.index];
        let (from, delta) = (t.edit_end, t.delta);
        let text_delta = self.out.text.len() as i64 - c.text_len as i64;
        let spans_delta = self.out.spans.len() as i64 - c.spans_len as i64;
        let diagnostics_delta = self.diagnostics.len() as i64 - c.diagnostics as i64;
        let tokens_delta = self.frames[0].next as i64 - c.main_next as i64;
        let add = |n: usize, d: i64| (n as i64 + d) as usize;
        self.out.text.push_str(&last.out.text[c.text_len..]);
        self.out
            .spans
            .extend(last.out.spans[c.spans_len..].iter().map(|s| Span {
                expanded: crate::Range::new(
                    (i64::from(s.expanded.start) + text_delta) as u32,
                    (i64::from(s.expanded.end) + text_delta) as u32,
                ),
                to: moved(s.to, from, delta),
                exact: s.exact,
                outer: s.outer.map(|o| moved(o, from, delta)),
            }));
        self.out.last = moved_last(last.out.last, from, delta);
        self.out.floor += last.out.floor.saturating_sub(c.spans_len);
        self.diagnostics
            .extend(last.diagnostics[c.diagnostics..].iter().map(|d| {
                let l = moved(
                    Loc {
                        file: d.file,
                        range: d.range,
                    },
                    from,
                    delta,
                );
                Diagnostic {
                    range: l.range,
                    ..d.clone()
                }
            }));
        for (f, text) in last.files[c.files..].iter().zip(&last.texts[c.files..]) {
            self.files.push(FileInfo {
                path: f.path.clone(),
                included_at: f.included_at.map(|l| moved(l, from, delta)),
            });
            self.texts.push(text.clone());
        }
        let now = self
            .checkpoints
            .last()
            .expect("noted at the target")
            .macros
            .clone();
        // Later checkpoints stay while the macros are those at the join
        // (a macro defined below would keep its old place).
        for k in last.checkpoints[t.index + 1..]
            .iter()
            .take_while(|k| Arc::ptr_eq(&k.macros, &c.macros))
        {
            self.checkpoints.push(Checkpoint {
                main_next: add(k.main_next, tokens_delta),
                main_at: (i64::from(k.main_at) + delta) as u32,
                text_len: add(k.text_len, text_delta),
                spans_len: add(k.spans_len, spans_delta),
                last: moved_last(k.last, from, delta),
                diagnostics: add(k.diagnostics, diagnostics_delta),
                conds: k
                    .conds
                    .iter()
                    .map(|&cond| {
                        let mut cond = cond;
                        cond.at = moved_pos(cond.at, from, delta);
                        cond
                    })
                    .collect(),
                macros: now.clone(),
                ..k.clone()
            });
        }
        self.line_used |= last.line_used;
    }

    /// The state at the last run's checkpoint `index`, the main file's text
    /// now `text`.
    fn restore(&mut self, last: &LastRun, index: usize, text: Arc<str>) {
        let c = &last.checkpoints[index];
        self.macros = (*c.macros).clone();
        self.pushed = c.pushed.clone();
        self.conds = c.conds.clone();
        self.once = c.once.clone();
        self.reported_missing = c.reported_missing.clone();
        self.counter = c.counter;
        self.files = last.files[..c.files].to_vec();
        self.texts = last.texts[..c.files].to_vec();
        self.texts[0] = text;
        self.diagnostics = last.diagnostics[..c.diagnostics].to_vec();
        self.out = Emitter {
            text: last.out.text[..c.text_len].to_string(),
            spans: last.out.spans[..c.spans_len].to_vec(),
            last: c.last,
            floor: c.spans_len,
        };
        self.checkpoints = last.checkpoints[..=index].to_vec();
        self.macros_changed = false;
        self.line_used = last.line_used;
    }

    /// The output, and the run kept for the next run of the main file.
    pub(crate) fn finish_keeping(
        mut self,
        config: &Config,
        main_text: Arc<str>,
    ) -> (Output, LastRun) {
        let run = LastRun {
            config: config.clone(),
            main_text,
            reads: std::mem::take(&mut self.reads),
            line_used: self.line_used,
            out: self.out.clone(),
            files: self.files.clone(),
            texts: self.texts.clone(),
            diagnostics: self.diagnostics.clone(),
            checkpoints: std::mem::take(&mut self.checkpoints),
        };
        (self.finish(), run)
    }
}

impl Session {
    /// The main file's tokens (lexed again when its text changed).
    fn lexed_main(&mut self, path: &str, text: Arc<str>) -> Arc<LexedFile> {
        crate::process::lexed_in(&mut self.lexed, &mut self.interner, path, text)
    }
}
