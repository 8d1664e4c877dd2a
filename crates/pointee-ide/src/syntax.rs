//! What the syntax says about an expression (C and Java): whether it is
//! written where it stands (the target of an assignment or an increment,
//! a declarator with an initialiser, a parameter) or only read. A flow-
//! insensitive analysis's program points cannot say it (Java records reads
//! after the statement too), so answers ask the tree.

use crate::{Analysis, FileId};
use pointee_ir::Range;
use tree_sitter::Node;

/// Whether the expression at exactly `range` of `file` is written there;
/// `None` when no syntax node has that range (an expression inside a macro
/// use, mapped onto the use).
pub(crate) fn is_written(a: &Analysis, file: FileId, range: Range) -> Option<bool> {
    let tree = pointee_db::syntax_tree(a.db(), file).as_ref()?;
    let (start, end) = (range.start as usize, range.end as usize);
    let mut n = tree.0.root_node().descendant_for_byte_range(start, end)?;
    if (n.start_byte(), n.end_byte()) != (start, end) {
        return None;
    }
    // The outermost node of that range.
    while let Some(p) = n
        .parent()
        .filter(|p| (p.start_byte(), p.end_byte()) == (start, end))
    {
        n = p;
    }
    Some(written(n))
}

fn is_field(parent: Node, field: &str, n: Node) -> bool {
    parent.child_by_field_name(field) == Some(n)
}

fn written(mut n: Node) -> bool {
    while let Some(p) = n.parent() {
        match p.kind() {
            "assignment_expression" => return is_field(p, "left", n),
            "update_expression" => return true,
            // C: `int *p = &x;`; a parameter is written by the call.
            "init_declarator" => return is_field(p, "declarator", n),
            "parameter_declaration" => return is_field(p, "declarator", n),
            // Java: `A a = new A();`, a parameter.
            "variable_declarator" => {
                return is_field(p, "name", n) && p.child_by_field_name("value").is_some()
            }
            "formal_parameter" => return is_field(p, "name", n),
            // Through the declarator's or the expression's wrapping.
            "pointer_declarator"
            | "array_declarator"
            | "parenthesized_declarator"
            | "parenthesized_expression" => n = p,
            _ => return false,
        }
    }
    false
}
