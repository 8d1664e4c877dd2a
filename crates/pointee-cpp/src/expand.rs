//! Macro expansion (C11 6.10.3): invocations and their arguments, argument
//! pre-expansion, `#` and `##`, variadic arguments (with GNU's `, ##
//! __VA_ARGS__` and C23's `__VA_OPT__`), rescanning, and blue paint: a
//! macro is disabled while its expansion is read, and its name met there is
//! never expanded again (gcc's context stack).
//!
//! Positions: a token from a macro's body lands at the macro's use; a token
//! from an argument keeps where it is spelled; every token of an expansion
//! remembers the outermost use (`Tok::outer`).

use crate::lex::{self, Kind};
use crate::macros::{well_known::*, Macro, Pos, Sym, Tok};
use crate::macros::{IN_MACRO, NO_EXPAND, SPACE, SPELLED};
use crate::process::{Ctx, Pp};
use crate::Severity;

/// Marks a `##` of a macro's body (an operator, unlike a `##` that came
/// from an argument).
const PASTE_OP: u16 = 128;

/// Names answered by gcc and clang in `#if` (`__has_attribute(x)`, ...):
/// pointee answers 0, so that code takes its portable branch.
const HAS_QUERIES: [&str; 7] = [
    "__has_attribute",
    "__has_builtin",
    "__has_feature",
    "__has_extension",
    "__has_c_attribute",
    "__has_cpp_attribute",
    "__has_warning",
];

impl Pp<'_> {
    /// The next token from the expansion contexts, else from the current
    /// file; `None` at the end of the file.
    pub(crate) fn raw_next(&mut self) -> Option<Tok> {
        loop {
            if let Some(ctx) = self.contexts.last_mut() {
                if let Some(&t) = ctx.toks.get(ctx.next) {
                    ctx.next += 1;
                    return Some(t);
                }
                self.contexts.pop();
                continue;
            }
            return self.file_token();
        }
    }

    /// Puts back the token `raw_next` returned last (an `End` marker).
    fn unread_end(&mut self) {
        if let Some(ctx) = self.contexts.last_mut() {
            ctx.next -= 1;
        }
    }

    /// Whether a `(` comes next (after a function-like macro's name). Looks
    /// through the ends of expansions (re-enabling their macros, as gcc
    /// does) but not past the end of the current file or of an isolated
    /// token list.
    fn next_is_lparen(&mut self) -> bool {
        loop {
            if let Some(ctx) = self.contexts.last_mut() {
                if let Some(t) = ctx.toks.get(ctx.next) {
                    return t.sym == LPAREN && t.kind == Kind::Punct;
                }
                self.contexts.pop();
                continue;
            }
            self.reading_ahead += 1;
            let next = self.file_token();
            self.reading_ahead -= 1;
            return match next {
                Some(t) => {
                    let yes = t.sym == LPAREN && t.kind == Kind::Punct;
                    self.lookahead = Some(t);
                    yes
                }
                None => false,
            };
        }
    }

    fn is_disabled(&self, name: Sym) -> bool {
        self.contexts.iter().any(|c| c.mac == Some(name))
    }

    /// The next token after macro expansion; `None` at the end of the file.
    pub(crate) fn next_expanded(&mut self) -> Option<Tok> {
        loop {
            let mut t = self.raw_next()?;
            if t.kind != Kind::Ident || t.has(NO_EXPAND) {
                return Some(t);
            }
            if let Some(done) = self.builtin(&t) {
                match done {
                    Some(tok) => return Some(tok),
                    None => continue,
                }
            }
            let Some(m) = self.macro_def(t.sym) else {
                return Some(t);
            };
            if self.is_disabled(t.sym) {
                t.flags |= NO_EXPAND;
                return Some(t);
            }
            let body = if m.is_function() {
                if !self.next_is_lparen() {
                    return Some(t);
                }
                match self.collect_args(&m, &t) {
                    Ok((args, last)) => self.substitute(&m, &t, &args, &last),
                    Err(read) => {
                        // Not an invocation after all (the list does not
                        // end): the tokens stay as they are.
                        t.flags |= NO_EXPAND;
                        let mut toks = vec![t];
                        toks.extend(read);
                        self.contexts.push(Ctx {
                            toks,
                            next: 0,
                            mac: None,
                        });
                        continue;
                    }
                }
            } else {
                self.substitute(&m, &t, &[], &t)
            };
            self.contexts.push(Ctx {
                toks: body,
                next: 0,
                mac: Some(t.sym),
            });
        }
    }

    /// Expands a token list on its own: what it expands to, never reading
    /// past its end.
    pub(crate) fn expand_isolated(&mut self, mut toks: Vec<Tok>) -> Vec<Tok> {
        let end = Tok {
            sym: 0,
            kind: Kind::End,
            flags: 0,
            pos: Pos::default(),
            outer: Pos::default(),
        };
        toks.push(end);
        let depth = self.contexts.len();
        self.contexts.push(Ctx {
            toks,
            next: 0,
            mac: None,
        });
        let mut out = Vec::new();
        // A file's end cannot come first: the `End` marker stops the loop.
        while let Some(t) = self.next_expanded() {
            if t.kind == Kind::End {
                break;
            }
            out.push(t);
        }
        self.contexts.truncate(depth);
        out
    }

    /// The arguments of an invocation whose `(` comes next, and the `)`.
    /// `Err` with the tokens read when the list does not end (at the end of
    /// the file or of an isolated list).
    fn collect_args(&mut self, m: &Macro, name: &Tok) -> Result<(Vec<Vec<Tok>>, Tok), Vec<Tok>> {
        self.reading_ahead += 1;
        let args = self.read_args(m, name);
        self.reading_ahead -= 1;
        args
    }

    /// [`Pp::collect_args`]'s reading.
    fn read_args(&mut self, m: &Macro, name: &Tok) -> Result<(Vec<Vec<Tok>>, Tok), Vec<Tok>> {
        let nparams = m.params.as_ref().map_or(0, |p| p.len());
        let mut read = Vec::new();
        let lparen = self.raw_next().expect("a `(` was seen");
        read.push(lparen);
        let mut args: Vec<Vec<Tok>> = vec![Vec::new()];
        let mut depth = 0;
        loop {
            let t = match self.raw_next() {
                Some(t) if t.kind != Kind::End => t,
                end => {
                    if end.is_some() {
                        self.unread_end();
                    }
                    let n = self.int.get(name.sym).to_string();
                    self.diag(
                        name.outer,
                        Severity::Error,
                        format!("unterminated argument list invoking macro `{n}`"),
                    );
                    return Err(read);
                }
            };
            read.push(t);
            if t.kind == Kind::Punct {
                match t.sym {
                    LPAREN => depth += 1,
                    RPAREN if depth == 0 => break,
                    RPAREN => depth -= 1,
                    COMMA if depth == 0 && !(m.variadic && args.len() == nparams) => {
                        args.push(Vec::new());
                        continue;
                    }
                    _ => {}
                }
            }
            args.last_mut().expect("one argument at least").push(t);
        }
        let rparen = *read.last().expect("the `)`");
        // `f()` passes one empty argument, which is no argument for a
        // macro without parameters.
        if nparams == 0 && args.len() == 1 && args[0].is_empty() {
            args.clear();
        }
        // A variadic macro may be called without its variadic argument.
        if m.variadic && args.len() + 1 == nparams {
            args.push(Vec::new());
        }
        if args.len() != nparams {
            let n = self.int.get(name.sym).to_string();
            self.diag(
                name.outer.to(rparen.outer),
                Severity::Error,
                format!(
                    "macro `{n}` takes {nparams} argument{}, {} given",
                    if nparams == 1 { "" } else { "s" },
                    args.len()
                ),
            );
            return Err(read);
        }
        Ok((args, rparen))
    }

    /// The replacement of one invocation, before rescanning.
    fn substitute(&mut self, m: &Macro, name: &Tok, args: &[Vec<Tok>], last: &Tok) -> Vec<Tok> {
        let (pos, outer) = invocation(name, last);
        let body_tok = |b: &crate::macros::BodyTok| Tok {
            sym: b.sym,
            kind: b.kind,
            flags: IN_MACRO | if b.space { SPACE } else { 0 },
            pos,
            outer,
        };
        let is_paste = |b: &crate::macros::BodyTok| {
            b.kind == Kind::Punct && (b.sym == HASHHASH || b.sym == HASHHASH_DIGRAPH)
        };
        let is_hash = |b: &crate::macros::BodyTok| {
            m.is_function() && b.kind == Kind::Punct && (b.sym == HASH || b.sym == HASH_DIGRAPH)
        };
        let va = if m.variadic {
            args.len().checked_sub(1)
        } else {
            None
        };
        let mut expanded: Vec<Option<Vec<Tok>>> = vec![None; args.len()];
        let mut out: Vec<Tok> = Vec::with_capacity(m.body.len());
        let body = &m.body;
        let mut i = 0;
        while i < body.len() {
            let b = &body[i];
            let prev_paste = i > 0 && is_paste(&body[i - 1]);
            let next_paste = body.get(i + 1).is_some_and(is_paste);
            if is_hash(b) {
                let s = match body.get(i + 1).and_then(|n| n.param) {
                    Some(p) => self.stringify(&args[p as usize]),
                    None => "\"\"".to_string(),
                };
                let t = self.made_tok(&s, Kind::Str, pos, outer, b.space);
                out.push(t);
                i += 2;
                continue;
            }
            if b.sym == VA_OPT && m.variadic && b.kind == Kind::Ident {
                // `__VA_OPT__(tokens)`: the tokens when the variadic
                // argument has any, else nothing.
                if let Some((inner, after)) = va_opt(body, i) {
                    let present = va.is_some_and(|v| !args[v].is_empty());
                    if present {
                        let sub = Macro {
                            params: m.params.clone(),
                            variadic: m.variadic,
                            body: inner.to_vec(),
                            at: m.at,
                        };
                        let mut part = self.substitute(&sub, name, args, last);
                        if let Some(f) = part.first_mut() {
                            f.flags = (f.flags & !SPACE) | if b.space { SPACE } else { 0 };
                        }
                        out.extend(part);
                    } else {
                        out.push(placemarker(pos, outer));
                    }
                    i = after;
                    continue;
                }
            }
            let Some(p) = b.param else {
                let mut t = body_tok(b);
                if is_paste(b) {
                    t.flags |= PASTE_OP;
                }
                out.push(t);
                i += 1;
                continue;
            };
            let p = p as usize;
            // GNU: `, ## __VA_ARGS__` drops the comma when the variadic
            // argument is empty, and pastes nothing otherwise.
            if prev_paste && Some(p) == va && out.len() >= 2 {
                let comma = out[out.len() - 2];
                if comma.sym == COMMA && comma.kind == Kind::Punct && !comma.has(SPELLED) {
                    out.pop(); // the `##`
                    if args[p].is_empty() {
                        out.pop(); // the `,`
                    } else {
                        out.extend(self.arg_toks(&args[p], outer, b.space));
                    }
                    i += 1;
                    continue;
                }
            }
            let toks = if prev_paste || next_paste {
                self.arg_toks(&args[p], outer, b.space)
            } else {
                if expanded[p].is_none() {
                    expanded[p] = Some(self.expand_isolated(args[p].clone()));
                }
                let e = expanded[p].as_deref().unwrap_or(&[]);
                self.arg_toks(e, outer, b.space)
            };
            if toks.is_empty() {
                out.push(placemarker(pos, outer));
            } else {
                out.extend(toks);
            }
            i += 1;
        }
        let mut out = self.paste_all(out, pos, outer);
        out.retain(|t| t.kind != Kind::Placemarker);
        if let Some(f) = out.first_mut() {
            f.flags = (f.flags & !SPACE) | (name.flags & SPACE);
        }
        out
    }

    /// An argument's tokens as substituted: inside the expansion at `outer`.
    fn arg_toks(&self, toks: &[Tok], outer: Pos, space: bool) -> Vec<Tok> {
        toks.iter()
            .enumerate()
            .map(|(k, t)| {
                let mut t = *t;
                t.outer = outer;
                t.flags |= IN_MACRO;
                if k == 0 {
                    t.flags = (t.flags & !SPACE) | if space { SPACE } else { 0 };
                }
                t
            })
            .collect()
    }

    /// Carries out the `##` operators of a replacement, left to right.
    fn paste_all(&mut self, toks: Vec<Tok>, pos: Pos, outer: Pos) -> Vec<Tok> {
        if !toks.iter().any(|t| t.has(PASTE_OP)) {
            return toks;
        }
        let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
        let mut it = toks.into_iter();
        while let Some(t) = it.next() {
            if !t.has(PASTE_OP) {
                out.push(t);
                continue;
            }
            let Some(rhs) = it.next() else { break };
            let Some(lhs) = out.pop() else {
                out.push(rhs);
                continue;
            };
            out.extend(self.paste(lhs, rhs, pos, outer));
        }
        out
    }

    /// `lhs ## rhs`: one token, or both unchanged when the spelling is not
    /// one token (gcc's error, then goes on).
    fn paste(&mut self, lhs: Tok, rhs: Tok, pos: Pos, outer: Pos) -> Vec<Tok> {
        if lhs.kind == Kind::Placemarker {
            return vec![rhs];
        }
        if rhs.kind == Kind::Placemarker {
            return vec![lhs];
        }
        let text = format!("{}{}", self.int.get(lhs.sym), self.int.get(rhs.sym));
        let toks = lex::lex(&text);
        if toks.len() == 1 && toks[0].start == 0 && toks[0].end as usize == text.len() {
            let mut t = self.made_tok(&text, toks[0].kind, pos, outer, lhs.has(SPACE));
            // A name made by pasting may be expanded again unless painted.
            t.flags |= lhs.flags & rhs.flags & NO_EXPAND;
            return vec![t];
        }
        self.diag(
            outer,
            Severity::Warning,
            format!("pasting makes `{text}`, which is not one token"),
        );
        vec![lhs, rhs]
    }

    /// `#arg`: the argument's spelling as a string literal.
    fn stringify(&self, toks: &[Tok]) -> String {
        let mut s = String::from("\"");
        for (k, t) in toks.iter().enumerate() {
            if k > 0 && t.has(SPACE) {
                s.push(' ');
            }
            let spelled = self.int.get(t.sym);
            if matches!(t.kind, Kind::Str | Kind::Char) {
                for c in spelled.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
            } else {
                s.push_str(spelled);
            }
        }
        s.push('"');
        s
    }

    /// A builtin macro or operator at `t`: `Some(Some(tok))` replaced by a
    /// token, `Some(None)` consumed, `None` not a builtin here.
    fn builtin(&mut self, t: &Tok) -> Option<Option<Tok>> {
        // A user's definition of a builtin name wins (gcc warns); most
        // names are no builtin (the builtins have the first symbols).
        if (t.sym > LAST_BUILTIN && !(self.in_if && HAS_QUERIES.contains(&self.int.get(t.sym))))
            || self.macro_def(t.sym).is_some()
        {
            return None;
        }
        let at = if t.has(SPELLED) { t.pos } else { t.outer };
        let string = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
        let made = match t.sym {
            FILE => {
                let s = string(self.current_path());
                (s, Kind::Str)
            }
            BASE_FILE => {
                self.poison_captures();
                (string(self.main_path()), Kind::Str)
            }
            LINE => {
                self.line_used = true;
                self.note_line_used();
                (self.line_of(at).to_string(), Kind::Number)
            }
            COUNTER => {
                self.poison_captures();
                self.counter += 1;
                ((self.counter - 1).to_string(), Kind::Number)
            }
            INCLUDE_LEVEL => {
                self.poison_captures();
                (self.include_level().to_string(), Kind::Number)
            }
            PRAGMA_OP => {
                // `_Pragma("...")`: dropped with its operand.
                if self.next_is_lparen() {
                    let m = Macro {
                        params: Some(vec![VA_ARGS]),
                        variadic: true,
                        body: Vec::new(),
                        at: t.pos,
                    };
                    let _ = self.collect_args(&m, t);
                    return Some(None);
                }
                return None;
            }
            DEFINED if self.in_if => {
                let v = self.defined_operator(t);
                (v.to_string(), Kind::Number)
            }
            HAS_INCLUDE | HAS_INCLUDE_NEXT if self.in_if => {
                let v = self.has_include(t, t.sym == HAS_INCLUDE_NEXT);
                (v.to_string(), Kind::Number)
            }
            _ if self.in_if && HAS_QUERIES.contains(&self.int.get(t.sym)) => {
                if self.next_is_lparen() {
                    let m = Macro {
                        params: Some(vec![VA_ARGS]),
                        variadic: true,
                        body: Vec::new(),
                        at: t.pos,
                    };
                    let _ = self.collect_args(&m, t);
                }
                ("0".to_string(), Kind::Number)
            }
            _ => return None,
        };
        let mut tok = self.made_tok(&made.0, made.1, at, t.outer, t.has(SPACE));
        if !t.has(IN_MACRO) {
            tok.flags &= !IN_MACRO;
            tok.outer = tok.pos;
        }
        Some(Some(tok))
    }

    /// `defined X` or `defined ( X )` in `#if`: 1 or 0.
    fn defined_operator(&mut self, at: &Tok) -> u8 {
        let mut name = self.raw_next();
        let paren = name.is_some_and(|t| t.sym == LPAREN);
        if paren {
            name = self.raw_next();
        }
        let Some(n) = name.filter(|n| n.kind == Kind::Ident) else {
            if name.is_some_and(|n| n.kind == Kind::End) {
                self.unread_end();
            }
            self.diag(
                at.pos,
                Severity::Error,
                "`defined` without a macro name".into(),
            );
            return 0;
        };
        if paren {
            match self.raw_next() {
                Some(t) if t.sym == RPAREN => {}
                other => {
                    if other.is_some_and(|t| t.kind == Kind::End) {
                        self.unread_end();
                    }
                    self.diag(
                        at.pos,
                        Severity::Error,
                        "missing `)` after `defined`".into(),
                    );
                }
            }
        }
        self.macro_def(n.sym).is_some() as u8
    }

    /// `__has_include("x")` or `__has_include(<x>)` in `#if`: 1 or 0.
    fn has_include(&mut self, at: &Tok, next: bool) -> u8 {
        if !self.next_is_lparen() {
            self.diag(
                at.pos,
                Severity::Error,
                "`__has_include` without `(`".into(),
            );
            return 0;
        }
        let m = Macro {
            params: Some(vec![VA_ARGS]),
            variadic: true,
            body: Vec::new(),
            at: at.pos,
        };
        let Ok((args, _)) = self.collect_args(&m, at) else {
            return 0;
        };
        let toks = args.into_iter().next().unwrap_or_default();
        let toks = if toks.first().is_some_and(|t| t.kind == Kind::Ident) {
            self.expand_isolated(toks)
        } else {
            toks
        };
        let Some(first) = toks.first() else { return 0 };
        let (name, quoted) = if first.kind == Kind::Str {
            let s = self.int.get(first.sym);
            (s.trim_matches('"').to_string(), true)
        } else if first.sym == LESS {
            let mut name = String::new();
            for t in &toks[1..] {
                if t.sym == GREATER {
                    break;
                }
                name.push_str(self.int.get(t.sym));
            }
            (name, false)
        } else {
            return 0;
        };
        self.find_include_for_test(&name, quoted, next) as u8
    }
}

/// Where an invocation from `name` to `last` lands: a range of the text
/// when both ends are spelled at one level (both in a file, or both in the
/// arguments of one outer use); otherwise the outermost uses they came
/// from. Also the outermost use of the whole.
fn invocation(name: &Tok, last: &Tok) -> (Pos, Pos) {
    let outer = name.outer.to(last.outer);
    let same_level = name.has(SPELLED)
        && last.has(SPELLED)
        && name.has(IN_MACRO) == last.has(IN_MACRO)
        && (!name.has(IN_MACRO) || name.outer == last.outer);
    let pos = if same_level {
        name.pos.to(last.pos)
    } else {
        outer
    };
    (pos, outer)
}

fn placemarker(pos: Pos, outer: Pos) -> Tok {
    Tok {
        sym: 0,
        kind: Kind::Placemarker,
        flags: IN_MACRO,
        pos,
        outer,
    }
}

/// The tokens inside `__VA_OPT__ ( ... )` at `i`, and the index after it.
fn va_opt(body: &[crate::macros::BodyTok], i: usize) -> Option<(&[crate::macros::BodyTok], usize)> {
    if body.get(i + 1)?.sym != LPAREN {
        return None;
    }
    let mut depth = 0;
    for (k, b) in body.iter().enumerate().skip(i + 1) {
        if b.kind == Kind::Punct && b.sym == LPAREN {
            depth += 1;
        } else if b.kind == Kind::Punct && b.sym == RPAREN {
            depth -= 1;
            if depth == 0 {
                return Some((&body[i + 2..k], k + 1));
            }
        }
    }
    None
}
