//! What the terms know of each piece kind, read once from the variant data: whether it is a
//! pawn or royal, its value (the variant's, or one derived from its mobility on an empty board),
//! and the squares it reaches from each square of an empty board. Material, placement and
//! mobility are all built from these.
//!
//! Owns: `KindFacts`, `survey`, derived values.
//! Must not know: positions, the terms' weights.

use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::{Color, Geometry, Square};
use menagerie_rules::rules::{Modality, Rules};
use menagerie_rules::variant::PieceKind;

/// The value a knight-like piece gets when values are derived from mobility.
const KNIGHT_VALUE: f64 = 300.0;
/// Value of a pawn type without a value in the variant file.
const DEFAULT_PAWN_VALUE: i32 = 100;

/// One piece kind as the evaluation sees it.
pub(super) struct KindFacts<B: BitSet> {
    pub pawn: bool,
    /// The variant's royal kind, or a kind the variant file marks royal.
    pub royal: bool,
    /// The variant's value (royal kinds included), else `DEFAULT_PAWN_VALUE` for a pawn, else the
    /// value derived from mobility.
    pub value: i32,
    /// Squares reached from each square on an empty board, by square (White's tables).
    pub reach: Vec<B>,
    /// Average number of squares reached over the board (at least 0.5).
    pub average: f64,
    /// Whether it rides (or hops, or moves along bent or circular lines) in some direction:
    /// its empty-board reach says little about a square on a full board.
    pub rides: bool,
}

impl<B: BitSet> KindFacts<B> {
    /// Its value per square of average empty-board reach.
    pub fn per_square(&self) -> f64 {
        self.value as f64 / self.average
    }
}

/// Squares a piece of `kind` reaches from `sq` on an empty board, moving or capturing.
pub(super) fn empty_board_reach<B: BitSet>(rules: &Rules<B>, kind: PieceKind, color: Color, sq: Square) -> B {
    let t = rules.kind_tables(kind, color);
    (rules.reach(&t.quiet, sq, B::EMPTY) | rules.reach(&t.capture, sq, B::EMPTY)) & rules.board
}

/// Average number of knight moves over the squares of a board: the yardstick for derived values.
pub(super) fn knight_average(g: Geometry) -> f64 {
    const JUMPS: [(i32, i32); 8] = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)];
    let total: usize =
        g.all_squares().map(|sq| JUMPS.iter().filter(|&&(dx, dy)| g.offset(sq, dx, dy).is_some()).count()).sum();
    (total as f64 / g.squares().max(1) as f64).max(1.0)
}

fn rides<B: BitSet>(m: &Modality<B>) -> bool {
    m.rook
        || m.bishop
        || !(m.rides.is_empty()
            && m.hops.is_empty()
            && m.grasshops.is_empty()
            && m.bents.is_empty()
            && m.circles.is_empty())
}

/// The facts of every kind of a compiled variant, by kind.
pub(super) fn survey<B: BitSet>(rules: &Rules<B>) -> Vec<KindFacts<B>> {
    let g = rules.geometry;
    let knight = knight_average(g);
    (0..rules.kinds)
        .map(|k| {
            let def = &rules.variant.pieces[k];
            let pawn = rules.is_pawn(k);
            let reach: Vec<B> = g.all_squares().map(|sq| empty_board_reach(rules, k, Color::White, sq)).collect();
            let total: u32 = reach.iter().map(|r| r.count()).sum();
            let average = (total as f64 / rules.squares.max(1) as f64).max(0.5);
            let derived = (KNIGHT_VALUE * (average / knight).powf(0.8)).round() as i32;
            let value = match def.value {
                Some(v) => v,
                None if pawn => DEFAULT_PAWN_VALUE,
                None => derived.max(50),
            };
            let tables = rules.kind_tables(k, Color::White);
            KindFacts {
                pawn,
                royal: k == rules.royal || def.royal,
                value,
                reach,
                average,
                rides: rides(&tables.quiet) || rides(&tables.capture),
            }
        })
        .collect()
}

/// Squares of a file, by file.
pub(super) fn file_masks<B: BitSet>(g: Geometry) -> Vec<B> {
    let mut masks = vec![B::EMPTY; g.files as usize];
    for sq in g.all_squares() {
        masks[g.file(sq) as usize] |= B::square(sq);
    }
    masks
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::variant::by_name;

    #[test]
    fn the_survey_knows_pawns_royal_pieces_and_riders() {
        let r = compiled::<u64>(by_name("chess").unwrap());
        let facts = survey(r);
        assert!(facts[r.royal].royal && !facts[r.royal].pawn);
        assert!(facts.iter().filter(|f| f.pawn).count() == 1 && facts.iter().filter(|f| f.royal).count() == 1);
        // The knight leaps; the bishop, rook and queen ride.
        assert_eq!(facts.iter().filter(|f| f.rides).count(), 3);
        assert!((facts[1].average - knight_average(r.geometry)).abs() < 1e-9);
    }
}
