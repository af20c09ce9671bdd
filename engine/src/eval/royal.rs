//! Royal safety, in the middlegame: attacks on the squares around the royal piece (danger units
//! by the attacker's value, growing with their square), the pawn shield in front of it while it
//! stays on its first two ranks, and the files on and next to it without pawns of its side.
//!
//! Owns: `RoyalSafety`.
//! Must not know: how attacks are found (the caller counts them with `units`), search.

use super::kinds::{file_masks, KindFacts};
use super::params::EvalParams;
use super::trace::MgEg;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::{Color, Geometry, Square};
use menagerie_rules::rules::Rules;
use menagerie_rules::variant::{PieceKind, MAX_KINDS};

/// The royal safety term's tables.
pub(super) struct RoyalSafety<B: BitSet> {
    geometry: Geometry,
    squares: usize,
    /// Danger units per attacked square next to the enemy royal piece, by attacking kind.
    attack_units: [i32; MAX_KINDS],
    /// Squares next to each square (and the square itself).
    zone: Vec<B>,
    /// `shield[color * squares + sq]`: the squares just in front of a royal piece on `sq`.
    shield: Vec<B>,
    /// Squares of a file, by file.
    file_mask: Vec<B>,
    shield_mg: i32,
    open_file_mg: i32,
    danger_scale: i32,
    danger_max: i32,
}

impl<B: BitSet> RoyalSafety<B> {
    pub fn new(rules: &Rules<B>, facts: &[KindFacts<B>], w: &EvalParams) -> RoyalSafety<B> {
        let whole = |x: f64| x.round() as i32;
        let g = rules.geometry;
        let squares = rules.squares;
        let mut attack_units = [0; MAX_KINDS];
        for (k, f) in facts.iter().enumerate() {
            if !f.pawn && !f.royal {
                attack_units[k] = (f.value / whole(w.king_attack_value_unit).max(1)).clamp(1, 8);
            }
        }
        let mut zone = vec![B::EMPTY; squares];
        let mut shield = vec![B::EMPTY; 2 * squares];
        for sq in g.all_squares() {
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if let Some(t) = g.offset(sq, dx, dy) {
                        zone[sq.index()] |= B::square(t);
                    }
                }
                for color in Color::BOTH {
                    if let Some(t) = g.offset(sq, dx, color.forward()) {
                        shield[color.index() * squares + sq.index()] |= B::square(t);
                    }
                }
            }
        }
        RoyalSafety {
            geometry: g,
            squares,
            attack_units,
            zone,
            shield,
            file_mask: file_masks(g),
            shield_mg: whole(w.shield_mg),
            open_file_mg: whole(w.royal_open_file_mg),
            danger_scale: whole(w.king_danger_scale),
            danger_max: whole(w.king_danger_max),
        }
    }

    /// The squares around a royal piece on `king`.
    pub fn zone(&self, king: Option<Square>) -> B {
        king.map_or(B::EMPTY, |k| self.zone[k.index()])
    }

    /// The danger units of a piece of `kind` that reaches the squares `reach` of the enemy
    /// royal piece's `zone`.
    #[inline]
    pub fn units(&self, kind: PieceKind, reach: B, zone: B) -> i32 {
        (reach & zone).count() as i32 * self.attack_units[kind]
    }

    /// The safety of `color`'s royal piece on `king`, with `pawns` its side's pawns and `danger`
    /// the units of the enemy's attacks around it.
    pub fn eval(&self, color: Color, king: Option<Square>, pawns: B, danger: i32) -> MgEg {
        let mut mg = 0;
        if let Some(k) = king {
            let file = self.geometry.file(k) as usize;
            let open = (file.saturating_sub(1)..=(file + 1).min(self.file_mask.len() - 1))
                .filter(|&f| (self.file_mask[f] & pawns).is_empty())
                .count() as i32;
            mg -= open * self.open_file_mg;
        }
        mg -= (danger * danger * self.danger_scale / 16).min(self.danger_max);
        if let Some(k) = king {
            if self.geometry.relative_rank(k, color) <= 1 {
                mg += self.shield_mg * (self.shield[color.index() * self.squares + k.index()] & pawns).count() as i32;
            }
        }
        MgEg::new(mg, 0)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{position, W};
    use super::super::{evaluate, Evaluator};
    use crate::eval::EvalParams;
    use menagerie_rules::position::Position;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::variant::by_name;

    #[test]
    fn attacks_near_the_king_and_a_missing_shield_cost() {
        let e = |p: &Position<u64>| evaluate(p);
        // The pawns in front of the castled king count as its shield, those on the other wing
        // do not.
        let r = compiled::<u64>(by_name("chess").unwrap());
        let unshielded = Evaluator::with_params(r, &EvalParams { shield_mg: 0.0, ..W });
        let shield = |fen: &str| {
            let p = position("chess", fen);
            e(&p) - unshielded.evaluate(&p)
        };
        // Black's king keeps its three pawns; White's has its three or none. With nearly all the
        // pieces on, the middlegame weight counts alone.
        let sheltered = "rnbq1rk1/ppppbppp/8/8/8/8/5PPP/RNBQ1RK1 w - - 0 1";
        let bare = "rnbq1rk1/ppppbppp/8/8/8/8/PPP5/RNBQ1RK1 w - - 0 1";
        assert_eq!(shield(sheltered), 0);
        assert_eq!(shield(bare), -3 * W.shield_mg as i32);
        // The same attackers on the king's wing or, mirrored, on the other wing.
        let near = position("chess", "r1bq1rk1/5ppp/8/6N1/7Q/8/PPP5/1KBR4 b - - 0 1");
        let far = position("chess", "r1bq1rk1/5ppp/8/1N6/Q7/8/PPP5/1KBR4 b - - 0 1");
        assert!(e(&near) + 15 < e(&far), "{} {}", e(&near), e(&far));
    }
}
