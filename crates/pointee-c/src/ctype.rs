//! C types from syntax: type specifiers, declarators (read inside out),
//! typedefs, and struct/union layouts by field.

use crate::lower::{decay_param, Lowerer, Sym};
use crate::syntax::{int_literal, named_children, Fields};
use pointee_ir::{Field, FnType, Name, NoteKind, Record, RecordKind, Sel, Type};
use tree_sitter::Node;

impl<'s> Lowerer<'s> {
    /// The type a type specifier names; defines records it declares.
    pub(crate) fn spec_type(&mut self, spec: Node) -> Type {
        match spec.kind_str() {
            "primitive_type" => match self.text(spec) {
                "void" => Type::Void,
                _ => Type::Scalar,
            },
            "sized_type_specifier" => Type::Scalar,
            "enum_specifier" => {
                if let Some(body) = spec.field("body") {
                    for e in named_children(body) {
                        if let Some(n) = e.field("name") {
                            let name = self.text(n).to_string();
                            self.bind(&name, Sym::EnumConst);
                        }
                    }
                }
                Type::Scalar
            }
            "struct_specifier" | "union_specifier" => Type::Record(self.record(spec)),
            "type_identifier" => {
                self.typedef_lookups += 1;
                let name = self.text(spec);
                match self.lookup(name) {
                    Some(Sym::Typedef(t)) => t.clone(),
                    _ => Type::Unknown,
                }
            }
            // `typeof(x)` / `__typeof__(T)` (tree-sitter reads any
            // `name(...)` in type position so).
            "macro_type_specifier" => {
                let is_typeof = spec
                    .field("name")
                    .is_some_and(|n| matches!(self.text(n), "typeof" | "__typeof__" | "__typeof"));
                match spec.field("type") {
                    Some(td) if is_typeof => self.typeof_type(td),
                    _ => Type::Unknown,
                }
            }
            _ => Type::Unknown,
        }
    }

    /// The record key of a struct or union specifier, defining its fields
    /// when it has a body.
    fn record(&mut self, spec: Node) -> Name {
        let kind = if spec.kind_str() == "union_specifier" {
            RecordKind::Union
        } else {
            RecordKind::Struct
        };
        let word = if kind == RecordKind::Union {
            "union"
        } else {
            "struct"
        };
        let body = spec.field("body");
        let name = spec.field("name");
        if let (Some(n), None) = (name, body) {
            // A reference to a known record (most are) shares its key,
            // without making a string for it.
            let mut key = std::mem::take(&mut self.key_buf);
            key.clear();
            key.push_str(word);
            key.push(' ');
            key.push_str(self.text(n));
            let known = self
                .program
                .types
                .records
                .get_key_value(key.as_str())
                .or_else(|| self.base.types.records.get_key_value(key.as_str()))
                .map(|(k, _)| k.clone());
            let known = known.unwrap_or_else(|| {
                let k: Name = key.as_str().into();
                self.program.types.records.insert(
                    k.clone(),
                    Record {
                        name: k.clone(),
                        kind,
                        fields: Vec::new(),
                        complete: false,
                    },
                );
                k
            });
            self.key_buf = key;
            return known;
        }
        let key: Name = match name {
            Some(n) => format!("{word} {}", self.text(n)).into(),
            None if self.anon_name_hint.is_some() && body.is_some() => {
                format!("{word} {}", self.anon_name_hint.take().unwrap_or_default()).into()
            }
            None => {
                self.anon_records += 1;
                match &self.anon_owner {
                    Some(f) => format!("{word} <anon{} in {f}>", self.anon_records).into(),
                    None => format!("{word} <anon{}>", self.anon_records).into(),
                }
            }
        };
        let Some(body) = body else {
            // A reference to a record: keep the layout known here or in
            // the file scope; only an unknown tag gets an empty layout.
            if self.record_def(&key).is_some() {
                return key;
            }
            self.program
                .types
                .records
                .entry(key.clone())
                .or_insert(Record {
                    name: key.clone(),
                    kind,
                    fields: Vec::new(),
                    complete: false,
                });
            return key;
        };
        let mut fields = Vec::new();
        let mut anon_members = 0;
        for fd in named_children(body) {
            if fd.kind_str() != "field_declaration" {
                continue;
            }
            let base = match fd.field("type") {
                Some(t) => self.spec_type(t),
                None => Type::Scalar,
            };
            let decls = crate::syntax::children_by_field(fd, "declarator");
            if decls.is_empty() {
                // C11 anonymous struct/union member: its fields are reached
                // through a made-up member name.
                if matches!(base, Type::Record(_)) {
                    anon_members += 1;
                    fields.push(Field {
                        name: format!("<anon{anon_members}>").into(),
                        ty: base,
                    });
                }
                continue;
            }
            for d in decls {
                let (name, ty) = self.declarator(d, base.clone());
                if let Some(n) = name {
                    fields.push(Field {
                        name: self.text(n).into(),
                        ty,
                    });
                }
            }
        }
        self.program.types.records.insert(
            key.clone(),
            Record {
                name: key.clone(),
                kind,
                fields,
                complete: true,
            },
        );
        self.source.records.retain(|(k, _)| *k != key);
        self.source
            .records
            .push((key.clone(), crate::syntax::range(spec)));
        key
    }

    /// Reads a declarator inside out around `base`: the declared name (if
    /// any) and its type.
    pub(crate) fn declarator<'t>(&mut self, d: Node<'t>, base: Type) -> (Option<Node<'t>>, Type) {
        let mut d = d;
        let mut ty = base;
        let mut guard = 0;
        loop {
            guard += 1;
            if guard > crate::lower::MAX_DEPTH {
                self.note(d, NoteKind::Unsupported, "declarator nested too deeply");
                return (None, Type::Unknown);
            }
            match d.kind_str() {
                "identifier" | "field_identifier" | "type_identifier" => return (Some(d), ty),
                "pointer_declarator" | "abstract_pointer_declarator" => {
                    ty = Type::pointer_to(ty);
                    match d.field("declarator") {
                        Some(inner) => d = inner,
                        None => return (None, ty),
                    }
                }
                "array_declarator" | "abstract_array_declarator" => {
                    let len = d
                        .field("size")
                        .filter(|s| s.kind_str() == "number_literal")
                        .and_then(|s| int_literal(self.text(s)));
                    ty = Type::Array(Box::new(ty), len);
                    match d.field("declarator") {
                        Some(inner) => d = inner,
                        None => return (None, ty),
                    }
                }
                "function_declarator" | "abstract_function_declarator" => {
                    let (params, variadic) = match d.field("parameters") {
                        Some(list) => self.parameter_types(list),
                        None => (Vec::new(), false),
                    };
                    ty = Type::Function(Box::new(FnType {
                        ret: ty,
                        params,
                        variadic,
                    }));
                    match d.field("declarator") {
                        Some(inner) => d = inner,
                        None => return (None, ty),
                    }
                }
                "parenthesized_declarator"
                | "abstract_parenthesized_declarator"
                | "attributed_declarator" => {
                    match named_children(d).into_iter().find(|c| {
                        !matches!(c.kind_str(), "attribute_specifier" | "ms_call_modifier")
                    }) {
                        Some(inner) => d = inner,
                        None => return (None, ty),
                    }
                }
                "init_declarator" => match d.field("declarator") {
                    Some(inner) => d = inner,
                    None => return (None, ty),
                },
                _ => return (None, ty),
            }
        }
    }

    fn parameter_types(&mut self, list: Node) -> (Vec<Type>, bool) {
        let mut params = Vec::new();
        let mut variadic = false;
        // One walk over every child: the named ones are parameters, and an
        // unnamed `...` shows up as a bare token.
        for p in crate::syntax::children(list) {
            if !p.is_named() {
                variadic |= p.kind_str() == "...";
                continue;
            }
            match p.kind_str() {
                "variadic_parameter" => variadic = true,
                "parameter_declaration" => {
                    let base = p
                        .field("type")
                        .map(|t| self.spec_type(t))
                        .unwrap_or(Type::Scalar);
                    let ty = match p.field("declarator") {
                        Some(d) => self.declarator(d, base).1,
                        None => base,
                    };
                    if ty != Type::Void {
                        params.push(decay_param(ty));
                    }
                }
                "identifier" => params.push(Type::Scalar),
                _ => {}
            }
        }
        (params, variadic)
    }

    /// The type `typeof(...)` names: of a variable (tree-sitter reads its
    /// name as a type name), or of a type; unknown for other expressions.
    fn typeof_type(&mut self, td: Node) -> Type {
        let inner = td.field("type");
        if td.field("declarator").is_none() {
            if let Some(t) = inner.filter(|t| t.kind_str() == "type_identifier") {
                match self.lookup(self.text(t)) {
                    Some(Sym::Local(_, ty)) | Some(Sym::Global(_, ty)) => return ty.clone(),
                    Some(Sym::Function(_, f)) => return Type::Function(Box::new(f.clone())),
                    _ => {}
                }
            }
        }
        self.type_descriptor(td)
    }

    /// The type a `type_descriptor` (in a cast, sizeof, compound literal) names.
    pub(crate) fn type_descriptor(&mut self, td: Node) -> Type {
        let base = td
            .field("type")
            .map(|t| self.spec_type(t))
            .unwrap_or(Type::Unknown);
        match td.field("declarator") {
            Some(d) => self.declarator(d, base).1,
            None => base,
        }
    }

    /// A field of a record type, searching C11 anonymous members: the path of
    /// selectors to reach it (empty through a union, whose members share one
    /// location) and its type.
    pub(crate) fn find_field(&self, record: &str, field: &str) -> Option<(Vec<Sel>, Type)> {
        self.find_field_outside(record, field, &mut Vec::new())
    }

    /// `find_field`, never entering a record of `entered` again: an invalid
    /// program may make a record its own anonymous member (`struct S {
    /// struct S; };`, directly or through another record), which recursed
    /// until the stack overflowed.
    fn find_field_outside<'r>(
        &'r self,
        record: &'r str,
        field: &str,
        entered: &mut Vec<&'r str>,
    ) -> Option<(Vec<Sel>, Type)> {
        if entered.contains(&record) {
            return None;
        }
        entered.push(record);
        let rec = self.record_def(record)?;
        let step = |f: &Field| match rec.kind {
            RecordKind::Struct => vec![Sel::Field(f.name.clone())],
            RecordKind::Union => Vec::new(),
        };
        if let Some(f) = rec.fields.iter().find(|f| &*f.name == field) {
            return Some((step(f), f.ty.clone()));
        }
        for f in rec.fields.iter().filter(|f| f.name.starts_with("<anon")) {
            if let Type::Record(inner) = &f.ty {
                if let Some((mut rest, ty)) = self.find_field_outside(inner, field, entered) {
                    let mut path = step(f);
                    path.append(&mut rest);
                    return Some((path, ty));
                }
            }
        }
        None
    }

    pub(crate) fn is_union(&self, ty: &Type) -> bool {
        matches!(ty, Type::Record(r) if self.record_def(r).is_some_and(|r| r.kind == RecordKind::Union))
    }

    /// The C type of an expression, read from declarations without lowering
    /// it (for initializers, which must not emit statements to find out).
    pub(crate) fn static_type(&mut self, e: Node) -> Option<Type> {
        let e = crate::syntax::strip_parens(e);
        match e.kind_str() {
            "identifier" => match self.lookup(self.text(e))? {
                Sym::Local(_, t) | Sym::Global(_, t) => Some(t.clone()),
                Sym::Function(_, f) => Some(Type::Function(Box::new(f.clone()))),
                Sym::EnumConst => Some(Type::Scalar),
                Sym::Typedef(_) => None,
            },
            "number_literal" | "char_literal" | "sizeof_expression" => Some(Type::Scalar),
            "string_literal" | "concatenated_string" => Some(Type::pointer_to(Type::Scalar)),
            "pointer_expression" => {
                let inner = self.static_type(e.field("argument")?)?;
                if self.text(e.field("operator")?) == "&" {
                    Some(Type::pointer_to(inner))
                } else {
                    element_type(&inner)
                }
            }
            "field_expression" => {
                let base = self.static_type(e.field("argument")?)?;
                let arrow = self.text(e.field("operator")?) == "->";
                let record = if arrow { element_type(&base)? } else { base };
                let Type::Record(r) = record else { return None };
                let field = self.text(e.field("field")?);
                self.find_field(&r, field).map(|(_, t)| t)
            }
            "subscript_expression" => element_type(&self.static_type(e.field("argument")?)?),
            "call_expression" => match self.static_type(e.field("function")?)? {
                Type::Function(f) => Some(f.ret),
                Type::Pointer(t) => match *t {
                    Type::Function(f) => Some(f.ret),
                    _ => None,
                },
                _ => None,
            },
            "cast_expression" | "compound_literal_expression" => {
                let td = e.field("type")?;
                Some(self.type_descriptor(td))
            }
            "conditional_expression" => self.static_type(e.field("alternative")?),
            "assignment_expression" => self.static_type(e.field("left")?),
            "comma_expression" => self.static_type(e.field("right")?),
            _ => None,
        }
    }
}

/// The type a pointer points to, or an array's element type.
fn element_type(t: &Type) -> Option<Type> {
    match t {
        Type::Pointer(inner) | Type::Array(inner, _) => Some((**inner).clone()),
        _ => None,
    }
}
