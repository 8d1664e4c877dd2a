//! Go to definition, declaration and implementation.
//!
//! On the callee of an indirect C call (`fp` in `fp(x)` or `(*fp)(x)`,
//! `open` in `s->ops->open(x)`) or of a Java call (`m` in `a.m()`),
//! implementation and definition give every possible callee. Declaration
//! (and definition elsewhere) resolves the name under the cursor: a local or
//! parameter (the latest declaration of that name before the cursor in the
//! enclosing function), a static local, a global or static field, a
//! function or method, a record or class; a field is the member of the
//! record the expression's type selects (C), the field of the operand's
//! static class or its nearest supertype declaring it (Java, `x.f`,
//! `this.f`, `super.f`, `C.f`), or found by name.
//!
//! Fields are found in the syntax trees: the source maps do not record
//! them.

use crate::c::CProgram;
use crate::java::JavaProgram;
use crate::program::Program;
use crate::{Analysis, FileId, FilePosition, Lang, NavTarget};
use pointee_ir::{Range, SourceMap};

pub(crate) fn implementation(a: &Analysis, pos: FilePosition) -> Vec<NavTarget> {
    possible_callees(a, pos).unwrap_or_default()
}

pub(crate) fn definition(a: &Analysis, pos: FilePosition) -> Vec<NavTarget> {
    match possible_callees(a, pos) {
        Some(v) if !v.is_empty() => v,
        _ => declaration(a, pos),
    }
}

pub(crate) fn declaration(a: &Analysis, pos: FilePosition) -> Vec<NavTarget> {
    declaration_of(a, pos).into_iter().collect()
}

/// Every possible callee of the indirect (C) or any (Java) call whose
/// callee's name is at `pos`; `None` when the cursor is not there.
fn possible_callees(a: &Analysis, pos: FilePosition) -> Option<Vec<NavTarget>> {
    let p = Program::of(a, pos.file)?;
    let (fs, call) = p
        .source(pos.file)?
        .functions
        .iter()
        .flat_map(|fs| fs.calls.iter().map(move |c| (fs, c)))
        .filter(|(_, c)| c.callee_range.touches(pos.offset))
        .min_by_key(|(_, c)| c.callee_range.len())?;
    if !on_callee_name(a, pos, call.callee_range) {
        return None;
    }
    let caller = p.program_name(pos.file, &fs.name);
    if p.lang() == Lang::C && p.direct_callee(&caller, call).is_some() {
        return None;
    }
    Some(
        p.callees(&caller, call)
            .into_iter()
            .filter_map(|c| c.decl)
            .map(|d| NavTarget {
                file: d.file,
                range: d.range,
            })
            .collect(),
    )
}

/// Whether the identifier at `pos` is the last name of the callee
/// expression `callee` (`fp` in `fp` or `(*fp)`, `open` in `s->ops->open`,
/// `m` in `a.m`).
fn on_callee_name(a: &Analysis, pos: FilePosition, callee: Range) -> bool {
    let Some((r, _)) = identifier_at(a, pos) else {
        return false;
    };
    if r.start < callee.start || r.end > callee.end {
        return false;
    }
    a.file_text(pos.file)
        .get(r.end as usize..callee.end as usize)
        .is_some_and(|rest| rest.chars().all(|c| c == ')' || c.is_whitespace()))
}

/// What kind of name is at the cursor.
#[derive(Clone, Copy, PartialEq, Eq)]
enum NameKind {
    Identifier,
    Field,
    Type,
}

/// The identifier at `pos` (or just before it) in the file's syntax tree.
fn identifier_at(a: &Analysis, pos: FilePosition) -> Option<(Range, NameKind)> {
    let tree = pointee_db::syntax_tree(a.db(), pos.file).as_ref()?;
    let root = tree.0.root_node();
    for at in [pos.offset as usize, (pos.offset as usize).saturating_sub(1)] {
        let Some(n) = root.descendant_for_byte_range(at, at) else {
            continue;
        };
        let java_field = n.kind() == "identifier"
            && n.parent().is_some_and(|p| {
                p.kind() == "field_access" && p.child_by_field_name("field") == Some(n)
            });
        let kind = match n.kind() {
            "identifier" if java_field => NameKind::Field,
            "identifier" => NameKind::Identifier,
            "field_identifier" => NameKind::Field,
            "type_identifier" => NameKind::Type,
            _ => continue,
        };
        return Some((Range::new(n.start_byte(), n.end_byte()), kind));
    }
    None
}

/// Field declarations named `ident` in the workspace's files of `lang` (C:
/// struct and union members; Java: instance fields), optionally only inside
/// `within`.
fn field_declarations(
    a: &Analysis,
    lang: Lang,
    ident: &str,
    within: Option<NavTarget>,
) -> Vec<NavTarget> {
    let mut out = Vec::new();
    for (_, file) in a.files() {
        if a.lang(file) != Some(lang) || within.is_some_and(|w| w.file != file) {
            continue;
        }
        // Only files that mention the name are parsed (when not yet).
        let text = a.file_text(file);
        if !text.contains(ident) {
            continue;
        }
        let Some(tree) = pointee_db::syntax_tree(a.db(), file).as_ref() else {
            continue;
        };
        preorder(&tree.0, |n| {
            let is_name = match (lang, n.kind()) {
                (Lang::C, "field_identifier") => {
                    n.parent().is_some_and(|p| p.kind() != "field_expression")
                }
                (Lang::Java, "identifier") => n.parent().is_some_and(|p| {
                    p.kind() == "variable_declarator"
                        && p.child_by_field_name("name") == Some(n)
                        && p.parent().is_some_and(|g| g.kind() == "field_declaration")
                }),
                _ => false,
            };
            let inside = within.is_none_or(|w| {
                w.range.start as usize <= n.start_byte() && n.end_byte() <= w.range.end as usize
            });
            if is_name && inside && text.get(n.start_byte()..n.end_byte()) == Some(ident) {
                out.push(NavTarget {
                    file,
                    range: Range::new(n.start_byte(), n.end_byte()),
                });
            }
            out.len() >= 20
        });
    }
    out
}

/// Visits `tree`'s nodes in pre-order, without recursion, until `visit`
/// says stop (then returns true).
fn preorder(tree: &tree_sitter::Tree, mut visit: impl FnMut(tree_sitter::Node) -> bool) -> bool {
    let mut cursor = tree.walk();
    loop {
        if visit(cursor.node()) {
            return true;
        }
        if cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                return false;
            }
        }
    }
}

/// C: where the record is defined whose member the field expression at
/// `pos` (`a.f`, `p->f`) selects, from the IR's types: the expression's own
/// place (a pointer member), or the type of its operand.
fn c_selected_record(c: &CProgram, a: &Analysis, pos: FilePosition) -> Option<NavTarget> {
    use pointee_ir::{Sel, Type};
    let tree = pointee_db::syntax_tree(a.db(), pos.file).as_ref()?;
    let root = tree.0.root_node();
    let off = pos.offset as usize;
    let field = [off, off.saturating_sub(1)]
        .into_iter()
        .filter_map(|at| root.descendant_for_byte_range(at, at))
        .find(|n| n.kind() == "field_identifier")?;
    let expr = field.parent().filter(|p| p.kind() == "field_expression")?;
    let operand = expr.child_by_field_name("argument")?;
    let arrow = expr.child_by_field_name("operator")?.kind() == "->";
    let lowered = pointee_db::lower_c(c.db, pos.file);
    let linked = pointee_db::c_program(c.db, c.project).as_ref().ok();
    let program = linked.map(|p| &**p).unwrap_or(&lowered.program);
    let fs = lowered
        .source
        .functions
        .iter()
        .find(|fs| fs.range.touches(pos.offset))?;
    let func = program
        .function(&c.program_name(pos.file, &fs.name))
        .or_else(|| lowered.program.function(&fs.name))?;
    let range_of = |n: tree_sitter::Node| Range::new(n.start_byte(), n.end_byte());
    let record_of = |t: &Type| match t {
        Type::Record(k) => Some(k.clone()),
        _ => None,
    };
    let pointee = |t: &Type| match t {
        Type::Pointer(t) | Type::Array(t, _) => Some((**t).clone()),
        _ => None,
    };
    // The record before the place's last step (the member named).
    let from_place = |p: &pointee_ir::Place| -> Option<pointee_ir::Name> {
        let mut ty = match &p.base {
            pointee_ir::Base::Var(v) => func.vars.get(v.0 as usize)?.ty.clone(),
            pointee_ir::Base::Global(g) => program.global(g)?.ty.clone(),
        };
        if p.deref {
            ty = pointee(&ty)?;
        }
        let (last, before) = p.path.split_last()?;
        if !matches!(last, Sel::Field(_)) {
            return None;
        }
        for sel in before {
            ty = match sel {
                Sel::Field(f) => {
                    let r = program.types.record(&record_of(&ty)?)?;
                    r.fields.iter().find(|x| x.name == *f)?.ty.clone()
                }
                Sel::Index(_) => pointee(&ty)?,
            };
        }
        record_of(&ty)
    };
    let key = fs
        .exprs
        .iter()
        .find(|e| e.range == range_of(expr))
        .and_then(|e| from_place(&c.place(pos.file, &e.place)))
        .or_else(|| {
            let e = fs.exprs.iter().find(|e| e.range == range_of(operand))?;
            if arrow {
                record_of(&pointee(&e.ty)?)
            } else {
                record_of(&e.ty)
            }
        })?;
    c.sources().into_iter().find_map(|(f, source, _)| {
        let (_, range) = source.records.iter().find(|(k, _)| *k == key)?;
        Some(NavTarget {
            file: f,
            range: *range,
        })
    })
}

/// Java: the declaration of field `ident` named at `pos` in `x.f`, from the
/// static type of `x` (its expression's type in the source map; `this`,
/// `super` and a class name by the declarations): the field of that class
/// or of its nearest supertype declaring one of that name (superclasses
/// first, then interfaces).
fn java_selected_field(
    j: &JavaProgram,
    a: &Analysis,
    pos: FilePosition,
    ident: &str,
) -> Option<NavTarget> {
    let tree = pointee_db::syntax_tree(a.db(), pos.file).as_ref()?;
    let root = tree.0.root_node();
    let off = pos.offset as usize;
    let (access, operand) = [off, off.saturating_sub(1)]
        .into_iter()
        .filter_map(|at| root.descendant_for_byte_range(at, at))
        .find_map(|n| {
            let p = n.parent().filter(|p| p.kind() == "field_access")?;
            (p.child_by_field_name("field") == Some(n)).then_some(p)
        })
        .and_then(|p| Some((p, p.child_by_field_name("object")?)))?;
    let text = a.file_text(pos.file);
    let classes = &j.jp.program.classes;
    let class_named = |n: &str| classes.iter().find(|c| &*c.name == n);
    let enclosing_class = || {
        let mut n = access.parent();
        while let Some(x) = n {
            if JAVA_TYPE_DECLARATIONS.contains(&x.kind()) {
                let name = x.child_by_field_name("name")?;
                return text.get(name.byte_range()).map(str::to_string);
            }
            if x.kind() == "class_body"
                && x.parent()
                    .is_some_and(|p| p.kind() == "object_creation_expression")
            {
                // `this` of an anonymous class: not followed (found by name).
                return None;
            }
            n = x.parent();
        }
        None
    };
    let static_class = match operand.kind() {
        "this" => enclosing_class()?,
        "super" => class_named(&enclosing_class()?)?
            .superclass
            .as_deref()?
            .to_string(),
        _ => {
            let range = Range::new(operand.start_byte(), operand.end_byte());
            let from_expr = j.source_map(pos.file).and_then(|sm| {
                sm.functions
                    .iter()
                    .filter(|fs| fs.range.touches(pos.offset))
                    .flat_map(|fs| &fs.exprs)
                    .find(|e| e.range == range)
                    .and_then(|e| match &e.ty {
                        pointee_ir::Type::Class(c) => Some(c.to_string()),
                        _ => None,
                    })
            });
            match from_expr {
                Some(c) => c,
                // A class name: `C.f`.
                None => {
                    let name = text.get(operand.byte_range())?;
                    class_named(name)?.name.to_string()
                }
            }
        }
    };
    // The class and its supertypes, nearest first.
    let mut todo = std::collections::VecDeque::from([static_class]);
    let mut seen: Vec<String> = Vec::new();
    while let Some(c) = todo.pop_front() {
        if seen.contains(&c) {
            continue;
        }
        seen.push(c.clone());
        // A static field is a global `C.f` with its declaration.
        let global = format!("{c}.{ident}");
        for sm in &j.jp.sources {
            if let Some(g) = sm.global(&global) {
                return Some(NavTarget {
                    file: a.file_id(&sm.file)?,
                    range: g.name_range,
                });
            }
        }
        let Some(decl) = class_named(&c) else {
            continue;
        };
        if decl.fields.iter().any(|f| &*f.name == ident) {
            return java_field_declaration(a, &c, ident);
        }
        todo.extend(decl.superclass.iter().map(|s| s.to_string()));
        todo.extend(decl.interfaces.iter().map(|s| s.to_string()));
    }
    None
}

/// The syntax kinds of Java's named type declarations.
const JAVA_TYPE_DECLARATIONS: [&str; 4] = [
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
];

/// Where field `field` of the class named `class` is declared: a declarator
/// among the class body's own members, or a record component.
fn java_field_declaration(a: &Analysis, class: &str, field: &str) -> Option<NavTarget> {
    for (_, file) in a.files() {
        if a.lang(file) != Some(Lang::Java) {
            continue;
        }
        let text = a.file_text(file);
        if !text.contains(class) || !text.contains(field) {
            continue;
        }
        let Some(tree) = pointee_db::syntax_tree(a.db(), file).as_ref() else {
            continue;
        };
        let named = |n: tree_sitter::Node, name: &str| {
            n.child_by_field_name("name")
                .and_then(|x| text.get(x.byte_range()))
                == Some(name)
        };
        let mut found = None;
        preorder(&tree.0, |n| {
            if JAVA_TYPE_DECLARATIONS.contains(&n.kind()) && named(n, class) {
                let mut members: Vec<tree_sitter::Node> = Vec::new();
                let mut c = n.walk();
                if let Some(params) = n.child_by_field_name("parameters") {
                    members.extend(params.named_children(&mut c));
                }
                if let Some(body) = n.child_by_field_name("body") {
                    let mut c2 = body.walk();
                    for m in body.named_children(&mut c2) {
                        if m.kind() == "enum_body_declarations" {
                            let mut c3 = m.walk();
                            members.extend(m.named_children(&mut c3));
                        } else {
                            members.push(m);
                        }
                    }
                }
                for m in members {
                    let names: Vec<tree_sitter::Node> = match m.kind() {
                        "field_declaration" | "constant_declaration" => {
                            let mut c4 = m.walk();
                            m.children_by_field_name("declarator", &mut c4)
                                .filter_map(|d| d.child_by_field_name("name"))
                                .collect()
                        }
                        "formal_parameter" | "enum_constant" => {
                            m.child_by_field_name("name").into_iter().collect()
                        }
                        _ => Vec::new(),
                    };
                    if let Some(x) = names
                        .into_iter()
                        .find(|x| text.get(x.byte_range()) == Some(field))
                    {
                        found = Some(NavTarget {
                            file,
                            range: Range::new(x.start_byte(), x.end_byte()),
                        });
                        return true;
                    }
                }
            }
            false
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

fn strip_shadow(name: &str) -> &str {
    name.split('#').next().unwrap_or(name)
}

/// The declaration of the variable, field, global, function or record named
/// at `pos`.
fn declaration_of(a: &Analysis, pos: FilePosition) -> Option<NavTarget> {
    let (ident_range, kind) = identifier_at(a, pos)?;
    let text = a.file_text(pos.file);
    let ident = text.get(ident_range.start as usize..ident_range.end as usize)?;
    let lang = a.lang(pos.file)?;
    let project = a.project_of(pos.file);
    let c = (lang == Lang::C).then(|| CProgram::new(a, project));
    let j = (lang == Lang::Java).then(|| JavaProgram::new(a, project));
    // Every file of the program: its source map and its own IR.
    let sources: Vec<(FileId, &SourceMap, &pointee_ir::Program)> = match (&c, &j) {
        (Some(c), _) => c.sources(),
        (_, Some(j)) => {
            j.jp.sources
                .iter()
                .filter_map(|s| Some((a.file_id(&s.file)?, s, &j.jp.program)))
                .collect()
        }
        _ => return None,
    };
    let java = lang == Lang::Java;
    if kind == NameKind::Field {
        // The member of the record (C) or class (Java) the expression's
        // type selects; by name alone when the type is not known.
        if let Some(found) = j
            .as_ref()
            .and_then(|j| java_selected_field(j, a, pos, ident))
        {
            return Some(found);
        }
        let record = c.as_ref().and_then(|c| c_selected_record(c, a, pos));
        if let Some(r) = record {
            if let Some(found) = field_declarations(a, lang, ident, Some(r))
                .into_iter()
                .next()
            {
                return Some(found);
            }
        }
        return field_declarations(a, lang, ident, None).into_iter().next();
    }
    let here = |range: Range| {
        Some(NavTarget {
            file: pos.file,
            range,
        })
    };
    if kind == NameKind::Identifier {
        // A local or parameter of the enclosing function: the latest
        // declaration of that name before the cursor.
        if let Some(&(_, sm, program)) = sources.iter().find(|s| s.0 == pos.file) {
            if let Some(fs) = sm
                .functions
                .iter()
                .filter(|fs| fs.range.touches(pos.offset))
                .min_by_key(|fs| fs.range.len())
            {
                if let Some(f) = program.function(&fs.name) {
                    let mut best: Option<Range> = None;
                    for (v, r) in f.vars.iter().zip(&fs.vars) {
                        let user = matches!(
                            v.kind,
                            pointee_ir::VarKind::Param | pointee_ir::VarKind::Local
                        );
                        if user
                            && strip_shadow(&v.name) == ident
                            && r.start <= pos.offset
                            && best.is_none_or(|b| r.start >= b.start)
                        {
                            best = Some(*r);
                        }
                    }
                    if let Some(r) = best {
                        return here(r);
                    }
                }
                // A static local: a global named `function::local`.
                let sl = format!("{}::{ident}", fs.name);
                if let Some(g) = sm.global(&sl) {
                    return here(g.name_range);
                }
            }
        }
    }
    // Globals (C) or static fields (Java), this file first.
    let mut order: Vec<usize> = (0..sources.len()).collect();
    order.sort_by_key(|&i| sources[i].0 != pos.file);
    for &i in &order {
        for g in &sources[i].1.globals {
            let name: &str = &g.name;
            let matches = if java {
                name.rsplit('.').next() == Some(ident)
            } else {
                name == ident
            };
            if matches && kind != NameKind::Type {
                return Some(NavTarget {
                    file: sources[i].0,
                    range: g.name_range,
                });
            }
        }
    }
    // Functions and methods.
    for &i in &order {
        for fs in &sources[i].1.functions {
            let name: &str = &fs.name;
            let short = if java {
                name.split('(')
                    .next()
                    .and_then(|n| n.rsplit('.').next())
                    .unwrap_or(name)
            } else {
                name
            };
            if short == ident && !fs.name_range.is_empty() {
                return Some(NavTarget {
                    file: sources[i].0,
                    range: fs.name_range,
                });
            }
        }
    }
    // Records and classes by name.
    for &i in &order {
        for (key, r) in &sources[i].1.records {
            let k: &str = key;
            if k == ident || k.rsplit(' ').next() == Some(ident) {
                return Some(NavTarget {
                    file: sources[i].0,
                    range: *r,
                });
            }
        }
    }
    None
}
