//! Points-to sets: triples `(x, y, D|P)` (EGH'94 Definitions 3.1-3.3) kept as
//! one sorted vector, so that copies are cheap, equality and hashing are
//! plain, and the merge of Figure 1 is one linear pass.

use crate::loc::LocId;

/// `src` points to `dst`, definitely when `def`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Fact {
    pub src: LocId,
    pub dst: LocId,
    pub def: bool,
}

/// A points-to set, sorted by (src, dst), at most one fact per pair.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Facts {
    v: Vec<Fact>,
}

/// A program point's state: `None` when no path reaches it (bottom).
pub type State = Option<Facts>;

impl Facts {
    pub fn new() -> Facts {
        Facts::default()
    }

    pub fn from_unsorted(mut v: Vec<Fact>) -> Facts {
        v.sort_unstable_by_key(|f| (f.src, f.dst, !f.def));
        // Duplicates: definite only if every copy is.
        let mut out: Vec<Fact> = Vec::with_capacity(v.len());
        for f in v {
            match out.last_mut() {
                Some(l) if l.src == f.src && l.dst == f.dst => l.def &= f.def,
                _ => out.push(f),
            }
        }
        Facts { v: out }
    }

    /// Facts already sorted by (src, dst), one per pair.
    pub(crate) fn from_sorted(v: Vec<Fact>) -> Facts {
        debug_assert!(v
            .windows(2)
            .all(|w| (w[0].src, w[0].dst) < (w[1].src, w[1].dst)));
        Facts { v }
    }

    /// The union of two sets whose facts are both true: a pair in both is
    /// definite only if definite in both (as `from_unsorted` treats
    /// duplicates). One linear pass.
    pub(crate) fn join(a: Facts, b: Facts) -> Facts {
        if b.v.is_empty() {
            return a;
        }
        let (a, b) = (a.v, b.v);
        let mut out = Vec::with_capacity(a.len() + b.len());
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match (a[i].src, a[i].dst).cmp(&(b[j].src, b[j].dst)) {
                std::cmp::Ordering::Less => {
                    out.push(a[i]);
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push(b[j]);
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    out.push(Fact {
                        def: a[i].def && b[j].def,
                        ..a[i]
                    });
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend_from_slice(&a[i..]);
        out.extend_from_slice(&b[j..]);
        Facts { v: out }
    }

    pub fn iter(&self) -> impl Iterator<Item = &Fact> {
        self.v.iter()
    }

    pub fn len(&self) -> usize {
        self.v.len()
    }

    pub fn is_empty(&self) -> bool {
        self.v.is_empty()
    }

    fn range(&self, src: LocId) -> std::ops::Range<usize> {
        let lo = self.v.partition_point(|f| f.src < src);
        let hi = lo + self.v[lo..].partition_point(|f| f.src == src);
        lo..hi
    }

    /// The facts whose source is `src`.
    pub fn targets(&self, src: LocId) -> &[Fact] {
        &self.v[self.range(src)]
    }

    pub fn has_src(&self, src: LocId) -> bool {
        !self.range(src).is_empty()
    }

    /// Strong update: `src` now points exactly to `dsts`.
    pub fn replace(&mut self, src: LocId, dsts: &[(LocId, bool)]) {
        let r = self.range(src);
        let mut new: Vec<Fact> = dsts
            .iter()
            .map(|&(dst, def)| Fact { src, dst, def })
            .collect();
        new.sort_by_key(|f| (f.dst, !f.def));
        new.dedup_by(|b, a| {
            if a.dst == b.dst {
                a.def &= b.def;
                true
            } else {
                false
            }
        });
        self.v.splice(r, new);
    }

    /// Figure 1's "change definite to possible" for one source.
    pub fn weaken(&mut self, src: LocId) {
        let r = self.range(src);
        for f in &mut self.v[r] {
            f.def = false;
        }
    }

    /// Adds a fact; if the pair is already there it stays definite only when
    /// both are.
    pub fn add(&mut self, src: LocId, dst: LocId, def: bool) {
        match self.v.binary_search_by(|f| (f.src, f.dst).cmp(&(src, dst))) {
            Ok(i) => self.v[i].def &= def,
            Err(i) => self.v.insert(i, Fact { src, dst, def }),
        }
    }

    /// A weak update of several sources at once: every source in `adds`
    /// keeps its facts, possibly, and gains its new targets, possibly (one
    /// pass instead of an insertion per fact).
    pub fn add_weak(&mut self, mut adds: Vec<Fact>) {
        if adds.is_empty() {
            return;
        }
        adds.sort_unstable_by_key(|f| (f.src, f.dst));
        adds.dedup_by_key(|f| (f.src, f.dst));
        let old = std::mem::take(&mut self.v);
        let mut out = Vec::with_capacity(old.len() + adds.len());
        let (mut i, mut j) = (0, 0);
        // Sources written, in order: `k` follows `old`'s sources.
        let mut k = 0;
        while i < old.len() || j < adds.len() {
            let ord = match (old.get(i), adds.get(j)) {
                (Some(a), Some(b)) => (a.src, a.dst).cmp(&(b.src, b.dst)),
                (Some(_), None) => std::cmp::Ordering::Less,
                _ => std::cmp::Ordering::Greater,
            };
            if ord == std::cmp::Ordering::Greater {
                out.push(Fact {
                    def: false,
                    ..adds[j]
                });
                j += 1;
                continue;
            }
            let mut f = old[i];
            while k < adds.len() && adds[k].src < f.src {
                k += 1;
            }
            if k < adds.len() && adds[k].src == f.src {
                f.def = false;
            }
            out.push(f);
            i += 1;
            if ord == std::cmp::Ordering::Equal {
                j += 1;
            }
        }
        self.v = out;
    }

    pub fn remove(&mut self, src: LocId, dst: LocId) {
        if let Ok(i) = self.v.binary_search_by(|f| (f.src, f.dst).cmp(&(src, dst))) {
            self.v.remove(i);
        }
    }

    pub fn retain(&mut self, keep: impl FnMut(&Fact) -> bool) {
        self.v.retain(keep);
    }

    pub fn map_in_place(&mut self, mut f: impl FnMut(&mut Fact)) {
        for x in &mut self.v {
            f(x);
        }
    }

    /// Figure 1's Merge: a fact in both sets keeps `D` only if definite in
    /// both; a fact in one set only becomes possible.
    pub fn merge(a: &Facts, b: &Facts) -> Facts {
        let (a, b) = (&a.v, &b.v);
        let mut out = Vec::with_capacity(a.len().max(b.len()));
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            let (x, y) = (a[i], b[j]);
            match (x.src, x.dst).cmp(&(y.src, y.dst)) {
                std::cmp::Ordering::Less => {
                    out.push(Fact { def: false, ..x });
                    i += 1;
                }
                std::cmp::Ordering::Greater => {
                    out.push(Fact { def: false, ..y });
                    j += 1;
                }
                std::cmp::Ordering::Equal => {
                    out.push(Fact {
                        def: x.def && y.def,
                        ..x
                    });
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend(a[i..].iter().map(|&f| Fact { def: false, ..f }));
        out.extend(b[j..].iter().map(|&f| Fact { def: false, ..f }));
        Facts { v: out }
    }

    /// `self ⊑ other`: merging `self` into `other` changes nothing.
    pub fn leq(&self, other: &Facts) -> bool {
        let (a, b) = (&self.v, &other.v);
        let (mut i, mut j) = (0, 0);
        while j < b.len() {
            if i < a.len() {
                match (a[i].src, a[i].dst).cmp(&(b[j].src, b[j].dst)) {
                    std::cmp::Ordering::Less => return false,
                    std::cmp::Ordering::Equal => {
                        if b[j].def && !a[i].def {
                            return false;
                        }
                        i += 1;
                        j += 1;
                        continue;
                    }
                    std::cmp::Ordering::Greater => {}
                }
            }
            if b[j].def {
                return false; // missing from self: the merge would weaken it
            }
            j += 1;
        }
        i == a.len()
    }
}

/// Merge of two states (bottom is the identity).
pub fn merge_state(a: State, b: &State) -> State {
    match (a, b) {
        (None, b) => b.clone(),
        (a, None) => a,
        (Some(a), Some(b)) => Some(if a == *b { a } else { Facts::merge(&a, b) }),
    }
}

pub fn merge_into(acc: &mut State, b: &State) {
    let a = acc.take();
    *acc = merge_state(a, b);
}

pub fn state_leq(a: &State, b: &State) -> bool {
    match (a, b) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(a), Some(b)) => a.leq(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(s: u32, d: u32, def: bool) -> Fact {
        Fact {
            src: LocId(s),
            dst: LocId(d),
            def,
        }
    }

    #[test]
    fn merge_weakens_one_sided_and_mixed() {
        let a = Facts::from_unsorted(vec![f(1, 2, true), f(1, 3, true), f(4, 5, true)]);
        let b = Facts::from_unsorted(vec![f(1, 2, true), f(1, 3, false), f(6, 7, true)]);
        let m = Facts::merge(&a, &b);
        let got: Vec<_> = m.iter().copied().collect();
        assert_eq!(
            got,
            vec![
                f(1, 2, true),
                f(1, 3, false),
                f(4, 5, false),
                f(6, 7, false)
            ]
        );
        assert!(a.leq(&m) && b.leq(&m));
        assert!(!m.leq(&a));
        assert!(m.leq(&m));
    }

    #[test]
    fn add_weak_weakens_written_sources_only() {
        let mut a = Facts::from_unsorted(vec![f(1, 2, true), f(2, 3, true), f(4, 5, true)]);
        a.add_weak(vec![
            f(2, 9, true),
            f(4, 5, true),
            f(6, 1, true),
            f(2, 9, true),
        ]);
        assert_eq!(
            a.iter().copied().collect::<Vec<_>>(),
            vec![
                f(1, 2, true),
                f(2, 3, false),
                f(2, 9, false),
                f(4, 5, false),
                f(6, 1, false)
            ]
        );
    }

    #[test]
    fn replace_and_weaken() {
        let mut a = Facts::from_unsorted(vec![f(1, 2, true), f(2, 3, true)]);
        a.replace(LocId(1), &[]);
        a.weaken(LocId(2));
        assert_eq!(a.iter().copied().collect::<Vec<_>>(), vec![f(2, 3, false)]);
    }
}
