//! Expressions to SIMPLE form: every value is a place (at most one
//! dereference), an rvalue, or a function designator; nested expressions get
//! temporaries.

use crate::lower::{Lowerer, Sym, MAX_DEPTH};
use crate::syntax::{int_literal, named_children, range, strip_parens, Fields};
use pointee_ir::{
    Base, Basic, CallInfo, Callee, CmpOp, ExprInfo, Index, IntExpr, IntOp, Name, NoteKind, Operand,
    Place, Point, Range, Rvalue, Sel, SiteKind, StmtId, Type, VarId,
};
use tree_sitter::Node;

/// A lowered expression and its C type.
#[derive(Clone, Debug)]
pub(crate) struct Val {
    pub kind: ValKind,
    pub ty: Type,
}

#[derive(Clone, Debug)]
pub(crate) enum ValKind {
    /// An lvalue. `collapsed` once its path went through a union: every
    /// member of a union is the union's one location, so further selectors
    /// are dropped.
    Place(Place, bool),
    Rv(Rvalue),
    /// A function designator.
    Func(Name),
}

impl Val {
    fn rv(r: Rvalue, ty: Type) -> Val {
        Val {
            kind: ValKind::Rv(r),
            ty,
        }
    }
    fn place(p: Place, ty: Type) -> Val {
        Val {
            kind: ValKind::Place(p, false),
            ty,
        }
    }
    pub(crate) fn unknown() -> Val {
        Val::rv(Rvalue::Unknown, Type::Unknown)
    }
    fn scalar() -> Val {
        Val::rv(Rvalue::Scalar, Type::Scalar)
    }
}

/// What a call of a gcc builtin is.
enum Builtin {
    /// It is this value (evaluated already).
    Value(Val),
    /// It is a call of this function.
    Call(String),
    /// It is a call of an unknown function.
    Unknown,
}

/// True when a value of the rvalue may hold an address.
pub(crate) fn carries_pointer(r: &Rvalue) -> bool {
    !matches!(r, Rvalue::Null | Rvalue::Scalar)
}

fn pointer_like(ty: &Type) -> bool {
    ty.is_pointer_like() || matches!(ty, Type::Array(..))
}

fn int_const(k: i64) -> IntExpr {
    IntExpr::Operand(Operand::Int(k))
}

/// The integer expression a lowered value is, when it has one: a
/// constant, an integer place (not through a union), or arithmetic on
/// them. Floats are `Type::Scalar` too, so the witness treats them as
/// integers.
fn int_of(v: &Val) -> Option<IntExpr> {
    match &v.kind {
        ValKind::Rv(Rvalue::Int(e)) => Some(e.clone()),
        ValKind::Rv(Rvalue::Null) if v.ty == Type::Scalar => Some(int_const(0)),
        ValKind::Place(p, false) if v.ty == Type::Scalar => {
            Some(IntExpr::Operand(Operand::Place(p.clone())))
        }
        _ => None,
    }
}

/// `l op r` on integers: its expression when both sides have one and the
/// operator is arithmetic, else a scalar.
fn int_arith(l: &Val, op: &str, r: &Val) -> Val {
    match (int_of(l), IntOp::from_token(op), int_of(r)) {
        (Some(a), Some(op), Some(b)) => Val::rv(
            Rvalue::Int(IntExpr::Bin(Box::new(a), op, Box::new(b))),
            Type::Scalar,
        ),
        _ => Val::scalar(),
    }
}

/// The operand a lowered value is, when it is a constant or a place.
fn operand_of(v: &Val) -> Option<Operand> {
    match int_of(v)? {
        IntExpr::Operand(o) => Some(o),
        IntExpr::Bin(..) => None,
    }
}

/// Adds selectors to a place unless it went through a union.
fn extend(mut p: Place, collapsed: bool, sels: &[Sel]) -> Place {
    if !collapsed {
        p.path.extend_from_slice(sels);
    }
    p
}

impl<'s> Lowerer<'s> {
    /// Lowers an expression, recording pointer-typed places for hover.
    pub(crate) fn expr(&mut self, n: Node) -> Val {
        if self.depth >= MAX_DEPTH {
            return self.unmodelled(n, "expression nested too deeply");
        }
        self.depth += 1;
        let v = self.expr_inner(n);
        self.depth -= 1;
        if let ValKind::Place(p, _) = &v.kind {
            if pointer_like(&v.ty)
                && matches!(
                    n.kind_str(),
                    "identifier"
                        | "field_expression"
                        | "subscript_expression"
                        | "pointer_expression"
                )
                && self.in_function()
            {
                let point = Point::Before(self.next_stmt());
                self.f.exprs.push(ExprInfo {
                    range: range(n),
                    place: p.clone(),
                    point,
                    ty: v.ty.clone(),
                });
            }
        }
        v
    }

    /// Records that the expression at `at` holds `place` after `stmt`.
    fn record_written(&mut self, at: Range, place: &Place, ty: &Type, stmt: StmtId) {
        if !pointer_like(ty) {
            return;
        }
        self.f.exprs.replace(ExprInfo {
            range: at,
            place: place.clone(),
            point: Point::After(stmt),
            ty: ty.clone(),
        });
    }

    /// Something we cannot model: a note, a call to an unknown function (so
    /// that whatever escapes may change), and an unknown value.
    pub(crate) fn unmodelled(&mut self, n: Node, what: &str) -> Val {
        let kind = if n.is_error() || n.is_missing() {
            NoteKind::Syntax
        } else {
            NoteKind::Unsupported
        };
        self.note(n, kind, format!("{what}; lowered as unknown"));
        if self.in_function() {
            let site = self.new_site(range(n), SiteKind::Call);
            self.emit(
                Basic::Call {
                    site,
                    lhs: None,
                    callee: Callee::Direct("__pointee_unmodelled".into()),
                    args: Vec::new(),
                },
                range(n),
            );
        }
        Val::unknown()
    }

    fn expr_inner(&mut self, n: Node) -> Val {
        match n.kind_str() {
            "identifier" => self.identifier(n),
            "number_literal" => match int_literal(self.text(n)) {
                Some(0) => Val::rv(Rvalue::Null, Type::Scalar),
                Some(k) => match i64::try_from(k) {
                    Ok(k) => Val::rv(Rvalue::Int(int_const(k)), Type::Scalar),
                    Err(_) => Val::scalar(),
                },
                None => Val::scalar(),
            },
            "char_literal"
            | "true"
            | "false"
            | "sizeof_expression"
            | "alignof_expression"
            | "offsetof_expression" => Val::scalar(),
            "null" => Val::rv(Rvalue::Null, Type::pointer_to(Type::Void)),
            "string_literal" | "concatenated_string" => {
                let site = self.new_site(range(n), SiteKind::String);
                Val::rv(Rvalue::String(site), Type::pointer_to(Type::Scalar))
            }
            "parenthesized_expression" | "extension_expression" => match named_children(n).last() {
                Some(&inner) => self.expr(inner),
                None => self.unmodelled(n, "empty parentheses"),
            },
            "comma_expression" => {
                if let Some(l) = n.field("left") {
                    self.effect(l);
                }
                match n.field("right") {
                    Some(r) => self.expr(r),
                    None => Val::scalar(),
                }
            }
            "pointer_expression" => self.pointer_expression(n),
            "field_expression" => self.field_expression(n),
            "subscript_expression" => self.subscript(n),
            "call_expression" => self.call(n),
            "assignment_expression" => self.assignment(n),
            "update_expression" => self.update(n),
            "unary_expression" => {
                if let Some(a) = n.field("argument") {
                    let v = self.expr(a);
                    self.read_if_deref(&v, range(a));
                    match self.operator(n) {
                        "+" => return v,
                        "-" => {
                            // `-e` is `0 - e`, for the witness's arithmetic.
                            if let Some(e) = int_of(&v) {
                                let e =
                                    IntExpr::Bin(Box::new(int_const(0)), IntOp::Sub, Box::new(e));
                                return Val::rv(Rvalue::Int(e), Type::Scalar);
                            }
                        }
                        _ => {}
                    }
                }
                Val::scalar()
            }
            "binary_expression" => self.binary(n),
            "conditional_expression" => self.conditional(n),
            "cast_expression" => self.cast(n),
            "compound_literal_expression" => self.compound_literal(n),
            "initializer_list" => self.unmodelled(n, "brace list outside an initializer"),
            // GNU `({ ...; e; })`: the statements, then `e`'s value.
            "compound_statement" => self.statement_expression(n),
            "gnu_asm_expression" => self.asm(n),
            _ => self.unmodelled(n, &format!("`{}` expression", n.kind_str())),
        }
    }

    pub(crate) fn operator(&self, n: Node) -> &'s str {
        n.field("operator").map(|o| self.text(o)).unwrap_or("")
    }

    fn identifier(&mut self, n: Node) -> Val {
        let name = self.text(n);
        match self.lookup(name).cloned() {
            Some(Sym::Local(id, ty)) => Val::place(Place::var(id), ty),
            Some(Sym::Global(g, ty)) => {
                self.use_global(&g, &ty);
                Val::place(Place::global(g), ty)
            }
            Some(Sym::Function(f, ty)) => Val {
                kind: ValKind::Func(f),
                ty: Type::Function(Box::new(ty)),
            },
            Some(Sym::EnumConst) => Val::scalar(),
            Some(Sym::Typedef(_)) => self.unmodelled(n, "type name used as a value"),
            None if name == "NULL" || name == "nullptr" => {
                Val::rv(Rvalue::Null, Type::pointer_to(Type::Void))
            }
            None if crate::library::is_function(name) => {
                // A C library function used as a value (`qsort(.., strcmp)`,
                // `atexit(free)`): its header was not read.
                Val {
                    kind: ValKind::Func(name.into()),
                    ty: Type::Unknown,
                }
            }
            None if crate::library::global_type(name).is_some() => {
                let ty = crate::library::global_type(name).unwrap_or(Type::Unknown);
                self.library_global(name, ty.clone());
                Val::place(Place::global(name.into()), ty)
            }
            None => {
                // Most often a macro constant (its #define was skipped) or
                // an undeclared function used as a value.
                self.note(
                    n,
                    NoteKind::Unsupported,
                    format!("undeclared identifier `{name}` lowered as unknown"),
                );
                Val::unknown()
            }
        }
    }

    /// The rvalue of a lowered expression: arrays decay to their first
    /// element's address, function designators to the function.
    pub(crate) fn rvalue(&mut self, v: &Val) -> Rvalue {
        match &v.kind {
            ValKind::Place(p, c) => match &v.ty {
                Type::Array(..) => {
                    Rvalue::AddrOf(extend(p.clone(), *c, &[Sel::Index(Index::Zero)]))
                }
                Type::Function(_) => Rvalue::Unknown,
                _ => Rvalue::Use(p.clone()),
            },
            // An integer expression matters only where an integer is
            // stored (`assign`); elsewhere it is a scalar.
            ValKind::Rv(Rvalue::Int(_)) => Rvalue::Scalar,
            ValKind::Rv(r) => r.clone(),
            ValKind::Func(f) => Rvalue::Function(f.clone()),
        }
    }

    /// The value held in a plain variable or global (no dereference, no
    /// path), introducing a temporary when needed.
    pub(crate) fn base_holding(&mut self, v: &Val, at: Range) -> Base {
        if let ValKind::Place(p, _) = &v.kind {
            if !p.deref && p.path.is_empty() && !matches!(v.ty, Type::Array(..)) {
                return p.base.clone();
            }
        }
        let ty = match &v.ty {
            Type::Array(elem, _) => Type::Pointer(elem.clone()),
            t => t.clone(),
        };
        let rv = self.rvalue(v);
        let t = self.new_temp(ty, at);
        self.emit(
            Basic::Assign {
                lhs: Place::var(t),
                rhs: rv,
            },
            at,
        );
        Base::Var(t)
    }

    /// An lvalue for a value: its place, or a temporary holding an rvalue.
    pub(crate) fn place_of(&mut self, v: &Val, at: Range) -> (Place, bool) {
        match &v.kind {
            ValKind::Place(p, c) => (p.clone(), *c),
            _ => (
                Place {
                    base: self.base_holding(v, at),
                    deref: false,
                    path: Vec::new(),
                },
                false,
            ),
        }
    }

    /// Emits a read of a dereferenced place used for no pointer (so the
    /// dereference has a program point and checkers see it).
    fn read_if_deref(&mut self, v: &Val, at: Range) {
        if let ValKind::Place(p, _) = &v.kind {
            if p.deref && self.in_function() {
                self.emit(Basic::Use(p.clone()), at);
            }
        }
    }

    /// Lowers an expression evaluated for its effects (and its value, as
    /// in `n += e`).
    pub(crate) fn effect(&mut self, n: Node) -> Val {
        let v = self.expr(n);
        if matches!(
            strip_parens(n).kind_str(),
            "pointer_expression" | "field_expression" | "subscript_expression"
        ) {
            self.read_if_deref(&v, range(n));
        }
        v
    }

    /// `lhs = rhs` for a value of type `ty`: aggregates leaf by leaf, other
    /// values when they may move a pointer or write through one. Returns the
    /// last statement emitted.
    pub(crate) fn assign(
        &mut self,
        lhs: &Place,
        collapsed: bool,
        ty: &Type,
        rhs: &Val,
        at: Range,
    ) -> Option<StmtId> {
        if let Type::Record(_) | Type::Array(..) = ty {
            let (src, src_collapsed) = match &rhs.kind {
                ValKind::Place(p, c) => (p.clone(), *c),
                ValKind::Rv(Rvalue::Unknown) => {
                    let mut last = None;
                    for path in self.pointer_paths(ty) {
                        let l = extend(lhs.clone(), collapsed, &path);
                        last = Some(self.emit(
                            Basic::Assign {
                                lhs: l,
                                rhs: Rvalue::Unknown,
                            },
                            at,
                        ));
                    }
                    return last;
                }
                _ => return None,
            };
            let mut last = None;
            for path in self.pointer_paths(ty) {
                let l = extend(lhs.clone(), collapsed, &path);
                let r = extend(src.clone(), src_collapsed, &path);
                last = Some(self.emit(
                    Basic::Assign {
                        lhs: l,
                        rhs: Rvalue::Use(r),
                    },
                    at,
                ));
            }
            return last;
        }
        let mut rv = self.rvalue(rhs);
        let lhs_pointer = ty.is_pointer_like();
        if lhs_pointer && rv == Rvalue::Scalar && matches!(ty, Type::Pointer(_)) {
            rv = Rvalue::Unknown; // an integer made into an address
        }
        if !lhs_pointer && rv == Rvalue::Null {
            rv = Rvalue::Scalar; // a zero stored in an integer
        }
        // A value read from integer-typed storage moves no pointer; a pointer
        // cast to an integer does (it is an rvalue, see `cast`).
        let moves_pointer = match &rhs.kind {
            ValKind::Place(..) => pointer_like(&rhs.ty),
            _ => carries_pointer(&rv),
        };
        if *ty == Type::Scalar && !collapsed && !moves_pointer {
            // An integer store, with its expression when it has one, so
            // that the witness executor can follow it (the pointer
            // analysis moves no pointer for it).
            self.read_if_deref(rhs, at);
            let rhs = int_of(rhs).map_or(Rvalue::Scalar, Rvalue::Int);
            Some(self.emit(
                Basic::Assign {
                    lhs: lhs.clone(),
                    rhs,
                },
                at,
            ))
        } else if lhs_pointer || moves_pointer || lhs.deref {
            Some(self.emit(
                Basic::Assign {
                    lhs: lhs.clone(),
                    rhs: rv,
                },
                at,
            ))
        } else {
            self.read_if_deref(rhs, at);
            None
        }
    }

    fn pointer_expression(&mut self, n: Node) -> Val {
        if self.is_label_address(n) {
            // GNU `&&label`: the address of code, not of memory.
            return Val::rv(Rvalue::Scalar, Type::pointer_to(Type::Void));
        }
        let Some(arg) = n.field("argument") else {
            return self.unmodelled(n, "bad `*`/`&`");
        };
        self.pointer_op(n, arg, self.operator(n))
    }

    /// `*arg` or `&arg` (`op`), for the expression `n`.
    fn pointer_op(&mut self, n: Node, arg: Node, op: &str) -> Val {
        let v = self.expr(arg);
        if op == "&" {
            let ty = Type::pointer_to(v.ty.clone());
            return match v.kind {
                ValKind::Place(p, _) if p.deref && p.path.is_empty() => {
                    let base = Place {
                        base: p.base,
                        deref: false,
                        path: Vec::new(),
                    };
                    Val::rv(Rvalue::Use(base), ty)
                }
                ValKind::Place(p, _) => Val::rv(Rvalue::AddrOf(p), ty),
                ValKind::Func(f) => Val {
                    kind: ValKind::Func(f),
                    ty,
                },
                ValKind::Rv(_) => self.unmodelled(n, "address of a value that has no storage"),
            };
        }
        // `*e`
        match &v.ty {
            Type::Function(_) => return v,
            Type::Pointer(inner) if matches!(**inner, Type::Function(_)) => return v,
            Type::Array(elem, _) => {
                let elem = (**elem).clone();
                let (p, c) = self.place_of(&v, range(arg));
                return Val {
                    kind: ValKind::Place(extend(p, c, &[Sel::Index(Index::Zero)]), c),
                    ty: elem,
                };
            }
            _ => {}
        }
        if let ValKind::Func(_) = v.kind {
            return v;
        }
        let pointee = v.ty.pointee().cloned().unwrap_or(Type::Unknown);
        let base = self.base_holding(&v, range(arg));
        Val::place(Place::deref(base), pointee)
    }

    fn field_expression(&mut self, n: Node) -> Val {
        let (Some(arg), Some(field)) = (n.field("argument"), n.field("field")) else {
            return self.unmodelled(n, "bad field access");
        };
        let fname = self.text(field);
        let v = self.expr(arg);
        let (place, collapsed, record_ty) = if self.operator(n) == "->" {
            let pointee = match &v.ty {
                Type::Array(elem, _) => (**elem).clone(),
                t => t.pointee().cloned().unwrap_or(Type::Unknown),
            };
            let base = self.base_holding(&v, range(arg));
            (Place::deref(base), false, pointee)
        } else {
            let (p, c) = self.place_of(&v, range(arg));
            (p, c, v.ty.clone())
        };
        let (sels, fty) = match &record_ty {
            Type::Record(r) => self
                .find_field(r, fname)
                .unwrap_or_else(|| (vec![Sel::Field(fname.into())], Type::Unknown)),
            _ => (vec![Sel::Field(fname.into())], Type::Unknown),
        };
        let place = extend(place, collapsed, &sels);
        let collapsed = collapsed || self.path_through_union(&record_ty, fname);
        Val {
            kind: ValKind::Place(place, collapsed),
            ty: fty,
        }
    }

    /// True when reaching `field` from a value of `ty` passes through a union
    /// (directly or via an anonymous union member).
    fn path_through_union(&self, ty: &Type, field: &str) -> bool {
        let Type::Record(r) = ty else { return false };
        let Some(rec) = self.record_def(r) else {
            return false;
        };
        if rec.kind == pointee_ir::RecordKind::Union {
            return true;
        }
        if rec.fields.iter().any(|f| &*f.name == field) {
            return false;
        }
        rec.fields
            .iter()
            .filter(|f| f.name.starts_with("<anon"))
            .any(|f| self.find_field_in(&f.ty, field) && self.path_through_union(&f.ty, field))
    }

    fn find_field_in(&self, ty: &Type, field: &str) -> bool {
        matches!(ty, Type::Record(r) if self.find_field(r, field).is_some())
    }

    fn subscript(&mut self, n: Node) -> Val {
        let (Some(a), Some(i)) = (n.field("argument"), n.field("index")) else {
            return self.unmodelled(n, "bad subscript");
        };
        let mut av = self.expr(a);
        let mut iv = self.expr(i);
        let mut index_node = i;
        if !pointer_like(&av.ty) && pointer_like(&iv.ty) {
            std::mem::swap(&mut av, &mut iv); // `i[a]`
            index_node = a;
        }
        self.read_if_deref(&iv, range(index_node));
        let idx = self.index_kind(index_node);
        if let Type::Array(elem, _) = &av.ty {
            let elem = (**elem).clone();
            let (p, c) = self.place_of(&av, range(a));
            return Val {
                kind: ValKind::Place(extend(p, c, &[Sel::Index(idx)]), c),
                ty: elem,
            };
        }
        let pointee = av.ty.pointee().cloned().unwrap_or(Type::Unknown);
        let base = if idx == Index::Zero {
            self.base_holding(&av, range(a))
        } else {
            let (p, _) = self.place_of(&av, range(a));
            let t = self.new_temp(av.ty.clone(), range(n));
            self.emit(
                Basic::Assign {
                    lhs: Place::var(t),
                    rhs: Rvalue::Offset(p, idx, pointee.clone()),
                },
                range(n),
            );
            Base::Var(t)
        };
        Val::place(Place::deref(base), pointee)
    }

    /// Which elements an index may select: 0 is the head, a positive
    /// constant the tail, anything else either.
    pub(crate) fn index_kind(&self, n: Node) -> Index {
        let n = strip_parens(n);
        match n.kind_str() {
            "number_literal" => match int_literal(self.text(n)) {
                Some(0) => Index::Zero,
                Some(_) => Index::Positive,
                None => Index::Any,
            },
            "char_literal" => Index::Any,
            _ => Index::Any,
        }
    }

    /// A GNU statement expression `({ ... })`: its statements in a scope of
    /// their own; its value is the last one's, when that is an expression.
    fn statement_expression(&mut self, n: Node) -> Val {
        if !self.in_function() {
            return self.unmodelled(n, "statement expression outside a function");
        }
        self.scopes.push(Default::default());
        let items = named_children(n);
        let mut value = Val::rv(Rvalue::Scalar, Type::Void);
        for (k, &item) in items.iter().enumerate() {
            let last = k + 1 == items.len();
            match (last, item.kind_str(), named_children(item).first()) {
                (true, "expression_statement", Some(&e)) => value = self.expr(e),
                _ => self.statement(item),
            }
        }
        self.scopes.pop();
        value
    }

    /// GNU `asm`: its inputs are read, its outputs get unknown values, and
    /// it may do anything to memory that escaped (an unknown call).
    fn asm(&mut self, n: Node) -> Val {
        if !self.in_function() {
            return Val::scalar();
        }
        let operands = |field: &'static str| {
            n.field(field)
                .map(named_children)
                .unwrap_or_default()
                .into_iter()
                .filter_map(|o| o.field("value"))
                .collect::<Vec<_>>()
        };
        for v in operands("input_operands") {
            self.effect(v);
        }
        let site = self.new_site(range(n), SiteKind::Call);
        self.emit(
            Basic::Call {
                site,
                lhs: None,
                callee: Callee::Direct("__pointee_unmodelled".into()),
                args: Vec::new(),
            },
            range(n),
        );
        for v in operands("output_operands") {
            let lv = self.expr(v);
            let (place, collapsed) = self.place_of(&lv, range(v));
            self.assign(&place, collapsed, &lv.ty, &Val::unknown(), range(v));
        }
        Val::scalar()
    }

    /// GNU `&&label` (tree-sitter reads it as `&` of `&label`).
    pub(crate) fn is_label_address(&self, n: Node) -> bool {
        self.operator(n) == "&"
            && self.text(n).starts_with("&&")
            && n.field("argument").is_some_and(|a| {
                a.kind_str() == "pointer_expression"
                    && a.field("argument").is_some_and(|l| {
                        l.kind_str() == "identifier" && self.lookup(self.text(l)).is_none()
                    })
            })
    }

    /// The type of `(T)` when a call's callee is a parenthesized type name:
    /// `(T)(x)` is a cast, which tree-sitter (knowing no typedefs) reads as
    /// a call.
    pub(crate) fn typedef_callee(&self, call: Node) -> Option<Type> {
        let f = call.field("function")?;
        self.paren_typedef(f)
    }

    /// The type named by `(T)`, a parenthesized typedef name.
    fn paren_typedef(&self, n: Node) -> Option<Type> {
        if n.kind_str() != "parenthesized_expression" {
            return None;
        }
        let inner = named_children(n);
        match (
            inner.as_slice(),
            inner.first().map(|i| self.lookup(self.text(*i))),
        ) {
            ([i], Some(Some(Sym::Typedef(t)))) if i.kind_str() == "identifier" => Some(t.clone()),
            _ => None,
        }
    }

    fn call(&mut self, n: Node) -> Val {
        let Some(fnode) = n.field("function") else {
            return self.unmodelled(n, "bad call");
        };
        if let Some(ty) = self.typedef_callee(n) {
            // `(T)(a, b)`: a cast of the comma expression.
            let args = n.field("arguments").map(named_children).unwrap_or_default();
            let Some((&last, rest)) = args.split_last() else {
                return self.unmodelled(n, "cast of nothing");
            };
            for &a in rest {
                self.effect(a);
            }
            return self.cast_to(ty, last);
        }
        let fnode_s = strip_parens(fnode);
        let mut builtin_name = None;
        if fnode_s.kind_str() == "identifier" && self.lookup(self.text(fnode_s)).is_none() {
            if let Some(rest) = self.text(fnode_s).strip_prefix("__builtin_") {
                match self.builtin_call(n, rest) {
                    Builtin::Value(v) => return v,
                    Builtin::Call(name) => builtin_name = Some(name),
                    Builtin::Unknown => {}
                }
            }
        }
        let (callee, ret) = if let Some(name) = &builtin_name {
            (Callee::Direct(name.as_str().into()), Type::Unknown)
        } else if fnode_s.kind_str() == "identifier" && self.lookup(self.text(fnode_s)).is_none() {
            // An undeclared function: implicitly declared (C89).
            let name: Name = self.text(fnode_s).into();
            (Callee::Direct(name), Type::Unknown)
        } else {
            let v = self.expr(fnode);
            let ret = match &v.ty {
                Type::Function(f) => f.ret.clone(),
                Type::Pointer(t) => match &**t {
                    Type::Function(f) => f.ret.clone(),
                    _ => Type::Unknown,
                },
                _ => Type::Unknown,
            };
            match &v.kind {
                ValKind::Func(f) => (Callee::Direct(f.clone()), ret),
                ValKind::Rv(Rvalue::Function(f)) => (Callee::Direct(f.clone()), ret),
                ValKind::Place(p, _) => (Callee::Indirect(p.clone()), ret),
                ValKind::Rv(_) => {
                    let base = self.base_holding(&v, range(fnode));
                    (
                        Callee::Indirect(Place {
                            base,
                            deref: false,
                            path: Vec::new(),
                        }),
                        ret,
                    )
                }
            }
        };
        let mut args = Vec::new();
        // `va_arg(ap, T)` is a macro whose second argument is a type: only
        // `ap` is a value (the analysis models what `va_arg` returns).
        let is_va_arg = matches!(&callee, Callee::Direct(f) if &**f == "va_arg");
        let ret = match (&callee, ret) {
            // What the library function returns, when a header declared it.
            (Callee::Direct(f), Type::Unknown) if builtin_name.is_some() => match self.lookup(f) {
                Some(Sym::Function(_, t)) => t.ret.clone(),
                _ => Type::Unknown,
            },
            (_, ret) => ret,
        };
        if let Some(list) = n.field("arguments") {
            for a in named_children(list)
                .into_iter()
                .take(if is_va_arg { 1 } else { usize::MAX })
            {
                let v = self.expr(a);
                args.push(self.rvalue(&v));
            }
        }
        let lhs = (ret != Type::Void).then(|| self.new_temp(ret.clone(), range(n)));
        let site = self.new_site(range(n), SiteKind::Call);
        let stmt = self.emit(
            Basic::Call {
                site,
                lhs: lhs.map(Place::var),
                callee,
                args,
            },
            range(n),
        );
        self.f.calls.push(CallInfo {
            range: range(n),
            callee_range: range(fnode),
            site,
            stmt,
        });
        match lhs {
            Some(t) => {
                self.record_written(range(n), &Place::var(t), &ret, stmt);
                Val::place(Place::var(t), ret)
            }
            None => Val::rv(Rvalue::Scalar, Type::Void),
        }
    }

    fn assignment(&mut self, n: Node) -> Val {
        let (Some(l), Some(r)) = (n.field("left"), n.field("right")) else {
            return self.unmodelled(n, "bad assignment");
        };
        let op = self.operator(n);
        let lv = self.expr(l);
        let (lhs, collapsed) = self.place_of(&lv, range(l));
        let stmt = if op == "=" {
            let rv = self.expr(r);
            self.assign(&lhs, collapsed, &lv.ty, &rv, range(n))
        } else {
            let rv = self.effect(r);
            if lv.ty.is_pointer_like() && matches!(op, "+=" | "-=" | "&=" | "|=" | "^=") {
                let idx = if op == "+=" {
                    self.index_kind(r)
                } else {
                    Index::Any
                };
                let rhs = Rvalue::Offset(lhs.clone(), idx, step_type(&lv.ty));
                Some(self.emit(
                    Basic::Assign {
                        lhs: lhs.clone(),
                        rhs,
                    },
                    range(n),
                ))
            } else if lv.ty == Type::Scalar && !collapsed {
                // `n += e`: the integer store of `n + e`.
                let old = Val::place(lhs.clone(), Type::Scalar);
                let value = int_arith(&old, op.trim_end_matches('='), &rv);
                self.assign(&lhs, collapsed, &lv.ty, &value, range(n))
            } else if lhs.deref {
                Some(self.emit(
                    Basic::Assign {
                        lhs: lhs.clone(),
                        rhs: Rvalue::Scalar,
                    },
                    range(n),
                ))
            } else {
                None
            }
        };
        if let Some(s) = stmt {
            self.record_written(range(l), &lhs, &lv.ty, s);
            self.record_written(range(n), &lhs, &lv.ty, s);
        }
        Val {
            kind: ValKind::Place(lhs, collapsed),
            ty: lv.ty,
        }
    }

    fn update(&mut self, n: Node) -> Val {
        let Some(arg) = n.field("argument") else {
            return self.unmodelled(n, "bad ++/--");
        };
        let v = self.expr(arg);
        let (p, c) = self.place_of(&v, range(arg));
        // A statement `p++;` (or a `for` update) needs no old value.
        let prefix = n
            .child(0)
            .is_some_and(|c| matches!(c.kind_str(), "++" | "--"))
            || n.parent()
                .is_some_and(|p| matches!(p.kind_str(), "expression_statement" | "for_statement"));
        if !v.ty.is_pointer_like() {
            if v.ty == Type::Scalar && !c {
                // `n++`: the integer store of `n + 1` (its value is not
                // kept: a scalar).
                let step = Val::rv(Rvalue::Int(int_const(1)), Type::Scalar);
                let op = if self.operator(n) == "++" { "+" } else { "-" };
                let value = int_arith(&v, op, &step);
                self.assign(&p, c, &v.ty, &value, range(n));
                return Val::scalar();
            }
            if p.deref {
                self.emit(
                    Basic::Assign {
                        lhs: p.clone(),
                        rhs: Rvalue::Scalar,
                    },
                    range(n),
                );
            }
            return Val::scalar();
        }
        let idx = if self.operator(n) == "++" {
            Index::Positive
        } else {
            Index::Any
        };
        if prefix {
            let s = self.emit(
                Basic::Assign {
                    lhs: p.clone(),
                    rhs: Rvalue::Offset(p.clone(), idx, step_type(&v.ty)),
                },
                range(n),
            );
            self.record_written(range(n), &p, &v.ty, s);
            Val {
                kind: ValKind::Place(p, c),
                ty: v.ty,
            }
        } else {
            let t = self.new_temp(v.ty.clone(), range(n));
            self.emit(
                Basic::Assign {
                    lhs: Place::var(t),
                    rhs: Rvalue::Use(p.clone()),
                },
                range(n),
            );
            self.emit(
                Basic::Assign {
                    lhs: p.clone(),
                    rhs: Rvalue::Offset(p, idx, step_type(&v.ty)),
                },
                range(n),
            );
            Val::place(Place::var(t), v.ty)
        }
    }

    fn binary(&mut self, n: Node) -> Val {
        let (Some(l), Some(r)) = (n.field("left"), n.field("right")) else {
            return self.unmodelled(n, "bad binary expression");
        };
        let op = self.operator(n);
        if let Some(ty) = self.paren_typedef(l) {
            // `(T)*p`, `(T)&x`, `(T)-x`: a cast of a unary expression,
            // which tree-sitter (knowing no typedefs) reads as binary.
            let v = match op {
                "*" | "&" => self.pointer_op(n, r, op),
                _ => {
                    self.effect(r);
                    Val::scalar()
                }
            };
            return self.cast_val(ty, v, r);
        }
        if matches!(op, "&&" | "||") {
            // The right operand runs only on one side of the left.
            self.short_circuit(l, r, op == "&&");
            return Val::scalar();
        }
        let lv = self.expr(l);
        self.read_if_deref(&lv, range(l));
        let rv = self.expr(r);
        self.read_if_deref(&rv, range(r));
        let is_ptr = |v: &Val| matches!(v.ty, Type::Pointer(_) | Type::Array(..));
        let maybe_ptr = |v: &Val| {
            v.ty == Type::Unknown && !matches!(v.kind, ValKind::Rv(Rvalue::Scalar | Rvalue::Null))
        };
        let (ptr, ptr_node, other) = match op {
            "+" => {
                if is_ptr(&lv) {
                    (lv, l, r)
                } else if is_ptr(&rv) {
                    (rv, r, l)
                } else if maybe_ptr(&lv) {
                    (lv, l, r)
                } else if maybe_ptr(&rv) {
                    (rv, r, l)
                } else {
                    return int_arith(&lv, op, &rv);
                }
            }
            "-" if is_ptr(&lv) && is_ptr(&rv) => return Val::scalar(),
            "-" | "&" | "|" | "^" if is_ptr(&lv) || maybe_ptr(&lv) => (lv, l, r),
            _ => return int_arith(&lv, op, &rv),
        };
        let idx = if op == "+" {
            self.index_kind(other)
        } else {
            Index::Any
        };
        self.offset(&ptr, ptr_node, idx)
    }

    /// Pointer arithmetic: the result points into the same object.
    fn offset(&mut self, v: &Val, n: Node, idx: Index) -> Val {
        let ty = match &v.ty {
            Type::Array(elem, _) => Type::Pointer(elem.clone()),
            t => t.clone(),
        };
        if let (ValKind::Place(p, c), Type::Array(..)) = (&v.kind, &v.ty) {
            // `a + i` is `&a[i]`.
            return Val::rv(
                Rvalue::AddrOf(extend(p.clone(), *c, &[Sel::Index(idx)])),
                ty,
            );
        }
        let (p, _) = self.place_of(v, range(n));
        Val::rv(Rvalue::Offset(p, idx, step_type(&ty)), ty)
    }

    fn conditional(&mut self, n: Node) -> Val {
        let Some(c) = n.field("condition") else {
            return self.unmodelled(n, "bad ?:");
        };
        let cond = self.condition(c);
        let a = n.field("consequence");
        let b = n.field("alternative");
        let t = self.new_temp(Type::Unknown, range(n));
        let mut types = Vec::new();
        let mut branch = |s: &mut Self, e: Option<Node>| {
            s.block_of(|s| {
                let v = match e {
                    Some(e) => s.expr(e),
                    None => Val::unknown(), // GNU `a ?: b`: the condition's value
                };
                let ty = if v.ty == Type::Void {
                    Type::Scalar
                } else {
                    v.ty.clone()
                };
                s.f.vars[t.0 as usize].ty = match (&ty, &s.f.vars[t.0 as usize].ty) {
                    (Type::Record(_), _) => ty.clone(),
                    _ => Type::Unknown,
                };
                let tty = s.f.vars[t.0 as usize].ty.clone();
                let moves_pointer = matches!(tty, Type::Record(_)) || {
                    let r = s.rvalue(&v);
                    carries_pointer(&r) || r == Rvalue::Null
                };
                if moves_pointer {
                    s.assign(&Place::var(t), false, &tty, &v, range(n));
                }
                types.push(ty);
            })
        };
        let then_branch = branch(self, a);
        let else_branch = branch(self, b);
        self.push_stmt(pointee_ir::Stmt::If {
            cond,
            then_branch,
            else_branch,
        });
        // The value of `?:` is an rvalue: functions and arrays decay to
        // pointers (`c ? f1 : f2` holds a function pointer).
        let decay = |t: &Type| match t {
            Type::Function(f) => Type::Pointer(Box::new(Type::Function(f.clone()))),
            Type::Array(elem, _) => Type::Pointer(elem.clone()),
            t => t.clone(),
        };
        let ty = types
            .iter()
            .map(decay)
            .find(|t| matches!(t, Type::Pointer(_) | Type::Record(_)))
            .or_else(|| types.first().map(decay))
            .unwrap_or(Type::Unknown);
        self.f.vars[t.0 as usize].ty = ty.clone();
        Val::place(Place::var(t), ty)
    }

    fn cast(&mut self, n: Node) -> Val {
        let ty = match n.field("type") {
            Some(t) => self.type_descriptor(t),
            None => Type::Unknown,
        };
        let Some(value) = n.field("value") else {
            return self.unmodelled(n, "bad cast");
        };
        self.cast_to(ty, value)
    }

    /// `(ty) value`.
    fn cast_to(&mut self, ty: Type, value: Node) -> Val {
        let v = self.expr(value);
        self.cast_val(ty, v, value)
    }

    /// `(ty)` of the value `v` of the expression `value`.
    fn cast_val(&mut self, ty: Type, v: Val, value: Node) -> Val {
        if ty == Type::Void {
            self.read_if_deref(&v, range(value));
            return Val::rv(Rvalue::Scalar, Type::Void);
        }
        let kind = match v.kind {
            ValKind::Rv(Rvalue::Scalar | Rvalue::Int(_)) if matches!(ty, Type::Pointer(_)) => {
                ValKind::Rv(Rvalue::Unknown)
            }
            ValKind::Place(..)
                if matches!(v.ty, Type::Array(..))
                    || (pointer_like(&v.ty) && !pointer_like(&ty)) =>
            {
                let r = self.rvalue(&v);
                ValKind::Rv(r)
            }
            k => k,
        };
        Val { kind, ty }
    }

    fn compound_literal(&mut self, n: Node) -> Val {
        let ty = match n.field("type") {
            Some(t) => self.type_descriptor(t),
            None => Type::Unknown,
        };
        let site = self.new_site(range(n), SiteKind::Literal);
        let t = self.new_temp(Type::pointer_to(ty.clone()), range(n));
        self.emit(
            Basic::Assign {
                lhs: Place::var(t),
                rhs: Rvalue::Literal(site, ty.clone()),
            },
            range(n),
        );
        let place = Place::deref(Base::Var(t));
        if let Some(v) = n.field("value") {
            self.local_initializer(&place, &ty, v);
        }
        Val::place(place, ty)
    }

    /// A branch condition: lowers its effects and reads, and keeps what it
    /// says about a pointer being null.
    pub(crate) fn condition(&mut self, n: Node) -> pointee_ir::Cond {
        use pointee_ir::Cond;
        let n = strip_parens(n);
        if let Some(hinted) = self.expect_hint(n) {
            // `if (__builtin_expect(p != NULL, 1))` tests `p != NULL`.
            return self.condition(hinted);
        }
        match n.kind_str() {
            "unary_expression" if self.operator(n) == "!" => {
                let Some(a) = n.field("argument") else {
                    return Cond::Opaque;
                };
                self.condition(a).negate()
            }
            "binary_expression" if matches!(self.operator(n), "&&" | "||") => {
                let (Some(l), Some(r)) = (n.field("left"), n.field("right")) else {
                    return Cond::Opaque;
                };
                self.short_circuit(l, r, self.operator(n) == "&&")
            }
            "binary_expression" if matches!(self.operator(n), "==" | "!=") => {
                let (Some(l), Some(r)) = (n.field("left"), n.field("right")) else {
                    return Cond::Opaque;
                };
                let eq = self.operator(n) == "==";
                let (ptr, null) = if self.is_null_constant(r) {
                    (l, true)
                } else if self.is_null_constant(l) {
                    (r, true)
                } else {
                    (l, false)
                };
                if !null {
                    return self.comparison(l, r, self.operator(n));
                }
                let v = self.expr(ptr);
                match self.tested_place(&v, ptr) {
                    Some(p) if eq => Cond::IsNull(p),
                    Some(p) => Cond::NotNull(p),
                    None => match operand_of(&v) {
                        // `n == 0` on an integer (`x->count == 0` reads
                        // through `x`: a checked dereference).
                        Some(o) => {
                            self.read_if_deref(&v, range(ptr));
                            let op = if eq { CmpOp::Eq } else { CmpOp::Ne };
                            Cond::Compare(o, op, Operand::Int(0))
                        }
                        None => Cond::Opaque,
                    },
                }
            }
            "binary_expression" if matches!(self.operator(n), "<" | "<=" | ">" | ">=") => {
                let (Some(l), Some(r)) = (n.field("left"), n.field("right")) else {
                    return Cond::Opaque;
                };
                self.comparison(l, r, self.operator(n))
            }
            _ => {
                let v = self.expr(n);
                match self.tested_place(&v, n) {
                    Some(p) => Cond::NotNull(p),
                    None => {
                        self.read_if_deref(&v, range(n));
                        match operand_of(&v) {
                            // `if (n)` on an integer is `n != 0`.
                            Some(o) => Cond::Compare(o, CmpOp::Ne, Operand::Int(0)),
                            None => Cond::Opaque,
                        }
                    }
                }
            }
        }
    }

    /// `l op r` for a comparison other than with NULL: its operands'
    /// effects and reads (as any binary expression), and an integer
    /// `Compare` when both sides are integers (an arithmetic side goes to
    /// a temporary); anything else (`p == q`) is opaque.
    fn comparison(&mut self, l: Node, r: Node, op: &str) -> pointee_ir::Cond {
        let lv = self.expr(l);
        self.read_if_deref(&lv, range(l));
        let rv = self.expr(r);
        self.read_if_deref(&rv, range(r));
        let (Some(a), Some(op), Some(b)) = (int_of(&lv), CmpOp::from_token(op), int_of(&rv)) else {
            return pointee_ir::Cond::Opaque;
        };
        let a = self.int_operand(a, range(l));
        let b = self.int_operand(b, range(r));
        pointee_ir::Cond::Compare(a, op, b)
    }

    /// An operand holding the integer expression: itself, or a temporary.
    fn int_operand(&mut self, e: IntExpr, at: Range) -> Operand {
        match e {
            IntExpr::Operand(o) => o,
            e => {
                let t = self.new_temp(Type::Scalar, at);
                self.emit(
                    Basic::Assign {
                        lhs: Place::var(t),
                        rhs: Rvalue::Int(e),
                    },
                    at,
                );
                Operand::Place(Place::var(t))
            }
        }
    }

    /// `l && r` (`and`) or `l || r`: `r`'s effects are lowered under the
    /// side of `l` that evaluates it, and the branch tests both. `l` is kept
    /// only when `r`'s effects cannot change what `l` tested
    /// ([`Lowerer::may_change`]).
    fn short_circuit(&mut self, l: Node, r: Node, and: bool) -> pointee_ir::Cond {
        use pointee_ir::{Cond, Stmt};
        let cl = self.condition(l);
        let mut cr = Cond::Opaque;
        let effects = self.block_of(|s| cr = s.condition(r));
        let mut keeps_l = true;
        let tested: Vec<Place> = cl.places().into_iter().cloned().collect();
        pointee_ir::for_each_basic(&effects, &mut |_, b| {
            keeps_l &= !self.may_change(b, &tested);
        });
        if !effects.is_empty() {
            let (then_branch, else_branch) = if and {
                (effects, Vec::new())
            } else {
                (Vec::new(), effects)
            };
            self.push_stmt(Stmt::If {
                cond: cl.clone(),
                then_branch,
                else_branch,
            });
        }
        let cl = if keeps_l { cl } else { Cond::Opaque };
        if and {
            Cond::and(cl, cr)
        } else {
            Cond::or(cl, cr)
        }
    }

    /// Whether basic statement `b` may change one of the `tested` places. A
    /// local of the function whose address the body never takes
    /// ([`Lowerer::unaddressed`]) changes only by an assignment to it, so a
    /// call or a store through a pointer (`p == NULL || strcmp(p, "") == 0`)
    /// leaves its test standing; anything else may change under a call or
    /// a store. An assignment of a number to an integer local changes no
    /// pointer.
    fn may_change(&self, b: &Basic, tested: &[Place]) -> bool {
        let assigned = |lhs: &Place| {
            tested.iter().any(|t| {
                if lhs.deref {
                    // A store through a pointer.
                    !self.unaddressed(t)
                } else {
                    t.base == lhs.base || (!self.unaddressed(t) && !self.unaddressed(lhs))
                }
            })
        };
        match b {
            Basic::Assign { lhs, rhs } => {
                let var = |v: VarId| &self.f.vars[v.0 as usize];
                let harmless = !lhs.deref
                    && matches!(lhs.base, Base::Var(v)
                        if var(v).kind == pointee_ir::VarKind::Temp
                            || (matches!(rhs, Rvalue::Int(_) | Rvalue::Scalar)
                                && var(v).ty == Type::Scalar));
                !harmless && assigned(lhs)
            }
            Basic::Use(_) => false,
            Basic::Call { lhs, .. } => {
                tested.iter().any(|t| !self.unaddressed(t)) || lhs.as_ref().is_some_and(assigned)
            }
        }
    }

    /// A parameter, local or temporary of the function itself (no field or
    /// element), of a type that does not decay to its address, whose
    /// address the body never takes: nothing but an assignment to it can
    /// change it.
    fn unaddressed(&self, p: &Place) -> bool {
        let Base::Var(v) = p.base else { return false };
        let var = &self.f.vars[v.0 as usize];
        let source_name = var.name.split('#').next().unwrap_or("");
        !p.deref
            && p.path.is_empty()
            && matches!(
                var.kind,
                pointee_ir::VarKind::Param | pointee_ir::VarKind::Local | pointee_ir::VarKind::Temp
            )
            && matches!(var.ty, Type::Pointer(_) | Type::Scalar)
            && !self.f.address_taken.contains(source_name)
    }

    /// The condition inside `__builtin_expect(cond, hint)` (its hint is a
    /// constant, with no effect).
    fn expect_hint<'t>(&self, n: Node<'t>) -> Option<Node<'t>> {
        if n.kind_str() != "call_expression" {
            return None;
        }
        let f = n.field("function")?;
        let name = self.text(f);
        if !matches!(
            name,
            "__builtin_expect" | "__builtin_expect_with_probability"
        ) || self.lookup(name).is_some()
        {
            return None;
        }
        let args = named_children(n.field("arguments")?);
        (args.len() >= 2 && args[1..].iter().all(|a| a.kind_str() == "number_literal"))
            .then(|| args[0])
    }

    /// The place whose nullness a condition tests, read by a `Use` so the
    /// test has a program point.
    fn tested_place(&mut self, v: &Val, n: Node) -> Option<Place> {
        if !matches!(v.ty, Type::Pointer(_) | Type::Unknown) {
            return None;
        }
        match &v.kind {
            ValKind::Place(p, _) => {
                self.emit(Basic::Use(p.clone()), range(n));
                Some(p.clone())
            }
            _ => None,
        }
    }

    /// A call of gcc's `__builtin_NAME` (`rest` is `NAME`): a value, the
    /// library function it stands for, or neither (an unknown function,
    /// which the analysis treats soundly).
    fn builtin_call(&mut self, n: Node, rest: &str) -> Builtin {
        let args = n.field("arguments").map(named_children).unwrap_or_default();
        match rest {
            // The value is the first argument's (the rest are hints).
            "expect" | "expect_with_probability" | "assume_aligned" => {
                let Some(&first) = args.first() else {
                    return Builtin::Value(Val::scalar());
                };
                let v = self.expr(first);
                for &a in &args[1..] {
                    self.effect(a);
                }
                Builtin::Value(v)
            }
            // Arguments that are types, or not evaluated: no effect.
            "offsetof" | "types_compatible_p" | "constant_p" | "classify_type" => {
                Builtin::Value(Val::scalar())
            }
            // `va_arg(ap, T)` and friends, under the names the analysis
            // knows (`call` keeps only `ap` of `va_arg`).
            "va_start" | "va_end" | "va_copy" | "va_arg" => {
                Builtin::Call(format!("va_{}", &rest[3..]))
            }
            "unreachable" | "trap" | "abort" => Builtin::Call("abort".into()),
            // Integer and floating-point helpers: their arguments' effects,
            // a number.
            r if r.starts_with("huge_val")
                || r.starts_with("inf")
                || r.starts_with("nan")
                || r.starts_with("is")
                || r.starts_with("signbit")
                || r.starts_with("fpclassify")
                || r.starts_with("clz")
                || r.starts_with("ctz")
                || r.starts_with("popcount")
                || r.starts_with("parity")
                || r.starts_with("ffs")
                || r.starts_with("bswap")
                || r.starts_with("object_size")
                || r.starts_with("copysign")
                || r.starts_with("fabs") =>
            {
                for &a in &args {
                    self.effect(a);
                }
                Builtin::Value(Val::scalar())
            }
            // `__builtin_memcpy` is `memcpy`.
            r if crate::library::is_function(r)
                || matches!(self.lookup(r), Some(Sym::Function(..)))
                || r == "alloca" =>
            {
                Builtin::Call(r.to_string())
            }
            _ => Builtin::Unknown,
        }
    }

    pub(crate) fn is_null_constant(&self, n: Node) -> bool {
        let n = strip_parens(n);
        match n.kind_str() {
            "number_literal" => int_literal(self.text(n)) == Some(0),
            "null" => true,
            "identifier" => {
                matches!(self.text(n), "NULL" | "nullptr") && self.lookup(self.text(n)).is_none()
            }
            "cast_expression" => n.field("value").is_some_and(|v| self.is_null_constant(v)),
            _ => false,
        }
    }
}

/// The element type pointer arithmetic on a value of type `ty` steps by:
/// the pointee of the expression's own type, so after a cast (`(char *)s
/// + 1`) the cast's. `Type::Unknown` when it is not a pointer type.
fn step_type(ty: &Type) -> Type {
    ty.pointee().cloned().unwrap_or(Type::Unknown)
}
