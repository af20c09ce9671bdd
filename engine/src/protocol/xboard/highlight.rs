//! `lift SQUARE` answered with `highlight COLOUR-FEN`: the squares the lifted piece (or a piece
//! lifted from the hand, `lift C@`) may go to, `Y` for a move, `R` for a capture, `M` for a
//! promotion, in FEN-like rows (top rank first, digits for runs of unmarked squares).
//!
//! Owns: the colour-FEN of legal targets.
//! Must not know: the session, search.

use menagerie_rules::any::AnyPosition;
use menagerie_rules::geometry::{Geometry, Square};
use menagerie_rules::moves::MoveKind;
use menagerie_rules::with_position;

/// The highlight board for a piece lifted from `what` (a square in engine numbering, or `X@` for a
/// piece of letter X in hand); `None` if `what` names nothing.
pub fn targets(position: &AnyPosition, what: &str) -> Option<String> {
    with_position!(position, p => {
        let g = p.rules().geometry;
        let mut marks: Vec<(Square, char)> = Vec::new();
        let legal = p.legal_moves();
        if let Some((letter, _)) = what.split_once('@') {
            let mut chars = letter.chars();
            let (Some(c), None) = (chars.next(), chars.next()) else { return None };
            let kind = p.rules().variant.kind_of_letter(c)?;
            for m in legal.iter().filter(|m| m.kind() == MoveKind::Drop && m.piece() == kind) {
                marks.push((m.to(), 'Y'));
            }
        } else {
            let from = g.parse_square(what.trim())?;
            for m in legal.iter().filter(|m| m.kind() != MoveKind::Drop && m.from() == from) {
                let mark = match m.kind() {
                    MoveKind::Promotion => 'M',
                    MoveKind::Castle => 'Y',
                    MoveKind::EnPassant => 'R',
                    _ if p.piece_at(m.to()).is_some() => 'R',
                    _ => 'Y',
                };
                marks.push((m.to(), mark));
            }
        }
        Some(colour_fen(g, &marks))
    })
}

fn colour_fen(g: Geometry, marks: &[(Square, char)]) -> String {
    let mut rows = Vec::with_capacity(g.ranks as usize);
    for rank in (0..g.ranks as i32).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for file in 0..g.files as i32 {
            let mark = g.square(file, rank).and_then(|s| marks.iter().find(|(t, _)| *t == s)).map(|&(_, c)| c);
            match mark {
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    rows.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    #[test]
    fn knight_and_drop_targets() {
        let v = by_name("chess").unwrap();
        let p = AnyPosition::from_fen(v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert_eq!(targets(&p, "g1").as_deref(), Some("8/8/8/8/8/5Y1Y/8/8"));
        assert_eq!(targets(&p, "z9"), None);
        let vd = by_name("vdchess").unwrap();
        let p = AnyPosition::from_fen(vd, "k7/8/8/8/8/8/8/K7[C] w - - 0 1").unwrap();
        let h = targets(&p, "C@").unwrap();
        assert_eq!(h.matches('Y').count(), 62);
    }
}
