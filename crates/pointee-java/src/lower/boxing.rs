//! Boxing: a primitive converted to a reference (`Object o = 5`,
//! `Integer.valueOf(x)`, an `int` argument for an `Object` parameter, ...)
//! is an object of its box class. `valueOf` caches small values (JLS 5.1.7:
//! `true`/`false`, every byte, `char` 0..127, `short`, `int` and `long`
//! -128..127), so a box of a constant in that range is the one cached object
//! of that value, read from the global `Integer.<cache 5>`; any other box
//! may be a fresh object (made here) or any cached one (`Integer.<cache>`,
//! which holds every cached object, one standing for the values the program
//! never names). Each file's box pool (see `lib.rs`) makes the cached
//! objects; the library, which may box values itself, holds them too.

use super::*;

/// The values `valueOf` of a box class always caches.
fn cached(class: &str, v: i64) -> bool {
    match class {
        "Boolean" => (0..=1).contains(&v),
        "Character" => (0..=127).contains(&v),
        "Byte" | "Short" | "Integer" | "Long" => (-128..=127).contains(&v),
        _ => false,
    }
}

/// A box class whose every value is cached (a box of it is never fresh).
fn always_cached(class: &str) -> bool {
    matches!(class, "Boolean" | "Byte")
}

/// The global holding the cached box of `value` (`Integer.<cache 5>`), or
/// every cached box of the class (`Integer.<cache>`).
pub fn cache_global(class: &str, value: Option<i64>) -> String {
    match value {
        Some(v) => format!("{class}.<cache {v}>"),
        None => format!("{class}.<cache>"),
    }
}

impl<'a, 'h> Fb<'a, 'h> {
    /// `ev` converted for a place of type `target`: boxed when it is a
    /// primitive and `target` a reference (`node` is the expression, whose
    /// value decides whether the box is a cached one).
    pub(super) fn boxed(&mut self, ev: Ev, target: &JType, node: Node) -> Ev {
        match ev.ty {
            JType::Prim(p) if p != "void" && target.is_ref() && *target != JType::Null => {
                let value = constant::int_value(node, self.src);
                self.box_value(p, target, value, range(node))
            }
            _ => ev,
        }
    }

    /// A box of a `prim` value (`value` when a constant) for a place of type
    /// `target` (a box class there decides: `Short s = 5`).
    pub(super) fn box_value(
        &mut self,
        prim: &str,
        target: &JType,
        value: Option<i64>,
        at: Range,
    ) -> Ev {
        let class = match target {
            JType::Class(c) if unboxed(c).is_some() => c.clone(),
            _ => box_class(prim).to_string(),
        };
        let ty = JType::Class(class.clone());
        let value = value.filter(|v| cached(&class, *v));
        self.pools.boxes.push((class.clone(), value, at));
        // Boxes are the library's objects.
        self.uses_library = true;
        if value.is_some() {
            return Ev::place(Place::global(cache_global(&class, value).into()), ty);
        }
        let t = self.temp(ty.clone(), at);
        if !always_cached(&class) {
            let site = self.site(at, SiteKind::New);
            self.emit(
                Basic::Assign {
                    lhs: Place::var(t),
                    rhs: Rvalue::New(site, class.as_str().into()),
                },
                at,
            );
        }
        self.emit(
            Basic::Assign {
                lhs: Place::var(t),
                rhs: Rvalue::Use(Place::global(cache_global(&class, None).into())),
            },
            at,
        );
        Ev::var(t, ty)
    }

    /// Boxes the primitive arguments passed for reference parameters, and
    /// unboxes the boxes passed for primitive parameters (`twice(boxed)`).
    pub(super) fn box_args(&mut self, args: &mut [Arg], params: &[(String, JType)], at: Range) {
        for (a, (_, p)) in args.iter_mut().zip(params) {
            if let (JType::Prim(prim), true) = (&a.ty, p.is_ref()) {
                let ev = self.box_value(prim, p, a.value, at);
                a.rv = self.operand_at(ev, at);
                a.ty = p.clone();
            } else if let (false, Rvalue::Use(arg)) = (p.is_ref(), &a.rv) {
                let ev = Ev::place(arg.clone(), a.ty.clone());
                self.unbox(&ev, at);
            }
        }
    }

    /// Unboxing: a box used where its primitive is needed (an operand of
    /// `+` or `<`, an index, a condition, an argument for a primitive
    /// parameter, a `return` from a method of a primitive type) reads the
    /// box's value, which throws on `null`: a `Use` of the box, as
    /// `int n = boxed` has, so the null checker sees the dereference.
    pub(super) fn unbox(&mut self, ev: &Ev, at: Range) {
        let JType::Class(c) = &ev.ty else { return };
        if unboxed(c).is_some() {
            self.deref_reference(ev, at);
        }
    }

    /// The operands a binary operator `op` unboxes: both for arithmetic,
    /// bitwise, shift, ordering and logical operators; for `==` and `!=`
    /// only when one side is a primitive (two boxes are compared as
    /// references). A string concatenation unboxes nothing (it is not
    /// lowered here).
    pub(super) fn unbox_operands(&mut self, op: &str, l: &Ev, r: &Ev, at: Range) {
        if matches!(op, "==" | "!=") && l.ty.is_ref() && r.ty.is_ref() {
            return;
        }
        self.unbox(l, at);
        self.unbox(r, at);
    }

    /// Is `node` the name of a box class (`Integer`, not a local, field or
    /// class of the program)?
    pub(super) fn box_class_ref(&self, node: Node) -> bool {
        let n = text(node, self.src);
        node.sym() == "identifier"
            && unboxed(n).is_some()
            && self.lookup(n).is_none()
            && self.h.field(&self.class, n).is_none()
            && !self.h.is_known(n)
    }

    /// `Integer.valueOf(e)` (or another box class's): the box of a
    /// primitive `e`; of anything else (a String to parse) a library call.
    /// `None` (nothing lowered) for another number of arguments.
    pub(super) fn value_of(&mut self, node: Node<'a>, class: Node) -> Option<Ev> {
        let args = node.field("arguments")?;
        let mut c = args.walk();
        let kids: Vec<Node<'a>> = args
            .named_children(&mut c)
            .filter(|n| !n.sym().ends_with("comment"))
            .collect();
        let [arg] = kids.as_slice() else {
            return None;
        };
        let ev = self.expr(*arg, None);
        let JType::Prim(prim) = ev.ty else {
            // `Integer.valueOf("12")`: the library's.
            let v = self.operand(ev, *arg);
            self.give_to_library([v], range(node));
            return Some(self.read_library(range(node), None));
        };
        let target = JType::Class(text(class, self.src).to_string());
        let value = constant::int_value(*arg, self.src);
        Some(self.box_value(prim, &target, value, range(node)))
    }

    /// Writes `ev` into the place `lhs` (a variable, a field, an array
    /// element or a static field).
    pub(super) fn store(&mut self, lhs: Place, ev: Ev, node: Node) {
        if let (Base::Var(v), false, true) = (&lhs.base, lhs.deref, lhs.path.is_empty()) {
            self.assign_var(*v, ev, node);
            return;
        }
        let rhs = match ev.kind {
            EvK::Rv(Rvalue::Scalar | Rvalue::Int(_) | Rvalue::Unknown) => return,
            EvK::Rv(Rvalue::Null) => Rvalue::Null,
            _ => self.operand(ev, node),
        };
        self.emit(Basic::Assign { lhs, rhs }, range(node));
    }
}
