//! Small helpers over tree-sitter nodes.

use pointee_ir::fxhash::FxHashMap;
use pointee_ir::Range;
use std::sync::OnceLock;
use tree_sitter::{Node, Tree};

/// `node.field("type")`: a child by field name, with the name resolved to
/// tree-sitter's field id once (looking a name up scans every field name).
pub(crate) trait Fields<'t> {
    fn field(&self, name: &'static str) -> Option<Node<'t>>;
    /// `node.kind_str()` from a table by kind id: `kind()` measures and checks
    /// the C string each time, and lowering asks for kinds all the time.
    fn kind_str(&self) -> &'static str;
}

impl<'t> Fields<'t> for Node<'t> {
    fn field(&self, name: &'static str) -> Option<Node<'t>> {
        self.child_by_field_id(field_id(name)?.get())
    }

    fn kind_str(&self) -> &'static str {
        static KINDS: OnceLock<Vec<&'static str>> = OnceLock::new();
        let kinds = KINDS.get_or_init(|| {
            let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
            (0..lang.node_kind_count() as u16)
                .map(|id| lang.node_kind_for_id(id).unwrap_or(""))
                .collect()
        });
        // `ERROR` (and any id past the table) is named by tree-sitter.
        match kinds.get(self.kind_id() as usize) {
            Some(k) if !k.is_empty() => k,
            _ => self.kind(),
        }
    }
}

fn field_id(name: &str) -> Option<std::num::NonZeroU16> {
    static IDS: OnceLock<FxHashMap<&'static str, std::num::NonZeroU16>> = OnceLock::new();
    let ids = IDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_c::LANGUAGE.into();
        (1..=lang.field_count() as u16)
            .filter_map(|id| Some((lang.field_name_for_id(id)?, std::num::NonZeroU16::new(id)?)))
            .collect()
    });
    ids.get(name).copied()
}

pub(crate) fn parse(text: &str) -> Tree {
    crate::pieces::new_parser()
        .parse(text, None)
        .expect("parsing without a timeout or cancellation always yields a tree")
}

/// Whether `tree` has a node more than `limit` levels below its root
/// (walked without recursion, stopping at the first such node).
pub(crate) fn deeper_than(tree: &Tree, limit: usize) -> bool {
    let mut cursor = tree.walk();
    loop {
        if cursor.goto_first_child() {
            if cursor.depth() as usize > limit {
                return true;
            }
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return false;
            }
        }
    }
}

pub(crate) fn range(n: Node) -> Range {
    Range::new(n.start_byte(), n.end_byte())
}

pub(crate) fn text<'s>(n: Node, src: &'s str) -> &'s str {
    src.get(n.start_byte()..n.end_byte()).unwrap_or("")
}

/// Below this many children, children are read by index: no cursor to
/// allocate, and the quadratic walk of `child(i)` is still short.
const FEW_CHILDREN: usize = 12;

/// All children (named or not), in order.
pub(crate) fn children(n: Node) -> Vec<Node> {
    let count = n.child_count();
    if count <= FEW_CHILDREN {
        return (0..count).filter_map(|i| n.child(i)).collect();
    }
    let mut cursor = n.walk();
    n.children(&mut cursor).collect()
}

/// Named children, skipping comments.
pub(crate) fn named_children(n: Node) -> Vec<Node> {
    let count = n.named_child_count();
    if count <= FEW_CHILDREN {
        return (0..count)
            .filter_map(|i| n.named_child(i))
            .filter(|c| c.kind_str() != "comment")
            .collect();
    }
    let mut cursor = n.walk();
    n.named_children(&mut cursor)
        .filter(|c| c.kind_str() != "comment")
        .collect()
}

/// All children that have the given field name.
pub(crate) fn children_by_field<'t>(n: Node<'t>, field: &str) -> Vec<Node<'t>> {
    let Some(id) = field_id(field) else {
        return Vec::new();
    };
    let count = n.child_count();
    if count <= FEW_CHILDREN {
        return (0..count)
            .filter(|&i| n.field_name_for_child(i as u32) == Some(field))
            .filter_map(|i| n.child(i))
            .collect();
    }
    let mut cursor = n.walk();
    n.children_by_field_id(id, &mut cursor).collect()
}

/// The names whose address `&` takes anywhere under `n` (`&x`, `&x.f`,
/// `&x[i]`; not `&x->f`, which is the address of what `x` points to), by
/// name: a shadowed name counts for every variable of that name. Walked
/// without recursion.
pub(crate) fn address_taken_names(n: Node, src: &str) -> pointee_ir::fxhash::FxHashSet<String> {
    let mut out = pointee_ir::fxhash::FxHashSet::default();
    let mut cursor = n.walk();
    loop {
        let node = cursor.node();
        let is_addr = node.kind_str() == "pointer_expression"
            && node.field("operator").is_some_and(|o| text(o, src) == "&");
        if let Some(mut a) = node.field("argument").filter(|_| is_addr) {
            loop {
                a = strip_parens(a);
                let inner = match a.kind_str() {
                    "field_expression"
                        if a.field("operator").is_some_and(|o| text(o, src) == ".") =>
                    {
                        a.field("argument")
                    }
                    "subscript_expression" => a.field("argument"),
                    _ => None,
                };
                match inner {
                    Some(i) => a = i,
                    None => break,
                }
            }
            if a.kind_str() == "identifier" {
                out.insert(text(a, src).to_string());
            }
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node() == n {
                return out;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Strips redundant parentheses around an expression.
pub(crate) fn strip_parens(mut n: Node) -> Node {
    while n.kind_str() == "parenthesized_expression" {
        match named_children(n).first() {
            Some(&inner) => n = inner,
            None => break,
        }
    }
    n
}

/// Parses a C integer literal (decimal, hex, octal, with suffixes).
pub(crate) fn int_literal(s: &str) -> Option<u64> {
    let s = s.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(h) = s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        u64::from_str_radix(h, 16).ok()
    } else if let Some(b) = s.strip_prefix("0b").or_else(|| s.strip_prefix("0B")) {
        u64::from_str_radix(b, 2).ok()
    } else if s.len() > 1 && s.starts_with('0') {
        u64::from_str_radix(&s[1..], 8).ok()
    } else {
        s.parse().ok()
    }
}
