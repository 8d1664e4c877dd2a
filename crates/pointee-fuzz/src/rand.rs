//! Randomness without dependencies: a seeded generator (every run is
//! reproducible from its seed) and a reader that turns fuzzer bytes into
//! choices (an exhausted reader always chooses the first option, so every
//! byte string is an input).

/// SplitMix64: small, fast, and good enough to pick edits and mutations.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True with probability `num / den`.
    pub fn ratio(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    pub fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// Choices read from fuzzer bytes.
pub struct Bytes<'a> {
    data: &'a [u8],
}

impl<'a> Bytes<'a> {
    pub fn new(data: &'a [u8]) -> Bytes<'a> {
        Bytes { data }
    }

    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// An index below `n` (0 when the bytes ran out or `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n <= 1 {
            return 0;
        }
        let wide = n > 256;
        let take = if wide { 4 } else { 1 }.min(self.data.len());
        let mut v = 0u32;
        for &b in &self.data[..take] {
            v = (v << 8) | b as u32;
        }
        self.data = &self.data[take..];
        v as usize % n
    }

    /// True with probability about `num / den`.
    pub fn ratio(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    pub fn pick<'s>(&mut self, v: &[&'s str]) -> &'s str {
        v[self.below(v.len())]
    }

    /// Up to `n` raw bytes.
    pub fn bytes(&mut self, n: usize) -> &'a [u8] {
        let n = n.min(self.data.len());
        let (head, tail) = self.data.split_at(n);
        self.data = tail;
        head
    }
}
