//! Material: the pieces on the board at their values scaled for the middlegame and the endgame,
//! pieces in hand worth a little more than on the board, a colour-bound kind on squares of both
//! colours (the bishop pair), and the material the game phase is measured by. Also the piece
//! values the search uses for exchanges and move ordering.
//!
//! Owns: `PieceValues`, `Material`.
//! Must not know: search, where on the board a piece stands (beyond the colour of its square).

use super::kinds::KindFacts;
use super::params::EvalParams;
use super::trace::MgEg;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::position::Position;
use menagerie_rules::rules::Rules;
use menagerie_rules::variant::{PieceKind, MAX_KINDS};

/// Ordering value of a royal piece: above every other piece.
const ROYAL_ORDER_VALUE: i32 = 20_000;

/// Piece values by kind, for the search (exchanges, ordering) as for the evaluation.
#[derive(Clone, Debug)]
pub struct PieceValues {
    /// On the board: the variant's values, 0 for royal pieces (which are never captured).
    value: [i32; MAX_KINDS],
    /// In hand.
    hand_value: [i32; MAX_KINDS],
    /// For ordering: like `value`, with royal pieces the most valuable.
    order_value: [i32; MAX_KINDS],
}

impl PieceValues {
    /// Material value of a piece kind on the board (0 for the royal piece).
    #[inline]
    pub fn value(&self, kind: PieceKind) -> i32 {
        self.value[kind]
    }

    /// Material value of a piece kind in hand.
    #[inline]
    pub fn hand_value(&self, kind: PieceKind) -> i32 {
        self.hand_value[kind]
    }

    /// Value for ordering captures (the royal piece highest).
    #[inline]
    pub fn order_value(&self, kind: PieceKind) -> i32 {
        self.order_value[kind]
    }
}

/// What the material count tells the other parts of the evaluation.
pub(super) struct MaterialCount {
    /// Non-pawn material of both sides, board and hands: the game phase.
    pub phase: i32,
    /// Non-pawn material by side, board and hand.
    pub pieces: [i32; 2],
}

/// The material term's tables.
pub(super) struct Material<B: BitSet> {
    pub values: PieceValues,
    /// Material on the board, the values scaled by the material weights.
    board: [MgEg; MAX_KINDS],
    /// Kinds counted as non-pawn material for the game phase (neither pawns nor royal).
    phase_kinds: u32,
    /// Kinds confined to the squares of one colour (bishop-like), and those squares' mask.
    colour_bound: u32,
    light_squares: B,
    /// Bonus for having a colour-bound kind on both colours.
    pair: MgEg,
}

impl<B: BitSet> Material<B> {
    pub fn new(rules: &Rules<B>, facts: &[KindFacts<B>], w: &EvalParams) -> Material<B> {
        let whole = |x: f64| x.round() as i32;
        let g = rules.geometry;
        let light_squares =
            g.all_squares().filter(|&sq| (g.file(sq) + g.rank(sq)) % 2 != 0).fold(B::EMPTY, |m, sq| m | B::square(sq));
        let mut values = PieceValues { value: [0; MAX_KINDS], hand_value: [0; MAX_KINDS], order_value: [0; MAX_KINDS] };
        let mut board = [MgEg::ZERO; MAX_KINDS];
        let (mut phase_kinds, mut colour_bound) = (0u32, 0u32);
        for (k, f) in facts.iter().enumerate() {
            let v = f.value;
            values.order_value[k] = if f.royal { ROYAL_ORDER_VALUE } else { v };
            if f.royal {
                continue;
            }
            values.value[k] = v;
            values.hand_value[k] = v + (v as f64 * w.hand_bonus).floor() as i32;
            let (scale_mg, scale_eg) =
                if f.pawn { (1.0, w.pawn_value_eg) } else { (w.piece_value_mg, w.piece_value_eg) };
            board[k] = MgEg::new(whole(v as f64 * scale_mg), whole(v as f64 * scale_eg));
            if !f.pawn {
                phase_kinds |= 1 << k;
                // Colour-bound: from every square, it reaches only squares of that square's colour.
                let bound = g.all_squares().zip(&f.reach).all(|(sq, &to)| {
                    let same_colour =
                        if (light_squares & B::square(sq)).is_empty() { !light_squares } else { light_squares };
                    (to & !same_colour).is_empty()
                });
                if bound {
                    colour_bound |= 1 << k;
                }
            }
        }
        Material {
            values,
            board,
            phase_kinds,
            colour_bound,
            light_squares,
            pair: MgEg::new(whole(w.pair_mg), whole(w.pair_eg)),
        }
    }

    /// Material and the pair bonus of each side, by colour, and the material count.
    pub fn eval(&self, pos: &Position<B>) -> ([MgEg; 2], [MgEg; 2], MaterialCount) {
        let mut material = [MgEg::ZERO; 2];
        let mut pair = [MgEg::ZERO; 2];
        let mut count = MaterialCount { phase: 0, pieces: [0; 2] };
        for k in 0..pos.rules().kinds {
            let all = pos.pieces_of_kind(k);
            for color in Color::BOTH {
                let c = color.index();
                let mine = all & pos.pieces_of(color);
                let n = mine.count() as i32;
                let held = pos.hand_count(color, k) as i32;
                material[c] += self.board[k] * n + MgEg::both(held * self.values.hand_value[k]);
                if self.phase_kinds & (1 << k) != 0 {
                    count.phase += (n + held) * self.values.value[k];
                    count.pieces[c] += (n + held) * self.values.value[k];
                }
                if self.colour_bound & (1 << k) != 0
                    && !(mine & self.light_squares).is_empty()
                    && !(mine & !self.light_squares).is_empty()
                {
                    pair[c] += self.pair;
                }
            }
        }
        (material, pair, count)
    }
}

#[cfg(test)]
mod tests {
    use super::super::kinds::{empty_board_reach, knight_average};
    use super::super::tests::{position, W};
    use super::super::Evaluator;
    use super::*;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::variant::by_name;

    #[test]
    fn colour_bound_pieces_on_both_colours_earn_the_pair_bonus() {
        let r = compiled::<u64>(by_name("chess").unwrap());
        let with = Evaluator::with_params(r, &W);
        let without = Evaluator::with_params(r, &EvalParams { pair_mg: 0.0, pair_eg: 0.0, ..W });
        let gain = |fen: &str| {
            let p = position("chess", fen);
            with.evaluate(&p) - without.evaluate(&p)
        };
        // Endgame material only: the endgame weight counts.
        assert_eq!(gain("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1"), W.pair_eg as i32, "bishops on c1 and f1");
        assert_eq!(gain("4k3/8/8/8/8/8/8/2B1K1B1 w - - 0 1"), 0, "bishops on c1 and g1, both dark");
        assert_eq!(gain("4k3/8/8/8/8/8/8/2N1KN2 w - - 0 1"), 0, "knights are not colour-bound");
        assert_eq!(gain("2b1kb2/8/8/8/8/8/8/2B1KB2 w - - 0 1"), 0, "both sides have the pair");
    }

    #[test]
    fn derived_values_follow_mobility() {
        let r = compiled::<u64>(by_name("chess").unwrap());
        // The knight's derived value is the yardstick; the king is royal and has none.
        let reach: f64 =
            r.geometry.all_squares().map(|s| empty_board_reach(r, 1, Color::White, s).count() as f64).sum();
        assert!((reach / 64.0 - knight_average(r.geometry)).abs() < 1e-9);
        let e = Evaluator::new(r);
        assert_eq!(e.values().value(r.royal), 0);
        assert!(e.values().hand_value(1) > e.values().value(1));
    }
}
