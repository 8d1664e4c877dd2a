//! Method references (`C::m`, `C::new`, `expr::m`) whose target type is a
//! functional interface of the program: like a lambda, an object of a class
//! `C$ref$N` implementing the interface, whose one method calls the
//! referenced method (or constructor) with its parameters. A bound receiver
//! (`expr::m`) is a field `recv$` of the object.

use super::lambda::single_abstract;
use super::*;

impl<'a, 'h> Fb<'a, 'h> {
    pub(super) fn method_ref(&mut self, node: Node<'a>, target: Option<JType>) -> Ev {
        let iface = match &target {
            Some(JType::Class(c)) => c.clone(),
            _ => String::new(),
        };
        let Some((sig, param_tys, ret)) = single_abstract(self.h, &iface) else {
            self.note(node, "a method reference whose target is not a functional interface of the program is not modelled (it points to nothing)");
            return Ev::unknown();
        };
        let Some(q) = node.named_child(0) else {
            return Ev::unknown();
        };
        let member = text(node, self.src)
            .rsplit("::")
            .next()
            .unwrap_or("")
            .trim()
            .to_string();
        // The qualifier: a class, or a value (the bound receiver).
        let class = match q.sym() {
            "identifier" => self.class_ref(q),
            "type_identifier" | "generic_type" | "scoped_type_identifier" | "array_type" => {
                Some(self.ty(q).name())
            }
            "super" => {
                self.note(node, "`super::m` is not modelled");
                return Ev::unknown();
            }
            _ => None,
        };
        let receiver = match &class {
            Some(_) => None,
            None => {
                let ev = self.expr(q, None);
                let ty = ev.ty.clone();
                self.var_of(ev, q, None).map(|v| (v, ty))
            }
        };
        let lname = self.h.synthetic_name(&self.class, "ref");
        let fname = format!("{lname}.{sig}");
        let ty = JType::Class(iface.clone());
        let site = self.site(range(node), SiteKind::New);
        let x = self.temp(ty.clone(), range(node));
        self.emit(
            Basic::Assign {
                lhs: Place::var(x),
                rhs: Rvalue::New(site, lname.as_str().into()),
            },
            range(node),
        );
        if let Some((r, _)) = &receiver {
            let lhs = Place::deref(Base::Var(x)).field("recv$".into());
            self.emit(
                Basic::Assign {
                    lhs,
                    rhs: Rvalue::Use(Place::var(*r)),
                },
                range(node),
            );
        }
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
        for (i, t) in param_tys.iter().enumerate() {
            fb.add_param(&format!("p{}", i + 1), t.clone(), range(node));
        }
        fb.set_ret(&ret);
        let this = fb.this.expect("an instance method");
        let params: Vec<Arg> = (0..param_tys.len())
            .map(|i| {
                Arg::new(
                    Rvalue::Use(Place::var(VarId(i as u32 + 1))),
                    param_tys[i].clone(),
                )
            })
            .collect();
        let dest_ret = fb.ret_var;
        match (&class, &receiver) {
            (Some(c), _) if member == "new" => fb.ref_new(node, c, params, dest_ret),
            (Some(c), _) => fb.ref_call(node, c, &member, None, params, dest_ret),
            (None, Some((_, rty))) => {
                let r = fb.temp(rty.clone(), range(node));
                let p = Place::deref(Base::Var(this)).field("recv$".into());
                fb.emit(
                    Basic::Assign {
                        lhs: Place::var(r),
                        rhs: Rvalue::Use(p),
                    },
                    range(node),
                );
                let rc = match rty {
                    JType::Class(c) => c.clone(),
                    _ => "Object".to_string(),
                };
                fb.ref_call(node, &rc, &member, Some(r), params, dest_ret)
            }
            (None, None) => {}
        }
        let mut pools = std::mem::take(&mut fb.pools);
        let mut lambdas = std::mem::take(&mut fb.lambdas);
        let (thrown, library) = (fb.uses_thrown, fb.uses_library);
        let (f, fs) = fb.finish(&fname, false, &ret);
        self.pools.append(&mut pools);
        self.lambdas.append(&mut lambdas);
        self.uses_thrown |= thrown;
        self.uses_library |= library;
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

    /// `C::new`: a new C with the parameters as constructor arguments.
    fn ref_new(&mut self, node: Node<'a>, c: &str, params: Vec<Arg>, ret: Option<VarId>) {
        let t = self.alloc_object(node, c, JType::Class(c.to_string()));
        if self.h.is_known(c) {
            self.run_ctor(node, node, c, t, params);
        } else {
            let vals: Vec<Rvalue> = std::iter::once(Rvalue::Use(Place::var(t)))
                .chain(params.into_iter().map(|p| p.rv))
                .collect();
            self.give_to_library(vals, range(node));
        }
        if let Some(r) = ret {
            self.emit(
                Basic::Assign {
                    lhs: Place::var(r),
                    rhs: Rvalue::Use(Place::var(t)),
                },
                range(node),
            );
        }
    }

    /// `C::m` (static with all parameters, or instance on the first) or
    /// `recv::m` (instance on the bound receiver).
    fn ref_call(
        &mut self,
        node: Node<'a>,
        c: &str,
        m: &str,
        recv: Option<VarId>,
        params: Vec<Arg>,
        ret: Option<VarId>,
    ) {
        let h = self.h;
        let (recv, args) = match recv {
            Some(r) => (Some(r), params),
            None => {
                let statics: Vec<_> = h
                    .methods_named(c, m, params.len())
                    .into_iter()
                    .filter(|(_, d)| d.is_static)
                    .collect();
                if let Some(d) = self.resolve(statics, &params).filter(|d| d.has_body) {
                    let argv: Vec<Rvalue> = params.into_iter().map(|p| p.rv).collect();
                    let rty = d.ret.clone();
                    let ev = self.emit_call(
                        node,
                        node,
                        Callee::Direct(d.function.as_str().into()),
                        argv,
                        &rty,
                        None,
                    );
                    self.ref_result(ev, ret, node);
                    return;
                }
                match params.first().map(|a| &a.rv) {
                    Some(Rvalue::Use(Place {
                        base: Base::Var(v), ..
                    })) => (Some(*v), params[1..].to_vec()),
                    _ => (None, params),
                }
            }
        };
        let Some(r) = recv else { return };
        let cands: Vec<_> = h
            .methods_named(c, m, args.len())
            .into_iter()
            .filter(|(_, d)| !d.is_static)
            .collect();
        let Some(d) = self.resolve(cands, &args) else {
            self.note(
                node,
                format!("`{c}::{m}` is not a method of the program: it goes to the library heap"),
            );
            let vals: Vec<Rvalue> = std::iter::once(Rvalue::Use(Place::var(r)))
                .chain(args.into_iter().map(|p| p.rv))
                .collect();
            self.give_to_library(vals, range(node));
            if let Some(t) = ret {
                self.read_library(range(node), Some(t));
            }
            return;
        };
        let mut argv: Vec<Rvalue> = args.into_iter().map(|p| p.rv).collect();
        argv.insert(0, Rvalue::Use(Place::var(r)));
        let rty = d.ret.clone();
        let callee = if d.is_private {
            Callee::Direct(d.function.as_str().into())
        } else {
            Callee::Virtual {
                receiver: Place::var(r),
                signature: d.signature.as_str().into(),
            }
        };
        let ev = self.emit_call(node, node, callee, argv, &rty, None);
        self.ref_result(ev, ret, node);
    }

    fn ref_result(&mut self, ev: Ev, ret: Option<VarId>, node: Node<'a>) {
        // (A primitive result for an object one is boxed.)
        if let Some(t) = ret {
            self.assign_var(t, ev, node);
        }
    }
}
