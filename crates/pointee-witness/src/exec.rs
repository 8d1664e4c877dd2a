//! The bounded symbolic executor (seed 002, Fig. 5) over pointee's
//! structured IR, with lazy initialisation of the input.
//!
//! A state is a stack of frames (cells by variable and path), the heap
//! (objects with cells by path) and the record of the input chosen so far.
//! Statements map a state to the states that follow it: a read of an input
//! pointer not yet given a value forks one state per candidate; a branch
//! forks one per side. Integers are not modelled: a branch the IR keeps
//! opaque takes both sides, and the witness counts it as assumed.
//!
//! Never does I/O; facts come only through [`Facts`].

use crate::solve;
use crate::{
    Bounds, Decision, Facts, Fault, InputObject, Outcome, Pointee, Query, Stats, Value, Witness,
};
use pointee_ir::{
    Base, Basic, Callee, Cond, Function, GlobalInit, Name, Place, Point, Program, Rvalue, Sel,
    Stmt, StmtId, Type, VarId, VarKind,
};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Searches an input of `query.function` that makes the dereference of
/// `query.pointer` at `query.stmt` fault (NULL or freed), within the
/// bounds.
pub fn find(program: &Program, query: &Query, facts: &mut dyn Facts) -> Outcome {
    let Some(f) = program.function(&query.function) else {
        return Outcome::NoFunction;
    };
    let mut ex = Executor {
        program,
        query,
        facts,
        start: Instant::now(),
        stats: Stats::default(),
        best: None,
        done: false,
        exhausted: false,
    };
    let mut st = State {
        frames: vec![Frame::new(f)],
        objs: Vec::new(),
        globals: BTreeMap::new(),
        inputs: Vec::new(),
        path: Vec::new(),
        assumed: 0,
        unmodelled: 0,
    };
    st.frames[0].input = true;
    for (_, ctl) in ex.block(st, &f.body) {
        let _ = ctl;
        ex.stats.paths += 1;
    }
    let stats = ex.stats;
    match ex.best {
        Some(w) => Outcome::Found(w, stats),
        None if ex.exhausted => Outcome::BudgetExhausted(stats),
        None => Outcome::NoneWithinBounds(stats),
    }
}

/// Where a value lives.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Loc {
    /// A variable of the frame at this depth.
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
    /// Any non-pointer value.
    Int,
    /// Never written (an uninitialised local, `malloc`'s memory).
    Undef,
    /// Made by code the executor does not model.
    Unknown,
    /// An input pointer of this type not read yet.
    Lazy(Type),
}

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
}

#[derive(Clone, Debug)]
struct Frame<'p> {
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
}

impl<'p> State<'p> {
    fn frame(&self) -> &Frame<'p> {
        self.frames.last().expect("a frame")
    }
    fn frame_mut(&mut self) -> &mut Frame<'p> {
        self.frames.last_mut().expect("a frame")
    }
    fn freed(&self, l: &Loc) -> bool {
        matches!(l, Loc::Obj(k) if self.objs[*k].freed)
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
            (Sel::Index(_), Type::Array(e, _)) => (**e).clone(),
            _ => Type::Unknown,
        };
    }
    t
}

/// The value of a cell of the input never read: a pointer waits to be
/// chosen, anything else is some scalar.
fn input_value(ty: Type) -> Val {
    if ty.is_pointer_like() {
        Val::Lazy(ty)
    } else {
        Val::Int
    }
}

/// `p`, `p->f`, `s.f[0]`, `*p` for the path decisions.
pub(crate) fn place_text(f: &Function, p: &Place) -> String {
    let mut s = match &p.base {
        Base::Var(v) => f.var(*v).name.to_string(),
        Base::Global(g) => g.to_string(),
    };
    let mut sels = p.path.iter();
    if p.deref {
        match p.path.first() {
            Some(Sel::Field(name)) => {
                s = format!("{s}->{name}");
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

fn cond_text(f: &Function, c: &Cond) -> Option<String> {
    Some(match c {
        Cond::IsNull(p) => format!("{} == NULL", place_text(f, p)),
        Cond::NotNull(p) => format!("{} != NULL", place_text(f, p)),
        Cond::Opaque => return None,
        Cond::And(a, b) => format!("{} && {}", cond_text(f, a)?, cond_text(f, b)?),
        Cond::Or(a, b) => format!("({} || {})", cond_text(f, a)?, cond_text(f, b)?),
    })
}

const ALLOCATORS: &[&str] = &["malloc", "calloc", "aligned_alloc", "xmalloc", "xcalloc"];
const STOPPERS: &[&str] = &["exit", "abort", "_exit", "_Exit", "__assert_fail"];

impl<'p> Executor<'p, '_> {
    fn bounds(&self) -> Bounds {
        self.query.bounds
    }

    /// True when the search must stop (found, or out of budget).
    fn stop(&mut self) -> bool {
        if self.done || self.exhausted {
            return true;
        }
        let b = self.bounds();
        if self.stats.paths >= b.max_paths
            || self.start.elapsed() >= Duration::from_millis(b.time_ms)
        {
            self.exhausted = true;
        }
        self.exhausted
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
            for st in cur {
                if self.stop() {
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
                let test = cond_text(f, cond);
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
        if id == self.query.stmt && *states[0].frame().func.name == *self.query.function {
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
        let pointer = self.query.pointer.clone();
        let mut out = Vec::new();
        for (st, v) in self.read(st, &pointer) {
            let fault = match &v {
                Val::Null => Some(Fault::Null),
                Val::Ptr(l, _) if st.freed(l) => Some(Fault::UseAfterFree),
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

    /// Records the witness of `st` when it assumes less than the best so
    /// far; one that assumes nothing ends the search.
    fn witness(&mut self, st: &State<'p>, fault: Fault) {
        let objects: Vec<usize> = (0..st.objs.len())
            .filter(|&k| st.objs[k].input.is_some())
            .collect();
        let number = |k: usize| st.objs[k].input.expect("an input object");
        let choices: Vec<solve::Choice> = st.inputs.iter().map(|c| c.obj.map(number)).collect();
        if solve::addresses(objects.len(), &choices).is_none() {
            self.stats.infeasible += 1;
            return;
        }
        let assumes = st.assumed + st.unmodelled;
        if let Some(b) = &self.best {
            if b.assumed + b.unmodelled_calls <= assumes {
                return;
            }
        }
        let value = |c: &Choice| match c.obj {
            None => Value::Null,
            Some(k) => Value::Object(number(k)),
        };
        let f = st.frames[0].func;
        let args = f
            .params
            .iter()
            .map(|&p| {
                let var = f.var(p);
                let v = st
                    .inputs
                    .iter()
                    .find(|c| c.loc == Loc::Var(0, p) && c.path.is_empty())
                    .map(value)
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
                    .map(|c| (c.path.clone(), value(c)))
                    .collect(),
            })
            .collect();
        self.best = Some(Witness {
            fault,
            args,
            objects,
            path: st.path.clone(),
            assumed: st.assumed,
            unmodelled_calls: st.unmodelled,
        });
        if assumes == 0 {
            self.done = true;
        }
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
        let name = match callee {
            Callee::Direct(n) => n,
            Callee::Indirect(_) | Callee::Virtual { .. } => {
                self.stats.cut += 1;
                self.end();
                return Vec::new();
            }
        };
        // The argument values, each list one state's.
        let mut evaluated: Vec<(State<'p>, Vec<Val>)> = vec![(st, Vec::new())];
        let reads_args = self.program.function(name).is_some() || &**name == "free";
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
            if let Some(f) = self.program.function(name) {
                if st.frames.len() > self.bounds().call_depth as usize {
                    self.stats.cut += 1;
                    self.end();
                    continue;
                }
                let mut frame = Frame::new(f);
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
            } else if ALLOCATORS.contains(&&**name) {
                let zeroed = name.contains("calloc");
                st.objs.push(Obj {
                    ty: None,
                    cells: BTreeMap::new(),
                    input: None,
                    freed: false,
                    facts: None,
                    default: if zeroed { Val::Null } else { Val::Undef },
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
                    }
                    _ => {
                        self.stats.cut += 1;
                        self.end();
                    }
                }
            } else if STOPPERS.contains(&&**name) {
                self.end();
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
            Rvalue::Offset(p, _) => self.read(st, p),
            Rvalue::AddrOf(p) => self
                .locate(st, p)
                .into_iter()
                .map(|(s, l, path)| (s, Val::Ptr(l, path)))
                .collect(),
            Rvalue::Null => vec![(st, Val::Null)],
            Rvalue::Function(n) => vec![(st, Val::Func(n.clone()))],
            Rvalue::String(_) | Rvalue::Literal(..) | Rvalue::New(..) => {
                let mut st = st;
                st.objs.push(Obj {
                    ty: None,
                    cells: BTreeMap::new(),
                    input: None,
                    freed: false,
                    facts: None,
                    default: Val::Unknown,
                });
                let k = st.objs.len() - 1;
                vec![(st, Val::Ptr(Loc::Obj(k), Vec::new()))]
            }
            Rvalue::Scalar => vec![(st, Val::Int)],
            Rvalue::Unknown => vec![(st, Val::Unknown)],
        }
    }

    /// The cell a place names, in each state; a dereference of a pointer
    /// that is not valid ends the path (it faults elsewhere, or is not
    /// modelled).
    fn locate(&mut self, st: State<'p>, place: &Place) -> Vec<(State<'p>, Loc, Vec<Sel>)> {
        let base = match &place.base {
            Base::Var(v) => Loc::Var(st.frames.len() - 1, *v),
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
                Val::Ptr(l, mut p) if !st.freed(&l) => {
                    p.extend(place.path.iter().cloned());
                    out.push((st, l, p));
                }
                Val::Null | Val::Ptr(..) => {
                    self.stats.faulted_elsewhere += 1;
                    self.end();
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
        let Val::Lazy(ty) = v else {
            return vec![(st, v)];
        };
        let pointee = ty.pointee().cloned().unwrap_or(Type::Unknown);
        let facts = if self.query.guided {
            let fr = st.frame();
            match fr.point {
                Some(point) => self.facts.pointees(&fr.func.name, point, place),
                None => None,
            }
        } else {
            None
        };
        let allows = |p: &dyn Fn(&Pointee) -> bool| match &facts {
            None => true,
            Some(set) => set.iter().any(|x| *x == Pointee::Unknown || p(x)),
        };
        let mut candidates: Vec<Option<usize>> = Vec::new();
        let mut pruned = 0;
        if allows(&|x| *x == Pointee::Null) {
            candidates.push(None);
        } else {
            pruned += 1;
        }
        for (k, o) in st.objs.iter().enumerate() {
            if o.input.is_none() || o.ty.as_ref() != Some(&pointee) {
                continue;
            }
            let overlaps = match (&facts, &o.facts) {
                (Some(a), Some(b)) => {
                    a.contains(&Pointee::Unknown)
                        || b.contains(&Pointee::Unknown)
                        || a.iter()
                            .any(|x| matches!(x, Pointee::Loc(_)) && b.contains(x))
                }
                _ => true,
            };
            if overlaps {
                candidates.push(Some(k));
            } else {
                pruned += 1;
            }
        }
        let fresh = allows(&|x| matches!(x, Pointee::Loc(_)));
        if !fresh {
            pruned += 1;
        }
        self.stats.pruned += pruned;
        let mut out = Vec::new();
        for c in candidates
            .into_iter()
            .map(Some)
            .chain(fresh.then_some(None))
        {
            let mut s = st.clone();
            let obj = match c {
                Some(existing) => existing,
                None => {
                    let number = s.objs.iter().filter(|o| o.input.is_some()).count();
                    s.objs.push(Obj {
                        ty: Some(pointee.clone()),
                        cells: BTreeMap::new(),
                        input: Some(number),
                        freed: false,
                        facts: facts.clone(),
                        default: Val::Undef,
                    });
                    Some(s.objs.len() - 1)
                }
            };
            self.stats.choices += 1;
            let v = match obj {
                None => Val::Null,
                Some(k) => Val::Ptr(Loc::Obj(k), Vec::new()),
            };
            s.inputs.push(Choice {
                loc: loc.clone(),
                path: path.clone(),
                obj,
            });
            write(&mut s, loc.clone(), path.clone(), v.clone());
            out.push((s, v));
        }
        out
    }

    /// The value of a cell, or what it holds when never written.
    fn cell(&self, st: &State<'p>, loc: &Loc, path: &[Sel]) -> Val {
        match loc {
            Loc::Var(d, v) => {
                let fr = &st.frames[*d];
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
                let init: Option<&GlobalInit> = global.init.iter().find(|i| i.path == path);
                if init.is_some() {
                    Val::Unknown
                } else if type_at(self.program, &global.ty, path).is_pointer_like() {
                    Val::Null
                } else {
                    Val::Int
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

fn write(st: &mut State, loc: Loc, path: Vec<Sel>, v: Val) {
    match loc {
        Loc::Var(d, var) => {
            st.frames[d].cells.insert((var, path), v);
        }
        Loc::Global(g) => {
            st.globals.insert((g, path), v);
        }
        Loc::Obj(k) => {
            st.objs[k].cells.insert(path, v);
        }
    }
}
