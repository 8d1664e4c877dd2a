//! The intraprocedural transfer function: L- and R-locations of Table 1 and
//! the basic assignment rule of Figure 1 (kill, change definite to possible,
//! generate), extended with summaries: a summary on the left side is always
//! a weak update, and a fact from a summary is never definite.

use crate::facts::{Fact, Facts};
use crate::loc::{Class, LocId, Locs, Root, Step, NULL, UNINIT, UNKNOWN};
use pointee_ir::{Base, Cond, Index, Name, Place, Rvalue, Sel, Type};

/// A set of locations with their D (true) / P (false) flags.
pub type Locset = Vec<(LocId, bool)>;

/// Where a transfer runs: the function whose variables `Base::Var` names,
/// and the owner name of its sites.
#[derive(Clone, Copy)]
pub struct Scope<'a> {
    pub func: u32,
    pub owner: &'a Name,
}

/// Adds `(loc, def)` to a set, keeping one entry per location (definite only
/// if every way to it is).
pub fn push(set: &mut Locset, loc: LocId, def: bool) {
    if let Some(e) = set.iter_mut().find(|e| e.0 == loc) {
        e.1 &= def;
    } else {
        set.push((loc, def));
    }
}

/// [`push`] for many locations at once, each possibly: one pass with an
/// index of `set`. A step from a member of a large untyped object reaches
/// every member of every record with that member's name, thousands in
/// Lua's `ldo.c`, into sets as large: one `push` at a time was quadratic
/// (76% of that file's time).
fn push_possibly(set: &mut Locset, locs: Vec<LocId>) {
    if locs.len() < 16 {
        for l in locs {
            push(set, l, false);
        }
        return;
    }
    let mut at: crate::fxhash::FxHashMap<LocId, usize> =
        set.iter().enumerate().map(|(i, e)| (e.0, i)).collect();
    for l in locs {
        match at.get(&l) {
            Some(&i) => set[i].1 = false,
            None => {
                at.insert(l, set.len());
                set.push((l, false));
            }
        }
    }
}

fn base_loc(locs: &mut Locs, sc: Scope, base: &Base) -> LocId {
    match base {
        Base::Var(v) => locs.var(sc.func, *v),
        Base::Global(g) => match locs.global(g) {
            Some(l) => l,
            // A global the front end did not declare: treat as unknown.
            None => UNKNOWN,
        },
    }
}

/// The locations one path step below `loc`. `arith` is set for the first
/// index right after a dereference: `p[i]` is `*(p + i)`, pointer
/// arithmetic (`shift_by`, told what the pointer steps by); an index into
/// an array-typed location selects its head or tail.
fn step(
    locs: &mut Locs,
    loc: LocId,
    sel: &Sel,
    arith: Option<&Stride>,
    def: bool,
    out: &mut Locset,
) {
    if loc == UNKNOWN {
        push(out, UNKNOWN, false);
        return;
    }
    match sel {
        Sel::Field(f) => {
            let cs = locs.field(loc, f);
            let one = cs.len() == 1;
            for c in cs {
                push(out, c, def && one);
            }
        }
        Sel::Index(i) => {
            let elem = matches!(locs.last_step(loc), Some(Step::Head | Step::Tail));
            if let (Some(stride), true, false) = (arith, elem, locs.is_array(loc)) {
                shift_by(locs, loc, *i, def, stride, out);
            } else if locs.is_array(loc) {
                let head = locs.child(loc, Step::Head);
                let tail = locs.child(loc, Step::Tail);
                match i {
                    Index::Zero => push(out, head, def),
                    Index::Positive => push(out, tail, def),
                    Index::Any => {
                        push(out, head, false);
                        push(out, tail, false);
                    }
                }
            } else if let Some(stride) = arith {
                shift_by(locs, loc, *i, def, stride, out);
            } else {
                push(out, loc, def);
                other_slot(locs, loc, *i, out);
            }
        }
    }
}

/// An index past 0 on one newest heap object (`h[1]` after
/// `h = malloc(..)`; heap objects are untyped, one location for all their
/// elements) reaches another of its slots than `*h`: a store there must
/// not kill what `*h` holds. The site's summary joins (possibly), so the
/// store is weak; the newest object is demoted into it later anyway.
fn other_slot(locs: &mut Locs, loc: LocId, i: Index, out: &mut Locset) {
    if i == Index::Zero {
        return;
    }
    let d = locs.get(loc);
    let path = d.path.clone();
    let Some(summary) = crate::recency::summary_of(locs, d.root_id) else {
        return;
    };
    let l = locs.with_path(summary, &path);
    push(out, l, false);
    // Either slot: neither is definite.
    for e in out.iter_mut().filter(|e| e.0 == loc) {
        e.1 = false;
    }
}

/// What one step of pointer arithmetic moves by: the element type of the
/// pointer (`Rvalue::Offset`'s type, after any cast; for `p[i]` in a
/// place, `p`'s declared pointee).
#[derive(Clone, Debug, PartialEq)]
pub enum Stride {
    /// A pointer's size (`T **`, a pointer to a function pointer).
    Pointers,
    /// A whole struct or union of this type (`struct S *`).
    Objects(Name),
    /// Bytes or any other scalar (`char *`, `void *`, `int *`), or a type
    /// the front end did not know: a step may land inside an object.
    Bytes,
}

impl Stride {
    /// The stride of a pointer to `elem`.
    pub fn of(elem: &Type) -> Stride {
        match elem {
            Type::Pointer(_) => Stride::Pointers,
            Type::Record(r) => Stride::Objects(r.clone()),
            _ => Stride::Bytes,
        }
    }

    /// True when one step over a location of type `ty` leaves it whole:
    /// the pointer steps by exactly that type's size.
    fn leaves(&self, ty: Option<&Type>) -> bool {
        match (self, ty) {
            (Stride::Pointers, Some(Type::Pointer(_))) => true,
            (Stride::Objects(r), Some(Type::Record(t))) => r == t,
            _ => false,
        }
    }
}

/// Pointer arithmetic on a target (`Rvalue::Offset`, and the first index
/// after a dereference): from an array head by a positive index to the
/// tail, by any index to either; from the tail by a positive index to the
/// tail, by any index (a negative one) to either. From a struct member, to
/// the members after it (positive) or to any member (any index), and past
/// the struct (`past_object`); never to the same member definitely. From
/// anything else, past the object: it stays on the location, possibly
/// (heap objects are one location for all their elements; past a scalar
/// or a whole struct nothing valid is reached). A step smaller than the
/// struct it starts from (`(char *)s + 1`, not `ps + 1` with `struct S
/// *ps` on an `S`) may land on any of its members (`(char *)s +
/// offsetof(S, f)`), possibly. An index 0 stays.
pub fn shift(locs: &mut Locs, loc: LocId, i: Index, def: bool, out: &mut Locset) {
    shift_by(locs, loc, i, def, &Stride::Bytes, out)
}

/// [`shift`], told what the pointer moved steps by (`stride`): a step of
/// a location's own size leaves it (a positive offset from a pointer
/// member by a `T **`, from a struct by a pointer to that struct);
/// otherwise it may stay inside, possibly.
fn shift_by(locs: &mut Locs, loc: LocId, i: Index, def: bool, stride: &Stride, out: &mut Locset) {
    // The members of a struct the step may land inside; true when any.
    let inside = |locs: &mut Locs, out: &mut Locset| {
        let ty = locs.get(loc).ty.as_ref();
        let Some(Type::Record(s)) = ty else {
            return false;
        };
        if stride.leaves(ty) {
            return false;
        }
        // Steps by the size of a record the object cannot hold (a `Node *`
        // on a `Table`, which only imprecision upstream puts there) land
        // on no member a well-typed access reads.
        if let Stride::Objects(r) = stride {
            let s = s.clone();
            if !locs.record_may_hold(&s, r) {
                return false;
            }
        }
        let members = locs.all_members(loc, None);
        push_possibly(out, members);
        true
    };
    match (locs.last_step(loc).cloned(), i) {
        // `NULL + 1`, `uninit + 1`: still no object.
        (_, Index::Zero) => push(out, loc, def),
        _ if !locs.is_memory(loc) => push(out, loc, def),
        (Some(Step::Head), Index::Positive) => {
            let p = locs.get(loc).parent.unwrap();
            let t = locs.child(p, Step::Tail);
            let lands_inside = inside(locs, out);
            push(out, t, def && !lands_inside);
        }
        (Some(Step::Head), Index::Any) => {
            let p = locs.get(loc).parent.unwrap();
            let t = locs.child(p, Step::Tail);
            inside(locs, out);
            push(out, loc, false);
            push(out, t, false);
        }
        (Some(Step::Tail), Index::Positive) => {
            let lands_inside = inside(locs, out);
            push(out, loc, def && !lands_inside);
        }
        // Any index (negative ones are lowered as `Any`: `q[-2]`, `e--`)
        // from the tail may reach the head.
        (Some(Step::Tail), Index::Any) => {
            let p = locs.get(loc).parent.unwrap();
            let h = locs.child(p, Step::Head);
            inside(locs, out);
            push(out, h, false);
            push(out, loc, false);
        }
        (Some(Step::Field(f)), _) => {
            // `&s.f1 + 1` is `&s.f2` when nothing pads them, but the
            // engine knows no sizes: every later member, possibly.
            let leaves = stride.leaves(locs.get(loc).ty.as_ref());
            if i == Index::Positive && !leaves {
                push(out, loc, false);
            }
            inside(locs, out);
            let siblings = locs.sibling_members(loc, i == Index::Positive);
            push_possibly(out, siblings);
            let a = locs.get(loc).parent.unwrap();
            past_object(locs, a, &f, i, out);
        }
        _ => {
            push(out, loc, false);
            other_slot(locs, loc, i, out);
            inside(locs, out);
        }
    }
}

/// Arithmetic from a member `f` of the struct `a` that leaves `a`: into
/// the next elements when `a` is an array element (their every member),
/// the members after `a` when `a` is itself a member, every member of
/// the same heap object (one location for all its elements); past a
/// variable nothing valid is reached.
fn past_object(locs: &mut Locs, a: LocId, f: &Name, i: Index, out: &mut Locset) {
    match locs.last_step(a).cloned() {
        Some(Step::Head | Step::Tail) => {
            // Past `a` whole: by its own size (never inside it again).
            let whole = locs.get(a).ty.as_ref().map_or(Stride::Bytes, Stride::of);
            let mut next = Vec::new();
            shift_by(locs, a, i, false, &whole, &mut next);
            for (e, _) in next {
                let members = locs.all_members(e, Some(f));
                push_possibly(out, members);
            }
        }
        Some(Step::Field(g)) => {
            let siblings = locs.sibling_members(a, i == Index::Positive);
            push_possibly(out, siblings);
            let outer = locs.get(a).parent.unwrap();
            past_object(locs, outer, &g, i, out);
        }
        None => {
            if matches!(locs.get(a).root, Root::Heap(..) | Root::Fresh(..)) {
                let members = locs.all_members(a, Some(f));
                push_possibly(out, members);
            }
        }
    }
}

/// What `p[i]` steps by, `p` the place's base: its declared pointee
/// (bytes when it has no pointer type).
fn declared_stride(locs: &Locs, base: LocId) -> Stride {
    match &locs.get(base).ty {
        Some(Type::Pointer(t)) => Stride::of(t),
        _ => Stride::Bytes,
    }
}

/// L-locations of a place (Table 1). Targets that are not memory (`NULL`,
/// `uninit`, `freed`, functions, strings' contents) are dropped: a store
/// through them does not complete.
pub fn lvals(locs: &mut Locs, st: &Facts, sc: Scope, p: &Place) -> Locset {
    let base = base_loc(locs, sc, &p.base);
    let mut cur: Locset = Vec::new();
    if p.deref {
        if base == UNKNOWN {
            cur.push((UNKNOWN, false));
        } else {
            let mut only_null_dropped = true;
            for f in st.targets(base) {
                if locs.is_memory(f.dst)
                    && !matches!(locs.get(f.dst).root, Root::Str(..) | Root::Dangling(_))
                {
                    push(&mut cur, f.dst, f.def);
                } else if f.dst != NULL {
                    only_null_dropped = false;
                }
            }
            // Past a dereference the pointer was not NULL: when NULL was its
            // only other value, it definitely points to the one remaining
            // non-summary location (a path where it was NULL stopped here).
            if cur.len() == 1 && only_null_dropped && !locs.is_summary(cur[0].0) {
                cur[0].1 = true;
            }
        }
    } else {
        cur.push((base, true));
    }
    let stride = declared_stride(locs, base);
    for (k, sel) in p.path.iter().enumerate() {
        let arith = (p.deref && k == 0).then_some(&stride);
        let mut next = Vec::with_capacity(cur.len());
        for &(l, d) in &cur {
            step(locs, l, sel, arith, d, &mut next);
        }
        cur = next;
    }
    cur
}

/// The targets of one location in a state, read as one pointer (a leaf of
/// a struct copy, or a cast's load). `unknown` points to `unknown`: its
/// facts are not values but what escaped to unknown code (see
/// `Engine::clobber_reachable`), and `unknown` as a target already stands
/// for any of them.
///
/// One address has several names (a struct, its first member, an array's
/// head): a typed struct or array is read at its first pointer slot
/// (`Locs::first_leaf`), where every typed store keeps its facts; a loose
/// location (untyped or symbolic: the type does not say under which name
/// a store went) also reads the other names of its address that the table
/// holds (`Locs::same_address`), and then nothing read is definite.
pub fn targets_of(locs: &mut Locs, st: &Facts, loc: LocId, def: bool, out: &mut Locset) {
    if loc == UNKNOWN {
        push(out, UNKNOWN, false);
        return;
    }
    let loc = locs.first_leaf(loc);
    let mut sources = 0;
    if !st.has_src(loc) {
        // An unwritten field of a heap or library object (`calloc`'s NULL).
        if let Some(d) = locs.unwritten_default(loc) {
            sources += 1;
            push(out, d, false);
        }
    } else {
        sources += 1;
    }
    let mut others = Vec::new();
    if locs.loose(loc) {
        locs.same_address(loc, &mut others);
        others.retain(|&o| st.has_src(o));
        sources += others.len();
    }
    let def = def && sources <= 1;
    for l in std::iter::once(loc).chain(others) {
        for f in st.targets(l) {
            push(out, f.dst, def && f.def);
        }
    }
}

/// R-locations of a right-hand side (Table 1).
pub fn rvals(locs: &mut Locs, st: &Facts, sc: Scope, r: &Rvalue) -> Locset {
    let mut out = Vec::new();
    match r {
        Rvalue::Use(p) | Rvalue::Cast(p, _) => {
            for (l, d) in lvals(locs, st, sc, p) {
                targets_of(locs, st, l, d, &mut out);
            }
            // `*fp` where `fp` points to a function designates that
            // function, which decays to its address again (C11 6.3.2.1,
            // 6.5.3.2): a front end that did not know `fp`'s type (a
            // missing header) leaves the `*` of `(*fp)(x)` in place.
            if p.deref && p.path.is_empty() {
                let base = base_loc(locs, sc, &p.base);
                for f in st.targets(base) {
                    if matches!(locs.get(f.dst).root, Root::Func(_)) {
                        push(&mut out, f.dst, f.def);
                    }
                }
            }
        }
        Rvalue::AddrOf(p) => out = lvals(locs, st, sc, p),
        Rvalue::Offset(p, i, elem) => {
            let mut vals = Vec::new();
            for (l, d) in lvals(locs, st, sc, p) {
                targets_of(locs, st, l, d, &mut vals);
            }
            let stride = Stride::of(elem);
            for (t, d) in vals {
                shift_by(locs, t, *i, d, &stride, &mut out);
            }
        }
        Rvalue::Null => out.push((NULL, true)),
        Rvalue::Function(n) => out.push((locs.func(n), true)),
        Rvalue::String(s) => out.push((locs.root(Root::Str(sc.owner.clone(), *s)), true)),
        Rvalue::Literal(s, _) | Rvalue::New(s, _) => {
            out.push((locs.root(Root::Lit(sc.owner.clone(), *s)), true))
        }
        Rvalue::Scalar | Rvalue::Int(_) => {}
        Rvalue::Unknown => out.push((UNKNOWN, false)),
    }
    out
}

/// Writes `vals` into the L-locations `lhs` (Figure 1): a single definite
/// non-summary L-location is killed and regenerated; every other one is
/// weakened and gains possible facts. A store through `unknown` weakly
/// updates every address-taken location.
pub fn store(locs: &Locs, st: &mut Facts, lhs: &Locset, vals: &Locset) {
    let strong = lhs.len() == 1 && lhs[0].1 && !locs.is_summary(lhs[0].0);
    if strong {
        let l = lhs[0].0;
        let v: Locset = vals.to_vec();
        st.replace(l, &v);
        return;
    }
    // Every target keeps its facts, possibly, and gains every value,
    // possibly: added in one pass (`Facts::add_weak`). A fact inserted at a
    // time moved the rest of the state each time: a wide store into a
    // large state was quadratic (Lua's `llex.c` spent 97% in it).
    let mut adds: Vec<Fact> = Vec::new();
    for &(l, _) in lhs {
        if l == UNKNOWN {
            // It sees the stores before it.
            st.add_weak(std::mem::take(&mut adds));
            store_unknown(locs, st, vals);
        }
        if !st.has_src(l) {
            // Other objects of a heap site (or the library's object) keep their
            // unwritten value.
            if let Some(d) = locs.unwritten_default(l) {
                adds.push(Fact {
                    src: l,
                    dst: d,
                    def: false,
                });
            }
        }
        st.weaken(l);
        adds.extend(vals.iter().map(|&(v, _)| Fact {
            src: l,
            dst: v,
            def: false,
        }));
    }
    st.add_weak(adds);
}

/// A store through `unknown`: every location that some pointer targets (and
/// every location with facts) may now hold any of `vals`.
pub fn store_unknown(locs: &Locs, st: &mut Facts, vals: &Locset) {
    // Address-taken: a global-like location, or one whose object some
    // pointer targets. A local nobody points to cannot be written this way.
    // Linear in the state (but for the targets that have no facts of their
    // own): real code stores through `unknown` at nearly every statement
    // once unknown code has run.
    let mut pointed = vec![0u64; locs.len().div_ceil(64)];
    for f in st.iter() {
        let r = locs.get(f.dst).root_id.0 as usize;
        pointed[r / 64] |= 1 << (r % 64);
    }
    let exposed = |l: LocId| {
        let d = locs.get(l);
        if l == UNKNOWN || !locs.may_hold_pointer(l) {
            return false;
        }
        match d.class {
            Class::Global | Class::Unknown => {
                !matches!(d.root, Root::Str(..) | Root::Func(_) | Root::Dangling(_))
            }
            Class::NotMemory => false,
            Class::Stack(_) | Class::Symbolic => {
                let r = d.root_id.0 as usize;
                pointed[r / 64] & (1 << (r % 64)) != 0
            }
        }
    };
    // Sources come sorted from the state, then the targets without facts
    // of their own; each location is looked at once (a bit set).
    let mut seen = vec![0u64; pointed.len()];
    let mut first = |l: LocId| {
        let i = l.0 as usize;
        let new = seen[i / 64] & (1 << (i % 64)) == 0;
        seen[i / 64] |= 1 << (i % 64);
        new
    };
    let mut srcs: Vec<LocId> = Vec::new();
    for f in st.iter() {
        if first(f.src) && exposed(f.src) {
            srcs.push(f.src);
        }
    }
    let mut dsts: Vec<LocId> = Vec::new();
    for f in st.iter() {
        if first(f.dst) && exposed(f.dst) {
            dsts.push(f.dst);
        }
    }
    // Nothing to weaken or add when no exposed target lacks facts and
    // every exposed source already points to `unknown`, possibly only:
    // the common case after the first such store.
    let done = dsts.is_empty()
        && srcs.iter().all(|&l| {
            let t = st.targets(l);
            t.iter().all(|f| !f.def) && t.iter().any(|f| f.dst == UNKNOWN)
        });
    let mut taken = Vec::new();
    if !done {
        dsts.sort_unstable();
        taken = Vec::with_capacity(srcs.len() + dsts.len());
        let (mut i, mut j) = (0, 0);
        while i < srcs.len() || j < dsts.len() {
            if j == dsts.len() || i < srcs.len() && srcs[i] < dsts[j] {
                taken.push(srcs[i]);
                i += 1;
            } else {
                taken.push(dsts[j]);
                j += 1;
            }
        }
    }
    // What was stored escapes to unknown memory (a non-static global is
    // named by unknown code anyway).
    let mut adds: Vec<crate::facts::Fact> = vals
        .iter()
        .filter(|&&(v, _)| !locs.named_outside(v))
        .map(|&(v, _)| crate::facts::Fact {
            src: UNKNOWN,
            dst: v,
            def: false,
        })
        .collect();
    adds.extend(taken.into_iter().map(|src| crate::facts::Fact {
        src,
        dst: UNKNOWN,
        def: false,
    }));
    st.add_weak(adds);
}

/// What an assignment wrote besides its facts: through `unknown` (the
/// store may have hit locations the function cannot see), or into a
/// symbolic location (an invisible of some caller), with the (name root,
/// value) pairs stored there.
#[derive(Clone, Default)]
pub struct Wrote {
    pub wild: bool,
    pub symbolic: bool,
    pub stored: Vec<(LocId, LocId)>,
}

/// Applies an assignment `lhs = rhs`. `overwrite`: nothing the place held
/// before is read again (`Function::overwrites`).
pub fn assign(
    locs: &mut Locs,
    st: &mut Facts,
    sc: Scope,
    lhs: &Place,
    rhs: &Rvalue,
    overwrite: bool,
) -> Wrote {
    let vals = rvals(locs, st, sc, rhs);
    // One pointer is stored: into the first slot of a struct or array a
    // cast made the place name (see `targets_of`).
    let partial = scalar_access(locs, sc, lhs);
    let l: Locset = lvals(locs, st, sc, lhs)
        .into_iter()
        .map(|(l, d)| (locs.first_leaf(l), d && !partial))
        .collect();
    let names: Vec<LocId> = l
        .iter()
        .filter(|x| matches!(locs.get(x.0).class, Class::Symbolic))
        .map(|x| locs.get(x.0).root_id)
        .collect();
    let wrote = Wrote {
        wild: l.iter().any(|x| x.0 == UNKNOWN),
        symbolic: !names.is_empty(),
        stored: names
            .iter()
            .flat_map(|&n| vals.iter().map(move |v| (n, v.0)))
            .collect(),
    };
    if overwrite && names_array_tail(locs, lhs, &l) {
        // Summary facts stay possible.
        let vals: Locset = vals.into_iter().map(|(v, _)| (v, false)).collect();
        st.replace(l[0].0, &vals);
    } else {
        store_vals(locs, st, &l, vals);
    }
    wrote
}

/// True when `lhs` is a store through a pointer to a scalar (`*c`,
/// `c[1]`, `*(c + 1)` with `char *c`): it writes part of a pointer slot
/// if it lands on one, or some byte beside the one the engine thinks
/// (without sizes, arithmetic from a member reaches "a later member",
/// possibly), so it never kills what a slot held: every target is
/// updated weakly.
fn scalar_access(locs: &mut Locs, sc: Scope, lhs: &Place) -> bool {
    if !lhs.deref || !lhs.path.iter().all(|s| matches!(s, Sel::Index(_))) {
        return false;
    }
    let base = base_loc(locs, sc, &lhs.base);
    matches!(&locs.get(base).ty, Some(Type::Pointer(t)) if **t == Type::Scalar)
}

/// True when `lhs` (a local, not dereferenced) names exactly one location
/// `l`, selector by selector, that is a summary only because it is an array
/// tail: every element it stands for is one slot of the local, so a write
/// of them all may replace its facts. (A path too long for the engine, or a
/// union spread over several slots, names a location that stands for
/// more.)
fn names_array_tail(locs: &Locs, lhs: &Place, l: &Locset) -> bool {
    let [(loc, true)] = l[..] else {
        return false;
    };
    let d = locs.get(loc);
    matches!(lhs.base, Base::Var(_))
        && !lhs.deref
        && matches!(locs.get(d.root_id).root, Root::Var(..))
        && d.path.len() == lhs.path.len()
        && d.path.contains(&Step::Tail)
        && !matches!(&d.ty, Some(Type::Record(r)) if locs.union_spread(r))
}

/// Stores values, keeping facts out of summaries possible.
pub fn store_vals(locs: &Locs, st: &mut Facts, lhs: &Locset, vals: Locset) {
    if lhs.len() == 1 && locs.is_summary(lhs[0].0) {
        let vals: Locset = vals.into_iter().map(|(v, _)| (v, false)).collect();
        store(locs, st, lhs, &vals);
    } else {
        store(locs, st, lhs, &vals);
    }
}

/// Refines a state by a branch condition; `None` when the branch cannot be
/// taken. Only a place with one definite non-summary L-location is refined.
pub fn refine(locs: &mut Locs, st: Facts, sc: Scope, cond: &Cond, taken: bool) -> Option<Facts> {
    let (p, is_null) = match cond {
        Cond::IsNull(p) => (p, taken),
        Cond::NotNull(p) => (p, !taken),
        Cond::Opaque | Cond::Compare(..) => return Some(st),
        // Short-circuit: `b` is tested only on `a`'s side that evaluates it;
        // a branch is the merge of the ways to reach it.
        // Integer tests on both sides: nothing to refine, no state to copy.
        Cond::And(..) | Cond::Or(..) if !cond.tests_pointer() => return Some(st),
        Cond::And(a, b) | Cond::Or(a, b) => {
            let is_and = matches!(cond, Cond::And(..));
            // `a` decides alone when it is false (`&&`) or true (`||`).
            let decides = !is_and;
            let on_a = refine(locs, st.clone(), sc, a, !decides);
            let by_b = on_a.and_then(|s| refine(locs, s, sc, b, taken));
            if taken != decides {
                // Reached only through `b`.
                return by_b;
            }
            let by_a = refine(locs, st, sc, a, decides);
            return crate::facts::merge_state(by_a, &by_b);
        }
    };
    let l = lvals(locs, &st, sc, p);
    if l.len() != 1 || !l[0].1 || locs.is_summary(l[0].0) || l[0].0 == UNKNOWN {
        return Some(st);
    }
    let l = l[0].0;
    let ts: Vec<_> = st.targets(l).to_vec();
    if ts.is_empty() {
        return Some(st);
    }
    let mut st = st;
    if is_null {
        let may_null = ts.iter().any(|f| {
            f.dst == NULL
                || f.dst == UNINIT
                || f.dst == UNKNOWN
                || matches!(locs.get(locs.get(f.dst).root_id).root,
                    Root::Special(o) if crate::library::ends_in_null(o))
        });
        if !may_null {
            return None;
        }
        st.replace(l, &[(NULL, true)]);
    } else {
        let rest: Vec<_> = ts.iter().filter(|f| f.dst != NULL).collect();
        if rest.is_empty() {
            return None;
        }
        let one = rest.len() == 1 && !matches!(locs.get(rest[0].dst).class, Class::Unknown);
        let v: Locset = rest.iter().map(|f| (f.dst, f.def || one)).collect();
        st.replace(l, &v);
    }
    Some(st)
}
