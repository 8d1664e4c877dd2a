//! Expressions: names, field and array accesses, literals, casts,
//! conditionals and assignments.

use super::*;

impl<'a, 'h> Fb<'a, 'h> {
    /// Lowers an expression; when `dest` is given, a computed value (new,
    /// call result, cast, ...) is written straight into it.
    pub fn expr(&mut self, node: Node<'a>, dest: Option<VarId>) -> Ev {
        let expected = self.expected.take();
        let ev = match node.sym() {
            "lambda_expression" => self.lambda(node, expected),
            "method_reference" => self.method_ref(node, expected),
            _ => self.expr_inner(node, dest),
        };
        match &ev.kind {
            EvK::Place(p) => {
                let p = p.clone();
                let ty = ev.ty.clone();
                self.record(node, &p, &ty);
            }
            EvK::Rv(Rvalue::New(..) | Rvalue::String(_) | Rvalue::Cast(..)) => {
                // Materialise now so that hover on the expression has a place.
                let ty = ev.ty.clone();
                let v = self.var_of(ev, node, dest).expect("an object value");
                self.record(node, &Place::var(v), &ty);
                return Ev::var(v, ty);
            }
            _ => {}
        }
        ev
    }

    pub(super) fn expr_inner(&mut self, node: Node<'a>, dest: Option<VarId>) -> Ev {
        match node.sym() {
            "parenthesized_expression" => match node.named_child(0) {
                Some(e) => self.expr_inner(e, dest),
                None => Ev::scalar(),
            },
            "identifier" => self.name(node),
            "this" => match self.this {
                Some(t) => Ev::var(t, JType::Class(self.class.clone())),
                None => Ev::unknown(),
            },
            "null_literal" => Ev::rv(Rvalue::Null, JType::Null),
            "string_literal" | "text_block" => {
                // Java interns literals: one object per distinct text, held
                // by the global `String."text"`.
                let t = text(node, self.src).to_string();
                self.pools.strings.push((t.clone(), range(node)));
                Ev::place(
                    Place::global(literal_global(&t).into()),
                    JType::Class("String".into()),
                )
            }
            "decimal_integer_literal"
            | "hex_integer_literal"
            | "octal_integer_literal"
            | "binary_integer_literal" => {
                let long = text(node, self.src).ends_with(['l', 'L']);
                let ty = JType::Prim(if long { "long" } else { "int" });
                match constant::int_value(node, self.src) {
                    Some(k) => Ev::rv(Rvalue::Int(int::int_const(k)), ty),
                    None => Ev::rv(Rvalue::Scalar, ty),
                }
            }
            "decimal_floating_point_literal" | "hex_floating_point_literal" => {
                let float = text(node, self.src).ends_with(['f', 'F']);
                Ev::prim(if float { "float" } else { "double" })
            }
            "true" | "false" => Ev::rv(
                Rvalue::Int(int::int_const(i64::from(node.sym() == "true"))),
                JType::Prim("boolean"),
            ),
            "character_literal" => Ev::prim("char"),
            "field_access" => self.field_access(node),
            "array_access" => {
                let arr = node.field("array").map(|a| self.expr(a, None));
                if let Some(i) = node.field("index") {
                    let index = self.expr(i, None);
                    self.unbox(&index, range(i));
                }
                let Some(arr) = arr else { return Ev::unknown() };
                let elem = match &arr.ty {
                    JType::Array(e) => (**e).clone(),
                    _ => JType::Unknown,
                };
                match self.var_of(arr, node, None) {
                    Some(v) => Ev::place(Place::deref(Base::Var(v)).index(Index::Any), elem),
                    None => Ev::rv(Rvalue::Null, elem),
                }
            }
            "method_invocation" => self.call(node, dest),
            "object_creation_expression" => self.new_object(node),
            "array_creation_expression" => self.new_array(node),
            "array_initializer" => self.array_init(node, &JType::Array(Box::new(JType::Unknown))),
            "cast_expression" => {
                let ty = node
                    .field("type")
                    .map(|t| self.ty(t))
                    .unwrap_or(JType::Unknown);
                // The cast's type is a lambda's or method reference's target.
                self.expected = Some(ty.clone());
                let v = match node.field("value") {
                    Some(v) => self.expr(v, None),
                    None => return Ev::unknown(),
                };
                let vn = node.field("value").unwrap();
                if !ty.is_ref() {
                    return Ev::rv(Rvalue::Scalar, ty);
                }
                // `(Object) 5` boxes.
                let v = self.boxed(v, &ty, vn);
                let unknown = matches!(v.kind, EvK::Rv(Rvalue::Unknown));
                match self.var_of(v, vn, None) {
                    Some(y) => Ev::rv(Rvalue::Cast(Place::var(y), ty.name().into()), ty),
                    None if unknown => Ev::rv(Rvalue::Unknown, ty),
                    None => Ev::rv(Rvalue::Null, ty),
                }
            }
            "instanceof_expression" => {
                let left = node.field("left").map(|l| (self.expr(l, None), l));
                if let (Some((ev, l)), Some(name)) = (left, node.field("name")) {
                    let ty = node
                        .field("right")
                        .map(|t| self.ty(t))
                        .unwrap_or(JType::Unknown);
                    let x = self.declare(text(name, self.src), ty.clone(), range(name));
                    // A pattern binding is a cast that cannot fail.
                    if let Some(y) = self.var_of(ev, l, None) {
                        self.emit(
                            Basic::Assign {
                                lhs: Place::var(x),
                                rhs: Rvalue::Use(Place::var(y)),
                            },
                            range(node),
                        );
                    }
                    self.record(name, &Place::var(x), &ty);
                } else if node.field("pattern").is_some() {
                    self.note(node, "record patterns are not modelled");
                }
                Ev::scalar()
            }
            "assignment_expression" => self.assignment(node),
            "binary_expression" => {
                // `"a" + "b"` is a constant: the interned literal "ab".
                if let Some(t) = constant::string_value(node, self.src) {
                    self.pools.strings.push((t.clone(), range(node)));
                    return Ev::place(
                        Place::global(literal_global(&t).into()),
                        JType::Class("String".into()),
                    );
                }
                let l = node.field("left").map(|l| self.expr(l, None));
                let r = node.field("right").map(|r| self.expr(r, None));
                let op = node
                    .field("operator")
                    .map(|o| text(o, self.src))
                    .unwrap_or("");
                let is_str = |e: &Option<Ev>| matches!(e, Some(Ev { ty: JType::Class(c), .. }) if c == "String");
                if op == "+" && (is_str(&l) || is_str(&r)) {
                    // A concatenation makes a new string: one object per site.
                    let s = self.site(range(node), SiteKind::String);
                    return Ev::rv(Rvalue::String(s), JType::Class("String".into()));
                }
                if let (Some(le), Some(re)) = (&l, &r) {
                    self.unbox_operands(op, le, re, range(node));
                }
                let ints = (
                    l.as_ref().and_then(int::int_of),
                    r.as_ref().and_then(int::int_of),
                );
                let (lt, rt) = (
                    l.map_or(JType::int(), |e| e.ty),
                    r.map_or(JType::int(), |e| e.ty),
                );
                let boolean = JType::Prim("boolean");
                let logical = ["&", "|", "^"].contains(&op) && (lt == boolean || rt == boolean);
                match op {
                    "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||" => Ev::prim("boolean"),
                    _ if logical => Ev::prim("boolean"),
                    "<<" | ">>" | ">>>" => Ev::rv(Rvalue::Scalar, promote(&lt, &lt)),
                    _ => {
                        let ty = promote(&lt, &rt);
                        Ev::rv(int::int_arith(ints.0, op, ints.1, &ty), ty)
                    }
                }
            }
            "unary_expression" => {
                let op = node
                    .field("operator")
                    .map(|o| text(o, self.src))
                    .unwrap_or("");
                let (ty, e) = match node.field("operand") {
                    Some(k) => {
                        let ev = self.expr(k, None);
                        self.unbox(&ev, range(node));
                        (ev.ty.clone(), int::int_of(&ev))
                    }
                    None => (JType::int(), None),
                };
                let ty = promote(&ty, &ty);
                match op {
                    "!" => Ev::prim("boolean"),
                    "-" => Ev::rv(int::int_arith(Some(int::int_const(0)), "-", e, &ty), ty),
                    "+" if e.is_some() && int::is_int_type(&ty) => {
                        Ev::rv(Rvalue::Int(e.expect("checked")), ty)
                    }
                    _ => Ev::rv(Rvalue::Scalar, ty),
                }
            }
            "update_expression" => {
                // `i++` on a boxed `i` stores a new box (of a value not known).
                let Some(k) = node.named_child(0) else {
                    return Ev::scalar();
                };
                let ev = self.expr(k, None);
                match (&ev.ty, &ev.kind) {
                    (JType::Class(c), EvK::Place(p)) if unboxed(c).is_some() => {
                        self.unbox(&ev, range(node));
                        let prim = unboxed(c).unwrap();
                        let boxed = self.box_value(prim, &ev.ty, None, range(node));
                        self.store(p.clone(), boxed, k);
                        Ev::prim(prim)
                    }
                    _ => {
                        self.int_update(&ev, node);
                        Ev::rv(Rvalue::Scalar, ev.ty)
                    }
                }
            }
            "ternary_expression" => {
                if let Some(c) = node.field("condition") {
                    let cond = self.expr(c, None);
                    self.unbox(&cond, range(c));
                }
                let (Some(a), Some(b)) = (node.field("consequence"), node.field("alternative"))
                else {
                    return Ev::unknown();
                };
                // Types: take the first reference-typed arm.
                let mut ty = JType::void();
                let mut target = dest;
                let mut arms: Vec<Block> = Vec::new();
                // Arms of a primitive type: (its type, its node).
                let mut prims: Vec<(&'static str, Node<'a>)> = Vec::new();
                for arm in [a, b] {
                    let blk = self.sub_block(|s| {
                        let ev = s.expr(arm, None);
                        if let JType::Prim(p) = ev.ty {
                            prims.push((p, arm));
                        } else {
                            if !ty.is_ref() || ty == JType::Null {
                                ty = ev.ty.clone();
                            }
                            let t =
                                *target.get_or_insert_with(|| s.temp(JType::Unknown, range(node)));
                            s.assign_var(t, ev, arm);
                        }
                    });
                    arms.push(blk);
                }
                let prims_type = match prims.as_slice() {
                    [("boolean", _), ..] => JType::Prim("boolean"),
                    [(a, _), (b, _)] => promote(&JType::Prim(a), &JType::Prim(b)),
                    [(a, _)] => JType::Prim(a),
                    _ => JType::int(),
                };
                let else_branch = arms.pop().unwrap();
                let then_branch = arms.pop().unwrap();
                self.push_stmt(Stmt::If {
                    cond: Cond::Opaque,
                    then_branch,
                    else_branch,
                });
                // `c ? 1 : obj` is an object: the primitive arm is boxed
                // (after the branches, as only then is the type known; the
                // analysis is flow-insensitive).
                if let (true, Some(t)) = (ty.is_ref(), target) {
                    for (p, arm) in prims {
                        let value = constant::int_value(arm, self.src);
                        let boxed = self.box_value(p, &ty, value, range(arm));
                        self.var_of(boxed, arm, Some(t));
                    }
                }
                match target {
                    Some(t) if ty.is_ref() => {
                        if dest.is_none() {
                            self.var_ty[t.0 as usize] = ty.clone();
                            self.vars[t.0 as usize].ty = ty.ir();
                        }
                        Ev::var(t, ty)
                    }
                    _ => Ev::rv(Rvalue::Scalar, prims_type),
                }
            }
            "method_reference" => {
                self.note(
                    node,
                    "method references are not modelled (they point to nothing)",
                );
                Ev::unknown()
            }
            "switch_expression" => {
                // Every arm's value (an arrow arm's expression, a `yield`)
                // flows into one variable.
                let t = dest.unwrap_or_else(|| self.temp(JType::Unknown, range(node)));
                self.yields.push((t, JType::Unknown, node.id()));
                self.switch(node);
                let (t, ty, _) = self.yields.pop().expect("pushed above");
                if dest.is_none() {
                    self.var_ty[t.0 as usize] = ty.clone();
                    self.vars[t.0 as usize].ty = ty.ir();
                }
                Ev::var(t, ty)
            }
            "class_literal" => {
                self.note(node, "class literals (reflection) are not modelled");
                Ev::unknown()
            }
            "ERROR" => {
                self.note(node, "syntax error");
                Ev::unknown()
            }
            other => {
                self.note(node, format!("expression `{other}` is not modelled"));
                Ev::unknown()
            }
        }
    }

    /// A bare name: a local, a field of this class (or its supers), or a class.
    pub(super) fn name(&mut self, node: Node<'a>) -> Ev {
        let n = text(node, self.src);
        if let Some(v) = self.lookup(n) {
            return Ev::var(v, self.var_ty[v.0 as usize].clone());
        }
        let h = self.h;
        if let Some((decl, f)) = h.field(&self.class, n) {
            let ty = f.ty.clone();
            if f.is_static {
                return self.static_field(&decl.name, f, node);
            }
            return match self.this {
                Some(t) => Ev::place(Place::deref(Base::Var(t)).field(n.into()), ty),
                None => Ev::unknown(),
            };
        }
        let captured = self
            .h
            .captures
            .borrow()
            .get(&self.class)
            .and_then(|c| c.iter().find(|(x, _)| x == n).map(|(_, t)| t.clone()));
        if let (Some(ty), Some(t)) = (captured, self.this) {
            return Ev::place(
                Place::deref(Base::Var(t)).field(format!("cap${n}").into()),
                ty,
            );
        }
        // A field of the enclosing instance of an anonymous class.
        let outer = self.h.outer(&self.class);
        if let (Some(outer), Some(t)) = (outer, self.this) {
            if let Some((decl, f)) = h.field(&outer, n) {
                let (fname, ty) = (f.name.clone(), f.ty.clone());
                if f.is_static {
                    return self.static_field(&decl.name, f, node);
                }
                let o = self.temp(JType::Class(outer), range(node));
                self.emit(
                    Basic::Assign {
                        lhs: Place::var(o),
                        rhs: Rvalue::Use(Place::deref(Base::Var(t)).field("this$0".into())),
                    },
                    range(node),
                );
                return Ev::place(Place::deref(Base::Var(o)).field(fname.into()), ty);
            }
        }
        if self.h.is_known(n) {
            return Ev::unknown(); // a class name used as a value: callers check first
        }
        self.note(
            node,
            format!("`{n}` is not modelled (not a local, field or class of the program)"),
        );
        Ev::unknown()
    }

    /// An access to the static field `f` declared by `class`: its global;
    /// for a constant variable its value (the interned literal of a String
    /// constant, no object for a primitive), which initialises no class; a
    /// primitive field's access is a `Use` of the global, which moves no
    /// object but initialises the class.
    pub(super) fn static_field(&mut self, class: &str, f: &FieldDecl, node: Node) -> Ev {
        let global = Place::global(format!("{class}.{}", f.name).into());
        match &f.constant {
            Some(Constant::Str(t)) => Ev::place(
                Place::global(literal_global(t).into()),
                JType::Class("String".into()),
            ),
            Some(Constant::Prim) => Ev::rv(Rvalue::Scalar, f.ty.clone()),
            None if !f.ty.is_ref() => {
                self.emit(Basic::Use(global), range(node));
                Ev::rv(Rvalue::Scalar, f.ty.clone())
            }
            None => Ev::place(global, f.ty.clone()),
        }
    }

    /// Is this node a class name (not shadowed by a local or field)?
    pub(super) fn class_ref(&self, node: Node) -> Option<String> {
        if node.sym() != "identifier" {
            return None;
        }
        let n = text(node, self.src);
        if self.lookup(n).is_some() || self.h.field(&self.class, n).is_some() {
            return None;
        }
        self.h.is_known(n).then(|| n.to_string())
    }

    /// Field access on a value; `None` object means `this`.
    pub(super) fn field_of(
        &mut self,
        obj: Ev,
        obj_node: Node<'a>,
        fname: &str,
        node: Node<'a>,
    ) -> Ev {
        if fname == "length" && matches!(obj.ty, JType::Array(_)) {
            if let Some(a) = self.var_of(obj, obj_node, None) {
                self.deref_use(a, range(node));
            }
            return Ev::scalar();
        }
        let class = match &obj.ty {
            JType::Class(c) => c.clone(),
            _ => String::new(),
        };
        let h = self.h;
        let Some((decl, f)) = h.field(&class, fname) else {
            self.note(
                node,
                format!(
                    "field `{fname}` of `{}` is not modelled: it reads the library heap",
                    obj.ty.name()
                ),
            );
            return self.read_library(range(node), None);
        };
        if f.is_static {
            return self.static_field(&decl.name, f, node);
        }
        let ty = f.ty.clone();
        match self.var_of(obj, obj_node, None) {
            Some(v) => Ev::place(Place::deref(Base::Var(v)).field(fname.into()), ty),
            None => Ev::rv(Rvalue::Null, ty),
        }
    }

    pub(super) fn field_access(&mut self, node: Node<'a>) -> Ev {
        let (Some(obj), Some(field)) = (node.field("object"), node.field("field")) else {
            return Ev::unknown();
        };
        let fname = text(field, self.src).to_string();
        if obj.sym() == "super" {
            let t = match self.this {
                Some(t) => Ev::var(t, JType::Class(self.class.clone())),
                None => return Ev::unknown(),
            };
            return self.field_of(t, obj, &fname, node);
        }
        if let Some(c) = self.class_ref(obj) {
            if fname == "this" {
                return self.qualified_this(&c, node);
            }
            let h = self.h;
            return match h.field(&c, &fname) {
                Some((d, f)) if f.is_static => self.static_field(&d.name, f, node),
                _ => {
                    self.note(node, format!("`{c}.{fname}` is not modelled"));
                    Ev::unknown()
                }
            };
        }
        let o = self.expr(obj, None);
        if matches!(o.kind, EvK::Rv(Rvalue::Unknown)) {
            self.note(
                node,
                format!(
                    "`{}` is not modelled: it reads the library heap",
                    text(node, self.src)
                ),
            );
            return self.read_library(range(node), None);
        }
        self.field_of(o, obj, &fname, node)
    }

    pub(super) fn assignment(&mut self, node: Node<'a>) -> Ev {
        let (Some(l), Some(r)) = (node.field("left"), node.field("right")) else {
            return Ev::unknown();
        };
        let op = node
            .field("operator")
            .map(|o| text(o, self.src))
            .unwrap_or("=");
        let lhs = self.expr(l, None);
        let local = match &lhs.kind {
            EvK::Place(p) if !p.deref && p.path.is_empty() => match p.base {
                Base::Var(v) => Some(v),
                _ => None,
            },
            _ => None,
        };
        let rhs = if op == "=" {
            self.expected = Some(lhs.ty.clone());
            self.expr(r, local)
        } else {
            let rv = self.expr(r, None);
            let concat = op == "+=" && lhs.ty == JType::Class("String".into());
            if !concat {
                // `n += boxed`, `boxed += 1`: both sides are read unboxed.
                self.unbox_operands(op.trim_end_matches('='), &lhs, &rv, range(node));
            }
            if concat {
                let s = self.site(range(node), SiteKind::String);
                Ev::rv(Rvalue::String(s), lhs.ty.clone())
            } else if let Some(p) = lhs_box(&lhs.ty) {
                // `i += 1` on a boxed `i`: a new box of a value not known.
                self.box_value(p, &lhs.ty, None, range(node))
            } else {
                // `n += k` on an integer local or field.
                if let EvK::Place(lp) = &lhs.kind {
                    let value = match int::int_arith(
                        int::int_of(&lhs),
                        op.trim_end_matches('='),
                        int::int_of(&rv),
                        &lhs.ty,
                    ) {
                        Rvalue::Int(e) => Some(e),
                        _ => None,
                    };
                    self.store_int(lp.clone(), &lhs.ty.clone(), value, range(node));
                }
                return Ev::rv(Rvalue::Scalar, lhs.ty);
            }
        };
        let EvK::Place(lp) = lhs.kind.clone() else {
            return rhs;
        };
        if !lhs.ty.is_ref() && !rhs.ty.is_ref() {
            // As `Rvalue::Int` even from a field: a read the pointer
            // analysis does not see, as before.
            self.store_int(lp, &lhs.ty.clone(), int::int_of(&rhs), range(node));
            return Ev::rv(Rvalue::Scalar, lhs.ty);
        }
        let rhs = self.boxed(rhs, &lhs.ty, r);
        if let Some(v) = local {
            self.assign_var(v, rhs, r);
            return lhs;
        }
        // A store (field, array element or static field): the value must be
        // a variable or constant.
        let value = match rhs.kind {
            EvK::Place(ref p)
                if !p.deref && p.path.is_empty() && matches!(p.base, Base::Var(_)) =>
            {
                Rvalue::Use(p.clone())
            }
            // An unmodelled value is stored as such: the field then holds
            // something the analysis cannot name, not its initial `null`.
            EvK::Rv(r @ (Rvalue::Null | Rvalue::Unknown)) => r.clone(),
            EvK::Rv(Rvalue::Scalar | Rvalue::Int(_)) => return lhs,
            _ => self.operand(rhs, r),
        };
        self.emit(
            Basic::Assign {
                lhs: lp,
                rhs: value,
            },
            range(node),
        );
        lhs
    }

    /// `C.this`: this, or the enclosing instance held in `this$0`.
    fn qualified_this(&mut self, c: &str, node: Node<'a>) -> Ev {
        let Some(t) = self.this else {
            return Ev::unknown();
        };
        if self.h.is_subclass(&self.class, c) {
            return Ev::var(t, JType::Class(self.class.clone()));
        }
        let outer = self.h.outer(&self.class);
        match outer {
            Some(o) if self.h.is_subclass(&o, c) => {
                let v = self.temp(JType::Class(o.clone()), range(node));
                self.emit(
                    Basic::Assign {
                        lhs: Place::var(v),
                        rhs: Rvalue::Use(Place::deref(Base::Var(t)).field("this$0".into())),
                    },
                    range(node),
                );
                Ev::var(v, JType::Class(o))
            }
            _ => {
                self.note(
                    node,
                    format!("`{c}.this` more than one level out is not modelled"),
                );
                Ev::unknown()
            }
        }
    }
}

/// The primitive a box class type holds (`Integer` → `int`).
fn lhs_box(ty: &JType) -> Option<&'static str> {
    match ty {
        JType::Class(c) => unboxed(c),
        _ => None,
    }
}
