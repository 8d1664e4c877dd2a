//! A unit's expanded text parsed in pieces, so that the units of a program
//! parse each header's text once: most of what a unit hands to tree-sitter
//! is the headers it includes, and units that include the same header (with
//! the same macros) get the same text for it.
//!
//! The text is cut where the file it comes from changes (a header begins or
//! ends) between two top-level items, and each piece is parsed alone: C's
//! top-level items parse independently of each other (tree-sitter-c knows
//! no typedef names), so the pieces' trees hold the nodes one tree of the
//! whole text would. A [`TreeCache`] keeps each piece's tree by its text;
//! a tree is moved to where its piece stands in a unit by an insertion at
//! its start (`Tree::edit`, which copies only the nodes on its left edge),
//! so every position of every piece is an offset of the unit's whole text.
//!
//! It must never change what is lowered: a cut is made only where the
//! text's brackets are closed and an item has just ended.

use pointee_cpp::Output;
use pointee_ir::fxhash::FxHashMap;
use std::sync::Mutex;
use tree_sitter::{InputEdit, Parser, Point, Tree};

/// The most text a [`TreeCache`] keeps; past it, it starts again (an
/// editor makes a new version of a header with every edit of it). A tree
/// takes several times its text: the headers of Lua's 32 units are well
/// under 1 MB of distinct text.
const CACHE_BYTES: usize = 8 << 20;

/// Trees of headers' pieces already parsed, by their text (positions from
/// 0).
#[derive(Default)]
pub struct TreeCache {
    trees: Mutex<(FxHashMap<Box<str>, Tree>, usize)>,
}

impl TreeCache {
    pub fn new() -> TreeCache {
        TreeCache::default()
    }

    /// How many distinct pieces it holds.
    pub fn len(&self) -> usize {
        self.lock().0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (FxHashMap<Box<str>, Tree>, usize)> {
        self.trees.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The tree of `piece` parsed alone (positions from 0).
    fn tree(&self, parser: &mut Parser, piece: &str) -> Tree {
        if let Some(t) = self.lock().0.get(piece) {
            return t.clone();
        }
        let tree = parse_with(parser, piece, None);
        let mut cache = self.lock();
        if cache.1 + piece.len() > CACHE_BYTES {
            *cache = Default::default();
        }
        cache.1 += piece.len();
        cache.0.insert(piece.into(), tree.clone());
        tree
    }
}

/// A piece of a unit's expanded text and its tree, whose positions are
/// offsets of the whole text.
#[derive(Clone, Debug)]
pub struct Piece {
    pub start: usize,
    pub end: usize,
    pub tree: Tree,
    /// Whether it holds only the text of headers (then its tree is shared
    /// through the cache, and never re-parsed incrementally).
    pub shared: bool,
    /// An edit ([`Piece::edit`]) touched its text: its tree must be parsed
    /// again. An untouched piece's text is as it was (an edit is where two
    /// texts differ), so its tree is taken as it is.
    pub touched: bool,
}

impl Piece {
    /// Applies an edit of the unit's text to the tree and the range (which
    /// then covers the edit's new text when it held the edit's start).
    pub fn edit(&mut self, edit: &InputEdit) {
        self.touched |= edit.start_byte <= self.end && edit.old_end_byte >= self.start;
        self.tree.edit(edit);
        let moved = |o: usize| {
            if o >= edit.old_end_byte {
                o + edit.new_end_byte - edit.old_end_byte
            } else {
                o.min(edit.new_end_byte.max(edit.start_byte))
            }
        };
        let (start, end) = (self.start, self.end);
        self.start = if start <= edit.start_byte {
            start
        } else {
            moved(start)
        };
        self.end = moved(end);
    }
}

/// The trees of `pieces`, in order.
pub fn trees(pieces: &[Piece]) -> Vec<Tree> {
    pieces.iter().map(|p| p.tree.clone()).collect()
}

/// The expanded text of `pp` parsed in pieces (in text order), each tree
/// at its place in the text: a piece of `last` (the unit's previous
/// pieces, edited to the new text: [`Piece::edit`]) with the same range
/// that the edit did not touch keeps its tree; a header's piece whose
/// text `cache` holds is not parsed again (new ones are added to it); a
/// piece of the main file is parsed incrementally from the piece of
/// `last` with the same range, or afresh when its text has a syntax error
/// (tree-sitter recovers from an error otherwise after an edit than from
/// scratch: only the edited piece, not every piece with an error, is
/// parsed again after an edit).
pub fn parse_unit(cache: &TreeCache, pp: &Output, last: &[Piece]) -> Vec<Piece> {
    let text = &pp.text;
    let mut parser = new_parser();
    let mut pieces = Vec::new();
    let mut at = Point::default();
    for (start, end, shared) in cut(pp) {
        let piece = &text[start..end];
        let after = point_after(at, piece);
        let same = last
            .binary_search_by_key(&start, |p| p.start)
            .ok()
            .map(|k| &last[k])
            .filter(|p| p.end == end && p.shared == shared);
        let tree = if let Some(p) = same.filter(|p| !p.touched) {
            p.tree.clone()
        } else if shared {
            moved(cache.tree(&mut parser, piece), start, at)
        } else {
            let old = same;
            parser
                .set_included_ranges(&[tree_sitter::Range {
                    start_byte: start,
                    end_byte: end,
                    start_point: at,
                    end_point: after,
                }])
                .expect("one range inside the text");
            let mut tree = parse_with(&mut parser, text, old.map(|p| &p.tree));
            // tree-sitter's incremental parse of a text with a syntax
            // error may recover otherwise than a parse from scratch: the
            // lowering would then depend on the edit history. A broken
            // piece is parsed afresh.
            if old.is_some() && tree.root_node().has_error() {
                tree = parse_with(&mut parser, text, None);
            }
            parser
                .set_included_ranges(&[])
                .expect("no ranges: the whole text");
            tree
        };
        pieces.push(Piece {
            start,
            end,
            tree,
            shared,
            touched: false,
        });
        at = after;
    }
    pieces
}

pub(crate) fn new_parser() -> Parser {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("tree-sitter-c's ABI matches the tree-sitter runtime");
    parser
}

#[cfg(test)]
thread_local! {
    /// How many parses this thread made (for tests).
    static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

fn parse_with(parser: &mut Parser, text: &str, old: Option<&Tree>) -> Tree {
    #[cfg(test)]
    PARSES.with(|n| n.set(n.get() + 1));
    parser
        .parse(text, old)
        .expect("parsing without a timeout or cancellation always yields a tree")
}

/// `tree` (parsed from offset 0) moved to start at byte `by`, point `at`.
fn moved(mut tree: Tree, by: usize, at: Point) -> Tree {
    if by > 0 {
        tree.edit(&InputEdit {
            start_byte: 0,
            old_end_byte: 0,
            new_end_byte: by,
            start_position: Point::default(),
            old_end_position: Point::default(),
            new_end_position: at,
        });
    }
    tree
}

/// The point after `text` read from `at`.
fn point_after(at: Point, text: &str) -> Point {
    match text.rfind('\n') {
        Some(last) => Point {
            row: at.row + newlines(text.as_bytes()),
            column: text.len() - last - 1,
        },
        None => Point {
            row: at.row,
            column: at.column + text.len(),
        },
    }
}

/// How many `\n` bytes `bytes` holds, eight at a time (a byte-by-byte
/// count of every piece's newlines was a tenth of the cost of parsing a
/// unit again after a body edit).
fn newlines(bytes: &[u8]) -> usize {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const LOW7: u64 = u64::from_ne_bytes([0x7f; 8]);
    let mut chunks = bytes.chunks_exact(8);
    let mut count = 0;
    for chunk in &mut chunks {
        let word = u64::from_ne_bytes(chunk.try_into().expect("eight bytes"));
        // A byte of `x` is zero exactly where the byte was `\n`; its high
        // bit is set in `!(((x & LOW7) + LOW7) | x)` exactly then.
        let x = word ^ (ONES * u64::from(b'\n'));
        let zero = !(((x & LOW7) + LOW7) | x) & !LOW7;
        count += zero.count_ones() as usize;
    }
    count + chunks.remainder().iter().filter(|&&b| b == b'\n').count()
}

/// The pieces of the text: `(start, end, only headers' text)`, cut at
/// the starts of runs from another file than the run before (a macro's
/// tokens belong to the file of their use) that follow the end of a
/// top-level item, and in the main file after each function body (so an
/// edit re-parses one function's piece). Together they cover the text.
fn cut(pp: &Output) -> Vec<(usize, usize, bool)> {
    let home = |s: &pointee_cpp::Span| s.outer.map_or(s.to.file, |o| o.file);
    let mut scan = Brackets::default();
    let mut out = Vec::new();
    let (mut start, mut scanned) = (0, 0);
    let mut main = pp.map.spans.first().is_none_or(|s| home(s) == 0);
    for w in pp.map.spans.windows(2) {
        let in_main = home(&w[0]) == 0;
        if home(&w[0]) == home(&w[1]) && !in_main {
            continue;
        }
        let at = w[1].expanded.start as usize;
        let Some(upto) = pp.text.get(scanned..at) else {
            break;
        };
        scan.bodies_ended.clear();
        scan.read(upto, scanned, in_main);
        scanned = at;
        let changes = home(&w[0]) != home(&w[1]);
        for &end in &scan.bodies_ended {
            // A body ending where another file begins is cut below, as
            // every item there is.
            if end > start && (end < at || !changes) {
                out.push((start, end, false));
                start = end;
            }
        }
        if !changes {
            continue;
        }
        if scan.item_ended() && at > start {
            out.push((start, at, !main));
            start = at;
            main = false;
        }
        main |= home(&w[1]) == 0;
    }
    if pp.map.spans.last().is_some_and(|s| home(s) == 0) {
        scan.bodies_ended.clear();
        scan.read(pp.text.get(scanned..).unwrap_or(""), scanned, true);
        for &end in &scan.bodies_ended {
            if end > start {
                out.push((start, end, false));
                start = end;
            }
        }
    }
    if start < pp.text.len() || out.is_empty() {
        out.push((start, pp.text.len(), !main));
    }
    out
}

/// What [`Brackets::read`] does with a byte outside a literal: skips it
/// (`WHITE`), only remembers it (`PLAIN`), or looks at it (`SPECIAL`).
const WHITE: u8 = 0;
const PLAIN: u8 = 1;
const SPECIAL: u8 = 2;
const BYTE_CLASS: [u8; 256] = {
    let mut class = [PLAIN; 256];
    let white = b" \t\n\x0c\r";
    let mut i = 0;
    while i < white.len() {
        class[white[i] as usize] = WHITE;
        i += 1;
    }
    let special = b"\"'()[]{};";
    let mut i = 0;
    while i < special.len() {
        class[special[i] as usize] = SPECIAL;
        i += 1;
    }
    class
};

/// A scan of C tokens that knows the bracket depth and whether the last
/// token ended a top-level item (`;`, or the `}` of a function body).
#[derive(Default)]
struct Brackets {
    depth: usize,
    /// The last significant character, and the one before it.
    last: u8,
    before_last: u8,
    /// Whether the `{` that opened depth 1 followed a `)` (a function body).
    body: bool,
    /// Inside a literal: its quote, and whether the next byte is escaped.
    quote: Option<u8>,
    escaped: bool,
    ended: bool,
    /// Where function bodies ended (just after their `}`), when asked.
    bodies_ended: Vec<usize>,
}

impl Brackets {
    /// Reads `text`, which starts at offset `from` of the whole text;
    /// notes where function bodies end in it when `note_bodies`.
    fn read(&mut self, text: &str, from: usize, note_bodies: bool) {
        // The state in locals (registers): this runs over every byte of
        // every unit, and again after every edit.
        let (mut depth, mut body, mut ended) = (self.depth, self.body, self.ended);
        let (mut last, mut before_last) = (self.last, self.before_last);
        let (mut quote, mut escaped) = (self.quote, self.escaped);
        for (i, &b) in text.as_bytes().iter().enumerate() {
            if let Some(q) = quote {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == q || b == b'\n' {
                    quote = None;
                }
                continue;
            }
            match BYTE_CLASS[b as usize] {
                WHITE => continue,
                // Most bytes (names, numbers, operators) only end an item
                // that ended before them.
                PLAIN => {
                    ended = false;
                    before_last = last;
                    last = b;
                    continue;
                }
                _ => {}
            }
            let mut ends = false;
            match b {
                b'"' => quote = Some(b),
                // A digit separator (C23 `1'000`) is no literal; `u8'a'` is.
                b'\'' if !last.is_ascii_digit() || (last == b'8' && before_last == b'u') => {
                    quote = Some(b)
                }
                b'(' | b'[' => depth += 1,
                b'{' => {
                    if depth == 0 {
                        body = last == b')';
                    }
                    depth += 1;
                }
                b')' | b']' => depth = depth.saturating_sub(1),
                b'}' => {
                    depth = depth.saturating_sub(1);
                    ends = depth == 0 && body;
                    if ends && note_bodies {
                        self.bodies_ended.push(from + i + 1);
                    }
                }
                b';' => ends = depth == 0,
                _ => {}
            }
            ended = ends;
            before_last = last;
            last = b;
        }
        (self.depth, self.body, self.ended) = (depth, body, ended);
        (self.last, self.before_last) = (last, before_last);
        (self.quote, self.escaped) = (quote, escaped);
    }

    fn item_ended(&self) -> bool {
        self.ended && self.quote.is_none()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn newlines_are_counted_eight_bytes_at_a_time_as_one_by_one() {
        let text: Vec<u8> = (0..4096u32)
            .map(|i| match i.wrapping_mul(2654435761) >> 29 {
                0 | 1 => b'\n',
                2 => 0x8a,
                3 => 0x0b,
                4 => 0x09,
                _ => b'a' + (i % 26) as u8,
            })
            .collect();
        for start in 0..9 {
            for end in [start, start + 1, start + 7, start + 8, 100, 4095, 4096] {
                let part = &text[start..end.max(start)];
                let want = part.iter().filter(|&&b| b == b'\n').count();
                assert_eq!(super::newlines(part), want, "{start}..{end}");
            }
        }
    }

    use super::*;

    fn ends(text: &str) -> bool {
        let mut b = Brackets::default();
        b.read(text, 0, false);
        b.item_ended()
    }

    #[test]
    fn items_end_at_semicolons_and_function_bodies_only() {
        assert!(ends("int x;"));
        assert!(ends("int f(void) { return 0; }"));
        // A K&R body is not told from a block: no cut after it.
        assert!(!ends("static int f(a) int a; { if (a) { } }"));
        assert!(ends("char c = u8'}';"));
        assert!(!ends("struct s { int a; }"));
        assert!(!ends("int a[] = { 1, 2 }"));
        assert!(!ends("for (;;"));
        assert!(!ends("void f(void) { int a;"));
        assert!(!ends("const char *s = \";"));
        assert!(ends("const char *s = \"};\";"));
        assert!(ends("char c = '}';"));
        assert!(ends("int n = 1'000;"));
        assert!(!ends("int x"));
    }

    #[test]
    fn moved_trees_keep_their_nodes_at_the_new_offsets() {
        let piece = "int a;\nint *f(void) { return &a; }\n";
        let whole = format!("int b;\n{piece}");
        let mut parser = new_parser();
        let alone = parser.parse(piece, None).unwrap();
        let tree = moved(alone, 7, Point { row: 1, column: 0 });
        let one = parser.parse(&whole, None).unwrap();
        let items = |t: &Tree| {
            let root = t.root_node();
            let mut c = root.walk();
            root.named_children(&mut c)
                .map(|n| {
                    (
                        n.kind().to_string(),
                        n.start_byte(),
                        n.end_byte(),
                        n.start_position(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(items(&tree)[..], items(&one)[1..]);
    }

    #[test]
    fn an_edit_parses_again_only_the_function_piece_it_touched() {
        // `broken` has a syntax error: its piece must not be parsed again
        // when another function is edited.
        let before = "int g;\nint first(void) { return g; }\nint broken(void) { return @; }\nint *third(int *p) { return p; }\n";
        let after = before.replace("return g;", "g = 2; return g;");
        let fs = crate::unit::files_fs(&[("a.c", before)]);
        let pp = crate::preprocess(
            &mut pointee_cpp::Session::one_pass(),
            &Default::default(),
            &fs,
            "a.c",
        );
        let cache = TreeCache::new();
        let mut last = parse_unit(&cache, &pp, &[]);
        assert_eq!(last.len(), 3, "one piece per function body");
        assert!(last[1].tree.root_node().has_error());
        let at = before.find("return g;").unwrap();
        let edit = InputEdit {
            start_byte: at,
            old_end_byte: at,
            new_end_byte: at + "g = 2; ".len(),
            start_position: Point {
                row: 1,
                column: at - 7,
            },
            old_end_position: Point {
                row: 1,
                column: at - 7,
            },
            new_end_position: Point {
                row: 1,
                column: at - 7 + 7,
            },
        };
        for p in &mut last {
            p.edit(&edit);
        }
        let fs = crate::unit::files_fs(&[("a.c", &after)]);
        let pp = crate::preprocess(
            &mut pointee_cpp::Session::one_pass(),
            &Default::default(),
            &fs,
            "a.c",
        );
        let parses = PARSES.with(|n| n.get());
        let new = parse_unit(&cache, &pp, &last);
        assert_eq!(
            PARSES.with(|n| n.get()) - parses,
            1,
            "only the edited piece"
        );
        let ranges = |ps: &[Piece]| ps.iter().map(|p| (p.start, p.end)).collect::<Vec<_>>();
        assert_eq!(ranges(&new), ranges(&last));
        let whole = crate::syntax::parse(&pp.text);
        assert_eq!(
            crate::lower_pieces("a.c", &pp.text, &trees(&new)),
            crate::lower_expanded("a.c", &pp.text, &whole)
        );
    }

    #[test]
    fn units_share_the_pieces_of_their_headers_and_lower_as_one_tree() {
        let mut fs = pointee_cpp::MemoryFs::new();
        fs.insert("a.h", "#ifndef A_H\n#define A_H\ntypedef struct node { struct node *next; } node;\nstatic inline node *next_of(node *n) { return n->next; }\n#define NEXT(n) ((n)->next)\n#endif\n");
        fs.insert("fields.h", "int *p; int *q;\n");
        fs.insert("b.h", "#include \"a.h\"\nextern node *head;\n");
        fs.insert("one.c", "#include <stdlib.h>\n#include \"a.h\"\n#include \"b.h\"\nnode *head;\nstruct s {\n#include \"fields.h\"\n};\nint f(void) { node *n = NEXT(head); return n != 0; }\n");
        fs.insert("two.c", "#include <stdlib.h>\n#include \"b.h\"\nint g(node *n) { return next_of(n) == head; }\n#include \"fields.h\"\n");
        let cache = TreeCache::new();
        let mut session = pointee_cpp::Session::one_pass();
        let mut sizes = Vec::new();
        for unit in ["one.c", "two.c"] {
            let pp = crate::preprocess(&mut session, &pointee_cpp::Config::default(), &fs, unit);
            let pieces = parse_unit(&cache, &pp, &[]);
            assert!(pieces.len() > 2, "{unit}: {} pieces", pieces.len());
            assert_eq!(pieces.first().map(|p| p.start), Some(0));
            assert_eq!(pieces.last().map(|p| p.end), Some(pp.text.len()));
            assert!(pieces.windows(2).all(|w| w[0].end == w[1].start));
            // The main file's text is never shared; what `fields.h` adds
            // inside `struct s` stays in the main file's piece.
            let main = pieces
                .iter()
                .find(|p| !p.shared)
                .expect("a piece of the main file");
            assert_eq!(
                pp.text[main.start..main.end].contains("int *p;"),
                unit == "one.c"
            );
            let whole = crate::syntax::parse(&pp.text);
            assert_eq!(
                crate::lower_pieces(unit, &pp.text, &trees(&pieces)),
                crate::lower_expanded(unit, &pp.text, &whole),
                "{unit}"
            );
            sizes.push(cache.len());
        }
        // `two.c` reads <stdlib.h> and a.h as `one.c` did: only b.h's own
        // declaration (after a.h) is new.
        assert_eq!(sizes[1], sizes[0] + 1, "{sizes:?}");
    }
}
