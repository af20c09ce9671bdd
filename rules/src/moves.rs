//! The `Move` type: a compact, `Copy` description of one move of any variant (normal, promotion,
//! en passant, castling with its rook, drop), and `MoveList`, a fixed-capacity list of moves.
//!
//! Owns: move encoding, the move list and the fixed-capacity list under it (`StackList`).
//! Must not know: positions, notation (see `notation`), search.

use crate::geometry::Square;
use crate::variant::PieceKind;
use std::fmt;
use std::mem::MaybeUninit;

/// What kind of move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Normal = 0,
    Promotion = 1,
    EnPassant = 2,
    Castle = 3,
    Drop = 4,
}

/// One move, packed in 32 bits: from (7), to (7), piece kind for promotion or drop (5), move kind
/// (3), castling rook square (7). The value 0 is never a move: `Move::NONE`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Move(u32);

const VALID: u32 = 1 << 31;

impl Move {
    /// No move.
    pub const NONE: Move = Move(0);

    fn pack(from: Square, to: Square, piece: PieceKind, kind: MoveKind, rook: Square) -> Move {
        Move(
            VALID
                | from.0 as u32
                | (to.0 as u32) << 7
                | (piece as u32) << 14
                | (kind as u32) << 19
                | (rook.0 as u32) << 22,
        )
    }

    /// A plain move or capture.
    #[inline]
    pub fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, 0, MoveKind::Normal, Square(0))
    }

    /// A pawn move that promotes to `piece`.
    #[inline]
    pub fn promotion(from: Square, to: Square, piece: PieceKind) -> Move {
        Move::pack(from, to, piece, MoveKind::Promotion, Square(0))
    }

    /// An en passant capture (`to` is the square passed over).
    #[inline]
    pub fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, 0, MoveKind::EnPassant, Square(0))
    }

    /// Castling: the king goes from `from` to `to`, the rook starts on `rook`.
    #[inline]
    pub fn castle(from: Square, to: Square, rook: Square) -> Move {
        Move::pack(from, to, 0, MoveKind::Castle, rook)
    }

    /// A drop of `piece` from the hand onto `to`.
    #[inline]
    pub fn drop(piece: PieceKind, to: Square) -> Move {
        Move::pack(to, to, piece, MoveKind::Drop, Square(0))
    }

    /// Whether this is a real move (not `NONE`).
    #[inline]
    pub fn is_some(self) -> bool {
        self.0 & VALID != 0
    }

    #[inline]
    pub fn from(self) -> Square {
        Square((self.0 & 0x7f) as u8)
    }

    #[inline]
    pub fn to(self) -> Square {
        Square((self.0 >> 7 & 0x7f) as u8)
    }

    /// Promotion or drop piece kind.
    #[inline]
    pub fn piece(self) -> PieceKind {
        (self.0 >> 14 & 0x1f) as PieceKind
    }

    /// The castling rook's start square.
    #[inline]
    pub fn rook(self) -> Square {
        Square((self.0 >> 22 & 0x7f) as u8)
    }

    #[inline]
    pub fn kind(self) -> MoveKind {
        match self.0 >> 19 & 7 {
            1 => MoveKind::Promotion,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Castle,
            4 => MoveKind::Drop,
            _ => MoveKind::Normal,
        }
    }

    /// The raw bits, for hashing tables.
    #[inline]
    pub fn bits(self) -> u32 {
        self.0
    }

    /// Rebuild from raw bits (as stored in a table); `NONE` if the bits are not a move.
    #[inline]
    pub fn from_bits(bits: u32) -> Move {
        if bits & VALID != 0 {
            Move(bits)
        } else {
            Move::NONE
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Move({:?} {}->{} piece {} rook {})",
            self.kind(),
            self.from().0,
            self.to().0,
            self.piece(),
            self.rook().0
        )
    }
}

/// Capacity of a move list: enough for any position of our variants (drops included).
pub const MAX_MOVES: usize = 1024;

/// A fixed-capacity list, kept on the stack: moves (`MoveList`), or values that go with them
/// index for index (the search's ordering scores). Its storage is left uninitialised, so that
/// creating a list in every node costs nothing.
pub struct StackList<T: Copy> {
    items: [MaybeUninit<T>; MAX_MOVES],
    len: usize,
}

/// A fixed-capacity list of moves.
pub type MoveList = StackList<Move>;

impl<T: Copy> Default for StackList<T> {
    fn default() -> Self {
        StackList::new()
    }
}

impl<T: Copy> StackList<T> {
    #[inline]
    pub fn new() -> StackList<T> {
        // The inline `const` matters: the plain repeat `[MaybeUninit::uninit(); N]` is compiled
        // to a memset of the whole array (4 KB per node, a quarter of the search's instructions).
        StackList { items: [const { MaybeUninit::uninit() }; MAX_MOVES], len: 0 }
    }

    /// Append an item; a full list drops further items (the capacity exceeds any real position).
    #[inline]
    pub fn push(&mut self, item: T) {
        if self.len < MAX_MOVES {
            self.items[self.len] = MaybeUninit::new(item);
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Forget every item.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[T] {
        // SAFETY: the first `len` entries were written by `push` (or moved by `retain`), and
        // `MaybeUninit<T>` has the layout of `T`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const T, self.len) }
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [T] {
        // SAFETY: as in `as_slice`.
        unsafe { std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut T, self.len) }
    }

    /// Keep only the items for which `f` is true.
    pub fn retain(&mut self, mut f: impl FnMut(T) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            let item = self.as_slice()[i];
            if f(item) {
                self.items[j] = MaybeUninit::new(item);
                j += 1;
            }
        }
        self.len = j;
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.as_slice().iter()
    }
}

impl<T: Copy> std::ops::Deref for StackList<T> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy> std::ops::DerefMut for StackList<T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

const _: () = assert!(std::mem::size_of::<Move>() == 4);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_round_trip() {
        let m = Move::castle(Square(2), Square(6), Square(7));
        assert_eq!((m.from(), m.to(), m.rook(), m.kind()), (Square(2), Square(6), Square(7), MoveKind::Castle));
        let d = Move::drop(31, Square(127));
        assert_eq!((d.to(), d.piece(), d.kind()), (Square(127), 31, MoveKind::Drop));
        let p = Move::promotion(Square(100), Square(119), 5);
        assert_eq!((p.from(), p.to(), p.piece(), p.kind()), (Square(100), Square(119), 5, MoveKind::Promotion));
        assert!(!Move::NONE.is_some() && Move::normal(Square(0), Square(0)).is_some());
        assert_eq!(Move::from_bits(p.bits()), p);
    }
}
