//! The preprocessor's driver: files and their inclusion, directives and
//! conditional groups (C11 6.10.1-6.10.9). Macro expansion is `expand.rs`,
//! the output and its position map `map.rs`.

use crate::lex::{self, Kind, Lexed};
use crate::macros::{self, well_known::*, Interner, Macro, Macros, Pos, Sym, Tok};
use crate::macros::{IN_MACRO, SPACE, SPELLED};
use crate::map::Emitter;
use crate::memo::{Capture, HeaderMemo};
use crate::resume::{Checkpoint, LastRun, Reads, Target, TopLevel};
use crate::{Config, Diagnostic, FileId, FileInfo, FileSystem, Output, Range, Severity};
use pointee_ir::fxhash::{FxHashMap, FxHashSet};
use std::sync::Arc;

/// Nested `#include`s deeper than this are an error (gcc's limit).
const MAX_INCLUDE_DEPTH: usize = 200;

/// What preprocessing runs keep between them: interned spellings and the
/// tokens of each file read, so that the headers of a program's units are
/// lexed once. Results never depend on what a session holds.
#[derive(Debug)]
pub struct Session {
    pub(crate) interner: Interner,
    pub(crate) lexed: FxHashMap<String, Arc<LexedFile>>,
    /// Per main file, its last run, which the next run of the file resumes
    /// (`resume.rs`).
    pub(crate) last: FxHashMap<String, Arc<LastRun>>,
    /// How many runs resumed a last run, and how many of them took the end
    /// of its output (for tests and benchmarks).
    pub(crate) resumed: u64,
    pub(crate) joined: u64,
    /// Whether runs note checkpoints and are kept (see `one_pass`).
    pub(crate) keep_runs: bool,
    /// Headers' runs, kept per incoming state (`memo.rs`).
    pub(crate) headers: HeaderMemo,
    /// Whether headers' kept runs are taken (off only to compare).
    pub(crate) memo_headers: bool,
}

impl Default for Session {
    fn default() -> Session {
        Session {
            interner: Interner::new(),
            lexed: FxHashMap::default(),
            last: FxHashMap::default(),
            resumed: 0,
            joined: 0,
            keep_runs: true,
            headers: HeaderMemo::default(),
            memo_headers: true,
        }
    }
}

/// A file's tokens, with its include guard when it has one.
#[derive(Debug)]
pub(crate) struct LexedFile {
    pub text: Arc<str>,
    pub toks: Vec<Lexed>,
    /// Each token's interned spelling.
    pub syms: Vec<Sym>,
    /// `X` when the whole file is inside `#ifndef X` ... `#endif` (or
    /// `#if !defined X`): including it again while `X` is defined does
    /// nothing.
    pub guard: Option<String>,
}

/// A file's tokens from the cache, lexed when its text is new.
pub(crate) fn lexed_in(
    cache: &mut FxHashMap<String, Arc<LexedFile>>,
    int: &mut Interner,
    path: &str,
    text: Arc<str>,
) -> Arc<LexedFile> {
    let (toks, syms) = match cache.get(path) {
        Some(l) if Arc::ptr_eq(&l.text, &text) || *l.text == *text => return l.clone(),
        // An edit (the main file after each keystroke): lexed again
        // around the edit only.
        Some(l) => {
            let (toks, kept, resumed) = lex::lex_edited(&l.text, &l.toks, &text);
            let fresh = toks.len() - kept - (l.toks.len() - resumed);
            let syms = l.syms[..kept]
                .iter()
                .copied()
                .chain(
                    toks[kept..kept + fresh]
                        .iter()
                        .map(|t| int.intern(&lex::spelling(&text, t))),
                )
                .chain(l.syms[resumed..].iter().copied())
                .collect();
            (toks, syms)
        }
        None => {
            let toks = lex::lex(&text);
            let syms = toks
                .iter()
                .map(|t| int.intern(&lex::spelling(&text, t)))
                .collect();
            (toks, syms)
        }
    };
    let guard = include_guard(&text, &toks);
    let l = Arc::new(LexedFile {
        text,
        toks,
        syms,
        guard,
    });
    cache.insert(path.to_string(), l.clone());
    l
}

/// One file being read.
pub(crate) struct Frame {
    pub(crate) file: FileId,
    pub(crate) path: String,
    pub(crate) lexed: Arc<LexedFile>,
    pub(crate) next: usize,
    /// How many conditional groups were open when the file was entered.
    pub(crate) conds_base: usize,
    /// Where in the search list the file was found (for `#include_next`).
    pub(crate) found_at: Option<usize>,
    /// Where the parent file goes on after the `#include` line.
    pub(crate) resume_at: u32,
}

/// An open conditional group (`#if` ... `#endif`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Cond {
    /// The enclosing group is active.
    parent_active: bool,
    /// The current branch is taken.
    taking: bool,
    /// Some branch was taken already.
    taken: bool,
    seen_else: bool,
    pub at: Pos,
}

/// An expansion context: tokens a macro produced, read before the file
/// goes on.
pub(crate) struct Ctx {
    pub toks: Vec<Tok>,
    pub next: usize,
    /// The macro whose expansion this is: disabled while it is read.
    pub mac: Option<Sym>,
}

/// One preprocessing run.
pub(crate) struct Pp<'a> {
    pub int: &'a mut Interner,
    pub(crate) lexed: &'a mut FxHashMap<String, Arc<LexedFile>>,
    pub(crate) config: &'a Config,
    pub(crate) fs: &'a dyn FileSystem,
    /// `quote_dirs`, `include_dirs`, `system_dirs`; `<...>` starts at
    /// `angle_start`.
    pub(crate) search: Vec<String>,
    pub(crate) angle_start: usize,
    pub macros: Macros,
    /// `#pragma push_macro` stacks.
    pub(crate) pushed: FxHashMap<Sym, Vec<Option<Arc<Macro>>>>,
    pub(crate) frames: Vec<Frame>,
    pub contexts: Vec<Ctx>,
    pub(crate) conds: Vec<Cond>,
    /// A token of the current file read ahead (looking for a `(`).
    pub lookahead: Option<Tok>,
    pub files: Vec<FileInfo>,
    pub(crate) texts: Vec<Arc<str>>,
    pub(crate) line_starts: FxHashMap<FileId, Vec<u32>>,
    pub(crate) once: FxHashSet<String>,
    pub(crate) reported_missing: FxHashSet<String>,
    pub diagnostics: Vec<Diagnostic>,
    pub counter: u32,
    /// Set while a `#if` line is expanded: `defined` and `__has_include`
    /// are operators.
    pub in_if: bool,
    pub out: Emitter,
    pub(crate) main_path: String,
    /// Every read through `fs`, with its answer.
    pub reads: Reads,
    /// Where a later run of the main file may resume (`resume.rs`).
    pub checkpoints: Vec<Checkpoint>,
    /// Whether the emitted tokens are between two top-level items.
    pub top: TopLevel,
    /// A `#define`, `#undef` or `pop_macro` since the last checkpoint.
    pub macros_changed: bool,
    /// `__LINE__` was expanded.
    pub line_used: bool,
    /// Where this run may join the last run again (a resumed run).
    pub target: Option<Target>,
    /// It did.
    pub joined: bool,
    /// Notes checkpoints (the session keeps runs).
    pub record: bool,
    /// The session's kept runs of headers, and whether they are used.
    pub(crate) memo: &'a mut HeaderMemo,
    pub(crate) memo_on: bool,
    /// Headers being read for keeping, outermost first.
    pub(crate) captures: Vec<Capture>,
    /// Above 0 while a macro's arguments (or the `(` after its name) are
    /// read: an `#include` met then is neither kept nor taken.
    pub(crate) reading_ahead: u32,
}

impl<'a> Pp<'a> {
    pub(crate) fn new(s: &'a mut Session, config: &'a Config, fs: &'a dyn FileSystem) -> Pp<'a> {
        let mut search = config.quote_dirs.clone();
        let angle_start = search.len();
        search.extend(config.include_dirs.iter().cloned());
        search.extend(config.system_dirs.iter().cloned());
        Pp {
            int: &mut s.interner,
            lexed: &mut s.lexed,
            memo: &mut s.headers,
            memo_on: s.memo_headers,
            captures: Vec::new(),
            reading_ahead: 0,
            config,
            fs,
            search,
            angle_start,
            macros: Macros::default(),
            pushed: FxHashMap::default(),
            frames: Vec::new(),
            contexts: Vec::new(),
            conds: Vec::new(),
            lookahead: None,
            files: Vec::new(),
            texts: Vec::new(),
            line_starts: FxHashMap::default(),
            once: FxHashSet::default(),
            reported_missing: FxHashSet::default(),
            diagnostics: Vec::new(),
            counter: 0,
            in_if: false,
            out: Emitter::default(),
            main_path: String::new(),
            reads: Vec::new(),
            checkpoints: Vec::new(),
            top: TopLevel::default(),
            macros_changed: false,
            line_used: false,
            target: None,
            joined: false,
            record: s.keep_runs,
        }
    }

    /// Reads a file through the file system, noting the answer (a later run
    /// resumes only while every answer stays the same).
    fn read(&mut self, path: &str) -> Option<Arc<str>> {
        let text = self.fs.read(path);
        self.reads.push((path.to_string(), text.clone()));
        text
    }

    /// Preprocesses the main file at (normalised) `path`, whose text is
    /// `main_text`.
    pub(crate) fn run(&mut self, path: &str, main_text: Option<Arc<str>>) {
        let path = path.to_string();
        self.main_path = path.clone();
        // The main file is file 0, though it is read last.
        self.new_file(&path, None, main_text.clone().unwrap_or_default());
        let predefined = crate::predef::predefined(self.config);
        self.run_text("<built-in>", predefined);
        let mut command_line = String::new();
        for m in &self.config.macros {
            match m {
                crate::MacroOption::Define { name, value } => {
                    command_line.push_str(&format!("#define {name} {value}\n"))
                }
                crate::MacroOption::Undef(name) => {
                    command_line.push_str(&format!("#undef {name}\n"))
                }
            }
        }
        self.run_text("<command-line>", command_line);
        let Some(main_text) = main_text else {
            self.diagnostics.push(Diagnostic {
                file: 0,
                range: Range::default(),
                severity: Severity::Error,
                message: format!("{path}: no such file"),
            });
            return;
        };
        let lexed = self.lex_file(&path, main_text);
        self.frames.push(Frame {
            file: 0,
            path: path.clone(),
            lexed,
            next: 0,
            conds_base: 0,
            found_at: None,
            resume_at: 0,
        });
        self.out.start_file(0);
        // `-include FILE`: as if included on the main file's first line,
        // each read to its end before the next is looked for.
        for f in self.config.forced_includes.clone() {
            let at = Pos {
                file: 0,
                range: Range::default(),
            };
            let depth = self.frames.len();
            match self.read_include(&f) {
                Some((p, text)) => self.enter(&p, text, at, None, 0),
                None => self.diag(at, Severity::Error, format!("`-include {f}`: no such file")),
            }
            if self.frames.len() > depth {
                self.main_loop(depth + 1);
            }
        }
        self.main_loop(1);
    }

    /// Starts reading the main file `text` at its token `next`, and reads
    /// it to its end (or until it joins the last run).
    pub(crate) fn read_main_from(&mut self, path: &str, lexed: Arc<LexedFile>, next: usize) {
        self.main_path = path.to_string();
        self.frames.push(Frame {
            file: 0,
            path: path.to_string(),
            lexed,
            next,
            conds_base: 0,
            found_at: None,
            resume_at: 0,
        });
        self.main_loop(1);
    }

    /// Reads a pseudo-file (predefined macros, `-D`/`-U`) to its end.
    fn run_text(&mut self, name: &str, text: String) {
        let text: Arc<str> = text.into();
        let file = self.new_file(name, None, text.clone());
        let lexed = self.lex_file(name, text);
        self.frames.push(Frame {
            file,
            path: name.to_string(),
            lexed,
            next: 0,
            conds_base: self.conds.len(),
            found_at: None,
            resume_at: 0,
        });
        self.main_loop(self.frames.len());
    }

    /// Expands and emits tokens until fewer than `depth` files are open.
    fn main_loop(&mut self, depth: usize) {
        while self.frames.len() >= depth {
            if self.at_checkpoint() && self.checkpoint() {
                return; // joined the last run
            }
            match self.next_expanded() {
                Some(t) => {
                    // The innermost header being kept writes its first token
                    // last of them all.
                    if self.captures.last().is_some_and(|c| !c.first_token_seen) {
                        let spelling = self.int.get(t.sym).to_string();
                        self.note_emitted(t.has(crate::macros::LINE_START), &spelling);
                    }
                    let text = &self.texts[t.pos.file as usize];
                    let spelling = self.int.get(t.sym);
                    self.out.emit(&t, spelling, text);
                    self.top.after(spelling);
                }
                None => self.pop_frame(),
            }
        }
    }

    pub(crate) fn finish(self) -> Output {
        let map = self.out.map();
        let expansions = map.expansions();
        Output {
            text: self.out.text,
            files: self.files,
            map,
            diagnostics: self.diagnostics,
            expansions,
        }
    }

    pub(crate) fn new_file(
        &mut self,
        path: &str,
        included_at: Option<Pos>,
        text: Arc<str>,
    ) -> FileId {
        let id = self.files.len() as FileId;
        self.files.push(FileInfo {
            path: path.to_string(),
            included_at: included_at.map(|p| crate::Loc {
                file: p.file,
                range: p.range,
            }),
        });
        self.texts.push(text);
        id
    }

    pub(crate) fn lex_file(&mut self, path: &str, text: Arc<str>) -> Arc<LexedFile> {
        lexed_in(self.lexed, self.int, path, text)
    }

    pub fn diag(&mut self, at: Pos, severity: Severity, message: String) {
        self.diagnostics.push(Diagnostic {
            file: at.file,
            range: at.range,
            severity,
            message,
        });
    }

    /// The 1-based line of a position.
    pub fn line_of(&mut self, p: Pos) -> u32 {
        let text = self.texts[p.file as usize].clone();
        let starts = self.line_starts.entry(p.file).or_insert_with(|| {
            std::iter::once(0)
                .chain(
                    text.bytes()
                        .enumerate()
                        .filter(|(_, c)| *c == b'\n')
                        .map(|(i, _)| i as u32 + 1),
                )
                .collect()
        });
        starts.partition_point(|&s| s <= p.range.start) as u32
    }

    /// The path of the file being read (for `__FILE__`).
    pub fn current_path(&self) -> &str {
        self.frames.last().map_or("", |f| &f.path)
    }

    pub fn main_path(&self) -> &str {
        &self.main_path
    }

    pub fn include_level(&self) -> usize {
        // The main file is level 0; pseudo-files are not counted.
        self.frames.len().saturating_sub(1)
    }

    fn active(&self) -> bool {
        self.conds
            .last()
            .is_none_or(|c| c.parent_active && c.taking)
    }

    /// The `k`th token of a lexed file, as the expander sees it.
    fn file_tok(file: FileId, lexed: &LexedFile, k: usize) -> Tok {
        let lx = lexed.toks[k];
        let pos = Pos {
            file,
            range: Range::new(lx.start, lx.end),
        };
        Tok {
            sym: lexed.syms[k],
            kind: lx.kind,
            flags: lx.flags as u16 | SPELLED,
            pos,
            outer: pos,
        }
    }

    /// The next active token of the current file (directives are carried
    /// out on the way), or `None` at the file's end.
    pub fn file_token(&mut self) -> Option<Tok> {
        if let Some(t) = self.lookahead.take() {
            return Some(t);
        }
        loop {
            let frame = self.frames.last_mut()?;
            let k = frame.next;
            let lx = *frame.lexed.toks.get(k)?;
            if lx.flags & lex::LINE_START != 0 && is_hash_sym(lx.kind, frame.lexed.syms[k]) {
                self.directive();
                continue;
            }
            frame.next += 1;
            let t = Self::file_tok(frame.file, &frame.lexed, k);
            if self.active() {
                return Some(t);
            }
        }
    }

    /// Leaves the current file at its end.
    fn pop_frame(&mut self) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        while self.conds.len() > frame.conds_base {
            let c = self.conds.pop().expect("counted above");
            self.diag(
                c.at,
                Severity::Error,
                "unterminated conditional directive".into(),
            );
        }
        if !self.captures.is_empty() {
            self.end_capture();
        }
        if let Some(parent) = self.frames.last() {
            self.out.resume(parent.file, frame.resume_at);
        }
    }

    /// Carries out the directive whose `#` is the current token.
    fn directive(&mut self) {
        let frame = self
            .frames
            .last_mut()
            .expect("a directive is read from a file");
        let lexed = frame.lexed.clone();
        let file = frame.file;
        let hash = frame.next;
        let end = (hash + 1..lexed.toks.len())
            .find(|&k| lexed.toks[k].flags & lex::LINE_START != 0)
            .unwrap_or(lexed.toks.len());
        frame.next = end;
        let line_end = lex::line_end_of(&lexed.text, lexed.toks[end - 1].end as usize) as u32;
        let hash_pos = Pos {
            file,
            range: Range::new(lexed.toks[hash].start, lexed.toks[hash].end),
        };
        let whole = Pos {
            file,
            range: Range::new(lexed.toks[hash].start, lexed.toks[end - 1].end),
        };
        let Some(name_lx) = lexed.toks.get(hash + 1).filter(|_| hash + 1 < end) else {
            return; // the null directive
        };
        let name = lex::spelling(&lexed.text, name_lx).into_owned();
        let active = self.active();
        // Conditional directives are followed even in skipped groups.
        match name.as_str() {
            "if" | "ifdef" | "ifndef" => {
                let taking = active && {
                    let toks = self.line_toks(file, &lexed, hash + 2, end);
                    match name.as_str() {
                        "if" => self.eval_if(&toks, whole),
                        "ifdef" => self.defined_test(&toks, whole, false),
                        _ => self.defined_test(&toks, whole, true),
                    }
                };
                self.conds.push(Cond {
                    parent_active: active,
                    taking,
                    taken: taking,
                    seen_else: false,
                    at: hash_pos,
                });
                return;
            }
            "elif" | "elifdef" | "elifndef" | "else" => {
                let Some(c) = self.conds.last().copied() else {
                    self.diag(whole, Severity::Error, format!("#{name} without #if"));
                    return;
                };
                if self.conds.len() <= self.frames.last().map_or(0, |f| f.conds_base) {
                    // A group the file did not open.
                    self.poison_captures();
                }
                if c.seen_else {
                    self.diag(whole, Severity::Error, format!("#{name} after #else"));
                }
                let taking = c.parent_active
                    && !c.taken
                    && match name.as_str() {
                        "else" => true,
                        _ => {
                            let toks = self.line_toks(file, &lexed, hash + 2, end);
                            match name.as_str() {
                                "elif" => self.eval_if(&toks, whole),
                                "elifdef" => self.defined_test(&toks, whole, false),
                                _ => self.defined_test(&toks, whole, true),
                            }
                        }
                    };
                let top = self.conds.last_mut().expect("checked above");
                top.taking = taking;
                top.taken |= taking;
                top.seen_else |= name == "else";
                return;
            }
            "endif" => {
                let base = self.frames.last().map_or(0, |f| f.conds_base);
                if self.conds.len() > base {
                    self.conds.pop();
                } else {
                    self.diag(whole, Severity::Error, "#endif without #if".into());
                }
                return;
            }
            _ => {}
        }
        if !active {
            return;
        }
        let toks = self.line_toks(file, &lexed, hash + 2, end);
        match name.as_str() {
            "define" => match macros::parse_define(&toks, toks.first().map_or(whole, |t| t.pos)) {
                Ok((name, m)) => {
                    self.note_macro_write(name);
                    self.macros.insert(name, Arc::new(m));
                    self.macros_changed = true;
                }
                Err(e) => self.diag(
                    whole,
                    Severity::Warning,
                    format!("#define ignored: {}", e.0),
                ),
            },
            "undef" => match toks.first() {
                Some(t) if t.kind == Kind::Ident => {
                    self.note_macro_write(t.sym);
                    self.macros.remove(&t.sym);
                    self.macros_changed = true;
                }
                _ => self.diag(whole, Severity::Warning, "#undef without a name".into()),
            },
            "include" | "include_next" | "import" => {
                let once = name == "import";
                self.include(
                    &toks,
                    &lexed.text,
                    whole,
                    line_end,
                    name == "include_next",
                    once,
                )
            }
            "error" => {
                let msg = self.line_text(&lexed.text, hash + 2, end, &lexed);
                self.diag(whole, Severity::Error, format!("#error {msg}"));
            }
            "warning" => {
                let msg = self.line_text(&lexed.text, hash + 2, end, &lexed);
                self.diag(whole, Severity::Warning, format!("#warning {msg}"));
            }
            "pragma" => self.pragma(&toks),
            // `#line` renames lines for the compiler's messages; pointee
            // answers on the text as written.
            "line" | "ident" | "sccs" | "assert" | "unassert" => {}
            _ if name_lx.kind == Kind::Number => {} // `# 12 "file"` line markers
            _ => self.diag(
                whole,
                Severity::Warning,
                format!("unknown directive #{name} ignored"),
            ),
        }
    }

    /// The tokens of a directive's line from `from` to `end`.
    fn line_toks(&mut self, file: FileId, lexed: &LexedFile, from: usize, end: usize) -> Vec<Tok> {
        (from..end.max(from))
            .map(|k| Self::file_tok(file, lexed, k))
            .collect()
    }

    /// The text of a directive's line from token `from` (for `#error`).
    fn line_text(&self, text: &str, from: usize, end: usize, lexed: &LexedFile) -> String {
        if from >= end {
            return String::new();
        }
        let s = lexed.toks[from].start as usize;
        let e = lexed.toks[end - 1].end as usize;
        text[s..e].split_whitespace().collect::<Vec<_>>().join(" ")
    }

    /// `#ifdef NAME` (or `#ifndef` when `negate`).
    fn defined_test(&mut self, toks: &[Tok], at: Pos, negate: bool) -> bool {
        match toks.first() {
            Some(t) if t.kind == Kind::Ident => self.macro_def(t.sym).is_some() != negate,
            _ => {
                self.diag(at, Severity::Error, "#ifdef without a macro name".into());
                false
            }
        }
    }

    /// Evaluates a `#if` or `#elif` line.
    fn eval_if(&mut self, toks: &[Tok], at: Pos) -> bool {
        let expanded = self.expand_line(toks, true);
        match crate::eval::evaluate(&expanded, self.int) {
            Ok(v) => v != 0,
            Err(e) => {
                self.diag(at, Severity::Error, format!("in #if: {e}"));
                false
            }
        }
    }

    /// Macro-expands a directive's tokens on their own.
    pub fn expand_line(&mut self, toks: &[Tok], in_if: bool) -> Vec<Tok> {
        let was = std::mem::replace(&mut self.in_if, in_if);
        let out = self.expand_isolated(toks.to_vec());
        self.in_if = was;
        out
    }

    fn pragma(&mut self, toks: &[Tok]) {
        let word = toks.first().map(|t| self.int.get(t.sym).to_string());
        match word.as_deref() {
            Some("once") => {
                let path = self.current_path().to_string();
                self.once_add(path);
            }
            Some(op @ ("push_macro" | "pop_macro")) => {
                self.poison_captures();
                // `#pragma push_macro("NAME")`
                let Some(name) = toks
                    .iter()
                    .find(|t| t.kind == Kind::Str)
                    .map(|t| self.int.get(t.sym).trim_matches('"').to_string())
                else {
                    return;
                };
                let sym = self.int.intern(&name);
                if op == "push_macro" {
                    let m = self.macros.get(&sym).cloned();
                    self.pushed.entry(sym).or_default().push(m);
                } else if let Some(m) = self.pushed.get_mut(&sym).and_then(|s| s.pop()) {
                    match m {
                        Some(m) => self.macros.insert(sym, m),
                        None => self.macros.remove(&sym),
                    };
                    self.macros_changed = true;
                }
            }
            _ => {}
        }
    }

    /// `#include` (and `#include_next`, `#import`).
    fn include(
        &mut self,
        toks: &[Tok],
        text: &str,
        at: Pos,
        line_end: u32,
        next: bool,
        import: bool,
    ) {
        let Some((name, quoted)) = self.header_name(toks, text) else {
            self.diag(
                at,
                Severity::Error,
                "#include expects \"FILE\" or <FILE>".into(),
            );
            return;
        };
        if self.frames.len() > MAX_INCLUDE_DEPTH {
            self.poison_captures();
            self.diag(at, Severity::Error, "#include nested too deeply".into());
            return;
        }
        let found = self.find_include(&name, quoted, next);
        let Some((path, found_at, text)) = found else {
            if self.missing_add(&name) {
                let (severity, message) = if quoted {
                    (
                        Severity::Warning,
                        format!("`{name}` not found; its names are unknown"),
                    )
                } else {
                    (
                        Severity::Info,
                        format!(
                            "<{name}> is not in pointee's C library model; its names are unknown"
                        ),
                    )
                };
                self.diag(at, severity, message);
            }
            return;
        };
        if import {
            self.once_add(path.clone());
        }
        self.enter(&path, text, at, found_at, line_end);
    }

    /// Starts reading an included file (unless `#pragma once` or its
    /// include guard says it would do nothing).
    fn enter(&mut self, path: &str, text: Arc<str>, at: Pos, found_at: Option<usize>, resume: u32) {
        if self.once_has(path) {
            return;
        }
        let lexed = self.lex_file(path, text.clone());
        if let Some(g) = &lexed.guard {
            let sym = self.int.intern(g);
            if self.macro_def(sym).is_some() {
                return;
            }
        }
        if self.take_kept(path, &text, found_at, at, resume) {
            return;
        }
        let file = self.new_file(path, Some(at), text);
        self.frames.push(Frame {
            file,
            path: path.to_string(),
            lexed,
            next: 0,
            conds_base: self.conds.len(),
            found_at,
            resume_at: resume,
        });
        self.out.start_file(file);
        self.start_capture(found_at);
    }

    /// The file named by an `#include` line: `"name"` (quoted) or
    /// `<name>`, possibly after macro expansion.
    fn header_name(&mut self, toks: &[Tok], text: &str) -> Option<(String, bool)> {
        let first = toks.first()?;
        if first.kind == Kind::Str {
            let s = self.int.get(first.sym);
            return Some((s.strip_prefix('"')?.strip_suffix('"')?.to_string(), true));
        }
        if first.sym == LESS && first.pos.file == toks[0].pos.file {
            // The raw text up to `>`: a header name is not made of tokens.
            let start = first.pos.range.end as usize;
            let line = &text[start..];
            let line = &line[..line.find('\n').unwrap_or(line.len())];
            let close = line.find('>')?;
            return Some((line[..close].trim().to_string(), false));
        }
        let expanded = self.expand_line(toks, false);
        let first = expanded.first()?;
        if first.kind == Kind::Str {
            let s = self.int.get(first.sym);
            return Some((s.strip_prefix('"')?.strip_suffix('"')?.to_string(), true));
        }
        if first.sym == LESS {
            let mut name = String::new();
            for t in &expanded[1..] {
                if t.sym == GREATER {
                    return Some((name, false));
                }
                if t.has(SPACE) && !name.is_empty() {
                    name.push(' ');
                }
                name.push_str(self.int.get(t.sym));
            }
        }
        None
    }

    /// Finds an included file: its path, where in the search list it was
    /// found (`None`: beside the including file) and its text.
    fn find_include(
        &mut self,
        name: &str,
        quoted: bool,
        next: bool,
    ) -> Option<(String, Option<usize>, Arc<str>)> {
        if name.starts_with('/') {
            let p = crate::normalize(name);
            return self.read(&p).map(|t| (p, None, t));
        }
        let current = self.frames.last();
        let mut start = if quoted { 0 } else { self.angle_start };
        if next {
            if let Some(k) = current.and_then(|f| f.found_at) {
                start = k + 1;
            }
        } else if quoted {
            // Beside the including file first.
            let dir = current.map_or("", |f| crate::parent(&f.path)).to_string();
            let p = crate::join(&dir, name);
            if let Some(t) = self.read(&p) {
                return Some((p, None, t));
            }
        }
        for k in start..self.search.len() {
            let p = crate::join(&self.search[k], name);
            if let Some(t) = self.read(&p) {
                return Some((p, Some(k), t));
            }
        }
        None
    }

    /// Whether `__has_include` finds a file.
    pub(crate) fn find_include_for_test(&mut self, name: &str, quoted: bool, next: bool) -> bool {
        self.find_include(name, quoted, next).is_some()
    }

    /// A `-include` file, found as `#include "FILE"` from the main file.
    fn read_include(&mut self, name: &str) -> Option<(String, Arc<str>)> {
        self.find_include(name, true, false).map(|(p, _, t)| (p, t))
    }

    /// A token made by the preprocessor (stringification, pasting, a
    /// builtin macro), landing at `pos` inside the expansion at `outer`.
    pub fn made_tok(
        &mut self,
        spelling: &str,
        kind: Kind,
        pos: Pos,
        outer: Pos,
        space: bool,
    ) -> Tok {
        Tok {
            sym: self.int.intern(spelling),
            kind,
            flags: IN_MACRO | if space { SPACE } else { 0 },
            pos,
            outer,
        }
    }
}

fn is_hash_sym(kind: Kind, sym: Sym) -> bool {
    kind == Kind::Punct && (sym == HASH || sym == HASH_DIGRAPH)
}

fn is_hash(text: &str, lx: &Lexed) -> bool {
    lx.kind == Kind::Punct && matches!(&text[lx.start as usize..lx.end as usize], "#" | "%:")
}

/// The include guard of a file: `X` when its first tokens are `#ifndef X`
/// (or `#if !defined X`, `#if !defined(X)`) and the matching `#endif` is its
/// last line (the multiple-include optimisation of gcc and clang).
fn include_guard(text: &str, toks: &[Lexed]) -> Option<String> {
    let sp = |k: usize| toks.get(k).map(|t| lex::spelling(text, t));
    let line_start = |k: usize| toks.get(k).is_none_or(|t| t.flags & lex::LINE_START != 0);
    if !is_hash(text, toks.first()?) {
        return None;
    }
    // Where the guard's name is, and the first token after its line.
    let (name, after) = match sp(1)?.as_ref() {
        "ifndef" => (2, 3),
        "if" if sp(2)?.as_ref() == "!" && sp(3)?.as_ref() == "defined" => {
            if sp(4)?.as_ref() == "(" && sp(6)?.as_ref() == ")" {
                (5, 7)
            } else {
                (4, 5)
            }
        }
        _ => return None,
    };
    if toks.get(name)?.kind != Kind::Ident || !line_start(after) {
        return None;
    }
    let name = sp(name)?;
    // The matching #endif must end the file, with no #else or #elif.
    let mut depth = 0usize;
    let mut k = after;
    while k < toks.len() {
        let t = toks[k];
        if t.flags & lex::LINE_START != 0 && is_hash(text, &t) {
            let d = sp(k + 1).filter(|_| !line_start(k + 1));
            match d.as_deref() {
                Some("if" | "ifdef" | "ifndef") => depth += 1,
                Some("elif" | "else" | "elifdef" | "elifndef") if depth == 0 => return None,
                Some("endif") if depth == 0 => {
                    let rest = (k + 1..toks.len())
                        .find(|&j| line_start(j))
                        .unwrap_or(toks.len());
                    return (rest == toks.len()).then(|| name.into_owned());
                }
                Some("endif") => depth -= 1,
                _ => {}
            }
        }
        k += 1;
    }
    None
}
