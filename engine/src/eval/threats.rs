//! Threats against pieces other than pawns and royal pieces: attacked by a pawn, attacked and
//! not defended, attacked by a piece of lower value (counted per attacker).
//!
//! Owns: `Threats`.
//! Must not know: how attacks are found (the caller passes them), search.

use super::kinds::KindFacts;
use super::params::EvalParams;
use super::pawns::PawnMap;
use super::trace::MgEg;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::position::Position;
use menagerie_rules::rules::Rules;
use menagerie_rules::variant::{PieceKind, MAX_KINDS};

/// The threat term's tables.
pub(super) struct Threats {
    /// The kinds that can be threatened by a lesser piece (neither pawns nor royal) with their
    /// values, most valuable first.
    by_value: Vec<(PieceKind, i32)>,
    royal: PieceKind,
    by_pawn: MgEg,
    by_lesser: MgEg,
    hanging: MgEg,
}

impl Threats {
    pub fn new<B: BitSet>(rules: &Rules<B>, facts: &[KindFacts<B>], w: &EvalParams) -> Threats {
        let whole = |x: f64| x.round() as i32;
        let mut by_value: Vec<(PieceKind, i32)> =
            facts.iter().enumerate().filter(|(_, f)| !f.pawn && !f.royal).map(|(k, f)| (k, f.value)).collect();
        by_value.sort_by_key(|&(_, v)| -v);
        Threats {
            by_value,
            royal: rules.royal,
            by_pawn: MgEg::new(whole(w.threat_by_pawn_mg), whole(w.threat_by_pawn_eg)),
            by_lesser: MgEg::new(whole(w.threat_by_lesser_mg), whole(w.threat_by_lesser_eg)),
            hanging: MgEg::new(whole(w.hanging_mg), whole(w.hanging_eg)),
        }
    }

    /// By side and kind: that side's pieces worth more than the kind.
    pub fn worth_more<B: BitSet>(&self, pos: &Position<B>) -> [[B; MAX_KINDS]; 2] {
        let mut worth_more = [[B::EMPTY; MAX_KINDS]; 2];
        for color in Color::BOTH {
            let mut more = B::EMPTY;
            let mut group = B::EMPTY;
            for (i, &(k, v)) in self.by_value.iter().enumerate() {
                if i > 0 && v < self.by_value[i - 1].1 {
                    more |= group;
                    group = B::EMPTY;
                }
                group |= pos.pieces(color, k);
                worth_more[color.index()][k] = more;
            }
        }
        worth_more
    }

    /// The threats of `color`, which attacks the squares `attacked` (by side) and whose pieces
    /// attack `lesser` pieces worth more than themselves.
    pub fn eval<B: BitSet>(
        &self,
        pos: &Position<B>,
        pawns: &PawnMap<B>,
        attacked: [B; 2],
        lesser: i32,
        color: Color,
    ) -> MgEg {
        let (c, them) = (color.index(), color.flip().index());
        let targets = pos.pieces_of(color.flip()) & !pawns.squares[them] & !pos.pieces_of_kind(self.royal);
        let by_pawn = (targets & pawns.attacks[c]).count() as i32;
        let hanging = (targets & attacked[c] & !attacked[them]).count() as i32;
        self.by_pawn * by_pawn + self.hanging * hanging + self.by_lesser * lesser
    }
}

#[cfg(test)]
mod tests {
    use super::super::evaluate;
    use super::super::tests::{position, term_alone, W};
    use crate::eval::EvalParams;

    #[test]
    fn pieces_attacked_by_pawns_or_left_hanging_cost() {
        // The same knight, attacked by a pawn on d5 or not by the pawn on a5 (White keeps a pawn,
        // so that no endgame scaling applies).
        let attacked = position("chess", "4k3/8/8/3p4/4N3/8/7P/4K3 w - - 0 1");
        let safe = position("chess", "4k3/8/8/p7/4N3/8/7P/4K3 w - - 0 1");
        let (a, s) = (evaluate(&attacked), evaluate(&safe));
        assert!(s - a >= (W.threat_by_pawn_eg + W.hanging_eg) as i32 - 15, "attacked {a}, safe {s}");
        // A rook attacked by a bishop, defended by its king (g1) or not (d1): without the
        // hanging term both score the same.
        let defended = position("chess", "4k3/8/8/8/3b4/8/5R1P/6K1 w - - 0 1");
        let hanging = position("chess", "4k3/8/8/8/3b4/8/5R1P/3K4 w - - 0 1");
        let (d, h) = (evaluate(&defended), evaluate(&hanging));
        assert!(d - h >= W.hanging_eg as i32, "defended {d}, hanging {h}");
    }

    #[test]
    fn pieces_attacked_by_lesser_pieces_cost() {
        let off = EvalParams { threat_by_lesser_mg: 0.0, threat_by_lesser_eg: 0.0, ..W };
        let term = |fen: &str| term_alone(fen, &off);
        // White's knight on e5 attacks the rook on d7 and the queen on f7: two threats. Out of
        // its reach (a7, h7) they are none; Black's rook and queen attacking the knight are not
        // threats by a lesser piece.
        let fork = term("4k3/3r1q2/8/4N3/8/8/8/4K3 w - - 0 1");
        let apart = term("4k3/r6q/8/4N3/8/8/8/4K3 w - - 0 1");
        assert_eq!(apart, 0);
        assert!(fork > 0, "{fork}");
        // A bishop attacking a knight of equal value is no threat by a lesser piece.
        assert_eq!(term("4k3/8/8/3n4/8/1B6/8/4K3 w - - 0 1"), term("4k3/8/8/3n4/8/8/1B6/4K3 w - - 0 1"));
    }
}
