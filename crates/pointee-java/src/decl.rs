//! The first pass: every class, interface, field and method signature of the
//! program, before any body is lowered, so that bodies can resolve names,
//! overloads and fields across files.
//!
//! The class table ([`ClassTable`]) is position-free: the named classes of
//! every file, as their bodies see them. A unit (a top-level type
//! declaration) is lowered against it, with its own syntax
//! ([`ClassSyntax`]) and its anonymous and local classes, which nothing
//! outside the unit can name ([`Hierarchy`]).

use crate::syntax::Fields;
use crate::types::{read_type, JType};
use pointee_ir::fxhash::FxHashMap as HashMap;
use tree_sitter::Node;

#[derive(Clone, Debug, PartialEq, Eq)]
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MethodDecl {
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
    pub has_body: bool,
    /// A body the front end makes up (records).
    pub synth: Option<Synth>,
}

/// Made-up bodies of a record's members.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Synth {
    /// `x()`: returns the field `x`.
    Accessor(String),
    /// The canonical constructor (or the compact one, then): its body, then
    /// each field from the parameter of the same name.
    RecordCtor,
}

/// Where a class of the table is declared: which unit of which file, the
/// how-manieth class collected from it (a second class of one name is
/// ignored, so the unit that declares the ignored one must know).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Origin {
    pub file: String,
    pub unit: u32,
    pub index: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassDecl {
    pub name: String,
    pub superclass: Option<String>,
    pub interfaces: Vec<String>,
    pub is_interface: bool,
    pub is_abstract: bool,
    pub fields: Vec<FieldDecl>,
    pub methods: Vec<MethodDecl>,
    pub type_vars: Vec<String>,
    /// `Object` and `String`, which no file declares.
    pub builtin: bool,
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
    /// Where a named class is declared (none for built-in and unit-local
    /// classes).
    pub origin: Option<Origin>,
}

/// The syntax of a class of the unit being lowered.
#[derive(Clone, Copy, Debug)]
pub struct ClassSyntax<'a> {
    /// The declaration; for an anonymous class, the `new T(...) { ... }`
    /// expression.
    pub node: Node<'a>,
    /// The class body (for an enum, its declarations after the constants).
    pub body: Option<Node<'a>>,
}

/// A class found in a syntax tree: its declaration and syntax, and the node
/// of each method (`None` for a made-up one), in `decl.methods` order.
pub struct Collected<'a> {
    /// For a named class the lowering finds in the program's table (its
    /// own, declared by this unit), the table's (see [`Known`]).
    pub decl: std::sync::Arc<ClassDecl>,
    pub syntax: ClassSyntax<'a>,
    pub methods: Vec<Option<Node<'a>>>,
    /// An anonymous or local class, or one declared inside one: nothing
    /// outside the unit can name it, so it is not in the program's table.
    pub unit_local: bool,
}

/// Classes by name (the first of a name wins).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassTable {
    /// Shared with the outlines they come from: a table is built again on
    /// every declaration edit, and copies nothing.
    pub classes: Vec<std::sync::Arc<ClassDecl>>,
    by_name: HashMap<String, usize>,
}

impl ClassTable {
    /// Adds `c` unless a class of its name is there already (then `false`).
    pub fn insert(&mut self, c: impl Into<std::sync::Arc<ClassDecl>>) -> bool {
        let c = c.into();
        if self.by_name.contains_key(&c.name) {
            return false;
        }
        self.by_name.insert(c.name.clone(), self.classes.len());
        self.classes.push(c);
        true
    }

    pub fn get(&self, name: &str) -> Option<&ClassDecl> {
        self.by_name.get(name).map(|&i| &*self.classes[i])
    }

    /// The class of `name`, shared.
    pub fn get_shared(&self, name: &str) -> Option<&std::sync::Arc<ClassDecl>> {
        self.by_name.get(name).map(|&i| &self.classes[i])
    }

    fn get_mut(&mut self, name: &str) -> Option<&mut ClassDecl> {
        self.by_name
            .get(name)
            .map(|&i| std::sync::Arc::make_mut(&mut self.classes[i]))
    }
}

/// The classes one unit's bodies see: the program's table, the unit's own
/// anonymous and local classes, and the syntax of the unit's classes.
pub struct Hierarchy<'a> {
    /// Read only through [`Self::table_get`], which records the read.
    table: &'a ClassTable,
    /// The names the unit looked up in `table`: the classes found (a bit
    /// set by index: a look-up is frequent, and a hash insert each time was
    /// most of its cost) and the names not found.
    reads: std::cell::RefCell<(Vec<u64>, HashMap<String, ()>)>,
    /// The classes found whose origin the unit compared with itself.
    origin_reads: std::cell::RefCell<Vec<String>>,
    /// Where the unit starts: made-up variables (`this`, `ret`) are
    /// declared there, an empty range.
    pub origin: u32,
    /// The unit's anonymous and local classes.
    pub local: ClassTable,
    /// The syntax of the unit's classes (named ones too), by name.
    pub syntax: HashMap<String, ClassSyntax<'a>>,
    /// The node of each method of the unit's classes, by function name.
    pub method_nodes: HashMap<String, Node<'a>>,
    /// Anonymous classes by the start byte of their `new` expression.
    pub anonymous: HashMap<usize, String>,
    /// The enclosing locals each anonymous class captures (its fields
    /// `cap$x`), found when its creation is lowered, before its methods.
    pub captures: std::cell::RefCell<HashMap<String, Vec<(String, JType)>>>,
    /// The class whose instance method created each anonymous class: its
    /// `this` is the anonymous object's field `this$0` (see [`Self::outer`]).
    pub outers: std::cell::RefCell<HashMap<String, String>>,
    /// Lambdas and method references made so far per class (their classes
    /// are `C$lambda$1`, `C$ref$1`, ... in lowering order).
    pub synthetic: std::cell::RefCell<HashMap<String, u32>>,
    /// `ancestors` by class, computed once.
    ancestors: std::cell::RefCell<HashMap<String, std::rc::Rc<[String]>>>,
}

impl<'a> Hierarchy<'a> {
    pub fn new(table: &'a ClassTable) -> Hierarchy<'a> {
        Hierarchy {
            table,
            reads: std::cell::RefCell::new((
                vec![0; table.classes.len().div_ceil(64)],
                HashMap::default(),
            )),
            origin_reads: Default::default(),
            origin: 0,
            local: ClassTable::default(),
            syntax: HashMap::default(),
            method_nodes: HashMap::default(),
            anonymous: HashMap::default(),
            captures: Default::default(),
            outers: Default::default(),
            synthetic: Default::default(),
            ancestors: Default::default(),
        }
    }

    /// Adds the classes collected from the unit: their syntax, and the
    /// anonymous and local ones to the unit's own table (a local class whose
    /// name another class has is ignored, with a note in `skipped`).
    pub fn add_unit(&mut self, collected: Vec<Collected<'a>>, skipped: &mut Skipped<'a>) {
        for c in collected {
            let unit_local = c.unit_local;
            if unit_local {
                if self.table_get(&c.decl.name).is_some() || self.local.get(&c.decl.name).is_some()
                {
                    skipped.push((
                        c.syntax.node,
                        format!("a second class named `{}` is ignored", c.decl.name),
                    ));
                    continue;
                }
                if c.decl.anonymous_base.is_some() {
                    self.anonymous
                        .insert(c.syntax.node.start_byte(), c.decl.name.clone());
                }
            }
            for (m, node) in c.decl.methods.iter().zip(&c.methods) {
                if let Some(n) = node {
                    self.method_nodes.insert(m.function.clone(), *n);
                }
            }
            self.syntax.insert(c.decl.name.clone(), c.syntax);
            if unit_local {
                self.local.insert(c.decl);
            }
        }
        // An anonymous class extends its base class or implements its base
        // interface.
        let bases: Vec<(String, String, bool)> = self
            .local
            .classes
            .iter()
            .filter_map(|c| {
                let b = c.anonymous_base.clone()?;
                let is_interface = self.get(&b).is_some_and(|d| d.is_interface);
                Some((c.name.clone(), b, is_interface))
            })
            .collect();
        for (name, base, is_interface) in bases {
            let c = self.local.get_mut(&name).expect("listed above");
            if is_interface {
                c.interfaces = vec![base];
            } else {
                c.superclass = Some(base);
            }
        }
    }

    /// The class whose instance an object of `class` holds in `this$0`:
    /// an inner or local class's enclosing class, the class that created an
    /// anonymous one.
    pub fn outer(&self, class: &str) -> Option<String> {
        if let Some(o) = self.outers.borrow().get(class) {
            return Some(o.clone());
        }
        self.get(class).and_then(|c| c.inner_of.clone())
    }

    /// The syntax of a class of the unit.
    pub fn syntax(&self, name: &str) -> Option<&ClassSyntax<'a>> {
        self.syntax.get(name)
    }

    /// The next name `{class}${kind}${n}` for a lambda or method reference.
    pub fn synthetic_name(&self, class: &str, kind: &str) -> String {
        let mut m = self.synthetic.borrow_mut();
        let n = m.entry(format!("{class}${kind}")).or_insert(0);
        *n += 1;
        format!("{class}${kind}${n}")
    }

    pub fn is_known(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    pub fn get(&self, name: &str) -> Option<&ClassDecl> {
        self.local.get(name).or_else(|| self.table_get(name))
    }

    /// The program's class of `name` (not the unit's own anonymous and
    /// local ones), the look-up recorded: what the unit read of the table
    /// is all its lowering depends on of it ([`Self::table_reads`]).
    pub fn table_get(&self, name: &str) -> Option<&'a ClassDecl> {
        let table: &'a ClassTable = self.table;
        let mut reads = self.reads.borrow_mut();
        match table.by_name.get(name) {
            Some(&i) => {
                reads.0[i / 64] |= 1 << (i % 64);
                Some(&*table.classes[i])
            }
            None => {
                if !reads.1.contains_key(name) {
                    reads.1.insert(name.to_string(), ());
                }
                None
            }
        }
    }

    /// Whether the program's class `name` is the `index`-th named class
    /// of unit `unit` of `file` (not another declaration of its name, which
    /// the table ignores); the look-up and the origin's read recorded.
    pub fn declared_at(&self, name: &str, file: &str, unit: u32, index: u32) -> bool {
        let Some(c) = self.table_get(name) else {
            return false;
        };
        self.origin_reads.borrow_mut().push(name.to_string());
        c.origin
            .as_ref()
            .is_some_and(|o| o.file == file && o.unit == unit && o.index == index)
    }

    /// The names whose [`ClassDecl::origin`] the unit read
    /// ([`Self::declared_at`]), sorted: the other reads do not depend on
    /// where a class is declared.
    pub fn origin_reads(&self) -> Vec<String> {
        let mut names = self.origin_reads.borrow().clone();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The names the unit looked up in the program's class table so far,
    /// found or not, sorted.
    pub fn table_reads(&self) -> Vec<String> {
        let reads = self.reads.borrow();
        let found = reads.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut rest = bits;
            std::iter::from_fn(move || {
                let b = rest.trailing_zeros() as usize;
                rest &= rest.wrapping_sub(1);
                (b < 64).then_some(w * 64 + b)
            })
        });
        let mut names: Vec<String> = found
            .map(|i| self.table.classes[i].name.clone())
            .chain(reads.1.keys().cloned())
            .collect();
        names.sort_unstable();
        names
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
    ) -> Vec<(&ClassDecl, &MethodDecl)> {
        let mut out: Vec<(&ClassDecl, &MethodDecl)> = Vec::new();
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
    ) -> Vec<(&ClassDecl, &MethodDecl)> {
        let mut out: Vec<(&ClassDecl, &MethodDecl)> = Vec::new();
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
    pub fn field(&self, class: &str, name: &str) -> Option<(&ClassDecl, &FieldDecl)> {
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

/// The declaration `node` has the modifier `m`. Its `modifiers` come
/// first (after comments, if any), so only they are looked at.
pub fn has_modifier(node: Node, src: &str, m: &str) -> bool {
    let mut first = node.child(0);
    while let Some(c) = first.filter(|c| c.is_extra()) {
        first = c.next_sibling();
    }
    first.is_some_and(|mods| {
        mods.sym() == "modifiers" && text(mods, src).split_whitespace().any(|w| w == m)
    })
}

fn type_params(node: Node, src: &str) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(tp) = node.field("type_parameters") {
        let mut c = tp.walk();
        for p in tp.named_children(&mut c) {
            if p.sym() == "type_parameter" {
                let mut c2 = p.walk();
                let id = p
                    .named_children(&mut c2)
                    .find(|n| n.sym() == "type_identifier" || n.sym() == "identifier");
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
        if ch.sym() == "type_list" {
            let mut c2 = ch.walk();
            for t in ch.named_children(&mut c2) {
                out.push(read_type(t, src, tv).name());
            }
        }
    }
    out
}

/// Built-in classes: Object and String.
pub fn builtins() -> Vec<ClassDecl> {
    let mk = |name: &str, sup: Option<&str>| ClassDecl {
        name: name.into(),
        superclass: sup.map(Into::into),
        interfaces: Vec::new(),
        is_interface: false,
        is_abstract: false,
        fields: Vec::new(),
        methods: Vec::new(),
        type_vars: Vec::new(),
        builtin: true,
        anonymous_base: None,
        inner_of: None,
        is_enum: false,
        is_local: false,
        origin: None,
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
            has_body: false,
            synth: None,
        });
    }
    vec![object, mk("String", Some("Object"))]
}

/// Something pass 1 skipped: (node, message).
pub type Skipped<'a> = Vec<(Node<'a>, String)>;

/// The units of a file: its top-level type declarations, in file order.
pub fn units(root: Node) -> Vec<Node> {
    let mut c = root.walk();
    let out = root
        .named_children(&mut c)
        .filter(|n| {
            matches!(
                n.sym(),
                "class_declaration"
                    | "interface_declaration"
                    | "enum_declaration"
                    | "record_declaration"
                    | "annotation_type_declaration"
            )
        })
        .collect();
    out
}

/// The declarations a unit's collection need not read again: given a named
/// class's name and its place among the unit's named classes, the
/// program's table's declaration of it when that is this one (the outline
/// read it from the same text).
pub type Known<'k> = &'k dyn Fn(&str, u32) -> Option<std::sync::Arc<ClassDecl>>;

/// Nothing known: every declaration is read.
pub fn nothing_known(_: &str, _: u32) -> Option<std::sync::Arc<ClassDecl>> {
    None
}

/// Collects the classes of one unit: the named ones (nested too), and with
/// `with_local` its anonymous and local classes. A named class `known`
/// gives keeps that declaration; only its syntax is read.
pub fn collect_unit<'a>(
    unit: Node<'a>,
    src: &str,
    with_local: bool,
    known: Known,
    out: &mut Vec<Collected<'a>>,
    skipped: &mut Skipped<'a>,
) {
    let mut c = Collect {
        src,
        with_local,
        known,
        out,
        skipped,
    };
    collect_decl(unit, &[], false, &mut c);
}

/// What a unit's collection reads and writes.
struct Collect<'a, 'c> {
    src: &'c str,
    with_local: bool,
    known: Known<'c>,
    out: &'c mut Vec<Collected<'a>>,
    skipped: &'c mut Skipped<'a>,
}

/// `in_local`: inside an anonymous or local class.
fn collect_decl<'a>(node: Node<'a>, outer_tv: &[String], in_local: bool, cx: &mut Collect<'a, '_>) {
    let (src, with_local) = (cx.src, cx.with_local);
    match node.sym() {
        "class_declaration" | "interface_declaration" => {}
        "enum_declaration" | "record_declaration" => {}
        "annotation_type_declaration" => {
            cx.skipped.push((
                node,
                format!("{} is not modelled", node.sym().replace('_', " ")),
            ));
            return;
        }
        _ => return,
    }
    let Some(name_node) = node.field("name") else {
        return;
    };
    let name = text(name_node, src).to_string();
    let mut tv: Vec<String> = outer_tv.to_vec();
    tv.extend(type_params(node, src));
    let body = if node.sym() == "enum_declaration" {
        node.field("body").and_then(|b| {
            let mut c = b.walk();
            let decls = b
                .named_children(&mut c)
                .find(|k| k.sym() == "enum_body_declarations");
            decls
        })
    } else {
        node.field("body")
    };
    let syntax = ClassSyntax { node, body };
    let mut nested = Vec::new();
    // A plain class or interface the table has from this text: its syntax
    // alone (its declaration is the table's).
    let known = match node.sym() {
        "class_declaration" | "interface_declaration" if !in_local => {
            let named = cx.out.iter().filter(|c| !c.unit_local).count() as u32;
            (cx.known)(&name, named)
        }
        _ => None,
    };
    let class = match known.and_then(|d| {
        let methods = known_members(&d, body, &mut nested)?;
        #[cfg(test)]
        TAKEN_FROM_TABLE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Some(Collected {
            decl: d,
            syntax,
            methods,
            unit_local: false,
        })
    }) {
        Some(class) => class,
        None => {
            nested.clear();
            read_class(node, &name, &tv, syntax, in_local, src, &mut nested)
        }
    };
    let (anon, locals) = if with_local {
        anonymous_and_local(body, src)
    } else {
        (Vec::new(), Vec::new())
    };
    let outer_is_interface = class.decl.is_interface;
    cx.out.push(class);
    for n in nested {
        let before = cx.out.len();
        collect_decl(n, &tv, in_local, cx);
        if n.sym() == "class_declaration"
            && !outer_is_interface
            && !has_modifier(n, src, "static")
            && cx.out.len() > before
            && cx.out[before].decl.inner_of.as_ref() != Some(&name)
        {
            std::sync::Arc::make_mut(&mut cx.out[before].decl).inner_of = Some(name.clone());
        }
    }
    for (i, a) in anon.into_iter().enumerate() {
        collect_anonymous(a, &format!("{name}${}", i + 1), &tv, cx);
    }
    // Local classes (declared in a method body): classes under their
    // simple names, holding the enclosing instance (when there is one) in
    // `this$0` and the locals they mention in `cap$x`, like anonymous ones.
    for l in locals {
        let before = cx.out.len();
        collect_decl(l, &tv, true, cx);
        if l.sym() == "class_declaration" && cx.out.len() > before {
            let d = std::sync::Arc::make_mut(&mut cx.out[before].decl);
            d.inner_of = Some(name.clone());
            d.is_local = true;
        }
    }
}

/// How many classes' declarations collections took from the table.
#[cfg(test)]
pub(crate) static TAKEN_FROM_TABLE: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// The method nodes of a class whose declaration `decl` the table has, in
/// `decl.methods` order (`None`: made up), and its nested class
/// declarations; `None` when they do not line up one to one (a second
/// method of one signature, which reading drops): read it then.
fn known_members<'a>(
    decl: &ClassDecl,
    body: Option<Node<'a>>,
    nested: &mut Vec<Node<'a>>,
) -> Option<Vec<Option<Node<'a>>>> {
    let mut methods = Vec::with_capacity(decl.methods.len());
    let mut ctors = 0;
    if let Some(body) = body {
        let mut c = body.walk();
        for m in body.named_children(&mut c) {
            match m.sym() {
                "method_declaration" if m.field("name").is_some() => methods.push(Some(m)),
                "constructor_declaration" => {
                    ctors += 1;
                    methods.push(Some(m));
                }
                "class_declaration"
                | "interface_declaration"
                | "enum_declaration"
                | "record_declaration" => nested.push(m),
                _ => {}
            }
        }
    }
    // As `members` adds it.
    if !decl.is_interface && ctors == 0 {
        methods.push(None);
    }
    (methods.len() == decl.methods.len()).then_some(methods)
}

/// Reads a class's declaration from its syntax: supertypes, fields,
/// methods (an enum's constants, a record's components too); its nested
/// class declarations go to `nested`.
fn read_class<'a>(
    node: Node<'a>,
    name: &str,
    tv: &[String],
    syntax: ClassSyntax<'a>,
    in_local: bool,
    src: &str,
    nested: &mut Vec<Node<'a>>,
) -> Collected<'a> {
    let is_interface = node.sym() == "interface_declaration";
    let superclass = node.field("superclass").and_then(|s| {
        let mut c = s.walk();
        let t = s.named_children(&mut c).next();
        t.map(|t| read_type(t, src, tv).name())
    });
    let interfaces = if is_interface {
        let mut c = node.walk();
        let ext = node
            .named_children(&mut c)
            .find(|n| n.sym() == "extends_interfaces");
        ext.map(|e| type_list(e, src, tv)).unwrap_or_default()
    } else {
        node.field("interfaces")
            .map(|i| type_list(i, src, tv))
            .unwrap_or_default()
    };
    let mut class = Collected {
        decl: ClassDecl {
            name: name.to_string(),
            superclass,
            interfaces,
            is_interface,
            is_abstract: is_interface || has_modifier(node, src, "abstract"),
            fields: Vec::new(),
            methods: Vec::new(),
            type_vars: tv.to_vec(),
            builtin: false,
            anonymous_base: None,
            inner_of: None,
            is_enum: false,
            is_local: false,
            origin: None,
        }
        .into(),
        syntax,
        methods: Vec::new(),
        unit_local: in_local,
    };
    members(&mut class, src, nested);
    let decl = std::sync::Arc::make_mut(&mut class.decl);
    if node.sym() == "enum_declaration" {
        decl.is_enum = true;
        for k in enum_constants(node) {
            if let Some(n) = k.field("name") {
                decl.fields.push(FieldDecl {
                    name: text(n, src).to_string(),
                    ty: JType::Class(name.to_string()),
                    is_static: true,
                    constant: None,
                });
            }
        }
        decl.fields.push(FieldDecl {
            name: "$VALUES".into(),
            ty: JType::Array(Box::new(JType::Class(name.to_string()))),
            is_static: true,
            constant: None,
        });
    }
    if node.sym() == "record_declaration" {
        record_members(&mut class, node, src, tv);
    }
    class
}

/// The `new T(...) { ... }` expressions of a class body, in source order,
/// not looking inside nested named classes or anonymous class bodies.
fn anonymous_in<'a>(body: Option<Node<'a>>, src: &str) -> Vec<Node<'a>> {
    anonymous_and_local(body, src).0
}

/// The anonymous class expressions and the local class declarations (in
/// method bodies) of a class body, in source order; neither looks inside
/// another class body. One walk with a cursor (no allocation per node),
/// which does not enter a node whose text has no `{`: no class body can be
/// inside it.
fn anonymous_and_local<'a>(body: Option<Node<'a>>, src: &str) -> (Vec<Node<'a>>, Vec<Node<'a>>) {
    let mut anon = Vec::new();
    let mut locals = Vec::new();
    let Some(body) = body else {
        return (anon, locals);
    };
    let mut c = body.walk();
    if !c.goto_first_child() {
        return (anon, locals);
    }
    let mut depth = 1;
    loop {
        let k = c.node();
        let descend = match k.sym() {
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration" => {
                // A member class at the body's level; a local one deeper.
                if depth > 1 {
                    locals.push(k);
                }
                false
            }
            "class_body" => false,
            "object_creation_expression" => {
                let mut c2 = k.walk();
                if k.named_children(&mut c2).any(|x| x.sym() == "class_body") {
                    anon.push(k);
                }
                true
            }
            _ => src.as_bytes()[k.byte_range()].contains(&b'{'),
        };
        if descend && c.goto_first_child() {
            depth += 1;
            continue;
        }
        while !c.goto_next_sibling() {
            if depth == 1 || !c.goto_parent() {
                return (anon, locals);
            }
            depth -= 1;
        }
    }
}

fn collect_anonymous<'a>(node: Node<'a>, name: &str, tv: &[String], cx: &mut Collect<'a, '_>) {
    let src = cx.src;
    let base = node
        .field("type")
        .map(|t| read_type(t, src, tv).name())
        .unwrap_or_else(|| "Object".into());
    let mut c = node.walk();
    let body = node
        .named_children(&mut c)
        .find(|x| x.sym() == "class_body");
    let mut class = Collected {
        decl: ClassDecl {
            name: name.to_string(),
            superclass: None,
            interfaces: Vec::new(),
            is_interface: false,
            is_abstract: false,
            fields: Vec::new(),
            methods: Vec::new(),
            type_vars: tv.to_vec(),
            builtin: false,
            anonymous_base: Some(base),
            inner_of: None,
            is_enum: false,
            is_local: false,
            origin: None,
        }
        .into(),
        syntax: ClassSyntax { node, body },
        methods: Vec::new(),
        unit_local: true,
    };
    let mut nested = Vec::new();
    members(&mut class, src, &mut nested);
    let anon = anonymous_in(body, src);
    cx.out.push(class);
    for n in nested {
        collect_decl(n, tv, true, cx);
    }
    for (i, a) in anon.into_iter().enumerate() {
        collect_anonymous(a, &format!("{name}${}", i + 1), tv, cx);
    }
}

/// Fields and methods of a class body; nested class declarations go to
/// `nested`. A class without a constructor gets `<init>()`.
fn members<'a>(class: &mut Collected<'a>, src: &str, nested: &mut Vec<Node<'a>>) {
    let decl = std::sync::Arc::make_mut(&mut class.decl);
    let (name, tv, is_interface) = (decl.name.clone(), decl.type_vars.clone(), decl.is_interface);
    if let Some(body) = class.syntax.body {
        let mut c = body.walk();
        for m in body.named_children(&mut c) {
            match m.sym() {
                "field_declaration" | "constant_declaration" => {
                    let is_static = is_interface || has_modifier(m, src, "static");
                    let is_final = is_interface || has_modifier(m, src, "final");
                    let Some(tn) = m.field("type") else {
                        continue;
                    };
                    let base = read_type(tn, src, &tv);
                    let mut c2 = m.walk();
                    for d in m.fields("declarator", &mut c2) {
                        let Some(n) = d.field("name") else {
                            continue;
                        };
                        let dims = d
                            .field("dimensions")
                            .map(|x| crate::types::count_dims(x, src))
                            .unwrap_or(0);
                        let ty = crate::types::wrap_array(base.clone(), dims);
                        let value = d.field("value");
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
                        class.methods.push(Some(m));
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
            has_body: true,
            synth: None,
        });
        class.methods.push(None);
    }
}

fn method_decl(m: Node, src: &str, class: &str, class_tv: &[String]) -> Option<MethodDecl> {
    let is_ctor = m.sym() == "constructor_declaration";
    let name = if is_ctor {
        "<init>".to_string()
    } else {
        text(m.field("name")?, src).to_string()
    };
    let mut tv = class_tv.to_vec();
    tv.extend(type_params(m, src));
    let mut params = Vec::new();
    let mut sig = Vec::new();
    if let Some(ps) = m.field("parameters") {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            let (tn, nn) = match p.sym() {
                "formal_parameter" => (p.field("type"), p.field("name")),
                "spread_parameter" => {
                    let mut c2 = p.walk();
                    let t = p.named_children(&mut c2).find(|n| n.sym() != "modifiers");
                    let mut c3 = p.walk();
                    let d = p
                        .named_children(&mut c3)
                        .find(|n| n.sym() == "variable_declarator");
                    (t, d.and_then(|d| d.field("name")))
                }
                _ => continue,
            };
            let (Some(tn), Some(nn)) = (tn, nn) else {
                continue;
            };
            let mut ty = read_type(tn, src, &tv);
            let mut sn = ty.name();
            let dims = p
                .field("dimensions")
                .map(|x| crate::types::count_dims(x, src))
                .unwrap_or(0)
                + usize::from(p.sym() == "spread_parameter");
            if dims > 0 {
                ty = crate::types::wrap_array(ty, dims);
                sn = format!("{sn}{}", "[]".repeat(dims));
            }
            sig.push(sn);
            params.push((text(nn, src).to_string(), ty));
        }
    }
    let ret = m
        .field("type")
        .map(|t| read_type(t, src, &tv))
        .unwrap_or_else(JType::void);
    let is_varargs = m.field("parameters").is_some_and(|ps| {
        let mut c = ps.walk();
        let last = ps
            .named_children(&mut c)
            .filter(|p| matches!(p.sym(), "formal_parameter" | "spread_parameter"))
            .last();
        last.is_some_and(|p| p.sym() == "spread_parameter")
    });
    let signature = format!("{name}({})", sig.join(","));
    let has_body = m.field("body").is_some();
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
        has_body,
        synth: None,
    })
}

/// The `enum_constant` nodes of an enum declaration.
pub fn enum_constants(node: Node) -> Vec<Node> {
    let Some(b) = node.field("body") else {
        return Vec::new();
    };
    let mut c = b.walk();
    let out = b
        .named_children(&mut c)
        .filter(|k| k.sym() == "enum_constant")
        .collect();
    out
}

/// A record's components are its fields, with an accessor each and a
/// canonical constructor (unless declared; a compact constructor is the
/// canonical one with a body).
fn record_members<'a>(class: &mut Collected<'a>, node: Node<'a>, src: &str, tv: &[String]) {
    let body = class.syntax.body;
    let (decl, nodes) = (
        std::sync::Arc::make_mut(&mut class.decl),
        &mut class.methods,
    );
    let mut comps: Vec<(String, JType, String)> = Vec::new();
    if let Some(ps) = node.field("parameters") {
        let mut c = ps.walk();
        for p in ps.named_children(&mut c) {
            let (Some(t), Some(n)) = (p.field("type"), p.field("name")) else {
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
                has_body: true,
                synth: Some(Synth::Accessor(f.clone())),
            });
            nodes.push(None);
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
    let made_up: Vec<bool> = decl
        .methods
        .iter()
        .zip(nodes.iter())
        .map(|(m, n)| m.is_ctor && n.is_none())
        .collect();
    let mut keep = made_up.iter().map(|m| !m);
    decl.methods.retain(|_| keep.next().unwrap_or(true));
    let mut keep = made_up.iter().map(|m| !m);
    nodes.retain(|_| keep.next().unwrap_or(true));
    if decl.methods.iter().any(|m| m.signature == signature) {
        return;
    }
    let compact = body.and_then(|b| {
        let mut c = b.walk();
        let found = b
            .named_children(&mut c)
            .find(|k| k.sym() == "compact_constructor_declaration");
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
        has_body: true,
        synth: Some(Synth::RecordCtor),
    });
    nodes.push(compact);
}
