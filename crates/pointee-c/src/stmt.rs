//! Statements to structured IR control: blocks, if, loops (with `for`
//! updates and `do` conditions reached by `continue` through a label),
//! switch with fall-through, goto and labels, return.

use crate::lower::{Lowerer, Sym, MAX_DEPTH};
use crate::syntax::{named_children, range, Fields};
use pointee_ir::fxhash::FxHashMap;
use pointee_ir::{Cond, NoteKind, Place, Stmt, Type, VarKind};
use tree_sitter::Node;

impl<'s> Lowerer<'s> {
    /// A `{ ... }` block with its own scope.
    pub(crate) fn compound(&mut self, n: Node) {
        self.scopes.push(FxHashMap::default());
        for c in named_children(n) {
            self.statement(c);
        }
        self.scopes.pop();
    }

    /// Whether `n` is the ERROR `goto` that tree-sitter makes of GNU
    /// `goto *e;` (the `*e;` after it is an expression statement).
    fn is_computed_goto(&self, n: Node) -> bool {
        n.kind_str() == "ERROR"
            && self.text(n).trim() == "goto"
            && n.next_named_sibling()
                .is_some_and(|s| s.kind_str() == "expression_statement")
    }

    /// The names of every label of the function around `n`, sorted.
    fn labels_of_function(&self, n: Node) -> Vec<String> {
        let mut function = n;
        while let Some(p) = function.parent() {
            function = p;
            if p.kind_str() == "function_definition" {
                break;
            }
        }
        let mut names = Vec::new();
        let mut stack = vec![function];
        while let Some(x) = stack.pop() {
            if x.kind_str() == "labeled_statement" {
                if let Some(l) = x.field("label") {
                    names.push(self.text(l).to_string());
                }
            }
            stack.extend(named_children(x));
        }
        names.sort();
        names.dedup();
        names
    }

    /// `goto *e;`: evaluates `e`, then goes to any label of the function
    /// (the labels whose address `&&label` takes are among them).
    fn computed_goto(&mut self, goto: Node, target: Node) {
        if let Some(e) = named_children(target).first() {
            let e = match e.kind_str() {
                "pointer_expression" => e.field("argument").unwrap_or(*e),
                _ => *e,
            };
            self.effect(e);
        }
        let names = match &self.f.all_labels {
            Some(names) => names.clone(),
            None => {
                let names = self.labels_of_function(goto);
                self.f.all_labels = Some(names.clone());
                names
            }
        };
        // One opaque choice per label, the last one taken when no other is.
        let mut chain: Vec<Stmt> = Vec::new();
        for name in names.iter().rev() {
            let id = self.label(name);
            chain = if chain.is_empty() {
                vec![Stmt::Goto(id)]
            } else {
                vec![Stmt::If {
                    cond: Cond::Opaque,
                    then_branch: vec![Stmt::Goto(id)],
                    else_branch: chain,
                }]
            };
        }
        for s in chain {
            self.push_stmt(s);
        }
    }

    pub(crate) fn statement(&mut self, n: Node) {
        if self.depth >= MAX_DEPTH {
            self.unmodelled(n, "statement nested too deeply");
            return;
        }
        self.depth += 1;
        self.statement_inner(n);
        self.depth -= 1;
    }

    fn statement_inner(&mut self, n: Node) {
        match n.kind_str() {
            "compound_statement" => self.compound(n),
            "expression_statement" => {
                // (Siblings are found by a walk: look only before a `*e;`.)
                let computed = self.src.as_bytes().get(n.start_byte()) == Some(&b'*');
                if let Some(goto) = n
                    .prev_named_sibling()
                    .filter(|p| computed && self.is_computed_goto(*p))
                {
                    self.computed_goto(goto, n);
                    return;
                }
                for e in named_children(n) {
                    self.effect(e);
                }
            }
            "declaration" => self.declaration(n),
            "type_definition" => self.type_definition(n),
            "struct_specifier" | "union_specifier" | "enum_specifier" => {
                self.spec_type(n);
            }
            "if_statement" => self.if_statement(n),
            "while_statement" => self.while_statement(n),
            "do_statement" => self.do_statement(n),
            "for_statement" => self.for_statement(n),
            "switch_statement" => self.switch_statement(n),
            "return_statement" => self.return_statement(n),
            "break_statement" => self.push_stmt(Stmt::Break),
            "continue_statement" => match self.f.continues.last() {
                Some(Some(l)) => {
                    let l = *l;
                    self.push_stmt(Stmt::Goto(l))
                }
                Some(None) => self.push_stmt(Stmt::Continue),
                None => self.note(n, NoteKind::Syntax, "`continue` outside a loop ignored"),
            },
            "goto_statement" => {
                if let Some(l) = n.field("label") {
                    let id = self.label(self.text(l));
                    self.push_stmt(Stmt::Goto(id));
                }
            }
            "labeled_statement" => {
                if let Some(l) = n.field("label") {
                    let id = self.label(self.text(l));
                    self.push_stmt(Stmt::Label(id));
                }
                for c in named_children(n) {
                    if c.kind_str() != "statement_identifier" {
                        self.statement(c);
                    }
                }
            }
            "attributed_statement" => {
                for c in named_children(n) {
                    if c.kind_str() != "attribute_declaration" {
                        self.statement(c);
                    }
                }
            }
            "case_statement" => {
                self.note(
                    n,
                    NoteKind::Unsupported,
                    "case label nested inside another statement; lowered as straight-line code",
                );
                for c in case_body(n) {
                    self.statement(c);
                }
            }
            "preproc_include"
            | "preproc_def"
            | "preproc_function_def"
            | "preproc_call"
            | "comment" => {}
            "preproc_if" | "preproc_ifdef" | "preproc_elif" | "preproc_elifdef" => {
                self.note(
                    n,
                    NoteKind::Preprocessor,
                    "only the first branch of this conditional is lowered",
                );
                let skip: Vec<usize> = ["alternative", "condition", "name"]
                    .iter()
                    .filter_map(|f| n.field(f).map(|c| c.id()))
                    .collect();
                for c in named_children(n) {
                    if !skip.contains(&c.id()) {
                        self.statement(c);
                    }
                }
            }
            // Lowered with the statement after it.
            "ERROR" if self.is_computed_goto(n) => {}
            "ERROR" => {
                self.note(
                    n,
                    NoteKind::Syntax,
                    "syntax error; lowered what could be recognised",
                );
                for c in named_children(n) {
                    if c.kind_str().ends_with("statement") || c.kind_str() == "declaration" {
                        self.statement(c);
                    } else if c.kind_str().ends_with("expression") {
                        self.effect(c);
                    }
                }
            }
            k if k.ends_with("expression") || k == "identifier" => {
                self.effect(n);
            }
            _ => {
                self.unmodelled(n, &format!("`{}` statement", n.kind_str()));
            }
        }
    }

    fn if_statement(&mut self, n: Node) {
        let cond = match n.field("condition") {
            Some(c) => self.condition(c),
            None => Cond::Opaque,
        };
        let then_branch = self.block_of(|s| {
            if let Some(c) = n.field("consequence") {
                s.statement(c);
            }
        });
        let else_branch = self.block_of(|s| {
            if let Some(alt) = n.field("alternative") {
                for c in named_children(alt) {
                    s.statement(c);
                }
            }
        });
        self.push_stmt(Stmt::If {
            cond,
            then_branch,
            else_branch,
        });
    }

    /// `If(cond) {} else { break }`: the loop's exit test.
    fn exit_test(&mut self, c: Node) {
        let cond = self.condition(c);
        self.push_stmt(Stmt::If {
            cond,
            then_branch: Vec::new(),
            else_branch: vec![Stmt::Break],
        });
    }

    fn loop_body(&mut self, body: Option<Node>, continue_to: Option<pointee_ir::LabelId>) {
        self.f.continues.push(continue_to);
        if let Some(b) = body {
            self.statement(b);
        }
        self.f.continues.pop();
    }

    fn while_statement(&mut self, n: Node) {
        let body = self.block_of(|s| {
            if let Some(c) = n.field("condition") {
                s.exit_test(c);
            }
            s.loop_body(n.field("body"), None);
        });
        self.push_stmt(Stmt::Loop { body });
    }

    fn do_statement(&mut self, n: Node) {
        let b = n.field("body");
        let label = b.filter(|b| has_continue(*b)).map(|_| self.fresh_label());
        let body = self.block_of(|s| {
            s.loop_body(b, label);
            if let Some(l) = label {
                s.push_stmt(Stmt::Label(l));
            }
            if let Some(c) = n.field("condition") {
                s.exit_test(c);
            }
        });
        self.push_stmt(Stmt::Loop { body });
    }

    fn for_statement(&mut self, n: Node) {
        self.scopes.push(FxHashMap::default());
        if let Some(init) = n.field("initializer") {
            if init.kind_str() == "declaration" {
                self.declaration(init);
            } else {
                self.effect(init);
            }
        }
        let b = n.field("body");
        let update = n.field("update");
        let label = match (b, update) {
            (Some(b), Some(_)) if has_continue(b) => Some(self.fresh_label()),
            _ => None,
        };
        let body = self.block_of(|s| {
            if let Some(c) = n.field("condition") {
                s.exit_test(c);
            }
            s.loop_body(b, label);
            if let Some(l) = label {
                s.push_stmt(Stmt::Label(l));
            }
            if let Some(u) = update {
                s.effect(u);
            }
        });
        self.push_stmt(Stmt::Loop { body });
        self.scopes.pop();
    }

    fn switch_statement(&mut self, n: Node) {
        if let Some(c) = n.field("condition") {
            self.effect(c);
        }
        let mut arms = Vec::new();
        let mut has_default = false;
        self.scopes.push(FxHashMap::default());
        if let Some(body) = n.field("body") {
            for c in named_children(body) {
                if c.kind_str() == "case_statement" {
                    if c.child(0).is_some_and(|t| t.kind_str() == "default") {
                        has_default = true;
                    }
                    let arm = self.block_of(|s| {
                        for st in case_body(c) {
                            s.statement(st);
                        }
                    });
                    arms.push(arm);
                } else {
                    // Code before the first case runs only through a label;
                    // keeping it as an arm is sound.
                    let arm = self.block_of(|s| s.statement(c));
                    if !arm.is_empty() {
                        arms.push(arm);
                    }
                }
            }
        }
        self.scopes.pop();
        self.push_stmt(Stmt::Switch { arms, has_default });
    }

    fn return_statement(&mut self, n: Node) {
        if let Some(e) = named_children(n).into_iter().next() {
            let v = self.expr(e);
            match self.f.ret_var {
                Some(r) => {
                    let ty = self.f.vars[r.0 as usize].ty.clone();
                    self.assign(&Place::var(r), false, &ty, &v, range(n));
                }
                None => {
                    let _ = v;
                }
            }
        }
        self.push_stmt(Stmt::Return);
    }

    /// A block-scope variable with an optional initializer.
    pub(crate) fn local_declaration(
        &mut self,
        name: &str,
        ty: Type,
        name_node: Node,
        value: Option<Node>,
    ) {
        let id = self.new_var(name, ty.clone(), VarKind::Local, range(name_node));
        self.bind(name, Sym::Local(id, ty.clone()));
        let Some(value) = value else { return };
        let place = Place::var(id);
        if value.kind_str() == "initializer_list" {
            self.local_initializer(&place, &ty, value);
            return;
        }
        if matches!(ty, Type::Array(..)) {
            // `char s[] = "..."`: an array filled from a string holds no pointer.
            self.effect(value);
            return;
        }
        let first = self.next_stmt();
        let v = self.expr(value);
        let at = pointee_ir::Range::new(name_node.start_byte(), value.end_byte());
        let last = self.assign(&place, false, &ty, &v, at);
        self.mark_overwrites(&place, first);
        if let Some(s) = last {
            if ty.is_pointer_like() {
                self.f.exprs.replace(pointee_ir::ExprInfo {
                    range: range(name_node),
                    place,
                    point: pointee_ir::Point::After(s),
                    ty,
                });
            }
        }
    }
}

/// The statements of a `case`/`default` arm (its children after the value).
fn case_body(c: Node) -> Vec<Node> {
    let value = c.field("value").map(|v| v.id());
    named_children(c)
        .into_iter()
        .filter(|s| Some(s.id()) != value)
        .collect()
}

/// True when a `continue` in `body` belongs to the loop around it (not to a
/// nested loop).
fn has_continue(body: Node) -> bool {
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        match n.kind_str() {
            "continue_statement" => return true,
            "for_statement" | "while_statement" | "do_statement" => {}
            _ => stack.extend(named_children(n)),
        }
    }
    false
}
