//! Fast access to the fields and kinds of tree-sitter nodes. tree-sitter
//! finds a field's id from its name by comparing it with every field name
//! of the grammar, on every `child_by_field_name`, and `kind` measures and
//! checks the kind's C string on every call; both are looked up here once.

use pointee_ir::fxhash::FxHashMap;
use std::sync::OnceLock;
use tree_sitter::{Node, TreeCursor};

/// The field ids of the Java grammar, by name.
fn field_ids() -> &'static FxHashMap<&'static str, u16> {
    static IDS: OnceLock<FxHashMap<&'static str, u16>> = OnceLock::new();
    IDS.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
        (1..=lang.field_count() as u16)
            .filter_map(|id| lang.field_name_for_id(id).map(|n| (n, id)))
            .collect()
    })
}

/// The kinds of the Java grammar's nodes, by kind id.
fn kind_names() -> &'static [&'static str] {
    static NAMES: OnceLock<Vec<&'static str>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let lang: tree_sitter::Language = tree_sitter_java::LANGUAGE.into();
        (0..lang.node_kind_count() as u16)
            .map(|id| lang.node_kind_for_id(id).unwrap_or(""))
            .collect()
    })
}

/// The id of a field of the Java grammar (`None`: no such field).
fn field_id(name: &str) -> Option<u16> {
    field_ids().get(name).copied()
}

/// Field access by name, with the ids cached.
pub trait Fields<'t> {
    /// The node's kind (tree-sitter's `kind`), from a table.
    fn sym(&self) -> &'static str;
    /// The child in field `name` (tree-sitter's `child_by_field_name`).
    fn field(&self, name: &str) -> Option<Node<'t>>;
    /// Every child in field `name`.
    fn fields<'c>(
        &self,
        name: &str,
        cursor: &'c mut TreeCursor<'t>,
    ) -> impl Iterator<Item = Node<'t>> + 'c;
}

impl<'t> Fields<'t> for Node<'t> {
    fn sym(&self) -> &'static str {
        match kind_names().get(usize::from(self.kind_id())) {
            Some(k) if !k.is_empty() => k,
            // ERROR and the like, outside the table.
            _ => self.kind(),
        }
    }

    fn field(&self, name: &str) -> Option<Node<'t>> {
        self.child_by_field_id(field_id(name)?)
    }

    fn fields<'c>(
        &self,
        name: &str,
        cursor: &'c mut TreeCursor<'t>,
    ) -> impl Iterator<Item = Node<'t>> + 'c {
        // An id no node has when the grammar lacks the field.
        let id = field_id(name)
            .and_then(std::num::NonZeroU16::new)
            .unwrap_or(std::num::NonZeroU16::MAX);
        self.children_by_field_id(id, cursor)
    }
}
