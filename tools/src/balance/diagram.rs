//! A piece's moves on an empty board, as text (`menagerie pieces`): the piece, White's, on a
//! central square; `*` where it moves or captures, `m` where it only moves, `x` where it only
//! captures (as its Betza string says), `.` elsewhere. The squares come from the rules crate's
//! compiled move tables, so they are the moves the engine generates. Hoppers and grasshoppers
//! need a piece to jump and have no move on an empty board: the diagram says so.
//!
//! Owns: `PieceMoves`, `piece_moves`, `board_text`.
//! Must not know: search, evaluation.

use menagerie_rules::betza::Travel;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::{file_letter, Color, Square};
use menagerie_rules::rules::{compiled, Rules};
use menagerie_rules::variant::Variant;

/// One piece kind's moves from the central square of an empty board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    pub letter: char,
    pub name: String,
    pub betza: String,
    pub royal: bool,
    pub pawn: bool,
    /// The variant's own value for the piece, centipawns, where it gives one.
    pub value: Option<i32>,
    pub square: String,
    /// Squares it moves to or captures on, both.
    pub both: usize,
    pub move_only: usize,
    pub capture_only: usize,
    /// It has moves that need a piece to jump (none of them is drawn).
    pub needs_screen: bool,
    /// The board, top rank first, then the file letters.
    pub rows: Vec<String>,
}

impl PieceMoves {
    /// Squares it reaches in any way.
    pub fn squares(&self) -> usize {
        self.both + self.move_only + self.capture_only
    }
}

/// Every piece kind of `variant`, in the order of its piece table.
pub fn piece_moves(variant: &'static Variant) -> Vec<PieceMoves> {
    if variant.geometry.squares() > 64 {
        of_width(compiled::<u128>(variant))
    } else {
        of_width(compiled::<u64>(variant))
    }
}

fn of_width<B: BitSet>(r: &'static Rules<B>) -> Vec<PieceMoves> {
    let g = r.geometry;
    let centre = g.square((g.files as i32 - 1) / 2, (g.ranks as i32 - 1) / 2).unwrap_or(Square(0));
    let from = B::square(centre);
    r.variant
        .pieces
        .iter()
        .enumerate()
        .map(|(kind, def)| {
            let t = r.kind_tables(kind, Color::White);
            let quiet = r.reach(&t.quiet, centre, B::EMPTY) & r.board & !from;
            let capture = r.reach(&t.capture, centre, B::EMPTY) & r.board & !from;
            let mut rows = Vec::new();
            for rank in (0..g.ranks as i32).rev() {
                let mut row = format!("{:>3} ", rank + 1);
                for file in 0..g.files as i32 {
                    let Some(sq) = g.square(file, rank) else { continue };
                    let cell = if sq == centre {
                        def.letter
                    } else {
                        match (quiet.has(sq), capture.has(sq)) {
                            (true, true) => '*',
                            (true, false) => 'm',
                            (false, true) => 'x',
                            (false, false) => '.',
                        }
                    };
                    row.push(cell);
                    row.push(' ');
                }
                rows.push(row.trim_end().to_string());
            }
            let files: String = (0..g.files as i32).map(|f| format!("{} ", file_letter(f))).collect();
            rows.push(format!("    {}", files.trim_end()));
            PieceMoves {
                letter: def.letter,
                name: def.name.clone(),
                betza: def.betza.clone(),
                royal: def.royal,
                pawn: def.pawn,
                value: def.value,
                square: g.square_name(centre),
                both: (quiet & capture).count() as usize,
                move_only: (quiet & !capture).count() as usize,
                capture_only: (capture & !quiet).count() as usize,
                needs_screen: def.steps.iter().any(|s| matches!(s.travel, Travel::Hop | Travel::Grasshop)),
                rows,
            }
        })
        .collect()
}

/// The diagram of one piece, with its heading.
pub fn board_text(p: &PieceMoves) -> String {
    let mut kind = Vec::new();
    if p.royal {
        kind.push("royal");
    }
    if p.pawn {
        kind.push("pawn");
    }
    let mut s = format!(
        "{} {}{}  Betza {}\n",
        p.letter,
        p.name,
        if kind.is_empty() { String::new() } else { format!(" ({})", kind.join(", ")) },
        p.betza
    );
    s.push_str(&format!(
        "from {}: {} squares ({} move or capture *, {} move only m, {} capture only x)\n",
        p.square,
        p.squares(),
        p.both,
        p.move_only,
        p.capture_only
    ));
    if p.needs_screen {
        s.push_str("it hops over a piece: those moves need one and are not drawn on an empty board\n");
    }
    for row in &p.rows {
        s.push_str(row);
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    fn piece(variant: &str, letter: char) -> PieceMoves {
        let v = by_name(variant).expect("variant");
        piece_moves(v).into_iter().find(|p| p.letter == letter).expect("piece")
    }

    #[test]
    fn orthodox_pieces_reach_their_squares_from_d4() {
        let n = piece("chess", 'N');
        assert_eq!((n.square.as_str(), n.squares(), n.both), ("d4", 8, 8));
        assert_eq!(piece("chess", 'R').squares(), 14);
        assert_eq!(piece("chess", 'B').squares(), 13);
        assert_eq!(piece("chess", 'Q').squares(), 27);
        assert_eq!(piece("chess", 'K').squares(), 8);
        let p = piece("chess", 'P');
        assert_eq!((p.move_only, p.capture_only, p.both), (1, 2, 0));
        let text = board_text(&p);
        assert!(text.contains("  5 . . x m x . . .\n  4 . . . P . . . ."), "{text}");
        let knight = board_text(&n);
        assert!(knight.contains("  6 . . * . * . . ."), "{knight}");
        assert!(knight.ends_with("    a b c d e f g h\n"), "{knight}");
    }
}
