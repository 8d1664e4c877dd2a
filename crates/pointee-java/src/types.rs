//! Java types after erasure, read from tree-sitter type nodes, and the
//! assignability test used by overload resolution.

use crate::decl::Hierarchy;
use crate::syntax::Fields;
use pointee_ir::Type;
use tree_sitter::Node;

/// A static type, erased: generics become their raw class (type variables
/// become `Object`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum JType {
    /// A primitive (`int`, `boolean`, `char`, ...) or `void`, by name.
    Prim(&'static str),
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
    pub fn int() -> JType {
        JType::Prim("int")
    }
    pub fn void() -> JType {
        JType::Prim("void")
    }
    pub fn is_ref(&self) -> bool {
        !matches!(self, JType::Prim(_))
    }
    pub fn is_ref_unknown(&self) -> bool {
        matches!(self, JType::Unknown)
    }
    /// The erased name used in signatures and object classes: `A`, `A[]`, `int`.
    pub fn name(&self) -> String {
        match self {
            JType::Prim(p) => (*p).into(),
            JType::Null => "null".into(),
            JType::Class(c) => c.clone(),
            JType::Array(e) => format!("{}[]", e.name()),
            JType::Unknown => "Object".into(),
        }
    }
    pub fn ir(&self) -> Type {
        match self {
            JType::Prim(_) => Type::Scalar,
            JType::Unknown => Type::Unknown,
            _ => Type::Class(self.name().into()),
        }
    }
}

/// The primitive types (and `void`).
pub const PRIMITIVES: [&str; 9] = [
    "boolean", "byte", "char", "short", "int", "long", "float", "double", "void",
];

/// The primitive named `name`.
pub fn primitive(name: &str) -> Option<JType> {
    PRIMITIVES
        .iter()
        .find(|p| **p == name)
        .map(|p| JType::Prim(p))
}

/// The class a primitive is boxed to (`int` → `Integer`).
pub fn box_class(prim: &str) -> &'static str {
    match prim {
        "boolean" => "Boolean",
        "byte" => "Byte",
        "char" => "Character",
        "short" => "Short",
        "long" => "Long",
        "float" => "Float",
        "double" => "Double",
        _ => "Integer",
    }
}

/// The primitive a box class holds (`Integer` → `int`).
pub fn unboxed(class: &str) -> Option<&'static str> {
    Some(match class {
        "Boolean" => "boolean",
        "Byte" => "byte",
        "Character" => "char",
        "Short" => "short",
        "Integer" => "int",
        "Long" => "long",
        "Float" => "float",
        "Double" => "double",
        _ => return None,
    })
}

/// The type of an arithmetic operation on operands of these types (binary
/// numeric promotion, JLS 5.6; unboxing first).
pub fn promote(a: &JType, b: &JType) -> JType {
    let prim = |t: &JType| match t {
        JType::Prim(p) => Some(*p),
        JType::Class(c) => unboxed(c),
        _ => None,
    };
    for wide in ["double", "float", "long"] {
        if prim(a) == Some(wide) || prim(b) == Some(wide) {
            return JType::Prim(wide);
        }
    }
    JType::int()
}

/// Reads a type node. `type_vars` are the type parameters in scope (erased to
/// Object).
pub fn read_type(node: Node, src: &str, type_vars: &[String]) -> JType {
    match node.sym() {
        "integral_type" | "floating_point_type" | "boolean_type" | "void_type" => {
            primitive(src[node.byte_range()].trim()).unwrap_or_else(JType::int)
        }
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
                if ch.sym() == "type_identifier" {
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
                .find(|ch| matches!(ch.sym(), "type_identifier" | "scoped_type_identifier"));
            match first {
                Some(f) => read_type(f, src, type_vars),
                None => JType::Unknown,
            }
        }
        "array_type" => {
            let elem = node
                .field("element")
                .map(|e| read_type(e, src, type_vars))
                .unwrap_or(JType::Unknown);
            let dims = node
                .field("dimensions")
                .map(|d| count_dims(d, src))
                .unwrap_or(1);
            wrap_array(elem, dims)
        }
        "annotated_type" => {
            let mut c = node.walk();
            let inner = node
                .named_children(&mut c)
                .filter(|n| !n.sym().contains("annotation"))
                .last();
            inner
                .map(|i| read_type(i, src, type_vars))
                .unwrap_or(JType::Unknown)
        }
        _ => JType::Unknown,
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
        (JType::Prim(_), JType::Prim(_)) => true,
        (JType::Prim(_), _) | (_, JType::Prim(_)) => !strict,
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
