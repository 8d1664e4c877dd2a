//! The lowering state and the file level: declarations, globals, function
//! definitions, preprocessor lines and syntax errors.

use crate::scope::{FileScope, FunctionSyntax};
use crate::syntax::{self, named_children, range, text, Fields};
use crate::CFile;
use pointee_ir::fxhash::FxHashMap;
use pointee_ir::{
    Basic, Block, CallInfo, Definition, ExprInfo, FnType, Function, FunctionSource, Global,
    GlobalKind, GlobalSource, LabelId, Name, Note, NoteKind, Program, Range, Record, SiteId,
    SiteInfo, SiteKind, SourceMap, Stmt, StmtId, Type, Var, VarId, VarKind,
};
use std::collections::HashMap;
use tree_sitter::Node;

/// Syntax nested deeper than this is lowered conservatively (with a note)
/// rather than recursed into.
pub(crate) const MAX_DEPTH: usize = 3000;

/// What a name in scope denotes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Sym {
    Local(VarId, Type),
    Global(Name, Type),
    Function(Name, FnType),
    EnumConst,
    Typedef(Type),
}

/// The function being lowered.
#[derive(Default)]
pub(crate) struct FnState {
    pub name: Name,
    pub vars: Vec<Var>,
    pub var_ranges: Vec<Range>,
    pub params: Vec<VarId>,
    pub ret_var: Option<VarId>,
    /// Blocks under construction; statements go to the last one.
    pub blocks: Vec<Block>,
    pub stmt_ranges: Vec<Range>,
    /// `Function::overwrites`, in order.
    pub overwrites: Vec<StmtId>,
    pub sites: Vec<SiteInfo>,
    pub exprs: ExprRecords,
    pub calls: Vec<CallInfo>,
    pub labels: HashMap<String, LabelId>,
    /// Where `continue` goes in each enclosing loop: `None` is the loop head
    /// (`Stmt::Continue`), `Some(label)` a label before a `for` update or a
    /// `do` condition.
    pub continues: Vec<Option<LabelId>>,
    /// Every label of the function, found at its first computed `goto`.
    pub all_labels: Option<Vec<String>>,
    /// The names whose address the body takes (`syntax::address_taken_names`):
    /// a local of another name changes only by an assignment to it.
    pub address_taken: pointee_ir::fxhash::FxHashSet<String>,
    temps: u32,
    names: HashMap<String, u32>,
}

/// A function's `ExprInfo`s in the order they are recorded, where a later
/// write of a range replaces every earlier record of it. Replacing finds the
/// earlier records through an index by range, so recording is linear in the
/// function's length (a scan of all records per write made a 20,000-line
/// function take seconds and a 100,000-line one never end).
#[derive(Default)]
pub(crate) struct ExprRecords {
    /// `None` where a record was replaced.
    records: Vec<Option<ExprInfo>>,
    /// The positions in `records` of each range's live records.
    live: FxHashMap<Range, Vec<usize>>,
    /// Records looked at by replacements, each at most once: what the tests
    /// count to show the work is linear.
    pub(crate) replaced_visits: usize,
}

impl ExprRecords {
    /// Adds a record beside any others of its range.
    pub(crate) fn push(&mut self, e: ExprInfo) {
        self.live
            .entry(e.range)
            .or_default()
            .push(self.records.len());
        self.records.push(Some(e));
    }

    /// Adds a record that replaces every earlier one of its range.
    pub(crate) fn replace(&mut self, e: ExprInfo) {
        let slots = self.live.entry(e.range).or_default();
        for i in slots.drain(..) {
            self.replaced_visits += 1;
            self.records[i] = None;
        }
        slots.push(self.records.len());
        self.records.push(Some(e));
    }

    /// The live records, in the order they were recorded.
    pub(crate) fn into_vec(self) -> Vec<ExprInfo> {
        self.records.into_iter().flatten().collect()
    }
}

pub(crate) struct Lowerer<'s> {
    pub src: &'s str,
    pub program: Program,
    pub source: SourceMap,
    /// Scopes of ordinary identifiers; `[0]` is the file scope (what this
    /// lowering adds to it; `base` holds the rest).
    pub scopes: Vec<FxHashMap<String, Sym>>,
    /// The file scope read by the outline, when lowering function bodies.
    pub base: &'s FileScope,
    pub mode: Mode,
    /// Function definitions the outline found (in `Mode::Outline`).
    pub outlined: Vec<FunctionSyntax>,
    /// Names anonymous records: `struct <anon1>` at file scope,
    /// `struct <anon1 in f>` inside function `f`.
    pub anon_records: u32,
    pub anon_owner: Option<Name>,
    /// The typedef name an anonymous record being defined will take.
    pub anon_name_hint: Option<String>,
    pub f: FnState,
    /// Sites of the global whose initializer is being lowered.
    pub global_sites: Vec<SiteInfo>,
    pub depth: usize,
    /// Where each defined function, global and global source entry is in
    /// the output vectors (a redefinition replaces in place).
    function_slots: FxHashMap<Name, usize>,
    global_slots: FxHashMap<Name, usize>,
    global_source_slots: FxHashMap<Name, usize>,
    extern_names: std::collections::HashSet<Name>,
    /// Globals declared `extern` and not (yet) defined here: no IR until
    /// used (see `use_global`).
    pub declared_only: pointee_ir::fxhash::FxHashSet<Name>,
    /// Typedef names looked up so far: a header whose type was derived
    /// without one does not depend on the scope.
    pub typedef_lookups: u32,
    /// The outline's function types from `predeclare_functions`, by
    /// definition node, for headers whose type cannot differ when the
    /// definition is reached (see `scope_free_header`): not derived twice.
    /// Each with whether the definition has a body (is outlined).
    predeclared: FxHashMap<usize, (Name, FnType, bool)>,
    /// Room to spell a record key in before looking it up.
    pub key_buf: String,
}

/// Whether function bodies are lowered or only outlined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Read the file scope; record each function definition's span.
    Outline,
    /// Lower everything met (function bodies against `base`).
    Full,
}

impl<'s> Lowerer<'s> {
    pub(crate) fn new(file: &str, src: &'s str, base: &'s FileScope, mode: Mode) -> Lowerer<'s> {
        Lowerer {
            src,
            program: Program::default(),
            source: SourceMap {
                file: file.into(),
                ..Default::default()
            },
            scopes: vec![FxHashMap::default()],
            base,
            mode,
            outlined: Vec::new(),
            anon_records: 0,
            anon_owner: None,
            anon_name_hint: None,
            f: FnState::default(),
            global_sites: Vec::new(),
            depth: 0,
            function_slots: FxHashMap::default(),
            global_slots: FxHashMap::default(),
            global_source_slots: FxHashMap::default(),
            extern_names: Default::default(),
            declared_only: Default::default(),
            typedef_lookups: 0,
            predeclared: FxHashMap::default(),
            key_buf: String::new(),
        }
    }

    /// The file-level items of an outline pass.
    pub(crate) fn outline_items(&mut self, items: &[Node]) {
        self.predeclare_library_types();
        self.predeclare_functions(items);
        self.top_level_items(items);
    }

    /// Lowers the items that make up one function definition.
    pub(crate) fn function_items(&mut self, items: &[Node]) {
        self.top_level_items(items);
    }

    /// What this lowering produced.
    pub(crate) fn finish(mut self) -> CFile {
        let defined = &self.function_slots;
        self.program
            .externs
            .retain(|e| !defined.contains_key(&e.name));
        self.source.notes.sort_by_key(|n| (n.range.start, n.kind));
        CFile {
            program: self.program,
            source: self.source,
            headers: Vec::new(),
        }
    }

    /// A record layout, defined here or in the file scope.
    pub(crate) fn record_def(&self, key: &str) -> Option<&Record> {
        self.program
            .types
            .record(key)
            .or_else(|| self.base.types.record(key))
    }

    pub(crate) fn pointer_paths(&self, ty: &Type) -> Vec<Vec<pointee_ir::Sel>> {
        pointee_ir::pointer_paths_in(ty, &|k| self.record_def(k))
    }
}

impl<'s> Lowerer<'s> {
    pub(crate) fn note(&mut self, node: Node, kind: NoteKind, message: impl Into<String>) {
        self.source.notes.push(Note {
            range: range(node),
            kind,
            message: message.into(),
        });
    }

    pub(crate) fn text(&self, n: Node) -> &'s str {
        text(n, self.src)
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.get(name))
            .or_else(|| self.base.names.get(name))
    }

    pub(crate) fn bind(&mut self, name: &str, sym: Sym) {
        let scope = self
            .scopes
            .last_mut()
            .expect("the file scope is never popped");
        // Rebinding (each function is bound early, then where it is
        // defined) reuses the key.
        match scope.get_mut(name) {
            Some(old) => *old = sym,
            None => {
                scope.insert(name.to_string(), sym);
            }
        }
    }

    pub(crate) fn in_function(&self) -> bool {
        !self.f.blocks.is_empty()
    }

    /// Lowers the items of a translation unit (or of an ERROR node that
    /// tree-sitter made of part of it).
    fn top_level(&mut self, root: Node) {
        self.top_level_items(&named_children(root));
    }

    /// Handles a function definition. An outline drops the notes made on the
    /// way: they belong to the function's own lowering, which repeats them.
    fn definition<R>(&mut self, f: impl FnOnce(&mut Self) -> R) -> R {
        let notes = self.source.notes.len();
        let r = f(self);
        if self.mode == Mode::Outline {
            self.source.notes.truncate(notes);
        }
        r
    }

    fn top_level_items(&mut self, items: &[Node]) {
        let mut i = 0;
        while i < items.len() {
            let item = items[i];
            i += 1;
            match item.kind_str() {
                "function_definition" => {
                    if let Some((name, fn_ty, outlined)) = self.predeclared.remove(&item.id()) {
                        self.outline_known_definition(item, name, fn_ty, outlined);
                        continue;
                    }
                    self.definition(|l| l.function_definition(item, None))
                }
                "declaration" => {
                    if let Some(consumed) = self.definition(|l| l.knr_definition(items, i - 1)) {
                        i = consumed;
                        continue;
                    }
                    self.declaration(item)
                }
                "type_definition" => self.type_definition(item),
                "preproc_include" | "preproc_def" | "preproc_function_def" | "preproc_call" => {}
                "preproc_if" | "preproc_ifdef" | "preproc_elif" | "preproc_elifdef" => {
                    self.note(
                        item,
                        NoteKind::Preprocessor,
                        "only the first branch of this conditional is lowered",
                    );
                    self.top_level_first_branch(item);
                }
                "linkage_specification" => {
                    if let Some(body) = item.field("body") {
                        if body.kind_str() == "declaration_list" {
                            self.top_level(body);
                        } else {
                            self.top_level_item(body);
                        }
                    }
                }
                "struct_specifier" | "union_specifier" | "enum_specifier" => {
                    self.spec_type(item);
                }
                "expression_statement" | "ERROR" => {
                    // `main() { ... }` with implicit int parses as a call
                    // followed by a block (with K&R declarations between).
                    if let Some(consumed) =
                        self.definition(|l| l.implicit_int_definition(items, i - 1))
                    {
                        i = consumed;
                        continue;
                    }
                    if item.kind_str() == "ERROR" {
                        self.note(
                            item,
                            NoteKind::Syntax,
                            "syntax error; lowered what could be recognised",
                        );
                        self.top_level(item);
                    } else {
                        self.note(
                            item,
                            NoteKind::Unsupported,
                            "statement outside a function ignored",
                        );
                    }
                }
                ";" | "comment" => {}
                "compound_statement" => {
                    self.note(
                        item,
                        NoteKind::Syntax,
                        "function body without a recognisable header ignored",
                    );
                }
                _ => {
                    if item.is_error() || item.has_error() {
                        self.note(
                            item,
                            NoteKind::Syntax,
                            "syntax error; lowered what could be recognised",
                        );
                    } else {
                        self.note(
                            item,
                            NoteKind::Unsupported,
                            format!("top-level `{}` ignored", item.kind_str()),
                        );
                    }
                }
            }
        }
    }

    /// Binds every function defined in the file before lowering any body, so
    /// that a function used before its definition (common in old C) is known.
    fn predeclare_functions(&mut self, items: &[Node]) {
        for (i, item) in items.iter().enumerate() {
            match item.kind_str() {
                "function_definition" => {
                    let spec = item.field("type");
                    // Only a typedef-like name before the declarator can be
                    // a misparsed implicit int.
                    if spec.is_some_and(|t| t.kind_str() == "type_identifier")
                        && self.misparsed_implicit_int(*item).is_some()
                    {
                        if let Some(t) = spec {
                            let name = self.text(t);
                            let f = FnType {
                                ret: Type::Scalar,
                                params: Vec::new(),
                                variadic: false,
                            };
                            self.bind(name, Sym::Function(name.into(), f));
                        }
                        continue;
                    }
                    let lookups = self.typedef_lookups;
                    let base = match spec {
                        Some(t) => self.spec_type(t),
                        None => Type::Scalar,
                    };
                    let Some(decl) = item.field("declarator") else {
                        continue;
                    };
                    if let (Some(n), Type::Function(f)) = self.declarator(decl, base) {
                        let name: Name = self.text(n).into();
                        if self.typedef_lookups == lookups && self.scope_free_header(spec, decl) {
                            // The grammar requires a body: only a broken
                            // definition can lack one (a costly lookup, as
                            // the body is the last child).
                            let outlined = !item.has_error() || item.field("body").is_some();
                            self.predeclared
                                .insert(item.id(), (name.clone(), (*f).clone(), outlined));
                        }
                        self.bind(&name, Sym::Function(name.clone(), *f));
                    }
                }
                "expression_statement" | "ERROR" => {
                    let Some(call) = find_call(*item) else {
                        continue;
                    };
                    let Some(callee) = call.field("function") else {
                        continue;
                    };
                    let body_follows = items[i + 1..]
                        .iter()
                        .find(|n| n.kind_str() != "declaration")
                        .is_some_and(|n| n.kind_str() == "compound_statement");
                    if callee.kind_str() == "identifier" && body_follows {
                        let name = self.text(callee);
                        let f = FnType {
                            ret: Type::Scalar,
                            params: Vec::new(),
                            variadic: false,
                        };
                        self.bind(name, Sym::Function(name.into(), f));
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether deriving a definition's type from this header has no effect
    /// but the type (no record or enum body, so no record defined or
    /// numbered, no constant bound; no broken syntax) and, when it read no
    /// typedef name, gives the same type wherever in the file it is derived.
    fn scope_free_header(&self, spec: Option<Node>, decl: Node) -> bool {
        let start = spec.map_or(decl.start_byte(), |s| s.start_byte());
        let header = self.src.get(start..decl.end_byte()).unwrap_or("{");
        !header.contains('{') && !decl.has_error() && !spec.is_some_and(|s| s.has_error())
    }

    /// The outline of a definition whose header is not broken: only its
    /// name and type matter, the parameters and body are the function's
    /// own lowering. Returns `None` when the header needs the full reading.
    fn outline_definition(&mut self, node: Node) -> Option<()> {
        let decl = node.field("declarator")?;
        let spec = node.field("type");
        if !self.scope_free_header(spec, decl) {
            // Reading the parameters again defines and numbers their
            // records as the full reading does.
            return None;
        }
        let base = match spec {
            Some(t) => self.spec_type(t),
            None => Type::Scalar, // implicit int
        };
        let (name, ty) = self.declarator(decl, base);
        let name: Name = self.text(name?).into();
        let fn_ty = match ty {
            Type::Function(f) => *f,
            _ => FnType {
                ret: Type::Scalar,
                params: Vec::new(),
                variadic: false,
            },
        };
        let outlined = node.field("body").is_some();
        self.outline_known_definition(node, name, fn_ty, outlined);
        Some(())
    }

    /// Outlines a definition whose name and type are known; one without a
    /// body is not outlined (nor bound), as in `function_definition`.
    fn outline_known_definition(&mut self, node: Node, name: Name, ty: FnType, outlined: bool) {
        if outlined {
            self.bind(&name, Sym::Function(name.clone(), ty));
            self.outlined.push(FunctionSyntax {
                name,
                range: range(node),
            });
        }
    }

    fn top_level_item(&mut self, item: Node) {
        match item.kind_str() {
            "function_definition" => self.definition(|l| l.function_definition(item, None)),
            "declaration" => self.declaration(item),
            _ => {}
        }
    }

    /// Lowers the items of a `#if`/`#ifdef`'s first branch.
    fn top_level_first_branch(&mut self, node: Node) {
        let mut cursor = node.walk();
        let alternative = node.field("alternative").map(|a| a.id());
        let children: Vec<Node> = node
            .named_children(&mut cursor)
            .filter(|c| Some(c.id()) != alternative)
            .filter(|c| !matches!(c.kind_str(), "identifier" | "preproc_arg" | "comment"))
            .collect();
        for c in children {
            if node.field("condition").map(|n| n.id()) == Some(c.id()) {
                continue;
            }
            // Wrap single items through the same dispatcher as the file.
            match c.kind_str() {
                "function_definition" => self.definition(|l| l.function_definition(c, None)),
                "declaration" => self.declaration(c),
                "type_definition" => self.type_definition(c),
                "preproc_if" | "preproc_ifdef" => self.top_level_first_branch(c),
                "struct_specifier" | "union_specifier" | "enum_specifier" => {
                    self.spec_type(c);
                }
                _ => {}
            }
        }
    }

    /// Recognises `name(a, b) [K&R declarations] { body }` at top level, where
    /// tree-sitter saw a call statement and a block. Returns the index after
    /// the consumed items.
    fn implicit_int_definition(&mut self, items: &[Node], at: usize) -> Option<usize> {
        let head = items[at];
        let call = find_call(head)?;
        let callee = call.field("function")?;
        if callee.kind_str() != "identifier" {
            return None;
        }
        let (decls, body, j) = knr_tail(items, at + 1)?;
        let params: Vec<Node> = call
            .field("arguments")
            .map(named_children)
            .unwrap_or_default()
            .into_iter()
            .filter(|a| a.kind_str() == "identifier")
            .collect();
        let def = ImplicitDef {
            name: callee,
            ret: Type::Scalar,
            params,
            decls,
            body,
            whole: Range::new(head.start_byte(), body.end_byte()),
        };
        self.function_definition(head, Some(def));
        Some(j + 1)
    }

    /// Recognises a K&R definition that tree-sitter split into a declaration
    /// with a function declarator, the parameter declarations, and a block.
    fn knr_definition(&mut self, items: &[Node], at: usize) -> Option<usize> {
        let head = items[at];
        let (decls, body, j) = knr_tail(items, at + 1)?;
        let decl = syntax::children_by_field(head, "declarator")
            .into_iter()
            .next()?;
        let fdecl = find_function_declarator(decl)?;
        let base = match head.field("type") {
            Some(t) => self.spec_type(t),
            None => Type::Scalar,
        };
        let (name, ty) = self.declarator(decl, base);
        let name = name?;
        let ret = match ty {
            Type::Function(f) => f.ret,
            _ => Type::Scalar,
        };
        // K&R parameter names: bare identifiers, or what tree-sitter took
        // for a parameter's type.
        let mut params = Vec::new();
        if let Some(list) = fdecl.field("parameters") {
            for p in named_children(list) {
                match p.kind_str() {
                    "identifier" => params.push(p),
                    "parameter_declaration" => {
                        let n = p.field("declarator").or_else(|| p.field("type"));
                        if let Some(n) =
                            n.filter(|n| matches!(n.kind_str(), "identifier" | "type_identifier"))
                        {
                            params.push(n);
                        }
                    }
                    _ => {}
                }
            }
        }
        self.note(head, NoteKind::Syntax, "K&R definition recovered from a broken parse; undeclared parameters are of unknown type");
        let def = ImplicitDef {
            name,
            ret,
            params,
            decls,
            body,
            whole: Range::new(head.start_byte(), body.end_byte()),
        };
        self.function_definition(head, Some(def));
        Some(j + 1)
    }

    /// A function definition. `implicit` carries the pieces of an implicit-int
    /// definition that tree-sitter did not recognise as one.
    pub(crate) fn function_definition(&mut self, node: Node, implicit: Option<ImplicitDef>) {
        let implicit = implicit.or_else(|| self.misparsed_implicit_int(node));
        if self.mode == Mode::Outline
            && implicit.is_none()
            && self.outline_definition(node).is_some()
        {
            return;
        }
        let (name_node, fn_ty, param_nodes, knr_decls, body, whole) = match &implicit {
            Some(d) => {
                // Parameters without a K&R declaration are of unknown type
                // (treated as possibly pointers).
                let fn_ty = FnType {
                    ret: d.ret.clone(),
                    params: vec![Type::Unknown; d.params.len()],
                    variadic: false,
                };
                let params = d.params.iter().map(|&p| (p, None)).collect();
                (d.name, fn_ty, params, d.decls.clone(), d.body, d.whole)
            }
            None => {
                let base = match node.field("type") {
                    Some(t) => self.spec_type(t),
                    None => Type::Scalar, // implicit int
                };
                let Some(decl) = node.field("declarator") else {
                    self.note(
                        node,
                        NoteKind::Syntax,
                        "function definition without a declarator",
                    );
                    return;
                };
                let (name, ty) = self.declarator(decl, base);
                let Some(name) = name else {
                    self.note(node, NoteKind::Syntax, "function definition without a name");
                    return;
                };
                let fn_ty = match ty {
                    Type::Function(f) => *f,
                    _ => FnType {
                        ret: Type::Scalar,
                        params: Vec::new(),
                        variadic: false,
                    },
                };
                let params = self.parameter_nodes(decl);
                let knr: Vec<Node> = named_children(node)
                    .into_iter()
                    .filter(|c| c.kind_str() == "declaration")
                    .collect();
                let Some(body) = node.field("body") else {
                    return;
                };
                (name, fn_ty, params, knr, body, range(node))
            }
        };
        let name: Name = self.text(name_node).into();
        let (is_static, _) = storage(node, self.src);
        self.bind(&name, Sym::Function(name.clone(), fn_ty.clone()));
        if self.mode == Mode::Outline {
            self.outlined.push(FunctionSyntax { name, range: whole });
            return;
        }
        self.anon_owner = Some(name.clone());

        self.f = FnState {
            name: name.clone(),
            ..Default::default()
        };
        self.f.blocks.push(Vec::new());
        self.scopes.push(FxHashMap::default());
        // K&R declarations give the parameters their types.
        let mut knr_types: HashMap<String, (Type, Node)> = HashMap::new();
        for d in &knr_decls {
            let base = d
                .field("type")
                .map(|t| self.spec_type(t))
                .unwrap_or(Type::Scalar);
            for decl in syntax::children_by_field(*d, "declarator") {
                if let (Some(n), ty) = self.declarator(decl, base.clone()) {
                    knr_types.insert(self.text(n).to_string(), (ty, n));
                }
            }
        }
        let mut param_types = Vec::new();
        for (i, (pnode, pty)) in param_nodes.iter().enumerate() {
            let pname = self.text(*pnode).to_string();
            let (ty, decl_node) = match (pty, knr_types.get(&pname)) {
                (Some(t), _) => (t.clone(), *pnode),
                (None, Some((t, n))) => (t.clone(), *n),
                (None, None) => (fn_ty.params.get(i).cloned().unwrap_or(Type::Scalar), *pnode),
            };
            let ty = decay_param(ty);
            param_types.push(ty.clone());
            let restrict = is_restrict(*pnode, self.src);
            let id = self.new_var(&pname, ty.clone(), VarKind::Param, range(decl_node));
            self.f.vars[id.0 as usize].restrict = restrict;
            self.f.params.push(id);
            self.bind(&pname, Sym::Local(id, ty));
        }
        let fn_ty = FnType {
            ret: fn_ty.ret.clone(),
            params: param_types,
            variadic: fn_ty.variadic,
        };
        self.scopes[0].insert(name.to_string(), Sym::Function(name.clone(), fn_ty.clone()));
        if fn_ty.ret != Type::Void {
            let id = self.new_var(
                "return",
                fn_ty.ret.clone(),
                VarKind::Return,
                range(name_node),
            );
            self.f.ret_var = Some(id);
        }
        self.f.address_taken = syntax::address_taken_names(body, self.src);
        self.compound(body);
        self.scopes.pop();

        let mut f = std::mem::take(&mut self.f);
        let body_block = f.blocks.pop().unwrap_or_default();
        let func = Function {
            name: name.clone(),
            params: f.params,
            ret: fn_ty.ret.clone(),
            variadic: fn_ty.variadic,
            is_static,
            vars: f.vars,
            ret_var: f.ret_var,
            body: body_block,
            labels: f.labels.len() as u32,
            stmt_count: f.stmt_ranges.len() as u32,
            site_count: f.sites.len() as u32,
            overwrites: f.overwrites,
        };
        // Fix up reads recorded "before the next statement" at the very end.
        let count = func.stmt_count;
        let mut exprs = f.exprs.into_vec();
        exprs.retain(|e| e.point.stmt().0 < count);
        let source = FunctionSource {
            name: name.clone(),
            range: whole,
            name_range: range(name_node),
            vars: f.var_ranges,
            stmts: f.stmt_ranges,
            sites: f.sites,
            exprs,
            calls: f.calls,
        };
        match self.function_slots.get(&name) {
            Some(&i) => {
                self.program.functions[i] = func.into();
                self.source.functions[i] = source;
            }
            None => {
                self.function_slots
                    .insert(name, self.program.functions.len());
                self.program.functions.push(func.into());
                self.source.functions.push(source);
            }
        }
    }

    /// `count(n) { ... }`: tree-sitter reads `count` as a type name and
    /// `(n)` as the declarator. With no such typedef, it is an implicit-int
    /// definition of `count`.
    fn misparsed_implicit_int<'t>(&self, node: Node<'t>) -> Option<ImplicitDef<'t>> {
        let ty = node.field("type")?;
        if ty.kind_str() != "type_identifier"
            || matches!(self.lookup(self.text(ty)), Some(Sym::Typedef(_)))
        {
            return None;
        }
        let decl = node.field("declarator")?;
        if find_function_declarator(decl).is_some() {
            return None;
        }
        let mut params = Vec::new();
        let mut stack = vec![decl];
        while let Some(n) = stack.pop() {
            if n.kind_str() == "identifier" {
                params.push(n);
            } else {
                stack.extend(named_children(n).into_iter().rev());
            }
        }
        let decls = named_children(node)
            .into_iter()
            .filter(|c| c.kind_str() == "declaration")
            .collect();
        Some(ImplicitDef {
            name: ty,
            ret: Type::Scalar,
            params,
            decls,
            body: node.field("body")?,
            whole: range(node),
        })
    }

    /// Parameter names with their declared types (`None` for K&R names).
    fn parameter_nodes<'t>(&mut self, decl: Node<'t>) -> Vec<(Node<'t>, Option<Type>)> {
        let Some(fdecl) = find_function_declarator(decl) else {
            return Vec::new();
        };
        let Some(list) = fdecl.field("parameters") else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for p in named_children(list) {
            match p.kind_str() {
                "identifier" => out.push((p, None)),
                "parameter_declaration" => {
                    let base = p
                        .field("type")
                        .map(|t| self.spec_type(t))
                        .unwrap_or(Type::Scalar);
                    // No declarator: `void` or an unnamed parameter.
                    if let Some(d) = p.field("declarator") {
                        let (name, ty) = self.declarator(d, base);
                        if let Some(n) = name {
                            out.push((n, Some(ty)));
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// A file-scope or block-scope declaration.
    pub(crate) fn declaration(&mut self, node: Node) {
        let base = match node.field("type") {
            Some(t) => self.spec_type(t),
            None => Type::Scalar,
        };
        let (is_static, is_extern) = storage(node, self.src);
        for d in syntax::children_by_field(node, "declarator") {
            let (decl, value) = match d.kind_str() {
                "init_declarator" => (d.field("declarator").unwrap_or(d), d.field("value")),
                _ => (d, None),
            };
            let (name, ty) = self.declarator(decl, base.clone());
            let Some(name_node) = name else { continue };
            let name = self.text(name_node).to_string();
            if let Type::Function(fty) = &ty {
                // A prototype.
                let key: Name = name.as_str().into();
                if self.in_function()
                    && self
                        .lookup(&name)
                        .is_some_and(|s| matches!(s, Sym::Function(..)))
                {
                    continue;
                }
                self.scopes[0].insert(name.clone(), Sym::Function(key.clone(), (**fty).clone()));
                if self.in_function() {
                    self.bind(&name, Sym::Function(key.clone(), (**fty).clone()));
                }
                if !self.function_slots.contains_key(&key) && self.extern_names.insert(key.clone())
                {
                    self.program.externs.push(pointee_ir::Extern {
                        name: key,
                        ty: (**fty).clone(),
                    });
                }
                continue;
            }
            if is_extern && value.is_none() && !self.global_slots.contains_key(name.as_str()) {
                // A declaration, no definition (headers declare many a
                // global a unit never uses): the global is made where it
                // is used.
                let key: Name = name.as_str().into();
                self.declared_only.insert(key.clone());
                self.scopes[0].insert(name.clone(), Sym::Global(key.clone(), ty.clone()));
                if self.in_function() {
                    self.bind(&name, Sym::Global(key.clone(), ty));
                }
                if !self.global_source_slots.contains_key(&key) {
                    self.put_global_source(GlobalSource {
                        name: key,
                        name_range: range(name_node),
                        sites: Vec::new(),
                    });
                }
                continue;
            }
            if !self.in_function() || is_extern {
                let definition = match (value, is_extern) {
                    (Some(_), _) => Definition::Initialised,
                    (None, true) => Definition::Extern,
                    (None, false) => Definition::Tentative,
                };
                let g = self.declare_global(&name, ty, (is_static, definition), name_node, value);
                if self.in_function() {
                    self.bind(&name, Sym::Global(g.0, g.1));
                }
            } else if is_static {
                self.static_local(&name, ty, name_node, value);
            } else {
                self.local_declaration(&name, ty, name_node, value);
            }
        }
    }

    /// A global (or `extern` in a block): declared once per name; an
    /// initializer (or a later tentative definition) fills it in.
    fn declare_global(
        &mut self,
        name: &str,
        ty: Type,
        (is_static, definition): (bool, Definition),
        name_node: Node,
        value: Option<Node>,
    ) -> (Name, Type) {
        let key: Name = name.into();
        self.declared_only.remove(&key);
        let slot = self.global_slots.get(&key).copied();
        let ty = match (&ty, slot) {
            // `extern int a[];` then `int a[10];`: keep the more complete type.
            (Type::Array(_, None), Some(i)) => self.program.globals[i].ty.clone(),
            _ => ty,
        };
        self.scopes[0].insert(name.to_string(), Sym::Global(key.clone(), ty.clone()));
        let init = match value {
            Some(v) => self.global_initializer(&key, &ty, v),
            None => Vec::new(),
        };
        let sites = std::mem::take(&mut self.global_sites);
        match slot {
            Some(i) => {
                let g = &mut self.program.globals[i];
                g.ty = ty.clone();
                if value.is_some() {
                    g.init = init;
                }
                // The file's strongest declaration of the name counts.
                if let GlobalKind::Variable {
                    is_static: s,
                    definition: d,
                } = &mut g.kind
                {
                    *s |= is_static;
                    *d = (*d).max(definition);
                }
            }
            None => self.put_global(Global {
                name: key.clone(),
                ty: ty.clone(),
                kind: GlobalKind::Variable {
                    is_static,
                    definition,
                },
                init,
            }),
        }
        if value.is_some() || !self.global_source_slots.contains_key(&key) {
            self.put_global_source(GlobalSource {
                name: key.clone(),
                name_range: range(name_node),
                sites,
            });
        }
        (key, ty)
    }

    /// A global used here: one only declared (`extern`) is made now. A C
    /// library global (`stdin`, `errno`, ...; declared by a header or not)
    /// starts with the library's value: unknown.
    pub(crate) fn use_global(&mut self, name: &Name, ty: &Type) {
        let declared_only = self.declared_only.contains(name)
            || (self.base.declared_only.contains(name) && !self.global_slots.contains_key(name));
        if declared_only && !self.global_slots.contains_key(name) {
            self.library_global(name, ty.clone());
        }
    }

    /// A global a C library header would declare (`stdin`, `errno`, ...),
    /// made on first use: declared only (`extern`), so linking keeps it one
    /// object that no unit defines, and the analysis gives it the library's
    /// value.
    pub(crate) fn library_global(&mut self, name: &str, ty: Type) {
        let key: Name = name.into();
        if self.global_slots.contains_key(&key) {
            return;
        }
        self.put_global(Global {
            name: key.clone(),
            ty: ty.clone(),
            kind: GlobalKind::Variable {
                is_static: false,
                definition: Definition::Extern,
            },
            init: Vec::new(),
        });
        if !self.scopes[0].contains_key(name) {
            self.scopes[0].insert(name.to_string(), Sym::Global(key, ty));
        }
    }

    /// A `static` local: a global named `function::name`.
    fn static_local(&mut self, name: &str, ty: Type, name_node: Node, value: Option<Node>) {
        let key: Name = format!("{}::{}", self.f.name, name).into();
        let init = match value {
            Some(v) => self.global_initializer(&key, &ty, v),
            None => Vec::new(),
        };
        let sites = std::mem::take(&mut self.global_sites);
        self.put_global(Global {
            name: key.clone(),
            ty: ty.clone(),
            kind: GlobalKind::StaticLocal {
                function: self.f.name.clone(),
                local: name.into(),
            },
            init,
        });
        self.put_global_source(GlobalSource {
            name: key.clone(),
            name_range: range(name_node),
            sites,
        });
        self.bind(name, Sym::Global(key, ty));
    }

    /// Adds a global, replacing an earlier one of the same name.
    fn put_global(&mut self, g: Global) {
        match self.global_slots.get(&g.name) {
            Some(&i) => self.program.globals[i] = g,
            None => {
                self.global_slots
                    .insert(g.name.clone(), self.program.globals.len());
                self.program.globals.push(g);
            }
        }
    }

    fn put_global_source(&mut self, g: GlobalSource) {
        match self.global_source_slots.get(&g.name) {
            Some(&i) => self.source.globals[i] = g,
            None => {
                self.global_source_slots
                    .insert(g.name.clone(), self.source.globals.len());
                self.source.globals.push(g);
            }
        }
    }

    pub(crate) fn type_definition(&mut self, node: Node) {
        // `typedef struct { ... } name_t;`: the anonymous record is named
        // after the typedef (`struct name_t`), so the IR reads well.
        let first = syntax::children_by_field(node, "declarator")
            .into_iter()
            .next();
        self.anon_name_hint = first
            .filter(|d| d.kind_str() == "type_identifier")
            .map(|d| self.text(d).to_string());
        let base = match node.field("type") {
            Some(t) => self.spec_type(t),
            None => Type::Scalar,
        };
        self.anon_name_hint = None;
        for d in syntax::children_by_field(node, "declarator") {
            let (name, ty) = self.declarator(d, base.clone());
            if let Some(n) = name {
                let name = self.text(n).to_string();
                self.bind(&name, Sym::Typedef(ty));
            }
        }
    }

    // ---- function-level building blocks ----

    /// A new variable of the current function. Names are made unique so the
    /// IR prints unambiguously (`x`, `x#2` for a shadowing `x`).
    pub(crate) fn new_var(&mut self, name: &str, ty: Type, kind: VarKind, at: Range) -> VarId {
        let n = self.f.names.entry(name.to_string()).or_insert(0);
        *n += 1;
        let shown = if *n == 1 {
            name.to_string()
        } else {
            format!("{name}#{n}")
        };
        let id = VarId(self.f.vars.len() as u32);
        self.f.vars.push(Var {
            name: shown.into(),
            ty,
            kind,
            restrict: false,
        });
        self.f.var_ranges.push(at);
        id
    }

    pub(crate) fn new_temp(&mut self, ty: Type, at: Range) -> VarId {
        self.f.temps += 1;
        let name = format!("t{}", self.f.temps);
        let id = VarId(self.f.vars.len() as u32);
        self.f.vars.push(Var {
            name: name.into(),
            ty,
            kind: VarKind::Temp,
            restrict: false,
        });
        self.f.var_ranges.push(at);
        id
    }

    pub(crate) fn new_site(&mut self, at: Range, kind: SiteKind) -> SiteId {
        if self.in_function() {
            self.f.sites.push(SiteInfo { range: at, kind });
            SiteId(self.f.sites.len() as u32 - 1)
        } else {
            self.global_sites.push(SiteInfo { range: at, kind });
            SiteId(self.global_sites.len() as u32 - 1)
        }
    }

    /// The id the next emitted statement will get.
    pub(crate) fn next_stmt(&self) -> StmtId {
        StmtId(self.f.stmt_ranges.len() as u32)
    }

    pub(crate) fn emit(&mut self, b: Basic, at: Range) -> StmtId {
        let id = self.next_stmt();
        self.f.stmt_ranges.push(at);
        self.push_stmt(Stmt::Basic(id, b));
        id
    }

    pub(crate) fn push_stmt(&mut self, s: Stmt) {
        self.f
            .blocks
            .last_mut()
            .expect("statements are emitted inside a function")
            .push(s);
    }

    /// Runs `f` collecting the statements it emits into a fresh block.
    pub(crate) fn block_of(&mut self, f: impl FnOnce(&mut Self)) -> Block {
        self.f.blocks.push(Vec::new());
        f(self);
        self.f.blocks.pop().unwrap_or_default()
    }

    pub(crate) fn label(&mut self, name: &str) -> LabelId {
        let next = LabelId(self.f.labels.len() as u32);
        *self.f.labels.entry(name.to_string()).or_insert(next)
    }

    /// A label no source label can clash with.
    pub(crate) fn fresh_label(&mut self) -> LabelId {
        let next = LabelId(self.f.labels.len() as u32);
        self.f.labels.insert(format!("<{}>", next.0), next);
        next
    }

    /// Types that library headers would declare; without a preprocessor the
    /// headers are not read, so the common ones are known here.
    fn predeclare_library_types(&mut self) {
        for t in [
            "size_t",
            "ssize_t",
            "ptrdiff_t",
            "intptr_t",
            "uintptr_t",
            "off_t",
            "time_t",
            "clock_t",
            "int8_t",
            "int16_t",
            "int32_t",
            "int64_t",
            "uint8_t",
            "uint16_t",
            "uint32_t",
            "uint64_t",
            "bool",
            "wchar_t",
            "pid_t",
            "uid_t",
            "gid_t",
            "mode_t",
            "sig_atomic_t",
            "intmax_t",
            "uintmax_t",
            "socklen_t",
            "u_char",
            "u_int",
            "u_long",
            "wint_t",
        ] {
            self.bind(t, Sym::Typedef(Type::Scalar));
        }
        for t in [
            "FILE",
            "DIR",
            "va_list",
            "jmp_buf",
            "fpos_t",
            "pthread_t",
            "pthread_mutex_t",
        ] {
            let key: Name = t.into();
            self.program
                .types
                .records
                .entry(key.clone())
                .or_insert(pointee_ir::Record {
                    name: key.clone(),
                    kind: pointee_ir::RecordKind::Struct,
                    fields: Vec::new(),
                    complete: false,
                });
            self.bind(t, Sym::Typedef(Type::Record(key)));
        }
        // gcc's own type behind `va_list` (the bundled <stdarg.h>).
        self.bind(
            "__builtin_va_list",
            Sym::Typedef(Type::Record("va_list".into())),
        );
    }
}

/// Pieces of an implicit-int function definition.
pub(crate) struct ImplicitDef<'t> {
    name: Node<'t>,
    ret: Type,
    params: Vec<Node<'t>>,
    decls: Vec<Node<'t>>,
    body: Node<'t>,
    whole: Range,
}

/// After a definition's head: K&R parameter declarations, then the body.
/// Returns them and the body's index.
fn knr_tail<'t>(items: &[Node<'t>], from: usize) -> Option<(Vec<Node<'t>>, Node<'t>, usize)> {
    let mut j = from;
    while j < items.len() && items[j].kind_str() == "declaration" {
        j += 1;
    }
    let body = *items.get(j)?;
    (body.kind_str() == "compound_statement").then(|| (items[from..j].to_vec(), body, j))
}

fn find_call(n: Node) -> Option<Node> {
    if n.kind_str() == "call_expression" {
        return Some(n);
    }
    named_children(n)
        .into_iter()
        .rev()
        .find(|c| c.kind_str() == "call_expression")
}

pub(crate) fn find_function_declarator(mut d: Node) -> Option<Node> {
    loop {
        match d.kind_str() {
            "function_declarator" => {
                // `int (*f(int))(char)`: the innermost function declarator
                // that names the function holds its parameters.
                let inner = d.field("declarator")?;
                if let Some(deeper) = find_function_declarator(inner) {
                    return Some(deeper);
                }
                return Some(d);
            }
            "pointer_declarator" | "attributed_declarator" | "init_declarator" => {
                d = d
                    .field("declarator")
                    .or_else(|| named_children(d).into_iter().last())?;
            }
            "parenthesized_declarator" => d = *named_children(d).first()?,
            _ => return None,
        }
    }
}

/// Whether a declaration is `static`, and whether it is `extern`.
fn storage(node: Node, src: &str) -> (bool, bool) {
    let (mut is_static, mut is_extern) = (false, false);
    for c in named_children(node) {
        if c.kind_str() == "storage_class_specifier" {
            match text(c, src) {
                "static" => is_static = true,
                "extern" => is_extern = true,
                _ => {}
            }
        }
    }
    (is_static, is_extern)
}

fn is_restrict(name: Node, src: &str) -> bool {
    // The qualifier sits in the pointer declarator around the name.
    let mut n = name.parent();
    while let Some(p) = n {
        if p.kind_str() == "parameter_declaration" {
            return false;
        }
        if p.kind_str() == "pointer_declarator"
            && named_children(p)
                .into_iter()
                .any(|c| c.kind_str() == "type_qualifier" && text(c, src).contains("restrict"))
        {
            return true;
        }
        n = p.parent();
    }
    false
}

/// Array and function parameters are pointers (C11 6.7.6.3).
pub(crate) fn decay_param(ty: Type) -> Type {
    match ty {
        Type::Array(elem, _) => Type::Pointer(elem),
        Type::Function(f) => Type::Pointer(Box::new(Type::Function(f))),
        t => t,
    }
}

#[cfg(test)]
mod tests {
    use super::ExprRecords;
    use pointee_ir::{ExprInfo, Place, Point, Range, StmtId, Type, VarId};

    fn record(range: Range, stmt: u32) -> ExprInfo {
        ExprInfo {
            range,
            place: Place::var(VarId(0)),
            point: Point::After(StmtId(stmt)),
            ty: Type::Scalar,
        }
    }

    /// The records of `q = r;` repeated: the read of `r`, then the writes of
    /// `q` and of the assignment replacing what was read there. The visits of
    /// replacements stay within the records made (linear), however long the
    /// function, and the live records are the last of each range, in order.
    #[test]
    fn replacing_records_is_linear_in_the_function_length() {
        for lines in [1_000u32, 100_000] {
            let mut records = ExprRecords::default();
            for i in 0..lines {
                let (q, r) = (
                    Range::new(10 * i as usize, 10 * i as usize + 1),
                    Range::new(10 * i as usize + 4, 10 * i as usize + 5),
                );
                let whole = Range::new(10 * i as usize, 10 * i as usize + 5);
                records.push(record(r, i));
                records.push(record(q, i));
                records.replace(record(q, i));
                records.replace(record(whole, i));
                records.replace(record(whole, i));
            }
            // Per line: the first read of `q` and the first write of the
            // whole are replaced once each.
            assert_eq!(records.replaced_visits, 2 * lines as usize);
            let live = records.into_vec();
            assert_eq!(live.len(), 3 * lines as usize);
            assert_eq!(live[0].range, Range::new(4, 5));
            assert_eq!(live[1].range, Range::new(0, 1));
            assert_eq!(live[2].range, Range::new(0, 5));
        }
    }
}
