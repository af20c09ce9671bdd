//! The correction history: the evaluation corrected by pawn structure. How far, on average,
//! the searches of positions with this structure ended from their static evaluation, added to
//! the static evaluation of the next one with the same pawns. The evaluation is
//! systematically wrong about some structures (a blocked chain, a passer it underrates); the
//! search, finding out, tells the nodes that follow.
//!
//! Owns: `CorrectionHistory` (one per search thread), its table size, weights and limit.
//! Must not know: the search's control, how the evaluation is made, moves.

use super::score::Score;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::position::Position;

/// Entries per side to move: pawn structures met in one search are a few thousand at most.
const ENTRIES: usize = 1 << 14;
/// Entries hold centipawns times this, so that small weights still move them.
const GRAIN: i32 = 256;
/// The weights of a new observation and of the entry are out of this.
const WEIGHT_SCALE: i32 = 256;
/// A search of depth d weighs `min(d + 1, 16)` against the entry: deeper searches know more,
/// and no single one overwrites the average.
const MAX_WEIGHT: i32 = 16;
/// The correction stays within this many centipawns: beyond, the evaluation is not wrong about
/// a structure but about something else in the position.
const LIMIT: Score = 64;

/// One thread's corrections, by side to move and pawn hash.
pub struct CorrectionHistory {
    table: Vec<i32>,
}

impl Default for CorrectionHistory {
    fn default() -> Self {
        CorrectionHistory::new()
    }
}

impl CorrectionHistory {
    pub fn new() -> CorrectionHistory {
        CorrectionHistory { table: vec![0; 2 * ENTRIES] }
    }

    #[inline]
    fn index<B: BitSet>(pos: &Position<B>) -> usize {
        pos.side_to_move().index() * ENTRIES + (pos.pawn_hash() as usize & (ENTRIES - 1))
    }

    /// Centipawns to add to the static evaluation of `pos`.
    #[inline]
    pub fn correction<B: BitSet>(&self, pos: &Position<B>) -> Score {
        self.table[Self::index(pos)] / GRAIN
    }

    /// A search of `depth` found `score` where the (uncorrected) static evaluation said
    /// `static_eval`: move the entry towards the difference.
    pub fn update<B: BitSet>(&mut self, pos: &Position<B>, depth: i32, static_eval: Score, score: Score) {
        let difference = (score - static_eval).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).clamp(1, MAX_WEIGHT);
        let entry = &mut self.table[Self::index(pos)];
        *entry = (*entry * (WEIGHT_SCALE - weight) + difference * weight) / WEIGHT_SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::variant::by_name;

    fn position(fen: &str) -> Position<u64> {
        Position::from_fen(compiled::<u64>(by_name("dchess").unwrap()), fen).unwrap()
    }

    #[test]
    fn corrections_follow_the_searches_of_a_structure_within_the_limit() {
        let mut c = CorrectionHistory::new();
        let a = position("4k3/pp6/8/8/8/8/PP6/4K2N w - - 0 1");
        let same_pawns = position("3k4/pp6/8/8/8/8/PP6/N3K3 w - - 0 1");
        let other_pawns = position("4k3/p1p5/8/8/8/8/PP6/4K2N w - - 0 1");
        assert_eq!(c.correction(&a), 0);
        for _ in 0..200 {
            c.update(&a, 20, 10, 40);
        }
        // Approaches the difference of 30 from below.
        assert!((25..=30).contains(&c.correction(&a)), "{}", c.correction(&a));
        assert_eq!(c.correction(&same_pawns), c.correction(&a));
        assert_eq!(c.correction(&other_pawns), 0);
        for _ in 0..400 {
            c.update(&a, 20, 0, 5000);
        }
        assert!((LIMIT - 2..=LIMIT).contains(&c.correction(&a)), "{}", c.correction(&a));
        for _ in 0..400 {
            c.update(&a, 20, 0, -5000);
        }
        assert!((-LIMIT..=-LIMIT + 2).contains(&c.correction(&a)), "{}", c.correction(&a));
    }

    #[test]
    fn a_shallow_search_moves_the_entry_less_than_a_deep_one() {
        let a = position("4k3/pp6/8/8/8/8/PP6/4K2N w - - 0 1");
        let (mut shallow, mut deep) = (CorrectionHistory::new(), CorrectionHistory::new());
        shallow.update(&a, 1, 0, 60);
        deep.update(&a, 12, 0, 60);
        assert!(shallow.table[CorrectionHistory::index(&a)] < deep.table[CorrectionHistory::index(&a)]);
    }
}
