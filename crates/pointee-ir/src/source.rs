//! The source map: from IR nodes back to byte ranges of one file. Kept apart
//! from the IR so that moving code changes the map but not the IR.

use crate::{Name, Place, SiteId, StmtId, Type};

/// A byte range `start..end` (end-exclusive) in one file's text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Range {
    pub start: u32,
    pub end: u32,
}

impl Range {
    pub fn new(start: usize, end: usize) -> Range {
        Range {
            start: start as u32,
            end: end as u32,
        }
    }
    pub fn contains(&self, offset: u32) -> bool {
        self.start <= offset && offset < self.end
    }
    /// Contains the offset, counting the end itself (a cursor just after a
    /// name still hovers it).
    pub fn touches(&self, offset: u32) -> bool {
        self.start <= offset && offset <= self.end
    }
    pub fn len(&self) -> u32 {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
    /// The same range moved `delta` bytes later.
    pub fn shifted(self, delta: u32) -> Range {
        Range {
            start: self.start + delta,
            end: self.end + delta,
        }
    }
}

/// Where the source of one file's functions and globals is.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceMap {
    /// The file's name as given to the front end.
    pub file: Name,
    pub functions: Vec<FunctionSource>,
    pub globals: Vec<GlobalSource>,
    /// Record and typedef declarations by key (for hover links on fields).
    pub records: Vec<(Name, Range)>,
    /// Things the front end could not model precisely or skipped.
    pub notes: Vec<Note>,
    /// Each outermost macro use and what it expanded to (C).
    pub expansions: Vec<MacroExpansion>,
}

/// A macro use in the file and the text it expanded to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroExpansion {
    pub range: Range,
    pub text: String,
}

impl SourceMap {
    /// Moves every range `delta` bytes later: a map made from a function's
    /// own text becomes the map of that function in its file.
    pub fn shift(&mut self, delta: u32) {
        self.map_ranges(|r| r.shifted(delta));
    }

    /// Moves the ranges that start at or after `at` by `delta` bytes (an
    /// edit before them changed the text's length); those before stay.
    pub fn shift_from(&mut self, at: u32, delta: i64) {
        let moved = |o: u32| (i64::from(o) + delta) as u32;
        self.map_ranges(|r| {
            if r.start >= at {
                Range {
                    start: moved(r.start),
                    end: moved(r.end),
                }
            } else {
                r
            }
        });
    }

    /// Replaces every range of the map by `f` of it.
    fn map_ranges(&mut self, f: impl Fn(Range) -> Range) {
        for fs in &mut self.functions {
            fs.range = f(fs.range);
            fs.name_range = f(fs.name_range);
            for r in fs.vars.iter_mut().chain(fs.stmts.iter_mut()) {
                *r = f(*r);
            }
            for s in &mut fs.sites {
                s.range = f(s.range);
            }
            for e in &mut fs.exprs {
                e.range = f(e.range);
            }
            for c in &mut fs.calls {
                c.range = f(c.range);
                c.callee_range = f(c.callee_range);
            }
        }
        for g in &mut self.globals {
            g.name_range = f(g.name_range);
            for s in &mut g.sites {
                s.range = f(s.range);
            }
        }
        for (_, r) in &mut self.records {
            *r = f(*r);
        }
        for n in &mut self.notes {
            n.range = f(n.range);
        }
        for e in &mut self.expansions {
            e.range = f(e.range);
        }
    }

    /// The innermost pointer expression whose range touches `offset` (the
    /// one a cursor there means), with its function.
    pub fn expr_at(&self, offset: u32) -> Option<(&FunctionSource, &ExprInfo)> {
        innermost(
            self.functions
                .iter()
                .flat_map(|fs| fs.exprs.iter().map(move |e| (fs, e, e.range))),
            offset,
        )
    }

    /// The innermost call whose range touches `offset`, with its function.
    pub fn call_at(&self, offset: u32) -> Option<(&FunctionSource, &CallInfo)> {
        innermost(
            self.functions
                .iter()
                .flat_map(|fs| fs.calls.iter().map(move |c| (fs, c, c.range))),
            offset,
        )
    }

    pub fn function(&self, name: &str) -> Option<&FunctionSource> {
        self.functions.iter().find(|f| &*f.name == name)
    }
    pub fn global(&self, name: &str) -> Option<&GlobalSource> {
        self.globals.iter().find(|g| &*g.name == name)
    }
}

/// The item with the shortest range that touches `offset`; of several with
/// one range (the expressions of one macro use all land on it), the last
/// recorded, which is the outermost.
fn innermost<F, T>(items: impl Iterator<Item = (F, T, Range)>, offset: u32) -> Option<(F, T)> {
    items
        .filter(|(_, _, r)| r.touches(offset))
        .fold(None, |best: Option<(F, T, Range)>, item| match &best {
            Some((_, _, b)) if b.len() < item.2.len() => best,
            _ => Some(item),
        })
        .map(|(f, t, _)| (f, t))
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionSource {
    pub name: Name,
    /// The whole definition.
    pub range: Range,
    /// The function's name in its declarator.
    pub name_range: Range,
    /// Declaration of each variable, by `VarId` (temporaries: the expression
    /// they hold).
    pub vars: Vec<Range>,
    /// Range of each basic statement, by `StmtId`.
    pub stmts: Vec<Range>,
    /// Each site (call, allocation, string, compound literal), by `SiteId`.
    pub sites: Vec<SiteInfo>,
    /// Pointer-typed source expressions and where their value can be read.
    pub exprs: Vec<ExprInfo>,
    /// Calls, for go-to-callee and call hierarchy.
    pub calls: Vec<CallInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobalSource {
    pub name: Name,
    /// The declarator's name.
    pub name_range: Range,
    /// Sites (strings, compound literals) inside the initializer.
    pub sites: Vec<SiteInfo>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SiteInfo {
    pub range: Range,
    pub kind: SiteKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SiteKind {
    Call,
    String,
    Literal,
    New,
}

/// A source expression whose value is a pointer, and the program point where
/// the IR holds that value in `place`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprInfo {
    pub range: Range,
    pub place: Place,
    pub point: Point,
    pub ty: Type,
}

/// A program point next to a basic statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Point {
    /// Just before the statement runs (a read of the expression).
    Before(StmtId),
    /// Just after the statement (the expression was written by it).
    After(StmtId),
}

impl Point {
    pub fn stmt(self) -> StmtId {
        match self {
            Point::Before(s) | Point::After(s) => s,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallInfo {
    /// The whole call expression.
    pub range: Range,
    /// The callee expression (`fp`, `(*fp)`, `s->ops->open`, `obj.m`).
    pub callee_range: Range,
    pub site: SiteId,
    pub stmt: StmtId,
}

/// Something the front end skipped or approximated, for `dump --verbose`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub range: Range,
    pub kind: NoteKind,
    pub message: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum NoteKind {
    /// A construct lowered conservatively (to `unknown`).
    Unsupported,
    /// A preprocessor line or branch that was skipped.
    Preprocessor,
    /// A syntax error; the rest of the file was lowered as far as it goes.
    Syntax,
}

impl NoteKind {
    pub fn as_str(self) -> &'static str {
        match self {
            NoteKind::Unsupported => "unsupported",
            NoteKind::Preprocessor => "preprocessor",
            NoteKind::Syntax => "syntax",
        }
    }
}
