//! Macro definitions: tokens in flight, the interner of their spellings, and
//! reading a `#define` line into a [`Macro`].

use crate::lex::Kind;
use crate::{FileId, Range};
use pointee_ir::fxhash::FxHashMap;
use std::sync::Arc;

/// An interned spelling.
pub(crate) type Sym = u32;

/// Where a token lands in the user's text: a range of one inclusion.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Pos {
    pub file: FileId,
    pub range: Range,
}

impl Pos {
    /// The range from `self`'s start to `end`'s end when both are in one
    /// file and in order; `self` otherwise.
    pub fn to(self, end: Pos) -> Pos {
        if self.file == end.file && self.range.start <= end.range.end {
            Pos {
                file: self.file,
                range: Range::new(self.range.start, end.range.end.max(self.range.end)),
            }
        } else {
            self
        }
    }
}

/// Whitespace comes before the token (from the lexer).
pub(crate) const SPACE: u16 = crate::lex::SPACE as u16;
/// First on its line (from the lexer).
pub(crate) const LINE_START: u16 = crate::lex::LINE_START as u16;
/// `pos` is where the token is spelled (written in a file, possibly as a
/// macro argument); otherwise `pos` is a macro use that produced it.
pub(crate) const SPELLED: u16 = 8;
/// The token came out of a macro expansion; `outer` is the outermost use.
pub(crate) const IN_MACRO: u16 = 16;
/// Painted blue: the name of a macro met inside its own expansion, never
/// to be expanded (C11 6.10.3.4p2).
pub(crate) const NO_EXPAND: u16 = 32;
/// The spelling contains a backslash-newline (from the lexer).
pub(crate) const SPLICED: u16 = 64;

/// A preprocessing token in flight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok {
    pub sym: Sym,
    pub kind: Kind,
    pub flags: u16,
    /// Where it lands in the user's text (see `SPELLED`).
    pub pos: Pos,
    /// The outermost macro use it came from (`pos` when not `IN_MACRO`).
    pub outer: Pos,
}

impl Tok {
    pub fn has(&self, flag: u16) -> bool {
        self.flags & flag != 0
    }
}

/// A `#define`d macro.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Macro {
    /// Parameter names of a function-like macro (the variadic one last,
    /// `__VA_ARGS__` unless named as in GNU `args...`).
    pub params: Option<Vec<Sym>>,
    pub variadic: bool,
    /// The replacement list; `param` says which parameter a token names.
    pub body: Vec<BodyTok>,
    /// Where it is defined (the name in the `#define`), for hover and dumps.
    pub at: Pos,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BodyTok {
    pub sym: Sym,
    pub kind: Kind,
    /// Only `SPACE` matters in a body.
    pub space: bool,
    pub param: Option<u16>,
}

impl Macro {
    pub fn is_function(&self) -> bool {
        self.params.is_some()
    }
}

/// The macros defined at a point: a name's definition, by interned name.
pub(crate) type Macros = FxHashMap<Sym, Arc<Macro>>;

/// Interned spellings. Punctuators and keywords the preprocessor asks about
/// get fixed numbers ([`well_known`]).
#[derive(Debug, Default)]
pub(crate) struct Interner {
    map: FxHashMap<Arc<str>, Sym>,
    names: Vec<Arc<str>>,
}

impl Interner {
    pub fn new() -> Interner {
        let mut i = Interner::default();
        for w in WELL_KNOWN {
            i.intern(w);
        }
        i
    }

    pub fn intern(&mut self, s: &str) -> Sym {
        if let Some(&id) = self.map.get(s) {
            return id;
        }
        let id = self.names.len() as Sym;
        let a: Arc<str> = s.into();
        self.names.push(a.clone());
        self.map.insert(a, id);
        id
    }

    pub fn get(&self, s: Sym) -> &str {
        &self.names[s as usize]
    }
}

/// Spellings with fixed symbols, in this order.
const WELL_KNOWN: [&str; 21] = [
    "(",
    ")",
    ",",
    "#",
    "##",
    "...",
    "__VA_ARGS__",
    "defined",
    "__FILE__",
    "__LINE__",
    "__COUNTER__",
    "__INCLUDE_LEVEL__",
    "__BASE_FILE__",
    "_Pragma",
    "__has_include",
    "__has_include_next",
    "%:",
    "%:%:",
    "<",
    ">",
    "__VA_OPT__",
];

/// The fixed symbols of [`WELL_KNOWN`].
pub(crate) mod well_known {
    use super::Sym;
    pub const LPAREN: Sym = 0;
    pub const RPAREN: Sym = 1;
    pub const COMMA: Sym = 2;
    pub const HASH: Sym = 3;
    pub const HASHHASH: Sym = 4;
    pub const ELLIPSIS: Sym = 5;
    pub const VA_ARGS: Sym = 6;
    pub const DEFINED: Sym = 7;
    pub const FILE: Sym = 8;
    pub const LINE: Sym = 9;
    pub const COUNTER: Sym = 10;
    pub const INCLUDE_LEVEL: Sym = 11;
    pub const BASE_FILE: Sym = 12;
    pub const PRAGMA_OP: Sym = 13;
    pub const HAS_INCLUDE: Sym = 14;
    pub const HAS_INCLUDE_NEXT: Sym = 15;
    pub const HASH_DIGRAPH: Sym = 16;
    pub const HASHHASH_DIGRAPH: Sym = 17;
    pub const LESS: Sym = 18;
    pub const GREATER: Sym = 19;
    pub const VA_OPT: Sym = 20;
    /// Symbols up to this one may name a builtin macro or operator.
    pub const LAST_BUILTIN: Sym = VA_OPT;
}

/// Why a `#define` line is not a definition.
pub(crate) struct BadDefine(pub &'static str);

/// Reads a `#define`'s tokens after the directive name: the macro's name
/// and definition.
pub(crate) fn parse_define(toks: &[Tok], at: Pos) -> Result<(Sym, Macro), BadDefine> {
    use well_known::*;
    let Some(name) = toks.first() else {
        return Err(BadDefine("macro name missing"));
    };
    if name.kind != Kind::Ident {
        return Err(BadDefine("macro names must be identifiers"));
    }
    if name.sym == DEFINED {
        return Err(BadDefine("`defined` cannot be used as a macro name"));
    }
    let mut i = 1;
    let mut params = None;
    let mut variadic = false;
    // A function-like macro has `(` right after its name, no space between.
    if toks
        .get(1)
        .is_some_and(|t| t.sym == LPAREN && !t.has(SPACE))
    {
        let mut ps = Vec::new();
        i = 2;
        loop {
            let Some(t) = toks.get(i) else {
                return Err(BadDefine("missing `)` in the macro's parameter list"));
            };
            i += 1;
            match (t.kind, t.sym) {
                (_, RPAREN) if ps.is_empty() && !variadic => break,
                (_, ELLIPSIS) => {
                    variadic = true;
                    ps.push(VA_ARGS);
                    if toks.get(i).map(|t| t.sym) != Some(RPAREN) {
                        return Err(BadDefine("`...` must be the last parameter"));
                    }
                    i += 1;
                    break;
                }
                (Kind::Ident, p) => {
                    if ps.contains(&p) {
                        return Err(BadDefine("duplicate macro parameter"));
                    }
                    ps.push(p);
                    match toks.get(i).map(|t| t.sym) {
                        Some(COMMA) => i += 1,
                        Some(RPAREN) => {
                            i += 1;
                            break;
                        }
                        // GNU `args...`: a named variadic parameter.
                        Some(ELLIPSIS) if toks.get(i + 1).map(|t| t.sym) == Some(RPAREN) => {
                            variadic = true;
                            i += 2;
                            break;
                        }
                        _ => return Err(BadDefine("expected `,` or `)` in the parameter list")),
                    }
                }
                _ => return Err(BadDefine("expected a parameter name")),
            }
        }
        params = Some(ps);
    }
    let body: Vec<BodyTok> = toks[i..]
        .iter()
        .enumerate()
        .map(|(k, t)| BodyTok {
            sym: t.sym,
            kind: t.kind,
            space: k > 0 && t.has(SPACE),
            param: params.as_ref().and_then(|ps: &Vec<Sym>| {
                (t.kind == Kind::Ident)
                    .then(|| ps.iter().position(|&p| p == t.sym))
                    .flatten()
                    .map(|p| p as u16)
            }),
        })
        .collect();
    let is_hash = |b: &BodyTok| b.sym == HASH || b.sym == HASH_DIGRAPH;
    let is_paste = |b: &BodyTok| b.sym == HASHHASH || b.sym == HASHHASH_DIGRAPH;
    if body.first().is_some_and(is_paste) || body.last().is_some_and(is_paste) {
        return Err(BadDefine("`##` cannot be at either end of a macro"));
    }
    if params.is_some() {
        for (k, b) in body.iter().enumerate() {
            if is_hash(b)
                && body
                    .get(k + 1)
                    .is_none_or(|n| n.param.is_none() && n.sym != VA_OPT)
            {
                return Err(BadDefine("`#` is not followed by a macro parameter"));
            }
        }
    }
    if !variadic && body.iter().any(|b| b.sym == VA_ARGS) {
        return Err(BadDefine(
            "`__VA_ARGS__` can only appear in the expansion of a variadic macro",
        ));
    }
    Ok((
        name.sym,
        Macro {
            params,
            variadic,
            body,
            at,
        },
    ))
}
