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
