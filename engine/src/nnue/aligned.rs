//! A run of i16 on 64-byte boundaries: the network's weights and the search's accumulators, so
//! that every column of a network whose width is a multiple of 32 starts a cache line and a
//! vector load never straddles two.
//!
//! Owns: `AlignedI16s`.
//! Must not know: what the numbers mean.

use std::fmt;
use std::ops::{Deref, DerefMut};

/// Values per 64-byte block.
const PER_BLOCK: usize = 32;

#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(C, align(64))]
struct Block([i16; PER_BLOCK]);

/// A fixed-length slice of i16 whose first element is 64-byte aligned.
#[derive(Clone, PartialEq, Eq)]
pub struct AlignedI16s {
    blocks: Vec<Block>,
    len: usize,
}

impl AlignedI16s {
    /// `len` zeros.
    pub fn zeroed(len: usize) -> AlignedI16s {
        AlignedI16s { blocks: vec![Block([0; PER_BLOCK]); len.div_ceil(PER_BLOCK)], len }
    }
}

impl Deref for AlignedI16s {
    type Target = [i16];
    fn deref(&self) -> &[i16] {
        // SAFETY: `Block` is `repr(C)` over `[i16; 32]` with an alignment (64) that is a
        // multiple of its size's divisor, so the blocks are one contiguous run of
        // `32 * blocks.len() >= len` initialised i16 values.
        unsafe { std::slice::from_raw_parts(self.blocks.as_ptr().cast::<i16>(), self.len) }
    }
}

impl DerefMut for AlignedI16s {
    fn deref_mut(&mut self) -> &mut [i16] {
        // SAFETY: as in `deref`, and `&mut self` makes the borrow unique.
        unsafe { std::slice::from_raw_parts_mut(self.blocks.as_mut_ptr().cast::<i16>(), self.len) }
    }
}

impl From<&[i16]> for AlignedI16s {
    fn from(values: &[i16]) -> AlignedI16s {
        let mut aligned = AlignedI16s::zeroed(values.len());
        aligned.copy_from_slice(values);
        aligned
    }
}

impl FromIterator<i16> for AlignedI16s {
    fn from_iter<I: IntoIterator<Item = i16>>(iter: I) -> AlignedI16s {
        let values: Vec<i16> = iter.into_iter().collect();
        AlignedI16s::from(values.as_slice())
    }
}

impl fmt::Debug for AlignedI16s {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_values_start_on_a_cache_line_and_keep_their_length() {
        for len in [0, 1, 31, 32, 33, 1000] {
            let mut a = AlignedI16s::zeroed(len);
            assert_eq!(a.len(), len);
            assert_eq!(a.as_ptr() as usize % 64, 0);
            a.iter_mut().enumerate().for_each(|(i, v)| *v = i as i16);
            let b: AlignedI16s = a.iter().copied().collect();
            assert_eq!(a, b);
            assert_eq!(b.iter().map(|&v| v as usize).sum::<usize>(), len * len.saturating_sub(1) / 2);
        }
    }
}
