//! Java types after erasure, read from tree-sitter type nodes, and the
//! assignability test used by overload resolution.

use crate::decl::Hierarchy;
use pointee_ir::Type;
use tree_sitter::Node;

/// A static type, erased: generics become their raw class (type variables
/// become `Object`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum JType {
    /// Any primitive (int, boolean, double, ...) or void.
    Prim,
    /// The type of `null`.
    Null,
    Class(String),
    Array(Box<JType>),
    /// A type we could not read; assumed to be a reference.
    Unknown,
}

impl JType {
    pub fn object() -> JType {
        JType::Class("Object".into())
    }
    pub fn is_ref(&self) -> bool {
        !matches!(self, JType::Prim)
    }
    pub fn is_ref_unknown(&self) -> bool {
        matches!(self, JType::Unknown)
    }
    /// The erased name used in signatures and object classes: `A`, `A[]`, `int`.
    pub fn name(&self) -> String {
        match self {
            JType::Prim => "int".into(),
            JType::Null => "null".into(),
            JType::Class(c) => c.clone(),
            JType::Array(e) => format!("{}[]", e.name()),
            JType::Unknown => "Object".into(),
        }
    }
    pub fn ir(&self) -> Type {
        match self {
            JType::Prim => Type::Scalar,
            JType::Unknown => Type::Unknown,
            _ => Type::Class(self.name().into()),
        }
    }
}

/// Reads a type node. `type_vars` are the type parameters in scope (erased to
/// Object). The primitive's own name is kept for signatures by [`sig_name`].
pub fn read_type(node: Node, src: &str, type_vars: &[String]) -> JType {
    match node.kind() {
        "integral_type" | "floating_point_type" | "boolean_type" | "void_type" => JType::Prim,
        "type_identifier" => {
            let n = &src[node.byte_range()];
            if type_vars.iter().any(|t| t == n) {
                JType::object()
            } else {
                JType::Class(n.to_string())
            }
        }
        "scoped_type_identifier" => {
            // java.lang.String -> String
            let mut last = None;
            let mut c = node.walk();
            for ch in node.named_children(&mut c) {
                if ch.kind() == "type_identifier" {
                    last = Some(ch);
                }
            }
            match last {
                Some(l) => read_type(l, src, type_vars),
                None => JType::Unknown,
            }
        }
        "generic_type" => {
            let mut c = node.walk();
            let first = node
                .named_children(&mut c)
                .find(|ch| matches!(ch.kind(), "type_identifier" | "scoped_type_identifier"));
            match first {
                Some(f) => read_type(f, src, type_vars),
                None => JType::Unknown,
            }
        }
        "array_type" => {
            let elem = node
                .child_by_field_name("element")
                .map(|e| read_type(e, src, type_vars))
                .unwrap_or(JType::Unknown);
            let dims = node
                .child_by_field_name("dimensions")
                .map(|d| count_dims(d, src))
                .unwrap_or(1);
            wrap_array(elem, dims)
        }
        "annotated_type" => {
            let mut c = node.walk();
            let inner = node
                .named_children(&mut c)
                .filter(|n| !n.kind().contains("annotation"))
                .last();
            inner
                .map(|i| read_type(i, src, type_vars))
                .unwrap_or(JType::Unknown)
        }
        _ => JType::Unknown,
    }
}

/// The primitive's own spelling for signatures (`int`, `boolean`), else the
/// erased name.
pub fn sig_name(node: Node, src: &str, ty: &JType) -> String {
    match node.kind() {
        "integral_type" | "floating_point_type" | "boolean_type" => {
            src[node.byte_range()].to_string()
        }
        "array_type" => {
            if let (JType::Array(_), Some(elem)) = (ty, node.child_by_field_name("element")) {
                if matches!(
                    elem.kind(),
                    "integral_type" | "floating_point_type" | "boolean_type"
                ) {
                    let dims = node
                        .child_by_field_name("dimensions")
                        .map(|d| count_dims(d, src))
                        .unwrap_or(1);
                    return format!("{}{}", &src[elem.byte_range()], "[]".repeat(dims));
                }
            }
            ty.name()
        }
        _ => ty.name(),
    }
}

pub fn count_dims(node: Node, src: &str) -> usize {
    src[node.byte_range()].matches('[').count().max(1)
}

pub fn wrap_array(mut t: JType, dims: usize) -> JType {
    for _ in 0..dims {
        t = JType::Array(Box::new(t));
    }
    t
}

/// May a value of static type `from` be passed where `to` is declared?
/// `strict` refuses boxing (a primitive for a reference or back).
pub fn assignable(h: &Hierarchy, from: &JType, to: &JType, strict: bool) -> bool {
    match (from, to) {
        (JType::Prim, JType::Prim) => true,
        (JType::Prim, _) | (_, JType::Prim) => !strict,
        (JType::Null, _) | (JType::Unknown, _) | (_, JType::Unknown) => true,
        (_, JType::Class(c)) if c == "Object" => true,
        (JType::Class(a), JType::Class(b)) => {
            if !h.is_known(a) || !h.is_known(b) {
                return a == b || !strict;
            }
            h.is_subclass(a, b)
        }
        (JType::Array(a), JType::Array(b)) => assignable(h, a, b, strict),
        (JType::Array(_), JType::Class(_)) => !strict,
        (JType::Class(c), JType::Array(_)) => !h.is_known(c) && !strict,
        _ => false,
    }
}
