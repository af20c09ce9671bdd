//! Pieces: the one pass over the pieces other than pawns that finds what each attacks and where
//! it can move; their mobility (squares no enemy pawn attacks, weighted by kind) and file riders
//! (rook-like) on files without pawns of their side, open or half-open. The pass reports each
//! piece's attacks to its caller, which scores threats and royal safety from them.
//!
//! Owns: `Pieces`, `PieceActivity`.
//! Must not know: what the caller does with the attacks, search.

use super::kinds::{file_masks, KindFacts};
use super::params::EvalParams;
use super::pawns::PawnMap;
use super::trace::MgEg;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::position::Position;
use menagerie_rules::rules::Rules;
use menagerie_rules::variant::{PieceKind, MAX_KINDS};

/// Mobility bonus per reachable square of any mobile piece, at least.
const MOBILITY_MIN: i32 = 1;

/// What the pass over the pieces found, by side.
pub(super) struct PieceActivity<B: BitSet> {
    pub mobility: [MgEg; 2],
    pub files: [MgEg; 2],
    /// The squares attacked, by the pawns and the other pieces.
    pub attacked: [B; 2],
}

/// The pieces term's tables.
pub(super) struct Pieces<B: BitSet> {
    /// Kinds whose mobility counts (neither pawns nor royal).
    mobile: u32,
    /// Kinds that are pawns (the pass leaves them out).
    pawns: u32,
    /// Centipawns per reachable square, by kind.
    mobility: [i32; MAX_KINDS],
    /// Kinds that ride files without limit (rook-like), royal ones excepted.
    file_riders: u32,
    /// Squares of a file, by file.
    file_mask: Vec<B>,
    half_open_file: MgEg,
    open_file: MgEg,
}

impl<B: BitSet> Pieces<B> {
    pub fn new(rules: &Rules<B>, facts: &[KindFacts<B>], w: &EvalParams) -> Pieces<B> {
        let whole = |x: f64| x.round() as i32;
        let (mut mobile, mut pawns) = (0u32, 0u32);
        let mut mobility = [0; MAX_KINDS];
        for (k, f) in facts.iter().enumerate() {
            if f.pawn {
                pawns |= 1 << k;
            } else if !f.royal {
                mobile |= 1 << k;
            }
            mobility[k] =
                whole(w.mobility_share * f.per_square()).clamp(MOBILITY_MIN, whole(w.mobility_max).max(MOBILITY_MIN));
        }
        Pieces {
            mobile,
            pawns,
            mobility,
            file_riders: rules.rook_kinds[0].iter().filter(|&&k| k != rules.royal).fold(0u32, |m, &k| m | 1 << k),
            file_mask: file_masks(rules.geometry),
            half_open_file: MgEg::new(whole(w.half_open_file_mg), whole(w.half_open_file_eg)),
            open_file: MgEg::new(whole(w.open_file_mg), whole(w.open_file_eg)),
        }
    }

    /// The pass over the pieces. `each(color, kind, attacks, reach)` is told of every mobile
    /// piece: the squares it attacks and those it can move to (empty or enemy-occupied).
    pub fn eval(
        &self,
        pos: &Position<B>,
        pawns: &PawnMap<B>,
        mut each: impl FnMut(Color, PieceKind, B, B),
    ) -> PieceActivity<B> {
        let r = pos.rules();
        let occ = pos.occupied();
        let empty = r.board & !occ;
        let mut out = PieceActivity { mobility: [MgEg::ZERO; 2], files: [MgEg::ZERO; 2], attacked: pawns.attacks };
        for k in 0..r.kinds {
            let all = pos.pieces_of_kind(k);
            if all.is_empty() {
                continue;
            }
            let file_rider = self.file_riders & (1 << k) != 0;
            for color in Color::BOTH {
                let (c, them) = (color.index(), color.flip().index());
                let mine = all & pos.pieces_of(color);
                let t = r.kind_tables(k, color);
                let theirs = pos.pieces_of(color.flip());
                for sq in mine.squares() {
                    if file_rider {
                        let file = self.file_mask[r.geometry.file(sq) as usize];
                        if (file & pawns.squares[c]).is_empty() {
                            let open = (file & pawns.squares[them]).is_empty();
                            out.files[c] += if open { self.open_file } else { self.half_open_file };
                        }
                    }
                    if self.pawns & (1 << k) != 0 {
                        continue;
                    }
                    let attacks = r.reach(&t.capture, sq, occ);
                    out.attacked[c] |= attacks;
                    if self.mobile & (1 << k) != 0 {
                        let reach = if t.symmetric {
                            attacks & (empty | theirs)
                        } else {
                            (r.reach(&t.quiet, sq, occ) & empty) | (attacks & theirs)
                        };
                        let squares = (reach & !pawns.attacks[them]).count() as i32;
                        out.mobility[c] += MgEg::both(squares * self.mobility[k]);
                        each(color, k, attacks, reach);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{position, W};
    use super::super::{evaluate, Evaluator};
    use crate::eval::EvalParams;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::variant::by_name;

    #[test]
    fn rooks_like_files_without_their_own_pawns() {
        // The same rook, boxed in by the knight in front of it, with its own pawn on its file or
        // only the enemy's (the pawns mirrored, so that every other term cancels: without the
        // file bonus both score the same).
        let closed = position("chess", "4k3/8/8/7p/P7/8/n7/R3K3 w - - 0 1");
        let half_open = position("chess", "4k3/8/8/p7/7P/8/n7/R3K3 w - - 0 1");
        let (c, h) = (evaluate(&closed), evaluate(&half_open));
        assert!(h - c >= 5, "closed {c}, half-open {h}");
    }

    #[test]
    fn mobility_leaves_out_the_squares_enemy_pawns_attack() {
        let r = compiled::<u64>(by_name("chess").unwrap());
        let more = EvalParams { mobility_share: 3.0 * W.mobility_share, mobility_max: 3.0 * W.mobility_max, ..W };
        let (with, with_more) = (Evaluator::with_params(r, &W), Evaluator::with_params(r, &more));
        // The mobility term alone, as a multiple of the knight's weight per square.
        let mobility = |fen: &str| {
            let p = position("chess", fen);
            with_more.evaluate(&p) - with.evaluate(&p)
        };
        // The knight on e4 reaches eight squares; the pawn on b6 attacks c5, the one on h7 none
        // (White keeps a pawn, so that no endgame scaling applies).
        let free = mobility("4k3/7p/8/8/4N3/8/P7/4K3 w - - 0 1");
        let watched = mobility("4k3/8/1p6/8/4N3/8/P7/4K3 w - - 0 1");
        assert!(watched > 0, "free {free}, watched {watched}");
        assert_eq!(free * 7, watched * 8, "free {free}, watched {watched}");
    }
}
