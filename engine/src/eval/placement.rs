//! Placement: piece-square tables derived from geometry. Leapers and steppers are worth more
//! where they reach more squares of an empty board, riders less so; pawns gain as they advance;
//! the royal piece stays sheltered in the middlegame and comes to the centre in the endgame.
//!
//! Owns: `Placement`.
//! Must not know: other pieces (a piece's square is all it scores), search.

use super::kinds::KindFacts;
use super::params::EvalParams;
use super::trace::MgEg;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::position::Position;
use menagerie_rules::rules::Rules;

/// The placement term's tables.
pub(super) struct Placement {
    /// `table[(kind * 2 + color) * squares + sq]`, middlegame and endgame.
    mg: Vec<i16>,
    eg: Vec<i16>,
    squares: usize,
}

impl Placement {
    pub fn new<B: BitSet>(rules: &Rules<B>, facts: &[KindFacts<B>], w: &EvalParams) -> Placement {
        let g = rules.geometry;
        let squares = rules.squares;
        let files = g.files as f64;
        let last_rank = g.ranks as i32 - 1;
        let mut table_mg = vec![0i16; rules.kinds * 2 * squares];
        let mut table_eg = vec![0i16; rules.kinds * 2 * squares];
        for (k, f) in facts.iter().enumerate() {
            let centralisation = if f.rides { w.rider_centralisation } else { 1.0 };
            for color in Color::BOTH {
                for sq in g.all_squares() {
                    // Tables are White's; Black's are mirrored by rank.
                    let white_sq = g.square(g.file(sq), g.relative_rank(sq, color)).unwrap_or(sq);
                    let centre = f.reach[white_sq.index()].count() as f64 - f.average;
                    let rel_rank = g.relative_rank(sq, color);
                    let (mg, eg) = if f.pawn {
                        let span = (last_rank - 2).max(1) as f64;
                        let progress = ((rel_rank - 1).max(0) as f64 / span).min(1.0);
                        let centre_files = files / 2.0 - ((g.file(sq) as f64 + 0.5) - files / 2.0).abs();
                        (
                            w.pawn_advance_mg * (rel_rank - 1).max(0) as f64 + w.pawn_centre_mg * centre_files.max(0.0),
                            w.pawn_advance_eg * progress * progress,
                        )
                    } else if f.royal {
                        (-w.royal_advance_mg * rel_rank as f64 + w.royal_centre_mg * centre, w.royal_centre_eg * centre)
                    } else {
                        let weight = centralisation * f.per_square() * centre;
                        (w.centralisation_mg * weight, w.centralisation_eg * weight)
                    };
                    let i = (k * 2 + color.index()) * squares + sq.index();
                    table_mg[i] = mg.round().clamp(-500.0, 500.0) as i16;
                    table_eg[i] = eg.round().clamp(-500.0, 500.0) as i16;
                }
            }
        }
        Placement { mg: table_mg, eg: table_eg, squares }
    }

    /// The placement of `color`'s pieces.
    pub fn eval<B: BitSet>(&self, pos: &Position<B>, color: Color) -> MgEg {
        let mut s = MgEg::ZERO;
        let mine = pos.pieces_of(color);
        for k in 0..pos.rules().kinds {
            let base = (k * 2 + color.index()) * self.squares;
            for sq in (pos.pieces_of_kind(k) & mine).squares() {
                s += MgEg::new(self.mg[base + sq.index()] as i32, self.eg[base + sq.index()] as i32);
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::evaluate;
    use super::super::tests::position;

    #[test]
    fn knights_prefer_the_centre_and_pawns_advance() {
        let corner = position("chess", "4k3/8/8/8/8/8/8/N3K3 w - - 0 1");
        let centre = position("chess", "4k3/8/8/8/3N4/8/8/4K3 w - - 0 1");
        assert!(evaluate(&centre) > evaluate(&corner));
        let back = position("chess", "4k3/8/8/8/8/8/P7/4K3 w - - 0 1");
        let far = position("chess", "4k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert!(evaluate(&far) > evaluate(&back) + 50);
    }
}
