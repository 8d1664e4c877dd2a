//! The IR in the solver's terms: dense ids for methods, variables,
//! allocation sites, fields, static fields and signatures, each method's
//! statements sorted by rule (New, Assign, Load, Store, Call), and the class
//! hierarchy for Dispatch and cast checks.

use crate::fxhash::FxHashMap as HashMap;
use pointee_ir::{Base, Basic, Callee, Place, Program, Rvalue, Sel, Stmt};

/// The field name of the one collapsed array element (seed 003's `arr`).
pub const ARRAY_FIELD: &str = "[]";

/// The static field the front end names the library heap: what the
/// program gives the library and the library may give back (see
/// docs/java-analysis.md). A virtual call on a library object is a library
/// call through it.
pub const LIBRARY_HEAP: &str = "Library.<heap>";

#[derive(Clone, Debug)]
pub enum CallKind {
    /// A static call.
    Static(u32),
    /// A constructor or `super` call: a fixed target, a receiver object.
    Special(u32, u32),
    /// Virtual or interface dispatch on the receiver variable.
    Virtual(u32, u32),
}

#[derive(Clone, Debug)]
pub struct CallStmt {
    pub site: u32,
    pub lhs: Option<u32>,
    pub kind: CallKind,
    /// Arguments after the receiver (`None`: holds no object).
    pub args: Vec<Option<u32>>,
}

/// `to = (target) from`: passes the objects of `from` that may be
/// instances of `target`.
#[derive(Clone, Debug)]
pub struct CastStmt {
    pub from: u32,
    pub to: u32,
    pub target: String,
    /// `target` interned in [`Facts::type_names`].
    pub ty: u32,
    pub stmt: u32,
}

/// A value that is no object: the `null` constant, or what a construct the
/// front end does not model gives (`Rvalue::Unknown`). Points-to sets leave
/// both out; the nullness pass (`nullness.rs`) follows them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoObject {
    Null,
    Unknown,
}

/// Where a statement puts a value that is no object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoObjectInto {
    /// `x = null`.
    Var(u32),
    /// `x.f = null` (base, field).
    Field(u32, u32),
    /// `C.f = null`.
    Static(u32),
    /// `m(.., null, ..)`: the call (index into `calls`) and the argument
    /// (index into its `args`).
    Arg(u32, u32),
}

/// A statement (`stmt`, its id in the method) that puts `what` `into` a
/// place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoObjectFact {
    pub stmt: u32,
    pub what: NoObject,
    pub into: NoObjectInto,
}

/// What a base variable is used for, to visit only the statements a new
/// object of that variable can trigger.
#[derive(Clone, Copy, Debug)]
pub enum BaseUse {
    Load(u32),
    Store(u32),
    Call(u32),
}

#[derive(Clone, Debug, Default)]
pub struct MethodFacts {
    pub nvars: u32,
    /// Parameters after `this`.
    pub params: Vec<u32>,
    pub this: Option<u32>,
    pub ret: Option<u32>,
    pub class: u32,
    /// (variable, allocation site id)
    pub news: Vec<(u32, u32)>,
    /// (from, to): plain copies (casts are in `casts`).
    pub copies: Vec<(u32, u32)>,
    /// (to, base, field)
    pub loads: Vec<(u32, u32, u32)>,
    /// (base, field, from)
    pub stores: Vec<(u32, u32, u32)>,
    /// (to, static field)
    pub sloads: Vec<(u32, u32)>,
    /// (static field, from)
    pub sstores: Vec<(u32, u32)>,
    /// (to, static field, type): a load that passes only the instances of
    /// the type (a `catch (E e)` parameter reading the thrown objects).
    pub filtered_sloads: Vec<(u32, u32, u32)>,
    pub calls: Vec<CallStmt>,
    pub casts: Vec<CastStmt>,
    /// The statements that put `null` or an unmodelled value somewhere
    /// (the solver ignores them; `nullness.rs` reads them).
    pub no_objects: Vec<NoObjectFact>,
    /// Per variable: statements where it is a load/store base or receiver.
    pub uses: Vec<Vec<BaseUse>>,
    /// The static initialisers run when the method is first reached: of the
    /// classes it initialises (JLS 12.4.1: its own class when it is static,
    /// the classes it instantiates, the classes whose static fields it
    /// reads or writes), with their superclasses and the superinterfaces
    /// that declare default methods (JLS 12.4.2).
    pub inits: Vec<u32>,
}

#[derive(Clone, Debug)]
pub struct Alloc {
    pub method: u32,
    pub site: u32,
    /// The object's class: `A`, `A[]`, `String`.
    pub class: String,
    /// The class containing the allocation site.
    pub in_type: u32,
    pub is_string: bool,
    /// `class` interned in [`Facts::type_names`].
    pub ty: u32,
    /// A zero-length array (class `A[0]`): it holds nothing.
    pub empty: bool,
    /// An object of a library class (not an array, not a class of the
    /// program): its methods are the library's.
    pub library: bool,
    /// The class its methods are looked up in: its own, `Object` for an
    /// array, none for a library object.
    pub dispatch_class: Option<u32>,
}

#[derive(Clone, Debug, Default)]
pub struct Facts {
    pub method_names: Vec<String>,
    pub method_index: HashMap<String, u32>,
    /// Shared, so that the facts of an edited program copy only the
    /// methods that changed (`Facts::edited`).
    pub methods: Vec<std::sync::Arc<MethodFacts>>,
    pub classes: Vec<String>,
    pub class_index: HashMap<String, u32>,
    pub allocs: Vec<Alloc>,
    pub fields: Vec<String>,
    pub field_index: HashMap<String, u32>,
    pub statics: Vec<String>,
    pub static_index: HashMap<String, u32>,
    pub sigs: Vec<String>,
    pub sig_index: HashMap<String, u32>,
    /// Direct supertypes per class.
    pub supers: Vec<Vec<u32>>,
    /// Direct supertypes per class that are library types, by name.
    pub library_supers: Vec<Vec<String>>,
    /// Declared methods per class: (signature, method) for those with a body.
    pub declared: Vec<HashMap<u32, u32>>,
    pub superclass: Vec<Option<u32>>,
    pub method_static: Vec<bool>,
    /// Per class: some supertype is a library type (whose own supertypes
    /// are unknown), so its objects may be instances of any library type.
    pub open: Vec<bool>,
    /// Object classes and cast targets (and their array elements),
    /// interned, and what the type tests need of each (`types.rs`).
    pub type_names: Vec<String>,
    pub type_index: HashMap<String, u32>,
    pub types: Vec<crate::types::TypeInfo>,
    /// Per class: its direct subtypes (`supers` reversed).
    pub subclasses: Vec<Vec<u32>>,
    /// Per class: the static initialisers run when it is initialised.
    pub class_inits: Vec<Vec<u32>>,
    /// The static field [`LIBRARY_HEAP`], when the program uses it.
    pub library_heap: Option<u32>,
}

fn no_object(r: &Rvalue) -> NoObject {
    match r {
        Rvalue::Null => NoObject::Null,
        _ => NoObject::Unknown,
    }
}

fn intern(list: &mut Vec<String>, index: &mut HashMap<String, u32>, s: &str) -> u32 {
    if let Some(&i) = index.get(s) {
        return i;
    }
    let i = list.len() as u32;
    list.push(s.to_string());
    index.insert(s.to_string(), i);
    i
}

impl Facts {
    pub fn new(p: &Program) -> Facts {
        let mut f = Facts::default();
        for c in &p.classes {
            intern(&mut f.classes, &mut f.class_index, &c.name);
        }
        // A method's id is its function's index, also when a broken text
        // lowered two functions of one name: the name then resolves to the
        // first, and the other gets no facts (nothing can reach it).
        for (mi, func) in p.functions.iter().enumerate() {
            f.method_names.push(func.name.to_string());
            f.method_index
                .entry(func.name.to_string())
                .or_insert(mi as u32);
        }
        f.method_static = p.functions.iter().map(|func| func.is_static).collect();
        let nclasses = f.classes.len();
        f.supers = vec![Vec::new(); nclasses];
        f.library_supers = vec![Vec::new(); nclasses];
        f.declared = vec![HashMap::default(); nclasses];
        f.superclass = vec![None; nclasses];
        let mut method_class = vec![u32::MAX; f.method_names.len()];
        for (ci, c) in p.classes.iter().enumerate() {
            if f.class_index[&*c.name] as usize != ci {
                continue;
            }
            let mut sup = Vec::new();
            if let Some(s) = &c.superclass {
                if let Some(&si) = f.class_index.get(&**s) {
                    sup.push(si);
                    f.superclass[ci] = Some(si);
                }
            }
            for i in c.superclass.iter().chain(&c.interfaces) {
                if !f.class_index.contains_key(&**i) {
                    f.library_supers[ci].push(i.to_string());
                }
            }
            for i in &c.interfaces {
                if let Some(&ii) = f.class_index.get(&**i) {
                    sup.push(ii);
                }
            }
            f.supers[ci] = sup;
            for m in &c.methods {
                let sig = intern(&mut f.sigs, &mut f.sig_index, &m.signature);
                if let Some(func) = &m.function {
                    if let Some(&mi) = f.method_index.get(&**func) {
                        // A bridge (a method listed under another
                        // signature, as javac makes for a generic
                        // interface's method) does not make it this class's.
                        if func.ends_with(&format!(".{}", m.signature)) {
                            method_class[mi as usize] = ci as u32;
                        }
                        if !m.is_static {
                            f.declared[ci].insert(sig, mi);
                        }
                    }
                }
            }
        }
        f.subclasses = vec![Vec::new(); nclasses];
        for (c, sups) in f.supers.iter().enumerate() {
            for &s in sups {
                f.subclasses[s as usize].push(c as u32);
            }
        }
        f.open = open_classes(p, &f);
        f.class_inits = class_inits(p, &f);
        for (mi, func) in p.functions.iter().enumerate() {
            if f.method_index[&*func.name] as usize != mi {
                f.methods.push(Default::default());
                continue;
            }
            let class = match method_class[mi] {
                u32::MAX => {
                    let owner = func.name.split('.').next().unwrap_or("");
                    f.class_index.get(owner).copied().unwrap_or(0)
                }
                c => c,
            };
            let mf = f.method(func, mi as u32, class);
            f.methods.push(mf.into());
        }
        f.library_heap = f.static_index.get(LIBRARY_HEAP).copied();
        f
    }

    /// The facts of `program`, which differs from the program of `old`
    /// only in the bodies of the methods `edited` (the same classes and
    /// methods): `old`'s with those methods' facts made again. Names new
    /// to the program get new ids after the old ones; allocation sites of
    /// the edited methods are all new ones (after the old ones), the old
    /// ones staying behind unused.
    pub(crate) fn edited(old: &Facts, program: &Program, edited: &[u32]) -> Facts {
        let mut f = old.clone();
        for &m in edited {
            let func = &program.functions[m as usize];
            if f.method_index.get(&*func.name) != Some(&m) {
                continue;
            }
            let class = old.methods[m as usize].class;
            let mf = f.method(func, m, class);
            f.methods[m as usize] = mf.into();
        }
        f.library_heap = f.static_index.get(LIBRARY_HEAP).copied();
        f
    }

    fn method(&mut self, func: &pointee_ir::Function, mi: u32, class: u32) -> MethodFacts {
        let mut m = MethodFacts {
            nvars: func.vars.len() as u32,
            class,
            ret: func.ret_var.map(|v| v.0),
            ..Default::default()
        };
        let mut params = func.params.iter().map(|v| v.0);
        if !func.is_static {
            m.this = params.next();
        }
        m.params = params.collect();
        m.uses = vec![Vec::new(); func.vars.len()];
        let mut basics = Vec::new();
        collect(&func.body, &mut basics);
        let mut inits: Vec<u32> = Vec::new();
        if func.is_static {
            inits.extend(&self.class_inits[class as usize]);
        }
        for &(sid, b) in &basics {
            self.basic(&mut m, mi, sid, b);
            self.initialised_by(b, &mut inits);
        }
        inits.sort_unstable();
        inits.dedup();
        m.inits = inits;
        m
    }

    /// Adds the static initialisers a statement triggers: `new C`, and the
    /// static fields it reads or writes.
    fn initialised_by(&self, b: &Basic, out: &mut Vec<u32>) {
        let mut class = |name: &str| {
            if let Some(&c) = self.class_index.get(name) {
                out.extend(&self.class_inits[c as usize]);
            }
        };
        let mut global = |p: &Place| {
            if let Base::Global(g) = &p.base {
                class(g.split('.').next().unwrap_or(""));
            }
        };
        match b {
            Basic::Assign { lhs, rhs } => {
                global(lhs);
                match rhs {
                    Rvalue::Use(p) | Rvalue::Cast(p, _) => global(p),
                    Rvalue::New(_, c) => class(c),
                    _ => {}
                }
            }
            Basic::Use(p) => global(p),
            Basic::Call { .. } => {}
        }
    }

    fn field_of(&mut self, p: &Place) -> Option<u32> {
        match p.path.as_slice() {
            [Sel::Field(f)] => Some(intern(&mut self.fields, &mut self.field_index, f)),
            [Sel::Index(_)] => Some(intern(&mut self.fields, &mut self.field_index, ARRAY_FIELD)),
            _ => None,
        }
    }

    fn basic(&mut self, m: &mut MethodFacts, mi: u32, sid: u32, b: &Basic) {
        let var = |p: &Place| match (&p.base, p.deref, p.path.is_empty()) {
            (Base::Var(v), false, true) => Some(v.0),
            _ => None,
        };
        match b {
            Basic::Assign { lhs, rhs } => {
                if let Some(x) = var(lhs) {
                    match rhs {
                        Rvalue::New(site, class) => {
                            let a = self.alloc(mi, site.0, class, m.class, false);
                            m.news.push((x, a));
                        }
                        Rvalue::String(site) => {
                            let a = self.alloc(mi, site.0, "String", m.class, true);
                            m.news.push((x, a));
                        }
                        Rvalue::Cast(p, t) => {
                            let ty = self.intern_type(t);
                            if let Some(y) = var(p) {
                                m.casts.push(CastStmt {
                                    from: y,
                                    to: x,
                                    target: t.to_string(),
                                    ty,
                                    stmt: sid,
                                });
                            } else if let (Base::Global(g), false, true) =
                                (&p.base, p.deref, p.path.is_empty())
                            {
                                let s = intern(&mut self.statics, &mut self.static_index, g);
                                m.filtered_sloads.push((x, s, ty));
                            }
                        }
                        Rvalue::Null | Rvalue::Unknown => {
                            m.no_objects.push(NoObjectFact {
                                stmt: sid,
                                what: no_object(rhs),
                                into: NoObjectInto::Var(x),
                            });
                        }
                        Rvalue::Use(p) => {
                            if let Some(y) = var(p) {
                                m.copies.push((y, x));
                            } else if let (Base::Var(y), true) = (&p.base, p.deref) {
                                if let Some(f) = self.field_of(p) {
                                    m.uses[y.0 as usize].push(BaseUse::Load(m.loads.len() as u32));
                                    m.loads.push((x, y.0, f));
                                }
                            } else if let (Base::Global(g), false, true) =
                                (&p.base, p.deref, p.path.is_empty())
                            {
                                let s = intern(&mut self.statics, &mut self.static_index, g);
                                m.sloads.push((x, s));
                            }
                        }
                        _ => {}
                    }
                    return;
                }
                if let Rvalue::Null | Rvalue::Unknown = rhs {
                    let into = match (&lhs.base, lhs.deref) {
                        (Base::Var(x), true) => {
                            self.field_of(lhs).map(|f| NoObjectInto::Field(x.0, f))
                        }
                        (Base::Global(g), false) if lhs.path.is_empty() => {
                            Some(NoObjectInto::Static(intern(
                                &mut self.statics,
                                &mut self.static_index,
                                g,
                            )))
                        }
                        _ => None,
                    };
                    if let Some(into) = into {
                        m.no_objects.push(NoObjectFact {
                            stmt: sid,
                            what: no_object(rhs),
                            into,
                        });
                    }
                    return;
                }
                let Rvalue::Use(rp) = rhs else { return };
                let Some(y) = var(rp) else { return };
                match (&lhs.base, lhs.deref) {
                    (Base::Var(x), true) => {
                        if let Some(f) = self.field_of(lhs) {
                            m.uses[x.0 as usize].push(BaseUse::Store(m.stores.len() as u32));
                            m.stores.push((x.0, f, y));
                        }
                    }
                    (Base::Global(g), false) if lhs.path.is_empty() => {
                        let s = intern(&mut self.statics, &mut self.static_index, g);
                        m.sstores.push((s, y));
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
                let lhs = lhs.as_ref().and_then(var);
                let argv: Vec<Option<u32>> = args
                    .iter()
                    .map(|a| if let Rvalue::Use(p) = a { var(p) } else { None })
                    .collect();
                let (kind, rest) = match callee {
                    Callee::Direct(f) => {
                        let Some(&t) = self.method_index.get(&**f) else {
                            return;
                        };
                        let is_static = self.method_is_static(t, f);
                        if is_static {
                            (CallKind::Static(t), argv)
                        } else {
                            let Some(Some(r)) = argv.first().copied() else {
                                return;
                            };
                            (CallKind::Special(t, r), argv[1..].to_vec())
                        }
                    }
                    Callee::Virtual {
                        receiver,
                        signature,
                    } => {
                        let Some(r) = var(receiver) else { return };
                        let s = intern(&mut self.sigs, &mut self.sig_index, signature);
                        (
                            CallKind::Virtual(r, s),
                            argv.get(1..).map(<[_]>::to_vec).unwrap_or_default(),
                        )
                    }
                    Callee::Indirect(_) => return,
                };
                let idx = m.calls.len() as u32;
                // The arguments after the receiver, as `rest` numbers them.
                let skip = usize::from(!matches!(kind, CallKind::Static(_)));
                for (i, a) in args.iter().enumerate().skip(skip) {
                    if let Rvalue::Null | Rvalue::Unknown = a {
                        m.no_objects.push(NoObjectFact {
                            stmt: sid,
                            what: no_object(a),
                            into: NoObjectInto::Arg(idx, (i - skip) as u32),
                        });
                    }
                }
                match kind {
                    CallKind::Special(_, r) | CallKind::Virtual(r, _) => {
                        m.uses[r as usize].push(BaseUse::Call(idx))
                    }
                    CallKind::Static(_) => {}
                }
                m.calls.push(CallStmt {
                    site: site.0,
                    lhs,
                    kind,
                    args: rest,
                });
            }
            Basic::Use(_) => {}
        }
    }

    fn method_is_static(&self, t: u32, _name: &str) -> bool {
        self.method_static[t as usize]
    }

    fn alloc(&mut self, method: u32, site: u32, class: &str, in_type: u32, is_string: bool) -> u32 {
        let ty = self.intern_type(class);
        self.allocs.push(Alloc {
            method,
            site,
            class: class.to_string(),
            in_type,
            is_string,
            ty,
            empty: class.ends_with("[0]"),
            library: !self.class_index.contains_key(class) && array_element(class).is_none(),
            dispatch_class: self.class_id(class),
        });
        self.allocs.len() as u32 - 1
    }

    /// Interns a type name (and an array's element type), with what the
    /// type tests need of it.
    fn intern_type(&mut self, name: &str) -> u32 {
        if let Some(&t) = self.type_index.get(name) {
            return t;
        }
        let elem = array_element(name).map(|e| self.intern_type(e));
        let t = intern(&mut self.type_names, &mut self.type_index, name);
        self.types.push(crate::types::TypeInfo {
            class: elem.map_or_else(|| self.class_index.get(name).copied(), |_| None),
            elem,
            prim: PRIMITIVES.contains(&name),
            object: name == "Object",
            array_super: matches!(name, "Cloneable" | "Serializable"),
        });
        t
    }

    /// The class of an object, when it is one of the program's.
    pub fn class_id(&self, name: &str) -> Option<u32> {
        if array_element(name).is_some() {
            return self.class_index.get("Object").copied();
        }
        self.class_index.get(name).copied()
    }

    /// Dispatch(o, sig) for an object of class `class` (`Alloc::dispatch_class`):
    /// the first method with a body for `sig` up the superclass chain, else
    /// a default method of an interface (depth-first over the supertypes).
    pub fn dispatch(&self, class: Option<u32>, sig: u32) -> Option<u32> {
        let mut c = class;
        let mut steps = 0;
        while let Some(ci) = c {
            if let Some(&m) = self.declared[ci as usize].get(&sig) {
                return Some(m);
            }
            c = self.superclass[ci as usize];
            steps += 1;
            if steps > self.classes.len() {
                break;
            }
        }
        class.and_then(|ci| self.default_method(ci, sig))
    }

    fn default_method(&self, c: u32, sig: u32) -> Option<u32> {
        let mut todo = vec![c];
        // Hierarchies are shallow: a list is the cheapest visited set.
        let mut seen: Vec<u32> = Vec::new();
        while let Some(x) = todo.pop() {
            if seen.contains(&x) {
                continue;
            }
            seen.push(x);
            if let Some(&m) = self.declared[x as usize].get(&sig) {
                return Some(m);
            }
            todo.extend(self.supers[x as usize].iter().rev());
        }
        None
    }
}

/// Per class: the static initialisers that run when it is initialised
/// (JLS 12.4.2): its own, its superclasses', and those of its
/// superinterfaces (direct or not) that declare a default method; an
/// interface's alone.
fn class_inits(p: &Program, f: &Facts) -> Vec<Vec<u32>> {
    // The static initialiser of each class, found once.
    let mut inits: HashMap<&str, u32> = HashMap::default();
    for (m, name) in f.method_names.iter().enumerate() {
        if let Some(class) = name.strip_suffix(".<clinit>()") {
            inits.entry(class).or_insert(m as u32);
        }
    }
    let clinit = |c: usize| inits.get(f.classes[c].as_str()).copied();
    let mut is_interface = vec![false; f.classes.len()];
    let mut has_default = vec![false; f.classes.len()];
    for c in &p.classes {
        let ci = f.class_index[&*c.name] as usize;
        is_interface[ci] = c.is_interface;
        has_default[ci] = c.is_interface
            && c.methods
                .iter()
                .any(|m| !m.is_static && m.function.is_some());
    }
    (0..f.classes.len())
        .map(|c| {
            let mut out: Vec<u32> = clinit(c).into_iter().collect();
            if is_interface[c] {
                return out;
            }
            // Hierarchies are shallow: a list is the cheapest visited set.
            let mut seen: Vec<usize> = Vec::new();
            let mut todo = vec![c];
            while let Some(x) = todo.pop() {
                if seen.contains(&x) {
                    continue;
                }
                seen.push(x);
                let counts = !is_interface[x] || has_default[x];
                if x != c && counts {
                    out.extend(clinit(x));
                }
                todo.extend(f.supers[x].iter().map(|&s| s as usize));
            }
            out.sort_unstable();
            out
        })
        .collect()
}

/// The element type of an array class: `A` of `A[]`, and of `A[0]` (a
/// zero-length array, one that holds nothing).
pub fn array_element(class: &str) -> Option<&str> {
    class
        .strip_suffix("[]")
        .or_else(|| class.strip_suffix("[0]"))
}

/// The primitive types, as array element names (`int[]`).
const PRIMITIVES: [&str; 8] = [
    "boolean", "byte", "char", "short", "int", "long", "float", "double",
];

/// Per class of `f`: some supertype, transitively, is not a class of the
/// program (a library type); `String` is one too (it implements
/// `CharSequence`, `Comparable`, ...).
fn open_classes(p: &Program, f: &Facts) -> Vec<bool> {
    let n = f.classes.len();
    let mut direct = vec![false; n];
    for c in &p.classes {
        let ci = f.class_index[&*c.name] as usize;
        let unknown = |s: &pointee_ir::Name| !f.class_index.contains_key(&**s);
        direct[ci] |= c.superclass.iter().chain(&c.interfaces).any(unknown);
    }
    if let Some(&s) = f.class_index.get("String") {
        direct[s as usize] = true;
    }
    let mut open = direct;
    let mut changed = true;
    while changed {
        changed = false;
        for c in 0..n {
            if !open[c] && f.supers[c].iter().any(|&s| open[s as usize]) {
                open[c] = true;
                changed = true;
            }
        }
    }
    open
}

fn collect<'a>(block: &'a [Stmt], out: &mut Vec<(u32, &'a Basic)>) {
    pointee_ir::for_each_basic(block, &mut |id, b| out.push((id.0, b)));
}
