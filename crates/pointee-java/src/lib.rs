//! pointee-java: lowers a Java teaching subset (a tree-sitter-java syntax
//! tree, several files forming one program) to the pointer IR: classes,
//! methods as functions (`A.foo(Object,int)`, `this` first), static fields as
//! globals (`A.f`), and a source map per file.
//!
//! Generics are erased. Beyond the subset, anonymous, inner and local classes,
//! lambdas and method references (to functional interfaces it knows), enums,
//! records, switch expressions and exceptions are lowered to the same IR;
//! library code is one "library heap" location with a callbacks root. What is
//! still outside (reflection, ...) is parsed, lowered soundly
//! where possible and listed as `Unsupported` notes; docs/java-analysis.md
//! has the whole list. It must never analyse, do I/O or panic on any input.

mod constant;
mod decl;
mod library;
mod lower;
mod made;
mod types;

use decl::{text, Hierarchy};
pub use lower::LIBRARY;
use lower::{range, Fb, Method, Pools};
pub use made::LIBRARY_OBJECT;
use pointee_ir::{
    Class, Field, Global, GlobalKind, GlobalSource, Name, Note, NoteKind, Program, SourceMap,
};
use tree_sitter::{Node, Parser, Tree};

/// The lowered program, one source map per input file (same order), and the
/// entry points.
#[derive(Clone, Debug, Default)]
pub struct JavaProgram {
    pub program: Program,
    pub sources: Vec<SourceMap>,
    /// Every `public static void main(String[])`, in file order.
    pub mains: Vec<Name>,
    /// Functions run before any entry, in the empty context: each file's
    /// literal pool and the library's callbacks. (Not the static
    /// initialisers `C.<clinit>()`: the analysis runs one when its class is
    /// initialised, JLS 12.4.1.)
    pub initializers: Vec<Name>,
}

/// The roots of an analysis: the functions run before any entry
/// (`initializers`), then every `main(String[])`, or those of `entry` (a
/// class, `C.main`, or a method's full name). `Err` when `entry` names no
/// `main`.
pub fn analysis_roots(
    mains: &[Name],
    initializers: &[Name],
    entry: Option<&str>,
) -> Result<Vec<Name>, String> {
    let chosen: Vec<Name> = match entry {
        None => mains.to_vec(),
        Some(e) => {
            let hit: Vec<Name> = mains
                .iter()
                .filter(|m| {
                    &***m == e || m.split('.').next() == Some(e) || m.starts_with(&format!("{e}("))
                })
                .cloned()
                .collect();
            if hit.is_empty() {
                return Err(format!("no `main(String[])` in `{e}`"));
            }
            hit
        }
    };
    Ok(initializers.iter().cloned().chain(chosen).collect())
}

/// A parser for the Java grammar.
pub fn parser() -> Parser {
    let mut p = Parser::new();
    p.set_language(&tree_sitter_java::LANGUAGE.into())
        .expect("tree-sitter-java is compatible with tree-sitter");
    p
}

/// Lowers the given `(file name, text)` pairs as one program. Never fails:
/// what cannot be lowered is noted in the file's source map.
pub fn lower(files: &[(&str, &str)]) -> JavaProgram {
    let mut p = parser();
    let trees: Vec<Tree> = files
        .iter()
        .map(|(_, t)| p.parse(t, None).expect("parse without cancellation"))
        .collect();
    let srcs: Vec<&str> = files.iter().map(|(_, t)| *t).collect();
    let mut sources: Vec<SourceMap> = files
        .iter()
        .map(|(n, _)| SourceMap {
            file: (*n).into(),
            ..Default::default()
        })
        .collect();

    // Pass 1: the class table.
    let mut decls = decl::builtins();
    let mut skipped = Vec::new();
    for (i, t) in trees.iter().enumerate() {
        decl::collect(t.root_node(), srcs[i], i, &mut decls, &mut skipped);
        syntax_notes(t.root_node(), &mut sources[i].notes);
    }
    for (file, node, msg) in skipped {
        sources[file].notes.push(Note {
            range: range(node),
            kind: NoteKind::Unsupported,
            message: msg,
        });
    }
    let mut h = Hierarchy::default();
    for d in decls {
        if h.by_name.contains_key(&d.name) {
            if let Some(n) = d.node {
                sources[d.file].notes.push(Note {
                    range: range(n),
                    kind: NoteKind::Unsupported,
                    message: format!("a second class named `{}` is ignored", d.name),
                });
            }
            continue;
        }
        if let Some(n) = d.node.filter(|_| d.anonymous_base.is_some()) {
            h.anonymous.insert((d.file, n.start_byte()), d.name.clone());
        }
        h.by_name.insert(d.name.clone(), h.classes.len());
        h.classes.push(d);
    }
    for c in &h.classes {
        if let Some(o) = &c.inner_of {
            h.outers.borrow_mut().insert(c.name.clone(), o.clone());
        }
    }
    // An anonymous class extends its base class or implements its base
    // interface.
    let bases: Vec<(usize, String, bool)> = h
        .classes
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            c.anonymous_base
                .clone()
                .map(|b| (i, b.clone(), h.get(&b).is_some_and(|d| d.is_interface)))
        })
        .collect();
    for (i, base, is_interface) in bases {
        if is_interface {
            h.classes[i].interfaces = vec![base];
        } else {
            h.classes[i].superclass = Some(base);
        }
    }

    // Pass 2: bodies.
    let mut out = JavaProgram::default();
    let mut pools: Vec<Pools> = vec![Pools::default(); files.len()];
    for ci in 0..h.classes.len() {
        lower_class(&h, ci, &srcs, &mut sources, &mut out, &mut pools);
    }
    made::box_pools(&mut out, &mut sources, &pools);
    made::literal_pools(&mut out, &mut sources, &pools);
    made::library_callbacks(&mut out, &mut sources);
    out.sources = sources;
    out
}

/// The classes and methods of the lambdas made in one body.
fn add_lambdas(
    out: &mut JavaProgram,
    source: &mut SourceMap,
    lambdas: Vec<(Class, pointee_ir::Function, pointee_ir::FunctionSource)>,
) {
    for (class, f, fs) in lambdas {
        out.program.classes.push(class);
        out.program.functions.push(f.into());
        source.functions.push(fs);
    }
}

/// Declares the global of thrown objects once, when some body uses it.
fn thrown_global(out: &mut JavaProgram, used: bool) {
    if used && out.program.global(lower::THROWN).is_none() {
        out.program.globals.push(Global {
            name: lower::THROWN.into(),
            ty: pointee_ir::Type::Class("Throwable".into()),
            kind: GlobalKind::StaticField,
            init: Vec::new(),
        });
    }
}

/// Declares the library heap once, when some body uses it.
fn library_global(out: &mut JavaProgram, used: bool) {
    if used && out.program.global(lower::LIBRARY).is_none() {
        out.program.globals.push(Global {
            name: lower::LIBRARY.into(),
            ty: pointee_ir::Type::Class("Object".into()),
            kind: GlobalKind::StaticField,
            init: Vec::new(),
        });
    }
}

fn syntax_notes(node: Node, notes: &mut Vec<Note>) {
    if !node.has_error() {
        return;
    }
    if node.is_error() || node.is_missing() {
        notes.push(Note {
            range: range(node),
            kind: NoteKind::Syntax,
            message: "syntax error".into(),
        });
        return;
    }
    let mut c = node.walk();
    for ch in node.children(&mut c) {
        syntax_notes(ch, notes);
    }
}

fn lower_class(
    h: &Hierarchy,
    ci: usize,
    srcs: &[&str],
    sources: &mut [SourceMap],
    out: &mut JavaProgram,
    pools: &mut [Pools],
) {
    let c = &h.classes[ci];
    let mut class = Class {
        name: c.name.as_str().into(),
        superclass: match (&c.superclass, c.is_interface, c.name.as_str()) {
            (Some(s), _, _) => Some(s.as_str().into()),
            (None, false, n) if n != "Object" => Some("Object".into()),
            _ => None,
        },
        interfaces: c.interfaces.iter().map(|i| i.as_str().into()).collect(),
        is_interface: c.is_interface,
        is_abstract: c.is_abstract,
        fields: c
            .fields
            .iter()
            .map(|f| Field {
                name: f.name.as_str().into(),
                ty: f.ty.ir(),
            })
            .collect(),
        methods: Vec::new(),
    };
    let Some(cnode) = c.node else {
        out.program.classes.push(class);
        return;
    };
    let src = srcs[c.file];
    let file = c.file;
    let members: Vec<Node> = match c.body {
        Some(b) => {
            let mut w = b.walk();
            b.named_children(&mut w).collect()
        }
        None => Vec::new(),
    };
    // Static fields are globals.
    for m in &members {
        if !matches!(m.kind(), "field_declaration" | "constant_declaration") {
            continue;
        }
        let mut w = m.walk();
        for d in m.children_by_field_name("declarator", &mut w) {
            let Some(n) = d.child_by_field_name("name") else {
                continue;
            };
            let Some(f) = c.fields.iter().find(|f| f.name == text(n, src)) else {
                continue;
            };
            if f.is_static {
                let name: Name = format!("{}.{}", c.name, f.name).into();
                if out.program.globals.iter().any(|g| g.name == name) {
                    continue;
                }
                out.program.globals.push(Global {
                    name: name.clone(),
                    ty: f.ty.ir(),
                    kind: GlobalKind::StaticField,
                    init: Vec::new(),
                });
                sources[file].globals.push(GlobalSource {
                    name,
                    name_range: range(n),
                    sites: Vec::new(),
                });
            }
        }
    }
    if c.is_enum {
        let consts = decl::enum_constants(cnode);
        let names = consts
            .iter()
            .filter_map(|k| k.child_by_field_name("name"))
            .map(|n| (text(n, src).to_string(), range(n)));
        for (f, r) in names.chain(std::iter::once(("$VALUES".to_string(), range(cnode)))) {
            let Some(fd) = c.fields.iter().find(|x| x.name == f) else {
                continue;
            };
            let name: Name = format!("{}.{}", c.name, f).into();
            out.program.globals.push(Global {
                name: name.clone(),
                ty: fd.ty.ir(),
                kind: GlobalKind::StaticField,
                init: Vec::new(),
            });
            sources[file].globals.push(GlobalSource {
                name,
                name_range: r,
                sites: Vec::new(),
            });
        }
    }
    for m in &c.methods {
        class.methods.push(pointee_ir::Method {
            signature: m.signature.as_str().into(),
            function: m.has_body.then(|| m.function.as_str().into()),
            is_static: m.is_static,
        });
        if !m.has_body {
            continue;
        }
        let meth = Method {
            class: &c.name,
            function: &m.function,
            is_static: m.is_static,
            type_vars: &c.type_vars,
        };
        let mut notes = std::mem::take(&mut sources[file].notes);
        let mut fb = Fb::new(h, src, file, &mut notes, &meth);
        if let Some(node) = m.node {
            fb.fs.range = range(node);
            fb.fs.name_range = node
                .child_by_field_name("name")
                .map(range)
                .unwrap_or(range(node));
            if let Some(ps) = node.child_by_field_name("parameters") {
                let mut w = ps.walk();
                let mut i = 0;
                for p in ps.named_children(&mut w) {
                    if !matches!(p.kind(), "formal_parameter" | "spread_parameter")
                        || i >= m.params.len()
                    {
                        continue;
                    }
                    let nr = p.child_by_field_name("name").map(range).unwrap_or(range(p));
                    fb.add_param(&m.params[i].0, m.params[i].1.clone(), nr);
                    i += 1;
                }
            }
        } else {
            fb.fs.range = range(cnode);
            fb.fs.name_range = cnode
                .child_by_field_name("name")
                .map(range)
                .unwrap_or(range(cnode));
        }
        if let Some(decl::Synth::RecordCtor) = m.synth {
            // The record's components are the canonical constructor's
            // parameters (a compact constructor does not list them).
            let at = cnode
                .child_by_field_name("name")
                .map(range)
                .unwrap_or(range(cnode));
            for (n, t) in &m.params {
                fb.add_param(n, t.clone(), at);
            }
        }
        fb.set_ret(&m.ret);
        if m.is_static && m.signature == "main(String[])" {
            let at = fb.fs.vars.first().copied().unwrap_or_default();
            fb.model_main_args(at);
        }
        match &m.synth {
            Some(decl::Synth::RecordCtor) => {
                lower_ctor(&mut fb, c, m.node, &members, src);
                fb.assign_this_fields(&m.params);
            }
            Some(decl::Synth::Accessor(f)) => fb.accessor(f),
            None if m.is_ctor => lower_ctor(&mut fb, c, m.node, &members, src),
            None => {
                if let Some(b) = m.node.and_then(|n| n.child_by_field_name("body")) {
                    fb.stmt(b);
                }
            }
        }
        pools[file].append(&mut fb.pools);
        thrown_global(out, fb.uses_thrown);
        library_global(out, fb.uses_library);
        let lambdas = std::mem::take(&mut fb.lambdas);
        let (f, fs) = fb.finish(&m.function, m.is_static, &m.ret);
        add_lambdas(out, &mut sources[file], lambdas);
        sources[file].notes = notes;
        if m.is_static && m.signature == "main(String[])" {
            out.mains.push(f.name.clone());
        }
        out.program.functions.push(f.into());
        sources[file].functions.push(fs);
    }
    bridges(h, c, &mut class);
    // Static initialisers.
    let statics: Vec<&Node> = members
        .iter()
        .filter(|m| {
            m.kind() == "static_initializer"
                || (matches!(m.kind(), "field_declaration" | "constant_declaration")
                    && (c.is_interface || decl::has_modifier(**m, src, "static"))
                    && {
                        let mut w = m.walk();
                        let has_value = m
                            .children_by_field_name("declarator", &mut w)
                            .any(|d| d.child_by_field_name("value").is_some());
                        has_value
                    })
        })
        .collect();
    if !statics.is_empty() || c.is_enum {
        let fname = format!("{}.<clinit>()", c.name);
        let meth = Method {
            class: &c.name,
            function: &fname,
            is_static: true,
            type_vars: &c.type_vars,
        };
        let mut notes = std::mem::take(&mut sources[file].notes);
        let mut fb = Fb::new(h, src, file, &mut notes, &meth);
        fb.fs.range = range(cnode);
        fb.fs.name_range = cnode
            .child_by_field_name("name")
            .map(range)
            .unwrap_or(range(cnode));
        if c.is_enum {
            fb.enum_constants(&c.name, cnode);
        }
        for m in statics {
            init_member(&mut fb, c, *m, src, true);
        }
        pools[file].append(&mut fb.pools);
        thrown_global(out, fb.uses_thrown);
        library_global(out, fb.uses_library);
        let lambdas = std::mem::take(&mut fb.lambdas);
        let (f, fs) = fb.finish(&fname, true, &types::JType::void());
        add_lambdas(out, &mut sources[file], lambdas);
        sources[file].notes = notes;
        class.methods.push(pointee_ir::Method {
            signature: "<clinit>()".into(),
            function: Some(fname.as_str().into()),
            is_static: true,
        });
        out.program.functions.push(f.into());
        sources[file].functions.push(fs);
    }
    out.program.classes.push(class);
}

/// Bridges, as javac makes them: a class implementing a library functional
/// interface with its method under a more specific signature
/// (`compare(Foo,Foo)` of a `Comparator<Foo>`) also answers the interface's
/// erased signature (`compare(Object,Object)`), which calls through the
/// interface dispatch on.
fn bridges(h: &Hierarchy, c: &decl::ClassDecl, class: &mut Class) {
    if c.is_interface {
        return;
    }
    for a in h.ancestors(&c.name).iter() {
        let Some(sam) = library::functional(a) else {
            continue;
        };
        let cands = h.methods_named(&c.name, sam.name(), sam.params.len());
        if cands.iter().any(|(_, m)| m.signature == sam.signature)
            || class.methods.iter().any(|m| *m.signature == sam.signature)
        {
            continue;
        }
        if let Some((_, m)) = cands.iter().find(|(_, m)| !m.is_static && m.has_body) {
            class.methods.push(pointee_ir::Method {
                signature: sam.signature.as_str().into(),
                function: Some(m.function.as_str().into()),
                is_static: false,
            });
        }
    }
}

/// A field declaration's initializers or an initializer block.
fn init_member<'a>(
    fb: &mut Fb<'a, '_>,
    c: &decl::ClassDecl<'a>,
    m: Node<'a>,
    src: &str,
    is_static: bool,
) {
    if m.kind() == "static_initializer" || m.kind() == "block" {
        let mut w = m.walk();
        let kids: Vec<Node<'a>> = m.named_children(&mut w).collect();
        for k in kids {
            fb.stmt(k);
        }
        return;
    }
    let mut w = m.walk();
    let decls: Vec<Node<'a>> = m.children_by_field_name("declarator", &mut w).collect();
    for d in decls {
        let (Some(n), Some(v)) = (
            d.child_by_field_name("name"),
            d.child_by_field_name("value"),
        ) else {
            continue;
        };
        let Some(f) = c.fields.iter().find(|f| f.name == text(n, src)) else {
            continue;
        };
        fb.field_init(&c.name, &f.name, &f.ty, is_static, v);
    }
}

/// A constructor: an explicit `this(...)`/`super(...)` or the implicit
/// `super()`, then (unless it delegates to `this(...)`) the instance field
/// initialisers and initializer blocks, then the body.
fn lower_ctor<'a>(
    fb: &mut Fb<'a, '_>,
    c: &decl::ClassDecl<'a>,
    node: Option<Node<'a>>,
    members: &[Node<'a>],
    src: &str,
) {
    let body = node.and_then(|n| n.child_by_field_name("body"));
    let stmts: Vec<Node<'a>> = match body {
        Some(b) => {
            let mut w = b.walk();
            b.named_children(&mut w).collect()
        }
        None => Vec::new(),
    };
    let explicit = stmts
        .first()
        .filter(|s| s.kind() == "explicit_constructor_invocation")
        .copied();
    let delegates = explicit
        .and_then(|e| e.child_by_field_name("constructor"))
        .is_some_and(|k| k.kind() == "this");
    match explicit {
        Some(e) => fb.stmt(e),
        // An anonymous class's creation site calls its superclass's
        // constructor with the arguments.
        None if c.anonymous_base.is_some() => {}
        None => {
            if let Some(sup) = &c.superclass {
                let at = node.or(c.node).expect("a declared class");
                fb.call_ctor(
                    at,
                    at.child_by_field_name("name").unwrap_or(at),
                    sup,
                    Vec::new(),
                );
            }
        }
    }
    if !delegates {
        for m in members {
            let inst_field =
                matches!(m.kind(), "field_declaration") && !decl::has_modifier(*m, src, "static");
            if inst_field || m.kind() == "block" {
                init_member(fb, c, *m, src, false);
            }
        }
    }
    for s in stmts.into_iter().skip(usize::from(explicit.is_some())) {
        fb.stmt(s);
    }
    for m in members {
        if !matches!(m.kind(), "field_declaration" | "constant_declaration") {
            continue;
        }
        let mut w = m.walk();
        let names: Vec<Node<'a>> = m
            .children_by_field_name("declarator", &mut w)
            .filter_map(|d| d.child_by_field_name("name"))
            .collect();
        for n in names {
            if let Some(f) = c.fields.iter().find(|f| f.name == text(n, src)) {
                fb.record_field_decl(&c.name, &f.name, &f.ty, f.is_static, range(n));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn set_language_succeeds() {
        let mut p = super::parser();
        let t = p
            .parse("class A { void m() { A a = new A(); } }", None)
            .unwrap();
        assert!(!t.root_node().has_error());
    }
}
