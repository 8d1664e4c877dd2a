//! The reference solver: seed 003's Figure 2.2 rules (New, Assign, Load,
//! Store, Call) plus the written-down rules for static calls, constructor and
//! super calls, static fields, casts (filtered by type) and arrays, applied to every reached
//! (method, context) pair over and over until nothing changes. No worklist,
//! no pointer flow graph, no dense ids: contexts, objects and facts are
//! strings in ordered sets. Slow and obviously right.

use pointee_ir::{Base, Basic, Callee, Place, Program, Rvalue, Sel, Stmt};
use std::collections::{BTreeMap, BTreeSet};

type Ctx = Vec<String>;
type Obj = (Ctx, String, String); // (heap context, "M#site", class)

pub struct Reference<'p> {
    p: &'p Program,
    kind: &'static str,
    k: usize,
    reach: BTreeSet<(String, Ctx)>,
    pt: BTreeMap<(String, Ctx, u32), BTreeSet<Obj>>,
    fpt: BTreeMap<(Obj, String), BTreeSet<Obj>>,
    spt: BTreeMap<String, BTreeSet<Obj>>,
    cg: BTreeSet<(String, Ctx, u32, String, Ctx)>,
    changed: bool,
}

fn key(c: &Ctx) -> String {
    format!("[{}]", c.join(","))
}

fn last(mut v: Vec<String>, k: usize) -> Ctx {
    let n = v.len().saturating_sub(k);
    v.drain(..n);
    v
}

impl<'p> Reference<'p> {
    pub fn run(p: &'p Program, roots: &[&str], variant: &str) -> BTreeSet<String> {
        let (kind, k) = match variant {
            "ci" => ("ci", 0),
            v => {
                let (k, kind) = v.split_once('-').unwrap();
                let kind = match kind {
                    "call" => "call",
                    "obj" => "obj",
                    _ => "type",
                };
                (kind, k.parse().unwrap())
            }
        };
        let mut r = Reference {
            p,
            kind,
            k,
            reach: BTreeSet::new(),
            pt: BTreeMap::new(),
            fpt: BTreeMap::new(),
            spt: BTreeMap::new(),
            cg: BTreeSet::new(),
            changed: true,
        };
        for root in roots {
            if p.function(root).is_some() {
                r.reach.insert((root.to_string(), Vec::new()));
            }
        }
        while r.changed {
            r.changed = false;
            for (m, c) in r.reach.clone() {
                let f = p.function(&m).unwrap();
                let mut basics = Vec::new();
                collect(&f.body, &mut basics);
                for init in r.initialised(&m, f, &basics) {
                    if r.reach.insert((init, Vec::new())) {
                        r.changed = true;
                    }
                }
                for b in basics {
                    r.rule(&m, &c, f, b);
                }
            }
        }
        r.text()
    }

    fn heap_ctx(&self, c: &Ctx) -> Ctx {
        if self.kind == "ci" {
            Vec::new()
        } else {
            last(c.clone(), self.k - 1)
        }
    }

    fn select(&self, c: &Ctx, m: &str, site: u32, recv: Option<&Obj>) -> Ctx {
        let mut v;
        match (self.kind, recv) {
            ("ci", _) => return Vec::new(),
            ("call", _) => {
                v = c.clone();
                v.push(format!("call:{m}#{site}"));
            }
            (_, None) => return c.clone(),
            ("obj", Some(o)) => {
                v = o.0.clone();
                v.push(format!("obj:{}", o.1));
            }
            (_, Some(o)) => {
                v = o.0.clone();
                let alloc_method = o.1.rsplit_once('#').unwrap().0;
                v.push(format!("type:{}", self.class_of(alloc_method)));
            }
        }
        last(v, self.k)
    }

    fn class_of(&self, method: &str) -> String {
        for c in &self.p.classes {
            // Not through a bridge (listed under another signature).
            if c.methods.iter().any(|m| {
                m.function.as_deref() == Some(method)
                    && method.ends_with(&format!(".{}", m.signature))
            }) {
                return c.name.to_string();
            }
        }
        method.split('.').next().unwrap().to_string()
    }

    fn dispatch(&self, class: &str, sig: &str) -> Option<String> {
        let class = if class.ends_with("[]") || class.ends_with("[0]") {
            "Object"
        } else {
            class
        };
        let find = |name: &str| self.p.classes.iter().find(|c| &*c.name == name);
        let mut cur = find(class);
        let mut steps = 0;
        while let Some(c) = cur {
            if let Some(m) = c
                .methods
                .iter()
                .find(|m| &*m.signature == sig && !m.is_static && m.function.is_some())
            {
                return m.function.as_deref().map(str::to_string);
            }
            cur = c.superclass.as_deref().and_then(find);
            steps += 1;
            if steps > 10_000 {
                return None;
            }
        }
        // default methods
        let mut todo = vec![class.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(x) = todo.pop() {
            if !seen.insert(x.clone()) {
                continue;
            }
            let Some(c) = find(&x) else { continue };
            if let Some(m) = c
                .methods
                .iter()
                .find(|m| &*m.signature == sig && !m.is_static && m.function.is_some())
            {
                return m.function.as_deref().map(str::to_string);
            }
            let mut sups: Vec<String> = c.superclass.iter().map(|s| s.to_string()).collect();
            sups.extend(c.interfaces.iter().map(|s| s.to_string()));
            todo.extend(sups.into_iter().rev());
        }
        None
    }

    /// The static initialisers a reached method runs (JLS 12.4.1): of its
    /// class when it is static, of the classes it instantiates and of the
    /// classes whose static fields it touches; each with its superclasses
    /// and the superinterfaces declaring a default method (JLS 12.4.2).
    fn initialised(&self, m: &str, f: &pointee_ir::Function, basics: &[&Basic]) -> Vec<String> {
        let mut classes = Vec::new();
        if f.is_static {
            classes.push(self.class_of(m));
        }
        let global = |p: &Place, out: &mut Vec<String>| {
            if let Base::Global(g) = &p.base {
                out.push(g.split('.').next().unwrap().to_string());
            }
        };
        for b in basics {
            match b {
                Basic::Assign { lhs, rhs } => {
                    global(lhs, &mut classes);
                    match rhs {
                        Rvalue::Use(p) | Rvalue::Cast(p, _) => global(p, &mut classes),
                        Rvalue::New(_, c) => classes.push(c.to_string()),
                        _ => {}
                    }
                }
                Basic::Use(p) => global(p, &mut classes),
                Basic::Call { .. } => {}
            }
        }
        let mut out = Vec::new();
        for c in classes {
            let Some(cl) = self.class(&c) else { continue };
            let mut types = vec![c.clone()];
            if !cl.is_interface {
                let mut todo = self.supers(&c);
                while let Some(x) = todo.pop() {
                    let Some(xc) = self.class(&x) else { continue };
                    let has_default = xc
                        .methods
                        .iter()
                        .any(|m| !m.is_static && m.function.is_some());
                    if !xc.is_interface || has_default {
                        types.push(x.clone());
                    }
                    todo.extend(self.supers(&x));
                }
            }
            for t in types {
                let init = format!("{t}.<clinit>()");
                if self.p.function(&init).is_some() {
                    out.push(init);
                }
            }
        }
        out
    }

    /// An object of a library class: not a class of the program, not an
    /// array.
    fn is_library_object(&self, class: &str) -> bool {
        self.class(class).is_none() && !class.ends_with("[]") && !class.ends_with("[0]")
    }

    fn class(&self, name: &str) -> Option<&pointee_ir::Class> {
        self.p.classes.iter().find(|c| &*c.name == name)
    }

    /// The declared supertypes of a class of the program (known or not).
    fn supers(&self, name: &str) -> Vec<String> {
        self.class(name)
            .map(|c| {
                c.superclass
                    .iter()
                    .chain(&c.interfaces)
                    .map(|s| s.to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// `a` reaches a type satisfying `hit` through declared supertypes.
    fn reaches(&self, a: &str, hit: &dyn Fn(&str) -> bool) -> bool {
        let mut todo = vec![a.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(x) = todo.pop() {
            if hit(&x) {
                return true;
            }
            if seen.insert(x.clone()) {
                todo.extend(self.supers(&x));
            }
        }
        false
    }

    /// May an object of class `obj` be an instance of `target`? Library
    /// types (not classes of the program) have unknown supertypes.
    fn may_fit(&self, obj: &str, target: &str) -> bool {
        const PRIM: [&str; 8] = [
            "boolean", "byte", "char", "short", "int", "long", "float", "double",
        ];
        if obj == target || target == "Object" {
            return true;
        }
        if let Some(a) = obj.strip_suffix("[]").or(obj.strip_suffix("[0]")) {
            return match target.strip_suffix("[]") {
                Some(b) if PRIM.contains(&a) || PRIM.contains(&b) => a == b,
                Some(b) => self.may_fit(a, b),
                None => target == "Cloneable" || target == "Serializable",
            };
        }
        if target.ends_with("[]") {
            return false;
        }
        let known = |n: &str| self.class(n).is_some();
        match (known(obj), known(target)) {
            (_, true) => known(obj) && self.reaches(obj, &|x| x == target),
            (true, false) => obj == "String" || self.reaches(obj, &|x| !known(x)),
            (false, false) => true,
        }
    }

    fn add(set: &mut BTreeSet<Obj>, objs: impl IntoIterator<Item = Obj>, changed: &mut bool) {
        for o in objs {
            if set.insert(o) {
                *changed = true;
            }
        }
    }

    fn get(&self, m: &str, c: &Ctx, v: u32) -> Vec<Obj> {
        self.pt
            .get(&(m.to_string(), c.clone(), v))
            .map(|s| s.iter().cloned().collect())
            .unwrap_or_default()
    }

    fn put(&mut self, m: &str, c: &Ctx, v: u32, objs: Vec<Obj>) {
        let set = self.pt.entry((m.to_string(), c.clone(), v)).or_default();
        Self::add(set, objs, &mut self.changed);
    }

    fn rule(&mut self, m: &str, c: &Ctx, f: &pointee_ir::Function, b: &Basic) {
        let var = |p: &Place| match (&p.base, p.deref, p.path.is_empty()) {
            (Base::Var(v), false, true) => Some(v.0),
            _ => None,
        };
        let field = |p: &Place| match p.path.as_slice() {
            [Sel::Field(f)] => Some(f.to_string()),
            [Sel::Index(_)] => Some("[]".to_string()),
            _ => None,
        };
        match b {
            Basic::Assign { lhs, rhs } => {
                if let Some(x) = var(lhs) {
                    match rhs {
                        Rvalue::New(s, t) => {
                            let o = (self.heap_ctx(c), format!("{m}#{}", s.0), t.to_string());
                            self.put(m, c, x, vec![o]);
                        }
                        Rvalue::String(s) => {
                            let o = (Vec::new(), format!("{m}#{}", s.0), "String".to_string());
                            self.put(m, c, x, vec![o]);
                        }
                        Rvalue::Cast(p, t) => {
                            let objs = if let Some(y) = var(p) {
                                self.get(m, c, y)
                            } else if let (Base::Global(g), false, true) =
                                (&p.base, p.deref, p.path.is_empty())
                            {
                                self.spt
                                    .get(&**g)
                                    .map(|s| s.iter().cloned().collect())
                                    .unwrap_or_default()
                            } else {
                                Vec::new()
                            };
                            let objs = objs.into_iter().filter(|o| self.may_fit(&o.2, t)).collect();
                            self.put(m, c, x, objs);
                        }
                        Rvalue::Use(p) => {
                            if let Some(y) = var(p) {
                                let objs = self.get(m, c, y);
                                self.put(m, c, x, objs);
                            } else if let (Base::Var(y), true, Some(fl)) =
                                (&p.base, p.deref, field(p))
                            {
                                let mut objs = Vec::new();
                                for o in self.get(m, c, y.0) {
                                    if let Some(s) = self.fpt.get(&(o, fl.clone())) {
                                        objs.extend(s.iter().cloned());
                                    }
                                }
                                self.put(m, c, x, objs);
                            } else if let (Base::Global(g), false, true) =
                                (&p.base, p.deref, p.path.is_empty())
                            {
                                let objs: Vec<Obj> = self
                                    .spt
                                    .get(&**g)
                                    .map(|s| s.iter().cloned().collect())
                                    .unwrap_or_default();
                                self.put(m, c, x, objs);
                            }
                        }
                        _ => {}
                    }
                    return;
                }
                let Rvalue::Use(rp) = rhs else { return };
                let Some(y) = var(rp) else { return };
                let objs = self.get(m, c, y);
                match (&lhs.base, lhs.deref, field(lhs)) {
                    (Base::Var(x), true, Some(fl)) => {
                        for o in self.get(m, c, x.0) {
                            // A zero-length array holds nothing.
                            if fl == "[]" && o.2.ends_with("[0]") {
                                continue;
                            }
                            let set = self.fpt.entry((o, fl.clone())).or_default();
                            Self::add(set, objs.clone(), &mut self.changed);
                        }
                    }
                    (Base::Global(g), false, None) if lhs.path.is_empty() => {
                        let set = self.spt.entry(g.to_string()).or_default();
                        Self::add(set, objs, &mut self.changed);
                    }
                    _ => {}
                }
            }
            Basic::Call {
                site,
                lhs,
                callee,
                args,
            } => {
                let argv: Vec<Option<u32>> = args
                    .iter()
                    .map(|a| if let Rvalue::Use(p) = a { var(p) } else { None })
                    .collect();
                // (target, callee context, receiver object)
                let mut targets: Vec<(String, Ctx, Option<Obj>)> = Vec::new();
                match callee {
                    Callee::Direct(t) => {
                        let Some(tf) = self.p.function(t) else { return };
                        if tf.is_static {
                            targets.push((t.to_string(), self.select(c, m, site.0, None), None));
                        } else if let Some(Some(r)) = argv.first() {
                            for o in self.get(m, c, *r) {
                                targets.push((
                                    t.to_string(),
                                    self.select(c, m, site.0, Some(&o)),
                                    Some(o),
                                ));
                            }
                        }
                    }
                    Callee::Virtual {
                        receiver,
                        signature,
                    } => {
                        let Some(r) = var(receiver) else { return };
                        for o in self.get(m, c, r) {
                            if let Some(t) = self.dispatch(&o.2, signature) {
                                targets.push((t, self.select(c, m, site.0, Some(&o)), Some(o)));
                            } else if self.is_library_object(&o.2)
                                && self.p.global(pointee_cspta::LIBRARY_HEAP).is_some()
                            {
                                // The library's method: receiver and
                                // arguments into the heap, the result from it.
                                let mut objs = vec![o.clone()];
                                for a in argv.iter().skip(1).flatten() {
                                    objs.extend(self.get(m, c, *a));
                                }
                                let set = self
                                    .spt
                                    .entry(pointee_cspta::LIBRARY_HEAP.to_string())
                                    .or_default();
                                Self::add(set, objs, &mut self.changed);
                                if let Some(l) = lhs.as_ref().and_then(var) {
                                    let heap: Vec<Obj> = self.spt[pointee_cspta::LIBRARY_HEAP]
                                        .iter()
                                        .cloned()
                                        .collect();
                                    self.put(m, c, l, heap);
                                }
                            }
                        }
                    }
                    Callee::Indirect(_) => {}
                }
                for (t, ct, recv) in targets {
                    let tf = self.p.function(&t).unwrap();
                    if self.reach.insert((t.clone(), ct.clone())) {
                        self.changed = true;
                    }
                    if self
                        .cg
                        .insert((m.to_string(), c.clone(), site.0, t.clone(), ct.clone()))
                    {
                        self.changed = true;
                    }
                    let skip = usize::from(!tf.is_static);
                    if let Some(o) = recv {
                        self.put(&t, &ct, tf.params[0].0, vec![o]);
                    }
                    for (i, p) in tf.params.iter().enumerate().skip(skip) {
                        if let Some(Some(a)) = argv.get(i) {
                            let objs = self.get(m, c, *a);
                            self.put(&t, &ct, p.0, objs);
                        }
                    }
                    if let (Some(rv), Some(l)) = (tf.ret_var, lhs.as_ref().and_then(var)) {
                        let objs = self.get(&t, &ct, rv.0);
                        self.put(m, c, l, objs);
                    }
                }
                let _ = f;
            }
            Basic::Use(_) => {}
        }
    }

    fn text(&self) -> BTreeSet<String> {
        let obj = |o: &Obj| format!("{}{}", key(&o.0), o.1);
        let mut out = BTreeSet::new();
        for (m, c) in &self.reach {
            out.insert(format!("reach {m} {}", key(c)));
        }
        for ((m, c, v), s) in &self.pt {
            for o in s {
                out.insert(format!("pt {m} {} v{v} -> {}", key(c), obj(o)));
            }
        }
        for ((o, f), s) in &self.fpt {
            for t in s {
                out.insert(format!("fpt {}.{f} -> {}", obj(o), obj(t)));
            }
        }
        for (g, s) in &self.spt {
            for t in s {
                out.insert(format!("spt {g} -> {}", obj(t)));
            }
        }
        for (m, c, s, t, ct) in &self.cg {
            out.insert(format!("cg {m} {} #{s} -> {t} {}", key(c), key(ct)));
        }
        out
    }
}

fn collect<'a>(block: &'a [Stmt], out: &mut Vec<&'a Basic>) {
    for s in block {
        match s {
            Stmt::Basic(_, b) => out.push(b),
            Stmt::If {
                then_branch,
                else_branch,
                ..
            } => {
                collect(then_branch, out);
                collect(else_branch, out);
            }
            Stmt::Loop { body } => collect(body, out),
            Stmt::Switch { arms, .. } => arms.iter().for_each(|a| collect(a, out)),
            _ => {}
        }
    }
}
