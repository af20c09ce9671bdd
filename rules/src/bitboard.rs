//! Bitboards: one bit per square, `u64` for boards of at most 64 squares and `u128` for larger
//! ones, behind the `BitSet` trait. This is the only module that touches raw integers.
//!
//! Owns: `BitSet` and its two implementations, square iteration.
//! Must not know: pieces, variants, positions.

use crate::geometry::Square;
use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares. Implemented by `u64` and `u128`; the engine core is generic over it and the
/// width is chosen when a variant is loaded.
pub trait BitSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// How many squares the type can hold.
    const CAPACITY: usize;
    /// The empty set.
    const EMPTY: Self;

    /// The set holding just `sq`.
    fn square(sq: Square) -> Self;
    /// Whether the set is empty.
    fn is_empty(self) -> bool;
    /// Number of squares in the set.
    fn count(self) -> u32;
    /// Lowest-numbered square. The set must not be empty.
    fn lowest(self) -> Square;
    /// Highest-numbered square. The set must not be empty.
    fn highest(self) -> Square;
    /// Whether `sq` is in the set.
    fn has(self, sq: Square) -> bool;

    /// Whether the set has any square.
    #[inline]
    fn any(self) -> bool {
        !self.is_empty()
    }

    /// Whether the set holds more than one square.
    fn several(self) -> bool;

    /// Every square moved by `amount` (towards higher squares when positive); bits shifted out
    /// are lost.
    fn shifted(self, amount: i32) -> Self;

    /// The squares 0..64 as a `u64` (the whole set for `u64`), for magic-bitboard indexing.
    fn low_u64(self) -> u64;
    /// The set of the squares 0..64 given as a `u64`.
    fn from_low_u64(bits: u64) -> Self;

    /// Iterate over the squares, lowest first.
    #[inline]
    fn squares(self) -> Squares<Self> {
        Squares(self)
    }

    /// The set with `sq` added.
    #[inline]
    fn with(self, sq: Square) -> Self {
        self | Self::square(sq)
    }

    /// The set with `sq` removed.
    #[inline]
    fn without(self, sq: Square) -> Self {
        self & !Self::square(sq)
    }
}

/// Iterator over the squares of a bitboard, lowest first.
pub struct Squares<B>(B);

impl<B: BitSet> Iterator for Squares<B> {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0.is_empty() {
            None
        } else {
            let sq = self.0.lowest();
            self.0 = self.0.without(sq);
            Some(sq)
        }
    }
}

macro_rules! impl_bitset {
    ($t:ty) => {
        impl BitSet for $t {
            const CAPACITY: usize = <$t>::BITS as usize;
            const EMPTY: Self = 0;

            #[inline]
            fn square(sq: Square) -> Self {
                1 << sq.0
            }
            #[inline]
            fn is_empty(self) -> bool {
                self == 0
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> Square {
                Square(self.trailing_zeros() as u8)
            }
            #[inline]
            fn highest(self) -> Square {
                Square((<$t>::BITS - 1 - self.leading_zeros()) as u8)
            }
            #[inline]
            fn has(self, sq: Square) -> bool {
                (self >> sq.0) & 1 != 0
            }
            #[inline]
            fn several(self) -> bool {
                self & self.wrapping_sub(1) != 0
            }
            #[inline]
            fn shifted(self, amount: i32) -> Self {
                if amount >= 0 {
                    self << amount
                } else {
                    self >> -amount
                }
            }
            #[inline]
            fn low_u64(self) -> u64 {
                self as u64
            }
            #[inline]
            fn from_low_u64(bits: u64) -> Self {
                bits as $t
            }
        }
    };
}

impl_bitset!(u64);
impl_bitset!(u128);

#[cfg(test)]
mod tests {
    use super::*;

    fn exercise<B: BitSet>() {
        let a = B::square(Square(3)).with(Square(40)).with(Square(B::CAPACITY as u8 - 1));
        assert_eq!(a.count(), 3);
        assert_eq!(a.lowest(), Square(3));
        assert_eq!(a.highest(), Square(B::CAPACITY as u8 - 1));
        assert!(a.has(Square(40)) && !a.has(Square(41)));
        assert!(a.several());
        assert!(!B::square(Square(7)).several());
        let v: Vec<u8> = a.squares().map(|s| s.0).collect();
        assert_eq!(v, vec![3, 40, B::CAPACITY as u8 - 1]);
        assert!(a.without(Square(3)).without(Square(40)).without(Square(B::CAPACITY as u8 - 1)).is_empty());
    }

    #[test]
    fn both_widths_behave_alike() {
        exercise::<u64>();
        exercise::<u128>();
    }
}
