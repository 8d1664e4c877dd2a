//! Lambdas whose target type is a functional interface of the program: an
//! object of a class `C$lambda$N` that implements the interface, whose
//! one method is the lambda's body. The captured locals and `this` are
//! fields of the lambda object (`cap$x`, `this$0`), stored when it is made
//! and loaded at the start of the body, where `this` and bare names mean the
//! enclosing class's again.

use super::*;

/// The one abstract method of a functional interface: (signature, params, ret).
pub(super) fn single_abstract<'a>(
    h: &Hierarchy<'a>,
    iface: &str,
) -> Option<(String, Vec<JType>, JType)> {
    let Some(decl) = h.get(iface) else {
        return crate::library::functional(iface).map(|s| (s.signature, s.params, s.ret));
    };
    if !decl.is_interface {
        return None;
    }
    let mut with_body: Vec<&str> = Vec::new();
    let mut abstract_: Vec<&MethodDecl> = Vec::new();
    for c in h.ancestors(iface).iter() {
        let Some(d) = h.get(c) else { continue };
        if !d.is_interface {
            continue;
        }
        for m in d.methods.iter().filter(|m| !m.is_static && !m.is_ctor) {
            if m.has_body {
                with_body.push(&m.signature);
            } else if !abstract_.iter().any(|a| a.signature == m.signature) {
                abstract_.push(m);
            }
        }
    }
    let left: Vec<&&MethodDecl> = abstract_
        .iter()
        .filter(|m| !with_body.contains(&m.signature.as_str()))
        .collect();
    match left.as_slice() {
        [m] => Some((
            m.signature.clone(),
            m.params.iter().map(|p| p.1.clone()).collect(),
            m.ret.clone(),
        )),
        _ => None,
    }
}

/// The names of a lambda's parameters.
fn param_names<'t>(node: Node<'t>, src: &'t str) -> Vec<(&'t str, Range)> {
    let Some(p) = node.field("parameters") else {
        return Vec::new();
    };
    if p.sym() == "identifier" {
        return vec![(text(p, src), range(p))];
    }
    let mut c = p.walk();
    let kids: Vec<Node<'t>> = p.named_children(&mut c).collect();
    kids.into_iter()
        .filter_map(|k| match k.sym() {
            "identifier" => Some((text(k, src), range(k))),
            "formal_parameter" => k.field("name").map(|n| (text(n, src), range(n))),
            _ => None,
        })
        .collect()
}

impl<'a, 'h> Fb<'a, 'h> {
    pub(super) fn lambda(&mut self, node: Node<'a>, target: Option<JType>) -> Ev {
        let iface = match &target {
            Some(JType::Class(c)) => c.clone(),
            _ => String::new(),
        };
        let Some((sig, param_tys, ret)) = single_abstract(self.h, &iface) else {
            self.note(node, "a lambda whose target is not a functional interface of the program is not modelled (it points to nothing)");
            return Ev::unknown();
        };
        let names = param_names(node, self.src);
        if names.len() != param_tys.len() {
            self.note(
                node,
                "a lambda with the wrong number of parameters is not modelled",
            );
            return Ev::unknown();
        }
        let lname = self.h.synthetic_name(&self.class, "lambda");
        let fname = format!("{lname}.{sig}");
        let ty = JType::Class(iface.clone());
        // The lambda object, with what it captures.
        let site = self.site(range(node), SiteKind::New);
        let x = self.temp(ty.clone(), range(node));
        self.emit(
            Basic::Assign {
                lhs: Place::var(x),
                rhs: Rvalue::New(site, lname.as_str().into()),
            },
            range(node),
        );
        // Captured: the enclosing locals whose names the body mentions.
        let mut mentioned = std::collections::HashSet::new();
        let mut todo: Vec<Node> = node.field("body").into_iter().collect();
        while let Some(n) = todo.pop() {
            if n.sym() == "identifier" {
                mentioned.insert(text(n, self.src));
            }
            let mut c = n.walk();
            todo.extend(n.named_children(&mut c));
        }
        let mut captured: Vec<(String, VarId, JType)> = Vec::new();
        for (n, v) in self.scopes.iter().rev().flat_map(|s| s.iter().rev()) {
            let t = &self.var_ty[v.0 as usize];
            if t.is_ref() && mentioned.contains(n.as_str()) && !captured.iter().any(|c| &c.0 == n) {
                captured.push((n.clone(), *v, t.clone()));
            }
        }
        captured.sort_by(|a, b| a.0.cmp(&b.0));
        for (n, v, _) in &captured {
            let lhs = Place::deref(Base::Var(x)).field(format!("cap${n}").into());
            self.emit(
                Basic::Assign {
                    lhs,
                    rhs: Rvalue::Use(Place::var(*v)),
                },
                range(node),
            );
        }
        let outer = self.this.map(|t| (t, self.class.clone()));
        if let Some((t, _)) = &outer {
            let lhs = Place::deref(Base::Var(x)).field("this$0".into());
            self.emit(
                Basic::Assign {
                    lhs,
                    rhs: Rvalue::Use(Place::var(*t)),
                },
                range(node),
            );
        }
        // The body, as the one method of the lambda's class.
        let type_vars = self.type_vars.clone();
        let meth = Method {
            class: &lname,
            function: &fname,
            is_static: false,
            type_vars: &type_vars,
        };
        let mut fb = Fb::new(self.h, self.src, &mut *self.notes, &meth);
        fb.fs.range = range(node);
        fb.fs.name_range = range(node);
        for ((n, r), t) in names.iter().zip(&param_tys) {
            fb.add_param(n, t.clone(), *r);
        }
        fb.set_ret(&ret);
        let lam = fb.this.expect("an instance method");
        for (n, _, t) in &captured {
            if names.iter().any(|(p, _)| p == n) {
                continue;
            }
            let v = fb.declare(n, t.clone(), range(node));
            let p = Place::deref(Base::Var(lam)).field(format!("cap${n}").into());
            fb.emit(
                Basic::Assign {
                    lhs: Place::var(v),
                    rhs: Rvalue::Use(p),
                },
                range(node),
            );
        }
        match &outer {
            Some((_, class)) => {
                let o = fb.temp(JType::Class(class.clone()), range(node));
                let p = Place::deref(Base::Var(lam)).field("this$0".into());
                fb.emit(
                    Basic::Assign {
                        lhs: Place::var(o),
                        rhs: Rvalue::Use(p),
                    },
                    range(node),
                );
                fb.this = Some(o);
                fb.class = class.clone();
            }
            None => {
                fb.this = None;
                fb.class = self.class.clone();
            }
        }
        if let Some(body) = node.field("body") {
            if body.sym() == "block" {
                fb.stmt(body);
            } else if let Some(r) = fb.ret_var {
                fb.expected = Some(ret.clone());
                let ev = fb.expr(body, Some(r));
                fb.assign_var(r, ev, body);
                fb.push_stmt(Stmt::Return);
            } else {
                fb.expr(body, None);
            }
        }
        let mut pools = std::mem::take(&mut fb.pools);
        let mut lambdas = std::mem::take(&mut fb.lambdas);
        let thrown = fb.uses_thrown;
        self.uses_library |= fb.uses_library;
        let (f, fs) = fb.finish(&fname, false, &ret);
        self.pools.append(&mut pools);
        self.lambdas.append(&mut lambdas);
        self.uses_thrown |= thrown;
        let class = pointee_ir::Class {
            name: lname.as_str().into(),
            superclass: Some("Object".into()),
            interfaces: vec![iface.as_str().into()],
            is_interface: false,
            is_abstract: false,
            fields: Vec::new(),
            methods: vec![pointee_ir::Method {
                signature: sig.as_str().into(),
                function: Some(fname.as_str().into()),
                is_static: false,
            }],
        };
        self.lambdas.push((class, f, fs));
        Ev::var(x, ty)
    }
}
