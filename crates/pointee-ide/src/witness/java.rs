//! Witness inputs in Java methods: the same search as in C (the executor
//! of pointee-witness, its lazy initialisation, preconditions and bounds)
//! over the Java subset's IR, guided by the Java analysis's points-to sets.
//!
//! What the executor needs beyond the Java lowering's IR:
//! - Branch conditions come from the lowering itself (`lower/cond.rs`:
//!   null tests, integer comparisons, `!`, `&&`, `||`, a tested field
//!   loaded into a temporary); they are used as they are.
//! - Reads through references that move no reference and that no
//!   statement makes (`return a.v` in a method whose result is not
//!   stored): a `Use` is added where the read happens (before the
//!   `return`, or after the statement before it), with the expression's
//!   range, so that they can be searched ([`Prepared`]).
//! - The receiver: `this` is never null (`requires this != NULL` joins
//!   the method's precondition).
//!
//! The Java analysis says nothing about null (no set holds it), so its
//! sets prune only the other candidates: a fresh object where a reached
//! method's set is empty, and aliasing between inputs whose sets are
//! disjoint.

use super::*;
use crate::java::JavaProgram;
use pointee_ir::{Block, ExprInfo, Stmt};
use std::collections::HashMap;
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
    let mut text = annotations(&a.file_text(pos.file), &source.functions, fs)
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
    let prepared = Prepared::new(a, &m.jp);
    let program = &prepared.program;
    let fs = prepared.source(&m.jp, &m.name).map_or(m.fs, |(_, fs)| fs);
    let f = program
        .function(&m.name)
        .ok_or(WitnessError::NotInFunction)?;
    let cursor: Option<Place> =
        m.jp.source_map(pos.file)
            .and_then(|s| s.expr_at(pos.offset))
            .map(|(_, e)| e.place.clone())
            .filter(|p| !p.deref && p.path.is_empty());
    let (stmt, pointer) = dereference_at(f, fs, pos.offset, cursor.as_ref())?;
    let target = pointee_witness::Target {
        stmt,
        pointer: pointer.clone(),
    };
    let query = query(m.name.clone(), Some(target), options, m.spec.clone());
    let outcome = pointee_witness::find(program, &query, &mut JavaFacts { jp: &m.jp });
    let path = path_steps(&outcome, |name| prepared.source(&m.jp, name));
    Ok(WitnessAnswer {
        function: m.fs.name.to_string(),
        stmt: FileRange {
            file: pos.file,
            range: fs.stmts.get(stmt.0 as usize).copied().unwrap_or_default(),
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
    let program = Prepared::new(a, &m.jp).program;
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

/// The program prepared for the executor (see the module's doc), and the
/// source of each method it changed (with the reads it added).
struct Prepared {
    program: Program,
    sources: HashMap<Name, (FileId, FunctionSource)>,
}

impl Prepared {
    fn new(a: &Analysis, jp: &JavaProgram) -> Prepared {
        let mut program = jp.jp.program.clone();
        let mut sources = HashMap::new();
        for f in &mut program.functions {
            let Some((file, fs)) = jp.function_source(&f.name) else {
                continue;
            };
            if let Some((g, gs)) = prepare(a, file, f, fs) {
                *f = std::sync::Arc::new(g);
                sources.insert(f.name.clone(), (file, gs));
            }
        }
        Prepared { program, sources }
    }

    /// Where a method is, with the statements this preparation added.
    fn source<'s>(
        &'s self,
        jp: &JavaProgram<'s>,
        name: &str,
    ) -> Option<(FileId, &'s FunctionSource)> {
        match self.sources.get(name) {
            Some((file, fs)) => Some((*file, fs)),
            None => jp.function_source(name),
        }
    }
}

/// Where a read the lowering dropped goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum At {
    After(StmtId),
    Before(StmtId),
    /// Before the `Return` with this pre-order number (a read of a
    /// `return` or `throw` statement).
    BeforeReturn(usize),
}

/// Method `f` (its source `fs` in `file`) with its dropped reads through
/// references, or `None` when there are none.
fn prepare(
    a: &Analysis,
    file: FileId,
    f: &pointee_ir::Function,
    fs: &FunctionSource,
) -> Option<(pointee_ir::Function, FunctionSource)> {
    let tree = pointee_db::syntax_tree(a.db(), file).as_ref()?;
    let (start, end) = (fs.range.start as usize, fs.range.end as usize);
    let node = tree.0.root_node().descendant_for_byte_range(start, end)?;
    let text = a.file_text(file);
    // The reads through a reference that no statement makes. A
    // condition's reads are the lowering's (a tested field is loaded).
    let covered = covered_reads(f, fs);
    let mut in_conditions: Vec<Range> = Vec::new();
    condition_ranges(node, &mut in_conditions);
    let mut reads: Vec<(At, Place, Range)> = Vec::new();
    // The `return` and `throw` statements, matched with the `Return`s
    // (the lowering adds one at the end of a method).
    let mut exits = Vec::new();
    exit_statements(node, &mut exits);
    let ir_exits = count(&f.body, &|s| matches!(s, Stmt::Return));
    let exits_matched = ir_exits == exits.len() || ir_exits == exits.len() + 1;
    let mut fields = Vec::new();
    field_accesses(node, &mut fields);
    for n in fields {
        let r = range_of(n);
        if in_conditions
            .iter()
            .any(|c| c.start <= r.start && r.end <= c.end)
        {
            continue;
        }
        let Some((p, r)) = deref_read(n, &fs.exprs, &text) else {
            continue;
        };
        let exit = exits
            .iter()
            .position(|e| e.start_byte() <= n.start_byte() && n.end_byte() <= e.end_byte());
        let at = match exit {
            Some(k) if exits_matched => Some(At::BeforeReturn(k)),
            Some(_) => None,
            None => place_between(f, fs, r),
        };
        if let Some(at) = at {
            reads.push((at, p, r));
        }
    }
    reads.retain(|(_, p, r)| {
        !covered
            .iter()
            .any(|(cr, cp)| cr.touches(r.start) && cp.base == p.base)
    });
    if reads.is_empty() {
        return None;
    }
    let mut g = f.clone();
    let mut gs = fs.clone();
    let mut added: Vec<(At, Stmt)> = Vec::new();
    for (at, p, r) in reads {
        let id = StmtId(g.stmt_count);
        g.stmt_count += 1;
        gs.stmts.push(r);
        added.push((at, Stmt::Basic(id, Basic::Use(p))));
    }
    g.body = rebuild(std::mem::take(&mut g.body), &mut 0, &added);
    Some((g, gs))
}

/// The ranges of the branch conditions under `n` (not in lambdas or
/// class bodies).
fn condition_ranges(n: Node, out: &mut Vec<Range>) {
    let mut c = n.walk();
    for k in n.named_children(&mut c) {
        match k.kind() {
            "lambda_expression" | "class_body" => continue,
            "if_statement" | "while_statement" | "do_statement" | "for_statement"
            | "ternary_expression" => {
                out.extend(k.child_by_field_name("condition").map(range_of));
            }
            _ => {}
        }
        condition_ranges(k, out);
    }
}

fn range_of(n: Node) -> Range {
    Range::new(n.start_byte(), n.end_byte())
}

/// (statement range, pointer) for every dereference a statement makes.
fn covered_reads(f: &pointee_ir::Function, fs: &FunctionSource) -> Vec<(Range, Place)> {
    let mut out = Vec::new();
    for_each_basic(&f.body, &mut |id, b| {
        if let Some(r) = fs.stmts.get(id.0 as usize) {
            out.extend(dereferenced(b).into_iter().map(|p| (*r, p)));
        }
    });
    out
}

/// The `field_access` nodes under `n` (not in lambdas or class bodies,
/// which are other functions), in source order.
fn field_accesses<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut c = n.walk();
    for k in n.named_children(&mut c) {
        match k.kind() {
            "lambda_expression" | "class_body" => {}
            "field_access" => {
                field_accesses(k, out);
                out.push(k);
            }
            _ => field_accesses(k, out),
        }
    }
}

/// The read `o.f` makes through the reference `o`, as a place of one
/// dereference, and its range; `None` for `this` (never null) or a
/// reference the source map does not name as a variable.
fn deref_read(n: Node, exprs: &[ExprInfo], text: &str) -> Option<(Place, Range)> {
    let object = n.child_by_field_name("object")?;
    if object.kind() == "this" {
        return None;
    }
    let field = text.get(n.child_by_field_name("field")?.byte_range())?;
    let place = match place_of(n, exprs) {
        Some(p) if p.deref => p,
        _ => match place_of(object, exprs)? {
            p if !p.deref && p.path.is_empty() => Place {
                deref: true,
                path: vec![pointee_ir::Sel::Field(field.into())],
                ..p
            },
            _ => return None,
        },
    };
    Some((place, range_of(n)))
}

/// Where a read at `r` outside conditions goes: right after the last
/// statement before it when the first statement after it is in the same
/// block (or either is missing and the other is at the top); `None`
/// where blocks differ (the read is then not searched).
fn place_between(f: &pointee_ir::Function, fs: &FunctionSource, r: Range) -> Option<At> {
    let mut blocks: HashMap<StmtId, usize> = HashMap::new();
    number_blocks(&f.body, &mut 0, &mut blocks);
    let range = |id: &StmtId| fs.stmts.get(id.0 as usize).copied();
    let before = blocks
        .keys()
        .filter(|id| range(id).is_some_and(|x| x.end <= r.start))
        .max_by_key(|id| (range(id).map(|x| x.end), id.0))
        .copied();
    let after = blocks
        .keys()
        .filter(|id| range(id).is_some_and(|x| x.start >= r.end))
        .min_by_key(|id| (range(id).map(|x| x.start), id.0))
        .copied();
    match (before, after) {
        (Some(a), Some(b)) if blocks[&a] == blocks[&b] => Some(At::After(a)),
        (None, Some(b)) if blocks[&b] == 0 => Some(At::Before(b)),
        (Some(a), None) if blocks[&a] == 0 => Some(At::After(a)),
        _ => None,
    }
}

/// Numbers the blocks of `b` (the top one is 0) and says which block
/// each basic statement is in.
fn number_blocks(b: &Block, next: &mut usize, out: &mut HashMap<StmtId, usize>) {
    let me = *next;
    *next += 1;
    for s in b {
        match s {
            Stmt::Basic(id, _) => {
                out.insert(*id, me);
            }
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => {
                number_blocks(then_branch, next, out);
                number_blocks(else_branch, next, out);
            }
            Stmt::Loop { body } => number_blocks(body, next, out),
            Stmt::Switch { arms, .. } => arms.iter().for_each(|a| number_blocks(a, next, out)),
            _ => {}
        }
    }
}

/// `b` with the added reads where they go (`returns` counts the
/// `Return`s in pre-order).
fn rebuild(b: Block, returns: &mut usize, added: &[(At, Stmt)]) -> Block {
    let at = |want: At| {
        added
            .iter()
            .filter(move |(a, _)| *a == want)
            .map(|(_, s)| s.clone())
    };
    let mut out = Vec::new();
    for s in b {
        match s {
            Stmt::Basic(id, basic) => {
                out.extend(at(At::Before(id)));
                out.push(Stmt::Basic(id, basic));
                out.extend(at(At::After(id)));
            }
            Stmt::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let then_branch = rebuild(then_branch, returns, added);
                let else_branch = rebuild(else_branch, returns, added);
                out.push(Stmt::If {
                    cond,
                    then_branch,
                    else_branch,
                });
            }
            Stmt::Loop { body } => out.push(Stmt::Loop {
                body: rebuild(body, returns, added),
            }),
            Stmt::Switch { arms, has_default } => out.push(Stmt::Switch {
                arms: arms
                    .into_iter()
                    .map(|a| rebuild(a, returns, added))
                    .collect(),
                has_default,
            }),
            Stmt::Return => {
                out.extend(at(At::BeforeReturn(*returns)));
                *returns += 1;
                out.push(Stmt::Return);
            }
            other => out.push(other),
        }
    }
    out
}

/// The `return` and `throw` statements under `n` in source order (each
/// lowers to a `Return`), not those of lambdas and class bodies.
fn exit_statements<'t>(n: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut c = n.walk();
    for k in n.named_children(&mut c) {
        match k.kind() {
            "lambda_expression" | "class_body" => {}
            "return_statement" | "throw_statement" => out.push(k),
            _ => exit_statements(k, out),
        }
    }
}

/// How many statements of `b`, nested ones included, are `which`.
fn count(b: &Block, which: &dyn Fn(&Stmt) -> bool) -> usize {
    b.iter()
        .map(|s| {
            usize::from(which(s))
                + match s {
                    Stmt::If {
                        then_branch,
                        else_branch,
                        ..
                    } => count(then_branch, which) + count(else_branch, which),
                    Stmt::Loop { body } => count(body, which),
                    Stmt::Switch { arms, .. } => arms.iter().map(|a| count(a, which)).sum(),
                    _ => 0,
                }
        })
        .sum()
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{AnalysisHost, Config};

    /// The lowering's conditions are kept as they are (its null tests,
    /// a tested field loaded into a temporary under the left side of
    /// `&&`); a read no statement makes gets a `use`.
    #[test]
    fn a_method_keeps_its_null_tests_and_gets_its_dropped_reads() {
        let text = "class N { N next; int v; }
class L {
    static int f(N a, N b) {
        if (a != null && a.next == null || !(b == null)) {
            return a.v;
        }
        while (b.next != null) { b = b.next; }
        return 0;
    }
}
";
        let host = AnalysisHost::with_files([("L.java", text)], Config::default());
        let a = host.analysis();
        let file = a.file_id("L.java").unwrap();
        let jp = JavaProgram::of(&a, file).unwrap();
        let prepared = Prepared::new(&a, &jp);
        let f = prepared.program.function("L.f(N,N)").unwrap();
        let body = f.body_to_string();
        let expected = "  if (a != NULL) {
    t1 = (*a).next
  }
  if (((a != NULL && t1 == NULL) || b != NULL)) {
    use (*a).v
    return
  }
  loop {
    t2 = (*b).next
    if (t2 != NULL) {
    } else {
      break
    }
    b = (*b).next
  }
  return
";
        assert_eq!(body, expected);
        // The added read has the range of its expression.
        let (_, fs) = prepared.source(&jp, "L.f(N,N)").unwrap();
        let added: Vec<&str> = fs.stmts[f.stmt_count as usize - 1..]
            .iter()
            .map(|r| &text[r.start as usize..r.end as usize])
            .collect();
        assert_eq!(added, ["a.v"]);
    }
}
