//! Types as far as pointer analysis needs them: which values hold pointers,
//! the layout of records (by field, never by byte offset), and arrays.

use crate::{Index, Name, Sel};
use std::collections::BTreeMap;

#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Type {
    Void,
    /// Any non-pointer scalar (integers, floats, enums, `_Bool`).
    Scalar,
    Pointer(Box<Type>),
    /// Element type and length when known.
    Array(Box<Type>, Option<u64>),
    /// A struct or union, by its key in the [`TypeTable`].
    Record(Name),
    Function(Box<FnType>),
    /// A Java reference to an object of the named class (or interface).
    Class(Name),
    /// A type the front end could not resolve; treated as possibly a pointer.
    #[default]
    Unknown,
}

impl Type {
    pub fn pointer_to(ty: Type) -> Type {
        Type::Pointer(Box::new(ty))
    }

    /// True when a value of this type may hold an address.
    pub fn is_pointer_like(&self) -> bool {
        matches!(self, Type::Pointer(_) | Type::Class(_) | Type::Unknown)
    }

    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Pointer(t) => Some(t),
            _ => None,
        }
    }

    pub fn is_function_pointer(&self) -> bool {
        matches!(self, Type::Pointer(t) if matches!(**t, Type::Function(_)))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FnType {
    pub ret: Type,
    pub params: Vec<Type>,
    pub variadic: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RecordKind {
    Struct,
    /// All fields share one location: a path never selects a union's field.
    Union,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub name: Name,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    pub name: Name,
    pub kind: RecordKind,
    pub fields: Vec<Field>,
    /// False for a forward declaration whose body was never seen.
    pub complete: bool,
}

/// Record layouts by key (`struct node`, `union u`, or a made-up key for an
/// anonymous record).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TypeTable {
    pub records: BTreeMap<Name, Record>,
}

impl TypeTable {
    pub fn record(&self, name: &str) -> Option<&Record> {
        self.records.get(name)
    }

    /// A record whose layout no question may rely on: an anonymous one
    /// (its key is per unit) or one no unit completes.
    pub fn is_vague_record(&self, name: &str) -> bool {
        name.contains("<anon") || self.record(name).is_none_or(|r| !r.complete)
    }

    /// Whether an object of type `outer` is, or holds by value, an object
    /// of type `inner`: as itself, as any member of a struct or union at
    /// any depth, or as an array element (arrays stand for their elements
    /// on both sides). Two records match when their keys agree or either
    /// is vague ([`TypeTable::is_vague_record`]); a record not in the
    /// table or a member of an unknown type may hold anything. Types that
    /// are neither records nor arrays are compared by the caller's `leaf`
    /// rule (whether a pointer or a scalar "is" another one differs
    /// between questions); a record that holds itself by value (ill-formed
    /// C) stops the walk.
    pub fn holds_by_value(
        &self,
        outer: &Type,
        inner: &Type,
        leaf: &dyn Fn(&Type, &Type) -> bool,
    ) -> bool {
        self.holds_in(element(outer), element(inner), leaf, &mut Vec::new())
    }

    fn holds_in<'a>(
        &'a self,
        outer: &'a Type,
        inner: &Type,
        leaf: &dyn Fn(&Type, &Type) -> bool,
        visiting: &mut Vec<&'a str>,
    ) -> bool {
        match outer {
            Type::Unknown => true,
            Type::Record(x) => {
                if let Type::Record(y) = inner {
                    if x == y || self.is_vague_record(x) || self.is_vague_record(y) {
                        return true;
                    }
                }
                let Some(r) = self.record(x) else {
                    return true;
                };
                if visiting.contains(&&**x) {
                    return false;
                }
                visiting.push(x);
                let held = r
                    .fields
                    .iter()
                    .any(|f| self.holds_in(element(&f.ty), inner, leaf, visiting));
                visiting.pop();
                held
            }
            _ => leaf(outer, inner),
        }
    }

    /// Strips arrays and resolves nothing else: the type of one element.
    pub fn field_type(&self, record: &str, field: &str) -> Option<&Type> {
        let r = self.records.get(record)?;
        r.fields.iter().find(|f| &*f.name == field).map(|f| &f.ty)
    }
}

/// The pointer-bearing leaves of a value of type `ty`: every path of fields
/// and array elements (head and tail) that ends at a pointer. A union is one
/// leaf if any of its members holds a pointer. Used to copy aggregates field
/// by field (EGH'94, section 3.3) and to initialise them.
pub fn pointer_paths(ty: &Type, types: &TypeTable) -> Vec<Vec<Sel>> {
    pointer_paths_in(ty, &|k| types.record(k))
}

/// [`pointer_paths`] with records looked up by a function (for layered
/// type tables).
pub fn pointer_paths_in<'t>(
    ty: &Type,
    types: &dyn Fn(&str) -> Option<&'t Record>,
) -> Vec<Vec<Sel>> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    let mut visiting = Vec::new();
    collect_paths(ty, types, &mut path, &mut visiting, &mut out);
    out
}

fn collect_paths<'t>(
    ty: &Type,
    types: &dyn Fn(&str) -> Option<&'t Record>,
    path: &mut Vec<Sel>,
    visiting: &mut Vec<Name>,
    out: &mut Vec<Vec<Sel>>,
) {
    match ty {
        Type::Pointer(_) | Type::Class(_) | Type::Unknown => out.push(path.clone()),
        Type::Array(elem, len) => {
            let indices: &[Index] = match len {
                Some(1) => &[Index::Zero],
                _ => &[Index::Zero, Index::Positive],
            };
            for &i in indices {
                path.push(Sel::Index(i));
                collect_paths(elem, types, path, visiting, out);
                path.pop();
            }
        }
        Type::Record(name) => {
            // A record that contains itself by value is ill-formed C; stop.
            if visiting.contains(name) {
                return;
            }
            let Some(rec) = types(name) else {
                return;
            };
            match rec.kind {
                RecordKind::Union => {
                    if rec
                        .fields
                        .iter()
                        .any(|f| !pointer_paths_in(&f.ty, types).is_empty())
                    {
                        out.push(path.clone());
                    }
                }
                RecordKind::Struct => {
                    visiting.push(name.clone());
                    for f in &rec.fields {
                        path.push(Sel::Field(f.name.clone()));
                        collect_paths(&f.ty, types, path, visiting, out);
                        path.pop();
                    }
                    visiting.pop();
                }
            }
        }
        Type::Void | Type::Scalar | Type::Function(_) => {}
    }
}

/// The element type of an array (of arrays), or the type itself.
fn element(t: &Type) -> &Type {
    match t {
        Type::Array(e, _) => element(e),
        _ => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(k: &str) -> Type {
        Type::Record(k.into())
    }

    fn table() -> TypeTable {
        let mut t = TypeTable::default();
        let mut add = |name: &str, kind, fields: &[(&str, Type)], complete| {
            t.records.insert(
                name.into(),
                Record {
                    name: name.into(),
                    kind,
                    fields: fields
                        .iter()
                        .map(|(n, ty)| Field {
                            name: (*n).into(),
                            ty: ty.clone(),
                        })
                        .collect(),
                    complete,
                },
            );
        };
        add(
            "struct key",
            RecordKind::Struct,
            &[("k", Type::Scalar)],
            true,
        );
        add(
            "struct link",
            RecordKind::Struct,
            &[("next", Type::pointer_to(rec("struct link")))],
            true,
        );
        add(
            "struct entry",
            RecordKind::Struct,
            &[
                ("head", Type::pointer_to(rec("struct link"))),
                ("key", Type::Array(Box::new(rec("struct key")), Some(2))),
            ],
            true,
        );
        add(
            "union either",
            RecordKind::Union,
            &[("e", rec("struct entry")), ("o", Type::Scalar)],
            true,
        );
        add("struct opaque", RecordKind::Struct, &[], false);
        add(
            "struct blob",
            RecordKind::Struct,
            &[("x", Type::Unknown)],
            true,
        );
        add(
            "struct self",
            RecordKind::Struct,
            &[("me", rec("struct self"))],
            true,
        );
        t
    }

    #[test]
    fn records_hold_records_by_value_at_any_depth_and_leaves_by_the_callers_rule() {
        let t = table();
        let never = |_: &Type, _: &Type| false;
        let same_class = |a: &Type, b: &Type| {
            matches!(
                (a, b),
                (Type::Pointer(_), Type::Pointer(_)) | (Type::Scalar, Type::Scalar)
            )
        };
        let holds =
            |o: &Type, i: &Type, leaf: &dyn Fn(&Type, &Type) -> bool| t.holds_by_value(o, i, leaf);
        // Itself, through arrays, members and a union's member.
        assert!(holds(&rec("struct key"), &rec("struct key"), &never));
        assert!(holds(&rec("struct entry"), &rec("struct key"), &never));
        assert!(holds(&rec("union either"), &rec("struct key"), &never));
        let keys = Type::Array(Box::new(rec("struct entry")), None);
        assert!(holds(&keys, &rec("struct key"), &never));
        // Pointed to is not held.
        assert!(!holds(&rec("struct entry"), &rec("struct link"), &never));
        assert!(!holds(&rec("struct key"), &rec("struct entry"), &never));
        // Vague records and unknown members may hold anything.
        assert!(holds(&rec("struct opaque"), &rec("struct key"), &never));
        assert!(holds(&rec("struct key"), &rec("struct opaque"), &never));
        assert!(holds(&rec("struct missing"), &Type::Scalar, &never));
        assert!(holds(&rec("struct <anon 1>"), &rec("struct key"), &never));
        assert!(holds(&rec("struct blob"), &rec("struct key"), &never));
        // Leaves follow the caller's rule.
        assert!(!holds(&rec("struct entry"), &Type::Scalar, &never));
        assert!(holds(&rec("struct entry"), &Type::Scalar, &same_class));
        let any_pointer = Type::pointer_to(Type::Void);
        assert!(holds(&rec("struct link"), &any_pointer, &same_class));
        assert!(!holds(&rec("struct key"), &any_pointer, &same_class));
        assert!(!holds(&Type::Scalar, &any_pointer, &same_class));
        // A record holding itself (ill-formed) ends the walk.
        assert!(!holds(&rec("struct self"), &rec("struct key"), &never));
    }
}
