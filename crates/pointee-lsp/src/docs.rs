//! The documents the server knows: open buffers (edited incrementally, their
//! tree-sitter trees re-parsed incrementally) and files read from the
//! workspace folders. Open buffers override disk. Plain data, no LSP types.

use pointee_db::{Lang, TreeHandle};
use pointee_ir::LineIndex;
use std::collections::BTreeMap;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct Doc {
    pub text: Arc<str>,
    pub lines: Arc<LineIndex>,
    pub tree: Option<TreeHandle>,
    pub lang: Option<Lang>,
    /// Open in the editor (its text wins over the file on disk).
    pub open: bool,
}

impl Doc {
    pub fn new(name: &str, text: &str, open: bool) -> Doc {
        let lang = Lang::of_path(name);
        let tree = lang.map(|l| TreeHandle(Arc::new(pointee_db::parse(l, text, None))));
        Doc {
            text: text.into(),
            lines: Arc::new(LineIndex::new(text)),
            tree,
            lang,
            open,
        }
    }

    /// A file read from disk and not open: not parsed until something needs
    /// its tree (lowering parses it itself), so scanning a large workspace
    /// only reads files.
    pub fn from_disk(name: &str, text: &str) -> Doc {
        Doc {
            text: text.into(),
            lines: Arc::new(LineIndex::new(text)),
            tree: None,
            lang: Lang::of_path(name),
            open: false,
        }
    }

    /// The tree, parsed now when the document has none yet.
    pub fn tree_or_parse(&self) -> Option<TreeHandle> {
        match (&self.tree, self.lang) {
            (Some(t), _) => Some(t.clone()),
            (None, Some(lang)) => Some(TreeHandle(Arc::new(pointee_db::parse(
                lang, &self.text, None,
            )))),
            (None, None) => None,
        }
    }

    /// Replaces the bytes `start..end` by `new`, editing the tree so the next
    /// parse can reuse it. The caller re-parses once after all the edits of
    /// one change notification ([`Doc::reparse`]).
    pub fn edit(&mut self, start: u32, end: u32, new: &str) {
        let (start, end) = (start.min(end) as usize, end.max(start) as usize);
        let len = self.text.len();
        let (start, end) = (start.min(len), end.min(len));
        // Never split a character (clients send UTF-16 positions we already
        // converted; this only guards against bad input).
        let start = floor_char(&self.text, start);
        let end = floor_char(&self.text, end);
        let old_lines = self.lines.clone();
        let mut text = String::with_capacity(len + new.len());
        text.push_str(&self.text[..start]);
        text.push_str(new);
        text.push_str(&self.text[end..]);
        let new_end = start + new.len();
        let lines = LineIndex::new(&text);
        if let Some(tree) = &mut self.tree {
            let mut t = (*tree.0).clone();
            t.edit(&tree_sitter::InputEdit {
                start_byte: start,
                old_end_byte: end,
                new_end_byte: new_end,
                start_position: crate::convert::ts_point(&old_lines, start as u32),
                old_end_position: crate::convert::ts_point(&old_lines, end as u32),
                new_end_position: crate::convert::ts_point(&lines, new_end as u32),
            });
            *tree = TreeHandle(Arc::new(t));
        }
        self.text = text.into();
        self.lines = Arc::new(lines);
    }

    /// Re-parses incrementally from the edited tree.
    pub fn reparse(&mut self) {
        if let (Some(lang), Some(tree)) = (self.lang, &self.tree) {
            let new = pointee_db::parse(lang, &self.text, Some(&tree.0));
            self.tree = Some(TreeHandle(Arc::new(new)));
        }
    }

    pub fn set_text(&mut self, name: &str, text: &str) {
        let open = self.open;
        *self = Doc::new(name, text, open);
    }

    /// An open buffer always has a tree (edits are applied to it).
    pub fn ensure_tree(&mut self) {
        if self.tree.is_none() {
            self.tree = self.tree_or_parse();
        }
    }
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Every document, by file name, and a revision bumped on every change.
#[derive(Clone, Debug, Default)]
pub struct Docs {
    pub map: BTreeMap<String, Arc<Doc>>,
    pub rev: u64,
}

/// An immutable view of the documents at one revision.
#[derive(Clone, Debug, Default)]
pub struct Snapshot {
    pub docs: Arc<BTreeMap<String, Arc<Doc>>>,
    pub rev: u64,
}

impl Snapshot {
    pub fn doc(&self, name: &str) -> Option<&Doc> {
        self.docs.get(name).map(|d| &**d)
    }
}

impl Docs {
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            docs: Arc::new(self.map.clone()),
            rev: self.rev,
        }
    }
}
