//! Points-to sets: sparse bit sets over dense object ids (sorted 64-bit
//! blocks), so that unions and differences cost per word, not per object.

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PtSet {
    /// (block index, bits), sorted by block, no zero words.
    words: Vec<(u32, u64)>,
}

impl PtSet {
    pub fn new() -> PtSet {
        PtSet::default()
    }

    pub fn singleton(x: u32) -> PtSet {
        let mut s = PtSet::new();
        s.insert(x);
        s
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    pub fn len(&self) -> usize {
        self.words
            .iter()
            .map(|(_, w)| w.count_ones() as usize)
            .sum()
    }

    pub fn contains(&self, x: u32) -> bool {
        match self.words.binary_search_by_key(&(x >> 6), |&(b, _)| b) {
            Ok(i) => self.words[i].1 & (1 << (x & 63)) != 0,
            Err(_) => false,
        }
    }

    pub fn insert(&mut self, x: u32) -> bool {
        let (b, bit) = (x >> 6, 1u64 << (x & 63));
        match self.words.binary_search_by_key(&b, |&(k, _)| k) {
            Ok(i) => {
                let old = self.words[i].1;
                self.words[i].1 |= bit;
                old & bit == 0
            }
            Err(i) => {
                self.words.insert(i, (b, bit));
                true
            }
        }
    }

    /// `self - other`.
    pub fn minus(&self, other: &PtSet) -> PtSet {
        let mut out = Vec::new();
        let mut j = 0;
        for &(b, w) in &self.words {
            while j < other.words.len() && other.words[j].0 < b {
                j += 1;
            }
            let w = if j < other.words.len() && other.words[j].0 == b {
                w & !other.words[j].1
            } else {
                w
            };
            if w != 0 {
                out.push((b, w));
            }
        }
        PtSet { words: out }
    }

    /// `self |= other`; true when `self` grew.
    pub fn union_with(&mut self, other: &PtSet) -> bool {
        if other.words.is_empty() {
            return false;
        }
        if self.words.is_empty() {
            self.words = other.words.clone();
            return true;
        }
        let mut out = Vec::with_capacity(self.words.len().max(other.words.len()));
        let (mut i, mut j, mut changed) = (0, 0, false);
        let (a, b) = (&self.words, &other.words);
        while i < a.len() || j < b.len() {
            if j >= b.len() || (i < a.len() && a[i].0 < b[j].0) {
                out.push(a[i]);
                i += 1;
            } else if i >= a.len() || b[j].0 < a[i].0 {
                out.push(b[j]);
                j += 1;
                changed = true;
            } else {
                let w = a[i].1 | b[j].1;
                changed |= w != a[i].1;
                out.push((a[i].0, w));
                i += 1;
                j += 1;
            }
        }
        if changed {
            self.words = out;
        }
        changed
    }

    /// True when the two sets share an element.
    pub fn intersects(&self, other: &PtSet) -> bool {
        let (mut i, mut j) = (0, 0);
        while i < self.words.len() && j < other.words.len() {
            let (a, b) = (self.words[i], other.words[j]);
            if a.0 == b.0 {
                if a.1 & b.1 != 0 {
                    return true;
                }
                i += 1;
                j += 1;
            } else if a.0 < b.0 {
                i += 1;
            } else {
                j += 1;
            }
        }
        false
    }

    /// Elements in increasing order.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.words.iter().flat_map(|&(b, w)| {
            let mut w = w;
            std::iter::from_fn(move || {
                if w == 0 {
                    return None;
                }
                let t = w.trailing_zeros();
                w &= w - 1;
                Some(b * 64 + t)
            })
        })
    }

    /// Heap bytes used (for the benchmark's memory estimate).
    pub fn heap_bytes(&self) -> usize {
        self.words.capacity() * 16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_operations() {
        let mut a = PtSet::new();
        for x in [3, 70, 64, 1000, 3] {
            a.insert(x);
        }
        assert_eq!(a.iter().collect::<Vec<_>>(), vec![3, 64, 70, 1000]);
        let mut b = PtSet::singleton(70);
        b.insert(5);
        assert_eq!(b.minus(&a).iter().collect::<Vec<_>>(), vec![5]);
        assert!(a.intersects(&b));
        assert!(a.union_with(&b));
        assert!(!a.union_with(&b));
        assert_eq!(a.len(), 5);
        assert!(a.contains(5) && !a.contains(6));
    }
}
