//! SplitMix64 (Steele, Lea and Flood, 2014): the one small seeded generator of the project, for
//! Zobrist keys, magic-number search, random start positions and seeded tests. Deterministic by
//! design: the same seed gives the same sequence on every run and machine.
//!
//! Owns: `SplitMix64`, `clock_seed` (the seed of a run that is not given one).
//! Must not know: anything else.

/// A seed from the wall clock, for runs that are meant to differ (random start positions and
/// match schedules when no seed is given). The nanoseconds since 1970; a fixed odd constant on a
/// clock set before 1970.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0x9E37_79B9, |d| d.as_nanos() as u64)
}

/// A SplitMix64 generator.
#[derive(Clone, Debug)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The generator's whole state: `SplitMix64::new(state)` continues the sequence from here
    /// (for runs that save where they are and resume).
    pub fn state(&self) -> u64 {
        self.0
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0); the modulo bias is negligible for our ranges.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// An index into a collection of `len` items (0 when `len` is 0).
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }
}
