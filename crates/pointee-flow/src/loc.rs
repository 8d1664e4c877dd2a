//! Abstract locations: interned names for everything a pointer can point to
//! (EGH'94 section 3.1, extended as issue 3 asks).
//!
//! A location is a root (a variable, a global, a heap site, a symbolic name,
//! `NULL`, ...) plus a path of field and array steps. Array elements are the
//! head (`a[0]`) and the tail (`a[+]`, every other element). Locations are
//! interned into dense [`LocId`]s; the table never forgets one.

use crate::fxhash::FxHashMap as HashMap;
use pointee_ir::{pointer_paths, Name, Program, RecordKind, SiteId, Type, VarId};
use std::sync::Arc;

/// A dense id of an abstract location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocId(pub u32);

/// What a location starts from.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Root {
    /// A parameter, local, temporary or return slot of a function (by index
    /// in `Program::functions`).
    Var(u32, VarId),
    /// A global (by index in `Program::globals`).
    Global(u32),
    /// The objects allocated at one site (a summary), by the calls that
    /// made them: the call sites, innermost first, of the functions between
    /// the allocating one and the function that holds the object, at most
    /// `Settings::heap_context` of them (`recency::name_by_call`). Two calls
    /// of one allocation wrapper give two objects.
    Heap(Name, SiteId, HeapContext),
    /// The newest object of a site and calls (the summary `Heap` of the same
    /// name stands for the others), kept apart from its allocation until
    /// the next allocation of its name or a call that can reach it
    /// (`recency.rs`): one object, so stores into it are strong.
    Fresh(Name, SiteId, HeapContext),
    /// A string literal.
    Str(Name, SiteId),
    /// A compound literal; on the stack of its owner when that is a function.
    Lit(Name, SiteId),
    Func(Name),
    Null,
    Uninit,
    Freed,
    Unknown,
    /// A callee's stack location still pointed to after it returned;
    /// `Dangling(NULL)`: every such location a caller passed (a summary,
    /// see `map.rs`).
    Dangling(LocId),
    /// The symbolic name for the invisible target(s) of pointer location
    /// `ptr` (EGH'94 4.1); `multi` when it stands for more than one invisible.
    Sym {
        ptr: LocId,
        multi: bool,
    },
    /// A library object: `argv` strings, `FILE`, the environment, ...
    Special(&'static str),
    /// Not memory: the set of callee pointer locations (sorted) that reach
    /// the invisibles of one symbolic name, its `ptr` when more than one
    /// does (`1_{a,b}`; see `map.rs`).
    PtrSet(Arc<[LocId]>),
}

/// The call sites (caller, site), innermost first, that name a heap object
/// (`Root::Heap`); empty inside the allocating function.
pub type HeapContext = Arc<[(Name, SiteId)]>;

/// One step of a location's path.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Step {
    Field(Name),
    Head,
    Tail,
}

/// How a location behaves for the analysis and how it is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// On the stack of a function (invisible to callees, dangling after).
    Stack(u32),
    /// A symbolic name (stack-like: invisible to callees).
    Symbolic,
    /// Visible everywhere: globals, heap, strings, functions, specials.
    Global,
    /// `NULL`, `uninit`, `freed`: not memory.
    NotMemory,
    Unknown,
}

#[derive(Clone, Debug)]
pub struct LocData {
    pub root: Root,
    pub path: Vec<Step>,
    /// The location without its path.
    pub root_id: LocId,
    /// The location without its last step.
    pub parent: Option<LocId>,
    /// Stands for more than one real location: weak updates only, never a
    /// definite source, never a `must` alias.
    pub summary: bool,
    pub class: Class,
    /// The declared type when known (variables, globals and their paths).
    pub ty: Option<Type>,
    /// Cannot hold a pointer: its type is a scalar (a value read from
    /// integer storage moves no pointer) or, untyped, every struct field
    /// named like its last step is one.
    pub pointerless: bool,
    /// The next location with the same root (from the root: the newest).
    next_member: u32,
    /// The newest child that may sit at this location's offset 0 (an
    /// array head, a field that is some struct's first member), and the
    /// next such sibling: see `Locs::same_address`.
    zero_child: u32,
    zero_next: u32,
}

/// The entries of the table in chunks shared between copies (a rerun
/// copies the previous run's table): a copy shares them, and a write
/// copies one chunk.
#[derive(Clone, Debug, Default)]
struct Chunks {
    chunks: Vec<Arc<Vec<LocData>>>,
    len: usize,
}

const CHUNK: usize = 1024;

impl Chunks {
    fn len(&self) -> usize {
        self.len
    }

    fn get(&self, i: usize) -> &LocData {
        &self.chunks[i / CHUNK][i % CHUNK]
    }

    fn get_mut(&mut self, i: usize) -> &mut LocData {
        &mut Arc::make_mut(&mut self.chunks[i / CHUNK])[i % CHUNK]
    }

    fn push(&mut self, d: LocData) {
        if self.len.is_multiple_of(CHUNK) {
            self.chunks.push(Arc::new(Vec::with_capacity(CHUNK)));
        }
        Arc::make_mut(self.chunks.last_mut().unwrap()).push(d);
        self.len += 1;
    }
}

/// A map shared between copies of the table: while the base is shared,
/// insertions go to a map of this copy's own.
#[derive(Clone, Debug)]
struct Shared<K, V> {
    base: Arc<HashMap<K, V>>,
    own: HashMap<K, V>,
}

impl<K, V> Default for Shared<K, V> {
    fn default() -> Self {
        Shared {
            base: Arc::default(),
            own: HashMap::default(),
        }
    }
}

impl<K: std::hash::Hash + Eq + Clone, V: Clone> Shared<K, V> {
    fn get(&self, k: &K) -> Option<&V> {
        if !self.own.is_empty() {
            if let Some(v) = self.own.get(k) {
                return Some(v);
            }
        }
        self.base.get(k)
    }

    fn insert(&mut self, k: K, v: V) {
        match Arc::get_mut(&mut self.base) {
            Some(base) => {
                base.extend(self.own.drain());
                base.insert(k, v);
            }
            None => {
                self.own.insert(k, v);
                // Copy the base once this copy's own map has grown.
                if self.own.len() > 1024 && self.own.len() * 4 > self.base.len() {
                    let mut base = (*self.base).clone();
                    base.extend(self.own.drain());
                    self.base = Arc::new(base);
                }
            }
        }
    }
}

/// The interning table.
#[derive(Clone, Debug, Default)]
pub struct Locs {
    data: Chunks,
    ids: Shared<(Root, Vec<Step>), LocId>,
    children: Shared<(LocId, Step), LocId>,
    pub(crate) func_index: HashMap<Name, u32>,
    pub(crate) global_index: HashMap<Name, u32>,
    func_names: Vec<Name>,
    // Shared (a rerun copies the table): only edited functions' entries
    // are replaced.
    func_var_names: Vec<Arc<[Name]>>,
    func_var_types: Vec<Arc<[Type]>>,
    global_names: Arc<[Name]>,
    global_types: Arc<[Type]>,
    pub(crate) types: Arc<pointee_ir::TypeTable>,
    /// Heap sites whose objects start zeroed (`calloc`).
    pub(crate) zeroed: crate::fxhash::FxHashSet<LocId>,
    /// `field` answers: (object, field name) -> the locations it names.
    fields: Shared<(LocId, Name), Vec<LocId>>,
    /// `rebase` answers: (location, new root) -> location.
    rebased: Shared<(LocId, LocId), LocId>,
    /// `sibling_members` and `all_members` answers (pointer arithmetic
    /// asks them at every evaluation; an untyped heap object's members
    /// are those of every struct with a member of that name).
    member_lists: Shared<(LocId, MemberQuery), Arc<[LocId]>>,
    /// The roots of the non-static globals (sorted): unknown code names
    /// them, so they need no escape mark (`unknown -> g`).
    pub(crate) named_outside: Vec<LocId>,
    /// The names of the first members of the program's structs: a field
    /// step by one of them may stay at its object's address.
    first_names: Arc<crate::fxhash::FxHashSet<Name>>,
    /// `record_may_hold` answers: (outer, inner) record keys.
    holds: Shared<(Name, Name), bool>,
}

/// The key of a cached member list (`Locs::sibling_members`,
/// `Locs::all_members`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum MemberQuery {
    Siblings { later: bool },
    All(Option<Name>),
}

/// A type without fields (a field step on it selects nothing).
fn fieldless(ty: &Type) -> bool {
    match ty {
        Type::Scalar | Type::Pointer(_) | Type::Function(_) => true,
        Type::Array(e, _) => fieldless(e),
        _ => false,
    }
}

/// A type whose values hold no pointer.
fn pointerless(ty: &Type) -> bool {
    match ty {
        Type::Scalar | Type::Function(_) => true,
        Type::Array(e, _) => pointerless(e),
        _ => false,
    }
}

const NO_LOC: u32 = u32::MAX;

/// Paths longer than this do not grow (see `resolve_field`).
const MAX_PATH: usize = 12;

/// The locations of one root (`Locs::members`).
pub struct Members<'a> {
    locs: &'a Locs,
    next: u32,
}

impl Iterator for Members<'_> {
    type Item = LocId;
    fn next(&mut self) -> Option<LocId> {
        if self.next == NO_LOC {
            return None;
        }
        let l = LocId(self.next);
        self.next = self.locs.get(l).next_member;
        Some(l)
    }
}

pub const NULL: LocId = LocId(0);
pub const UNINIT: LocId = LocId(1);
pub const FREED: LocId = LocId(2);
pub const UNKNOWN: LocId = LocId(3);

impl Locs {
    pub fn new(program: &Program) -> Locs {
        let mut l = Locs {
            types: Arc::new(program.types.clone()),
            global_names: program.globals.iter().map(|g| g.name.clone()).collect(),
            global_types: program.globals.iter().map(|g| g.ty.clone()).collect(),
            first_names: Arc::new(
                program
                    .types
                    .records
                    .values()
                    .filter(|r| r.kind == RecordKind::Struct)
                    .filter_map(|r| r.fields.first().map(|f| f.name.clone()))
                    .collect(),
            ),
            ..Locs::default()
        };
        for (i, f) in program.functions.iter().enumerate() {
            l.func_index.insert(f.name.clone(), i as u32);
            l.func_names.push(f.name.clone());
            l.func_var_names
                .push(f.vars.iter().map(|v| v.name.clone()).collect());
            l.func_var_types
                .push(f.vars.iter().map(|v| v.ty.clone()).collect());
        }
        for (i, g) in program.globals.iter().enumerate() {
            l.global_index.insert(g.name.clone(), i as u32);
        }
        for r in [Root::Null, Root::Uninit, Root::Freed, Root::Unknown] {
            l.root(r);
        }
        l
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    pub fn is_empty(&self) -> bool {
        self.data.len() == 0
    }

    pub fn get(&self, id: LocId) -> &LocData {
        self.data.get(id.0 as usize)
    }

    pub fn root(&mut self, root: Root) -> LocId {
        // A library object's contents exist before anything reads them
        // (`unwritten_default`).
        if let Root::Special(name) = root {
            if let Some(c) = crate::library::object_contents(name).filter(|&c| c != name) {
                self.intern(Root::Special(c), Vec::new());
            }
        }
        self.intern(root, Vec::new())
    }

    pub fn var(&mut self, func: u32, v: VarId) -> LocId {
        self.root(Root::Var(func, v))
    }

    pub fn global(&mut self, name: &str) -> Option<LocId> {
        let i = *self.global_index.get(name)?;
        Some(self.root(Root::Global(i)))
    }

    /// Unknown code can name `l`'s object (a non-static global): marking
    /// it escaped adds nothing.
    pub fn named_outside(&self, l: LocId) -> bool {
        self.named_outside
            .binary_search(&self.get(l).root_id)
            .is_ok()
    }

    pub fn func(&mut self, name: &Name) -> LocId {
        self.root(Root::Func(name.clone()))
    }

    /// Every location with root `root`, the root first.
    pub fn members(&self, root: LocId) -> Members<'_> {
        Members {
            locs: self,
            next: root.0,
        }
    }

    /// The location one step below `id`.
    pub fn child(&mut self, id: LocId, step: Step) -> LocId {
        if let Some(&c) = self.children.get(&(id, step.clone())) {
            return c;
        }
        let c = match self.fold_point(id, &step) {
            Some(summary) => summary,
            None => {
                let d = self.get(id);
                let mut path = d.path.clone();
                path.push(step.clone());
                let root = d.root.clone();
                self.intern(root, path)
            }
        };
        self.children.insert((id, step), c);
        c
    }

    /// Where a step that does not fit its location's types folds
    /// (k-limiting, as access-path names are limited in the presence of
    /// recursive structures): `t.f` where no type `t` may have (its own,
    /// or untyped, those of the fields named like its last step) has a
    /// member `f`, or an element step on what is no array, names the
    /// object's summary `r[+]` (`r` its root) instead of a location of its
    /// own. Such paths are made by copies and calls that move the facts of
    /// one object into a member of another (a symbolic name whose caller
    /// object has another type, a copy into a mistyped pointer); without
    /// the fold they grew at every copy or call up to `MAX_PATH`, a
    /// location each (zlib's `deflate.c`: `1_s.dyn_ltree[0].fc.d_desc.
    /// stat_desc`, ...), so fit paths are bounded by the types' nesting.
    /// A symbolic name's root takes any field (it stands for the whole
    /// caller object, see `resolve_field`). The same step always folds the
    /// same way, so every access to it names the same summary.
    fn fold_point(&mut self, id: LocId, step: &Step) -> Option<LocId> {
        let d = self.get(id);
        if d.path.is_empty() && matches!(d.root, Root::Sym { .. }) {
            return None;
        }
        let fits = match (self.path_types(id), step) {
            // Untyped: one element step in a row at most.
            (None, Step::Head | Step::Tail) => {
                !matches!(d.path.last(), Some(Step::Head | Step::Tail))
            }
            (None, Step::Field(_)) => true,
            (Some(ts), Step::Field(f)) => ts.iter().any(|t| match t {
                Type::Record(r) => self.types.field_type(r, f).is_some(),
                _ => false,
            }),
            (Some(ts), _) => ts.iter().any(|t| matches!(t, Type::Array(..))),
        };
        if fits {
            return None;
        }
        // Interned directly: the step to it would fold again.
        let root = d.root.clone();
        Some(self.intern(root, vec![Step::Tail]))
    }

    /// The types a location may have for `fold_point`: `types_of`, and
    /// for an untyped element step the element types of its parent's.
    fn path_types(&self, t: LocId) -> Option<Vec<Type>> {
        match self.last_step(t) {
            Some(Step::Head | Step::Tail) if self.get(t).ty.is_none() => {
                let elems: Vec<Type> = self
                    .path_types(self.get(t).parent?)?
                    .into_iter()
                    .filter_map(|ty| match ty {
                        Type::Array(e, _) => Some(*e),
                        _ => None,
                    })
                    .collect();
                (!elems.is_empty()).then_some(elems)
            }
            _ => self.types_of(t),
        }
    }

    /// The location `root` followed by `l`'s path (cached: map and unmap
    /// move every fact of a name between roots).
    pub fn rebase(&mut self, l: LocId, root: LocId) -> LocId {
        if self.get(l).path.is_empty() {
            return root;
        }
        if let Some(&c) = self.rebased.get(&(l, root)) {
            return c;
        }
        let path = self.get(l).path.clone();
        let c = self.with_path(root, &path);
        self.rebased.insert((l, root), c);
        c
    }

    /// The location `root` followed by `path`.
    pub fn with_path(&mut self, mut id: LocId, path: &[Step]) -> LocId {
        for s in path {
            id = self.child(id, s.clone());
        }
        id
    }

    fn intern(&mut self, root: Root, path: Vec<Step>) -> LocId {
        if let Some(&id) = self.ids.get(&(root.clone(), path.clone())) {
            return id;
        }
        let id = LocId(self.data.len() as u32);
        let (root_id, parent) = if path.is_empty() {
            (id, None)
        } else {
            let r = self.intern(root.clone(), Vec::new());
            let p = self.intern(root.clone(), path[..path.len() - 1].to_vec());
            (r, Some(p))
        };
        let id = LocId(self.data.len() as u32); // interning parents may add ids
        let (class, summary, ty, pointerless) = self.derive(&root, &path, parent);
        // Joins its root's list of locations (see `members`).
        let next_member = if path.is_empty() {
            NO_LOC
        } else {
            std::mem::replace(&mut self.data.get_mut(root_id.0 as usize).next_member, id.0)
        };
        // Joins its parent's list of children at offset 0.
        let zero_next = match (parent, path.last()) {
            (Some(p), Some(s)) if self.offset_zero_step(s) => {
                std::mem::replace(&mut self.data.get_mut(p.0 as usize).zero_child, id.0)
            }
            _ => NO_LOC,
        };
        self.data.push(LocData {
            pointerless,
            next_member,
            zero_child: NO_LOC,
            zero_next,
            root: root.clone(),
            path: path.clone(),
            root_id: if path.is_empty() { id } else { root_id },
            parent,
            summary,
            class,
            ty,
        });
        self.ids.insert((root, path), id);
        id
    }

    /// What a location's root and path make of it under the current
    /// program: class, summary flag and type.
    fn derive(
        &self,
        root: &Root,
        path: &[Step],
        parent: Option<LocId>,
    ) -> (Class, bool, Option<Type>, bool) {
        let class = self.class_of(root);
        let mut summary = path.contains(&Step::Tail)
            || matches!(
                root,
                Root::Heap(..)
                    | Root::Unknown
                    | Root::Special(_)
                    | Root::Sym { multi: true, .. }
                    | Root::Dangling(NULL)
            );
        if let Some(p) = parent {
            summary |= self.get(p).summary;
        }
        let ty = self.type_of(root, path, parent);
        // A union is one location (paths never select its members); when
        // its members' pointer slots are not all the one slot at offset 0,
        // it stands for several real slots: a summary.
        if let Some(Type::Record(r)) = &ty {
            summary |= self.union_spread(r);
        }
        // A symbolic name is typed by the pointer it hangs off, but stands
        // for the whole object the pointer points into (`&s.f` passed as
        // `T *p` names `s` with `p`'s pointee type): only the field names
        // along its path are sure.
        let typed = !matches!(root, Root::Sym { .. });
        let no_pointer = match (&ty, path.last()) {
            (Some(t), _) if typed => pointerless(t),
            (_, Some(Step::Field(x))) => self.fields_named(x).all(pointerless),
            _ => false,
        };
        (class, summary, ty, no_pointer)
    }

    /// The types of the struct fields named `x` (array lengths dropped);
    /// empty when no struct has one.
    fn fields_named<'a>(&'a self, x: &'a Name) -> impl Iterator<Item = &'a Type> + 'a {
        self.types
            .records
            .values()
            .filter(|r| r.kind == RecordKind::Struct)
            .filter_map(move |r| r.fields.iter().find(|g| g.name == *x))
            .map(|g| &g.ty)
            .chain(std::iter::once(&Type::Unknown).filter(move |_| {
                // No struct has it: nothing is known.
                !self
                    .types
                    .records
                    .values()
                    .any(|r| r.fields.iter().any(|g| g.name == *x))
            }))
    }

    /// Carries the table over to an edited program with the same functions
    /// (by name and order), globals and types, where only the functions
    /// marked in `edited` may have other variables: ids stay, those
    /// functions' variable names and types become the new program's, and
    /// every entry that depends on them (their variables, paths below, the
    /// symbolic names hanging off them) is derived again. Parents and the
    /// pointers of symbolic names have lower ids, so one pass in id order
    /// suffices. Returns the ids whose data changed.
    pub(crate) fn refresh(&mut self, program: &Program, edited: &[bool]) -> Vec<LocId> {
        for (fi, f) in program.functions.iter().enumerate() {
            if edited[fi] {
                self.func_var_names[fi] = f.vars.iter().map(|v| v.name.clone()).collect();
                self.func_var_types[fi] = f.vars.iter().map(|v| v.ty.clone()).collect();
            }
        }
        let mut affected = vec![false; self.data.len()];
        let mut changed = Vec::new();
        for i in 0..self.data.len() {
            let d = self.data.get(i);
            affected[i] = match &d.root {
                Root::Var(f, _) => edited[*f as usize],
                Root::Sym { ptr, .. } => affected[ptr.0 as usize],
                Root::PtrSet(ps) => ps.iter().any(|p| affected[p.0 as usize]),
                _ => false,
            } || d.parent.is_some_and(|p| affected[p.0 as usize]);
            if !affected[i] {
                continue;
            }
            let (root, path, parent) = (d.root.clone(), d.path.clone(), d.parent);
            // A variable index past the function's end names nothing now.
            if let Root::Var(f, v) = root {
                if v.0 as usize >= self.func_var_types[f as usize].len() {
                    changed.push(LocId(i as u32));
                    self.data.get_mut(i).ty = None;
                    continue;
                }
            }
            let (class, summary, ty, pointerless) = self.derive(&root, &path, parent);
            let d = self.data.get(i);
            if d.class != class
                || d.summary != summary
                || d.ty != ty
                || d.pointerless != pointerless
            {
                let d = self.data.get_mut(i);
                d.class = class;
                d.summary = summary;
                d.ty = ty;
                d.pointerless = pointerless;
                changed.push(LocId(i as u32));
            }
        }
        if !changed.is_empty() {
            self.fields = Shared::default();
        }
        changed
    }

    fn class_of(&self, root: &Root) -> Class {
        match root {
            Root::Var(f, _) => Class::Stack(*f),
            Root::Lit(owner, _) => match self.func_index.get(owner) {
                Some(&f) => Class::Stack(f),
                None => Class::Global,
            },
            Root::Sym { .. } => Class::Symbolic,
            Root::Null | Root::Uninit | Root::Freed | Root::PtrSet(_) => Class::NotMemory,
            Root::Unknown => Class::Unknown,
            Root::Global(_)
            | Root::Heap(..)
            | Root::Fresh(..)
            | Root::Str(..)
            | Root::Func(_)
            | Root::Dangling(_)
            | Root::Special(_) => Class::Global,
        }
    }

    fn type_of(&self, root: &Root, path: &[Step], parent: Option<LocId>) -> Option<Type> {
        let base = if path.is_empty() {
            match root {
                Root::Var(f, v) => Some(self.func_var_types[*f as usize][v.0 as usize].clone()),
                Root::Global(g) => Some(self.global_types[*g as usize].clone()),
                Root::Sym { ptr, .. } => self
                    .get(*ptr)
                    .ty
                    .as_ref()
                    .and_then(|t| t.pointee().cloned()),
                _ => None,
            }
        } else {
            let pt = self.get(parent?).ty.clone()?;
            match (path.last()?, pt) {
                (Step::Head | Step::Tail, Type::Array(e, _)) => Some(*e),
                (Step::Field(f), Type::Record(r)) => self.types.field_type(&r, f).cloned(),
                _ => None,
            }
        };
        base.filter(|t| !matches!(t, Type::Unknown | Type::Void))
    }

    /// The locations `(*p).f` names when `p` points to `t` (C allows a
    /// pointer to a struct's first member to be used as a pointer to the
    /// struct, and back: they share an address).
    ///
    /// - `t`'s type has `f` (or is unknown): `t.f`, as usual.
    /// - `t` sits at offset 0 of an enclosing struct (its last steps are
    ///   first members or first elements) that has `f`: that struct's `f`
    ///   (`&s.h` used as `struct full *`: `s.payload`).
    /// - `t`'s type is a struct whose first member (first of first, ...) has
    ///   `f`: that member's `f` (`&s` used as a pointer to its first member).
    ///
    /// Where a location's type is missing or does not match its path (heap
    /// objects are untyped; a symbolic name is typed by the callee pointer
    /// it hangs off, `1_h.h` has no type when `h` points into a struct),
    /// the records that have the step's field name stand in for it. One
    /// answer keeps the dereference's flag; several are possible.
    pub fn field(&mut self, t: LocId, f: &Name) -> Vec<LocId> {
        if let Some(v) = self.fields.get(&(t, f.clone())) {
            return v.clone();
        }
        let v = self.resolve_field(t, f);
        self.fields.insert((t, f.clone()), v.clone());
        v
    }

    fn resolve_field(&mut self, t: LocId, f: &Name) -> Vec<LocId> {
        let step = Step::Field(f.clone());
        let types = self.types_of(t);
        // A scalar or a pointer has no fields: only a pointer imprecise
        // enough to point to one reaches here (or a path longer than any
        // type nests). The step stays on the location, so that paths stay
        // finite. Not for a symbolic name's root: typed by the pointer it
        // hangs off, it stands for the whole object (`&s.f` passed as
        // `int **` names `s`, whose other fields the callee may reach
        // another way); the steps below it are the caller's own.
        let symbolic = self.get(t).path.is_empty()
            && matches!(self.get(self.get(t).root_id).root, Root::Sym { .. });
        if !symbolic
            && types
                .as_ref()
                .is_some_and(|ts| !ts.is_empty() && ts.iter().all(fieldless))
            || self.get(t).path.len() >= MAX_PATH
        {
            // Unless `t` sits at offset 0 of a struct that has `f`:
            // `((struct S *)&s.f)->h` is `s.h`.
            let up = self.field_above(t, f);
            return if up.is_empty() { vec![t] } else { up };
        }
        let has = |l: &Locs, ty: &Type| match ty {
            Type::Record(r) => l.types.field_type(r, f).is_some(),
            _ => false,
        };
        // The usual case first.
        if let Some(ts) = &types {
            if !ts.is_empty() && ts.iter().all(|ty| has(self, ty)) {
                return vec![self.child(t, step)];
            }
        }
        let direct = match &types {
            None => true,
            Some(ts) => ts
                .iter()
                .any(|ty| has(self, ty) || !matches!(ty, Type::Record(_))),
        };
        let mut out = self.field_above(t, f);
        // Down: t's struct type's first member (first of first, ...) has f.
        if let Some([Type::Record(r)]) = types.as_deref() {
            let mut rec = r.clone();
            let mut loc = t;
            for _ in 0..8 {
                let Some(first) = self
                    .types
                    .record(&rec)
                    .filter(|r| r.kind == RecordKind::Struct)
                    .and_then(|r| r.fields.first())
                    .cloned()
                else {
                    break;
                };
                let (ty, steps) = match &first.ty {
                    Type::Array(e, _) => (
                        (**e).clone(),
                        vec![Step::Field(first.name.clone()), Step::Head],
                    ),
                    ty => (ty.clone(), vec![Step::Field(first.name.clone())]),
                };
                let Type::Record(next) = ty else {
                    break;
                };
                loc = self.with_path(loc, &steps);
                if self.types.field_type(&next, f).is_some() {
                    out.push(self.child(loc, step.clone()));
                    break;
                }
                rec = next;
            }
        }
        if direct || out.is_empty() {
            let c = self.child(t, step);
            if !out.contains(&c) {
                out.push(c);
            }
        }
        out
    }

    /// `f` of the struct `t` sits at offset 0 of (its last steps are first
    /// members or first elements), when that struct has `f`; empty when
    /// none does.
    fn field_above(&mut self, t: LocId, f: &Name) -> Vec<LocId> {
        let mut cur = t;
        for _ in 0..8 {
            match self.last_step(cur).cloned() {
                Some(Step::Head) => cur = self.get(cur).parent.unwrap(),
                Some(Step::Field(x)) => {
                    let a = self.get(cur).parent.unwrap();
                    let recs = self.records_for_step(a, &x);
                    let first: Vec<&pointee_ir::Record> = recs
                        .iter()
                        .filter_map(|r| self.types.record(r))
                        .filter(|r| {
                            r.kind == RecordKind::Struct
                                && r.fields.first().is_some_and(|g| g.name == x)
                        })
                        .collect();
                    if first.is_empty() {
                        break;
                    }
                    if first.iter().any(|r| r.fields.iter().any(|g| &g.name == f)) {
                        return vec![self.child(a, Step::Field(f.clone()))];
                    }
                    cur = a;
                }
                _ => break,
            }
        }
        Vec::new()
    }

    /// True when member `x` of the object at `a` may sit at its offset 0
    /// (the first member of a struct `a` may be).
    pub fn first_member_step(&self, a: LocId, x: &Name) -> bool {
        self.records_for_step(a, x).iter().any(|r| {
            self.types.record(r).is_some_and(|r| {
                r.kind == RecordKind::Struct && r.fields.first().is_some_and(|g| g.name == *x)
            })
        })
    }

    /// The types a location may have: its own, or (untyped, or typed
    /// inconsistently with its path) those of the fields named like its
    /// last step; `None` when nothing is known.
    fn types_of(&self, t: LocId) -> Option<Vec<Type>> {
        if let Some(ty) = &self.get(t).ty {
            return Some(vec![ty.clone()]);
        }
        match self.last_step(t) {
            Some(Step::Field(x)) => {
                let v: Vec<Type> = self
                    .types
                    .records
                    .values()
                    .filter(|r| r.kind == RecordKind::Struct)
                    .filter_map(|r| r.fields.iter().find(|g| g.name == *x))
                    .map(|g| match &g.ty {
                        Type::Array(e, _) => Type::Array(e.clone(), None),
                        ty => ty.clone(),
                    })
                    .collect();
                (!v.is_empty()).then_some(v)
            }
            _ => None,
        }
    }

    /// The locations pointer arithmetic from member `loc` of a struct
    /// (`&s.f1 + 1`, `&s.f1 + b`) may reach inside the struct: with
    /// `later`, the members declared after `loc`'s (a positive offset
    /// moves to higher addresses), else every member. Each member counts
    /// with its pointer leaves (`s.in.p`, `s.arr[+]`), where the facts of a
    /// struct member are kept. Empty when `loc` is not a struct member.
    pub fn sibling_members(&mut self, loc: LocId, later: bool) -> Vec<LocId> {
        let key = (loc, MemberQuery::Siblings { later });
        if let Some(v) = self.member_lists.get(&key) {
            return v.to_vec();
        }
        let out = self.sibling_members_uncached(loc, later);
        self.member_lists.insert(key, out.as_slice().into());
        out
    }

    fn sibling_members_uncached(&mut self, loc: LocId, later: bool) -> Vec<LocId> {
        let Some(Step::Field(f)) = self.last_step(loc).cloned() else {
            return Vec::new();
        };
        let a = self.get(loc).parent.expect("a field has a parent");
        let mut fields: Vec<pointee_ir::Field> = Vec::new();
        for r in self.records_for_step(a, &f) {
            let Some(rec) = self.types.record(&r) else {
                continue;
            };
            let from = match rec.fields.iter().position(|g| g.name == f) {
                Some(k) if later => k + 1,
                _ => 0,
            };
            fields.extend(rec.fields[from..].iter().cloned());
        }
        let mut out = Vec::new();
        for g in fields {
            let m = self.child(a, Step::Field(g.name.clone()));
            self.push_leaves(m, &g.ty, &mut out);
        }
        out
    }

    /// Every member of the struct at `obj` (typed, or untyped like a heap
    /// object: the records with a member named like one of `like`'s),
    /// with their pointer leaves: where arithmetic that leaves one element
    /// or member may land inside another.
    pub fn all_members(&mut self, obj: LocId, like: Option<&Name>) -> Vec<LocId> {
        let key = (obj, MemberQuery::All(like.cloned()));
        if let Some(v) = self.member_lists.get(&key) {
            return v.to_vec();
        }
        let out = self.all_members_uncached(obj, like);
        self.member_lists.insert(key, out.as_slice().into());
        out
    }

    fn all_members_uncached(&mut self, obj: LocId, like: Option<&Name>) -> Vec<LocId> {
        let recs: Vec<Name> = match (&self.get(obj).ty, like) {
            (Some(Type::Record(r)), _) => vec![r.clone()],
            (_, Some(f)) => self.records_for_step(obj, f),
            _ => Vec::new(),
        };
        let mut out = Vec::new();
        for r in recs {
            let Some(rec) = self.types.record(&r) else {
                continue;
            };
            if rec.kind != RecordKind::Struct {
                continue;
            }
            for g in rec.fields.clone() {
                let m = self.child(obj, Step::Field(g.name.clone()));
                self.push_leaves(m, &g.ty, &mut out);
            }
        }
        out
    }

    /// `m` and the pointer leaves of a value of type `ty` at `m`.
    fn push_leaves(&mut self, m: LocId, ty: &Type, out: &mut Vec<LocId>) {
        if !out.contains(&m) {
            out.push(m);
        }
        for path in pointer_paths(ty, &self.types) {
            let l = self.with_path(m, &crate::solver::steps_of(&path));
            if !out.contains(&l) {
                out.push(l);
            }
        }
    }

    /// The records `a` may be, given that it has a member `x`: its own type
    /// when that has `x`, else every struct with a member `x`.
    fn records_for_step(&self, a: LocId, x: &Name) -> Vec<Name> {
        if let Some(Type::Record(r)) = &self.get(a).ty {
            if self.types.field_type(r, x).is_some() {
                return vec![r.clone()];
            }
        }
        self.types
            .records
            .iter()
            .filter(|(_, r)| r.kind == RecordKind::Struct && r.fields.iter().any(|g| g.name == *x))
            .map(|(k, _)| k.clone())
            .collect()
    }

    /// True for a step that may stay at its object's address: an array's
    /// head, or a field that is the first member of some struct (the
    /// location's own type may not say which: heap objects are untyped).
    fn offset_zero_step(&self, s: &Step) -> bool {
        match s {
            Step::Head => true,
            Step::Field(x) => self.first_names.contains(x),
            Step::Tail => false,
        }
    }

    /// The pointer-sized slot at `l`'s address when `l` is typed as a
    /// struct or an array: its first member, first of first, ... (or
    /// first element), where the engine keeps the facts of that slot. A
    /// load or store of one pointer lands on a whole struct only through
    /// a cast (`*(int **)sp`, C11 6.7.2.1p15: a struct and its first
    /// member share an address). Other locations (unions, pointers,
    /// untyped ones) are their own slot.
    pub fn first_leaf(&mut self, mut l: LocId) -> LocId {
        for _ in 0..MAX_PATH {
            let step = match &self.get(l).ty {
                Some(Type::Array(..)) => Step::Head,
                Some(Type::Record(r)) => match self.types.record(r) {
                    Some(rec) if rec.kind == RecordKind::Struct => match rec.fields.first() {
                        Some(f) => Step::Field(f.name.clone()),
                        None => return l,
                    },
                    _ => return l,
                },
                _ => return l,
            };
            if self.get(l).path.len() >= MAX_PATH {
                return l;
            }
            l = self.child(l, step);
        }
        l
    }

    /// True when a location's type does not say which of the names of one
    /// address hold its facts: untyped (heap objects, paths a cast made)
    /// or symbolic (typed by the callee pointer it hangs off, it stands
    /// for whatever the caller's object was).
    pub fn loose(&self, l: LocId) -> bool {
        let d = self.get(l);
        d.ty.is_none() && !matches!(d.class, Class::NotMemory | Class::Unknown)
            || matches!(self.get(d.root_id).root, Root::Sym { .. })
    }

    /// The other locations that may share `l`'s address and hold the
    /// facts of its first pointer slot: the enclosing objects `l` sits at
    /// offset 0 of, and the children at `l`'s offset 0 the table holds
    /// (first members, first elements, below them too). For loose
    /// locations (`loose`): a typed one keeps its facts at `first_leaf`.
    pub fn same_address(&self, l: LocId, out: &mut Vec<LocId>) {
        let mut cur = l;
        while let (Some(p), Some(s)) = (self.get(cur).parent, self.last_step(cur)) {
            if !self.offset_zero_step(s) {
                break;
            }
            out.push(p);
            cur = p;
        }
        let mut stack = vec![self.get(l).zero_child];
        while let Some(c) = stack.pop() {
            if c == NO_LOC {
                continue;
            }
            let d = self.data.get(c as usize);
            out.push(LocId(c));
            stack.push(d.zero_next);
            stack.push(d.zero_child);
        }
    }

    /// True for a union whose members hold pointer slots anywhere but at
    /// offset 0 (a member with two pointer fields, an array of pointers, a
    /// pointer after a scalar): the one location of the union stands for
    /// several real slots. Nested unions count with their members.
    pub fn union_spread(&self, record: &str) -> bool {
        match self.types.record(record) {
            Some(r) if r.kind == RecordKind::Union => r
                .fields
                .iter()
                .any(|f| self.slots_off_zero(&f.ty, &mut Vec::new())),
            _ => false,
        }
    }

    /// Whether an object of record type `outer` may hold one of record type
    /// `inner` by value (as itself, any member, or an array element, at any
    /// depth). An anonymous record (its key is per unit) or one no unit
    /// completes may hold anything. Pointer arithmetic by `inner`'s size
    /// over an `outer` object lands on its members only then: an
    /// `inner *` into an object that holds no `inner` is accessed through
    /// an lvalue of the wrong type (C11 6.5p7).
    pub fn record_may_hold(&mut self, outer: &str, inner: &str) -> bool {
        let key = (outer.into(), inner.into());
        if let Some(&b) = self.holds.get(&key) {
            return b;
        }
        // Only records are asked about: no leaf holds one.
        let b = self.types.holds_by_value(
            &Type::Record(key.0.clone()),
            &Type::Record(key.1.clone()),
            &|_, _| false,
        );
        self.holds.insert(key, b);
        b
    }

    /// True when a value of type `ty` holds a pointer slot not at its
    /// offset 0 (following first fields and first elements only).
    fn slots_off_zero(&self, ty: &Type, visiting: &mut Vec<Name>) -> bool {
        match ty {
            Type::Array(e, len) => {
                let elem = pointer_paths(e, &self.types).len();
                (elem > 0 && *len != Some(1)) || self.slots_off_zero(e, visiting)
            }
            Type::Record(n) => {
                if visiting.contains(n) {
                    return false;
                }
                let Some(r) = self.types.record(n) else {
                    return false;
                };
                visiting.push(n.clone());
                let out = match r.kind {
                    RecordKind::Union => r
                        .fields
                        .iter()
                        .any(|f| self.slots_off_zero(&f.ty, visiting)),
                    RecordKind::Struct => r.fields.iter().enumerate().any(|(i, f)| {
                        if i == 0 {
                            self.slots_off_zero(&f.ty, visiting)
                        } else {
                            !pointer_paths(&f.ty, &self.types).is_empty()
                        }
                    }),
                };
                visiting.pop();
                out
            }
            _ => false,
        }
    }

    /// False when a location cannot hold a pointer: its type is a scalar
    /// (a value read from integer storage moves no pointer), or, untyped,
    /// every field named like its last step is a scalar.
    pub fn may_hold_pointer(&self, l: LocId) -> bool {
        !self.get(l).pointerless
    }

    /// True for a location an assignment can write a pointer into.
    pub fn is_memory(&self, id: LocId) -> bool {
        !matches!(self.get(id).class, Class::NotMemory)
            && !matches!(self.get(id).root, Root::Func(_))
    }

    /// What an unwritten pointer of a heap or library object holds: `NULL`
    /// for a zeroed allocation (`calloc`); the library's data for a
    /// library object (`library::object_contents`: `localeconv()`'s
    /// strings). A `malloc`ed pointer never written holds garbage; reading
    /// it is undefined, and no `uninit` is tracked for the heap (it would
    /// show in every list built from one site: a weak store cannot tell
    /// that each object was written).
    pub fn unwritten_default(&self, id: LocId) -> Option<LocId> {
        let r = self.get(id).root_id;
        match self.get(r).root {
            Root::Heap(..) | Root::Fresh(..) => self.zeroed.contains(&r).then_some(NULL),
            Root::Special(name) => {
                let c = crate::library::object_contents(name)?;
                self.ids.get(&(Root::Special(c), Vec::new())).copied()
            }
            _ => None,
        }
    }

    pub fn is_summary(&self, id: LocId) -> bool {
        self.get(id).summary
    }

    pub fn last_step(&self, id: LocId) -> Option<&Step> {
        self.get(id).path.last()
    }

    /// True for an array: typed so, or untyped (a member of a heap
    /// object) where every struct member named like its last step is an
    /// array (`s->arr[i]` on a heap `s` selects `arr`'s head or tail, and
    /// arithmetic from there stays inside `arr`, as C allows: it does not
    /// reach every member of every struct with a member `arr`).
    pub fn is_array(&self, id: LocId) -> bool {
        match &self.get(id).ty {
            Some(ty) => matches!(ty, Type::Array(..)),
            None => self
                .path_types(id)
                .is_some_and(|ts| ts.iter().all(|t| matches!(t, Type::Array(..)))),
        }
    }

    /// The symbolic level of a location (`1` for `1_x`), 0 for others.
    pub fn sym_level(&self, id: LocId) -> u32 {
        match self.get(self.get(id).root_id).root {
            Root::Sym { ptr, .. } => 1 + self.sym_level(ptr),
            Root::PtrSet(ref ptrs) => ptrs.iter().map(|&p| self.sym_level(p)).max().unwrap_or(0),
            _ => 0,
        }
    }

    pub fn func_name(&self, f: u32) -> &Name {
        &self.func_names[f as usize]
    }

    /// The source-like name of a location: `x`, `main::x`, `s.f`, `a[0]`,
    /// `a[+]`, `heap@main#2`, `1_p`, `NULL`, ...
    pub fn name(&self, id: LocId) -> String {
        let d = self.get(id);
        let mut s = match &d.root {
            // (A variable an edit removed: only stale units of an earlier
            // run can hold it.)
            Root::Var(f, v) => self.func_var_names[*f as usize]
                .get(v.0 as usize)
                .map_or_else(|| "?".to_string(), |n| n.to_string()),
            Root::Global(g) => self.global_names[*g as usize].to_string(),
            Root::Heap(o, s, ctx) | Root::Fresh(o, s, ctx) => {
                let newest = if matches!(d.root, Root::Fresh(..)) {
                    "newest "
                } else {
                    ""
                };
                let mut n = format!("{newest}heap@{o}#{}", s.0);
                if !ctx.is_empty() {
                    let calls: Vec<String> =
                        ctx.iter().map(|(c, at)| format!("{c}#{}", at.0)).collect();
                    n.push_str(&format!("<{}>", calls.join(",")));
                }
                n
            }
            Root::Str(o, s) => format!("string@{o}#{}", s.0),
            Root::Lit(o, s) => format!("literal@{o}#{}", s.0),
            Root::Func(n) => n.to_string(),
            Root::Null => "NULL".into(),
            Root::Uninit => "uninit".into(),
            Root::Freed => "freed".into(),
            Root::Unknown => "unknown".into(),
            Root::Dangling(NULL) => "dangling".into(),
            Root::Dangling(l) => format!("dangling({})", self.qualified(*l)),
            Root::Sym { ptr, multi } => {
                let star = if *multi { "*" } else { "" };
                format!("{}_{}{star}", self.sym_level(id), self.sym_base(*ptr))
            }
            Root::Special(n) => n.to_string(),
            Root::PtrSet(ps) => self.ptr_set_name(ps),
        };
        for step in &d.path {
            match step {
                Step::Field(f) => {
                    s.push('.');
                    s.push_str(f);
                }
                Step::Head => s.push_str("[0]"),
                Step::Tail => s.push_str("[+]"),
            }
        }
        s
    }

    /// The pointer a symbolic name hangs off, without level prefixes:
    /// `x` for `1_x`'s pointer `x`, `x` for `2_x`'s pointer `1_x`, `x.f` for
    /// the target of `1_x.f`.
    fn sym_base(&self, ptr: LocId) -> String {
        let d = self.get(ptr);
        let mut s = match &d.root {
            Root::Sym { ptr, .. } => self.sym_base(*ptr),
            Root::PtrSet(ps) => self.ptr_set_name(ps),
            _ => {
                let r = self.get(ptr).root_id;
                self.name(r)
            }
        };
        for step in &d.path {
            match step {
                Step::Field(f) => {
                    s.push('.');
                    s.push_str(f);
                }
                Step::Head => s.push_str("[0]"),
                Step::Tail => s.push_str("[+]"),
            }
        }
        s
    }

    /// `{a,b}`: the pointers' names, sorted.
    fn ptr_set_name(&self, ps: &[LocId]) -> String {
        let mut v: Vec<String> = ps.iter().map(|&p| self.name(p)).collect();
        v.sort();
        format!("{{{}}}", v.join(","))
    }

    /// The name with its function for stack locations: `f::x`.
    pub fn qualified(&self, id: LocId) -> String {
        match &self.get(id).root {
            Root::Var(f, _) => format!("{}::{}", self.func_names[*f as usize], self.name(id)),
            _ => self.name(id),
        }
    }

    /// True when two locations may share memory: equal, or one contains the
    /// other (a struct and its fields, an array and its elements). `unknown`
    /// overlaps all memory; `NULL`, `uninit` and `freed` overlap nothing.
    pub fn overlaps(&self, a: LocId, b: LocId) -> bool {
        let (da, db) = (self.get(a), self.get(b));
        if matches!(da.class, Class::NotMemory) || matches!(db.class, Class::NotMemory) {
            return false;
        }
        if a == UNKNOWN || b == UNKNOWN {
            return true;
        }
        if da.root_id != db.root_id {
            return false;
        }
        let n = da.path.len().min(db.path.len());
        da.path[..n] == db.path[..n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn locs_of(src: &str) -> Locs {
        Locs::new(&pointee_c::lower(&[("t.c", src)]).unwrap().program)
    }

    /// Steps that fit no type fold into the object's summary `r[+]`, so
    /// paths built step by step from the members of unrelated structs
    /// (what copies and calls that move facts between objects of other
    /// types make) stay few: before, every step made a location of its
    /// own (a hundred here). Steps that fit stay exact.
    #[test]
    fn steps_that_fit_no_type_fold_into_the_objects_summary() {
        let mut l = locs_of(
            "struct b { int n; int *z; };
             struct a { struct b in; int *y; };
             int main(void) { return 0; }",
        );
        let h = l.root(Root::Fresh("main".into(), SiteId(0), Arc::from([])));
        let before = l.len();
        // `h.in.z` fits: the untyped (newest) heap object is an `a` by its member.
        let inz = l.with_path(h, &[Step::Field("in".into()), Step::Field("z".into())]);
        assert_eq!(l.name(inz), "newest heap@main#0.in.z");
        assert!(!l.is_summary(inz));
        // `z` is a pointer: no member `y` below it; nor `in` below `y`.
        let mut cur = inz;
        for k in 0..100 {
            let f = ["y", "in", "z", "n"][k % 4];
            cur = l.child(cur, Step::Field(f.into()));
        }
        let mut names: Vec<String> = (before..l.len()).map(|i| l.name(LocId(i as u32))).collect();
        names.sort();
        assert_eq!(
            names,
            [
                "newest heap@main#0.in",
                "newest heap@main#0.in.z",
                "newest heap@main#0[+]",
                "newest heap@main#0[+].in",
                "newest heap@main#0[+].in.z",
                "newest heap@main#0[+].y",
                "newest heap@main#0[+].z",
            ]
        );
        assert!(l.is_summary(cur));
        // The same steps fold the same way: no new location.
        let n = l.len();
        let mut again = inz;
        for k in 0..100 {
            let f = ["y", "in", "z", "n"][k % 4];
            again = l.child(again, Step::Field(f.into()));
        }
        assert_eq!((again, l.len()), (cur, n));
    }

    /// An untyped member every struct declares as an array is an array:
    /// an index selects its head or tail (arithmetic from there stays in
    /// it); a member some struct declares otherwise is not.
    #[test]
    fn untyped_members_declared_arrays_are_arrays() {
        let mut l = locs_of(
            "struct s { int *arr[4]; int *one; };
             struct t { int *arr[2]; int one[3]; };
             int main(void) { return 0; }",
        );
        let h = l.root(Root::Heap("main".into(), SiteId(0), Arc::from([])));
        let arr = l.child(h, Step::Field("arr".into()));
        let one = l.child(h, Step::Field("one".into()));
        assert!(l.is_array(arr));
        assert!(!l.is_array(one));
        let tail = l.child(arr, Step::Tail);
        assert!(!l.is_array(tail));
    }
}
