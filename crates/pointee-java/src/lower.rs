//! The second pass: method bodies to IR statements. Nested expressions get
//! temporaries so that each side of a statement has at most one dereference.

use crate::decl::{text, ClassDecl, Hierarchy, MethodDecl};
use crate::types::{assignable, read_type, wrap_array, JType};
use pointee_ir::{
    Base, Basic, Block, CallInfo, Callee, Cond, ExprInfo, Function, FunctionSource, Index, Note, NoteKind,
    Place, Point, Range, Rvalue, SiteId, SiteInfo, SiteKind, Stmt, StmtId, Var, VarId, VarKind,
};
use tree_sitter::Node;

/// A lowered expression: a place that holds its value, or an rvalue.
#[derive(Clone, Debug)]
pub struct Ev {
    pub kind: EvK,
    pub ty: JType,
}

#[derive(Clone, Debug)]
pub enum EvK {
    Place(Place),
    Rv(Rvalue),
}

impl Ev {
    fn rv(rv: Rvalue, ty: JType) -> Ev {
        Ev { kind: EvK::Rv(rv), ty }
    }
    fn place(p: Place, ty: JType) -> Ev {
        Ev { kind: EvK::Place(p), ty }
    }
    fn scalar() -> Ev {
        Ev::rv(Rvalue::Scalar, JType::Prim)
    }
    fn unknown() -> Ev {
        Ev::rv(Rvalue::Unknown, JType::Unknown)
    }
    fn var(v: VarId, ty: JType) -> Ev {
        Ev::place(Place::var(v), ty)
    }
}

/// What one method body is lowered against.
pub struct Method<'m> {
    pub class: &'m str,
    pub function: &'m str,
    pub is_static: bool,
    pub type_vars: &'m [String],
}

/// Builds one function.
pub struct Fb<'a, 'h> {
    pub h: &'h Hierarchy<'a>,
    pub src: &'h str,
    pub file: usize,
    pub notes: &'h mut Vec<Note>,
    class: String,
    type_vars: Vec<String>,
    vars: Vec<Var>,
    var_ty: Vec<JType>,
    scopes: Vec<Vec<(String, VarId)>>,
    blocks: Vec<Block>,
    stmt_count: u32,
    site_count: u32,
    temps: u32,
    this: Option<VarId>,
    ret_var: Option<VarId>,
    pub fs: FunctionSource,
    /// String literals read here: (text, range). Equal literals are one
    /// interned object, made by the file's literal pool function.
    pub strings: Vec<(String, Range)>,
    /// The body throws or catches: the program needs the global [`THROWN`].
    pub uses_thrown: bool,
}

/// The one location of every thrown object (a static field of Throwable).
pub const THROWN: &str = "Throwable.<thrown>";

impl<'a, 'h> Fb<'a, 'h> {
    pub fn new(h: &'h Hierarchy<'a>, src: &'h str, file: usize, notes: &'h mut Vec<Note>, m: &Method) -> Fb<'a, 'h> {
        let mut fb = Fb {
            h,
            src,
            file,
            notes,
            class: m.class.to_string(),
            type_vars: m.type_vars.to_vec(),
            vars: Vec::new(),
            var_ty: Vec::new(),
            scopes: vec![Vec::new()],
            blocks: vec![Vec::new()],
            stmt_count: 0,
            site_count: 0,
            temps: 0,
            this: None,
            ret_var: None,
            fs: FunctionSource { name: m.function.into(), ..Default::default() },
            strings: Vec::new(),
            uses_thrown: false,
        };
        if !m.is_static {
            fb.this = Some(fb.add_var("this", JType::Class(m.class.to_string()), VarKind::Param, Range::default()));
        }
        fb
    }

    pub fn add_param(&mut self, name: &str, ty: JType, range: Range) {
        let v = self.add_var(name, ty.clone(), VarKind::Param, range);
        self.scopes.last_mut().unwrap().push((name.to_string(), v));
        self.record_range(range, &Place::var(v), &ty);
    }

    /// Hover on a field's declaration: in every constructor, the field of
    /// `this` (an instance field) or the static field itself.
    pub fn record_field_decl(&mut self, class: &str, name: &str, ty: &JType, is_static: bool, at: Range) {
        let place = if is_static {
            Place::global(format!("{class}.{name}").into())
        } else {
            match self.this {
                Some(t) => Place::deref(Base::Var(t)).field(name.into()),
                None => return,
            }
        };
        self.record_range(at, &place, ty);
    }

    pub fn set_ret(&mut self, ty: &JType) {
        if ty.is_ref() {
            self.ret_var = Some(self.add_var("ret", ty.clone(), VarKind::Return, Range::default()));
        }
    }

    /// `main(String[] args)` is called by the runtime with an array of
    /// strings: `args = new String[]; t = new String(); args[?] = t`, made at
    /// the parameter's declaration.
    pub fn model_main_args(&mut self, at: Range) {
        let Some(&(_, args)) = self.scopes[0].first() else { return };
        let s1 = self.site(at, SiteKind::New);
        self.emit(Basic::Assign { lhs: Place::var(args), rhs: Rvalue::New(s1, "String[]".into()) }, at);
        let t = self.temp(JType::Class("String".into()), at);
        let s2 = self.site(at, SiteKind::New);
        self.emit(Basic::Assign { lhs: Place::var(t), rhs: Rvalue::New(s2, "String".into()) }, at);
        self.emit(Basic::Assign { lhs: Place::deref(Base::Var(args)).index(Index::Any), rhs: Rvalue::Use(Place::var(t)) }, at);
    }

    pub fn finish(mut self, name: &str, is_static: bool, ret: &JType) -> (Function, FunctionSource) {
        let params = self.vars.iter().enumerate().filter(|(_, v)| v.kind == VarKind::Param).map(|(i, _)| VarId(i as u32)).collect();
        let body = self.blocks.pop().unwrap_or_default();
        let f = Function {
            name: name.into(),
            params,
            ret: ret.ir(),
            variadic: false,
            is_static,
            vars: std::mem::take(&mut self.vars),
            ret_var: self.ret_var,
            body,
            labels: 0,
            stmt_count: self.stmt_count,
            site_count: self.site_count,
        };
        (f, self.fs)
    }

    // ---- helpers -------------------------------------------------------

    fn add_var(&mut self, name: &str, ty: JType, kind: VarKind, range: Range) -> VarId {
        let id = VarId(self.vars.len() as u32);
        self.vars.push(Var { name: name.into(), ty: ty.ir(), kind, restrict: false });
        self.var_ty.push(ty);
        self.fs.vars.push(range);
        id
    }

    fn declare(&mut self, name: &str, ty: JType, range: Range) -> VarId {
        let v = self.add_var(name, ty, VarKind::Local, range);
        self.scopes.last_mut().unwrap().push((name.to_string(), v));
        v
    }

    fn temp(&mut self, ty: JType, range: Range) -> VarId {
        self.temps += 1;
        let name = format!("t{}", self.temps);
        self.add_var(&name, ty, VarKind::Temp, range)
    }

    fn lookup(&self, name: &str) -> Option<VarId> {
        self.scopes.iter().rev().flat_map(|s| s.iter().rev()).find(|(n, _)| n == name).map(|(_, v)| *v)
    }

    fn site(&mut self, range: Range, kind: SiteKind) -> SiteId {
        let s = SiteId(self.site_count);
        self.site_count += 1;
        self.fs.sites.push(SiteInfo { range, kind });
        s
    }

    fn emit(&mut self, b: Basic, range: Range) -> StmtId {
        let id = StmtId(self.stmt_count);
        self.stmt_count += 1;
        self.fs.stmts.push(range);
        self.blocks.last_mut().unwrap().push(Stmt::Basic(id, b));
        id
    }

    fn push_stmt(&mut self, s: Stmt) {
        self.blocks.last_mut().unwrap().push(s);
    }

    fn sub_block(&mut self, f: impl FnOnce(&mut Self)) -> Block {
        self.blocks.push(Vec::new());
        self.scopes.push(Vec::new());
        f(self);
        self.scopes.pop();
        self.blocks.pop().unwrap()
    }

    pub fn note(&mut self, node: Node, msg: impl Into<String>) {
        self.notes.push(Note { range: range(node), kind: NoteKind::Unsupported, message: msg.into() });
    }

    fn point(&self) -> Point {
        if self.stmt_count == 0 {
            Point::Before(StmtId(0))
        } else {
            Point::After(StmtId(self.stmt_count - 1))
        }
    }

    fn record(&mut self, node: Node, place: &Place, ty: &JType) {
        self.record_range(range(node), place, ty);
    }

    fn record_range(&mut self, at: Range, place: &Place, ty: &JType) {
        if ty.is_ref() && *ty != JType::Null {
            let point = self.point();
            self.fs.exprs.push(ExprInfo { range: at, place: place.clone(), point, ty: ty.ir() });
        }
    }

    fn ty(&self, node: Node) -> JType {
        read_type(node, self.src, &self.type_vars)
    }

    /// Writes `ev` into `dest` (or a new temporary) unless it already is a
    /// plain variable; `None` when the value holds no object.
    fn to_var(&mut self, ev: Ev, node: Node, dest: Option<VarId>) -> Option<VarId> {
        match &ev.kind {
            EvK::Place(p) if !p.deref && p.path.is_empty() && matches!(p.base, Base::Var(_)) && dest.is_none() => {
                let Base::Var(v) = p.base else { unreachable!() };
                Some(v)
            }
            EvK::Rv(Rvalue::Null | Rvalue::Scalar | Rvalue::Unknown) if dest.is_none() => None,
            _ => {
                let v = match dest {
                    Some(d) => d,
                    None => self.temp(ev.ty.clone(), range(node)),
                };
                let rhs = match ev.kind {
                    EvK::Place(p) => Rvalue::Use(p),
                    EvK::Rv(r) => r,
                };
                self.emit(Basic::Assign { lhs: Place::var(v), rhs }, range(node));
                Some(v)
            }
        }
    }

    /// An operand for a call argument or a store: a variable or a constant.
    fn operand(&mut self, ev: Ev, node: Node) -> Rvalue {
        match &ev.kind {
            EvK::Rv(r @ (Rvalue::Null | Rvalue::Scalar | Rvalue::Unknown)) => r.clone(),
            _ => match self.to_var(ev, node, None) {
                Some(v) => Rvalue::Use(Place::var(v)),
                None => Rvalue::Null,
            },
        }
    }

    // ---- statements ------------------------------------------------------

    pub fn block_children(&mut self, node: Node<'a>) {
        let mut c = node.walk();
        let kids: Vec<Node<'a>> = node.named_children(&mut c).collect();
        for k in kids {
            self.stmt(k);
        }
    }

    pub fn stmt(&mut self, node: Node<'a>) {
        match node.kind() {
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
                if let Some(c) = node.child_by_field_name("condition") {
                    self.expr(c, None);
                }
                let then_branch = match node.child_by_field_name("consequence") {
                    Some(t) => self.sub_block(|s| s.stmt(t)),
                    None => Vec::new(),
                };
                let else_branch = match node.child_by_field_name("alternative") {
                    Some(e) => self.sub_block(|s| s.stmt(e)),
                    None => Vec::new(),
                };
                self.push_stmt(Stmt::If { cond: Cond::Opaque, then_branch, else_branch });
            }
            "while_statement" => {
                let body = self.sub_block(|s| {
                    if let Some(c) = node.child_by_field_name("condition") {
                        s.expr(c, None);
                    }
                    s.exit_test();
                    if let Some(b) = node.child_by_field_name("body") {
                        s.stmt(b);
                    }
                });
                self.push_stmt(Stmt::Loop { body });
            }
            "do_statement" => {
                let body = self.sub_block(|s| {
                    if let Some(b) = node.child_by_field_name("body") {
                        s.stmt(b);
                    }
                    if let Some(c) = node.child_by_field_name("condition") {
                        s.expr(c, None);
                    }
                    s.exit_test();
                });
                self.push_stmt(Stmt::Loop { body });
            }
            "for_statement" => {
                let b = self.sub_block(|s| {
                    let mut c = node.walk();
                    let inits: Vec<Node<'a>> = node.children_by_field_name("init", &mut c).collect();
                    for i in inits {
                        if i.kind() == "local_variable_declaration" {
                            s.local_decl(i);
                        } else {
                            s.expr(i, None);
                        }
                    }
                    let body = s.sub_block(|s| {
                        if let Some(c) = node.child_by_field_name("condition") {
                            s.expr(c, None);
                            s.exit_test();
                        }
                        if let Some(b) = node.child_by_field_name("body") {
                            s.stmt(b);
                        }
                        let mut c = node.walk();
                        let ups: Vec<Node<'a>> = node.children_by_field_name("update", &mut c).collect();
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
                    match self.ret_var {
                        Some(r) => {
                            let ev = self.expr(e, Some(r));
                            self.assign_var(r, ev, e);
                        }
                        None => {
                            self.expr(e, None);
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
                let inner: Vec<Node<'a>> = node.named_children(&mut c).filter(|n| n.kind() != "identifier").collect();
                for i in inner {
                    self.stmt(i);
                }
            }
            "throw_statement" => {
                // Every thrown object goes to one location that every catch
                // parameter reads: exceptions flow context-insensitively.
                if let Some(e) = node.named_child(0) {
                    let ev = self.expr(e, None);
                    if let Some(v) = self.to_var(ev, e, None) {
                        self.emit(Basic::Assign { lhs: Place::global(THROWN.into()), rhs: Rvalue::Use(Place::var(v)) }, range(node));
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
                    if k.kind() == "parenthesized_expression" {
                        self.expr(k, None);
                    } else {
                        self.stmt(k);
                    }
                }
            }
            "yield_statement" => {
                if let Some(e) = node.named_child(0) {
                    self.expr(e, None);
                }
                self.note(node, "the value of a switch expression is not modelled");
            }
            "assert_statement" | "empty_statement" | "line_comment" | "block_comment" | ";" => {}
            "explicit_constructor_invocation" => self.ctor_call(node),
            "class_declaration" | "local_class_declaration" | "interface_declaration" | "enum_declaration" | "record_declaration" => {
                self.note(node, "a local class is not modelled")
            }
            "ERROR" => self.note(node, "syntax error"),
            other => self.note(node, format!("statement `{other}` is not modelled")),
        }
    }

    fn exit_test(&mut self) {
        self.push_stmt(Stmt::If { cond: Cond::Opaque, then_branch: Vec::new(), else_branch: vec![Stmt::Break] });
    }

    fn local_decl(&mut self, node: Node<'a>) {
        let Some(tn) = node.child_by_field_name("type") else { return };
        let base = self.ty(tn);
        let mut c = node.walk();
        let decls: Vec<Node<'a>> = node.children_by_field_name("declarator", &mut c).collect();
        for d in decls {
            let Some(name) = d.child_by_field_name("name") else { continue };
            let dims = d.child_by_field_name("dimensions").map(|x| crate::types::count_dims(x, self.src)).unwrap_or(0);
            let ty = if tn.kind() == "type_identifier" && text(tn, self.src) == "var" { JType::Unknown } else { wrap_array(base.clone(), dims) };
            let value = d.child_by_field_name("value");
            // Declared after the initializer is lowered is wrong for Java
            // scoping only in self-referential initializers; declare first.
            let v = self.declare(text(name, self.src), ty.clone(), range(name));
            if let Some(val) = value {
                let ev = if val.kind() == "array_initializer" { self.array_init(val, &ty, Some(v)) } else { self.expr(val, Some(v)) };
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
    fn assign_var(&mut self, v: VarId, ev: Ev, node: Node) {
        if let EvK::Place(p) = &ev.kind {
            if p.base == Base::Var(v) && !p.deref && p.path.is_empty() {
                return;
            }
        }
        if let EvK::Rv(Rvalue::Scalar) = ev.kind {
            return;
        }
        self.to_var(ev, node, Some(v));
    }

    fn foreach(&mut self, node: Node<'a>) {
        let b = self.sub_block(|s| {
            let coll = node.child_by_field_name("value").map(|v| {
                let ev = s.expr(v, None);
                let ty = ev.ty.clone();
                (s.to_var(ev, v, None), ty)
            });
            let ty = node.child_by_field_name("type").map(|t| s.ty(t)).unwrap_or(JType::Unknown);
            let Some(name) = node.child_by_field_name("name") else { return };
            let x = s.declare(text(name, s.src), ty.clone(), range(name));
            s.record(name, &Place::var(x), &ty);
            let body = s.sub_block(|s| {
                s.exit_test();
                match coll {
                    Some((Some(c), JType::Array(_))) => {
                        let p = Place::deref(Base::Var(c)).index(Index::Any);
                        s.emit(Basic::Assign { lhs: Place::var(x), rhs: Rvalue::Use(p) }, range(node));
                    }
                    Some((_, JType::Array(_))) => {}
                    _ => s.note(node, "iteration over a library Iterable is not modelled"),
                }
                if let Some(b) = node.child_by_field_name("body") {
                    s.stmt(b);
                }
            });
            s.push_stmt(Stmt::Loop { body });
        });
        self.blocks.last_mut().unwrap().extend(b);
    }

    fn switch(&mut self, node: Node<'a>) {
        if let Some(c) = node.child_by_field_name("condition") {
            self.expr(c, None);
        }
        let Some(body) = node.child_by_field_name("body") else { return };
        let mut arms = Vec::new();
        let mut has_default = false;
        let mut c = body.walk();
        let groups: Vec<Node<'a>> = body.named_children(&mut c).collect();
        for g in groups {
            let mut c2 = g.walk();
            let kids: Vec<Node<'a>> = g.named_children(&mut c2).collect();
            let arm = self.sub_block(|s| {
                for k in kids {
                    if k.kind() == "switch_label" {
                        if text(k, s.src).trim_start().starts_with("default") {
                            has_default = true;
                        }
                    } else if g.kind() == "switch_rule" {
                        // An arrow arm never falls through.
                        s.stmt(k);
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

    fn try_stmt(&mut self, node: Node<'a>) {
        let mut c = node.walk();
        let kids: Vec<Node<'a>> = node.named_children(&mut c).collect();
        for k in kids {
            match k.kind() {
                "resource_specification" => {
                    let mut c2 = k.walk();
                    let rs: Vec<Node<'a>> = k.named_children(&mut c2).collect();
                    for r in rs {
                        if let (Some(t), Some(n), Some(v)) =
                            (r.child_by_field_name("type"), r.child_by_field_name("name"), r.child_by_field_name("value"))
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
                            if p.kind() == "catch_formal_parameter" {
                                if let Some(n) = p.child_by_field_name("name") {
                                    let mut c4 = p.walk();
                                    let ty = p
                                        .named_children(&mut c4)
                                        .find(|t| t.kind() == "catch_type")
                                        .and_then(|t| t.named_child(0))
                                        .map(|t| s.ty(t))
                                        .unwrap_or(JType::Unknown);
                                    let v = s.declare(text(n, s.src), ty.clone(), range(n));
                                    s.emit(Basic::Assign { lhs: Place::var(v), rhs: Rvalue::Use(Place::global(THROWN.into())) }, range(n));
                                    s.uses_thrown = true;
                                    s.record(n, &Place::var(v), &ty);
                                }
                            } else if p.kind() == "block" {
                                s.stmt(p);
                            }
                        }
                    });
                    self.push_stmt(Stmt::If { cond: Cond::Opaque, then_branch: b, else_branch: Vec::new() });
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

    // ---- expressions -------------------------------------------------------

    /// Lowers an expression; when `dest` is given, a computed value (new,
    /// call result, cast, ...) is written straight into it.
    pub fn expr(&mut self, node: Node<'a>, dest: Option<VarId>) -> Ev {
        let ev = self.expr_inner(node, dest);
        match &ev.kind {
            EvK::Place(p) => {
                let p = p.clone();
                let ty = ev.ty.clone();
                self.record(node, &p, &ty);
            }
            EvK::Rv(Rvalue::New(..) | Rvalue::String(_) | Rvalue::Cast(..)) => {
                // Materialise now so that hover on the expression has a place.
                let ty = ev.ty.clone();
                let v = self.to_var(ev, node, dest).expect("an object value");
                self.record(node, &Place::var(v), &ty);
                return Ev::var(v, ty);
            }
            _ => {}
        }
        ev
    }

    fn expr_inner(&mut self, node: Node<'a>, dest: Option<VarId>) -> Ev {
        match node.kind() {
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
                self.strings.push((t.clone(), range(node)));
                Ev::place(Place::global(literal_global(&t).into()), JType::Class("String".into()))
            }
            "decimal_integer_literal" | "hex_integer_literal" | "octal_integer_literal" | "binary_integer_literal"
            | "decimal_floating_point_literal" | "hex_floating_point_literal" | "true" | "false" | "character_literal" => Ev::scalar(),
            "field_access" => self.field_access(node),
            "array_access" => {
                let arr = node.child_by_field_name("array").map(|a| self.expr(a, None));
                if let Some(i) = node.child_by_field_name("index") {
                    self.expr(i, None);
                }
                let Some(arr) = arr else { return Ev::unknown() };
                let elem = match &arr.ty {
                    JType::Array(e) => (**e).clone(),
                    _ => JType::Unknown,
                };
                match self.to_var(arr, node, None) {
                    Some(v) => Ev::place(Place::deref(Base::Var(v)).index(Index::Any), elem),
                    None => Ev::rv(Rvalue::Null, elem),
                }
            }
            "method_invocation" => self.call(node, dest),
            "object_creation_expression" => self.new_object(node, dest),
            "array_creation_expression" => self.new_array(node, dest),
            "array_initializer" => self.array_init(node, &JType::Array(Box::new(JType::Unknown)), dest),
            "cast_expression" => {
                let ty = node.child_by_field_name("type").map(|t| self.ty(t)).unwrap_or(JType::Unknown);
                let v = match node.child_by_field_name("value") {
                    Some(v) => self.expr(v, None),
                    None => return Ev::unknown(),
                };
                if !ty.is_ref() || !v.ty.is_ref() {
                    return Ev::scalar();
                }
                let vn = node.child_by_field_name("value").unwrap();
                match self.to_var(v, vn, None) {
                    Some(y) => Ev::rv(Rvalue::Cast(Place::var(y), ty.name().into()), ty),
                    None => Ev::rv(Rvalue::Null, ty),
                }
            }
            "instanceof_expression" => {
                let left = node.child_by_field_name("left").map(|l| (self.expr(l, None), l));
                if let (Some((ev, l)), Some(name)) = (left, node.child_by_field_name("name")) {
                    let ty = node.child_by_field_name("right").map(|t| self.ty(t)).unwrap_or(JType::Unknown);
                    let x = self.declare(text(name, self.src), ty.clone(), range(name));
                    // A pattern binding is a cast that cannot fail.
                    if let Some(y) = self.to_var(ev, l, None) {
                        self.emit(Basic::Assign { lhs: Place::var(x), rhs: Rvalue::Use(Place::var(y)) }, range(node));
                    }
                    self.record(name, &Place::var(x), &ty);
                } else if node.child_by_field_name("pattern").is_some() {
                    self.note(node, "record patterns are not modelled");
                }
                Ev::scalar()
            }
            "assignment_expression" => self.assignment(node),
            "binary_expression" => {
                let l = node.child_by_field_name("left").map(|l| self.expr(l, None));
                let r = node.child_by_field_name("right").map(|r| self.expr(r, None));
                let op = node.child_by_field_name("operator").map(|o| text(o, self.src)).unwrap_or("");
                let is_str = |e: &Option<Ev>| matches!(e, Some(Ev { ty: JType::Class(c), .. }) if c == "String");
                if op == "+" && (is_str(&l) || is_str(&r)) {
                    // A concatenation makes a new string: one object per site.
                    let s = self.site(range(node), SiteKind::String);
                    return Ev::rv(Rvalue::String(s), JType::Class("String".into()));
                }
                Ev::scalar()
            }
            "unary_expression" | "update_expression" => {
                let mut c = node.walk();
                let kids: Vec<Node<'a>> = node.named_children(&mut c).collect();
                for k in kids {
                    self.expr(k, None);
                }
                Ev::scalar()
            }
            "ternary_expression" => {
                if let Some(c) = node.child_by_field_name("condition") {
                    self.expr(c, None);
                }
                let (Some(a), Some(b)) = (node.child_by_field_name("consequence"), node.child_by_field_name("alternative")) else {
                    return Ev::unknown();
                };
                // Types: take the first reference-typed arm.
                let mut ty = JType::Prim;
                let mut target = dest;
                let mut arms: Vec<Block> = Vec::new();
                for arm in [a, b] {
                    let blk = self.sub_block(|s| {
                        let ev = s.expr(arm, None);
                        if ev.ty.is_ref() {
                            if ty == JType::Prim || ty == JType::Null {
                                ty = ev.ty.clone();
                            }
                            let t = *target.get_or_insert_with(|| s.temp(JType::Unknown, range(node)));
                            s.assign_var(t, ev, arm);
                        }
                    });
                    arms.push(blk);
                }
                let else_branch = arms.pop().unwrap();
                let then_branch = arms.pop().unwrap();
                self.push_stmt(Stmt::If { cond: Cond::Opaque, then_branch, else_branch });
                match target {
                    Some(t) if ty.is_ref() => {
                        if dest.is_none() {
                            self.var_ty[t.0 as usize] = ty.clone();
                            self.vars[t.0 as usize].ty = ty.ir();
                        }
                        Ev::var(t, ty)
                    }
                    _ => Ev::scalar(),
                }
            }
            "lambda_expression" | "method_reference" => {
                self.note(node, "lambdas and method references are not modelled (they point to nothing)");
                Ev::unknown()
            }
            "switch_expression" => {
                self.switch(node);
                self.note(node, "the value of a switch expression is not modelled");
                Ev::unknown()
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
    fn name(&mut self, node: Node<'a>) -> Ev {
        let n = text(node, self.src);
        if let Some(v) = self.lookup(n) {
            return Ev::var(v, self.var_ty[v.0 as usize].clone());
        }
        if let Some((decl, f)) = self.h.field(&self.class, n) {
            let ty = f.ty.clone();
            if f.is_static {
                return Ev::place(Place::global(format!("{}.{}", decl.name, f.name).into()), ty);
            }
            return match self.this {
                Some(t) => Ev::place(Place::deref(Base::Var(t)).field(n.into()), ty),
                None => Ev::unknown(),
            };
        }
        if self.h.is_known(n) {
            return Ev::unknown(); // a class name used as a value: callers check first
        }
        self.note(node, format!("`{n}` is not modelled (not a local, field or class of the program)"));
        Ev::unknown()
    }

    /// Is this node a class name (not shadowed by a local or field)?
    fn class_ref(&self, node: Node) -> Option<String> {
        if node.kind() != "identifier" {
            return None;
        }
        let n = text(node, self.src);
        if self.lookup(n).is_some() || self.h.field(&self.class, n).is_some() {
            return None;
        }
        self.h.is_known(n).then(|| n.to_string())
    }

    /// Field access on a value; `None` object means `this`.
    fn field_of(&mut self, obj: Ev, obj_node: Node<'a>, fname: &str, node: Node<'a>) -> Ev {
        if fname == "length" && matches!(obj.ty, JType::Array(_)) {
            return Ev::scalar();
        }
        let class = match &obj.ty {
            JType::Class(c) => c.clone(),
            _ => String::new(),
        };
        let Some((decl, f)) = self.h.field(&class, fname) else {
            self.note(node, format!("field `{fname}` of `{}` is not modelled", obj.ty.name()));
            return Ev::unknown();
        };
        let (decl_name, is_static, ty) = (decl.name.clone(), f.is_static, f.ty.clone());
        if is_static {
            return Ev::place(Place::global(format!("{decl_name}.{fname}").into()), ty);
        }
        match self.to_var(obj, obj_node, None) {
            Some(v) => Ev::place(Place::deref(Base::Var(v)).field(fname.into()), ty),
            None => Ev::rv(Rvalue::Null, ty),
        }
    }

    fn field_access(&mut self, node: Node<'a>) -> Ev {
        let (Some(obj), Some(field)) = (node.child_by_field_name("object"), node.child_by_field_name("field")) else {
            return Ev::unknown();
        };
        let fname = text(field, self.src).to_string();
        if obj.kind() == "super" {
            let t = match self.this {
                Some(t) => Ev::var(t, JType::Class(self.class.clone())),
                None => return Ev::unknown(),
            };
            return self.field_of(t, obj, &fname, node);
        }
        if let Some(c) = self.class_ref(obj) {
            return match self.h.field(&c, &fname) {
                Some((d, f)) if f.is_static => Ev::place(Place::global(format!("{}.{}", d.name, f.name).into()), f.ty.clone()),
                _ => {
                    self.note(node, format!("`{c}.{fname}` is not modelled"));
                    Ev::unknown()
                }
            };
        }
        let o = self.expr(obj, None);
        if matches!(o.kind, EvK::Rv(Rvalue::Unknown)) {
            if o.ty == JType::Unknown {
                self.note(node, format!("`{}` is not modelled", text(node, self.src)));
            }
            return Ev::unknown();
        }
        self.field_of(o, obj, &fname, node)
    }

    fn assignment(&mut self, node: Node<'a>) -> Ev {
        let (Some(l), Some(r)) = (node.child_by_field_name("left"), node.child_by_field_name("right")) else {
            return Ev::unknown();
        };
        let op = node.child_by_field_name("operator").map(|o| text(o, self.src)).unwrap_or("=");
        let lhs = self.expr(l, None);
        let local = match &lhs.kind {
            EvK::Place(p) if !p.deref && p.path.is_empty() => match p.base {
                Base::Var(v) => Some(v),
                _ => None,
            },
            _ => None,
        };
        let rhs = if op == "=" {
            self.expr(r, local)
        } else {
            self.expr(r, None);
            if op == "+=" && lhs.ty == JType::Class("String".into()) {
                let s = self.site(range(node), SiteKind::String);
                Ev::rv(Rvalue::String(s), lhs.ty.clone())
            } else {
                return Ev::scalar();
            }
        };
        let EvK::Place(lp) = lhs.kind.clone() else { return rhs };
        if !lhs.ty.is_ref() && !rhs.ty.is_ref() {
            return Ev::scalar();
        }
        if let Some(v) = local {
            self.assign_var(v, rhs, r);
            return lhs;
        }
        // A store (field, array element or static field): the value must be
        // a variable or constant.
        let value = match rhs.kind {
            EvK::Place(ref p) if !p.deref && p.path.is_empty() && matches!(p.base, Base::Var(_)) => Rvalue::Use(p.clone()),
            EvK::Rv(Rvalue::Null) => Rvalue::Null,
            EvK::Rv(Rvalue::Scalar | Rvalue::Unknown) => return lhs,
            _ => self.operand(rhs, r),
        };
        self.emit(Basic::Assign { lhs: lp, rhs: value }, range(node));
        lhs
    }

    fn args(&mut self, node: Option<Node<'a>>) -> Vec<(Rvalue, JType)> {
        let Some(al) = node else { return Vec::new() };
        let mut c = al.walk();
        let kids: Vec<Node<'a>> = al.named_children(&mut c).filter(|n| !n.kind().ends_with("comment")).collect();
        kids.into_iter()
            .map(|a| {
                let ev = self.expr(a, None);
                let ty = ev.ty.clone();
                (self.operand(ev, a), ty)
            })
            .collect()
    }

    /// Picks the most specific applicable method (by arity and declared
    /// parameter types).
    fn resolve<'c>(&self, cands: Vec<(&'c ClassDecl<'a>, &'c MethodDecl<'a>)>, args: &[(Rvalue, JType)]) -> Option<&'c MethodDecl<'a>> {
        for strict in [true, false] {
            let app: Vec<&MethodDecl> = cands
                .iter()
                .map(|(_, m)| *m)
                .filter(|m| m.params.iter().zip(args).all(|((_, p), (_, a))| assignable(self.h, a, p, strict)))
                .collect();
            if app.is_empty() {
                continue;
            }
            let best = app.iter().find(|m| {
                app.iter().all(|o| m.params.iter().zip(&o.params).all(|((_, a), (_, b))| assignable(self.h, a, b, true)))
            });
            return Some(best.copied().unwrap_or(app[0]));
        }
        cands.first().map(|(_, m)| *m)
    }

    fn emit_call(&mut self, node: Node<'a>, name_node: Node, callee: Callee, args: Vec<Rvalue>, ret: &JType, dest: Option<VarId>) -> Ev {
        let site = self.site(range(node), SiteKind::Call);
        let lhs = if ret.is_ref() { Some(dest.unwrap_or_else(|| self.temp(ret.clone(), range(node)))) } else { None };
        let stmt = self.emit(Basic::Call { site, lhs: lhs.map(Place::var), callee, args }, range(node));
        self.fs.calls.push(CallInfo { range: range(node), callee_range: range(name_node), site, stmt });
        match lhs {
            Some(v) => Ev::var(v, ret.clone()),
            None => Ev::scalar(),
        }
    }

    fn call(&mut self, node: Node<'a>, dest: Option<VarId>) -> Ev {
        let Some(name_node) = node.child_by_field_name("name") else { return Ev::unknown() };
        let name = text(name_node, self.src).to_string();
        let obj = node.child_by_field_name("object");
        // The receiver: (class whose methods are searched, receiver variable
        // or None for a static context, is super).
        let (class, recv, is_super): (String, Option<VarId>, bool) = match obj {
            None => (self.class.clone(), self.this, false),
            Some(o) if o.kind() == "super" => {
                let sup = self.h.get(&self.class).and_then(|c| c.superclass.clone()).unwrap_or_else(|| "Object".into());
                (sup, self.this, true)
            }
            Some(o) => match self.class_ref(o) {
                Some(c) => (c, None, false),
                None => {
                    let ev = self.expr(o, None);
                    let cls = match &ev.ty {
                        JType::Class(c) => c.clone(),
                        JType::Array(_) => "Object".into(),
                        _ => String::new(),
                    };
                    (cls, self.to_var(ev, o, None), false)
                }
            },
        };
        let args = self.args(node.child_by_field_name("arguments"));
        let h = self.h;
        let cands = h.methods_named(&class, &name, args.len());
        let Some(m) = self.resolve(cands, &args) else {
            self.note(node, format!("call to `{}` is not modelled (no such method in the program)", text(node, self.src).split('(').next().unwrap_or("")));
            return Ev::unknown();
        };
        let (is_static, function, signature, ret, has_body) = (m.is_static, m.function.clone(), m.signature.clone(), m.ret.clone(), m.has_body);
        // A private method is not overridden: call it like `super.m()`.
        let is_super = is_super || (m.is_private && has_body);
        let mut argv: Vec<Rvalue> = args.into_iter().map(|(r, _)| r).collect();
        if (is_static || is_super) && !has_body {
            self.note(node, format!("`{function}` has no body to call"));
            return Ev::unknown();
        }
        if is_static {
            return self.emit_call(node, name_node, Callee::Direct(function.into()), argv, &ret, dest);
        }
        let Some(r) = recv else {
            if obj.is_some() && self.class_ref(obj.unwrap()).is_none() {
                // A call on null or on an unmodelled value: it never returns here.
                return Ev::rv(Rvalue::Null, ret);
            }
            self.note(node, "an instance call without a receiver is not modelled");
            return Ev::unknown();
        };
        argv.insert(0, Rvalue::Use(Place::var(r)));
        if is_super {
            if !has_body {
                self.note(node, "super call to an abstract method");
                return Ev::unknown();
            }
            return self.emit_call(node, name_node, Callee::Direct(function.into()), argv, &ret, dest);
        }
        let callee = Callee::Virtual { receiver: Place::var(r), signature: signature.into() };
        self.emit_call(node, name_node, callee, argv, &ret, dest)
    }

    /// `this(...)` or `super(...)` as the first statement of a constructor.
    fn ctor_call(&mut self, node: Node<'a>) {
        let Some(kw) = node.child_by_field_name("constructor") else { return };
        let class = if kw.kind() == "this" {
            self.class.clone()
        } else {
            match self.h.get(&self.class).and_then(|c| c.superclass.clone()) {
                Some(s) => s,
                None => {
                    self.args(node.child_by_field_name("arguments"));
                    return;
                }
            }
        };
        let args = self.args(node.child_by_field_name("arguments"));
        self.call_ctor(node, kw, &class, args);
    }

    /// Calls a constructor of `class` on `this`.
    pub fn call_ctor(&mut self, node: Node<'a>, name_node: Node, class: &str, args: Vec<(Rvalue, JType)>) {
        let Some(this) = self.this else { return };
        let cands: Vec<_> = match self.h.get(class) {
            Some(d) => d.methods.iter().filter(|m| m.is_ctor && m.params.len() == args.len()).map(|m| (d, m)).collect(),
            None => return,
        };
        let Some(m) = self.resolve(cands, &args) else {
            if self.h.get(class).is_some_and(|d| d.node.is_some()) {
                self.note(node, format!("no constructor of `{class}` takes {} arguments", args.len()));
            }
            return;
        };
        if !m.has_body {
            return;
        }
        let f = m.function.clone();
        let mut argv: Vec<Rvalue> = args.into_iter().map(|(r, _)| r).collect();
        argv.insert(0, Rvalue::Use(Place::var(this)));
        self.emit_call(node, name_node, Callee::Direct(f.into()), argv, &JType::Prim, None);
    }

    fn new_object(&mut self, node: Node<'a>, dest: Option<VarId>) -> Ev {
        let ty = node.child_by_field_name("type").map(|t| self.ty(t)).unwrap_or(JType::Unknown);
        if let Some(anon) = self.h.anonymous.get(&(self.file, node.start_byte())).cloned() {
            return self.new_anonymous(node, &anon, ty, dest);
        }
        let cname = ty.name();
        let args = self.args(node.child_by_field_name("arguments"));
        let site = self.site(range(node), SiteKind::New);
        let x = match dest {
            Some(d) => d,
            None => self.temp(ty.clone(), range(node)),
        };
        self.emit(Basic::Assign { lhs: Place::var(x), rhs: Rvalue::New(site, cname.clone().into()) }, range(node));
        let tn = node.child_by_field_name("type").unwrap_or(node);
        match self.h.get(&cname) {
            Some(d) if d.node.is_some() => {
                let cands: Vec<_> = d.methods.iter().filter(|m| m.is_ctor && m.params.len() == args.len()).map(|m| (d, m)).collect();
                match self.resolve(cands, &args) {
                    Some(m) if !m.has_body => {}
                    Some(m) => {
                        let f = m.function.clone();
                        let mut argv: Vec<Rvalue> = args.into_iter().map(|(r, _)| r).collect();
                        argv.insert(0, Rvalue::Use(Place::var(x)));
                        self.emit_call(node, tn, Callee::Direct(f.into()), argv, &JType::Prim, None);
                    }
                    None => self.note(node, format!("no constructor of `{cname}` takes {} arguments", args.len())),
                }
            }
            Some(_) => {}
            None => self.note(node, format!("library class `{cname}` is not modelled (its constructor is not analysed)")),
        }
        Ev::var(x, ty)
    }

    /// `new T(args) { body }`: an object of the anonymous class, T's
    /// constructor run on it with the arguments, then the anonymous class's
    /// own `<init>()` (its field initialisers).
    fn new_anonymous(&mut self, node: Node<'a>, anon: &str, ty: JType, dest: Option<VarId>) -> Ev {
        let args = self.args(node.child_by_field_name("arguments"));
        let site = self.site(range(node), SiteKind::New);
        let x = match dest {
            Some(d) => d,
            None => self.temp(ty.clone(), range(node)),
        };
        self.emit(Basic::Assign { lhs: Place::var(x), rhs: Rvalue::New(site, anon.into()) }, range(node));
        let tn = node.child_by_field_name("type").unwrap_or(node);
        let base = ty.name();
        if self.h.get(&base).is_some_and(|d| d.node.is_some() && !d.is_interface) {
            let h = self.h;
            let d = h.get(&base).unwrap();
            let cands: Vec<_> = d.methods.iter().filter(|m| m.is_ctor && m.params.len() == args.len()).map(|m| (d, m)).collect();
            if let Some(m) = self.resolve(cands, &args).filter(|m| m.has_body) {
                let mut argv: Vec<Rvalue> = args.into_iter().map(|(r, _)| r).collect();
                argv.insert(0, Rvalue::Use(Place::var(x)));
                self.emit_call(node, tn, Callee::Direct(m.function.as_str().into()), argv, &JType::Prim, None);
            }
        }
        let init = format!("{anon}.<init>()");
        self.emit_call(node, tn, Callee::Direct(init.into()), vec![Rvalue::Use(Place::var(x))], &JType::Prim, None);
        Ev::var(x, ty)
    }

    fn new_array(&mut self, node: Node<'a>, dest: Option<VarId>) -> Ev {
        let elem = node.child_by_field_name("type").map(|t| self.ty(t)).unwrap_or(JType::Unknown);
        let mut dim_exprs = 0;
        let mut dims = 0;
        let mut c = node.walk();
        let parts: Vec<Node<'a>> = node.children_by_field_name("dimensions", &mut c).collect();
        for d in parts {
            if d.kind() == "dimensions_expr" {
                dim_exprs += 1;
                dims += 1;
                if let Some(e) = d.named_child(0) {
                    self.expr(e, None);
                }
            } else {
                dims += crate::types::count_dims(d, self.src);
            }
        }
        let ty = wrap_array(elem, dims.max(1));
        if let Some(v) = node.child_by_field_name("value") {
            return self.array_init(v, &ty, dest);
        }
        let x = self.alloc_array(node, &ty, dest);
        // `new A[2][3]` also makes the inner arrays.
        let mut outer = x;
        let mut t = ty.clone();
        for _ in 1..dim_exprs {
            let JType::Array(inner) = t else { break };
            let y = self.alloc_array(node, &inner, None);
            self.emit(Basic::Assign { lhs: Place::deref(Base::Var(outer)).index(Index::Any), rhs: Rvalue::Use(Place::var(y)) }, range(node));
            outer = y;
            t = *inner;
        }
        Ev::var(x, ty)
    }

    fn alloc_array(&mut self, node: Node, ty: &JType, dest: Option<VarId>) -> VarId {
        let site = self.site(range(node), SiteKind::New);
        let x = match dest {
            Some(d) => d,
            None => self.temp(ty.clone(), range(node)),
        };
        self.emit(Basic::Assign { lhs: Place::var(x), rhs: Rvalue::New(site, ty.name().into()) }, range(node));
        x
    }

    fn array_init(&mut self, node: Node<'a>, ty: &JType, dest: Option<VarId>) -> Ev {
        let x = self.alloc_array(node, ty, dest);
        let elem = match ty {
            JType::Array(e) => (**e).clone(),
            _ => JType::Unknown,
        };
        let mut c = node.walk();
        let kids: Vec<Node<'a>> = node.named_children(&mut c).collect();
        for k in kids {
            let ev = if k.kind() == "array_initializer" { self.array_init(k, &elem, None) } else { self.expr(k, None) };
            if !ev.ty.is_ref() || matches!(ev.kind, EvK::Rv(Rvalue::Null | Rvalue::Unknown)) {
                continue;
            }
            if let Some(v) = self.to_var(ev, k, None) {
                self.emit(Basic::Assign { lhs: Place::deref(Base::Var(x)).index(Index::Any), rhs: Rvalue::Use(Place::var(v)) }, range(k));
            }
        }
        Ev::var(x, ty.clone())
    }

    /// `this.f = value` for an instance field initializer, or `C.f = value`
    /// for a static one.
    pub fn field_init(&mut self, class: &str, fname: &str, ty: &JType, is_static: bool, value: Node<'a>) {
        let ev = if value.kind() == "array_initializer" { self.array_init(value, ty, None) } else { self.expr(value, None) };
        if !ev.ty.is_ref() || matches!(ev.kind, EvK::Rv(Rvalue::Scalar | Rvalue::Unknown)) {
            return;
        }
        let rhs = self.operand(ev, value);
        let lhs = if is_static {
            Place::global(format!("{class}.{fname}").into())
        } else {
            match self.this {
                Some(t) => Place::deref(Base::Var(t)).field(fname.into()),
                None => return,
            }
        };
        self.emit(Basic::Assign { lhs, rhs }, range(value));
    }
}

/// The global that holds the interned string literal `text` (with quotes).
pub fn literal_global(text: &str) -> String {
    format!("String.{text}")
}

pub fn range(node: Node) -> Range {
    Range::new(node.start_byte(), node.end_byte())
}

