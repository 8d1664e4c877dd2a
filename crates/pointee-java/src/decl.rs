//! The first pass: every class, interface, field and method signature of the
//! program, before any body is lowered, so that bodies can resolve names,
//! overloads and fields across files.

use crate::types::{read_type, JType};
use std::collections::HashMap;
use tree_sitter::Node;

pub struct FieldDecl {
    pub name: String,
    pub ty: JType,
    pub is_static: bool,
    /// A static constant variable (JLS 4.12.4: `static final`, primitive or
    /// String, initialised by a constant expression): a read of it is the
    /// value itself and initialises no class.
    pub constant: Option<Constant>,
}

/// The value of a constant variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Constant {
    /// A primitive: no object.
    Prim,
    /// A String: the interned literal of this text (with quotes).
    Str(String),
}

pub struct MethodDecl<'a> {
    /// Simple name; `<init>` for a constructor.
    pub name: String,
    pub params: Vec<(String, JType)>,
    pub ret: JType,
    pub is_static: bool,
    pub is_ctor: bool,
    /// Private methods are not overridden: calls to them are direct.
    pub is_private: bool,
    /// The last parameter is `T... xs` (an array `T[]`).
    pub is_varargs: bool,
    /// `name(T1,T2)`.
    pub signature: String,
    /// `Class.name(T1,T2)`.
    pub function: String,
    /// The declaration; `None` for a made-up default constructor.
    pub node: Option<Node<'a>>,
    pub has_body: bool,
    /// A body the front end makes up (records).
    pub synth: Option<Synth>,
}

/// Made-up bodies of a record's members.
#[derive(Clone, Debug)]
pub enum Synth {
    /// `x()`: returns the field `x`.
    Accessor(String),
    /// The canonical constructor (or the compact one, then): its body, then
    /// each field from the parameter of the same name.
    RecordCtor,
}

pub struct ClassDecl<'a> {
    pub name: String,
    pub superclass: Option<String>,
    pub interfaces: Vec<String>,
    pub is_interface: bool,
    pub is_abstract: bool,
    pub fields: Vec<FieldDecl>,
    pub methods: Vec<MethodDecl<'a>>,
    pub type_vars: Vec<String>,
    /// The declaration; `None` for built-in classes. For an anonymous
    /// class, the `new T(...) { ... }` expression.
    pub node: Option<Node<'a>>,
    /// The class body.
    pub body: Option<Node<'a>>,
    /// An anonymous class: named `Outer$1`, ...; its base `T` is its
    /// superclass or its one interface (settled once all classes are known).
    pub anonymous_base: Option<String>,
    /// An inner (non-static member) class: its enclosing class, whose
    /// instance the object holds in its field `this$0`.
    pub inner_of: Option<String>,
    /// An enum: its constants are static fields, plus `$VALUES` (an array of
    /// them, what `values()` returns).
    pub is_enum: bool,
    /// A local class: its creation stores the locals it mentions.
    pub is_local: bool,
    pub file: usize,
}

/// The class table of the whole program.
#[derive(Default)]
pub struct Hierarchy<'a> {
    pub classes: Vec<ClassDecl<'a>>,
    pub by_name: HashMap<String, usize>,
    /// Anonymous classes by (file, start byte of their `new` expression).
    pub anonymous: HashMap<(usize, usize), String>,
    /// The enclosing locals each anonymous class captures (its fields
    /// `cap$x`), found when its creation is lowered, before its methods.
    pub captures: std::cell::RefCell<HashMap<String, Vec<(String, JType)>>>,
    /// The class whose instance method created each anonymous class: its
    /// `this` is the anonymous object's field `this$0`.
    pub outers: std::cell::RefCell<HashMap<String, String>>,
    /// Lambdas and method references made so far per class (their classes
    /// are `C$lambda$1`, `C$ref$1`, ... in lowering order).
    pub synthetic: std::cell::RefCell<HashMap<String, u32>>,
    /// `ancestors` by class, computed once.
    ancestors: std::cell::RefCell<HashMap<String, std::rc::Rc<[String]>>>,
}

impl<'a> Hierarchy<'a> {
    /// The next name `{class}${kind}${n}` for a lambda or method reference.
    pub fn synthetic_name(&self, class: &str, kind: &str) -> String {
        let mut m = self.synthetic.borrow_mut();
        let n = m.entry(format!("{class}${kind}")).or_insert(0);
        *n += 1;
        format!("{class}${kind}${n}")
    }

    pub fn is_known(&self, name: &str) -> bool {
        self.by_name.contains_key(name)
    }

    pub fn get(&self, name: &str) -> Option<&ClassDecl<'a>> {
        self.by_name.get(name).map(|&i| &self.classes[i])
    }

    /// Direct supertypes: the superclass (Object when none) and interfaces.
    pub fn supers(&self, name: &str) -> Vec<String> {
        let Some(c) = self.get(name) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        if let Some(s) = &c.superclass {
            out.push(s.clone());
        } else if name != "Object" {
            out.push("Object".into());
        }
        out.extend(c.interfaces.iter().cloned());
        out
    }

    /// `a` is `b` or a subtype of it (classes and interfaces).
    pub fn is_subclass(&self, a: &str, b: &str) -> bool {
        let mut todo = vec![a.to_string()];
        let mut seen = Vec::new();
        while let Some(x) = todo.pop() {
            if x == b {
                return true;
            }
            if seen.contains(&x) {
                continue;
            }
            todo.extend(self.supers(&x));
            seen.push(x);
        }
        false
    }

    /// `name` and its supertypes, nearest first (superclass chain before
    /// interfaces), each once.
    pub fn ancestors(&self, name: &str) -> std::rc::Rc<[String]> {
        if let Some(a) = self.ancestors.borrow().get(name) {
            return a.clone();
        }
        let a: std::rc::Rc<[String]> = self.compute_ancestors(name).into();
        self.ancestors
            .borrow_mut()
            .insert(name.to_string(), a.clone());
        a
    }

    fn compute_ancestors(&self, name: &str) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        let mut chain = Vec::new();
        let mut cur = Some(name.to_string());
        while let Some(c) = cur {
            if chain.contains(&c) {
                break;
            }
            chain.push(c.clone());
            cur = self.get(&c).and_then(|d| d.superclass.clone()).or_else(|| {
                (c != "Object" && self.get(&c).is_some_and(|d| !d.is_interface))
                    .then(|| "Object".to_string())
            });
        }
        let mut todo = chain.clone();
        out.extend(chain);
        let mut i = 0;
        while i < todo.len() {
            let c = todo[i].clone();
            i += 1;
            if let Some(d) = self.get(&c) {
                for it in &d.interfaces {
                    if !out.contains(it) {
                        out.push(it.clone());
                        todo.push(it.clone());
                    }
                }
            }
        }
        if !out.iter().any(|c| c == "Object") && self.is_known("Object") {
            out.push("Object".into());
        }
        out
    }

    /// Methods named `name` with `arity` parameters visible in `class`, the
    /// most derived declaration of each signature first.
    pub fn methods_named(
        &self,
        class: &str,
        name: &str,
        arity: usize,
    ) -> Vec<(&ClassDecl<'a>, &MethodDecl<'a>)> {
        let mut out: Vec<(&ClassDecl<'a>, &MethodDecl<'a>)> = Vec::new();
        for c in self.ancestors(class).iter() {
            let Some(d) = self.get(c) else { continue };
            for m in &d.methods {
                if m.name == name
                    && m.params.len() == arity
                    && !out.iter().any(|(_, o)| o.signature == m.signature)
                {
                    out.push((d, m));
                }
            }
        }
        out
    }

    /// Varargs methods named `name` that `arity` arguments can call.
    pub fn varargs_named(
        &self,
        class: &str,
        name: &str,
        arity: usize,
    ) -> Vec<(&ClassDecl<'a>, &MethodDecl<'a>)> {
        let mut out: Vec<(&ClassDecl<'a>, &MethodDecl<'a>)> = Vec::new();
        for c in self.ancestors(class).iter() {
            let Some(d) = self.get(c) else { continue };
            for m in &d.methods {
                if m.name == name
                    && m.is_varargs
                    && m.params.len() <= arity + 1
                    && !out.iter().any(|(_, o)| o.signature == m.signature)
                {
                    out.push((d, m));
                }
            }
        }
        out
    }

    /// The field `name` seen from `class`: (declaring class, field).
    pub fn field(&self, class: &str, name: &str) -> Option<(&ClassDecl<'a>, &FieldDecl)> {
        for c in self.ancestors(class).iter() {
            let Some(d) = self.get(c) else { continue };
            if let Some(f) = d.fields.iter().find(|f| f.name == name) {
                return Some((d, f));
            }
        }
        None
    }
}

pub fn text<'s>(node: Node, src: &'s str) -> &'s str {
    &src[node.byte_range()]
}

pub fn has_modifier(node: Node, src: &str, m: &str) -> bool {
    let mut c = node.walk();
    let found = node
        .children(&mut c)
        .filter(|ch| ch.kind() == "modifiers")
        .any(|mods| text(mods, src).split_whitespace().any(|w| w == m));
    found
}

fn type_params(node: Node, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(tp) = node.child_by_field_name("type_parameters") {
        let mut c = tp.walk();
        for p in tp.named_children(&mut c) {
            if p.kind() == "type_parameter" {
                let mut c2 = p.walk();
                let id = p
                    .named_children(&mut c2)
                    .find(|n| n.kind() == "type_identifier" || n.kind() == "identifier");
                if let Some(id) = id {
                    out.push(text(id, src).to_string());
                }
            }
        }
    }
    out
}

fn type_list(node: Node, src: &str, tv: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut c = node.walk();
    for ch in node.named_children(&mut c) {
        if ch.kind() == "type_list" {
            let mut c2 = ch.walk();
            for t in ch.named_children(&mut c2) {
                out.push(read_type(t, src, tv).name());
            }
        }
    }
    out
}

/// Built-in classes: Object and String.
pub fn builtins<'a>() -> Vec<ClassDecl<'a>> {
    let mk = |name: &str, sup: Option<&str>| ClassDecl {
        name: name.into(),
        superclass: sup.map(Into::into),
        interfaces: Vec::new(),
        is_interface: false,
        is_abstract: false,
        fields: Vec::new(),
        methods: Vec::new(),
        type_vars: Vec::new(),
        node: None,
        body: None,
        anonymous_base: None,
        inner_of: None,
        is_enum: false,
        is_local: false,
        file: usize::MAX,
    };
    let mut object = mk("Object", None);
    // The methods of Object that programs override: calls to them dispatch
    // to the overrides; Object itself has no body for them.
    for (name, params, ret) in [
        ("toString", vec![], JType::Class("String".into())),
        ("equals", vec![JType::object()], JType::void()),
        ("hashCode", vec![], JType::void()),
    ] {
        let sig: Vec<String> = params.iter().map(JType::name).collect();
        let signature = format!("{name}({})", sig.join(","));
        object.methods.push(MethodDecl {
            function: format!("Object.{signature}"),
            name: name.into(),
            params: params.into_iter().map(|t| ("o".to_string(), t)).collect(),
            ret,
            is_static: false,
            is_ctor: false,
            is_private: false,
            is_varargs: false,
            signature,
            node: None,
            has_body: false,
            synth: None,
        });
    }
    vec![object, mk("String", Some("Object"))]
}

/// Something pass 1 skipped: (file, node, message).
pub type Skipped<'a> = Vec<(usize, Node<'a>, String)>;

/// Collects the class declarations of one file (nested ones too).
pub fn collect<'a>(
    root: Node<'a>,
    src: &str,
    file: usize,
    out: &mut Vec<ClassDecl<'a>>,
    skipped: &mut Skipped<'a>,
) {
    let mut c = root.walk();
    for ch in root.named_children(&mut c) {
        collect_decl(ch, src, file, &[], out, skipped);
    }
}

fn collect_decl<'a>(
    node: Node<'a>,
    src: &str,
    file: usize,
    outer_tv: &[String],
    out: &mut Vec<ClassDecl<'a>>,
    skipped: &mut Skipped<'a>,
) {
    match node.kind() {
        "class_declaration" | "interface_declaration" => {}
        "enum_declaration" | "record_declaration" => {}
        "annotation_type_declaration" => {
            skipped.push((
                file,
                node,
                format!("{} is not modelled", node.kind().replace('_', " ")),
            ));
            return;
        }
        _ => return,
    }
    let is_interface = node.kind() == "interface_declaration";
    let Some(name_node) = node.child_by_field_name("name") else {
        return;
    };
    let name = text(name_node, src).to_string();
    let mut tv: Vec<String> = outer_tv.to_vec();
    tv.extend(type_params(node, src));
    let superclass = node.child_by_field_name("superclass").and_then(|s| {
        let mut c = s.walk();
        let t = s.named_children(&mut c).next();
        t.map(|t| read_type(t, src, &tv).name())
    });
    let interfaces = if is_interface {
        let mut c = node.walk();
        let ext = node
            .named_children(&mut c)
            .find(|n| n.kind() == "extends_interfaces");
        ext.map(|e| type_list(e, src, &tv)).unwrap_or_default()
    } else {
        node.child_by_field_name("interfaces")
            .map(|i| type_list(i, src, &tv))
            .unwrap_or_default()
    };
    let mut decl = ClassDecl {
        name: name.clone(),
        superclass,
        interfaces,
        is_interface,
        is_abstract: is_interface || has_modifier(node, src, "abstract"),
        fields: Vec::new(),
        methods: Vec::new(),
        type_vars: tv.clone(),
        node: Some(node),
        body: if node.kind() == "enum_declaration" {
            node.child_by_field_name("body").and_then(|b| {
                let mut c = b.walk();
                let decls = b
                    .named_children(&mut c)
                    .find(|k| k.kind() == "enum_body_declarations");
                decls
            })
        } else {
            node.child_by_field_name("body")
        },
        anonymous_base: None,
        inner_of: None,
        is_enum: false,
        is_local: false,
        file,
    };
    let mut nested = Vec::new();
    members(&mut decl, src, &mut nested);
    if node.kind() == "enum_declaration" {
        decl.is_enum = true;
        for k in enum_constants(node) {
            if let Some(n) = k.child_by_field_name("name") {
                decl.fields.push(FieldDecl {
                    name: text(n, src).to_string(),
                    ty: JType::Class(name.clone()),
                    is_static: true,
                    constant: None,
                });
            }
        }
        decl.fields.push(FieldDecl {
            name: "$VALUES".into(),
            ty: JType::Array(Box::new(JType::Class(name.clone()))),
            is_static: true,
            constant: None,
        });
    }
    if node.kind() == "record_declaration" {
        record_members(&mut decl, node, src, &tv);
    }
    let anon = anonymous_in(decl.body);
    let local_body = decl.body;
    let outer_is_interface = decl.is_interface;
    out.push(decl);
    for n in nested {
        let before = out.len();
        collect_decl(n, src, file, &tv, out, skipped);
        if n.kind() == "class_declaration"
            && !outer_is_interface
            && !has_modifier(n, src, "static")
            && out.len() > before
        {
            out[before].inner_of = Some(name.clone());
        }
    }
    for (i, a) in anon.into_iter().enumerate() {
        collect_anonymous(
            a,
            &format!("{name}${}", i + 1),
            src,
            file,
            &tv,
            out,
            skipped,
        );
    }
    collect_locals(local_body, &name, src, file, &tv, out, skipped);
}

/// Local classes (declared in a method body): classes of the program under
/// their simple names, holding the enclosing instance (when there is one) in
/// `this$0` and the locals they mention in `cap$x`, like anonymous classes.
fn collect_locals<'a>(
    body: Option<Node<'a>>,
    outer: &str,
    src: &str,
    file: usize,
    tv: &[String],
    out: &mut Vec<ClassDecl<'a>>,
    skipped: &mut Skipped<'a>,
) {
    for l in anonymous_and_local(body).1 {
        let before = out.len();
        collect_decl(l, src, file, tv, out, skipped);
        if l.kind() == "class_declaration" && out.len() > before {
            out[before].inner_of = Some(outer.to_string());
            out[before].is_local = true;
        }
    }
}

/// The `new T(...) { ... }` expressions of a class body, in source order,
/// not looking inside nested named classes or anonymous class bodies.
fn anonymous_in(body: Option<Node>) -> Vec<Node> {
    anonymous_and_local(body).0
}

/// The anonymous class expressions and the local class declarations (in
/// method bodies) of a class body.
fn anonymous_and_local(body: Option<Node>) -> (Vec<Node>, Vec<Node>) {
    let mut out = Vec::new();
    let mut locals = Vec::new();
    let Some(body) = body else {
        return (out, locals);
    };
    let mut todo = vec![body];
    while let Some(n) = todo.pop() {
        let mut c = n.walk();
        let kids: Vec<Node> = n.named_children(&mut c).collect();
        for k in kids.into_iter().rev() {
            match k.kind() {
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                    if n != body =>
                {
                    locals.push(k)
                }
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration"
                | "class_body" => {}
                "object_creation_expression" => {
                    let mut c2 = k.walk();
                    if k.named_children(&mut c2).any(|x| x.kind() == "class_body") {
                        out.push(k);
                    }
                    todo.push(k);
                }
                _ => todo.push(k),
            }
        }
    }
    out.sort_by_key(|n| n.start_byte());
    locals.sort_by_key(|n| n.start_byte());
    (out, locals)
}

fn collect_anonymous<'a>(
    node: Node<'a>,
    name: &str,
    src: &str,
    file: usize,
    tv: &[String],
    out: &mut Vec<ClassDecl<'a>>,
    skipped: &mut Skipped<'a>,
) {
    let base = node
        .child_by_field_name("type")
        .map(|t| read_type(t, src, tv).name())
        .unwrap_or_else(|| "Object".into());
    let mut c = node.walk();
    let body = node
        .named_children(&mut c)
        .find(|x| x.kind() == "class_body");
    let mut decl = ClassDecl {
        name: name.to_string(),
        superclass: None,
        interfaces: Vec::new(),
        is_interface: false,
        is_abstract: false,
        fields: Vec::new(),
        methods: Vec::new(),
        type_vars: tv.to_vec(),
        node: Some(node),
        body,
        anonymous_base: Some(base),
        inner_of: None,
        is_enum: false,
        is_local: false,
        file,
    };
    let mut nested = Vec::new();
    members(&mut decl, src, &mut nested);
    let anon = anonymous_in(decl.body);
    out.push(decl);
    for n in nested {
        collect_decl(n, src, file, tv, out, skipped);
    }
    for (i, a) in anon.into_iter().enumerate() {
        collect_anonymous(a, &format!("{name}${}", i + 1), src, file, tv, out, skipped);
    }
}

/// Fields and methods of a class body; nested class declarations go to
/// `nested`. A class without a constructor gets `<init>()`.
fn members<'a>(decl: &mut ClassDecl<'a>, src: &str, nested: &mut Vec<Node<'a>>) {
    let (name, tv, is_interface) = (decl.name.clone(), decl.type_vars.clone(), decl.is_interface);
    if let Some(body) = decl.body {
        let mut c = body.walk();
        for m in body.named_children(&mut c) {
            match m.kind() {
                "field_declaration" | "constant_declaration" => {
                    let is_static = is_interface || has_modifier(m, src, "static");
                    let is_final = is_interface || has_modifier(m, src, "final");
                    let Some(tn) = m.child_by_field_name("type") else {
                        continue;
                    };
                    let base = read_type(tn, src, &tv);
                    let mut c2 = m.walk();
                    for d in m.children_by_field_name("declarator", &mut c2) {
                        let Some(n) = d.child_by_field_name("name") else {
                            continue;
                        };
                        let dims = d
                            .child_by_field_name("dimensions")
                            .map(|x| crate::types::count_dims(x, src))
                            .unwrap_or(0);
                        let ty = crate::types::wrap_array(base.clone(), dims);
                        let value = d.child_by_field_name("value");
                        let constant = match value.filter(|_| is_static && is_final) {
                            Some(v) if !ty.is_ref() && crate::constant::is_constant(v) => {
                                Some(Constant::Prim)
                            }
                            Some(v) if ty == JType::Class("String".into()) => {
                                crate::constant::string_value(v, src).map(Constant::Str)
                            }
                            _ => None,
                        };
                        decl.fields.push(FieldDecl {
                            name: text(n, src).to_string(),
                            ty,
                            is_static,
                            constant,
                        });
                    }
                }
                "method_declaration" | "constructor_declaration" => {
                    // A second method of one signature (a compile error) is
                    // ignored: function names stay unique.
                    if let Some(md) = method_decl(m, src, &name, &tv)
                        .filter(|md| !decl.methods.iter().any(|x| x.signature == md.signature))
                    {
                        decl.methods.push(md);
                    }
                }
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration" => nested.push(m),
                _ => {}
            }
        }
    }
    if !is_interface && !decl.methods.iter().any(|m| m.is_ctor) {
        decl.methods.push(MethodDecl {
            name: "<init>".into(),
            params: Vec::new(),
            ret: JType::void(),
            is_static: false,
            is_ctor: true,
            is_private: false,
            is_varargs: false,
            signature: "<init>()".into(),
            function: format!("{name}.<init>()"),
            node: None,
            has_body: true,
            synth: None,
        });
    }
}

fn method_decl<'a>(
    m: Node<'a>,
    src: &str,
    class: &str,
    class_tv: &[String],
) -> Option<MethodDecl<'a>> {
    let is_ctor = m.kind() == "constructor_declaration";
    let name = if is_ctor {
        "<init>".to_string()
    } else {
        text(m.child_by_field_name("name")?, src).to_string()
    };
    let mut tv = class_tv.to_vec();
    tv.extend(type_params(m, src));
    let mut params = Vec::new();
    let mut sig = Vec::new();
    if let Some(ps) = m.child_by_field_name("parameters") {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            let (tn, nn) = match p.kind() {
                "formal_parameter" => {
                    (p.child_by_field_name("type"), p.child_by_field_name("name"))
                }
                "spread_parameter" => {
                    let mut c2 = p.walk();
                    let t = p.named_children(&mut c2).find(|n| n.kind() != "modifiers");
                    let mut c3 = p.walk();
                    let d = p
                        .named_children(&mut c3)
                        .find(|n| n.kind() == "variable_declarator");
                    (t, d.and_then(|d| d.child_by_field_name("name")))
                }
                _ => continue,
            };
            let (Some(tn), Some(nn)) = (tn, nn) else {
                continue;
            };
            let mut ty = read_type(tn, src, &tv);
            let mut sn = ty.name();
            let dims = p
                .child_by_field_name("dimensions")
                .map(|x| crate::types::count_dims(x, src))
                .unwrap_or(0)
                + usize::from(p.kind() == "spread_parameter");
            if dims > 0 {
                ty = crate::types::wrap_array(ty, dims);
                sn = format!("{sn}{}", "[]".repeat(dims));
            }
            sig.push(sn);
            params.push((text(nn, src).to_string(), ty));
        }
    }
    let ret = m
        .child_by_field_name("type")
        .map(|t| read_type(t, src, &tv))
        .unwrap_or_else(JType::void);
    let is_varargs = m.child_by_field_name("parameters").is_some_and(|ps| {
        let mut c = ps.walk();
        let last = ps
            .named_children(&mut c)
            .filter(|p| matches!(p.kind(), "formal_parameter" | "spread_parameter"))
            .last();
        last.is_some_and(|p| p.kind() == "spread_parameter")
    });
    let signature = format!("{name}({})", sig.join(","));
    let has_body = m.child_by_field_name("body").is_some();
    Some(MethodDecl {
        function: format!("{class}.{signature}"),
        name,
        params,
        ret,
        is_static: has_modifier(m, src, "static"),
        is_ctor,
        is_private: has_modifier(m, src, "private"),
        is_varargs,
        signature,
        node: Some(m),
        has_body,
        synth: None,
    })
}

/// The `enum_constant` nodes of an enum declaration.
pub fn enum_constants(node: Node) -> Vec<Node> {
    let Some(b) = node.child_by_field_name("body") else {
        return Vec::new();
    };
    let mut c = b.walk();
    let out = b
        .named_children(&mut c)
        .filter(|k| k.kind() == "enum_constant")
        .collect();
    out
}

/// A record's components are its fields, with an accessor each and a
/// canonical constructor (unless declared; a compact constructor is the
/// canonical one with a body).
fn record_members<'a>(decl: &mut ClassDecl<'a>, node: Node<'a>, src: &str, tv: &[String]) {
    let mut comps: Vec<(String, JType, String)> = Vec::new();
    if let Some(ps) = node.child_by_field_name("parameters") {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            let (Some(t), Some(n)) = (p.child_by_field_name("type"), p.child_by_field_name("name"))
            else {
                continue;
            };
            let ty = read_type(t, src, tv);
            comps.push((text(n, src).to_string(), ty.clone(), ty.name()));
        }
    }
    let name = decl.name.clone();
    for (f, ty, _) in &comps {
        decl.fields.push(FieldDecl {
            name: f.clone(),
            ty: ty.clone(),
            is_static: false,
            constant: None,
        });
        let signature = format!("{f}()");
        if !decl.methods.iter().any(|m| m.signature == signature) {
            decl.methods.push(MethodDecl {
                name: f.clone(),
                params: Vec::new(),
                ret: ty.clone(),
                is_static: false,
                is_ctor: false,
                is_private: false,
                is_varargs: false,
                function: format!("{name}.{signature}"),
                signature,
                node: None,
                has_body: true,
                synth: Some(Synth::Accessor(f.clone())),
            });
        }
    }
    let signature = format!(
        "<init>({})",
        comps
            .iter()
            .map(|c| c.2.as_str())
            .collect::<Vec<_>>()
            .join(",")
    );
    // The made-up `<init>()` of a class without constructors is not a record's.
    decl.methods.retain(|m| !(m.is_ctor && m.node.is_none()));
    if decl.methods.iter().any(|m| m.signature == signature) {
        return;
    }
    let compact = decl.body.and_then(|b| {
        let mut c = b.walk();
        let found = b
            .named_children(&mut c)
            .find(|k| k.kind() == "compact_constructor_declaration");
        found
    });
    decl.methods.push(MethodDecl {
        name: "<init>".into(),
        params: comps
            .iter()
            .map(|(n, t, _)| (n.clone(), t.clone()))
            .collect(),
        ret: JType::void(),
        is_static: false,
        is_ctor: true,
        is_private: false,
        is_varargs: false,
        function: format!("{name}.{signature}"),
        signature,
        node: compact,
        has_body: true,
        synth: Some(Synth::RecordCtor),
    });
}
