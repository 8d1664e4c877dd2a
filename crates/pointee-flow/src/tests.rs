//! IR-level tests: small programs built by hand, exact sets with D/P flags.

use crate::*;
use pointee_ir::*;

/// A tiny builder for IR functions.
struct F {
    f: Function,
}

fn ptr(t: Type) -> Type {
    Type::pointer_to(t)
}

impl F {
    fn new(name: &str) -> F {
        F {
            f: Function {
                name: name.into(),
                params: vec![],
                ret: Type::Void,
                variadic: false,
                is_static: false,
                vars: vec![],
                ret_var: None,
                body: vec![],
                labels: 0,
                stmt_count: 0,
                site_count: 0,
                overwrites: Vec::new(),
            },
        }
    }
    fn param(&mut self, name: &str, ty: Type) -> VarId {
        let id = VarId(self.f.vars.len() as u32);
        self.f.vars.push(Var {
            name: name.into(),
            ty,
            kind: VarKind::Param,
            restrict: false,
        });
        self.f.params.push(id);
        id
    }
    fn local(&mut self, name: &str, ty: Type) -> VarId {
        let id = VarId(self.f.vars.len() as u32);
        self.f.vars.push(Var {
            name: name.into(),
            ty,
            kind: VarKind::Local,
            restrict: false,
        });
        id
    }
    fn ret(&mut self, ty: Type) -> VarId {
        let id = VarId(self.f.vars.len() as u32);
        self.f.vars.push(Var {
            name: "return".into(),
            ty: ty.clone(),
            kind: VarKind::Return,
            restrict: false,
        });
        self.f.ret_var = Some(id);
        self.f.ret = ty;
        id
    }
    fn next_stmt(&mut self) -> StmtId {
        self.f.stmt_count += 1;
        StmtId(self.f.stmt_count - 1)
    }
    fn assign(&mut self, lhs: Place, rhs: Rvalue) -> Stmt {
        Stmt::Basic(self.next_stmt(), Basic::Assign { lhs, rhs })
    }
    fn call(&mut self, lhs: Option<Place>, callee: Callee, args: Vec<Rvalue>) -> Stmt {
        let site = SiteId(self.f.site_count);
        self.f.site_count += 1;
        Stmt::Basic(
            self.next_stmt(),
            Basic::Call {
                site,
                lhs,
                callee,
                args,
            },
        )
    }
    fn body(mut self, b: Vec<Stmt>) -> std::sync::Arc<Function> {
        self.f.body = b;
        std::sync::Arc::new(self.f)
    }
}

fn v(id: VarId) -> Place {
    Place::var(id)
}
fn d(id: VarId) -> Place {
    Place::deref(Base::Var(id))
}
fn g(n: &str) -> Place {
    Place::global(n.into())
}
fn addr(p: Place) -> Rvalue {
    Rvalue::AddrOf(p)
}
fn use_(p: Place) -> Rvalue {
    Rvalue::Use(p)
}
fn glob(name: &str, ty: Type) -> Global {
    Global {
        name: name.into(),
        ty,
        kind: GlobalKind::Variable {
            is_static: false,
            definition: pointee_ir::Definition::Tentative,
        },
        init: vec![],
    }
}

/// The set of `rv` at `point` of `func`, merged over contexts.
fn at(a: &mut Analysis, func: &str, point: Point, rv: Rvalue) -> String {
    let per = a.values_at(func, point, &rv);
    match Analysis::merge_values(&per) {
        Some(s) => a.render_set(&s),
        None => "unreachable".into(),
    }
}

fn int() -> Type {
    Type::Scalar
}

#[test]
fn figure8_strong_updates() {
    // main() { int **x, *y, z, w; x = &y; y = &z; y = &w; }
    let mut f = F::new("main");
    let x = f.local("x", ptr(ptr(int())));
    let y = f.local("y", ptr(int()));
    let z = f.local("z", int());
    let w = f.local("w", int());
    let s1 = f.assign(v(x), addr(v(y)));
    let s2 = f.assign(v(y), addr(v(z)));
    let s3 = f.assign(v(y), addr(v(w)));
    let main = f.body(vec![s1, s2, s3]);
    let prog = Program {
        functions: vec![main],
        ..Program::default()
    };
    let mut a = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut a, "main", Point::After(StmtId(0)), use_(v(x))),
        "{y D}"
    );
    assert_eq!(
        at(&mut a, "main", Point::Before(StmtId(0)), use_(v(y))),
        "{uninit D}"
    );
    assert_eq!(
        at(&mut a, "main", Point::After(StmtId(1)), use_(d(x))),
        "{z D}"
    );
    assert_eq!(
        at(&mut a, "main", Point::After(StmtId(2)), use_(d(x))),
        "{w D}"
    );
    assert_eq!(
        at(&mut a, "main", Point::After(StmtId(2)), use_(v(y))),
        "{w D}"
    );
}

#[test]
fn if_merge_and_weak_store() {
    // p = &a or &b; *p = &x  => a, b possibly x
    let mut f = F::new("main");
    let p = f.local("p", ptr(ptr(int())));
    let a_ = f.local("a", ptr(int()));
    let b_ = f.local("b", ptr(int()));
    let x = f.local("x", int());
    let s0 = f.assign(v(a_), Rvalue::Null);
    let s1 = f.assign(v(p), addr(v(a_)));
    let s2 = f.assign(v(p), addr(v(b_)));
    let s3 = f.assign(d(p), addr(v(x)));
    let body = vec![
        s0,
        Stmt::If {
            cond: Cond::Opaque,
            then_branch: vec![s1],
            else_branch: vec![s2],
        },
        s3,
    ];
    let prog = Program {
        functions: vec![f.body(body)],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut an, "main", Point::Before(StmtId(3)), use_(v(p))),
        "{a P, b P}"
    );
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(3)), use_(v(a_))),
        "{NULL P, x P}"
    );
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(3)), use_(v(b_))),
        "{uninit P, x P}"
    );
}

#[test]
fn array_tail_is_a_summary() {
    // a[1] = &x; a[2] = &y;  => a[+] -> {x P, y P, uninit P}
    let mut f = F::new("main");
    let arr = f.local("a", Type::Array(Box::new(ptr(int())), Some(3)));
    let x = f.local("x", int());
    let y = f.local("y", int());
    let s0 = f.assign(v(arr).index(Index::Positive), addr(v(x)));
    let s1 = f.assign(v(arr).index(Index::Positive), addr(v(y)));
    let s2 = f.assign(v(arr).index(Index::Zero), addr(v(y)));
    let prog = Program {
        functions: vec![f.body(vec![s0, s1, s2])],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(
            &mut an,
            "main",
            Point::After(StmtId(1)),
            use_(v(arr).index(Index::Positive))
        ),
        "{uninit P, x P, y P}"
    );
    assert_eq!(
        at(
            &mut an,
            "main",
            Point::After(StmtId(2)),
            use_(v(arr).index(Index::Zero))
        ),
        "{y D}"
    );
    assert_eq!(
        at(
            &mut an,
            "main",
            Point::After(StmtId(2)),
            use_(v(arr).index(Index::Any))
        ),
        "{uninit P, x P, y P}"
    );
}

#[test]
fn loop_fixed_point() {
    // p = &a; loop { if (?) break; p = &b; }  => after: p {a P, b P}
    let mut f = F::new("main");
    let p = f.local("p", ptr(int()));
    let a_ = f.local("a", int());
    let b_ = f.local("b", int());
    let s0 = f.assign(v(p), addr(v(a_)));
    let s1 = f.assign(v(p), addr(v(b_)));
    let s2 = f.assign(v(p), use_(v(p)));
    let body = vec![
        s0,
        Stmt::Loop {
            body: vec![
                Stmt::If {
                    cond: Cond::Opaque,
                    then_branch: vec![Stmt::Break],
                    else_branch: vec![],
                },
                s1,
            ],
        },
        s2,
    ];
    let prog = Program {
        functions: vec![f.body(body)],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut an, "main", Point::Before(StmtId(2)), use_(v(p))),
        "{a P, b P}"
    );
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(1)), use_(v(p))),
        "{b D}"
    );
}

/// The paper's Figure 6 with function pointers.
fn figure6() -> Program {
    let mut globals = vec![];
    for n in ["a", "b", "c"] {
        globals.push(glob(n, int()));
    }
    for n in ["pa", "pb", "pc"] {
        globals.push(glob(n, ptr(int())));
    }
    globals.push(glob(
        "fp",
        ptr(Type::Function(Box::new(FnType {
            ret: int(),
            params: vec![],
            variadic: false,
        }))),
    ));
    let mut m = F::new("main");
    let s0 = m.assign(g("pc"), addr(g("c")));
    let s1 = m.assign(g("fp"), Rvalue::Function("foo".into()));
    let s2 = m.assign(g("fp"), Rvalue::Function("bar".into()));
    let s3 = m.call(None, Callee::Indirect(g("fp")), vec![]); // A before, B after
    let main = m.body(vec![
        s0,
        Stmt::If {
            cond: Cond::Opaque,
            then_branch: vec![s1],
            else_branch: vec![s2],
        },
        s3,
    ]);
    let mut f = F::new("foo");
    let t0 = f.assign(g("pa"), addr(g("a")));
    let t1 = f.call(None, Callee::Indirect(g("fp")), vec![]);
    let t2 = f.assign(g("pa"), use_(g("pa"))); // point C: before this
                                               // Reads of pc: a function's input holds the globals it names (refs.rs).
    let t3 = f.assign(g("pc"), use_(g("pc")));
    let foo = f.body(vec![
        t0,
        Stmt::If {
            cond: Cond::Opaque,
            then_branch: vec![t1],
            else_branch: vec![],
        },
        t2,
        t3,
    ]);
    let mut b = F::new("bar");
    let u0 = b.assign(g("pb"), addr(g("b")));
    let u1 = b.assign(g("pc"), use_(g("pc")));
    let u2 = b.assign(g("fp"), use_(g("fp")));
    let bar = b.body(vec![u0, u1, u2]);
    Program {
        globals,
        functions: vec![main, foo, bar],
        ..Program::default()
    }
}

#[test]
fn figure6_function_pointers() {
    let prog = figure6();
    let mut an = analyze(&prog, Settings::default());
    let set = |an: &mut Analysis, f: &str, p: Point, n: &str| at(an, f, p, use_(g(n)));
    // A
    assert_eq!(
        set(&mut an, "main", Point::Before(StmtId(3)), "fp"),
        "{bar P, foo P}"
    );
    assert_eq!(
        set(&mut an, "main", Point::Before(StmtId(3)), "pc"),
        "{c D}"
    );
    // B
    assert_eq!(
        set(&mut an, "main", Point::After(StmtId(3)), "fp"),
        "{bar P, foo P}"
    );
    assert_eq!(
        set(&mut an, "main", Point::After(StmtId(3)), "pa"),
        "{NULL P, a P}"
    );
    assert_eq!(
        set(&mut an, "main", Point::After(StmtId(3)), "pb"),
        "{NULL P, b P}"
    );
    assert_eq!(set(&mut an, "main", Point::After(StmtId(3)), "pc"), "{c D}");
    // C
    assert_eq!(
        set(&mut an, "foo", Point::Before(StmtId(2)), "fp"),
        "{foo D}"
    );
    assert_eq!(set(&mut an, "foo", Point::Before(StmtId(2)), "pa"), "{a D}");
    assert_eq!(set(&mut an, "foo", Point::Before(StmtId(2)), "pc"), "{c D}");
    // D
    assert_eq!(
        set(&mut an, "bar", Point::After(StmtId(0)), "fp"),
        "{bar D}"
    );
    assert_eq!(set(&mut an, "bar", Point::After(StmtId(0)), "pb"), "{b D}");
    assert_eq!(set(&mut an, "bar", Point::After(StmtId(0)), "pc"), "{c D}");
    assert_eq!(
        an.callees("main", StmtId(3)),
        vec![Name::from("bar"), Name::from("foo")]
    );
    assert_eq!(an.callees("foo", StmtId(1)), vec![Name::from("foo")]);
    let graph = an.render_graph();
    assert!(graph.contains("(approximate)"), "{graph}");
}

#[test]
fn map_unmap_invisibles() {
    // void f(int **x) { *x = &g1; }   main: int *y = &z; f(&y); => y -> g1 D
    let globals = vec![glob("g1", int())];
    let mut f = F::new("f");
    let x = f.param("x", ptr(ptr(int())));
    let s0 = f.assign(d(x), addr(g("g1")));
    let fun = f.body(vec![s0]);
    let mut m = F::new("main");
    let y = m.local("y", ptr(int()));
    let z = m.local("z", int());
    let t0 = m.assign(v(y), addr(v(z)));
    let t1 = m.call(None, Callee::Direct("f".into()), vec![addr(v(y))]);
    let t2 = m.assign(v(y), use_(v(y)));
    let main = m.body(vec![t0, t1, t2]);
    let prog = Program {
        globals,
        functions: vec![main, fun],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut an, "f", Point::Before(StmtId(0)), use_(v(x))),
        "{1_x D}"
    );
    assert_eq!(
        at(&mut an, "f", Point::Before(StmtId(0)), use_(d(x))),
        "{2_x D}"
    );
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(1)), use_(v(y))),
        "{g1 D}"
    );
}

#[test]
fn returning_a_local_dangles() {
    // int *f() { int l; return &l; }  main: p = f();
    let mut f = F::new("f");
    let l = f.local("l", int());
    let r = f.ret(ptr(int()));
    let s0 = f.assign(v(r), addr(v(l)));
    let fun = f.body(vec![s0, Stmt::Return]);
    let mut m = F::new("main");
    let p = m.local("p", ptr(int()));
    let t0 = m.call(Some(v(p)), Callee::Direct("f".into()), vec![]);
    let main = m.body(vec![t0]);
    let prog = Program {
        functions: vec![main, fun],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(0)), use_(v(p))),
        "{dangling(f::l) D}"
    );
}

#[test]
fn recursion_reaches_a_fixed_point() {
    // int *g; void r(int *p) { if (?) { g = p; r(p); } }  main: r(&x)
    let globals = vec![glob("g", ptr(int())), glob("x", int())];
    let mut f = F::new("r");
    let p = f.param("p", ptr(int()));
    let s0 = f.assign(g("g"), use_(v(p)));
    let s1 = f.call(None, Callee::Direct("r".into()), vec![use_(v(p))]);
    let fun = f.body(vec![Stmt::If {
        cond: Cond::Opaque,
        then_branch: vec![s0, s1],
        else_branch: vec![],
    }]);
    let mut m = F::new("main");
    let t0 = m.call(None, Callee::Direct("r".into()), vec![addr(g("x"))]);
    let t1 = m.assign(g("g"), use_(g("g")));
    let main = m.body(vec![t0, t1]);
    let prog = Program {
        globals,
        functions: vec![main, fun],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut an, "main", Point::Before(StmtId(1)), use_(g("g"))),
        "{NULL P, x P}"
    );
    assert_eq!(
        at(&mut an, "r", Point::After(StmtId(0)), use_(g("g"))),
        "{x D}"
    );
    // main's call has g -> NULL; the recursive call's input (g -> x) is
    // not covered by it, so it gets a node of its own (a second frame of
    // `r`), whose own recursive call is its approximate node: that one
    // is the recursive node.
    let units = an.units_of("r");
    assert_eq!(units.len(), 2);
    let recursive = units.iter().filter(|&&u| an.unit(u).recursive).count();
    assert_eq!(recursive, 1);
}

#[test]
fn malloc_free_and_alias() {
    let mut m = F::new("main");
    let p = m.local("p", ptr(int()));
    let q = m.local("q", ptr(int()));
    let s0 = m.call(
        Some(v(p)),
        Callee::Direct("malloc".into()),
        vec![Rvalue::Scalar],
    );
    let s1 = m.assign(v(q), use_(v(p)));
    let s2 = m.call(None, Callee::Direct("free".into()), vec![use_(v(p))]);
    let s3 = m.assign(v(q), use_(v(q)));
    let prog = Program {
        functions: vec![m.body(vec![s0, s1, s2, s3])],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(0)), use_(v(p))),
        "{NULL P, newest heap@main#0 P}"
    );
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(2)), use_(v(p))),
        "{NULL P, freed P}"
    );
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(2)), use_(v(q))),
        "{NULL P, freed P, newest heap@main#0 P}"
    );
    assert_eq!(
        an.alias("main", Point::After(StmtId(1)), &use_(v(p)), &use_(v(q))),
        Alias::May
    );
}

#[test]
fn extra_entry_params_may_alias() {
    let mut f = F::new("f");
    let p = f.param("p", ptr(int()));
    let q = f.param("q", ptr(int()));
    let s0 = f.assign(v(p), use_(v(p)));
    let prog = Program {
        functions: vec![f.body(vec![s0])],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    let _ = q;
    assert_eq!(
        at(&mut an, "f", Point::Before(StmtId(0)), use_(v(p))),
        "{1_p P, 1_q P, NULL P}"
    );
    assert_eq!(
        an.alias("f", Point::Before(StmtId(0)), &use_(v(p)), &use_(v(q))),
        Alias::May
    );
    assert!(an.extra_only(an.units_of("f")[0]));
}

#[test]
fn context_bound_merges_inputs() {
    // int *id(int *p) { return p; }  a = id(&x); b = id(&y); c = id(&z);
    // with a bound of 1 context: the overflowing inputs (y, then z) merge.
    let mut f = F::new("id");
    let p = f.param("p", ptr(int()));
    let r = f.ret(ptr(int()));
    let s0 = f.assign(v(r), use_(v(p)));
    let id = f.body(vec![s0]);
    let globals = vec![glob("x", int()), glob("y", int()), glob("z", int())];
    let mut m = F::new("main");
    let a_ = m.local("a", ptr(int()));
    let b_ = m.local("b", ptr(int()));
    let c_ = m.local("c", ptr(int()));
    let t0 = m.call(Some(v(a_)), Callee::Direct("id".into()), vec![addr(g("x"))]);
    let t1 = m.call(Some(v(b_)), Callee::Direct("id".into()), vec![addr(g("y"))]);
    let t2 = m.call(Some(v(c_)), Callee::Direct("id".into()), vec![addr(g("z"))]);
    let main = m.body(vec![t0, t1, t2]);
    let prog = Program {
        globals,
        functions: vec![main, id],
        ..Program::default()
    };
    let settings = Settings {
        max_contexts_per_function: 1,
        ..Settings::default()
    };
    let mut an = analyze(&prog, settings);
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(0)), use_(v(a_))),
        "{x D}"
    );
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(1)), use_(v(b_))),
        "{y D}"
    );
    // Merged with the earlier overflowing input: sound, coarser.
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(2)), use_(v(c_))),
        "{y P, z P}"
    );
    let units = an.units_of("id");
    assert_eq!(units.len(), 3);
    assert!(!an.unit(units[0]).merged && an.unit(units[2]).merged);
    // Without the bound each context keeps its own answer.
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(2)), use_(v(c_))),
        "{z D}"
    );
}

#[test]
fn chains_and_map_information() {
    // void g2(int **q) { t = *q; }  void g1(int **r) { g2(r); }
    // main: a = &x; g1(&a);
    let mut f2 = F::new("g2");
    let q = f2.param("q", ptr(ptr(int())));
    let t = f2.local("t", ptr(int()));
    let s0 = f2.assign(v(t), use_(d(q)));
    let g2 = f2.body(vec![s0]);
    let mut f1 = F::new("g1");
    let r = f1.param("r", ptr(ptr(int())));
    let c0 = f1.call(None, Callee::Direct("g2".into()), vec![use_(v(r))]);
    let g1 = f1.body(vec![c0]);
    let mut m = F::new("main");
    let a_ = m.local("a", ptr(int()));
    let x = m.local("x", int());
    let m0 = m.assign(v(a_), addr(v(x)));
    let m1 = m.call(None, Callee::Direct("g1".into()), vec![addr(v(a_))]);
    let main = m.body(vec![m0, m1]);
    let prog = Program {
        functions: vec![main, g1, g2],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(
        at(&mut an, "g2", Point::Before(StmtId(0)), use_(v(q))),
        "{1_q D}"
    );
    assert_eq!(
        at(&mut an, "g2", Point::After(StmtId(0)), use_(v(t))),
        "{2_q D}"
    );
    let u = an.units_of("g2")[0];
    let chains = an.chains(u, 8);
    assert_eq!(chains.len(), 1);
    let names: Vec<String> = chains[0].iter().map(|(n, _)| n.to_string()).collect();
    assert_eq!(names, ["main", "g1", "g2"]);
    let path = an.chain_paths(u, 8).remove(0);
    let per = an.values_at("g2", Point::After(StmtId(0)), &use_(v(q)));
    let one_q = per[0].targets.as_ref().unwrap()[0].0;
    let two_q = an.values_at("g2", Point::After(StmtId(0)), &use_(v(t)))[0]
        .targets
        .as_ref()
        .unwrap()[0]
        .0;
    let stands: Vec<String> = an
        .resolve(&path, one_q)
        .into_iter()
        .map(|l| an.name(l))
        .collect();
    assert_eq!(stands, ["a"]);
    let stands: Vec<String> = an
        .resolve(&path, two_q)
        .into_iter()
        .map(|l| an.name(l))
        .collect();
    assert_eq!(stands, ["x"]);
}

/// `(*fp)(x)` as a front end lowers it when it does not know `fp`'s type (a
/// missing header): the call goes through `*fp`, which designates the
/// function `fp` points to; the call reaches it and returns.
#[test]
fn a_call_through_the_dereferenced_function_pointer_reaches_the_function() {
    let mut m = F::new("main");
    let fp = m.local("fp", Type::Unknown);
    let r = m.local("r", ptr(Type::Scalar));
    let s0 = m.assign(v(fp), Rvalue::Function("id".into()));
    let s1 = m.call(Some(v(r)), Callee::Indirect(d(fp)), vec![use_(g("x"))]);
    let main = m.body(vec![s0, s1]);
    let mut f = F::new("id");
    let p = f.param("p", ptr(Type::Scalar));
    let ret = f.ret(ptr(Type::Scalar));
    let t0 = f.assign(v(ret), use_(v(p)));
    let id = f.body(vec![t0]);
    let prog = Program {
        globals: vec![glob("x", ptr(Type::Scalar))],
        functions: vec![main, id],
        ..Program::default()
    };
    let mut an = analyze(&prog, Settings::default());
    assert_eq!(an.callees("main", StmtId(1)), vec![Name::from("id")]);
    assert_eq!(
        at(&mut an, "main", Point::Before(StmtId(1)), use_(d(fp))),
        "{id D}"
    );
    // The call returns: `r` holds what `id` returned (`x` is NULL).
    assert_eq!(
        at(&mut an, "main", Point::After(StmtId(1)), use_(v(r))),
        "{NULL D}"
    );
}
