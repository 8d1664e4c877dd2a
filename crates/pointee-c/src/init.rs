//! Initializers: nested braces, designators and brace elision, flattened to
//! (path, value) items; then global values (constants) or local assignments.
//! Members an initializer list leaves out are zero, so their pointers are
//! null.

use crate::expr::carries_pointer;
use crate::lower::{Lowerer, Sym};
use crate::syntax::{int_literal, named_children, range, strip_parens, Fields};
use pointee_ir::{
    Basic, GlobalInit, Index, NoteKind, Place, RecordKind, Rvalue, Sel, SiteKind, Stmt, StmtId,
    Type,
};
use std::collections::{BTreeMap, VecDeque};
use tree_sitter::Node;

/// One initialised member: where it is, its type, and the value's syntax.
struct Item<'t> {
    path: Vec<Sel>,
    ty: Type,
    value: Node<'t>,
}

#[derive(Default)]
struct Flat<'t> {
    items: Vec<Item<'t>>,
    /// Array tails that some element leaves uninitialised (so zero).
    partial_tails: Vec<Vec<Sel>>,
}

impl<'s> Lowerer<'s> {
    /// Flattens an initializer (a brace list or a single expression).
    fn flatten<'t>(&mut self, ty: &Type, init: Node<'t>) -> Flat<'t> {
        let mut flat = Flat::default();
        if init.kind_str() == "initializer_list" {
            let mut elems: VecDeque<Node<'t>> = named_children(init).into();
            self.fill(ty, &mut Vec::new(), false, &mut elems, true, &mut flat);
        } else {
            flat.items.push(Item {
                path: Vec::new(),
                ty: ty.clone(),
                value: init,
            });
        }
        flat
    }

    /// Fills an aggregate from the front of `elems`. A braced list takes all
    /// of its elements; without braces (elision) it takes as many as its
    /// members need.
    fn fill<'t>(
        &mut self,
        ty: &Type,
        path: &mut Vec<Sel>,
        collapsed: bool,
        elems: &mut VecDeque<Node<'t>>,
        braced: bool,
        flat: &mut Flat<'t>,
    ) {
        let members = self.members(ty);
        let mut pos: u64 = 0;
        let mut written: u64 = 0;
        while let Some(&e) = elems.front() {
            if e.kind_str() == "initializer_pair" {
                if !braced {
                    break;
                }
                elems.pop_front();
                pos = self.designated(ty, path, collapsed, e, flat) + 1;
                written = written.max(pos);
                continue;
            }
            let Some((sels, mty, mcollapsed)) = self.member(ty, &members, pos) else {
                if braced {
                    elems.pop_front(); // excess initializer
                    continue;
                }
                break;
            };
            let before = elems.len();
            let n = path.len();
            if !collapsed {
                path.extend(sels);
            }
            self.element(&mty, path, collapsed || mcollapsed, elems, flat);
            path.truncate(n);
            if elems.len() == before {
                break; // nothing consumed: avoid looping on empty members
            }
            pos += 1;
            written = written.max(pos);
        }
        if let (Type::Array(_, Some(len)), false) = (ty, collapsed) {
            if written < *len && *len > 1 {
                let mut tail = path.clone();
                tail.push(Sel::Index(Index::Positive));
                flat.partial_tails.push(tail);
            }
        }
    }

    /// One member's initializer: a nested list, an elided aggregate, or a value.
    fn element<'t>(
        &mut self,
        ty: &Type,
        path: &mut Vec<Sel>,
        collapsed: bool,
        elems: &mut VecDeque<Node<'t>>,
        flat: &mut Flat<'t>,
    ) {
        let Some(&e) = elems.front() else { return };
        if e.kind_str() == "initializer_list" {
            elems.pop_front();
            let mut inner: VecDeque<Node<'t>> = named_children(e).into();
            self.fill(ty, path, collapsed, &mut inner, true, flat);
            return;
        }
        let aggregate = matches!(ty, Type::Array(..)) || self.is_struct(ty);
        let string_into_array = matches!(ty, Type::Array(..))
            && matches!(
                strip_parens(e).kind_str(),
                "string_literal" | "concatenated_string"
            );
        if aggregate && !string_into_array && !self.has_type(e, ty) {
            self.fill(ty, path, collapsed, elems, false, flat);
            return;
        }
        elems.pop_front();
        if !string_into_array {
            flat.items.push(Item {
                path: path.clone(),
                ty: ty.clone(),
                value: e,
            });
        }
    }

    /// `.f = v`, `[3] = v`, `.a.b[2] = v`: returns the position (member
    /// index) at this level that the first designator selected.
    fn designated<'t>(
        &mut self,
        ty: &Type,
        path: &mut Vec<Sel>,
        collapsed: bool,
        pair: Node<'t>,
        flat: &mut Flat<'t>,
    ) -> u64 {
        let designators = crate::syntax::children_by_field(pair, "designator");
        let Some(value) = pair.field("value") else {
            return 0;
        };
        let n = path.len();
        let mut cur_ty = ty.clone();
        let mut cur_collapsed = collapsed;
        let mut first_pos = 0;
        for (i, d) in designators.iter().enumerate() {
            let (sels, mty, pos, through_union) = match d.kind_str() {
                "field_designator" => {
                    let fname = named_children(*d)
                        .first()
                        .map(|f| self.text(*f))
                        .unwrap_or("");
                    let (sels, mty) = match &cur_ty {
                        Type::Record(r) => self
                            .find_field(r, fname)
                            .unwrap_or((vec![Sel::Field(fname.into())], Type::Unknown)),
                        _ => (vec![Sel::Field(fname.into())], Type::Unknown),
                    };
                    let pos = self.field_position(&cur_ty, fname);
                    let union = self.is_union(&cur_ty);
                    (sels, mty, pos, union)
                }
                "subscript_designator" | "subscript_range_designator" => {
                    let (idx, pos) = match named_children(*d).first() {
                        Some(&k) if d.kind_str() == "subscript_designator" => {
                            match int_literal(self.text(strip_parens(k))) {
                                Some(0) => (Index::Zero, 0),
                                Some(v) => (Index::Positive, v),
                                None => (Index::Any, 0),
                            }
                        }
                        _ => (Index::Any, 0),
                    };
                    let elem = match &cur_ty {
                        Type::Array(e, _) => (**e).clone(),
                        _ => Type::Unknown,
                    };
                    (vec![Sel::Index(idx)], elem, pos, false)
                }
                _ => (Vec::new(), Type::Unknown, 0, false),
            };
            if i == 0 {
                first_pos = pos;
            }
            if !cur_collapsed {
                path.extend(sels);
            }
            cur_collapsed |= through_union;
            cur_ty = mty;
        }
        let mut single: VecDeque<Node<'t>> = VecDeque::from(vec![value]);
        self.element(&cur_ty, path, cur_collapsed, &mut single, flat);
        path.truncate(n);
        first_pos
    }

    /// The members of an aggregate in initialisation order.
    fn members(&self, ty: &Type) -> Vec<(Vec<Sel>, Type, bool)> {
        match ty {
            Type::Record(r) => match self.record_def(r) {
                Some(rec) if rec.kind == RecordKind::Struct => rec
                    .fields
                    .iter()
                    .map(|f| (vec![Sel::Field(f.name.clone())], f.ty.clone(), false))
                    .collect(),
                // A union initialises its first member, in its one location.
                Some(rec) => rec
                    .fields
                    .first()
                    .map(|f| vec![(Vec::new(), f.ty.clone(), true)])
                    .unwrap_or_default(),
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    fn member(
        &self,
        ty: &Type,
        members: &[(Vec<Sel>, Type, bool)],
        pos: u64,
    ) -> Option<(Vec<Sel>, Type, bool)> {
        match ty {
            Type::Array(elem, len) => {
                if len.is_some_and(|l| pos >= l) {
                    return None;
                }
                let idx = if pos == 0 {
                    Index::Zero
                } else {
                    Index::Positive
                };
                Some((vec![Sel::Index(idx)], (**elem).clone(), false))
            }
            Type::Record(_) => members.get(pos as usize).cloned(),
            // Braces around a scalar: `int *p = { &x };`
            t => (pos == 0).then(|| (Vec::new(), t.clone(), false)),
        }
    }

    fn field_position(&self, ty: &Type, field: &str) -> u64 {
        match ty {
            Type::Record(r) => self
                .program
                .types
                .record(r)
                .and_then(|rec| rec.fields.iter().position(|f| &*f.name == field))
                .unwrap_or(0) as u64,
            _ => 0,
        }
    }

    fn is_struct(&self, ty: &Type) -> bool {
        matches!(ty, Type::Record(r) if self.record_def(r).is_some_and(|r| r.kind == RecordKind::Struct && !r.fields.is_empty()))
    }

    /// Whether an initializer expression already has the aggregate's type
    /// (then it initialises the whole member, with no brace elision).
    fn has_type(&mut self, e: Node, ty: &Type) -> bool {
        matches!(ty, Type::Record(_)) && self.static_type(e).as_ref() == Some(ty)
    }

    /// A global's initial values, leaf by leaf (absent leaves start null).
    pub(crate) fn global_initializer(
        &mut self,
        owner: &str,
        ty: &Type,
        init: Node,
    ) -> Vec<GlobalInit> {
        let flat = self.flatten(ty, init);
        let mut values: BTreeMap<Vec<Sel>, Vec<Rvalue>> = BTreeMap::new();
        for item in &flat.items {
            if matches!(item.ty, Type::Record(_) | Type::Array(..))
                && !self.pointer_paths(&item.ty).is_empty()
            {
                self.note(
                    item.value,
                    NoteKind::Unsupported,
                    format!("aggregate copy in the initializer of `{owner}` lowered as unknown"),
                );
                for leaf in self.pointer_paths(&item.ty) {
                    let mut p = item.path.clone();
                    p.extend(leaf);
                    values.entry(p).or_default().push(Rvalue::Unknown);
                }
                continue;
            }
            let v = self.const_value(item.value, &item.ty);
            if item.ty.is_pointer_like() || carries_pointer(&v) {
                let v = if v == Rvalue::Scalar {
                    Rvalue::Unknown
                } else {
                    v
                };
                let slot = values.entry(item.path.clone()).or_default();
                if !slot.contains(&v) {
                    slot.push(v);
                }
            }
        }
        // A tail partly initialised keeps null for the other elements.
        for tail in &flat.partial_tails {
            for (path, vals) in values.iter_mut() {
                if path.starts_with(tail) && !vals.contains(&Rvalue::Null) {
                    vals.push(Rvalue::Null);
                }
            }
        }
        values
            .into_iter()
            .map(|(path, values)| GlobalInit { path, values })
            .collect()
    }

    /// The value of a constant expression in a global initializer.
    fn const_value(&mut self, n: Node, ty: &Type) -> Rvalue {
        let n = strip_parens(n);
        match n.kind_str() {
            "number_literal" => match int_literal(self.text(n)) {
                Some(0) => Rvalue::Null,
                _ => Rvalue::Scalar,
            },
            "char_literal"
            | "sizeof_expression"
            | "alignof_expression"
            | "offsetof_expression"
            | "true"
            | "false" => Rvalue::Scalar,
            "null" => Rvalue::Null,
            "string_literal" | "concatenated_string" => {
                Rvalue::String(self.new_site(range(n), SiteKind::String))
            }
            "identifier" => match self.lookup(self.text(n)).cloned() {
                Some(Sym::Function(f, _)) => Rvalue::Function(f),
                Some(Sym::Global(g, ty @ Type::Array(..))) => {
                    self.use_global(&g, &ty);
                    Rvalue::AddrOf(Place::global(g).index(Index::Zero))
                }
                Some(Sym::EnumConst) => Rvalue::Scalar,
                None if matches!(self.text(n), "NULL" | "nullptr") => Rvalue::Null,
                _ => {
                    self.note(
                        n,
                        NoteKind::Unsupported,
                        "non-constant value in a static initializer lowered as unknown",
                    );
                    Rvalue::Unknown
                }
            },
            // GNU `&&label`: the address of code, not of memory.
            "pointer_expression" if self.is_label_address(n) => Rvalue::Scalar,
            "pointer_expression" if self.operator(n) == "&" => {
                let Some(a) = n.field("argument") else {
                    return Rvalue::Unknown;
                };
                let a = strip_parens(a);
                if a.kind_str() == "identifier" {
                    if let Some(Sym::Function(f, _)) = self.lookup(self.text(a)) {
                        return Rvalue::Function(f.clone());
                    }
                }
                match self.const_place(a) {
                    Some((p, _)) => Rvalue::AddrOf(p),
                    None => {
                        self.note(
                            n,
                            NoteKind::Unsupported,
                            "address in a static initializer lowered as unknown",
                        );
                        Rvalue::Unknown
                    }
                }
            }
            "cast_expression" => match n.field("value") {
                Some(v) => {
                    let r = self.const_value(v, ty);
                    if r == Rvalue::Scalar && ty.is_pointer_like() {
                        Rvalue::Unknown
                    } else {
                        r
                    }
                }
                None => Rvalue::Unknown,
            },
            "binary_expression" if matches!(self.operator(n), "+" | "-") => {
                let (Some(l), Some(r)) = (n.field("left"), n.field("right")) else {
                    return Rvalue::Unknown;
                };
                let (lv, rv) = (self.const_value(l, ty), self.const_value(r, &Type::Scalar));
                let (ptr, other) = if carries_pointer(&lv) {
                    (lv, r)
                } else if carries_pointer(&rv) {
                    (rv, l)
                } else {
                    return Rvalue::Scalar;
                };
                let idx = if self.operator(n) == "+" {
                    self.index_kind(other)
                } else {
                    Index::Any
                };
                match ptr {
                    // `arr + i` moves along the array; other objects stay put.
                    Rvalue::AddrOf(mut p)
                        if matches!(p.path.last(), Some(Sel::Index(Index::Zero))) =>
                    {
                        p.path.pop();
                        Rvalue::AddrOf(p.index(idx))
                    }
                    other => other,
                }
            }
            // `(T)(x)`, which tree-sitter reads as a call: a cast.
            "call_expression" if self.typedef_callee(n).is_some() => {
                let arg = n
                    .field("arguments")
                    .and_then(|a| named_children(a).last().copied());
                match arg {
                    Some(v) => {
                        let r = self.const_value(v, ty);
                        if r == Rvalue::Scalar && ty.is_pointer_like() {
                            Rvalue::Unknown
                        } else {
                            r
                        }
                    }
                    None => Rvalue::Unknown,
                }
            }
            // Integer arithmetic (`1 << 7 | 3`, `-1`, `a ? 1 : 2`) for a
            // value that holds no pointer.
            "binary_expression" | "unary_expression" | "conditional_expression"
                if !ty.is_pointer_like() && !matches!(ty, Type::Unknown) =>
            {
                Rvalue::Scalar
            }
            "compound_literal_expression" => {
                let lty = n
                    .field("type")
                    .map(|t| self.type_descriptor(t))
                    .unwrap_or(Type::Unknown);
                if !self.pointer_paths(&lty).is_empty() {
                    self.note(
                        n,
                        NoteKind::Unsupported,
                        "pointers inside a file-scope compound literal are not tracked",
                    );
                }
                Rvalue::Literal(self.new_site(range(n), SiteKind::Literal), lty)
            }
            _ => {
                self.note(
                    n,
                    NoteKind::Unsupported,
                    format!(
                        "`{}` in a static initializer lowered as unknown",
                        n.kind_str()
                    ),
                );
                Rvalue::Unknown
            }
        }
    }

    /// The place a constant address expression names (`g`, `g.f`, `g[2]`).
    fn const_place(&mut self, n: Node) -> Option<(Place, Type)> {
        let n = strip_parens(n);
        match n.kind_str() {
            "identifier" => match self.lookup(self.text(n)).cloned() {
                Some(Sym::Global(g, ty)) => {
                    self.use_global(&g, &ty);
                    Some((Place::global(g), ty))
                }
                _ => None,
            },
            "field_expression" if self.operator(n) == "." => {
                let (p, ty) = self.const_place(n.field("argument")?)?;
                let fname = self.text(n.field("field")?);
                let Type::Record(r) = &ty else { return None };
                let (sels, fty) = self.find_field(r, fname)?;
                let mut p = p;
                p.path.extend(sels);
                Some((p, fty))
            }
            "subscript_expression" => {
                let (p, ty) = self.const_place(n.field("argument")?)?;
                let idx = self.index_kind(n.field("index")?);
                match ty {
                    Type::Array(elem, _) => Some((p.index(idx), *elem)),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Assignments for a local initializer list into `place`; members it
    /// leaves out are set to null.
    pub(crate) fn local_initializer(&mut self, place: &Place, ty: &Type, init: Node) {
        let first = self.next_stmt();
        let flat = self.flatten(ty, init);
        let mut covered: Vec<Vec<Sel>> = Vec::new();
        for item in &flat.items {
            let v = self.expr(item.value);
            let mut lhs = place.clone();
            lhs.path.extend(item.path.iter().cloned());
            self.assign(&lhs, false, &item.ty, &v, range(item.value));
            covered.push(item.path.clone());
        }
        for leaf in self.pointer_paths(ty) {
            let is_covered = covered
                .iter()
                .any(|c| leaf.starts_with(c) || c.starts_with(&leaf));
            let in_partial_tail = flat.partial_tails.iter().any(|t| leaf.starts_with(t));
            if !is_covered || in_partial_tail {
                let mut lhs = place.clone();
                lhs.path.extend(leaf);
                self.emit(
                    pointee_ir::Basic::Assign {
                        lhs,
                        rhs: Rvalue::Null,
                    },
                    range(init),
                );
            }
        }
        self.mark_overwrites(place, first);
    }

    /// Marks, among the statements from `first` on that initialise the
    /// local `place`, the first write of each array-tail location
    /// (`Function::overwrites`): the whole initialiser writes every element
    /// a tail stands for, so its first write may replace the tail's
    /// `uninit` instead of joining it (`int *a[3] = {&x, &y}` never leaves
    /// `a[+]` uninitialised).
    pub(crate) fn mark_overwrites(&mut self, place: &Place, first: StmtId) {
        if place.deref {
            return;
        }
        let mut seen: Vec<&Place> = Vec::new();
        let mut marked = Vec::new();
        for s in self.f.blocks.last().into_iter().flatten() {
            let Stmt::Basic(id, Basic::Assign { lhs, .. }) = s else {
                continue;
            };
            let in_tail = lhs.path.contains(&Sel::Index(Index::Positive));
            if id.0 < first.0
                || lhs.base != place.base
                || lhs.deref
                || !lhs.path.starts_with(&place.path)
                || !in_tail
                || seen.contains(&lhs)
            {
                continue;
            }
            seen.push(lhs);
            marked.push(*id);
        }
        self.f.overwrites.extend(marked);
    }
}
