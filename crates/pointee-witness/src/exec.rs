//! The bounded symbolic executor (seed 002, Fig. 5) over pointee's
//! structured IR, with lazy initialisation of the input.
//!
//! A state is a stack of frames (cells by variable and path), the heap
//! (objects with cells by path) and the record of the input chosen so far.
//! Statements map a state to the states that follow it: a read of an input
//! pointer not yet given a value forks one state per candidate; a branch
//! forks one per side. Integers are symbolic ([`Num`]): an input integer
//! cell is a fresh constant when first read, integer stores keep their
//! expression, and an integer comparison forks the sides Z3 finds
//! satisfiable. A branch the IR keeps opaque (or a comparison on an
//! integer the executor does not know) takes both sides, and the witness
//! counts it as assumed.
//!
//! Never does I/O; facts come only through [`Facts`].

use crate::solve::{self, IntFact, Num};
use crate::spec::{Arith, Atom, Term};
use crate::{
    Bounds, Decision, Facts, Fault, InputObject, Outcome, Pointee, Query, Stats, Value, Witness,
};
use pointee_ir::{
    Base, Basic, Callee, Class, Cond, Function, GlobalInit, GlobalKind, IntExpr, Name, Operand,
    Place, Point, Program, Rvalue, Sel, Stmt, StmtId, Type, VarId, VarKind,
};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Searches an input of `query.function` that makes the dereference of
/// `query.target` fault (NULL or freed), within the bounds.
pub fn find(program: &Program, query: &Query, facts: &mut dyn Facts) -> Outcome {
    let Some(f) = program.function(&query.function) else {
        return Outcome::NoFunction;
    };
    let mut ex = Executor::new(program, query, facts, false);
    ex.run(f);
    let stats = ex.stats;
    match ex.best {
        Some(w) => Outcome::Found(w, stats),
        None if ex.exhausted => Outcome::BudgetExhausted(stats),
        None => Outcome::NoneWithinBounds(stats),
    }
}

/// Test generation (the seed's evaluation): one input per path of
/// `query.function` that ends within the bounds (returns, exits, or
/// faults), ignoring `query.target`; and whether the budget ran out.
pub fn generate(
    program: &Program,
    query: &Query,
    facts: &mut dyn Facts,
) -> Option<(Vec<Witness>, Stats, bool)> {
    let f = program.function(&query.function)?;
    let mut ex = Executor::new(program, query, facts, true);
    ex.run(f);
    Some((ex.generated.unwrap_or_default(), ex.stats, ex.exhausted))
}

impl<'p, 'q> Executor<'p, 'q> {
    fn new(
        program: &'p Program,
        query: &'q Query,
        facts: &'q mut dyn Facts,
        generate: bool,
    ) -> Executor<'p, 'q> {
        Executor {
            program,
            query,
            facts,
            start: Instant::now(),
            stats: Stats::default(),
            best: None,
            done: false,
            exhausted: false,
            generated: generate.then(Vec::new),
        }
    }

    fn run(&mut self, f: &'p Function) {
        let ex = self;
        let query = ex.query;
        let mut st = State {
            frames: vec![Frame::new(f)],
            objs: Vec::new(),
            globals: BTreeMap::new(),
            inputs: Vec::new(),
            path: Vec::new(),
            assumed: 0,
            unmodelled: 0,
            syms: vec![Sym {
                parent: 0,
                bound: Some(Bound::Null),
                ty: Type::Unknown,
            }],
            pending: Vec::new(),
            owned: BTreeSet::new(),
            diseqs: Vec::new(),
            init: Vec::new(),
            allocs: 0,
            failed_allocs: Vec::new(),
            frames_pushed: 1,
            int_inputs: Vec::new(),
            int_facts: Vec::new(),
        };
        st.frames[0].input = true;
        let mut starts = vec![st];
        if let Some(requires) = query.spec.as_ref().and_then(|s| s.requires.clone()) {
            // The parameters are the precondition's free variables; each
            // disjunct is a start.
            let mut st = starts.pop().expect("the start");
            let mut env = HashMap::new();
            let mut ints = HashMap::new();
            for &p in &f.params {
                let var = f.var(p);
                if var.ty.is_pointer_like() {
                    let v = st.new_sym(var.ty.clone());
                    st.frames[0].cells.insert((p, Vec::new()), Val::Sym(v));
                    st.init.push((Loc::Var(0, p), Vec::new(), v));
                    env.insert(var.name.to_string(), v);
                } else if var.ty == Type::Scalar {
                    let n = Rc::new(Num::Input(st.int_inputs.len()));
                    st.int_inputs.push((Loc::Var(0, p), Vec::new()));
                    st.frames[0]
                        .cells
                        .insert((p, Vec::new()), Val::Num(n.clone()));
                    ints.insert(var.name.to_string(), n);
                }
            }
            for d in &requires {
                if let Some(s) = ex.assume(st.clone(), d, &mut env.clone(), &mut ints.clone()) {
                    starts.push(s);
                }
            }
        }
        for st in starts {
            for (st, _) in ex.block(st, &f.body) {
                ex.stats.paths += 1;
                ex.record(&st, None);
            }
        }
    }
}

/// Where a value lives.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Loc {
    /// A variable of the frame with this id (ids are never reused, so a
    /// pointer into a frame that returned is seen as dangling).
    Var(usize, VarId),
    Global(Name),
    Obj(usize),
}

#[derive(Clone, Debug, PartialEq)]
enum Val {
    Null,
    /// The address of a cell: a location and a path inside it.
    Ptr(Loc, Vec<Sel>),
    Func(Name),
    /// A non-pointer value the executor does not know.
    Int,
    /// An integer it knows (symbolically).
    Num(Rc<Num>),
    /// An input integer not read yet.
    LazyInt,
    /// Never written (an uninitialised local, `malloc`'s memory).
    Undef,
    /// Made by code the executor does not model.
    Unknown,
    /// An input pointer of this type not read yet.
    Lazy(Type),
    /// An input pointer the precondition names: a logical variable.
    Sym(usize),
}

/// What a logical variable is bound to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Null,
    Obj(usize),
}

/// A logical variable of the path condition (union-find over equalities;
/// variable 0 is NULL).
#[derive(Clone, Debug)]
struct Sym {
    parent: usize,
    bound: Option<Bound>,
    /// The pointer's type, when known.
    ty: Type,
}

/// How deep a read unfolds predicates before the path is cut.
const MAX_UNFOLD: u32 = 16;
/// Unfoldings that may close a witness's pending predicates.
const MAX_CLOSE: u32 = 256;

#[derive(Clone, Debug)]
struct Obj {
    /// The type of an input object; `None` for an allocated one.
    ty: Option<Type>,
    cells: BTreeMap<Vec<Sel>, Val>,
    /// The input object's number (`o1` is 0).
    input: Option<usize>,
    freed: bool,
    /// What the value that first pointed to it may point to.
    facts: Option<Vec<Pointee>>,
    /// The value of a cell never written (allocated objects).
    default: Val,
    /// The class of a Java object made by `new` (an input object's is
    /// its type), for virtual dispatch.
    class: Option<Name>,
}

#[derive(Clone, Debug)]
struct Frame<'p> {
    /// Unique within a path; the analysed function's frame is 0.
    id: usize,
    func: &'p Function,
    cells: BTreeMap<(VarId, Vec<Sel>), Val>,
    /// The frame of the analysed function, whose parameters are input.
    input: bool,
    /// The program point of the last read (for the facts).
    point: Option<Point>,
    last: Option<StmtId>,
}

impl<'p> Frame<'p> {
    fn new(func: &'p Function) -> Frame<'p> {
        Frame {
            id: 0,
            func,
            cells: BTreeMap::new(),
            input: false,
            point: None,
            last: None,
        }
    }
}

/// One lazy-initialisation choice: which input cell got which value.
#[derive(Clone, Debug)]
struct Choice {
    loc: Loc,
    path: Vec<Sel>,
    /// `None`: NULL; else the object's index in `State::objs`.
    obj: Option<usize>,
}

#[derive(Clone, Debug)]
struct State<'p> {
    frames: Vec<Frame<'p>>,
    objs: Vec<Obj>,
    globals: BTreeMap<(Name, Vec<Sel>), Val>,
    inputs: Vec<Choice>,
    path: Vec<Decision>,
    assumed: usize,
    unmodelled: usize,
    syms: Vec<Sym>,
    /// Predicate instances not unfolded yet (name, argument variables).
    pending: Vec<(String, Vec<usize>)>,
    /// Objects a points-to atom claimed (`*` keeps them apart).
    owned: BTreeSet<usize>,
    /// Variables that must differ.
    diseqs: Vec<(usize, usize)>,
    /// Input cells that start as a logical variable.
    init: Vec<(Loc, Vec<Sel>, usize)>,
    /// `malloc` and `calloc` calls run so far, and the ones (1-based)
    /// that returned NULL.
    allocs: u32,
    failed_allocs: Vec<u32>,
    /// Frames pushed so far on the path (the next frame's id).
    frames_pushed: usize,
    /// The input's integer cells read so far (`Num::Input(k)` is the
    /// value of the k-th).
    int_inputs: Vec<(Loc, Vec<Sel>)>,
    /// The integer branches the path took.
    int_facts: Vec<IntFact>,
}

impl<'p> State<'p> {
    fn new_sym(&mut self, ty: Type) -> usize {
        self.syms.push(Sym {
            parent: self.syms.len(),
            bound: None,
            ty,
        });
        self.syms.len() - 1
    }
    fn find(&self, mut v: usize) -> usize {
        while self.syms[v].parent != v {
            v = self.syms[v].parent;
        }
        v
    }
    fn bound(&self, v: usize) -> Option<Bound> {
        self.syms[self.find(v)].bound
    }
    /// No two variables that must differ are equal.
    fn consistent(&self) -> bool {
        self.diseqs.iter().all(|&(a, b)| {
            let (ra, rb) = (self.find(a), self.find(b));
            ra != rb
                && !matches!((self.syms[ra].bound, self.syms[rb].bound), (Some(x), Some(y)) if x == y)
        })
    }
    /// `a == b`; false when the path condition becomes unsatisfiable.
    fn unify(&mut self, a: usize, b: usize) -> bool {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra == rb {
            return true;
        }
        let (ba, bb) = (self.syms[ra].bound, self.syms[rb].bound);
        if let (Some(x), Some(y)) = (ba, bb) {
            if x != y {
                return false;
            }
        }
        // NULL (0) stays a representative.
        let (keep, gone) = if rb == 0 { (rb, ra) } else { (ra, rb) };
        self.syms[gone].parent = keep;
        self.syms[keep].bound = ba.or(bb);
        if self.syms[keep].ty == Type::Unknown {
            self.syms[keep].ty = self.syms[gone].ty.clone();
        }
        self.consistent()
    }
    fn bind(&mut self, v: usize, b: Bound) -> bool {
        let r = self.find(v);
        match self.syms[r].bound {
            Some(x) => x == b,
            None => {
                if b == Bound::Null {
                    return self.unify(r, 0);
                }
                self.syms[r].bound = Some(b);
                self.consistent()
            }
        }
    }
    fn frame(&self) -> &Frame<'p> {
        self.frames.last().expect("a frame")
    }
    fn frame_mut(&mut self) -> &mut Frame<'p> {
        self.frames.last_mut().expect("a frame")
    }
    /// How a dereference of a pointer to `l` faults: freed memory, or a
    /// local of a function that returned.
    fn invalid(&self, l: &Loc) -> Option<Fault> {
        match l {
            Loc::Obj(k) if self.objs[*k].freed => Some(Fault::UseAfterFree),
            Loc::Var(id, _) if self.live_frame(*id).is_none() => Some(Fault::Dangling),
            _ => None,
        }
    }
    fn live_frame(&self, id: usize) -> Option<&Frame<'p>> {
        self.frames.iter().rev().find(|f| f.id == id)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ctl {
    Next,
    Break,
    Continue,
    Return,
}

struct Executor<'p, 'q> {
    program: &'p Program,
    query: &'q Query,
    facts: &'q mut dyn Facts,
    start: Instant,
    stats: Stats,
    best: Option<Witness>,
    /// A witness that assumes nothing was found: stop.
    done: bool,
    /// The budget ran out.
    exhausted: bool,
    /// In test generation, the input of every path that ended.
    generated: Option<Vec<Witness>>,
}

/// The type at `path` inside a value of type `ty`.
fn type_at(program: &Program, ty: &Type, path: &[Sel]) -> Type {
    let mut t = ty.clone();
    for s in path {
        t = match (s, &t) {
            (Sel::Field(f), Type::Record(r)) => program
                .types
                .field_type(r, f)
                .cloned()
                .unwrap_or(Type::Unknown),
            (Sel::Field(f), Type::Class(c)) => class_field(program, c, f).unwrap_or(Type::Unknown),
            (Sel::Index(_), Type::Array(e, _)) => (**e).clone(),
            _ => Type::Unknown,
        };
    }
    t
}

/// The type of an object a pointer of type `ty` points to: the pointee of
/// a C pointer; for a Java reference, its class.
fn object_type(ty: &Type) -> Type {
    match ty {
        Type::Pointer(t) => (**t).clone(),
        Type::Class(_) => ty.clone(),
        _ => Type::Unknown,
    }
}

/// The classes from `class` up its superclasses.
fn class_chain<'p>(program: &'p Program, class: &str) -> impl Iterator<Item = &'p Class> + 'p {
    let mut next = program.classes.iter().find(|c| &*c.name == class);
    std::iter::from_fn(move || {
        let c = next?;
        next = c
            .superclass
            .as_ref()
            .and_then(|s| program.classes.iter().find(|k| k.name == *s));
        Some(c)
    })
}

/// The type of a Java field, declared in `class` or a superclass.
fn class_field(program: &Program, class: &str, field: &str) -> Option<Type> {
    class_chain(program, class)
        .find_map(|c| c.fields.iter().find(|f| &*f.name == field))
        .map(|f| f.ty.clone())
}

/// The method a virtual call of `signature` on an object of `class` runs.
fn dispatch<'p>(program: &'p Program, class: &str, signature: &str) -> Option<&'p Function> {
    class_chain(program, class)
        .find_map(|c| c.methods.iter().find(|m| &*m.signature == signature))
        .and_then(|m| m.function.as_ref())
        .and_then(|f| program.function(f))
}

/// The value of a cell of the input never read: a pointer or an integer
/// waits to be chosen, anything else is some scalar.
fn input_value(ty: Type) -> Val {
    if ty.is_pointer_like() {
        Val::Lazy(ty)
    } else if ty == Type::Scalar {
        Val::LazyInt
    } else {
        Val::Int
    }
}

/// `k`, `n`, `x->key` for the path decisions.
fn operand_text(f: &Function, o: &Operand, spelling: Spelling) -> String {
    match o {
        Operand::Place(p) => place_text(f, p, spelling),
        Operand::Int(k) => k.to_string(),
    }
}

/// How the path decisions spell places and null: C's `p->f` and `NULL`,
/// or Java's `p.f` and `null`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Spelling {
    C,
    Java,
}

/// `p`, `p->f`, `s.f[0]`, `*p` (Java: `p.f`) for the path decisions.
fn place_text(f: &Function, p: &Place, spelling: Spelling) -> String {
    if let (Base::Var(v), false, true) = (&p.base, p.deref, p.path.is_empty()) {
        if let Some(text) = temp_text(f, *v, spelling) {
            return text;
        }
    }
    let mut s = match &p.base {
        Base::Var(v) => f.var(*v).name.to_string(),
        Base::Global(g) => g.to_string(),
    };
    let mut sels = p.path.iter();
    if p.deref {
        match p.path.first() {
            Some(Sel::Field(name)) => {
                let arrow = if spelling == Spelling::Java {
                    "."
                } else {
                    "->"
                };
                s = format!("{s}{arrow}{name}");
                sels.next();
            }
            Some(Sel::Index(_)) => {}
            None => s = format!("*{s}"),
        }
    }
    for sel in sels {
        match sel {
            Sel::Field(name) => s = format!("{s}.{name}"),
            Sel::Index(pointee_ir::Index::Zero) => s.push_str("[0]"),
            Sel::Index(_) => s.push_str("[i]"),
        }
    }
    s
}

/// What a temporary the front end made holds (`x->key + 1`, Java's
/// tested `l.size`), when one statement defines it: the path decisions
/// then read as the source's condition.
fn temp_text(f: &Function, t: VarId, spelling: Spelling) -> Option<String> {
    if f.var(t).kind != VarKind::Temp {
        return None;
    }
    let mut defs = Vec::new();
    pointee_ir::for_each_basic(&f.body, &mut |_, b| {
        if let Basic::Assign { lhs, rhs } = b {
            if *lhs == Place::var(t) {
                defs.push(rhs);
            }
        }
    });
    match defs.as_slice() {
        [Rvalue::Use(q)] if *q != Place::var(t) => Some(place_text(f, q, spelling)),
        [Rvalue::Int(e)] => Some(int_expr_text(f, e, spelling)),
        _ => None,
    }
}

fn int_expr_text(f: &Function, e: &IntExpr, spelling: Spelling) -> String {
    match e {
        IntExpr::Operand(o) => operand_text(f, o, spelling),
        IntExpr::Bin(a, op, b) => {
            let side = |x: &IntExpr| match x {
                IntExpr::Bin(..) => format!("({})", int_expr_text(f, x, spelling)),
                IntExpr::Operand(_) => int_expr_text(f, x, spelling),
            };
            format!("{} {} {}", side(a), op.token(), side(b))
        }
    }
}

fn cond_text(f: &Function, c: &Cond, spelling: Spelling) -> Option<String> {
    let null = if spelling == Spelling::Java {
        "null"
    } else {
        "NULL"
    };
    Some(match c {
        Cond::IsNull(p) => format!("{} == {null}", place_text(f, p, spelling)),
        Cond::NotNull(p) => format!("{} != {null}", place_text(f, p, spelling)),
        Cond::Opaque => return None,
        Cond::Compare(a, op, b) => format!(
            "{} {} {}",
            operand_text(f, a, spelling),
            op.token(),
            operand_text(f, b, spelling)
        ),
        Cond::And(a, b) => format!(
            "{} && {}",
            cond_text(f, a, spelling)?,
            cond_text(f, b, spelling)?
        ),
        Cond::Or(a, b) => format!(
            "({} || {})",
            cond_text(f, a, spelling)?,
            cond_text(f, b, spelling)?
        ),
    })
}

const ALLOCATORS: &[&str] = &["malloc", "calloc", "aligned_alloc", "xmalloc", "xcalloc"];
const STOPPERS: &[&str] = &["exit", "abort", "_exit", "_Exit", "__assert_fail"];

impl<'p> Executor<'p, '_> {
    fn bounds(&self) -> Bounds {
        self.query.bounds
    }

    fn time_budget(&self) -> Duration {
        Duration::from_millis(self.bounds().time_ms)
    }

    /// True when the search must stop (found, or out of budget).
    fn stop(&mut self) -> bool {
        if self.done || self.exhausted {
            return true;
        }
        self.facts.check_cancelled();
        let b = self.bounds();
        if self.stats.paths >= b.max_paths || self.start.elapsed() >= self.time_budget() {
            self.exhausted = true;
        }
        self.exhausted
    }

    /// Test generation keeps the input of every path the budget cut, while
    /// time is left.
    fn keep_cut(&mut self, states: impl Iterator<Item = State<'p>>) {
        for st in states {
            if self.start.elapsed() >= self.time_budget() {
                break;
            }
            self.record(&st, None);
        }
    }

    /// A path ends here without reaching the fault.
    fn end(&mut self) {
        self.stats.paths += 1;
    }

    fn block(&mut self, st: State<'p>, b: &'p [Stmt]) -> Vec<(State<'p>, Ctl)> {
        let mut cur = vec![st];
        let mut out = Vec::new();
        for s in b {
            let mut next = Vec::new();
            let mut states = cur.into_iter();
            while let Some(st) = states.next() {
                if self.stop() {
                    let ended = out.into_iter().map(|(s, _)| s);
                    self.keep_cut(std::iter::once(st).chain(states).chain(next).chain(ended));
                    return Vec::new();
                }
                for (st, ctl) in self.stmt(st, s) {
                    if ctl == Ctl::Next {
                        next.push(st);
                    } else {
                        out.push((st, ctl));
                    }
                }
            }
            cur = next;
            if cur.is_empty() {
                break;
            }
        }
        out.extend(cur.into_iter().map(|s| (s, Ctl::Next)));
        out
    }

    fn stmt(&mut self, st: State<'p>, s: &'p Stmt) -> Vec<(State<'p>, Ctl)> {
        match s {
            Stmt::Basic(id, b) => self
                .basic(st, *id, b)
                .into_iter()
                .map(|s| (s, Ctl::Next))
                .collect(),
            Stmt::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let f = st.frame().func;
                let spelling = if self.program.classes.is_empty() {
                    Spelling::C
                } else {
                    Spelling::Java
                };
                let test = cond_text(f, cond, spelling);
                let mut out = Vec::new();
                for (mut st, taken) in self.cond(st, cond) {
                    st.path.push(Decision {
                        function: f.name.clone(),
                        after: st.frame().last,
                        test: test.clone(),
                        taken,
                    });
                    let branch = if taken { then_branch } else { else_branch };
                    out.extend(self.block(st, branch));
                }
                out
            }
            Stmt::Loop { body } => {
                let mut cur = vec![st];
                let mut out = Vec::new();
                for _ in 0..self.bounds().loop_unfoldings {
                    // A body of no statement never stops by itself.
                    if self.stop() {
                        self.keep_cut(std::mem::take(&mut cur).into_iter());
                        break;
                    }
                    let mut next = Vec::new();
                    for st in cur {
                        for (s, ctl) in self.block(st, body) {
                            match ctl {
                                Ctl::Break => out.push((s, Ctl::Next)),
                                Ctl::Return => out.push((s, Ctl::Return)),
                                Ctl::Next | Ctl::Continue => next.push(s),
                            }
                        }
                    }
                    cur = next;
                    if cur.is_empty() {
                        break;
                    }
                }
                // Paths still in the loop after the last unfolding.
                self.stats.cut += cur.len() as u32;
                self.stats.paths += cur.len() as u32;
                out
            }
            Stmt::Switch { arms, has_default } => {
                let mut out = Vec::new();
                let f = st.frame().func;
                let entries = arms.len() + usize::from(!has_default);
                for entry in 0..entries {
                    let mut s = st.clone();
                    s.assumed += 1;
                    s.path.push(Decision {
                        function: f.name.clone(),
                        after: s.frame().last,
                        test: None,
                        taken: entry < arms.len(),
                    });
                    let mut cur = vec![s];
                    for arm in arms.iter().skip(entry) {
                        let mut next = Vec::new();
                        for s in cur {
                            for (s, ctl) in self.block(s, arm) {
                                match ctl {
                                    Ctl::Next => next.push(s),
                                    Ctl::Break => out.push((s, Ctl::Next)),
                                    c => out.push((s, c)),
                                }
                            }
                        }
                        cur = next;
                    }
                    out.extend(cur.into_iter().map(|s| (s, Ctl::Next)));
                }
                out
            }
            Stmt::Break => vec![(st, Ctl::Break)],
            Stmt::Continue => vec![(st, Ctl::Continue)],
            Stmt::Return => vec![(st, Ctl::Return)],
            Stmt::Label(_) => vec![(st, Ctl::Next)],
            Stmt::Goto(_) => {
                // Not modelled: the path is cut.
                self.stats.cut += 1;
                self.end();
                Vec::new()
            }
        }
    }

    /// The states where `c` holds (true) or not (false).
    fn cond(&mut self, st: State<'p>, c: &Cond) -> Vec<(State<'p>, bool)> {
        match c {
            Cond::IsNull(p) | Cond::NotNull(p) => {
                let want_null = matches!(c, Cond::IsNull(_));
                let mut out = Vec::new();
                for (mut st, v) in self.read(st, p) {
                    match v {
                        Val::Null => out.push((st, want_null)),
                        Val::Ptr(..) | Val::Func(_) => out.push((st, !want_null)),
                        _ => {
                            st.assumed += 1;
                            out.push((st.clone(), true));
                            out.push((st, false));
                        }
                    }
                }
                out
            }
            Cond::Opaque => {
                let mut st = st;
                st.assumed += 1;
                vec![(st.clone(), true), (st, false)]
            }
            Cond::Compare(a, op, b) => {
                let mut out = Vec::new();
                for (st, x) in self.operand(st, a) {
                    for (mut st, y) in self.operand(st, b) {
                        let (Some(x), Some(y)) = (x.clone(), y) else {
                            // An integer not modelled: both sides, assumed.
                            st.assumed += 1;
                            out.push((st.clone(), true));
                            out.push((st, false));
                            continue;
                        };
                        for (side, op) in [(true, *op), (false, op.negate())] {
                            let mut s = st.clone();
                            s.int_facts.push((x.clone(), op, y.clone()));
                            if solve::integers(s.int_inputs.len(), &s.int_facts).is_some() {
                                out.push((s, side));
                            } else {
                                self.stats.infeasible += 1;
                            }
                        }
                    }
                }
                out
            }
            Cond::And(a, b) | Cond::Or(a, b) => {
                let is_and = matches!(c, Cond::And(..));
                let mut out = Vec::new();
                for (st, ta) in self.cond(st, a) {
                    if ta == is_and {
                        out.extend(self.cond(st, b));
                    } else {
                        out.push((st, ta));
                    }
                }
                out
            }
        }
    }

    fn basic(&mut self, mut st: State<'p>, id: StmtId, b: &'p Basic) -> Vec<State<'p>> {
        st.frame_mut().point = Some(Point::Before(id));
        let mut states = vec![st];
        let is_target = self.query.target.as_ref().is_some_and(|t| t.stmt == id);
        if self.generated.is_none()
            && is_target
            && *states[0].frame().func.name == *self.query.function
        {
            states = self.check_target(states.pop().expect("one state"));
        }
        let mut out = Vec::new();
        for st in states {
            for mut s in self.effect(st, b) {
                let fr = s.frame_mut();
                fr.point = Some(Point::After(id));
                fr.last = Some(id);
                out.push(s);
            }
        }
        out
    }

    /// Reads the target pointer: a state where it is NULL or freed is a
    /// witness; the others go on.
    fn check_target(&mut self, st: State<'p>) -> Vec<State<'p>> {
        let pointer = self
            .query
            .target
            .as_ref()
            .expect("a target")
            .pointer
            .clone();
        let mut out = Vec::new();
        for (st, v) in self.read(st, &pointer) {
            let fault = match &v {
                Val::Null => Some(Fault::Null),
                Val::Ptr(l, _) => st.invalid(l),
                _ => None,
            };
            match fault {
                Some(fault) => {
                    self.end();
                    self.witness(&st, fault);
                }
                None => out.push(st),
            }
        }
        out
    }

    /// Unfolds the predicates a path left pending, smallest disjuncts
    /// first, until none is left: the input becomes fully initialised
    /// (the seed's concretisation). `None` when no closing is found within
    /// the rounds.
    fn close(&mut self, st: State<'p>) -> Option<State<'p>> {
        let mut stack = vec![st];
        let mut steps = 0;
        while let Some(mut s) = stack.pop() {
            if s.pending.is_empty() {
                return Some(s);
            }
            steps += 1;
            if steps > MAX_CLOSE {
                return None;
            }
            let (name, args) = s.pending.remove(0);
            let mut unfolded = self.unfold(s, &name, &args);
            // Depth first, base cases (fewer pending instances) first.
            unfolded.sort_by_key(|s| std::cmp::Reverse(s.pending.len()));
            stack.extend(unfolded);
        }
        None
    }

    /// Records the witness of `st` when it assumes less than the best so
    /// far; one that assumes nothing ends the search.
    fn witness(&mut self, st: &State<'p>, fault: Fault) {
        let Some(w) = self.input(st, Some(fault)) else {
            return;
        };
        let assumes = w.assumed + w.unmodelled_calls;
        if let Some(b) = &self.best {
            if b.assumed + b.unmodelled_calls <= assumes {
                return;
            }
        }
        self.best = Some(w);
        if assumes == 0 {
            self.done = true;
        }
    }

    /// In test generation, records the input of a path that ended.
    fn record(&mut self, st: &State<'p>, fault: Option<Fault>) {
        if self.generated.is_some() {
            if let Some(w) = self.input(st, fault) {
                self.generated.as_mut().expect("generating").push(w);
            }
        }
    }

    /// The fully initialised input of a path, or `None` when its path
    /// condition is unsatisfiable (or cannot be closed).
    fn input(&mut self, st: &State<'p>, fault: Option<Fault>) -> Option<Witness> {
        let Some(mut st) = self.close(st.clone()) else {
            self.stats.cut += 1;
            return None;
        };
        // A variable nothing bound is NULL, or a fresh object where it
        // must not be NULL.
        for v in 1..st.syms.len() {
            let r = st.find(v);
            if st.syms[r].bound.is_none() {
                let must_be = st.diseqs.iter().any(|&(a, b)| {
                    (st.find(a) == r && st.find(b) == 0) || (st.find(b) == r && st.find(a) == 0)
                });
                let b = if must_be {
                    let ty = object_type(&st.syms[r].ty);
                    Bound::Obj(st.new_object(ty, None))
                } else {
                    Bound::Null
                };
                if !st.bind(r, b) {
                    self.stats.infeasible += 1;
                    return None;
                }
            }
        }
        let objects: Vec<usize> = (0..st.objs.len())
            .filter(|&k| st.objs[k].input.is_some())
            .collect();
        let number = |k: usize| st.objs[k].input.expect("an input object");
        let mut choices: Vec<solve::Choice> = st.inputs.iter().map(|c| c.obj.map(number)).collect();
        let sym_value = |v: usize| match st.bound(v) {
            Some(Bound::Obj(k)) => Some(number(k)),
            _ => None,
        };
        choices.extend(st.init.iter().map(|&(_, _, v)| sym_value(v)));
        let distinct: Vec<(solve::Choice, solve::Choice)> = st
            .diseqs
            .iter()
            .map(|&(a, b)| (sym_value(a), sym_value(b)))
            .collect();
        if solve::addresses(objects.len(), &choices, &distinct).is_none() {
            self.stats.infeasible += 1;
            return None;
        }
        let Some(ints) = solve::integers(st.int_inputs.len(), &st.int_facts) else {
            self.stats.infeasible += 1;
            return None;
        };
        // The model's value of each integer input cell read.
        let int_at = |l: &Loc, path: &[Sel]| {
            st.int_inputs
                .iter()
                .position(|(il, ip)| il == l && ip == path)
                .map(|k| Value::Int(ints[k]))
        };
        let value = |obj: Option<usize>| match obj {
            None => Value::Null,
            Some(k) => Value::Object(number(k)),
        };
        let sym = |v: usize| match st.bound(v) {
            Some(Bound::Obj(k)) => Some(k),
            _ => None,
        };
        let f = st.frames[0].func;
        let args = f
            .params
            .iter()
            .map(|&p| {
                let var = f.var(p);
                let at = |l: &Loc, path: &[Sel]| *l == Loc::Var(0, p) && path.is_empty();
                let v = st
                    .inputs
                    .iter()
                    .find(|c| at(&c.loc, &c.path))
                    .map(|c| value(c.obj))
                    .or_else(|| {
                        st.init
                            .iter()
                            .find(|(l, path, _)| at(l, path))
                            .map(|&(_, _, v)| value(sym(v)))
                    })
                    .or_else(|| int_at(&Loc::Var(0, p), &[]))
                    .unwrap_or(if var.ty.is_pointer_like() {
                        Value::Null
                    } else {
                        Value::Scalar
                    });
                (var.name.clone(), var.ty.clone(), v)
            })
            .collect();
        let objects = objects
            .into_iter()
            .map(|k| InputObject {
                id: number(k),
                ty: st.objs[k].ty.clone().unwrap_or(Type::Unknown),
                fields: st
                    .inputs
                    .iter()
                    .filter(|c| c.loc == Loc::Obj(k))
                    .map(|c| (c.path.clone(), value(c.obj)))
                    .chain(
                        st.init
                            .iter()
                            .filter(|(l, _, _)| *l == Loc::Obj(k))
                            .map(|(_, path, v)| (path.clone(), value(sym(*v)))),
                    )
                    .chain(
                        st.int_inputs
                            .iter()
                            .zip(&ints)
                            .filter(|((l, _), _)| *l == Loc::Obj(k))
                            .map(|((_, path), &n)| (path.clone(), Value::Int(n))),
                    )
                    .collect(),
            })
            .collect();
        Some(Witness {
            fault,
            args,
            objects,
            path: st.path.clone(),
            assumed: st.assumed,
            unmodelled_calls: st.unmodelled,
            failed_allocs: st.failed_allocs.clone(),
        })
    }

    /// The states after the effect of a basic statement.
    fn effect(&mut self, st: State<'p>, b: &'p Basic) -> Vec<State<'p>> {
        match b {
            Basic::Use(p) => self.read(st, p).into_iter().map(|(s, _)| s).collect(),
            Basic::Assign { lhs, rhs } => {
                let mut out = Vec::new();
                for (st, v) in self.rvalue(st, rhs) {
                    for (mut st, loc, path) in self.locate(st, lhs) {
                        write(&mut st, loc, path, v.clone());
                        out.push(st);
                    }
                }
                out
            }
            Basic::Call {
                lhs, callee, args, ..
            } => self.call(st, lhs.as_ref(), callee, args),
        }
    }

    fn call(
        &mut self,
        st: State<'p>,
        lhs: Option<&'p Place>,
        callee: &'p Callee,
        args: &'p [Rvalue],
    ) -> Vec<State<'p>> {
        // A Java virtual call names no function: the receiver's class
        // chooses one (`signature` is then its name for the answers).
        let (name, is_virtual) = match callee {
            Callee::Direct(n) => (n, false),
            Callee::Virtual { signature, .. } => (signature, true),
            Callee::Indirect(_) => {
                self.stats.cut += 1;
                self.end();
                return Vec::new();
            }
        };
        // The argument values, each list one state's.
        let mut evaluated: Vec<(State<'p>, Vec<Val>)> = vec![(st, Vec::new())];
        let reads_args = is_virtual || self.program.function(name).is_some() || &**name == "free";
        if reads_args {
            for a in args {
                let mut next = Vec::new();
                for (st, vals) in evaluated {
                    for (st, v) in self.rvalue(st, a) {
                        let mut vals = vals.clone();
                        vals.push(v);
                        next.push((st, vals));
                    }
                }
                evaluated = next;
            }
        }
        let mut results: Vec<(State<'p>, Val)> = Vec::new();
        for (mut st, vals) in evaluated {
            let body = if is_virtual {
                match vals.first() {
                    // The receiver is dereferenced: a NULL one throws.
                    Some(Val::Null) => {
                        self.stats.faulted_elsewhere += 1;
                        self.end();
                        self.record(&st, Some(Fault::Null));
                        continue;
                    }
                    Some(Val::Ptr(Loc::Obj(k), p)) if p.is_empty() => {
                        let o = &st.objs[*k];
                        let class = match &o.ty {
                            Some(Type::Class(c)) => Some(c),
                            _ => o.class.as_ref(),
                        };
                        class.and_then(|c| dispatch(self.program, c, name))
                    }
                    _ => None,
                }
            } else {
                self.program.function(name)
            };
            if let Some(f) = body {
                if st.frames.len() > self.bounds().call_depth as usize {
                    self.stats.cut += 1;
                    self.end();
                    continue;
                }
                let mut frame = Frame::new(f);
                frame.id = st.frames_pushed;
                st.frames_pushed += 1;
                for (&p, v) in f.params.iter().zip(vals) {
                    frame.cells.insert((p, Vec::new()), v);
                }
                st.frames.push(frame);
                for (mut s, ctl) in self.block(st, &f.body) {
                    let _ = ctl; // Next (fell off the end) or Return
                    let ret = match f.ret_var {
                        Some(r) => s.frame().cells.get(&(r, Vec::new())).cloned(),
                        None => None,
                    }
                    .unwrap_or(Val::Undef);
                    s.frames.pop();
                    results.push((s, ret));
                }
            } else if is_virtual {
                // A library object's method, or a receiver not modelled.
                st.unmodelled += 1;
                results.push((st, Val::Unknown));
            } else if ALLOCATORS.contains(&&**name) {
                // A test can make `malloc` and `calloc` fail (by counting
                // their calls), so only they may return NULL here.
                if matches!(&**name, "malloc" | "calloc") {
                    st.allocs += 1;
                    if self.query.malloc_may_fail {
                        let mut failed = st.clone();
                        failed.failed_allocs.push(failed.allocs);
                        results.push((failed, Val::Null));
                    }
                }
                let zeroed = name.contains("calloc");
                st.objs.push(Obj {
                    ty: None,
                    cells: BTreeMap::new(),
                    input: None,
                    freed: false,
                    facts: None,
                    default: if zeroed { Val::Null } else { Val::Undef },
                    class: None,
                });
                let k = st.objs.len() - 1;
                results.push((st, Val::Ptr(Loc::Obj(k), Vec::new())));
            } else if &**name == "free" || &**name == "cfree" {
                match vals.first() {
                    Some(Val::Null) => results.push((st, Val::Int)),
                    Some(Val::Ptr(Loc::Obj(k), p)) if p.is_empty() && !st.objs[*k].freed => {
                        st.objs[*k].freed = true;
                        results.push((st, Val::Int));
                    }
                    Some(Val::Ptr(..)) => {
                        // A double free or a free of memory not from malloc.
                        self.stats.faulted_elsewhere += 1;
                        self.end();
                        self.record(&st, Some(Fault::UseAfterFree));
                    }
                    _ => {
                        self.stats.cut += 1;
                        self.end();
                    }
                }
            } else if STOPPERS.contains(&&**name) {
                self.end();
                self.record(&st, None);
            } else {
                // A library function: its effects on the heap are ignored.
                st.unmodelled += 1;
                results.push((st, Val::Unknown));
            }
        }
        let Some(lhs) = lhs else {
            return results.into_iter().map(|(s, _)| s).collect();
        };
        let mut out = Vec::new();
        for (st, v) in results {
            for (mut st, loc, path) in self.locate(st, lhs) {
                write(&mut st, loc, path, v.clone());
                out.push(st);
            }
        }
        out
    }

    fn rvalue(&mut self, st: State<'p>, rv: &'p Rvalue) -> Vec<(State<'p>, Val)> {
        match rv {
            Rvalue::Use(p) | Rvalue::Cast(p, _) => self.read(st, p),
            Rvalue::Offset(p, ..) => self.read(st, p),
            Rvalue::AddrOf(p) => self
                .locate(st, p)
                .into_iter()
                .map(|(s, l, path)| (s, Val::Ptr(l, path)))
                .collect(),
            Rvalue::Null => vec![(st, Val::Null)],
            Rvalue::Function(n) => vec![(st, Val::Func(n.clone()))],
            Rvalue::String(_) | Rvalue::Literal(..) | Rvalue::New(..) => {
                let mut st = st;
                let class = match rv {
                    Rvalue::New(_, c) => Some(c.clone()),
                    _ => None,
                };
                st.objs.push(Obj {
                    ty: None,
                    cells: BTreeMap::new(),
                    input: None,
                    freed: false,
                    facts: None,
                    // Java zeroes a new object's fields (its constructor
                    // runs next); what a C literal or string holds is not
                    // modelled.
                    default: if class.is_some() {
                        Val::Null
                    } else {
                        Val::Unknown
                    },
                    class,
                });
                let k = st.objs.len() - 1;
                vec![(st, Val::Ptr(Loc::Obj(k), Vec::new()))]
            }
            Rvalue::Scalar => vec![(st, Val::Int)],
            Rvalue::Int(e) => self
                .int_expr(st, e)
                .into_iter()
                .map(|(s, n)| (s, n.map_or(Val::Int, Val::Num)))
                .collect(),
            Rvalue::Unknown => vec![(st, Val::Unknown)],
        }
    }

    /// The value of an integer operand in each state (`None`: not known).
    fn operand(&mut self, st: State<'p>, o: &Operand) -> Vec<(State<'p>, Option<Rc<Num>>)> {
        match o {
            Operand::Int(k) => vec![(st, Some(Rc::new(Num::Const(*k))))],
            Operand::Place(p) => self
                .read(st, p)
                .into_iter()
                .map(|(s, v)| {
                    let n = match v {
                        Val::Num(n) => Some(n),
                        // An integer read from a NULL-initialised cell
                        // (a global, `calloc`'s memory) is 0.
                        Val::Null => Some(Rc::new(Num::Const(0))),
                        _ => None,
                    };
                    (s, n)
                })
                .collect(),
        }
    }

    /// The value of an integer expression in each state.
    fn int_expr(&mut self, st: State<'p>, e: &IntExpr) -> Vec<(State<'p>, Option<Rc<Num>>)> {
        match e {
            IntExpr::Operand(o) => self.operand(st, o),
            IntExpr::Bin(a, op, b) => {
                let mut out = Vec::new();
                for (st, x) in self.int_expr(st, a) {
                    for (st, y) in self.int_expr(st, b) {
                        let n = match (x.clone(), y) {
                            (Some(x), Some(y)) => Num::bin(x, *op, y),
                            _ => None,
                        };
                        out.push((st, n));
                    }
                }
                out
            }
        }
    }

    /// The cell a place names, in each state; a dereference of a pointer
    /// that is not valid ends the path (it faults elsewhere, or is not
    /// modelled).
    fn locate(&mut self, st: State<'p>, place: &Place) -> Vec<(State<'p>, Loc, Vec<Sel>)> {
        let base = match &place.base {
            Base::Var(v) => Loc::Var(st.frame().id, *v),
            Base::Global(g) => Loc::Global(g.clone()),
        };
        if !place.deref {
            return vec![(st, base, place.path.clone())];
        }
        let pointer = Place {
            base: place.base.clone(),
            deref: false,
            path: Vec::new(),
        };
        let mut out = Vec::new();
        for (st, v) in self.read_cell(st, base, Vec::new(), &pointer) {
            match v {
                Val::Ptr(l, mut p) if st.invalid(&l).is_none() => {
                    p.extend(place.path.iter().cloned());
                    out.push((st, l, p));
                }
                Val::Null | Val::Ptr(..) => {
                    self.stats.faulted_elsewhere += 1;
                    self.end();
                    let fault = match &v {
                        Val::Ptr(l, _) => st.invalid(l),
                        _ => Some(Fault::Null),
                    };
                    self.record(&st, fault);
                }
                _ => {
                    self.stats.cut += 1;
                    self.end();
                }
            }
        }
        out
    }

    fn read(&mut self, st: State<'p>, place: &Place) -> Vec<(State<'p>, Val)> {
        let mut out = Vec::new();
        for (st, loc, path) in self.locate(st, place) {
            out.extend(self.read_cell(st, loc, path, place));
        }
        out
    }

    /// The value of a cell; an input pointer read for the first time forks
    /// one state per candidate value (`place` names it for the facts).
    fn read_cell(
        &mut self,
        st: State<'p>,
        loc: Loc,
        path: Vec<Sel>,
        place: &Place,
    ) -> Vec<(State<'p>, Val)> {
        let v = self.cell(&st, &loc, &path);
        if v == Val::LazyInt {
            // An input integer: a fresh constant of the path condition.
            let mut st = st;
            let n = Val::Num(Rc::new(Num::Input(st.int_inputs.len())));
            st.int_inputs.push((loc.clone(), path.clone()));
            write(&mut st, loc, path, n.clone());
            return vec![(st, n)];
        }
        if !matches!(v, Val::Lazy(_) | Val::Sym(_)) {
            return vec![(st, v)];
        }
        let facts = if self.query.guided {
            let fr = st.frame();
            match fr.point {
                Some(point) => self.facts.pointees(&fr.func.name, point, place),
                None => None,
            }
        } else {
            None
        };
        let mut out = Vec::new();
        match v {
            Val::Lazy(ty) => {
                let pointee = object_type(&ty);
                for (mut s, obj) in self.candidates(&st, &pointee, &facts) {
                    s.inputs.push(Choice {
                        loc: loc.clone(),
                        path: path.clone(),
                        obj,
                    });
                    out.push((s, obj));
                }
            }
            Val::Sym(x) => {
                for (s, b) in self.resolve(st, x, &facts, 0) {
                    out.push((
                        s,
                        match b {
                            Bound::Null => None,
                            Bound::Obj(k) => Some(k),
                        },
                    ));
                }
            }
            _ => unreachable!("only input pointers are chosen"),
        }
        out.into_iter()
            .filter_map(|(mut s, obj)| {
                let v = match obj {
                    None => Val::Null,
                    Some(k) => Val::Ptr(Loc::Obj(k), Vec::new()),
                };
                // What a predicate's unfolding chose, the facts may still
                // rule out.
                if v == Val::Null && !allows(&facts, &|x| *x == Pointee::Null) {
                    self.stats.pruned += 1;
                    return None;
                }
                write(&mut s, loc.clone(), path.clone(), v.clone());
                Some((s, v))
            })
            .collect()
    }

    /// Plain lazy initialisation of a pointer to `pointee`: NULL, an
    /// input object of the same type, or a fresh one, each allowed by the
    /// facts; the states with the object made (`None`: NULL).
    fn candidates(
        &mut self,
        st: &State<'p>,
        pointee: &Type,
        facts: &Option<Vec<Pointee>>,
    ) -> Vec<(State<'p>, Option<usize>)> {
        let mut out = Vec::new();
        let mut pruned = 0;
        if allows(facts, &|x| *x == Pointee::Null) {
            out.push((st.clone(), None));
        } else {
            pruned += 1;
        }
        for (k, o) in st.objs.iter().enumerate() {
            if o.input.is_none() || o.ty.as_ref() != Some(pointee) {
                continue;
            }
            let overlaps = match (facts, &o.facts) {
                (Some(a), Some(b)) => {
                    a.contains(&Pointee::Unknown)
                        || b.contains(&Pointee::Unknown)
                        || a.iter()
                            .any(|x| matches!(x, Pointee::Loc(_)) && b.contains(x))
                }
                _ => true,
            };
            if overlaps {
                out.push((st.clone(), Some(k)));
            } else {
                pruned += 1;
            }
        }
        if allows(facts, &|x| matches!(x, Pointee::Loc(_))) {
            let mut s = st.clone();
            let k = s.new_object(pointee.clone(), facts.clone());
            out.push((s, Some(k)));
        } else {
            pruned += 1;
        }
        self.stats.pruned += pruned;
        self.stats.choices += out.len() as u32;
        out
    }

    /// The values logical variable `x` may take: bound already, from the
    /// predicate instance that constrains it (unfolded, as the seed's
    /// `enum`), or, unconstrained, plain lazy initialisation.
    fn resolve(
        &mut self,
        st: State<'p>,
        x: usize,
        facts: &Option<Vec<Pointee>>,
        depth: u32,
    ) -> Vec<(State<'p>, Bound)> {
        let r = st.find(x);
        if let Some(b) = st.syms[r].bound {
            return vec![(st, b)];
        }
        if depth > MAX_UNFOLD {
            self.stats.cut += 1;
            self.end();
            return Vec::new();
        }
        let holder = st
            .pending
            .iter()
            .position(|(_, args)| args.iter().any(|&a| st.find(a) == r));
        if let Some(i) = holder {
            let mut st = st;
            let (name, args) = st.pending.remove(i);
            let mut out = Vec::new();
            for s in self.unfold(st, &name, &args) {
                out.extend(self.resolve(s, x, facts, depth + 1));
            }
            return out;
        }
        let pointee = object_type(&st.syms[r].ty);
        let mut out = Vec::new();
        for (mut s, obj) in self.candidates(&st, &pointee, facts) {
            let b = obj.map_or(Bound::Null, Bound::Obj);
            if s.bind(r, b) {
                out.push((s, b));
            } else {
                self.stats.infeasible += 1;
            }
        }
        out
    }

    /// One state per disjunct of predicate `name` on `args` that is
    /// consistent with the path condition.
    fn unfold(&mut self, st: State<'p>, name: &str, args: &[usize]) -> Vec<State<'p>> {
        let spec = self
            .query
            .spec
            .as_ref()
            .expect("a pending predicate has a spec");
        let def = spec.pred(name).expect("predicates were checked").clone();
        let mut out = Vec::new();
        for d in &def.body {
            let mut env: HashMap<String, usize> = def
                .params
                .iter()
                .cloned()
                .zip(args.iter().copied())
                .collect();
            match self.assume(st.clone(), d, &mut env, &mut HashMap::new()) {
                Some(s) => out.push(s),
                None => self.stats.infeasible += 1,
            }
        }
        out
    }

    /// The state where the atoms of one disjunct hold too, or `None`.
    /// `env` names the disjunct's pointer variables, `ints` its integer
    /// ones (the integer parameters, then what points-to atoms bind).
    fn assume(
        &mut self,
        mut st: State<'p>,
        atoms: &[Atom],
        env: &mut HashMap<String, usize>,
        ints: &mut HashMap<String, Rc<Num>>,
    ) -> Option<State<'p>> {
        let term = |st: &mut State<'p>, env: &mut HashMap<String, usize>, t: &Term| match t {
            Term::Null => 0,
            Term::Wild | Term::Int(_) => st.new_sym(Type::Unknown),
            Term::Var(n) => *env
                .entry(n.clone())
                .or_insert_with(|| st.new_sym(Type::Unknown)),
        };
        let is_int = |ints: &HashMap<String, Rc<Num>>, t: &Term| match t {
            Term::Int(_) => true,
            Term::Var(n) => ints.contains_key(n),
            _ => false,
        };
        // Pure atoms after the points-to atoms that bind integer variables
        // (the order of atoms in a disjunct does not matter).
        let (pure, shapes): (Vec<&Atom>, Vec<&Atom>) = atoms
            .iter()
            .partition(|a| matches!(a, Atom::Eq(..) | Atom::Ne(..) | Atom::Cmp(..)));
        for a in shapes.into_iter().chain(pure) {
            let a = match a {
                Atom::Eq(x, y) | Atom::Ne(x, y) if is_int(ints, x) || is_int(ints, y) => {
                    let op = if matches!(a, Atom::Eq(..)) {
                        pointee_ir::CmpOp::Eq
                    } else {
                        pointee_ir::CmpOp::Ne
                    };
                    &Atom::Cmp(Arith::Term(x.clone()), op, Arith::Term(y.clone()))
                }
                a => a,
            };
            match a {
                Atom::Cmp(x, op, y) => {
                    // An integer variable nothing binds leaves the atom
                    // unchecked (inputs may then be invalid, never missed).
                    if let (Some(x), Some(y)) = (arith(x, ints), arith(y, ints)) {
                        st.int_facts.push((x, *op, y));
                        if solve::integers(st.int_inputs.len(), &st.int_facts).is_none() {
                            return None;
                        }
                    }
                }
                Atom::Emp => {}
                Atom::Eq(x, y) => {
                    let (x, y) = (term(&mut st, env, x), term(&mut st, env, y));
                    if !st.unify(x, y) {
                        return None;
                    }
                }
                Atom::Ne(x, y) => {
                    let (x, y) = (term(&mut st, env, x), term(&mut st, env, y));
                    st.diseqs.push((x, y));
                    if !st.consistent() {
                        return None;
                    }
                }
                Atom::Pred(name, args) => {
                    let args = args.iter().map(|t| term(&mut st, env, t)).collect();
                    st.pending.push((name.clone(), args));
                }
                Atom::PointsTo(x, fields) => {
                    let x = term(&mut st, env, &Term::Var(x.clone()));
                    let r = st.find(x);
                    let k = match st.syms[r].bound {
                        Some(Bound::Null) => return None,
                        Some(Bound::Obj(k)) => k,
                        None => {
                            let ty = object_type(&st.syms[r].ty);
                            let k = st.new_object(ty, None);
                            if !st.bind(r, Bound::Obj(k)) {
                                return None;
                            }
                            k
                        }
                    };
                    // `*`: an object is claimed by one points-to atom.
                    if !st.owned.insert(k) {
                        return None;
                    }
                    let obj_ty = st.objs[k].ty.clone().unwrap_or(Type::Unknown);
                    for (f, t) in fields {
                        let path = vec![Sel::Field(f.as_str().into())];
                        let fty = type_at(self.program, &obj_ty, &path);
                        if fty == Type::Scalar {
                            // An integer field: an input of the path condition.
                            if !self.bind_int(&mut st, k, path, t, ints) {
                                return None;
                            }
                            continue;
                        }
                        let v = term(&mut st, env, t);
                        let rv = st.find(v);
                        if st.syms[rv].ty == Type::Unknown {
                            st.syms[rv].ty = fty;
                        }
                        match st.objs[k].cells.get(&path).cloned() {
                            Some(Val::Sym(old)) => {
                                if !st.unify(old, v) {
                                    return None;
                                }
                            }
                            Some(_) => return None,
                            None => {
                                st.objs[k].cells.insert(path.clone(), Val::Sym(v));
                                st.init.push((Loc::Obj(k), path, v));
                            }
                        }
                    }
                }
            }
        }
        Some(st)
    }

    /// Binds the integer field `path` of input object `k` to `t` (a
    /// variable of `ints`, a constant, or `_`); false when it contradicts
    /// the path condition.
    fn bind_int(
        &mut self,
        st: &mut State<'p>,
        k: usize,
        path: Vec<Sel>,
        t: &Term,
        ints: &mut HashMap<String, Rc<Num>>,
    ) -> bool {
        let cell = match st.objs[k].cells.get(&path) {
            Some(Val::Num(n)) => n.clone(),
            Some(_) => return false,
            None => {
                let n = Rc::new(Num::Input(st.int_inputs.len()));
                st.int_inputs.push((Loc::Obj(k), path.clone()));
                st.objs[k].cells.insert(path, Val::Num(n.clone()));
                n
            }
        };
        let equal = match t {
            Term::Wild => return true,
            Term::Null => return false,
            Term::Int(c) => Rc::new(Num::Const(*c)),
            Term::Var(v) => match ints.get(v) {
                Some(n) => n.clone(),
                None => {
                    ints.insert(v.clone(), cell);
                    return true;
                }
            },
        };
        st.int_facts.push((cell, pointee_ir::CmpOp::Eq, equal));
        solve::integers(st.int_inputs.len(), &st.int_facts).is_some()
    }

    /// The value of a cell, or what it holds when never written.
    fn cell(&self, st: &State<'p>, loc: &Loc, path: &[Sel]) -> Val {
        match loc {
            Loc::Var(d, v) => {
                let Some(fr) = st.live_frame(*d) else {
                    return Val::Undef;
                };
                if let Some(x) = fr.cells.get(&(*v, path.to_vec())) {
                    return x.clone();
                }
                let var = fr.func.var(*v);
                if fr.input && var.kind == VarKind::Param {
                    input_value(type_at(self.program, &var.ty, path))
                } else {
                    Val::Undef
                }
            }
            Loc::Global(g) => {
                if let Some(x) = st.globals.get(&(g.clone(), path.to_vec())) {
                    return x.clone();
                }
                let Some(global) = self.program.global(g) else {
                    return Val::Unknown;
                };
                // A Java static field holds what the class's initialiser
                // and the program's earlier runs put there: not modelled.
                if global.kind == GlobalKind::StaticField {
                    return Val::Unknown;
                }
                let init: Option<&GlobalInit> = global.init.iter().find(|i| i.path == path);
                if init.is_some() {
                    Val::Unknown
                } else if type_at(self.program, &global.ty, path).is_pointer_like() {
                    Val::Null
                } else {
                    // A global without initialiser starts as zero.
                    Val::Num(Rc::new(Num::Const(0)))
                }
            }
            Loc::Obj(k) => {
                let o = &st.objs[*k];
                if let Some(x) = o.cells.get(path) {
                    return x.clone();
                }
                match &o.ty {
                    Some(ty) => input_value(type_at(self.program, ty, path)),
                    None => o.default.clone(),
                }
            }
        }
    }
}

/// The symbolic integer of an annotation's arithmetic (`None`: it names
/// an integer variable nothing binds).
fn arith(e: &Arith, ints: &HashMap<String, Rc<Num>>) -> Option<Rc<Num>> {
    match e {
        Arith::Term(Term::Int(k)) => Some(Rc::new(Num::Const(*k))),
        Arith::Term(Term::Var(v)) => ints.get(v).cloned(),
        Arith::Term(_) => None,
        Arith::Bin(a, op, b) => Num::bin(arith(a, ints)?, *op, arith(b, ints)?),
    }
}

/// Whether facts (`None`: none) allow a pointee matching `p`.
fn allows(facts: &Option<Vec<Pointee>>, p: &dyn Fn(&Pointee) -> bool) -> bool {
    match facts {
        None => true,
        Some(set) => set.iter().any(|x| *x == Pointee::Unknown || p(x)),
    }
}

impl State<'_> {
    /// A fresh object of the input.
    fn new_object(&mut self, ty: Type, facts: Option<Vec<Pointee>>) -> usize {
        let number = self.objs.iter().filter(|o| o.input.is_some()).count();
        self.objs.push(Obj {
            ty: Some(ty),
            cells: BTreeMap::new(),
            input: Some(number),
            freed: false,
            facts,
            default: Val::Undef,
            class: None,
        });
        self.objs.len() - 1
    }
}

fn write(st: &mut State, loc: Loc, path: Vec<Sel>, v: Val) {
    match loc {
        Loc::Var(d, var) => {
            if let Some(fr) = st.frames.iter_mut().rev().find(|f| f.id == d) {
                fr.cells.insert((var, path), v);
            }
        }
        Loc::Global(g) => {
            st.globals.insert((g, path), v);
        }
        Loc::Obj(k) => {
            st.objs[k].cells.insert(path, v);
        }
    }
}
