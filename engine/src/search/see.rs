//! Static exchange evaluation: the material a capture wins or loses once both sides have
//! recaptured on its square with their least valuable attackers, each side free to stop. The
//! attackers are found again after every capture with the reduced occupancy, so x-rays through
//! riders and screens for hoppers (a cannon whose screen has just captured) come out right for
//! every piece the variant defines.
//!
//! Owns: `see`, `see_at_least`.
//! Must not know: search control, notation, protocols.

use crate::eval::Evaluation;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Square;
use menagerie_rules::moves::{Move, MoveKind};
use menagerie_rules::position::Position;
use menagerie_rules::variant::PieceKind;

/// Longest exchange followed (captures on one square).
const MAX_EXCHANGE: usize = 32;

/// The least valuable piece among `attackers`, with its square.
fn least_valuable<B: BitSet>(pos: &Position<B>, eval: &Evaluation<B>, attackers: B) -> Option<(Square, PieceKind)> {
    let mut best: Option<(Square, PieceKind, i32)> = None;
    for sq in attackers.squares() {
        if let Some(p) = pos.piece_at(sq) {
            let v = eval.order_value(p.kind);
            if best.is_none_or(|(_, _, bv)| v < bv) {
                best = Some((sq, p.kind, v));
            }
        }
    }
    best.map(|(sq, k, _)| (sq, k))
}

/// The material balance of `m` for the side to move after the best sequence of recaptures on
/// its square. Quiet moves and drops are scored by the exchange that may follow on their square.
pub fn see<B: BitSet>(pos: &Position<B>, eval: &Evaluation<B>, m: Move) -> i32 {
    let to = m.to();
    let us = pos.side_to_move();
    let mut occ = pos.occupied();
    let (mut on_square, first_gain) = match m.kind() {
        MoveKind::Castle => return 0,
        MoveKind::Drop => (eval.order_value(m.piece()), 0),
        kind => {
            let from = m.from();
            let Some(mover) = pos.piece_at(from) else { return 0 };
            occ = occ.without(from);
            let mut gain = 0;
            if kind == MoveKind::EnPassant {
                let victim_sq = pos.en_passant_victim(to);
                if let Some(v) = pos.piece_at(victim_sq) {
                    gain += eval.value(v.kind);
                }
                occ = occ.without(victim_sq);
            } else if let Some(v) = pos.piece_at(to) {
                gain += eval.value(v.kind);
            }
            let mut moved = eval.order_value(mover.kind);
            if kind == MoveKind::Promotion {
                gain += eval.value(m.piece()) - eval.value(mover.kind);
                moved = eval.order_value(m.piece());
            }
            (moved, gain)
        }
    };
    occ |= B::square(to);
    let mut gains = [0i32; MAX_EXCHANGE];
    gains[0] = first_gain;
    let mut depth = 0;
    let mut side = us.flip();
    while depth + 1 < MAX_EXCHANGE {
        let attackers = pos.attackers(to, side, occ) & occ;
        let Some((sq, kind)) = least_valuable(pos, eval, attackers) else { break };
        depth += 1;
        // Speculative: what the side gains if it takes and the exchange stops there.
        gains[depth] = on_square - gains[depth - 1];
        on_square = eval.order_value(kind);
        occ = occ.without(sq);
        side = side.flip();
    }
    // Each side may decline to continue: fold the list from the end.
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// Whether `m` wins at least `threshold` in the exchange on its square.
#[inline]
pub fn see_at_least<B: BitSet>(pos: &Position<B>, eval: &Evaluation<B>, m: Move, threshold: i32) -> bool {
    see(pos, eval, m) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::variant::by_name;

    fn see_of(variant: &str, fen: &str, text: &str) -> i32 {
        let rules = compiled::<u64>(by_name(variant).expect("variant"));
        let pos = Position::from_fen(rules, fen).expect("fen");
        let m = pos.parse_move(text).expect("move");
        see(&pos, Evaluation::of(rules), m)
    }

    #[test]
    fn exchanges_follow_the_least_valuable_attacker() {
        let e = Evaluation::of(compiled::<u64>(by_name("chess").expect("chess")));
        let (pawn, knight, queen) = (e.value(0), e.value(1), e.value(4));
        // Pawn takes a knight defended by a pawn.
        assert_eq!(see_of("chess", "4k3/8/2p5/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), knight - pawn);
        // Queen takes a pawn defended by a pawn.
        assert_eq!(see_of("chess", "4k3/8/2p5/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), pawn - queen);
        // An undefended pawn.
        assert_eq!(see_of("chess", "4k3/8/8/3p4/8/8/8/3QK3 w - - 0 1", "d1d5"), pawn);
        // The queen behind the rook (x-ray) takes back the pawn that took the rook.
        assert_eq!(see_of("chess", "4k3/8/2p5/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5"), 2 * pawn - e.value(3));
    }

    #[test]
    fn x_rays_recapture_through_the_first_attacker() {
        let e = Evaluation::of(compiled::<u64>(by_name("chess").expect("chess")));
        let (pawn, rook) = (e.value(0), e.value(3));
        // Rook takes a pawn defended by a rook, with a second rook behind ours: we win a pawn and
        // a rook for a rook.
        assert_eq!(see_of("chess", "3rk3/8/8/3p4/8/8/3R4/3RK3 w - - 0 1", "d2d5"), pawn);
        // Without the second rook the exchange loses the rook for a pawn.
        assert_eq!(see_of("chess", "3rk3/8/8/3p4/8/8/3R4/4K3 w - - 0 1", "d2d5"), pawn - rook);
    }
}
