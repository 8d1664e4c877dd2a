//! Integers for the witness executor (pointee-witness): Java's integer and
//! boolean locals and instance fields, their stores and their comparisons,
//! as the IR's `Rvalue::Int` and `Cond::Compare` (C's front end makes the
//! same forms). The pointer analysis ignores both (they move no
//! reference), so its results do not change.
//!
//! Every store to such a place is kept, so that a comparison never reads a
//! stale value: a value not expressed (a call's result, an array element, a
//! static field, a float, a shift, `i++` as a value) is stored as `scalar`
//! (any integer). Array elements and static fields are never compared
//! (their stores are not all kept), so a test on them stays opaque.

use super::*;
use pointee_ir::{CmpOp, IntExpr, IntOp, Operand};

/// A primitive the executor counts with: integers, `char` and `boolean`
/// (`false` is 0, `true` 1); not floats.
pub(super) fn is_int_type(ty: &JType) -> bool {
    matches!(
        ty,
        JType::Prim("int" | "long" | "short" | "byte" | "char" | "boolean")
    )
}

/// A place whose every store is lowered: a local or an instance field.
fn is_int_place(p: &Place) -> bool {
    match (&p.base, p.deref, p.path.as_slice()) {
        (Base::Var(_), false, []) => true,
        (Base::Var(_), true, [pointee_ir::Sel::Field(_)]) => true,
        _ => false,
    }
}

pub(super) fn int_const(k: i64) -> IntExpr {
    IntExpr::Operand(Operand::Int(k))
}

/// The integer expression a lowered value is, when it has one.
pub(super) fn int_of(ev: &Ev) -> Option<IntExpr> {
    match &ev.kind {
        EvK::Rv(Rvalue::Int(e)) => Some(e.clone()),
        EvK::Place(p) if is_int_type(&ev.ty) && is_int_place(p) => {
            Some(IntExpr::Operand(Operand::Place(p.clone())))
        }
        _ => None,
    }
}

/// `l op r` on integers, when both sides are expressed and `op` is
/// arithmetic on an integer type `ty`.
pub(super) fn int_arith(l: Option<IntExpr>, op: &str, r: Option<IntExpr>, ty: &JType) -> Rvalue {
    match (l, IntOp::from_token(op), r) {
        (Some(a), Some(op), Some(b)) if is_int_type(ty) && *ty != JType::Prim("boolean") => {
            Rvalue::Int(IntExpr::Bin(Box::new(a), op, Box::new(b)))
        }
        _ => Rvalue::Scalar,
    }
}

impl<'a, 'h> Fb<'a, 'h> {
    /// `lhs = value` where `lhs` is an integer local or instance field of
    /// type `ty` (nothing for other places).
    pub(super) fn store_int(&mut self, lhs: Place, ty: &JType, value: Option<IntExpr>, at: Range) {
        if !is_int_type(ty) || !is_int_place(&lhs) {
            return;
        }
        let rhs = value.map_or(Rvalue::Scalar, Rvalue::Int);
        self.emit(Basic::Assign { lhs, rhs }, at);
    }

    /// `x++`, `--x`, ... on an integer place: the store (the expression's
    /// own value is not expressed).
    pub(super) fn int_update(&mut self, ev: &Ev, node: Node) {
        let (EvK::Place(p), Some(e)) = (&ev.kind, int_of(ev)) else {
            return;
        };
        let op = if text(node, self.src).contains("++") {
            IntOp::Add
        } else {
            IntOp::Sub
        };
        let value = IntExpr::Bin(Box::new(e), op, Box::new(int_const(1)));
        self.store_int(p.clone(), &ev.ty.clone(), Some(value), range(node));
    }

    /// `l op r` for a comparison not with `null`: an integer `Compare`
    /// when both sides are expressed, else opaque (`p == q`). A field side
    /// is read into a temporary first (the read a witness can fault on).
    pub(super) fn comparison(&mut self, l: Node<'a>, r: Node<'a>, op: &str) -> Cond {
        let lv = self.expr(l, None);
        let rv = self.expr(r, None);
        let at = Range::new(range(l).start as usize, range(r).end as usize);
        self.unbox_operands(op, &lv, &rv, at);
        let (Some(a), Some(op), Some(b)) = (int_of(&lv), CmpOp::from_token(op), int_of(&rv)) else {
            return Cond::Opaque;
        };
        let a = self.int_operand(a, range(l));
        let b = self.int_operand(b, range(r));
        Cond::Compare(a, op, b)
    }

    /// A boolean tested as such (`if (done)`, `while (n.marked)`).
    pub(super) fn truth(&mut self, node: Node<'a>) -> Cond {
        let ev = self.expr(node, None);
        self.unbox(&ev, range(node));
        match int_of(&ev) {
            Some(e) if ev.ty == JType::Prim("boolean") => {
                let o = self.int_operand(e, range(node));
                Cond::Compare(o, CmpOp::Ne, Operand::Int(0))
            }
            _ => Cond::Opaque,
        }
    }

    /// An operand holding the integer expression: a constant or a local as
    /// it is, else a temporary.
    fn int_operand(&mut self, e: IntExpr, at: Range) -> Operand {
        match e {
            IntExpr::Operand(o @ Operand::Int(_)) => o,
            IntExpr::Operand(Operand::Place(p)) if !p.deref => Operand::Place(p),
            e => {
                let t = self.temp(JType::int(), at);
                self.var_at(Ev::rv(Rvalue::Int(e), JType::int()), at, Some(t));
                Operand::Place(Place::var(t))
            }
        }
    }
}
