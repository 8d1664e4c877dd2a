//! Type tests on interned types: may an object of one type be an instance
//! of another (what a cast or a `catch` passes), must it be (a cast that
//! cannot fail). Answered from per-target tables over the classes, built on
//! first use, so that a solve asks each question in constant time.
//!
//! The library's hierarchy is unknown, so where it matters an object *may*
//! fit (see docs/java-analysis.md, "Casts"): a library object may be an
//! instance of any library type (never of a program class), and so may a
//! `String` or an object of a program class with a library supertype
//! (`Facts::open`); arrays fit `Object`, `Cloneable` and `Serializable`, and
//! `A[]` fits `B[]` when `A` fits `B` (a primitive element only itself).

use crate::compile::Facts;
use crate::fxhash::FxHashMap;

/// What the tests need of an interned type name.
#[derive(Clone, Copy, Debug, Default)]
pub struct TypeInfo {
    /// A class of the program (not an array).
    pub class: Option<u32>,
    /// An array: its element type.
    pub elem: Option<u32>,
    /// A primitive (an array element only).
    pub prim: bool,
    /// `Object`.
    pub object: bool,
    /// `Cloneable` or `Serializable` (what arrays implement).
    pub array_super: bool,
}

/// The tests, with their tables. One per solve (or per question batch).
pub struct TypeTests<'f> {
    facts: &'f Facts,
    /// Per program class: its subtypes, itself included (a bit set over
    /// classes), made when first asked (by class id: asked per object per
    /// cast, a hash look-up was a fifth of the question's cost).
    subtypes: Vec<Option<Box<[u64]>>>,
    /// Per library type (by type id): the program classes that declare it
    /// as a supertype, and their subtypes.
    implementors: FxHashMap<u32, Vec<u64>>,
}

fn has(bits: &[u64], c: u32) -> bool {
    bits[(c / 64) as usize] & (1 << (c % 64)) != 0
}

impl<'f> TypeTests<'f> {
    pub fn new(facts: &'f Facts) -> TypeTests<'f> {
        TypeTests {
            facts,
            subtypes: vec![None; facts.classes.len()],
            implementors: Default::default(),
        }
    }

    /// May an object of type `obj` be an instance of type `target`?
    pub fn may_fit(&mut self, obj: u32, target: u32) -> bool {
        let (o, t) = (
            self.facts.types[obj as usize],
            self.facts.types[target as usize],
        );
        if obj == target || t.object {
            return true;
        }
        match (o.elem, t.elem) {
            (Some(a), Some(b)) => {
                let prim = self.facts.types[a as usize].prim || self.facts.types[b as usize].prim;
                return if prim { a == b } else { self.may_fit(a, b) };
            }
            (Some(_), None) => return t.array_super,
            (None, Some(_)) => return false,
            (None, None) => {}
        }
        match (o.class, t.class) {
            (Some(c), Some(tc)) => has(self.subtypes(tc), c),
            (Some(c), None) => self.facts.open[c as usize],
            (None, Some(_)) => false,
            (None, None) => true,
        }
    }

    /// Is every object of type `obj` an instance of type `target` (by the
    /// declared hierarchy, a library supertype declared by name counting;
    /// a library class fits only itself and `Object`)?
    pub fn must_fit(&mut self, obj: u32, target: u32) -> bool {
        let (o, t) = (
            self.facts.types[obj as usize],
            self.facts.types[target as usize],
        );
        if obj == target || t.object {
            return true;
        }
        match (o.elem, t.elem) {
            (Some(a), Some(b)) => return self.must_fit(a, b),
            (Some(_), None) => return t.array_super,
            (None, Some(_)) => return false,
            (None, None) => {}
        }
        match (o.class, t.class) {
            (Some(c), Some(tc)) => has(self.subtypes(tc), c),
            (Some(c), None) => has(self.implementors(target), c),
            (None, _) => false,
        }
    }

    /// The subtypes of program class `tc`, itself included.
    fn subtypes(&mut self, tc: u32) -> &[u64] {
        let facts = self.facts;
        self.subtypes[tc as usize].get_or_insert_with(|| facts.below(std::iter::once(tc)).into())
    }

    /// The program classes that are subtypes of the library type `t`.
    fn implementors(&mut self, t: u32) -> &[u64] {
        let facts = self.facts;
        self.implementors.entry(t).or_insert_with(|| {
            let name = &facts.type_names[t as usize];
            let direct = (0..facts.classes.len() as u32)
                .filter(|&c| facts.library_supers[c as usize].iter().any(|s| s == name));
            facts.below(direct)
        })
    }
}

impl Facts {
    /// The classes at or below `roots` in the hierarchy, as a bit set.
    fn below(&self, roots: impl Iterator<Item = u32>) -> Vec<u64> {
        let mut bits = vec![0u64; self.classes.len().div_ceil(64)];
        let mut todo: Vec<u32> = roots.collect();
        while let Some(c) = todo.pop() {
            let (w, b) = ((c / 64) as usize, 1u64 << (c % 64));
            if bits[w] & b == 0 {
                bits[w] |= b;
                todo.extend(&self.subclasses[c as usize]);
            }
        }
        bits
    }
}
