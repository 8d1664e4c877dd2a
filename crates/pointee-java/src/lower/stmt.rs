//! Statements: declarations, control structure (kept in the IR though the
//! analysis is flow-insensitive), try/catch with the one location of thrown
//! objects.

use super::*;

impl<'a, 'h> Fb<'a, 'h> {
    pub fn block_children(&mut self, node: Node<'a>) {
        let mut c = node.walk();
        let kids: Vec<Node<'a>> = node.named_children(&mut c).collect();
        for k in kids {
            self.stmt(k);
        }
    }

    pub fn stmt(&mut self, node: Node<'a>) {
        match node.sym() {
            "block" | "constructor_body" => {
                let b = self.sub_block(|s| s.block_children(node));
                self.blocks.last_mut().unwrap().extend(b);
            }
            "local_variable_declaration" => self.local_decl(node),
            "expression_statement" => {
                if let Some(e) = node.named_child(0) {
                    self.expr(e, None);
                }
            }
            "if_statement" => {
                let cond = match node.field("condition") {
                    Some(c) => self.condition(c),
                    None => Cond::Opaque,
                };
                let then_branch = match node.field("consequence") {
                    Some(t) => self.sub_block(|s| s.stmt(t)),
                    None => Vec::new(),
                };
                let else_branch = match node.field("alternative") {
                    Some(e) => self.sub_block(|s| s.stmt(e)),
                    None => Vec::new(),
                };
                self.push_stmt(Stmt::If {
                    cond,
                    then_branch,
                    else_branch,
                });
            }
            "while_statement" => {
                let body = self.sub_block(|s| {
                    let cond = match node.field("condition") {
                        Some(c) => s.condition(c),
                        None => Cond::Opaque,
                    };
                    s.exit_test(cond);
                    if let Some(b) = node.field("body") {
                        s.stmt(b);
                    }
                });
                self.push_stmt(Stmt::Loop { body });
            }
            "do_statement" => {
                let body = self.sub_block(|s| {
                    if let Some(b) = node.field("body") {
                        s.stmt(b);
                    }
                    let cond = match node.field("condition") {
                        Some(c) => s.condition(c),
                        None => Cond::Opaque,
                    };
                    s.exit_test(cond);
                });
                self.push_stmt(Stmt::Loop { body });
            }
            "for_statement" => {
                let b = self.sub_block(|s| {
                    let mut c = node.walk();
                    let inits: Vec<Node<'a>> = node.fields("init", &mut c).collect();
                    for i in inits {
                        if i.sym() == "local_variable_declaration" {
                            s.local_decl(i);
                        } else {
                            s.expr(i, None);
                        }
                    }
                    let body = s.sub_block(|s| {
                        if let Some(c) = node.field("condition") {
                            let cond = s.condition(c);
                            s.exit_test(cond);
                        }
                        if let Some(b) = node.field("body") {
                            s.stmt(b);
                        }
                        let mut c = node.walk();
                        let ups: Vec<Node<'a>> = node.fields("update", &mut c).collect();
                        for u in ups {
                            s.expr(u, None);
                        }
                    });
                    s.push_stmt(Stmt::Loop { body });
                });
                self.blocks.last_mut().unwrap().extend(b);
            }
            "enhanced_for_statement" => self.foreach(node),
            "return_statement" => {
                if let Some(e) = node.named_child(0) {
                    self.expected = Some(self.ret_ty.clone());
                    match self.ret_var {
                        Some(r) => {
                            let ev = self.expr(e, Some(r));
                            self.assign_var(r, ev, e);
                        }
                        None => {
                            let ev = self.expr(e, None);
                            if !self.ret_ty.is_ref() {
                                self.unbox(&ev, range(e));
                            }
                        }
                    }
                }
                self.push_stmt(Stmt::Return);
            }
            "switch_expression" => self.switch(node),
            "break_statement" => self.push_stmt(Stmt::Break),
            "continue_statement" => self.push_stmt(Stmt::Continue),
            "labeled_statement" => {
                let mut c = node.walk();
                let inner: Vec<Node<'a>> = node
                    .named_children(&mut c)
                    .filter(|n| n.sym() != "identifier")
                    .collect();
                for i in inner {
                    self.stmt(i);
                }
            }
            "throw_statement" => {
                // Every thrown object goes to one location that every catch
                // parameter reads: exceptions flow context-insensitively.
                if let Some(e) = node.named_child(0) {
                    let ev = self.expr(e, None);
                    if let Some(v) = self.var_of(ev, e, None) {
                        self.emit(
                            Basic::Assign {
                                lhs: Place::global(THROWN.into()),
                                rhs: Rvalue::Use(Place::var(v)),
                            },
                            range(node),
                        );
                        self.uses_thrown = true;
                    }
                }
                self.push_stmt(Stmt::Return);
            }
            "try_statement" | "try_with_resources_statement" => self.try_stmt(node),
            "synchronized_statement" => {
                let mut c = node.walk();
                let kids: Vec<Node<'a>> = node.named_children(&mut c).collect();
                for k in kids {
                    if k.sym() == "parenthesized_expression" {
                        self.expr(k, None);
                    } else {
                        self.stmt(k);
                    }
                }
            }
            "yield_statement" => {
                if let Some(e) = node.named_child(0) {
                    self.yield_value(e);
                }
                self.push_stmt(Stmt::Break);
            }
            "assert_statement" | "empty_statement" | "line_comment" | "block_comment" | ";" => {}
            "explicit_constructor_invocation" => self.ctor_call(node),
            "class_declaration"
            | "local_class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration" => {
                // Local classes are classes of the program (collected with
                // the class table); a second one of the same name is not.
                let known = node.field("name").is_some_and(|n| {
                    self.h.get(text(n, self.src)).is_some_and(|d| d.is_local)
                        && self
                            .h
                            .syntax(text(n, self.src))
                            .is_some_and(|s| s.node.id() == node.id())
                });
                if !known {
                    self.note(
                        node,
                        "a local class whose name another class has is not modelled",
                    );
                }
            }
            "ERROR" => self.note(node, "syntax error"),
            other => self.note(node, format!("statement `{other}` is not modelled")),
        }
    }

    /// Leaves the loop where `cond` does not hold.
    pub(super) fn exit_test(&mut self, cond: Cond) {
        self.push_stmt(Stmt::If {
            cond,
            then_branch: Vec::new(),
            else_branch: vec![Stmt::Break],
        });
    }

    pub(super) fn local_decl(&mut self, node: Node<'a>) {
        let Some(tn) = node.field("type") else {
            return;
        };
        let base = self.ty(tn);
        let mut c = node.walk();
        let decls: Vec<Node<'a>> = node.fields("declarator", &mut c).collect();
        for d in decls {
            let Some(name) = d.field("name") else {
                continue;
            };
            let dims = d
                .field("dimensions")
                .map(|x| crate::types::count_dims(x, self.src))
                .unwrap_or(0);
            let ty = if tn.sym() == "type_identifier" && text(tn, self.src) == "var" {
                JType::Unknown
            } else {
                wrap_array(base.clone(), dims)
            };
            let value = d.field("value");
            // Declared after the initializer is lowered is wrong for Java
            // scoping only in self-referential initializers; declare first.
            let v = self.declare(text(name, self.src), ty.clone(), range(name));
            if let Some(val) = value {
                self.expected = Some(ty.clone());
                let ev = if val.sym() == "array_initializer" {
                    self.array_init(val, &ty)
                } else {
                    self.expr(val, Some(v))
                };
                if ty == JType::Unknown {
                    self.var_ty[v.0 as usize] = ev.ty.clone();
                    self.vars[v.0 as usize].ty = ev.ty.ir();
                }
                self.assign_var(v, ev, val);
            }
            let vty = self.var_ty[v.0 as usize].clone();
            self.record(name, &Place::var(v), &vty);
        }
    }

    /// `v = ev` unless `ev` already is `v`.
    pub(super) fn assign_var(&mut self, v: VarId, ev: Ev, node: Node) {
        // A primitive for a variable of a known reference type is boxed.
        let ty = self.var_ty[v.0 as usize].clone();
        let ev = match ty {
            JType::Class(_) | JType::Array(_) => self.boxed(ev, &ty, node),
            _ => ev,
        };
        if let EvK::Place(p) = &ev.kind {
            if p.base == Base::Var(v) && !p.deref && p.path.is_empty() {
                return;
            }
        }
        if let EvK::Rv(Rvalue::Scalar | Rvalue::Int(_)) = ev.kind {
            // An integer local keeps every value it is given.
            self.store_int(Place::var(v), &ty, int::int_of(&ev), range(node));
            return;
        }
        let mut ev = ev;
        let unboxes = matches!((&ty, &ev.ty), (JType::Prim(_), JType::Class(c)) if unboxed(c).is_some())
            && !matches!(ev.kind, EvK::Rv(Rvalue::Null | Rvalue::Unknown));
        if unboxes {
            // `int n = boxed` reads the box's value (throws on `null`).
            let box_ty = ev.ty.clone();
            if let Some(b) = self.var_of(ev, node, None) {
                self.deref_use(b, range(node));
                ev = Ev::var(b, box_ty);
            } else {
                return;
            }
        }
        self.var_of(ev, node, Some(v));
    }

    pub(super) fn foreach(&mut self, node: Node<'a>) {
        let b = self.sub_block(|s| {
            let coll = node.field("value").map(|v| {
                let ev = s.expr(v, None);
                let ty = ev.ty.clone();
                (s.var_of(ev, v, None), ty)
            });
            let ty = node.field("type").map(|t| s.ty(t)).unwrap_or(JType::Unknown);
            let Some(name) = node.field("name") else { return };
            let x = s.declare(text(name, s.src), ty.clone(), range(name));
            s.record(name, &Place::var(x), &ty);
            let body = s.sub_block(|s| {
                s.exit_test(Cond::Opaque);
                match coll {
                    // `for (Integer x : ints)` boxes each element.
                    Some((_, JType::Array(e))) if !e.is_ref() && ty.is_ref() => {
                        if let JType::Prim(p) = *e {
                            let boxed = s.box_value(p, &ty, None, range(node));
                            s.assign_var(x, boxed, node);
                        }
                    }
                    Some((Some(c), JType::Array(_))) => {
                        let p = Place::deref(Base::Var(c)).index(Index::Any);
                        s.emit(Basic::Assign { lhs: Place::var(x), rhs: Rvalue::Use(p) }, range(node));
                    }
                    Some((_, JType::Array(_))) => {}
                    _ => {
                        s.note(node, "iteration over a library Iterable: the variable reads the library heap");
                        let ev = s.read_library(range(node), Some(x));
                        let _ = ev;
                    }
                }
                if let Some(b) = node.field("body") {
                    s.stmt(b);
                }
            });
            s.push_stmt(Stmt::Loop { body });
        });
        self.blocks.last_mut().unwrap().extend(b);
    }

    /// The value of the innermost switch expression.
    pub(super) fn yield_value(&mut self, e: Node<'a>) {
        let ev = self.expr(e, None);
        let Some((t, ty, _)) = self.yields.last().cloned() else {
            return;
        };
        if ev.ty.is_ref() && ev.ty != JType::Null && !ev.ty.is_ref_unknown() && ty == JType::Unknown
        {
            self.yields.last_mut().unwrap().1 = ev.ty.clone();
        }
        self.assign_var(t, ev, e);
    }

    pub(super) fn switch(&mut self, node: Node<'a>) {
        // A switch expression's arms give its value (a switch statement
        // inside one does not).
        let value = self.yields.last().is_some_and(|y| y.2 == node.id());
        let Some(body) = node.field("body") else {
            if let Some(c) = node.field("condition") {
                self.expr(c, None);
            }
            return;
        };
        if let Some(c) = node.field("condition") {
            let ev = self.expr(c, None);
            // The selector is read before an arm is picked (a box
            // unboxed, a String hashed, an enum's ordinal): null throws
            // unless a `case null` arm takes it (JLS 14.11.3).
            if !has_case_null(body, self.src) {
                self.deref_reference(&ev, range(c));
            }
        }
        let mut arms = Vec::new();
        let mut has_default = false;
        let mut c = body.walk();
        let groups: Vec<Node<'a>> = body.named_children(&mut c).collect();
        for g in groups {
            let mut c2 = g.walk();
            let kids: Vec<Node<'a>> = g.named_children(&mut c2).collect();
            let arm = self.sub_block(|s| {
                for k in kids {
                    if k.sym() == "switch_label" {
                        if text(k, s.src).trim_start().starts_with("default") {
                            has_default = true;
                        }
                    } else if g.sym() == "switch_rule" {
                        // An arrow arm never falls through; in a switch
                        // expression, an expression arm is its value.
                        match (k.sym(), k.named_child(0)) {
                            ("expression_statement", Some(e)) if value => s.yield_value(e),
                            _ => s.stmt(k),
                        }
                        s.push_stmt(Stmt::Break);
                    } else {
                        s.stmt(k);
                    }
                }
            });
            arms.push(arm);
        }
        self.push_stmt(Stmt::Switch { arms, has_default });
    }

    /// Reads through a reference value (`None` kinds: a constant null or
    /// an unknown value, which name no variable).
    pub(super) fn deref_reference(&mut self, ev: &Ev, at: Range) {
        if !ev.ty.is_ref() || matches!(ev.kind, EvK::Rv(Rvalue::Null | Rvalue::Unknown)) {
            return;
        }
        if let Some(v) = self.var_at(ev.clone(), at, None) {
            self.deref_use(v, at);
        }
    }

    pub(super) fn try_stmt(&mut self, node: Node<'a>) {
        let mut c = node.walk();
        let kids: Vec<Node<'a>> = node.named_children(&mut c).collect();
        for k in kids {
            match k.sym() {
                "resource_specification" => {
                    let mut c2 = k.walk();
                    let rs: Vec<Node<'a>> = k.named_children(&mut c2).collect();
                    for r in rs {
                        if let (Some(t), Some(n), Some(v)) =
                            (r.field("type"), r.field("name"), r.field("value"))
                        {
                            let ty = self.ty(t);
                            let var = self.declare(text(n, self.src), ty, range(n));
                            let ev = self.expr(v, Some(var));
                            self.assign_var(var, ev, v);
                        }
                    }
                }
                "block" => self.stmt(k),
                "catch_clause" => {
                    let b = self.sub_block(|s| {
                        let mut c3 = k.walk();
                        let parts: Vec<Node<'a>> = k.named_children(&mut c3).collect();
                        for p in parts {
                            if p.sym() == "catch_formal_parameter" {
                                if let Some(n) = p.field("name") {
                                    s.catch_param(p, n);
                                }
                            } else if p.sym() == "block" {
                                s.stmt(p);
                            }
                        }
                    });
                    self.push_stmt(Stmt::If {
                        cond: Cond::Opaque,
                        then_branch: b,
                        else_branch: Vec::new(),
                    });
                }
                "finally_clause" => {
                    let mut c3 = k.walk();
                    let bs: Vec<Node<'a>> = k.named_children(&mut c3).collect();
                    for b in bs {
                        self.stmt(b);
                    }
                }
                _ => {}
            }
        }
    }

    /// A `catch (E1 | E2 e)` parameter: the thrown objects that may be
    /// instances of one of its types (`e = (E1) Throwable.<thrown>`, a
    /// filtered load that is not a cast of the program).
    fn catch_param(&mut self, param: Node<'a>, name: Node<'a>) {
        let mut c = param.walk();
        let types: Vec<JType> = param
            .named_children(&mut c)
            .find(|t| t.sym() == "catch_type")
            .map(|t| {
                let mut c2 = t.walk();
                let tys: Vec<JType> = t.named_children(&mut c2).map(|x| self.ty(x)).collect();
                tys
            })
            .unwrap_or_default();
        let mut types = types;
        if types.is_empty() {
            types.push(JType::Unknown);
        }
        let ty = match types.as_slice() {
            [one] => one.clone(),
            _ => JType::Class("Throwable".into()),
        };
        let v = self.declare(text(name, self.src), ty.clone(), range(name));
        for t in types.iter().filter(|t| t.is_ref()) {
            self.emit(
                Basic::Assign {
                    lhs: Place::var(v),
                    rhs: Rvalue::Cast(Place::global(THROWN.into()), t.name().into()),
                },
                range(name),
            );
        }
        self.uses_thrown = true;
        self.record(name, &Place::var(v), &ty);
    }
}

/// True when a switch body has a `case null` label.
fn has_case_null(body: Node<'_>, src: &str) -> bool {
    let mut c = body.walk();
    let groups: Vec<Node<'_>> = body.named_children(&mut c).collect();
    groups.iter().any(|g| {
        let mut c2 = g.walk();
        let labels: Vec<Node<'_>> = g.named_children(&mut c2).collect();
        labels.iter().any(|k| {
            k.sym() == "switch_label"
                && text(*k, src)
                    .split(|ch: char| ch == ',' || ch.is_whitespace())
                    .any(|w| w == "null")
        })
    })
}
