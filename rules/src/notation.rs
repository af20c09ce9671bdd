//! Move notation: long algebraic (UCI/XBoard coordinates: `e2e4`, `e7e8a`, `C@d4`, castling as
//! king-takes-own-rook or as the king's destination, the two-leg form `e1f1,h1e1`) in and out,
//! and SAN out (`O-O`, `Nbd2`, `C@d4+`, `e8=A#`, free castling as `O-O(f1)`).
//!
//! Owns: `MoveParseError`, `Position::move_to_uci`, `Position::parse_move`, `Position::move_to_san`.
//! Must not know: search, protocols.

use crate::bitboard::BitSet;
use crate::geometry::Geometry;
use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::variant::CastlingRule;
use std::fmt;

/// A move text that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveParseError {
    /// Not a move in coordinate notation at all.
    Syntax(String),
    /// Well formed, but not a legal move here.
    Illegal(String),
    /// Names a square that is not on this board (`a2a10` on eight ranks).
    OffBoard { text: String, square: String, files: u8, ranks: u8 },
}

impl fmt::Display for MoveParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveParseError::Syntax(t) => write!(f, "'{t}' is not a move in coordinate notation"),
            MoveParseError::Illegal(t) => write!(f, "illegal move '{t}'"),
            MoveParseError::OffBoard { text, .. } => {
                write!(f, "illegal move '{text}': {}", self.reason().unwrap_or_default())
            }
        }
    }
}

impl MoveParseError {
    /// Why the move was refused, where there is more to say than "illegal".
    pub fn reason(&self) -> Option<String> {
        match self {
            MoveParseError::OffBoard { square, files, ranks, .. } => {
                Some(format!("square {square} is not on the {files}x{ranks} board"))
            }
            _ => None,
        }
    }
}

impl std::error::Error for MoveParseError {}

impl<B: BitSet> Position<B> {
    /// Coordinate notation. Castling is written king-takes-own-rook when the king moves at most
    /// one file (where the destination form would read as a normal king move), and when
    /// `chess960` is set unless the variant's free castling offers several castlings per rook;
    /// otherwise as the king's destination.
    pub fn move_to_uci(&self, m: Move, chess960: bool) -> String {
        let g = self.rules.geometry;
        match m.kind() {
            MoveKind::Drop => format!("{}@{}", self.rules.variant.pieces[m.piece()].letter, g.square_name(m.to())),
            MoveKind::Castle => {
                // King-takes-rook names a castling only where each rook has one castling (not
                // with free castling, whose longer castlings keep the king's destination).
                let short = (g.file(m.to()) - g.file(m.from())).abs() <= 1;
                let one_per_rook = !matches!(self.rules.variant.castling, CastlingRule::Free { .. });
                let to = if short || (chess960 && one_per_rook) { m.rook() } else { m.to() };
                format!("{}{}", g.square_name(m.from()), g.square_name(to))
            }
            MoveKind::Promotion => format!(
                "{}{}{}",
                g.square_name(m.from()),
                g.square_name(m.to()),
                self.rules.variant.pieces[m.piece()].letter.to_ascii_lowercase()
            ),
            _ => format!("{}{}", g.square_name(m.from()), g.square_name(m.to())),
        }
    }

    /// Read a move in coordinate notation and check that it is legal. Castling is accepted as
    /// king-takes-own-rook, as the king's destination (where that is not an ordinary king move),
    /// in the two-leg form `e1f1,h1e1`, and as `O-O` / `O-O-O` for fixed-destination castling.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveParseError> {
        self.parse_move_on_board(text).map_err(|e| {
            let g = self.rules.geometry;
            match off_board_square(g, text.trim()) {
                Some(square) => {
                    MoveParseError::OffBoard { text: text.trim().to_string(), square, files: g.files, ranks: g.ranks }
                }
                None => e,
            }
        })
    }

    fn parse_move_on_board(&self, text: &str) -> Result<Move, MoveParseError> {
        let t = text.trim();
        let g = self.rules.geometry;
        let legal = self.legal_moves();
        let illegal = || MoveParseError::Illegal(t.to_string());
        if t == "O-O" || t == "O-O-O" || t == "0-0" || t == "0-0-0" {
            if !matches!(self.rules.variant.castling, CastlingRule::Fixed { .. }) {
                return Err(illegal());
            }
            let king_side = t.len() == 3;
            return legal
                .iter()
                .copied()
                .find(|m| m.kind() == MoveKind::Castle && (g.file(m.rook()) > g.file(m.from())) == king_side)
                .ok_or_else(illegal);
        }
        if let Some((king_leg, rook_leg)) = t.split_once(',') {
            let squares = |leg: &str| {
                let (a, n) = g.parse_square_prefix(leg)?;
                let b = g.parse_square(&leg[n..])?;
                Some((a, b))
            };
            let (Some((kf, kt)), Some((rf, rt))) = (squares(king_leg), squares(rook_leg)) else {
                return Err(MoveParseError::Syntax(t.to_string()));
            };
            return legal
                .iter()
                .copied()
                .find(|m| {
                    m.kind() == MoveKind::Castle
                        && m.from() == kf
                        && m.to() == kt
                        && m.rook() == rf
                        && self.castling_rook_target(kf, kt, rf) == rt
                })
                .ok_or_else(illegal);
        }
        if let Some((letter, square)) = t.split_once('@') {
            let mut chars = letter.chars();
            let (Some(c), None, Some(to)) = (chars.next(), chars.next(), g.parse_square(square)) else {
                return Err(MoveParseError::Syntax(t.to_string()));
            };
            let kind = self.rules.variant.kind_of_letter(c).ok_or_else(illegal)?;
            return legal
                .iter()
                .copied()
                .find(|m| m.kind() == MoveKind::Drop && m.piece() == kind && m.to() == to)
                .ok_or_else(illegal);
        }
        let lower = t.to_ascii_lowercase();
        let syntax = || MoveParseError::Syntax(t.to_string());
        let (from, n) = g.parse_square_prefix(&lower).ok_or_else(syntax)?;
        let rest = &lower[n..];
        // The destination: the longest square name that leaves a valid promotion suffix.
        let (to, suffix) = match g.parse_square_prefix(rest) {
            Some((to, m)) => (to, &rest[m..]),
            None => return Err(syntax()),
        };
        let promotion = match suffix {
            "" => None,
            s if s.chars().count() == 1 => {
                let c = s.chars().next().unwrap_or(' ');
                Some(self.rules.variant.kind_of_letter(c).ok_or_else(illegal)?)
            }
            _ => return Err(syntax()),
        };
        if from == to && promotion.is_none() {
            // Only castling with a king that stays put (Chess-9 O-O-O from c1) could match, and
            // that is written king-takes-rook.
            return Err(illegal());
        }
        let plain = legal.iter().copied().find(|m| match m.kind() {
            MoveKind::Promotion => m.from() == from && m.to() == to && Some(m.piece()) == promotion,
            MoveKind::Normal | MoveKind::EnPassant => m.from() == from && m.to() == to && promotion.is_none(),
            _ => false,
        });
        if let Some(m) = plain {
            return Ok(m);
        }
        if promotion.is_some() {
            return Err(illegal());
        }
        // Castling: king takes own rook first, then the king's destination.
        legal
            .iter()
            .copied()
            .find(|m| m.kind() == MoveKind::Castle && m.from() == from && m.rook() == to)
            .or_else(|| {
                legal
                    .iter()
                    .copied()
                    .find(|m| m.kind() == MoveKind::Castle && m.from() == from && m.to() == to && m.to() != m.from())
            })
            .ok_or_else(illegal)
    }

    /// Standard algebraic notation of a legal move, with `+` / `#`.
    pub fn move_to_san(&self, m: Move) -> String {
        let r = self.rules;
        let g = r.geometry;
        let mut s = String::new();
        match m.kind() {
            MoveKind::Castle => {
                let king_side = g.file(m.rook()) > g.file(m.from());
                match r.variant.castling {
                    CastlingRule::Free { .. } => {
                        // Short = towards the nearer rook (fewer squares between king and rook).
                        let between = (g.file(m.rook()) - g.file(m.from())).abs() - 1;
                        let other_between =
                            if king_side { g.file(m.from()) } else { g.files as i32 - 1 - g.file(m.from()) } - 1;
                        let short = between < other_between || (between == other_between && king_side);
                        s.push_str(if short { "O-O" } else { "O-O-O" });
                        s.push_str(&format!("({})", g.square_name(m.to())));
                    }
                    _ => s.push_str(if king_side { "O-O" } else { "O-O-O" }),
                }
            }
            MoveKind::Drop => {
                s.push(r.variant.pieces[m.piece()].letter);
                s.push('@');
                s.push_str(&g.square_name(m.to()));
            }
            _ => {
                let Some(p) = self.piece_at(m.from()) else { return self.move_to_uci(m, false) };
                let capture = self.piece_at(m.to()).is_some() || m.kind() == MoveKind::EnPassant;
                if r.is_pawn(p.kind) {
                    if capture {
                        s.push(crate::geometry::file_letter(g.file(m.from())));
                    }
                } else {
                    s.push(r.variant.pieces[p.kind].letter);
                    let rivals: Vec<Move> = self
                        .legal_moves()
                        .iter()
                        .copied()
                        .filter(|o| {
                            o.kind() != MoveKind::Castle
                                && o.kind() != MoveKind::Drop
                                && o.to() == m.to()
                                && o.from() != m.from()
                                && self.piece_at(o.from()).map(|q| q.kind) == Some(p.kind)
                        })
                        .collect();
                    if !rivals.is_empty() {
                        let same_file = rivals.iter().any(|o| g.file(o.from()) == g.file(m.from()));
                        let same_rank = rivals.iter().any(|o| g.rank(o.from()) == g.rank(m.from()));
                        if !same_file {
                            s.push(crate::geometry::file_letter(g.file(m.from())));
                        } else if !same_rank {
                            s.push_str(&(g.rank(m.from()) + 1).to_string());
                        } else {
                            s.push_str(&g.square_name(m.from()));
                        }
                    }
                }
                if capture {
                    s.push('x');
                }
                s.push_str(&g.square_name(m.to()));
                if m.kind() == MoveKind::Promotion {
                    s.push('=');
                    s.push(r.variant.pieces[m.piece()].letter);
                }
            }
        }
        let mut after = self.clone();
        after.play(m);
        if after.in_check() {
            s.push(if after.has_legal_move() { '+' } else { '#' });
        }
        s
    }
}

/// The first square name in a move text (a file letter then one or two digits) that is not on
/// the board; so that a move like `a2a10` is refused with its reason.
fn off_board_square(g: Geometry, text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_lowercase() {
            let digits = bytes[i + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
            if (1..=2).contains(&digits) {
                let name = &text[i..i + 1 + digits];
                if g.parse_square(name).is_none() {
                    return Some(name.to_string());
                }
                i += 1 + digits;
                continue;
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::any::AnyPosition;
    use crate::variant::by_name;

    fn san(variant: &str, fen: &str, mv: &str) -> String {
        let p = AnyPosition::from_fen(by_name(variant).unwrap(), fen).unwrap();
        p.san_of(mv).unwrap_or_else(|e| panic!("{mv}: {e}"))
    }

    #[test]
    fn san_forms() {
        let fen = "r3k2r/8/8/8/8/8/8/RN1QK2R w KQkq - 0 1";
        assert_eq!(san("chess", fen, "e1g1"), "O-O");
        assert_eq!(san("chess", fen, "e1h1"), "O-O", "king takes rook is the same castling");
        assert_eq!(san("chess", "4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1", "b1d2"), "Nbd2");
        assert_eq!(san("chess", "4k3/8/8/8/8/1N6/8/1N2K3 w - - 0 1", "b1d2"), "N1d2");
        assert_eq!(san("vdchess", "4k3/8/8/8/8/8/8/4K3[C] w - - 0 1", "C@e4"), "C@e4+");
        assert_eq!(san("vdchess", "7k/4P1pp/8/8/8/8/8/K7[-] w - - 0 1", "e7e8c"), "e8=C#");
        assert_eq!(san("chess", "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), "exd6");
        assert_eq!(
            san("displacement", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1h1"),
            "O-O(f1)+",
            "the rook lands on e1 with check"
        );
        assert_eq!(san("displacement", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1b1"), "O-O-O(b1)");
    }

    #[test]
    fn strict_chess9_castling_needs_the_rook_path_safe_too() {
        // b1 is attacked by the knight on a3: Chess960 semantics allow O-O-O (only the king's
        // path counts), the strict reading does not.
        let fen = "r1k4r/8/8/8/8/n7/8/R3K2R w KQ - 0 1";
        for (variant, legal) in [("chess9", true), ("chess9+strict-castling", false)] {
            let p = AnyPosition::from_fen(by_name(variant).unwrap(), fen).unwrap();
            assert_eq!(p.legal_moves_uci(false).contains(&"e1c1".to_string()), legal, "{variant}");
            assert!(p.legal_moves_uci(false).contains(&"e1g1".to_string()), "{variant}");
        }
    }

    #[test]
    fn castling_is_read_in_every_form() {
        let v = by_name("chess9").unwrap();
        // King on c1: O-O-O moves only the rook and can only be written king-takes-rook.
        let fen = "rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1";
        let mut p = AnyPosition::from_fen(v, fen).unwrap();
        assert!(p.legal_moves_uci(false).contains(&"c1a1".to_string()));
        assert!(p.legal_moves_uci(false).contains(&"c1g1".to_string()));
        assert!(p.clone().play_text("c1h1").is_ok());
        assert!(p.clone().play_text("O-O").is_ok());
        p.play_text("c1a1").unwrap();
        assert!(p.to_fen().starts_with("rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/2KR3R b kq"), "{}", p.to_fen());
        let d = by_name("displacement").unwrap();
        let mut p = AnyPosition::from_fen(d, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        p.play_text("e1f1,h1e1").unwrap();
        assert!(p.to_fen().starts_with("4k3/8/8/8/8/8/8/R3RK2 b"), "{}", p.to_fen());
    }

    #[test]
    fn a_square_off_the_board_is_named_in_the_error() {
        use super::MoveParseError;
        let chess = AnyPosition::from_fen(
            by_name("chess").unwrap(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        let off = |p: &AnyPosition, text: &str| match p.san_of(text).err() {
            Some(MoveParseError::OffBoard { square, .. }) => Some(square),
            _ => None,
        };
        assert_eq!(off(&chess, "a2a10"), Some("a10".to_string()));
        assert_eq!(off(&chess, "i2i4"), Some("i2".to_string()));
        assert_eq!(off(&chess, "C@j4"), Some("j4".to_string()));
        assert_eq!(off(&chess, "a2a5"), None, "on the board, merely illegal");
        let rvc = AnyPosition::from_fen(
            by_name("rvc").unwrap(),
            "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR w KQkq - 0 1",
        )
        .unwrap();
        assert_eq!(off(&rvc, "i2i4"), None);
        assert_eq!(off(&rvc, "m2m4"), Some("m2".to_string()));
        let message = chess.san_of("a2a10").err().map(|e| e.to_string());
        assert_eq!(message.as_deref(), Some("illegal move 'a2a10': square a10 is not on the 8x8 board"));
    }
}
