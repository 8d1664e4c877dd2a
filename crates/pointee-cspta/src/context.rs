//! Contexts and the one selector interface (seed 003, Figure 2.1:
//! mtdCtxSelector and heapCtxSelector; seed 001: Select(c, l, c':o_i)).
//!
//! k-limiting follows seed 003: method contexts keep the last k elements,
//! heap contexts the last k-1 elements of the allocating method's context.

use std::collections::HashMap;

/// Index of an interned context; `EMPTY` is `[]`.
pub type CtxId = u32;
pub const EMPTY: CtxId = 0;

/// One element of a context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Elem {
    /// A call site: (method index, site ordinal in that method).
    Call(u32, u32),
    /// An allocation site (object sensitivity).
    Alloc(u32),
    /// A class: the one containing an allocation site (type sensitivity).
    Type(u32),
}

/// Interned contexts.
#[derive(Clone, Debug)]
pub struct Contexts {
    list: Vec<Box<[Elem]>>,
    index: HashMap<Box<[Elem]>, CtxId>,
}

impl Default for Contexts {
    fn default() -> Self {
        let mut c = Contexts {
            list: Vec::new(),
            index: HashMap::new(),
        };
        c.intern(&[]);
        c
    }
}

impl Contexts {
    pub fn get(&self, id: CtxId) -> &[Elem] {
        &self.list[id as usize]
    }

    pub fn len(&self) -> usize {
        self.list.len()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn intern(&mut self, elems: &[Elem]) -> CtxId {
        if let Some(&id) = self.index.get(elems) {
            return id;
        }
        let id = self.list.len() as CtxId;
        self.list.push(elems.into());
        self.index.insert(elems.into(), id);
        id
    }

    /// The same contexts (same ids) with every element renamed by `f`, an
    /// injective renaming; `None` when `f` has no name for one.
    pub(crate) fn renamed(&self, f: impl Fn(Elem) -> Option<Elem>) -> Option<Contexts> {
        let mut out = Contexts {
            list: Vec::with_capacity(self.list.len()),
            index: HashMap::with_capacity(self.list.len()),
        };
        for elems in &self.list {
            let renamed: Box<[Elem]> = elems.iter().map(|&e| f(e)).collect::<Option<_>>()?;
            out.index.insert(renamed.clone(), out.list.len() as CtxId);
            out.list.push(renamed);
        }
        (out.index.len() == out.list.len()).then_some(out)
    }

    /// `ctx ++ [e]`, keeping the last `k` elements.
    pub fn append(&mut self, ctx: CtxId, e: Elem, k: usize) -> CtxId {
        if k == 0 {
            return EMPTY;
        }
        let mut v: Vec<Elem> = self.get(ctx).to_vec();
        v.push(e);
        let start = v.len().saturating_sub(k);
        self.intern(&v[start..])
    }

    /// The last `k` elements of `ctx`.
    pub fn truncate(&mut self, ctx: CtxId, k: usize) -> CtxId {
        let e = self.get(ctx);
        if e.len() <= k {
            return ctx;
        }
        let v = e[e.len() - k..].to_vec();
        self.intern(&v)
    }
}

/// The receiver object of an instance call, as the selector sees it.
#[derive(Clone, Copy, Debug)]
pub struct Receiver {
    /// The object's heap context.
    pub heap_ctx: CtxId,
    /// Its allocation site.
    pub alloc: u32,
    /// The class containing the allocation site (InType).
    pub in_type: u32,
}

/// Chooses contexts. Every variant of the analysis is one implementation.
pub trait Selector {
    /// The callee context of a call: from the caller's context, the call site
    /// and, for an instance (virtual, super or constructor) call, the receiver
    /// object with its heap context.
    fn callee_context(
        &self,
        ctxs: &mut Contexts,
        caller: CtxId,
        site: Elem,
        recv: Option<Receiver>,
    ) -> CtxId;
    /// The heap context of an object allocated in a method analysed under
    /// `method_ctx`.
    fn heap_context(&self, ctxs: &mut Contexts, method_ctx: CtxId) -> CtxId;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    Insensitive,
    CallSite,
    Object,
    Type,
}

/// A variant: `ci`, `k-call`, `k-obj` or `k-type` for k = 1..3.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub kind: Kind,
    pub k: usize,
}

impl Variant {
    pub const ALL: [&'static str; 10] = [
        "ci", "1-call", "2-call", "3-call", "1-obj", "2-obj", "3-obj", "1-type", "2-type", "3-type",
    ];

    pub fn parse(s: &str) -> Result<Variant, String> {
        if s == "ci" || s == "insensitive" {
            return Ok(Variant {
                kind: Kind::Insensitive,
                k: 0,
            });
        }
        let err = || {
            format!("unknown context variant `{s}` (expected ci, or k-call, k-obj, k-type with k = 1..3)")
        };
        let (k, kind) = s.split_once('-').ok_or_else(err)?;
        let k: usize = k.parse().map_err(|_| err())?;
        if !(1..=3).contains(&k) {
            return Err(err());
        }
        let kind = match kind {
            "call" | "cfa" => Kind::CallSite,
            "obj" | "object" => Kind::Object,
            "type" => Kind::Type,
            _ => return Err(err()),
        };
        Ok(Variant { kind, k })
    }

    pub fn name(&self) -> String {
        match self.kind {
            Kind::Insensitive => "ci".into(),
            Kind::CallSite => format!("{}-call", self.k),
            Kind::Object => format!("{}-obj", self.k),
            Kind::Type => format!("{}-type", self.k),
        }
    }
}

impl Default for Variant {
    fn default() -> Self {
        Variant {
            kind: Kind::Object,
            k: 2,
        }
    }
}

impl Selector for Variant {
    fn callee_context(
        &self,
        ctxs: &mut Contexts,
        caller: CtxId,
        site: Elem,
        recv: Option<Receiver>,
    ) -> CtxId {
        match (self.kind, recv) {
            (Kind::Insensitive, _) => EMPTY,
            (Kind::CallSite, _) => ctxs.append(caller, site, self.k),
            // Static calls keep the caller's context under k-obj and k-type.
            (Kind::Object | Kind::Type, None) => caller,
            (Kind::Object, Some(r)) => ctxs.append(r.heap_ctx, Elem::Alloc(r.alloc), self.k),
            (Kind::Type, Some(r)) => ctxs.append(r.heap_ctx, Elem::Type(r.in_type), self.k),
        }
    }

    fn heap_context(&self, ctxs: &mut Contexts, method_ctx: CtxId) -> CtxId {
        match self.kind {
            Kind::Insensitive => EMPTY,
            _ => ctxs.truncate(method_ctx, self.k - 1),
        }
    }
}
