//! One unit (a top-level type declaration) lowered against the program's
//! class table: its classes (nested, anonymous and local ones too), their
//! methods, static initialisers, and the lambdas made in their bodies.
//! Positions are those of the text the unit was lowered from; nothing here
//! depends on any other unit's text, so an edit of one unit lowers that
//! unit again and no other.

use crate::decl::{self, text, ClassDecl, ClassSyntax, ClassTable, Hierarchy};
use crate::library;
use crate::lower::{range, Fb, Method, Pools};
use crate::syntax::Fields;
use crate::types::JType;
use pointee_ir::{
    Class, Field, Function, FunctionSource, Global, GlobalKind, GlobalSource, Name, Note, NoteKind,
    SourceMap,
};
use std::sync::Arc;
use tree_sitter::Node;

/// One unit lowered: its part of the program and of its file's source map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LoweredUnit {
    /// The unit's classes (lambdas' too), in order.
    pub classes: Vec<Class>,
    pub functions: Vec<Arc<Function>>,
    /// The static fields of its classes.
    pub globals: Vec<Global>,
    /// Functions, globals and notes; positions as in the text lowered.
    pub source: SourceMap,
    /// The literals and boxes its bodies use.
    pub pools: Pools,
    /// Some body throws or catches (needs the thrown objects' global).
    pub uses_thrown: bool,
    /// Some body talks to the library (needs the library heap).
    pub uses_library: bool,
    /// Its `main(String[])` methods.
    pub mains: Vec<Name>,
    /// Where the unit starts in the text it was lowered from: positions
    /// minus this are relative to the unit.
    pub origin: u32,
    /// The names of the program's classes its lowering looked up (found or
    /// not), sorted: all it depends on of the class table, so it is lowered
    /// again only when one of these classes changed (or its text did).
    pub reads: Vec<String>,
    /// Those of `reads` whose origin (where the class is declared) it read,
    /// sorted: the unit's own named classes. For the others, a class that
    /// only moved is no change.
    pub origin_reads: Vec<String>,
}

impl LoweredUnit {
    /// Moves every position `delta` bytes later (earlier when negative),
    /// the origin too.
    pub fn shift(&mut self, delta: i64) {
        self.source.shift_from(0, delta);
        self.pools.shift(delta);
        self.origin = (i64::from(self.origin) + delta) as u32;
    }

    /// Ends a body: keeps what it used and the lambdas it made.
    fn take_body(
        &mut self,
        mut fb: Fb,
        name: &str,
        is_static: bool,
        ret: &JType,
    ) -> (Function, FunctionSource) {
        self.pools.append(&mut fb.pools);
        self.uses_thrown |= fb.uses_thrown;
        self.uses_library |= fb.uses_library;
        for (class, f, fs) in std::mem::take(&mut fb.lambdas) {
            self.classes.push(class);
            self.functions.push(f.into());
            self.source.functions.push(fs);
        }
        fb.finish(name, is_static, ret)
    }
}

/// Lowers the unit `unit` of `src` (the tree's text) against `table`; `index`
/// is its place among its file's units (to tell its classes from those of
/// another declaration of the same name, which the table ignores).
pub fn lower_unit(
    table: &ClassTable,
    file: &str,
    src: &str,
    unit: Node,
    index: u32,
) -> LoweredUnit {
    lower_unit_with(table, file, src, unit, index, true)
}

/// [`lower_unit`]; with `own_from_table` false it reads the unit's own
/// named classes' declarations again instead of taking the table's (the
/// same, which a test checks).
fn lower_unit_with(
    table: &ClassTable,
    file: &str,
    src: &str,
    unit: Node,
    index: u32,
    own_from_table: bool,
) -> LoweredUnit {
    let mut out = LoweredUnit {
        origin: unit.start_byte() as u32,
        ..Default::default()
    };
    let mut collected = Vec::new();
    let mut skipped = Vec::new();
    let mut h = Hierarchy::new(table);
    // The unit's own named classes are in the table as the outline read
    // them from this text: only their syntax is read again.
    let own = |name: &str, named: u32| {
        (own_from_table && h.declared_at(name, file, index, named))
            .then(|| table.get_shared(name).cloned())
            .flatten()
    };
    decl::collect_unit(unit, src, true, &own, &mut collected, &mut skipped);
    // The named classes that are this unit's in the table (not ignored as a
    // second class of a name).
    let mut named = 0u32;
    let mut mine = Vec::new();
    for c in &collected {
        let unit_local = c.unit_local;
        let ours = unit_local || h.declared_at(&c.decl.name, file, index, named);
        if !unit_local {
            named += 1;
        }
        mine.push(ours);
    }
    let collected: Vec<_> = collected
        .into_iter()
        .zip(mine)
        .filter_map(|(c, ours)| ours.then_some(c))
        .collect();
    // Each name once: a second local class of a name is ignored (with a
    // note), so the name stands for the first and is lowered once.
    let mut seen = std::collections::HashSet::new();
    let order: Vec<String> = collected
        .iter()
        .map(|c| c.decl.name.clone())
        .filter(|n| seen.insert(n.clone()))
        .collect();
    h.origin = out.origin;
    h.add_unit(collected, &mut skipped);
    for (node, message) in skipped {
        out.source.notes.push(Note {
            range: range(node),
            kind: NoteKind::Unsupported,
            message,
        });
    }
    for name in &order {
        let (Some(c), Some(syntax)) = (h.get(name), h.syntax(name)) else {
            continue;
        };
        let (c, syntax) = (c.clone(), *syntax);
        lower_class(&h, &c, &syntax, src, &mut out);
    }
    out.reads = h.table_reads();
    out.origin_reads = h.origin_reads();
    out
}

/// Lowers one class of the unit: its static fields as globals, its
/// methods, its static initialiser, its IR class.
fn lower_class<'a>(
    h: &Hierarchy<'a>,
    c: &ClassDecl,
    syntax: &ClassSyntax<'a>,
    src: &str,
    out: &mut LoweredUnit,
) {
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
    let cnode = syntax.node;
    let members: Vec<Node> = match syntax.body {
        Some(b) => {
            let mut w = b.walk();
            b.named_children(&mut w).collect()
        }
        None => Vec::new(),
    };
    // Static fields are globals.
    for m in &members {
        if !matches!(m.sym(), "field_declaration" | "constant_declaration") {
            continue;
        }
        let mut w = m.walk();
        for d in m.fields("declarator", &mut w) {
            let Some(n) = d.field("name") else {
                continue;
            };
            let Some(f) = c.fields.iter().find(|f| f.name == text(n, src)) else {
                continue;
            };
            if f.is_static {
                let name: Name = format!("{}.{}", c.name, f.name).into();
                if out.globals.iter().any(|g| g.name == name) {
                    continue;
                }
                out.globals.push(Global {
                    name: name.clone(),
                    ty: f.ty.ir(),
                    kind: GlobalKind::StaticField,
                    init: Vec::new(),
                });
                out.source.globals.push(GlobalSource {
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
            .filter_map(|k| k.field("name"))
            .map(|n| (text(n, src).to_string(), range(n)));
        for (f, r) in names.chain(std::iter::once(("$VALUES".to_string(), range(cnode)))) {
            let Some(fd) = c.fields.iter().find(|x| x.name == f) else {
                continue;
            };
            let name: Name = format!("{}.{}", c.name, f).into();
            out.globals.push(Global {
                name: name.clone(),
                ty: fd.ty.ir(),
                kind: GlobalKind::StaticField,
                init: Vec::new(),
            });
            out.source.globals.push(GlobalSource {
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
        let mut notes = std::mem::take(&mut out.source.notes);
        let mut fb = Fb::new(h, src, &mut notes, &meth);
        let mnode = h.method_nodes.get(&m.function).copied();
        if let Some(node) = mnode {
            fb.fs.range = range(node);
            fb.fs.name_range = node.field("name").map(range).unwrap_or(range(node));
            if let Some(ps) = node.field("parameters") {
                let mut w = ps.walk();
                let mut i = 0;
                for p in ps.named_children(&mut w) {
                    if !matches!(p.sym(), "formal_parameter" | "spread_parameter")
                        || i >= m.params.len()
                    {
                        continue;
                    }
                    let nr = p.field("name").map(range).unwrap_or(range(p));
                    fb.add_param(&m.params[i].0, m.params[i].1.clone(), nr);
                    i += 1;
                }
            }
        } else {
            fb.fs.range = range(cnode);
            fb.fs.name_range = cnode.field("name").map(range).unwrap_or(range(cnode));
        }
        if let Some(decl::Synth::RecordCtor) = m.synth {
            // The record's components are the canonical constructor's
            // parameters (a compact constructor does not list them).
            let at = cnode.field("name").map(range).unwrap_or(range(cnode));
            for (n, t) in &m.params {
                fb.add_param(n, t.clone(), at);
            }
        }
        fb.set_ret(&m.ret);
        if m.is_static && m.signature == "main(String[])" {
            let at = fb
                .fs
                .vars
                .first()
                .copied()
                .unwrap_or(pointee_ir::Range::new(h.origin as usize, h.origin as usize));
            fb.model_main_args(at);
        }
        match &m.synth {
            Some(decl::Synth::RecordCtor) => {
                lower_ctor(&mut fb, c, syntax, mnode, &members, src);
                fb.assign_this_fields(&m.params);
            }
            Some(decl::Synth::Accessor(f)) => fb.accessor(f),
            None if m.is_ctor => lower_ctor(&mut fb, c, syntax, mnode, &members, src),
            None => {
                if let Some(b) = mnode.and_then(|n| n.field("body")) {
                    fb.stmt(b);
                }
            }
        }
        let (f, fs) = out.take_body(fb, &m.function, m.is_static, &m.ret);
        out.source.notes = notes;
        if m.is_static && m.signature == "main(String[])" {
            out.mains.push(f.name.clone());
        }
        out.functions.push(f.into());
        out.source.functions.push(fs);
    }
    bridges(h, c, &mut class);
    // Static initialisers.
    let statics: Vec<&Node> = members
        .iter()
        .filter(|m| {
            m.sym() == "static_initializer"
                || (matches!(m.sym(), "field_declaration" | "constant_declaration")
                    && (c.is_interface || decl::has_modifier(**m, src, "static"))
                    && {
                        let mut w = m.walk();
                        let has_value = m
                            .fields("declarator", &mut w)
                            .any(|d| d.field("value").is_some());
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
        let mut notes = std::mem::take(&mut out.source.notes);
        let mut fb = Fb::new(h, src, &mut notes, &meth);
        fb.fs.range = range(cnode);
        fb.fs.name_range = cnode.field("name").map(range).unwrap_or(range(cnode));
        if c.is_enum {
            fb.enum_constants(&c.name, cnode);
        }
        for m in statics {
            init_member(&mut fb, c, *m, src, true);
        }
        let (f, fs) = out.take_body(fb, &fname, true, &JType::void());
        out.source.notes = notes;
        class.methods.push(pointee_ir::Method {
            signature: "<clinit>()".into(),
            function: Some(fname.as_str().into()),
            is_static: true,
        });
        out.functions.push(f.into());
        out.source.functions.push(fs);
    }
    out.classes.push(class);
}

/// Bridges, as javac makes them: a class implementing a library functional
/// interface with its method under a more specific signature
/// (`compare(Foo,Foo)` of a `Comparator<Foo>`) also answers the interface's
/// erased signature (`compare(Object,Object)`), which calls through the
/// interface dispatch on.
fn bridges(h: &Hierarchy, c: &ClassDecl, class: &mut Class) {
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
fn init_member<'a>(fb: &mut Fb<'a, '_>, c: &ClassDecl, m: Node<'a>, src: &str, is_static: bool) {
    if m.sym() == "static_initializer" || m.sym() == "block" {
        let mut w = m.walk();
        let kids: Vec<Node<'a>> = m.named_children(&mut w).collect();
        for k in kids {
            fb.stmt(k);
        }
        return;
    }
    let mut w = m.walk();
    let decls: Vec<Node<'a>> = m.fields("declarator", &mut w).collect();
    for d in decls {
        let (Some(n), Some(v)) = (d.field("name"), d.field("value")) else {
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
    c: &ClassDecl,
    syntax: &ClassSyntax<'a>,
    node: Option<Node<'a>>,
    members: &[Node<'a>],
    src: &str,
) {
    let body = node.and_then(|n| n.field("body"));
    let stmts: Vec<Node<'a>> = match body {
        Some(b) => {
            let mut w = b.walk();
            b.named_children(&mut w).collect()
        }
        None => Vec::new(),
    };
    let explicit = stmts
        .first()
        .filter(|s| s.sym() == "explicit_constructor_invocation")
        .copied();
    let delegates = explicit
        .and_then(|e| e.field("constructor"))
        .is_some_and(|k| k.sym() == "this");
    match explicit {
        Some(e) => fb.stmt(e),
        // An anonymous class's creation site calls its superclass's
        // constructor with the arguments.
        None if c.anonymous_base.is_some() => {}
        None => {
            if let Some(sup) = &c.superclass {
                let at = node.unwrap_or(syntax.node);
                fb.call_ctor(at, at.field("name").unwrap_or(at), sup, Vec::new());
            }
        }
    }
    if !delegates {
        for m in members {
            let inst_field =
                matches!(m.sym(), "field_declaration") && !decl::has_modifier(*m, src, "static");
            if inst_field || m.sym() == "block" {
                init_member(fb, c, *m, src, false);
            }
        }
    }
    for s in stmts.into_iter().skip(usize::from(explicit.is_some())) {
        fb.stmt(s);
    }
    for m in members {
        if !matches!(m.sym(), "field_declaration" | "constant_declaration") {
            continue;
        }
        let mut w = m.walk();
        let names: Vec<Node<'a>> = m
            .fields("declarator", &mut w)
            .filter_map(|d| d.field("name"))
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
    use super::*;

    /// Every fixture's every unit lowers the same whether its own classes'
    /// declarations come from the table or are read again.
    #[test]
    fn own_declarations_from_the_table_lower_as_read_ones() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/java");
        let mut programs: Vec<Vec<std::path::PathBuf>> = Vec::new();
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                let files = std::fs::read_dir(&p)
                    .unwrap()
                    .map(|e| e.unwrap().path())
                    .filter(|f| f.extension().is_some_and(|x| x == "java"))
                    .collect();
                programs.push(files);
            } else if p.extension().is_some_and(|x| x == "java") {
                programs.push(vec![p]);
            }
        }
        let mut units = 0;
        for files in programs {
            let texts: Vec<(String, String)> = files
                .iter()
                .map(|f| (f.display().to_string(), std::fs::read_to_string(f).unwrap()))
                .collect();
            let trees: Vec<tree_sitter::Tree> = texts
                .iter()
                .map(|(_, t)| crate::parser().parse(t, None).unwrap())
                .collect();
            let outlines: Vec<crate::FileOutline> = texts
                .iter()
                .zip(&trees)
                .map(|((f, t), tree)| crate::outline(f, t, tree))
                .collect();
            let (table, _) = crate::class_table(&outlines.iter().collect::<Vec<_>>());
            for ((f, t), tree) in texts.iter().zip(&trees) {
                for (i, u) in decl::units(tree.root_node()).into_iter().enumerate() {
                    let i = i as u32;
                    assert_eq!(
                        lower_unit_with(&table, f, t, u, i, true),
                        lower_unit_with(&table, f, t, u, i, false),
                        "{f} unit {i}"
                    );
                    units += 1;
                }
            }
        }
        assert!(units > 100, "{units} units");
        let taken = decl::TAKEN_FROM_TABLE.load(std::sync::atomic::Ordering::Relaxed);
        assert!(
            taken >= units,
            "{taken} of {units} units' classes from the table"
        );
    }
}
