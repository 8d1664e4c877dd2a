//! Witness inputs in Java methods: the same search as in C (the executor
//! of pointee-witness, its lazy initialisation, preconditions and bounds)
//! over the Java subset's IR, guided by the Java analysis's points-to sets.
//!
//! Two things the executor needs that the Java lowering does not give:
//! - Branch conditions. The Java IR keeps every condition opaque (its
//!   analysis is flow-insensitive), so [`with_conditions`] reads each
//!   branch's condition from the syntax tree: `x == null`, `x != null`,
//!   `!`, `&&`, `||` over places the source map names (`ExprInfo`); any
//!   other condition stays opaque. The Ifs of a method are matched with
//!   their conditions in the order the lowering makes them; where the
//!   counts differ (a construct walked otherwise), the method keeps its
//!   opaque conditions, which is safe (both sides are taken, as assumed).
//! - The receiver: `this` is never null (`requires this != NULL` joins
//!   the method's precondition).
//!
//! The Java analysis says nothing about null (no set holds it), so its
//! sets prune only the other candidates: a fresh object where a reached
//! method's set is empty, and aliasing between inputs whose sets are
//! disjoint.

use super::*;
use crate::java::JavaProgram;
use pointee_ir::{Block, Cond, ExprInfo, Stmt};
use tree_sitter::Node;

/// The Java method around `pos`, its program and source.
struct Method<'a> {
    jp: JavaProgram<'a>,
    fs: &'a FunctionSource,
    /// pointee's name of the method.
    name: Name,
    is_static: bool,
    spec: Option<Spec>,
}

fn method_at<'a>(
    a: &'a Analysis,
    pos: FilePosition,
    preconditions: bool,
) -> Result<Method<'a>, WitnessError> {
    let jp = JavaProgram::of(a, pos.file).ok_or(WitnessError::NotC)?;
    let source = jp.source_map(pos.file).ok_or(WitnessError::NotC)?;
    let fs = source
        .functions
        .iter()
        .filter(|fs| fs.range.contains(pos.offset))
        .min_by_key(|fs| fs.range.len())
        .ok_or(WitnessError::NotInFunction)?;
    let f = jp
        .jp
        .program
        .function(&fs.name)
        .ok_or(WitnessError::NotInFunction)?;
    let after = source
        .functions
        .iter()
        .map(|g| g.range.end)
        .filter(|&e| e <= fs.range.start)
        .max()
        .unwrap_or(0);
    let mut text = annotations(&a.file_text(pos.file), after, fs.range.start)
        .filter(|_| preconditions)
        .unwrap_or_default();
    if !f.is_static {
        // Java never runs an instance method on null.
        text.push_str("requires this != NULL\n");
    }
    let spec = (!text.is_empty())
        .then(|| pointee_witness::spec::parse(&text))
        .transpose()
        .map_err(WitnessError::Annotation)?;
    Ok(Method {
        name: f.name.clone(),
        is_static: f.is_static,
        jp,
        fs,
        spec,
    })
}

impl Method<'_> {
    fn java(&self) -> JavaMethod {
        JavaMethod {
            name: self.name.clone(),
            is_static: self.is_static,
        }
    }
}

/// The Java analysis's sets as the executor sees them.
struct JavaFacts<'a> {
    jp: &'a JavaProgram<'a>,
}

impl pointee_witness::Facts for JavaFacts<'_> {
    fn pointees(
        &mut self,
        function: &str,
        _: Point,
        place: &Place,
    ) -> Option<Vec<pointee_witness::Pointee>> {
        // Flow-insensitive: the same set at every point. Null is never in
        // a set, so it always stays a candidate.
        let set = self.jp.objects(function, place)?;
        Some(
            std::iter::once(pointee_witness::Pointee::Null)
                .chain(set.iter().map(pointee_witness::Pointee::Loc))
                .collect(),
        )
    }

    fn check_cancelled(&mut self) {
        pointee_db::salsa::Database::unwind_if_revision_cancelled(self.jp.db());
    }
}

pub(super) fn witness(
    a: &Analysis,
    pos: FilePosition,
    options: WitnessOptions,
) -> Result<WitnessAnswer, WitnessError> {
    let m = method_at(a, pos, options.preconditions)?;
    let program = with_conditions(a, &m.jp);
    let f = program
        .function(&m.name)
        .ok_or(WitnessError::NotInFunction)?;
    let cursor: Option<Place> =
        m.jp.source_map(pos.file)
            .and_then(|s| s.expr_at(pos.offset))
            .map(|(_, e)| e.place.clone())
            .filter(|p| !p.deref && p.path.is_empty());
    let (stmt, pointer) = dereference_at(f, m.fs, pos.offset, cursor.as_ref())?;
    let target = pointee_witness::Target {
        stmt,
        pointer: pointer.clone(),
    };
    let query = query(m.name.clone(), Some(target), options, m.spec.clone());
    let outcome = pointee_witness::find(&program, &query, &mut JavaFacts { jp: &m.jp });
    let path = path_steps(&outcome, |name| m.jp.function_source(name));
    Ok(WitnessAnswer {
        function: m.fs.name.to_string(),
        stmt: FileRange {
            file: pos.file,
            range: m.fs.stmts.get(stmt.0 as usize).copied().unwrap_or_default(),
        },
        pointer: pointee_ir_place_text(f, &pointer),
        outcome,
        path,
        options,
        java: Some(m.java()),
    })
}

pub(super) fn inputs(
    a: &Analysis,
    pos: FilePosition,
    options: WitnessOptions,
) -> Result<Inputs, WitnessError> {
    let m = method_at(a, pos, options.preconditions)?;
    let program = with_conditions(a, &m.jp);
    let query = query(m.name.clone(), None, options, m.spec.clone());
    let (inputs, stats, exhausted) =
        pointee_witness::generate(&program, &query, &mut JavaFacts { jp: &m.jp })
            .ok_or(WitnessError::NotInFunction)?;
    Ok(Inputs {
        function: m.fs.name.to_string(),
        inputs,
        stats,
        exhausted,
        java: Some(m.java()),
    })
}

/// The program with each method's branch conditions read from its source
/// where they test references against null (see the module's doc).
fn with_conditions(a: &Analysis, jp: &JavaProgram) -> Program {
    let mut program = jp.jp.program.clone();
    for f in &mut program.functions {
        let Some((file, fs)) = jp.function_source(&f.name) else {
            continue;
        };
        let Some(tree) = pointee_db::syntax_tree(a.db(), file) else {
            continue;
        };
        let (start, end) = (fs.range.start as usize, fs.range.end as usize);
        let Some(node) = tree.0.root_node().descendant_for_byte_range(start, end) else {
            continue;
        };
        let mut found = Vec::new();
        let mut c = node.walk();
        for k in node.named_children(&mut c) {
            conditions(k, &mut found);
        }
        if found.len() != count_ifs(&f.body) {
            continue;
        }
        let text = a.file_text(file);
        let mut conds = found
            .into_iter()
            .map(|n| n.map_or(Cond::Opaque, |n| cond_of(n, &fs.exprs, &text)));
        let mut g = (**f).clone();
        set_conditions(&mut g.body, &mut || conds.next().unwrap_or(Cond::Opaque));
        *f = std::sync::Arc::new(g);
    }
    program
}

/// The condition nodes of the branches under `n`, in the order the Java
/// lowering makes their `If`s (the IR's pre-order): a condition's own
/// branches (ternaries) first, then the branch, then its arms. `None` for
/// a branch without a source condition (a `catch`, a for-each's exit).
/// Lambdas and class bodies are other functions.
fn conditions<'t>(n: Node<'t>, out: &mut Vec<Option<Node<'t>>>) {
    let field = |f: &str| n.child_by_field_name(f);
    let walk = |k: Option<Node<'t>>, out: &mut Vec<Option<Node<'t>>>| {
        if let Some(k) = k {
            conditions(k, out);
        }
    };
    match n.kind() {
        "if_statement" | "ternary_expression" => {
            walk(field("condition"), out);
            out.push(field("condition"));
            walk(field("consequence"), out);
            walk(field("alternative"), out);
        }
        "while_statement" => {
            walk(field("condition"), out);
            out.push(field("condition"));
            walk(field("body"), out);
        }
        "do_statement" => {
            walk(field("body"), out);
            walk(field("condition"), out);
            out.push(field("condition"));
        }
        "for_statement" => {
            let mut c = n.walk();
            for i in n.children_by_field_name("init", &mut c) {
                conditions(i, out);
            }
            if let Some(cond) = field("condition") {
                conditions(cond, out);
                out.push(Some(cond));
            }
            walk(field("body"), out);
            let mut c = n.walk();
            for u in n.children_by_field_name("update", &mut c) {
                conditions(u, out);
            }
        }
        "enhanced_for_statement" => {
            walk(field("value"), out);
            out.push(None);
            walk(field("body"), out);
        }
        "catch_clause" => {
            out.push(None);
            let mut c = n.walk();
            for k in n.named_children(&mut c) {
                conditions(k, out);
            }
        }
        "lambda_expression"
        | "class_body"
        | "class_declaration"
        | "local_class_declaration"
        | "interface_declaration"
        | "enum_declaration"
        | "record_declaration" => {}
        _ => {
            let mut c = n.walk();
            for k in n.named_children(&mut c) {
                conditions(k, out);
            }
        }
    }
}

fn count_ifs(b: &Block) -> usize {
    b.iter()
        .map(|s| match s {
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => 1 + count_ifs(then_branch) + count_ifs(else_branch),
            Stmt::Loop { body } => count_ifs(body),
            Stmt::Switch { arms, .. } => arms.iter().map(count_ifs).sum(),
            _ => 0,
        })
        .sum()
}

/// Gives the `If`s of `b`, in pre-order, the conditions `next` makes.
fn set_conditions(b: &mut Block, next: &mut dyn FnMut() -> Cond) {
    for s in b {
        match s {
            Stmt::If {
                cond,
                then_branch,
                else_branch,
            } => {
                *cond = next();
                set_conditions(then_branch, next);
                set_conditions(else_branch, next);
            }
            Stmt::Loop { body } => set_conditions(body, next),
            Stmt::Switch { arms, .. } => arms.iter_mut().for_each(|a| set_conditions(a, next)),
            _ => {}
        }
    }
}

/// What a condition tests about references, as far as null tests go.
fn cond_of(n: Node, exprs: &[ExprInfo], text: &str) -> Cond {
    let op = || {
        n.child_by_field_name("operator")
            .and_then(|o| text.get(o.byte_range()))
            .unwrap_or("")
    };
    let side = |f: &str| n.child_by_field_name(f);
    match n.kind() {
        "parenthesized_expression" => n
            .named_child(0)
            .map_or(Cond::Opaque, |k| cond_of(k, exprs, text)),
        "unary_expression" if op() == "!" => {
            side("operand").map_or(Cond::Opaque, |k| cond_of(k, exprs, text).negate())
        }
        "binary_expression" => {
            let (Some(l), Some(r)) = (side("left"), side("right")) else {
                return Cond::Opaque;
            };
            match op() {
                "&&" => Cond::and(cond_of(l, exprs, text), cond_of(r, exprs, text)),
                "||" => Cond::or(cond_of(l, exprs, text), cond_of(r, exprs, text)),
                eq @ ("==" | "!=") => {
                    let other = match (l.kind(), r.kind()) {
                        (_, "null_literal") => l,
                        ("null_literal", _) => r,
                        _ => return Cond::Opaque,
                    };
                    match place_of(other, exprs) {
                        Some(p) if eq == "==" => Cond::IsNull(p),
                        Some(p) => Cond::NotNull(p),
                        None => Cond::Opaque,
                    }
                }
                _ => Cond::Opaque,
            }
        }
        _ => Cond::Opaque,
    }
}

/// The place that holds the value of the reference expression `n`.
fn place_of(mut n: Node, exprs: &[ExprInfo]) -> Option<Place> {
    while n.kind() == "parenthesized_expression" {
        n = n.named_child(0)?;
    }
    let (start, end) = (n.start_byte() as u32, n.end_byte() as u32);
    exprs
        .iter()
        .find(|e| e.range.start == start && e.range.end == end)
        .map(|e| e.place.clone())
}
