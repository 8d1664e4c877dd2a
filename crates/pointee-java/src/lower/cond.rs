//! Branch conditions: the null tests of an `if`, `while`, `for` or `do`
//! condition kept as the IR's `Cond` (`x != null`, `x == null`, `!`, `&&`,
//! `||`, parentheses), so that the checkers can tell a guarded
//! dereference, and integer comparisons and boolean tests for the witness
//! executor (`int.rs`). The analysis itself stays flow-insensitive.
//!
//! `a && b`: `b`'s effects (its loads, `a.f` in `a != null && a.f != null`)
//! are lowered under `a`'s test, in an `If` of their own, as C's front end
//! does; `a || b` under `a`'s negation. Java's locals change only by
//! assignment in their own method, so the left test always holds there.

use super::*;

impl<'a, 'h> Fb<'a, 'h> {
    /// Lowers a condition's effects and returns what it tests.
    pub(super) fn condition(&mut self, node: Node<'a>) -> Cond {
        match node.sym() {
            "parenthesized_expression" => match node.named_child(0) {
                Some(inner) => self.condition(inner),
                None => Cond::Opaque,
            },
            "unary_expression"
                if node.field("operator").map(|o| text(o, self.src)) == Some("!") =>
            {
                match node.field("operand") {
                    Some(inner) => self.condition(inner).negate(),
                    None => Cond::Opaque,
                }
            }
            "binary_expression" => {
                let op = node.field("operator").map(|o| text(o, self.src));
                let (Some(l), Some(r)) = (node.field("left"), node.field("right")) else {
                    self.expr(node, None);
                    return Cond::Opaque;
                };
                match op {
                    Some("&&") | Some("||") => {
                        let left = self.condition(l);
                        let and = op == Some("&&");
                        let mut right = Cond::Opaque;
                        let effects = self.sub_block(|s| right = s.condition(r));
                        if !effects.is_empty() {
                            let under = if and {
                                left.clone()
                            } else {
                                left.clone().negate()
                            };
                            self.push_stmt(Stmt::If {
                                cond: under,
                                then_branch: effects,
                                else_branch: Vec::new(),
                            });
                        }
                        if and {
                            Cond::and(left, right)
                        } else {
                            Cond::or(left, right)
                        }
                    }
                    Some("==") | Some("!=") if is_null(l) || is_null(r) => {
                        let other = if is_null(l) { r } else { l };
                        // A field or element is loaded into a temporary
                        // (the checkers see its dereference and a later
                        // re-load of the same place); a static field is
                        // not tested.
                        let ev = self.expr(other, None);
                        let var = match &ev.kind {
                            EvK::Place(p) if p.deref || matches!(p.base, Base::Var(_)) => {
                                self.var_of(ev, other, None)
                            }
                            _ => None,
                        };
                        match (var, op) {
                            (Some(v), Some("==")) => Cond::IsNull(Place::var(v)),
                            (Some(v), _) => Cond::NotNull(Place::var(v)),
                            (None, _) => Cond::Opaque,
                        }
                    }
                    Some(op @ ("==" | "!=" | "<" | "<=" | ">" | ">=")) => self.comparison(l, r, op),
                    _ => {
                        self.expr(node, None);
                        Cond::Opaque
                    }
                }
            }
            _ => self.truth(node),
        }
    }
}

fn is_null(node: Node) -> bool {
    node.sym() == "null_literal"
}
