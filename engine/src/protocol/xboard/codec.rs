//! Move text as XBoard writes and reads it, to and from the engine's coordinate text.
//! In: coordinates (`e2e4`, `e7e8q`, `e7e8=Q`), drops (`C@d4`, `c@d4`), `O-O`/`O-O-O`,
//! king-takes-rook, the two-leg `e1f1,h1e1`. Out: coordinates; castling as `O-O`/`O-O-O` where
//! the king's file is shuffled (XBoard's Chess960 castling), as the king's destination where it
//! moves two or more files (XBoard moves the nearest piece next to it), and otherwise as the
//! two-leg move king step + rook "capture" that XBoard 4.9 reads as a 1-step castling.
//! On boards of exactly 10 ranks XBoard counts ranks from 0: every square's rank number is
//! shifted on the way in and out.
//!
//! Owns: `MoveCodec`.
//! Must not know: the session, search.

use menagerie_rules::any::AnyPosition;
use menagerie_rules::moves::MoveKind;
use menagerie_rules::notation::MoveParseError;
use menagerie_rules::with_position;

/// How moves are written for one variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveCodec {
    /// XBoard numbers ranks from 0 (boards of exactly 10 ranks).
    zero_based_ranks: bool,
    /// Castling is written `O-O` / `O-O-O` (the king's start file is shuffled).
    castling_as_o_o: bool,
}

impl MoveCodec {
    pub fn new(ranks: u8, chess960_castling: bool) -> MoveCodec {
        MoveCodec { zero_based_ranks: ranks == 10, castling_as_o_o: chess960_castling }
    }

    /// The engine's coordinate text of a move received from XBoard, checked to be legal here.
    pub fn read(&self, position: &AnyPosition, text: &str) -> Result<String, MoveParseError> {
        let mut t = text.trim().replace('=', "");
        if t == "@@@@" {
            return Err(MoveParseError::Illegal(text.trim().to_string()));
        }
        if self.zero_based_ranks && !t.starts_with('O') && !t.starts_with('0') {
            t = shift_ranks(&t, 1);
        }
        with_position!(position, p => p.parse_move(&t).map(|m| p.move_to_uci(m, false))).map_err(|e| match e {
            MoveParseError::Syntax(_) => MoveParseError::Syntax(text.trim().to_string()),
            MoveParseError::Illegal(_) => MoveParseError::Illegal(text.trim().to_string()),
            MoveParseError::OffBoard { square, files, ranks, .. } => {
                MoveParseError::OffBoard { text: text.trim().to_string(), square, files, ranks }
            }
        })
    }

    /// XBoard's text for a legal move given in the engine's coordinate text.
    pub fn write(&self, position: &AnyPosition, engine_text: &str) -> Result<String, MoveParseError> {
        let text = with_position!(position, p => {
            let m = p.parse_move(engine_text)?;
            let g = p.rules().geometry;
            let name = |s| g.square_name(s);
            if m.kind() == MoveKind::Castle {
                let king_side = g.file(m.rook()) > g.file(m.from());
                let steps = (g.file(m.to()) - g.file(m.from())).abs();
                if self.castling_as_o_o {
                    (if king_side { "O-O" } else { "O-O-O" }).to_string()
                } else if steps >= 2 {
                    format!("{}{}", name(m.from()), name(m.to()))
                } else {
                    let rook_to = p.castling_rook_target(m.from(), m.to(), m.rook());
                    format!("{}{},{}{}", name(m.from()), name(m.to()), name(m.rook()), name(rook_to))
                }
            } else {
                p.move_to_uci(m, false)
            }
        });
        Ok(if self.zero_based_ranks { shift_ranks(&text, -1) } else { text })
    }

    /// A square name from XBoard (or `X@` for a piece in hand) in the engine's numbering.
    pub fn square_in(&self, text: &str) -> String {
        if self.zero_based_ranks {
            shift_ranks(text, 1)
        } else {
            text.to_string()
        }
    }

    /// A FEN in XBoard's rank numbering (only the en-passant field names a square).
    pub fn fen_out(&self, fen: &str) -> String {
        self.shift_fen(fen, -1)
    }

    /// A FEN from XBoard in the engine's rank numbering. XBoard leaves out the castling field in
    /// variants without castling (`... w - 0 1`): the missing field is put back.
    pub fn fen_in(&self, fen: &str) -> String {
        let mut fields: Vec<&str> = fen.split_whitespace().collect();
        let counters = |f: &[&str]| f.iter().all(|x| x.parse::<u32>().is_ok());
        if fields.len() == 5 && counters(&fields[3..]) {
            let names_square = fields[2].chars().next().is_some_and(|c| c.is_ascii_lowercase());
            fields.insert(if names_square { 2 } else { 3 }, "-");
        }
        self.shift_fen(&fields.join(" "), 1)
    }

    fn shift_fen(&self, fen: &str, delta: i32) -> String {
        if !self.zero_based_ranks {
            return fen.to_string();
        }
        let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
        if let Some(ep) = fields.get_mut(3) {
            if ep != "-" {
                *ep = shift_ranks(ep, delta);
            }
        }
        fields.join(" ")
    }
}

/// Add `delta` to every rank number that follows a file letter.
fn shift_ranks(text: &str, delta: i32) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        if c.is_ascii_lowercase() && i < chars.len() && chars[i].is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let digits: String = chars[start..i].iter().collect();
            match digits.parse::<i32>() {
                Ok(n) => out.push_str(&(n + delta).to_string()),
                Err(_) => out.push_str(&digits),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    fn position(variant: &str, fen: &str) -> AnyPosition {
        AnyPosition::from_fen(by_name(variant).unwrap(), fen).unwrap()
    }

    #[test]
    fn ranks_shift_on_ten_rank_boards_only() {
        assert_eq!(shift_ranks("a0b9,c10", 1), "a1b10,c11");
        assert_eq!(shift_ranks("C@d4", -1), "C@d3");
        let ten = MoveCodec::new(10, false);
        assert_eq!(ten.fen_out("8/8 w - e3 0 1"), "8/8 w - e2 0 1");
        assert_eq!(MoveCodec::new(8, false).fen_out("8/8 w - e3 0 1"), "8/8 w - e3 0 1");
        let eight = MoveCodec::new(8, false);
        assert_eq!(eight.fen_in("8/8 w - 0 1"), "8/8 w - - 0 1");
        assert_eq!(eight.fen_in("8/8 b e3 0 1"), "8/8 b - e3 0 1");
        assert_eq!(eight.fen_in("8/8 b KQ e3 0 1"), "8/8 b KQ e3 0 1");
    }

    #[test]
    fn castling_forms() {
        let d = position("displacement", "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        let codec = MoveCodec::new(8, false);
        assert_eq!(codec.write(&d, "e1h1").unwrap(), "e1f1,h1e1");
        assert_eq!(codec.write(&d, "e1g1").unwrap(), "e1g1");
        assert_eq!(codec.write(&d, "e1b1").unwrap(), "e1b1");
        assert_eq!(codec.read(&d, "e1f1,h1e1").unwrap(), "e1h1");
        assert_eq!(codec.read(&d, "e1h1").unwrap(), "e1h1");
        let c9 = position("chess9", "rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/R1K4R w KQkq - 0 1");
        let frc = MoveCodec::new(8, true);
        assert_eq!(frc.write(&c9, "c1a1").unwrap(), "O-O-O");
        assert_eq!(frc.read(&c9, "O-O-O").unwrap(), "c1a1");
        assert_eq!(frc.read(&c9, "O-O").unwrap(), frc.read(&c9, "c1h1").unwrap());
        let vd = position("vdchess", "4k3/8/8/8/8/8/8/4K3[Cc] w - - 0 1");
        assert_eq!(frc.read(&vd, "c@d4").unwrap(), "C@d4");
        assert!(matches!(frc.read(&vd, "Q@d4"), Err(MoveParseError::Illegal(_))));
        assert!(matches!(frc.read(&vd, "zz"), Err(MoveParseError::Syntax(_))));
        let promo = position("chess", "8/4P2k/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(codec.read(&promo, "e7e8=Q").unwrap(), "e7e8q");
    }
}
