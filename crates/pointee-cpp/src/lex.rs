//! Preprocessing tokens of one file's text (C11 6.4): identifiers, pp-numbers,
//! character and string literals, punctuators and stray characters, each
//! with its byte range and whether whitespace or a line start precedes it.
//! Comments are whitespace; a backslash-newline joins lines. Lexing never
//! fails: what is not a token is a one-character `Other`.

/// What kind of preprocessing token.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Ident,
    Number,
    Char,
    Str,
    Punct,
    Other,
    /// An empty argument or the result of pasting two of them (C11
    /// 6.10.3.3); never leaves the expander.
    Placemarker,
    /// The end of a token list read on its own (a macro argument being
    /// expanded, a directive's line); never leaves the expander.
    End,
}

/// Whitespace (or a comment) comes before the token.
pub(crate) const SPACE: u8 = 1;
/// The token is the first on its line (a `#` here starts a directive).
pub(crate) const LINE_START: u8 = 2;
/// The token's text contains a backslash-newline, so its spelling is not
/// its source text.
pub(crate) const SPLICED: u8 = 4;

/// One token of a file: its kind, flags and byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub kind: Kind,
    pub flags: u8,
    pub start: u32,
    pub end: u32,
}

/// The tokens of `text`, in order.
pub(crate) fn lex(text: &str) -> Vec<Lexed> {
    let mut out = Vec::with_capacity(text.len() / 5);
    lex_from(text.as_bytes(), 0, LINE_START, &mut |t| {
        out.push(t);
        true
    });
    out
}

/// Lexes `b` from byte `i` with `flags` for the next token (the state
/// between two tokens: after a token it is always `(its end, 0)`), giving
/// each token to `on` until it answers `false`.
fn lex_from(b: &[u8], mut i: usize, mut flags: u8, on: &mut impl FnMut(Lexed) -> bool) {
    while i < b.len() {
        let c = b[i];
        match c {
            b'\n' => {
                flags = LINE_START | SPACE;
                i += 1;
            }
            b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => {
                flags |= SPACE;
                i += 1;
            }
            b'\\' if splice_len(b, i) > 0 => {
                i += splice_len(b, i);
            }
            b'/' if peek(b, i + 1) == Some(b'*') => {
                i = block_comment_end(b, i + 2);
                flags |= SPACE;
            }
            b'/' if peek(b, i + 1) == Some(b'/') => {
                i = line_end(b, i + 2);
                flags |= SPACE;
            }
            _ => {
                let start = i;
                let (kind, end) = token(b, i);
                let spliced = b[start..end].contains(&b'\\') && has_splice(&b[start..end]);
                let more = on(Lexed {
                    kind,
                    flags: flags | if spliced { SPLICED } else { 0 },
                    start: start as u32,
                    end: end as u32,
                });
                if !more {
                    return;
                }
                flags = 0;
                i = end;
            }
        }
    }
}

/// The tokens of `new`, an edit of `old` whose tokens are `toks`, lexed
/// only around the edit: the tokens of the lines above the edit's are
/// kept, lexing starts after them and stops at the first token past the
/// edit that an old token (moved by the edit's change of length) equals,
/// since the lexer's state after a token depends on the text after it
/// only. What it gives: the tokens, how many leading ones are `toks`'
/// first ones, and from which old token on the rest are `toks`' (moved).
pub(crate) fn lex_edited(old: &str, toks: &[Lexed], new: &str) -> (Vec<Lexed>, usize, usize) {
    let b = new.as_bytes();
    let (same, old_end, new_end) = crate::changed_range(old.as_bytes(), b);
    let delta = new_end as i64 - old_end as i64;
    // Restart after a newline above the edit that no backslash splices
    // (a token's end may look ahead up to the end of its line).
    let mut line = b[..same].iter().rposition(|&c| c == b'\n').unwrap_or(0);
    while line > 0 && splice_before(b, line) {
        line = b[..line].iter().rposition(|&c| c == b'\n').unwrap_or(0);
    }
    let keep = if line == 0 {
        0
    } else {
        toks.partition_point(|t| (t.end as usize) <= line)
    };
    let (from, flags) = match keep {
        0 => (0, LINE_START),
        k => (toks[k - 1].end as usize, 0),
    };
    let mut out: Vec<Lexed> = Vec::with_capacity(toks.len() + 16);
    out.extend_from_slice(&toks[..keep]);
    let mut old_at = keep;
    let mut resumed = toks.len();
    lex_from(b, from, flags, &mut |t| {
        if t.start as usize >= new_end {
            let was = i64::from(t.start) - delta;
            while old_at < toks.len() && i64::from(toks[old_at].start) < was {
                old_at += 1;
            }
            if let Some(o) = toks.get(old_at) {
                let moved = |x: u32| (i64::from(x) + delta) as u32;
                if (o.kind, o.flags, moved(o.start), moved(o.end))
                    == (t.kind, t.flags, t.start, t.end)
                {
                    resumed = old_at;
                    return false;
                }
            }
        }
        out.push(t);
        true
    });
    let moved = |x: u32| (i64::from(x) + delta) as u32;
    out.extend(toks[resumed..].iter().map(|o| Lexed {
        start: moved(o.start),
        end: moved(o.end),
        ..*o
    }));
    (out, keep, resumed)
}

/// Whether the newline at `nl` ends a line whose last other characters
/// are a backslash and spaces (a backslash-newline).
fn splice_before(b: &[u8], nl: usize) -> bool {
    let mut j = nl;
    if j > 0 && b[j - 1] == b'\r' {
        j -= 1;
    }
    while j > 0 && (b[j - 1] == b' ' || b[j - 1] == b'\t') {
        j -= 1;
    }
    j > 0 && b[j - 1] == b'\\'
}

/// The length of a backslash-newline at `i` (0 when there is none).
/// Trailing spaces between the backslash and the newline are accepted, as
/// gcc does.
fn splice_len(b: &[u8], i: usize) -> usize {
    let mut j = i + 1;
    while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
        j += 1;
    }
    match (peek(b, j), peek(b, j + 1)) {
        (Some(b'\n'), _) => j + 1 - i,
        (Some(b'\r'), Some(b'\n')) => j + 2 - i,
        _ => 0,
    }
}

fn has_splice(b: &[u8]) -> bool {
    (0..b.len()).any(|i| b[i] == b'\\' && splice_len(b, i) > 0)
}

fn peek(b: &[u8], i: usize) -> Option<u8> {
    b.get(i).copied()
}

/// The byte at `i` after skipping backslash-newlines, and where it is.
fn at(b: &[u8], mut i: usize) -> Option<(u8, usize)> {
    loop {
        let c = *b.get(i)?;
        if c == b'\\' {
            let n = splice_len(b, i);
            if n > 0 {
                i += n;
                continue;
            }
        }
        return Some((c, i));
    }
}

fn block_comment_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if b[i] == b'*' {
            if let Some((b'/', j)) = at(b, i + 1) {
                return j + 1;
            }
        }
        i += 1;
    }
    b.len()
}

/// The end of a `//` comment: the newline not preceded by a backslash.
fn line_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\n' => return i,
            b'\\' if splice_len(b, i) > 0 => i += splice_len(b, i),
            _ => i += 1,
        }
    }
    b.len()
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b'$' || c >= 0x80
}

fn is_ident_char(c: u8) -> bool {
    is_ident_start(c) || c.is_ascii_digit()
}

/// The token starting at `i`: its kind and end.
fn token(b: &[u8], i: usize) -> (Kind, usize) {
    let c = b[i];
    if is_ident_start(c) {
        // An encoding prefix makes a literal: L'x', u8"x", U"x".
        let end = ident_end(b, i);
        if let Some((q, qi)) = at(b, end) {
            if (q == b'"' || q == b'\'') && is_literal_prefix(b, i, end) {
                return literal(b, qi, q);
            }
        }
        return (Kind::Ident, end);
    }
    if c.is_ascii_digit() || (c == b'.' && at(b, i + 1).is_some_and(|(d, _)| d.is_ascii_digit())) {
        return (Kind::Number, number_end(b, i));
    }
    if c == b'"' || c == b'\'' {
        return literal(b, i, c);
    }
    if let Some(n) = punct_len(b, i) {
        return (Kind::Punct, n);
    }
    // One character (a whole UTF-8 sequence).
    let mut end = i + 1;
    while end < b.len() && (b[end] & 0xc0) == 0x80 {
        end += 1;
    }
    (Kind::Other, end)
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    loop {
        match at(b, i) {
            Some((c, j)) if is_ident_char(c) => i = j + 1,
            _ => return i,
        }
    }
}

fn is_literal_prefix(b: &[u8], start: usize, end: usize) -> bool {
    let word: Vec<u8> = b[start..end]
        .iter()
        .copied()
        .filter(|&c| c != b'\\' && c != b'\n' && c != b'\r')
        .collect();
    matches!(&word[..], b"L" | b"u" | b"U" | b"u8")
}

fn number_end(b: &[u8], mut i: usize) -> usize {
    // pp-number: digit or .digit, then digits, identifier characters,
    // periods, exponent signs and digit separators.
    i += 1;
    loop {
        let Some((c, j)) = at(b, i) else { return i };
        if matches!(c, b'+' | b'-') {
            let prev = prev_char(b, i);
            if matches!(prev, Some(b'e' | b'E' | b'p' | b'P')) {
                i = j + 1;
                continue;
            }
            return i;
        }
        if is_ident_char(c) || c == b'.' || (c == b'\'' && next_is_ident_char(b, j + 1)) {
            i = j + 1;
            continue;
        }
        return i;
    }
}

fn next_is_ident_char(b: &[u8], i: usize) -> bool {
    at(b, i).is_some_and(|(c, _)| is_ident_char(c))
}

/// The last character before `i`, skipping backslash-newlines backwards.
fn prev_char(b: &[u8], i: usize) -> Option<u8> {
    let mut j = i;
    while j > 0 {
        j -= 1;
        match b[j] {
            b'\n' | b'\r' => {
                // Skip a backslash-newline backwards.
                while j > 0 && matches!(b[j - 1], b'\r' | b' ' | b'\t') {
                    j -= 1;
                }
                if j > 0 && b[j - 1] == b'\\' {
                    j -= 1;
                    continue;
                }
                return Some(b[j]);
            }
            c => return Some(c),
        }
    }
    None
}

/// A character or string literal from its opening quote at `q` to the
/// closing one (or the end of the line, for an unterminated one).
fn literal(b: &[u8], q: usize, quote: u8) -> (Kind, usize) {
    let kind = if quote == b'"' { Kind::Str } else { Kind::Char };
    let mut i = q + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                let n = splice_len(b, i);
                i += if n > 0 { n } else { 2 };
            }
            b'\n' => return (kind, i),
            c if c == quote => return (kind, i + 1),
            _ => i += 1,
        }
    }
    (kind, b.len())
}

const PUNCTS3: [&[u8]; 3] = [b"...", b"<<=", b">>="];
const PUNCTS2: [&[u8]; 25] = [
    b"->", b"++", b"--", b"<<", b">>", b"<=", b">=", b"==", b"!=", b"&&", b"||", b"*=", b"/=",
    b"%=", b"+=", b"-=", b"&=", b"^=", b"|=", b"##", b"<:", b":>", b"<%", b"%>", b"%:",
];

/// The end of the punctuator at `i`, longest match first.
fn punct_len(b: &[u8], i: usize) -> Option<usize> {
    // Punctuators never contain a backslash-newline in real code; they are
    // matched on the raw bytes.
    if b[i..].starts_with(b"%:%:") {
        return Some(i + 4);
    }
    for p in PUNCTS3 {
        if b[i..].starts_with(p) {
            return Some(i + 3);
        }
    }
    for p in PUNCTS2 {
        if b[i..].starts_with(p) {
            return Some(i + 2);
        }
    }
    if b"[](){}.&*+-~!/%<>^|?:;=,#".contains(&b[i]) {
        return Some(i + 1);
    }
    None
}

/// A token's spelling: its source text without backslash-newlines.
pub(crate) fn spelling<'t>(text: &'t str, t: &Lexed) -> std::borrow::Cow<'t, str> {
    let raw = &text[t.start as usize..t.end as usize];
    if t.flags & SPLICED == 0 {
        return std::borrow::Cow::Borrowed(raw);
    }
    let b = raw.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let n = if b[i] == b'\\' { splice_len(b, i) } else { 0 };
        if n > 0 {
            i += n;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    std::borrow::Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// Where the line holding `from` ends (its newline), backslash-newlines
/// joined.
pub(crate) fn line_end_of(text: &str, from: usize) -> usize {
    line_end(text.as_bytes(), from)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lexing again around an edit gives the tokens lexing the whole new
    /// text gives, and reuses the old ones it says it reuses, for edits at
    /// every place that open or close comments, literals and splices.
    #[test]
    fn lexing_around_an_edit_equals_lexing_the_whole_text() {
        let old = "#define F(x) ((x)->next) /* a\n comment */\nint a = 1; // line \\\n  still comment\nchar *s = \"q\\\"uote\";\nint long_na\\\nme = 0x1e+5; x... y %:%: z\n  #if A\nf(a, b);\n#endif\n";
        let inserts = [
            "", "x", " ", "\n", "/*", "*/", "//", "\"", "'", "\\\n", "\\", "#", "1e", "+",
        ];
        for at in 0..=old.len() {
            for len in [0, 1, 3] {
                let end = (at + len).min(old.len());
                for with in inserts {
                    let new = format!("{}{with}{}", &old[..at], &old[end..]);
                    let toks = lex(old);
                    let (edited, kept, resumed) = lex_edited(old, &toks, &new);
                    assert_eq!(edited, lex(&new), "{at} {len} {with:?}");
                    assert_eq!(edited[..kept], toks[..kept]);
                    assert!(toks.len() - resumed <= edited.len() - kept);
                }
            }
        }
        // An edit inside a line lexes that line, not the whole text.
        let at = old.find("f(a").expect("in the text");
        let new = format!("{}g{}", &old[..at], &old[at..]);
        let toks = lex(old);
        let (_, kept, resumed) = lex_edited(old, &toks, &new);
        let line = |i: usize| old[..toks[i].start as usize].matches('\n').count();
        let spell = |i: usize| spelling(old, &toks[i]).into_owned();
        assert_eq!(
            (line(kept), line(resumed)),
            (8, 8),
            "{kept} {resumed} {:?} {:?}",
            spell(kept),
            spell(resumed)
        );
    }

    fn kinds(text: &str) -> Vec<(Kind, String)> {
        lex(text)
            .iter()
            .map(|t| (t.kind, spelling(text, t).into_owned()))
            .collect()
    }

    #[test]
    fn tokens_of_each_kind() {
        use Kind::*;
        assert_eq!(
            kinds("int x = 0x1fUL + .5e+3 - 'a' ; s = L\"w\" u8\"x\" @"),
            vec![
                (Ident, "int".into()),
                (Ident, "x".into()),
                (Punct, "=".into()),
                (Number, "0x1fUL".into()),
                (Punct, "+".into()),
                (Number, ".5e+3".into()),
                (Punct, "-".into()),
                (Char, "'a'".into()),
                (Punct, ";".into()),
                (Ident, "s".into()),
                (Punct, "=".into()),
                (Str, "L\"w\"".into()),
                (Str, "u8\"x\"".into()),
                (Other, "@".into()),
            ]
        );
    }

    #[test]
    fn longest_punctuator_wins() {
        let spelled: Vec<String> = kinds("a<<=b->c...d##e").into_iter().map(|k| k.1).collect();
        assert_eq!(spelled, ["a", "<<=", "b", "->", "c", "...", "d", "##", "e"]);
    }

    #[test]
    fn comments_are_space_and_lines_are_marked() {
        let t = lex("a/* x\n */b // c\n#d");
        assert_eq!(t.len(), 4);
        assert_eq!(t[0].flags & LINE_START, LINE_START);
        assert_eq!(
            t[1].flags & (SPACE | LINE_START),
            SPACE,
            "a block comment joins lines"
        );
        assert_eq!(t[2].flags & LINE_START, LINE_START);
        assert_eq!(
            &"a/* x\n */b // c\n#d"[t[2].start as usize..t[2].end as usize],
            "#"
        );
    }

    #[test]
    fn backslash_newline_joins_lines_and_tokens() {
        let text = "#define A 1 \\\n + 2\nB\\\nC";
        let t = lex(text);
        let spelled: Vec<String> = t.iter().map(|x| spelling(text, x).into_owned()).collect();
        assert_eq!(spelled, ["#", "define", "A", "1", "+", "2", "BC"]);
        assert_eq!(
            t[4].flags & LINE_START,
            0,
            "a spliced line continues the directive"
        );
        assert_eq!(t[6].flags & SPLICED, SPLICED);
    }

    #[test]
    fn unterminated_literals_stop_at_the_line_end() {
        let spelled: Vec<String> = kinds("'a\nb").into_iter().map(|k| k.1).collect();
        assert_eq!(spelled, ["'a", "b"]);
    }

    #[test]
    fn string_escapes_do_not_end_the_literal() {
        let spelled: Vec<String> = kinds(r#""a\"b" c"#).into_iter().map(|k| k.1).collect();
        assert_eq!(spelled, [r#""a\"b""#, "c"]);
    }
}
