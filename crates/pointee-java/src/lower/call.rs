//! Calls and allocation: overload resolution, virtual, static, super and
//! constructor calls, `new` of classes, anonymous classes and arrays, field
//! initialisers.

use super::*;

/// Lambda arguments lowered once the callee is chosen: (position, node).
type Deferred<'a> = Vec<(usize, Node<'a>)>;

impl<'a, 'h> Fb<'a, 'h> {
    pub(super) fn args(&mut self, node: Option<Node<'a>>) -> Vec<Arg> {
        let (mut args, lambdas) = self.args_deferring(node);
        self.lambda_args(&mut args, lambdas, None);
        args
    }

    /// Arguments, except lambdas (an `Unknown` placeholder): their target
    /// types are known only once the callee is chosen.
    pub(super) fn args_deferring(&mut self, node: Option<Node<'a>>) -> (Vec<Arg>, Deferred<'a>) {
        let Some(al) = node else {
            return (Vec::new(), Vec::new());
        };
        let mut c = al.walk();
        let kids: Vec<Node<'a>> = al
            .named_children(&mut c)
            .filter(|n| !n.sym().ends_with("comment"))
            .collect();
        let mut lambdas = Vec::new();
        let mut out = Vec::new();
        for (i, a) in kids.into_iter().enumerate() {
            if matches!(a.sym(), "lambda_expression" | "method_reference") {
                lambdas.push((i, a));
                out.push(Arg::new(Rvalue::Unknown, JType::Unknown));
                continue;
            }
            let ev = self.expr(a, None);
            let ty = ev.ty.clone();
            let value = constant::int_value(a, self.src).filter(|_| !ty.is_ref());
            out.push(Arg {
                rv: self.operand(ev, a),
                ty,
                value,
            });
        }
        (out, lambdas)
    }

    /// Lowers the deferred lambda arguments against the chosen parameters.
    pub(super) fn lambda_args(
        &mut self,
        args: &mut [Arg],
        lambdas: Vec<(usize, Node<'a>)>,
        params: Option<&[(String, JType)]>,
    ) {
        for (i, node) in lambdas {
            self.expected = params.and_then(|p| p.get(i)).map(|p| p.1.clone());
            let ev = self.expr(node, None);
            let ty = ev.ty.clone();
            args[i] = Arg::new(self.operand(ev, node), ty);
        }
    }

    /// Picks the most specific applicable method (by arity and declared
    /// parameter types).
    pub(super) fn resolve<'c>(
        &self,
        cands: Vec<(&'c ClassDecl, &'c MethodDecl)>,
        args: &[Arg],
    ) -> Option<&'c MethodDecl> {
        for strict in [true, false] {
            let app: Vec<&MethodDecl> = cands
                .iter()
                .map(|(_, m)| *m)
                .filter(|m| {
                    m.params
                        .iter()
                        .zip(args)
                        .all(|((_, p), a)| assignable(self.h, &a.ty, p, strict))
                })
                .collect();
            if app.is_empty() {
                continue;
            }
            let best = app.iter().find(|m| {
                app.iter().all(|o| {
                    m.params
                        .iter()
                        .zip(&o.params)
                        .all(|((_, a), (_, b))| assignable(self.h, a, b, true))
                })
            });
            return Some(best.copied().unwrap_or(app[0]));
        }
        cands.first().map(|(_, m)| *m)
    }

    pub(super) fn emit_call(
        &mut self,
        node: Node<'a>,
        name_node: Node,
        callee: Callee,
        args: Vec<Rvalue>,
        ret: &JType,
        dest: Option<VarId>,
    ) -> Ev {
        let site = self.site(range(node), SiteKind::Call);
        let lhs = if ret.is_ref() {
            Some(dest.unwrap_or_else(|| self.temp(ret.clone(), range(node))))
        } else {
            None
        };
        let stmt = self.emit(
            Basic::Call {
                site,
                lhs: lhs.map(Place::var),
                callee,
                args,
            },
            range(node),
        );
        self.fs.calls.push(CallInfo {
            range: range(node),
            callee_range: range(name_node),
            site,
            stmt,
        });
        match lhs {
            Some(v) => Ev::var(v, ret.clone()),
            None => Ev::rv(Rvalue::Scalar, ret.clone()),
        }
    }

    pub(super) fn call(&mut self, node: Node<'a>, dest: Option<VarId>) -> Ev {
        let Some(name_node) = node.field("name") else {
            return Ev::unknown();
        };
        let name = text(name_node, self.src).to_string();
        let obj = node.field("object");
        // The receiver: (class whose methods are searched, receiver variable
        // or None for a static context, is super).
        let (class, recv, is_super): (String, Option<VarId>, bool) = match obj {
            None => match self.outer_of_anonymous(&name, node) {
                Some((outer_class, outer_this)) => (outer_class, Some(outer_this), false),
                None => (self.class.clone(), self.this, false),
            },
            Some(o) if o.sym() == "super" => {
                let sup = self
                    .h
                    .get(&self.class)
                    .and_then(|c| c.superclass.clone())
                    .unwrap_or_else(|| "Object".into());
                (sup, self.this, true)
            }
            Some(o) => match self.class_ref(o) {
                Some(c) => (c, None, false),
                None if name == "valueOf" && self.box_class_ref(o) => {
                    if let Some(ev) = self.value_of(node, o) {
                        return ev;
                    }
                    (String::new(), None, false)
                }
                None => {
                    let ev = self.expr(o, None);
                    let cls = match &ev.ty {
                        JType::Class(c) => c.clone(),
                        JType::Array(_) => "Object".into(),
                        _ => String::new(),
                    };
                    (cls, self.var_of(ev, o, None), false)
                }
            },
        };
        let (mut args, lambdas) = self.args_deferring(node.field("arguments"));
        let h = self.h;
        let cands = h.methods_named(&class, &name, args.len());
        let mut chosen = self.resolve(cands, &args);
        // A varargs method: extra arguments (or one that is not an array)
        // are packed into a new array.
        let spread = |m: &MethodDecl, args: &[Arg]| {
            m.is_varargs
                && (m.params.len() != args.len()
                    || !matches!(
                        args.last().map(|a| &a.ty),
                        Some(JType::Array(_) | JType::Null | JType::Unknown)
                    ))
        };
        let mut pack = chosen.is_some_and(|m| spread(m, &args));
        if chosen.is_none() {
            let va = h.varargs_named(&class, &name, args.len());
            chosen = va.iter().map(|(_, m)| *m).find(|m| {
                m.params[..m.params.len() - 1]
                    .iter()
                    .zip(&args)
                    .all(|((_, p), a)| assignable(self.h, &a.ty, p, false))
            });
            pack = chosen.is_some();
        }
        // The method of a library functional interface (`f.apply(x)` on a
        // `Function`): a virtual call, dispatched to the program's objects
        // (lambdas, method references, classes); the solver applies the
        // library model to library objects.
        let sam = match (chosen, recv, is_super) {
            (None, Some(_), false) => self.library_sam(&class, &name, args.len()),
            _ => None,
        };
        let params = chosen.map(|m| m.params.clone()).or_else(|| {
            sam.as_ref().map(|s| {
                s.params
                    .iter()
                    .map(|t| (String::new(), t.clone()))
                    .collect()
            })
        });
        self.lambda_args(&mut args, lambdas, params.as_deref());
        if let Some(ps) = params {
            let fixed = ps.len() - usize::from(pack);
            self.box_args(&mut args, &ps[..fixed], range(node));
        }
        if let (true, Some(m)) = (pack, chosen) {
            self.pack_varargs(node, &mut args, m);
        }
        if let (Some(sam), Some(r)) = (sam, recv) {
            let argv: Vec<Rvalue> = std::iter::once(Rvalue::Use(Place::var(r)))
                .chain(args.into_iter().map(|a| a.rv))
                .collect();
            let callee = Callee::Virtual {
                receiver: Place::var(r),
                signature: sam.signature.as_str().into(),
            };
            return self.emit_call(node, name_node, callee, argv, &sam.ret, dest);
        }
        let Some(m) = chosen else {
            if name == "values" && args.is_empty() && self.h.get(&class).is_some_and(|d| d.is_enum)
            {
                let ty = JType::Array(Box::new(JType::Class(class.clone())));
                return Ev::place(Place::global(format!("{class}.$VALUES").into()), ty);
            }
            self.note(node, format!("call to `{}` is not modelled (no such method in the program): its arguments go to the library heap, its result comes from it", text(node, self.src).split('(').next().unwrap_or("")));
            let vals: Vec<Rvalue> = recv
                .map(|r| Rvalue::Use(Place::var(r)))
                .into_iter()
                .chain(args.into_iter().map(|a| a.rv))
                .collect();
            self.give_to_library(vals, range(node));
            return self.read_library(range(node), dest);
        };
        let (is_static, function, signature, ret, has_body) = (
            m.is_static,
            m.function.clone(),
            m.signature.clone(),
            m.ret.clone(),
            m.has_body,
        );
        // A private method is not overridden: call it like `super.m()`.
        let is_super = is_super || (m.is_private && has_body);
        let mut argv: Vec<Rvalue> = args.into_iter().map(|a| a.rv).collect();
        if (is_static || is_super) && !has_body {
            self.note(node, format!("`{function}` has no body to call"));
            return Ev::unknown();
        }
        if is_static {
            return self.emit_call(
                node,
                name_node,
                Callee::Direct(function.into()),
                argv,
                &ret,
                dest,
            );
        }
        let Some(r) = recv else {
            if obj.is_some() && self.class_ref(obj.unwrap()).is_none() {
                // A call on null or on an unmodelled value: it never
                // returns here, or returns what the analysis cannot name.
                return Ev::rv(Rvalue::Unknown, ret);
            }
            self.note(node, "an instance call without a receiver is not modelled");
            return Ev::unknown();
        };
        argv.insert(0, Rvalue::Use(Place::var(r)));
        // Object's own toString() returns a new string (nothing the program
        // can name), String's returns the string itself.
        let of_object = function.starts_with("Object.");
        if is_super {
            if !has_body {
                if of_object {
                    return Ev::rv(Rvalue::Null, ret);
                }
                self.note(node, "super call to an abstract method");
                return Ev::unknown();
            }
            return self.emit_call(
                node,
                name_node,
                Callee::Direct(function.into()),
                argv,
                &ret,
                dest,
            );
        }
        let callee = Callee::Virtual {
            receiver: Place::var(r),
            signature: signature.into(),
        };
        let ev = self.emit_call(node, name_node, callee, argv, &ret, dest);
        if of_object && ret.is_ref() {
            if let EvK::Place(Place {
                base: Base::Var(v), ..
            }) = &ev.kind
            {
                self.emit(
                    Basic::Assign {
                        lhs: Place::var(*v),
                        rhs: Rvalue::Use(Place::var(r)),
                    },
                    range(node),
                );
            }
        }
        ev
    }

    /// The method `name` with `arity` parameters of a library functional
    /// interface that `class` is or extends.
    fn library_sam(&self, class: &str, name: &str, arity: usize) -> Option<crate::library::Sam> {
        self.h
            .ancestors(class)
            .iter()
            .filter_map(|a| crate::library::functional(a))
            .find(|s| s.name() == name && s.params.len() == arity)
    }

    /// `this(...)` or `super(...)` as the first statement of a constructor.
    pub(super) fn ctor_call(&mut self, node: Node<'a>) {
        let Some(kw) = node.field("constructor") else {
            return;
        };
        let class = if kw.sym() == "this" {
            self.class.clone()
        } else {
            match self.h.get(&self.class).and_then(|c| c.superclass.clone()) {
                Some(s) => s,
                None => {
                    self.args(node.field("arguments"));
                    return;
                }
            }
        };
        let args = self.args(node.field("arguments"));
        self.call_ctor(node, kw, &class, args);
    }

    /// Calls a constructor of `class` on `this`.
    pub fn call_ctor(&mut self, node: Node<'a>, name_node: Node, class: &str, args: Vec<Arg>) {
        if let Some(this) = self.this {
            self.run_ctor(node, name_node, class, this, args);
        }
    }

    /// Runs the constructor of the program class `class` that `args` choose
    /// on the object in `recv` (a note when none takes them; nothing for a
    /// library class or a bodiless constructor).
    pub(super) fn run_ctor(
        &mut self,
        node: Node<'a>,
        name_node: Node,
        class: &str,
        recv: VarId,
        args: Vec<Arg>,
    ) {
        let h = self.h;
        let Some(d) = h.get(class) else { return };
        let cands: Vec<_> = d
            .methods
            .iter()
            .filter(|m| m.is_ctor && m.params.len() == args.len())
            .map(|m| (d, m))
            .collect();
        let Some(m) = self.resolve(cands, &args) else {
            if !d.builtin {
                self.note(
                    node,
                    format!("no constructor of `{class}` takes {} arguments", args.len()),
                );
            }
            return;
        };
        if !m.has_body {
            return;
        }
        let mut args = args;
        self.box_args(&mut args, &m.params, range(node));
        let mut argv: Vec<Rvalue> = args.into_iter().map(|a| a.rv).collect();
        argv.insert(0, Rvalue::Use(Place::var(recv)));
        self.emit_call(
            node,
            name_node,
            Callee::Direct(m.function.as_str().into()),
            argv,
            &JType::void(),
            None,
        );
    }

    /// A new object of `class` at `node`, in a fresh temporary.
    pub(super) fn alloc_object(&mut self, node: Node, class: &str, ty: JType) -> VarId {
        let site = self.site(range(node), SiteKind::New);
        let x = self.temp(ty, range(node));
        self.emit(
            Basic::Assign {
                lhs: Place::var(x),
                rhs: Rvalue::New(site, class.into()),
            },
            range(node),
        );
        x
    }

    /// `new T(args)`: the object is made in a fresh temporary and the
    /// constructor runs on it alone; the caller assigns it where it goes
    /// (a destination variable may hold other objects, and a constructor
    /// run on it would run on them too).
    pub(super) fn new_object(&mut self, node: Node<'a>) -> Ev {
        let ty = node
            .field("type")
            .map(|t| self.ty(t))
            .unwrap_or(JType::Unknown);
        if let Some(anon) = self.h.anonymous.get(&node.start_byte()).cloned() {
            return self.new_anonymous(node, &anon, ty);
        }
        let cname = ty.name();
        let args = self.args(node.field("arguments"));
        let x = self.alloc_object(node, &cname, ty.clone());
        let tn = node.field("type").unwrap_or(node);
        if let Some(outer) = self.h.get(&cname).and_then(|d| d.inner_of.clone()) {
            self.store_outer(node, x, &outer);
        }
        if let Some(body) = self
            .h
            .get(&cname)
            .filter(|d| d.is_local)
            .and_then(|_| self.h.syntax(&cname))
            .and_then(|s| s.body)
        {
            self.capture(node, x, Some(body), &cname);
        }
        if self.h.is_known(&cname) {
            self.run_ctor(node, tn, &cname, x, args);
        } else {
            self.note(node, format!("library class `{cname}` is not modelled: the object and its constructor's arguments go to the library heap"));
            let vals: Vec<Rvalue> = std::iter::once(Rvalue::Use(Place::var(x)))
                .chain(args.into_iter().map(|a| a.rv))
                .collect();
            self.give_to_library(vals, range(node));
        }
        Ev::var(x, ty)
    }

    /// `new T(args) { body }`: an object of the anonymous class, T's
    /// constructor run on it with the arguments, then the anonymous class's
    /// own `<init>()` (its field initialisers).
    pub(super) fn new_anonymous(&mut self, node: Node<'a>, anon: &str, ty: JType) -> Ev {
        let args = self.args(node.field("arguments"));
        let x = self.alloc_object(node, anon, ty.clone());
        let mut c = node.walk();
        let body = node
            .named_children(&mut c)
            .find(|k| k.sym() == "class_body");
        self.capture(node, x, body, anon);
        if let Some(t) = self.this {
            let lhs = Place::deref(Base::Var(x)).field("this$0".into());
            self.emit(
                Basic::Assign {
                    lhs,
                    rhs: Rvalue::Use(Place::var(t)),
                },
                range(node),
            );
        }
        self.h
            .outers
            .borrow_mut()
            .insert(anon.to_string(), self.class.clone());
        let tn = node.field("type").unwrap_or(node);
        let base = ty.name();
        if self.h.get(&base).is_some_and(|d| !d.is_interface) {
            self.run_ctor(node, tn, &base, x, args);
        }
        let init = format!("{anon}.<init>()");
        self.emit_call(
            node,
            tn,
            Callee::Direct(init.into()),
            vec![Rvalue::Use(Place::var(x))],
            &JType::void(),
            None,
        );
        Ev::var(x, ty)
    }

    /// `new A[n]...` or `new A[]{...}`, made in a fresh temporary (as
    /// [`Self::new_object`]). `new A[2][3]` also makes the inner arrays; a
    /// dimension that is the constant 0 makes arrays that hold nothing.
    pub(super) fn new_array(&mut self, node: Node<'a>) -> Ev {
        let elem = node
            .field("type")
            .map(|t| self.ty(t))
            .unwrap_or(JType::Unknown);
        let mut lengths: Vec<Option<i64>> = Vec::new();
        let mut dims = 0;
        let mut c = node.walk();
        let parts: Vec<Node<'a>> = node.fields("dimensions", &mut c).collect();
        for d in parts {
            if d.sym() == "dimensions_expr" {
                dims += 1;
                lengths.push(d.named_child(0).and_then(|e| {
                    self.expr(e, None);
                    constant::int_value(e, self.src)
                }));
            } else {
                dims += crate::types::count_dims(d, self.src);
            }
        }
        let ty = wrap_array(elem, dims.max(1));
        if let Some(v) = node.field("value") {
            return self.array_init(v, &ty);
        }
        let empty = |i: usize| lengths.get(i) == Some(&Some(0));
        let x = self.alloc_array(node, &ty, empty(0));
        let mut outer = x;
        let mut t = ty.clone();
        for i in 1..lengths.len() {
            let JType::Array(inner) = t else { break };
            if empty(i - 1) {
                break;
            }
            let y = self.alloc_array(node, &inner, empty(i));
            self.emit(
                Basic::Assign {
                    lhs: Place::deref(Base::Var(outer)).index(Index::Any),
                    rhs: Rvalue::Use(Place::var(y)),
                },
                range(node),
            );
            outer = y;
            t = *inner;
        }
        Ev::var(x, ty)
    }

    /// A new array of type `ty` in a fresh temporary; `empty`: of length 0
    /// (its class is then `A[0]`, an array that can hold nothing).
    pub(super) fn alloc_array(&mut self, node: Node, ty: &JType, empty: bool) -> VarId {
        let site = self.site(range(node), SiteKind::New);
        let x = self.temp(ty.clone(), range(node));
        let class = match ty {
            JType::Array(e) if empty => format!("{}[0]", e.name()),
            _ => ty.name(),
        };
        self.emit(
            Basic::Assign {
                lhs: Place::var(x),
                rhs: Rvalue::New(site, class.into()),
            },
            range(node),
        );
        x
    }

    pub(super) fn array_init(&mut self, node: Node<'a>, ty: &JType) -> Ev {
        let mut c = node.walk();
        let kids: Vec<Node<'a>> = node
            .named_children(&mut c)
            .filter(|k| !k.sym().ends_with("comment"))
            .collect();
        let x = self.alloc_array(node, ty, kids.is_empty());
        let elem = match ty {
            JType::Array(e) => (**e).clone(),
            _ => JType::Unknown,
        };
        for k in kids {
            let ev = if k.sym() == "array_initializer" {
                self.array_init(k, &elem)
            } else {
                self.expr(k, None)
            };
            let ev = self.boxed(ev, &elem, k);
            if !ev.ty.is_ref() || matches!(ev.kind, EvK::Rv(Rvalue::Null | Rvalue::Unknown)) {
                continue;
            }
            if let Some(v) = self.var_of(ev, k, None) {
                self.emit(
                    Basic::Assign {
                        lhs: Place::deref(Base::Var(x)).index(Index::Any),
                        rhs: Rvalue::Use(Place::var(v)),
                    },
                    range(k),
                );
            }
        }
        Ev::var(x, ty.clone())
    }

    /// `this.f = value` for an instance field initializer, or `C.f = value`
    /// for a static one.
    pub fn field_init(
        &mut self,
        class: &str,
        fname: &str,
        ty: &JType,
        is_static: bool,
        value: Node<'a>,
    ) {
        self.expected = Some(ty.clone());
        let ev = if value.sym() == "array_initializer" {
            self.array_init(value, ty)
        } else {
            self.expr(value, None)
        };
        let ev = self.boxed(ev, ty, value);
        if let (false, Some(t)) = (is_static, self.this) {
            let lhs = Place::deref(Base::Var(t)).field(fname.into());
            self.store_int(lhs, ty, int::int_of(&ev), range(value));
        }
        if !ev.ty.is_ref()
            || matches!(
                ev.kind,
                EvK::Rv(Rvalue::Scalar | Rvalue::Int(_) | Rvalue::Unknown)
            )
        {
            return;
        }
        let rhs = self.operand(ev, value);
        let lhs = if is_static {
            Place::global(format!("{class}.{fname}").into())
        } else {
            match self.this {
                Some(t) => Place::deref(Base::Var(t)).field(fname.into()),
                None => return,
            }
        };
        self.emit(Basic::Assign { lhs, rhs }, range(value));
    }

    /// In an anonymous class, a bare call `m()` that none of its own methods
    /// take goes to the enclosing instance: (its class, a variable holding it).
    fn outer_of_anonymous(&mut self, name: &str, node: Node<'a>) -> Option<(String, VarId)> {
        let outer = self.h.outer(&self.class)?;
        if self.h.ancestors(&self.class).iter().any(|c| {
            self.h
                .get(c)
                .is_some_and(|d| d.methods.iter().any(|m| m.name == name))
        }) {
            return None;
        }
        let this = self.this?;
        let o = self.temp(JType::Class(outer.clone()), range(node));
        self.emit(
            Basic::Assign {
                lhs: Place::var(o),
                rhs: Rvalue::Use(Place::deref(Base::Var(this)).field("this$0".into())),
            },
            range(node),
        );
        Some((outer, o))
    }

    /// `new Inner()` of an inner class of `outer`: the enclosing instance
    /// (`o.new Inner()`'s `o`, else `this` or this's own enclosing instance)
    /// goes into the object's field `this$0`.
    fn store_outer(&mut self, node: Node<'a>, x: VarId, outer: &str) {
        let mut c = node.walk();
        let explicit = node.named_children(&mut c).find(|k| {
            !matches!(
                k.sym(),
                "type_identifier"
                    | "generic_type"
                    | "scoped_type_identifier"
                    | "argument_list"
                    | "class_body"
                    | "type_arguments"
            ) && !k.sym().contains("annotation")
        });
        let o = match explicit {
            Some(e) => {
                let ev = self.expr(e, None);
                self.var_of(ev, e, None)
            }
            None => match self.this {
                Some(t) if self.h.is_subclass(&self.class, outer) => Some(t),
                Some(t)
                    if self
                        .h
                        .outer(&self.class)
                        .is_some_and(|o| self.h.is_subclass(&o, outer)) =>
                {
                    let v = self.temp(JType::Class(outer.to_string()), range(node));
                    self.emit(
                        Basic::Assign {
                            lhs: Place::var(v),
                            rhs: Rvalue::Use(Place::deref(Base::Var(t)).field("this$0".into())),
                        },
                        range(node),
                    );
                    Some(v)
                }
                _ => None,
            },
        };
        if let Some(o) = o {
            let lhs = Place::deref(Base::Var(x)).field("this$0".into());
            self.emit(
                Basic::Assign {
                    lhs,
                    rhs: Rvalue::Use(Place::var(o)),
                },
                range(node),
            );
        }
    }

    /// An enum's constants, in its static initialiser: each a new object of
    /// the enum (its constructor run with the constant's arguments), stored
    /// in its static field and in the array `$VALUES`.
    pub fn enum_constants(&mut self, class: &str, decl: Node<'a>) {
        let ty = JType::Class(class.to_string());
        let arr_ty = JType::Array(Box::new(ty.clone()));
        let consts = crate::decl::enum_constants(decl);
        let arr = self.alloc_array(decl, &arr_ty, consts.is_empty());
        self.emit(
            Basic::Assign {
                lhs: Place::global(format!("{class}.$VALUES").into()),
                rhs: Rvalue::Use(Place::var(arr)),
            },
            range(decl),
        );
        for k in consts {
            let Some(n) = k.field("name") else {
                continue;
            };
            if k.field("body").is_some() {
                self.note(
                    k,
                    "an enum constant's class body is not modelled (it is a plain constant)",
                );
            }
            let args = self.args(k.field("arguments"));
            let x = self.alloc_object(k, class, ty.clone());
            self.run_ctor(k, n, class, x, args);
            let g = Place::global(format!("{class}.{}", text(n, self.src)).into());
            self.emit(
                Basic::Assign {
                    lhs: g.clone(),
                    rhs: Rvalue::Use(Place::var(x)),
                },
                range(k),
            );
            self.emit(
                Basic::Assign {
                    lhs: Place::deref(Base::Var(arr)).index(Index::Any),
                    rhs: Rvalue::Use(Place::var(x)),
                },
                range(k),
            );
            self.record_range(range(n), &g, &ty);
        }
    }

    /// The enclosing locals a class body mentions become fields `cap$x` of
    /// the new object `x` (an anonymous or local class).
    fn capture(&mut self, node: Node<'a>, x: VarId, body: Option<Node<'a>>, class: &str) {
        let mut mentioned = std::collections::HashSet::new();
        let mut todo: Vec<Node> = body.into_iter().collect();
        while let Some(n) = todo.pop() {
            if n.sym() == "identifier" {
                mentioned.insert(text(n, self.src));
            }
            let mut c2 = n.walk();
            todo.extend(n.named_children(&mut c2));
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
        let mut caps = self.h.captures.borrow_mut();
        let entry = caps.entry(class.to_string()).or_default();
        for (n, _, t) in captured {
            if !entry.iter().any(|e| e.0 == n) {
                entry.push((n, t));
            }
        }
    }

    /// `f(a, b, c)` of `f(A a, T... xs)`: `t = new T[]; t[?] = b; t[?] = c`,
    /// then `f(a, t)`.
    fn pack_varargs(&mut self, node: Node<'a>, args: &mut Vec<Arg>, m: &MethodDecl) {
        let fixed = m.params.len() - 1;
        let arr_ty = m.params[fixed].1.clone();
        let t = self.alloc_array(node, &arr_ty, args.len() <= fixed);
        let elem = match &arr_ty {
            JType::Array(e) => (**e).clone(),
            _ => JType::Unknown,
        };
        let mut extra: Vec<Arg> = args.drain(fixed.min(args.len())..).collect();
        let params = vec![(String::new(), elem); extra.len()];
        self.box_args(&mut extra, &params, range(node));
        for a in extra {
            if let Rvalue::Use(p) = a.rv {
                self.emit(
                    Basic::Assign {
                        lhs: Place::deref(Base::Var(t)).index(Index::Any),
                        rhs: Rvalue::Use(p),
                    },
                    range(node),
                );
            }
        }
        args.push(Arg::new(Rvalue::Use(Place::var(t)), arr_ty));
    }
}
