//! The evaluation of one position term by term: each term's middlegame and endgame score for
//! each side, the game phase, the endgame scale and the tempo, and the tapered total, which is
//! what `evaluate` returns (it is computed from this record, so the two cannot differ). Printed
//! as a table in the manner of Stockfish's `eval` command.
//!
//! Owns: `MgEg`, `Term`, `EvalTrace` and its table.
//! Must not know: how any term is computed, search, protocols.

use menagerie_rules::geometry::Color;
use std::fmt;
use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

/// A middlegame and an endgame score, in centipawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MgEg {
    pub mg: i32,
    pub eg: i32,
}

impl MgEg {
    pub const ZERO: MgEg = MgEg { mg: 0, eg: 0 };

    pub const fn new(mg: i32, eg: i32) -> MgEg {
        MgEg { mg, eg }
    }

    /// The same score in the middlegame and the endgame.
    pub const fn both(v: i32) -> MgEg {
        MgEg { mg: v, eg: v }
    }
}

impl Add for MgEg {
    type Output = MgEg;
    fn add(self, o: MgEg) -> MgEg {
        MgEg::new(self.mg + o.mg, self.eg + o.eg)
    }
}

impl Sub for MgEg {
    type Output = MgEg;
    fn sub(self, o: MgEg) -> MgEg {
        MgEg::new(self.mg - o.mg, self.eg - o.eg)
    }
}

impl AddAssign for MgEg {
    fn add_assign(&mut self, o: MgEg) {
        *self = *self + o;
    }
}

impl SubAssign for MgEg {
    fn sub_assign(&mut self, o: MgEg) {
        *self = *self - o;
    }
}

impl Neg for MgEg {
    type Output = MgEg;
    fn neg(self) -> MgEg {
        MgEg::new(-self.mg, -self.eg)
    }
}

impl Mul<i32> for MgEg {
    type Output = MgEg;
    fn mul(self, n: i32) -> MgEg {
        MgEg::new(self.mg * n, self.eg * n)
    }
}

/// The terms of the hand-written evaluation, in the order of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Term {
    /// Pieces on the board and in hand.
    Material,
    /// A colour-bound kind on squares of both colours (the bishop pair).
    Pair,
    /// Piece-square tables: centralisation, pawn advancement, the royal piece's shelter.
    Placement,
    /// Doubled, isolated and connected pawns.
    Pawns,
    /// Passed pawns, with the royal pieces' distances to the square in front of them.
    Passed,
    /// Squares the pieces reach that no enemy pawn attacks.
    Mobility,
    /// File riders (rook-like) on files without pawns of their side.
    Files,
    /// Attacks next to the royal piece, its pawn shield, files without own pawns at it.
    KingSafety,
    /// Pieces attacked by pawns, by lesser pieces, attacked and not defended.
    Threats,
}

impl Term {
    pub const COUNT: usize = 9;
    pub const ALL: [Term; Term::COUNT] = [
        Term::Material,
        Term::Pair,
        Term::Placement,
        Term::Pawns,
        Term::Passed,
        Term::Mobility,
        Term::Files,
        Term::KingSafety,
        Term::Threats,
    ];

    /// Its name in the table.
    pub fn name(self) -> &'static str {
        match self {
            Term::Material => "Material",
            Term::Pair => "Pair",
            Term::Placement => "Placement",
            Term::Pawns => "Pawns",
            Term::Passed => "Passed",
            Term::Mobility => "Mobility",
            Term::Files => "Files",
            Term::KingSafety => "King safety",
            Term::Threats => "Threats",
        }
    }
}

/// One position's evaluation, term by term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EvalTrace {
    /// By term (`Term as usize`) and colour: that side's score, from its own point of view.
    pub terms: [[MgEg; 2]; Term::COUNT],
    pub side_to_move: Color,
    /// The middlegame's weight is `phase / span`, the endgame's `(span - phase) / span`.
    pub phase: i32,
    pub span: i32,
    /// The endgame score's scale in 1/64: 64, or less in an endgame that is hard to win.
    pub eg_scale: i32,
    /// Bonus for the side to move, added after tapering.
    pub tempo: i32,
}

impl EvalTrace {
    /// A term's score for a side.
    pub fn term(&self, term: Term, color: Color) -> MgEg {
        self.terms[term as usize][color.index()]
    }

    /// The sum of the terms for a side.
    pub fn side(&self, color: Color) -> MgEg {
        self.terms.iter().fold(MgEg::ZERO, |s, t| s + t[color.index()])
    }

    /// The middlegame and endgame scores of the side to move less its opponent's, the endgame
    /// score scaled.
    fn relative(&self) -> MgEg {
        let us = self.side_to_move;
        let d = self.side(us) - self.side(us.flip());
        MgEg::new(d.mg, d.eg * self.eg_scale / 64)
    }

    /// The tapered score in centipawns from the side to move's point of view: what `evaluate`
    /// returns.
    pub fn total(&self) -> i32 {
        let s = self.relative();
        (s.mg * self.phase + s.eg * (self.span - self.phase)) / self.span + self.tempo
    }

    /// `total` from White's point of view.
    pub fn white_total(&self) -> i32 {
        match self.side_to_move {
            Color::White => self.total(),
            Color::Black => -self.total(),
        }
    }
}

/// Centipawns as pawns with two decimals.
/// Centipawns written as pawns with two decimals (`-1.05`), as Stockfish's `eval` prints them.
pub struct InPawns(pub i32);

impl fmt::Display for InPawns {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = format!("{}{}.{:02}", if self.0 < 0 { "-" } else { "" }, self.0.abs() / 100, self.0.abs() % 100);
        f.pad(&text)
    }
}

impl fmt::Display for EvalTrace {
    /// The terms for White, Black and White less Black, middlegame and endgame, in pawns; then the
    /// phase, the scale, the tempo and the total.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rule = " ------------+-------------+-------------+------------";
        writeln!(f, "     Term    |    White    |    Black    |    Total")?;
        writeln!(f, "             |   MG    EG  |   MG    EG  |   MG    EG")?;
        writeln!(f, "{rule}")?;
        let pair = |s: MgEg| format!("{:>5} {:>5}", InPawns(s.mg), InPawns(s.eg));
        for term in Term::ALL {
            let (w, b) = (self.term(term, Color::White), self.term(term, Color::Black));
            writeln!(f, " {:>11} | {} | {} | {}", term.name(), pair(w), pair(b), pair(w - b))?;
        }
        writeln!(f, "{rule}")?;
        let (w, b) = (self.side(Color::White), self.side(Color::Black));
        writeln!(f, " {:>11} | {} | {} | {}", "Total", pair(w), pair(b), pair(w - b))?;
        writeln!(f)?;
        let (phase, span) = (self.phase, self.span);
        writeln!(f, "Phase: middlegame weight {phase}/{span}, endgame weight {}/{span}", span - phase)?;
        if self.eg_scale != 64 {
            writeln!(f, "Endgame scaled by {}/64: no pawns for the stronger side and a small lead", self.eg_scale)?;
        }
        let side = if self.side_to_move == Color::White { "White" } else { "Black" };
        writeln!(f, "Tempo: {} for the side to move ({side})", InPawns(self.tempo))?;
        write!(f, "Total evaluation: {} (white side)", InPawns(self.white_total()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pawns_print_with_two_decimals_and_a_sign() {
        assert_eq!(InPawns(15).to_string(), "0.15");
        assert_eq!(InPawns(-7).to_string(), "-0.07");
        assert_eq!(InPawns(-1234).to_string(), "-12.34");
        assert_eq!(format!("{:>6}", InPawns(100)), "  1.00");
    }
}
