//! A game: the start position, the moves played and the history of positions, with the end of
//! the game by the variant's rules (checkmate, stalemate as the variant values it, the 50-move
//! rule, threefold repetition with hands counted, bare kings).
//!
//! Owns: `Game`, `Outcome` and the one description of a game's end by the rules (its PGN result,
//! White's score, the PGN termination and the reason in words), which the referee's records and
//! the XBoard result line both print.
//! Must not know: protocols, search, the endings that are not the rules' (forfeits, adjudication).

use crate::any::AnyPosition;
use crate::bitboard::BitSet;
use crate::geometry::Color;
use crate::notation::MoveParseError;
use crate::position::FenError;
use crate::variant::{StalemateRule, Variant};
use crate::with_position;
use std::fmt;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Checkmate {
        winner: Color,
    },
    /// The side to move has no legal move and is not in check. `stalemater` made the last move.
    Stalemate {
        stalemater: Color,
        rule: StalemateRule,
    },
    FiftyMoves,
    Repetition,
    /// Nothing but the two kings is left (no hands either).
    BareKings,
}

impl Outcome {
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2` (a stalemate that scores 3/5 is still written as
    /// a draw: PGN has no other result; `white_score` carries the 3/5).
    pub fn result(self) -> &'static str {
        match self {
            Outcome::Checkmate { winner: Color::White } => "1-0",
            Outcome::Checkmate { winner: Color::Black } => "0-1",
            _ => "1/2-1/2",
        }
    }

    /// White's score: 1, 0, 0.5, or 0.6/0.4 for a stalemate that scores 3/5.
    pub fn white_score(self) -> f64 {
        match self {
            Outcome::Checkmate { winner: Color::White } => 1.0,
            Outcome::Checkmate { winner: Color::Black } => 0.0,
            Outcome::Stalemate { stalemater, rule: StalemateRule::WinForStalemater { .. } } => {
                if stalemater == Color::White {
                    0.6
                } else {
                    0.4
                }
            }
            _ => 0.5,
        }
    }

    /// The PGN `Termination` words: `checkmate`, `stalemate`, `stalemate: 3/5 to White`,
    /// `fifty-move rule`, `threefold repetition`, `insufficient material`.
    pub fn termination(self) -> String {
        self.words().0
    }

    /// The reason in words, as a GUI shows it: `White mates`, `Stalemate: 3/5 to Black`,
    /// `Draw by repetition` ...
    pub fn reason(self) -> String {
        self.words().1
    }

    /// The termination and the reason, side by side so that they cannot drift apart.
    fn words(self) -> (String, String) {
        let pair = |termination: &str, reason: &str| (termination.to_string(), reason.to_string());
        match self {
            Outcome::Checkmate { winner } => pair("checkmate", &format!("{} mates", side_name(winner))),
            Outcome::Stalemate { stalemater, rule: StalemateRule::WinForStalemater { .. } } => {
                let who = side_name(stalemater);
                pair(&format!("stalemate: 3/5 to {who}"), &format!("Stalemate: 3/5 to {who}"))
            }
            Outcome::Stalemate { .. } => pair("stalemate", "Stalemate"),
            Outcome::FiftyMoves => pair("fifty-move rule", "Draw by fifty-move rule"),
            Outcome::Repetition => pair("threefold repetition", "Draw by repetition"),
            Outcome::BareKings => pair("insufficient material", "Insufficient material"),
        }
    }
}

/// A colour as the result texts write it: `White`, `Black`.
pub fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// The result and its reason, `1-0 {White mates}`: the form of a PGN game end and of a CECP result.
impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{{}}}", self.result(), self.reason())
    }
}

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    start: AnyPosition,
    position: AnyPosition,
    /// Hashes of every position so far, the current one last.
    history: Vec<u64>,
    moves: Vec<String>,
}

impl Game {
    /// A game from a start FEN.
    pub fn new(variant: &'static Variant, fen: &str) -> Result<Game, FenError> {
        let start = AnyPosition::from_fen(variant, fen)?;
        Ok(Game { position: start.clone(), history: vec![start.hash()], start, moves: Vec::new() })
    }

    /// The current position.
    pub fn position(&self) -> &AnyPosition {
        &self.position
    }

    /// The start position.
    pub fn start(&self) -> &AnyPosition {
        &self.start
    }

    /// The moves played, in coordinate notation as given.
    pub fn moves(&self) -> &[String] {
        &self.moves
    }

    /// Play a move in coordinate notation; on error nothing changes.
    pub fn play(&mut self, text: &str) -> Result<(), MoveParseError> {
        self.position.play_text(text)?;
        self.history.push(self.position.hash());
        self.moves.push(text.trim().to_string());
        Ok(())
    }

    /// How often the current position has occurred (hands and rights included).
    pub fn repetitions(&self) -> usize {
        let h = self.position.hash();
        self.history.iter().filter(|&&x| x == h).count()
    }

    /// The result, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let (has_move, in_check, side, halfmove, bare) = with_position!(&self.position, p => {
            let bare = p.occupied().count() == 2 && !p.has_hand(Color::White) && !p.has_hand(Color::Black);
            (p.has_legal_move(), p.in_check(), p.side_to_move(), p.halfmove_clock(), bare)
        });
        if !has_move {
            return Some(if in_check {
                Outcome::Checkmate { winner: side.flip() }
            } else {
                Outcome::Stalemate { stalemater: side.flip(), rule: self.position.variant().stalemate }
            });
        }
        if halfmove >= 100 {
            return Some(Outcome::FiftyMoves);
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::Repetition);
        }
        if bare {
            return Some(Outcome::BareKings);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::by_name;

    fn game(variant: &str, fen: &str, moves: &[&str]) -> Game {
        let mut g = Game::new(by_name(variant).unwrap(), fen).unwrap();
        for m in moves {
            g.play(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        g
    }

    #[test]
    fn checkmate_and_stalemate() {
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let g = game("chess", start, &["f2f3", "e7e5", "g2g4", "d8h4"]);
        assert_eq!(g.outcome(), Some(Outcome::Checkmate { winner: Color::Black }));
        let g = game("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", &[]);
        assert_eq!(g.outcome(), Some(Outcome::Stalemate { stalemater: Color::White, rule: StalemateRule::Draw }));
        assert_eq!(g.outcome().map(|o| o.white_score()), Some(0.5));
    }

    #[test]
    fn drop_mate_in_vd_chess() {
        // Black's king is boxed in; White drops the chancellor with mate.
        let g = game("vdchess", "6rk/6pp/8/8/8/8/8/K7[C] w - - 0 1", &["C@f7"]);
        assert_eq!(g.outcome(), Some(Outcome::Checkmate { winner: Color::White }));
    }

    #[test]
    fn fifty_moves_and_repetition() {
        let g = game("chess", "4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", &["a1a2"]);
        assert_eq!(g.outcome(), Some(Outcome::FiftyMoves));
        let g = game("chess", "4k3/8/8/8/8/8/4P3/R3K3 w - - 98 80", &["e2e4"]);
        assert_eq!(g.outcome(), None, "a pawn move resets the clock");
        let shuffle = ["a1a2", "e8d8", "a2a1", "d8e8"];
        let mut moves = Vec::new();
        moves.extend_from_slice(&shuffle);
        let g = game("chess", "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1", &moves);
        assert_eq!(g.repetitions(), 2);
        assert_eq!(g.outcome(), None);
        moves.extend_from_slice(&shuffle);
        let g = game("chess", "4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1", &moves);
        assert_eq!(g.outcome(), Some(Outcome::Repetition));
    }

    #[test]
    fn hands_are_part_of_a_repeated_position() {
        // The same board with a different hand is a different position.
        let v = by_name("vdchess").unwrap();
        let a = AnyPosition::from_fen(v, "4k3/8/8/8/8/8/8/4K3[C] w - - 0 1").unwrap();
        let b = AnyPosition::from_fen(v, "4k3/8/8/8/8/8/8/4K3[-] w - - 0 1").unwrap();
        assert_ne!(a.hash(), b.hash());
        assert!(with_position!(&b, p => p.occupied().count() == 2));
        let g = Game::new(v, "4k3/8/8/8/8/8/8/4K3[-] w - - 0 1").unwrap();
        assert_eq!(g.outcome(), Some(Outcome::BareKings));
        let g = Game::new(v, "4k3/8/8/8/8/8/8/4K3[C] w - - 0 1").unwrap();
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn promotion_rules_of_random_variant_chess() {
        let fen = "r5k5/1P10/12/12/12/12/10p1/6K4C w - - 0 1";
        let count = |variant: &str, moves: &[&str]| {
            let g = game(variant, fen, moves);
            g.position().legal_moves_uci(false).iter().filter(|m| m.len() == 5).count()
        };
        // Standard rule: the types of the initial array (here the FEN: rook and camel).
        assert_eq!(count("rvc", &[]), 4);
        // Rule B: Q R B N Camel Giraffe.
        assert_eq!(count("rvc+promotion-b", &[]), 12);
        // Rule A: the 22 pool types absent from the array, each once by either side.
        assert_eq!(count("rvc+promotion-a", &[]), 44);
        let g = game("rvc+promotion-a", fen, &["b7b8g"]);
        assert!(!g.position().legal_moves_uci(false).iter().any(|m| m == "k2k1g"), "the giraffe is spent");
        assert!(
            g.position().legal_moves_uci(false).iter().any(|m| m == "k2k1z"),
            "{:?}",
            g.position().legal_moves_uci(false)
        );
        assert!(with_position!(g.position(), p => p.hash() == p.hash_from_scratch()));
    }

    #[test]
    fn every_ending_has_one_result_text() {
        let three_fifths = StalemateRule::WinForStalemater { score_cp: 70 };
        let cases = [
            (Outcome::Checkmate { winner: Color::White }, "1-0 {White mates}", "checkmate", 1.0),
            (Outcome::Checkmate { winner: Color::Black }, "0-1 {Black mates}", "checkmate", 0.0),
            (
                Outcome::Stalemate { stalemater: Color::White, rule: three_fifths },
                "1/2-1/2 {Stalemate: 3/5 to White}",
                "stalemate: 3/5 to White",
                0.6,
            ),
            (
                Outcome::Stalemate { stalemater: Color::Black, rule: StalemateRule::Draw },
                "1/2-1/2 {Stalemate}",
                "stalemate",
                0.5,
            ),
            (Outcome::FiftyMoves, "1/2-1/2 {Draw by fifty-move rule}", "fifty-move rule", 0.5),
            (Outcome::Repetition, "1/2-1/2 {Draw by repetition}", "threefold repetition", 0.5),
            (Outcome::BareKings, "1/2-1/2 {Insufficient material}", "insufficient material", 0.5),
        ];
        for (o, line, termination, white_score) in cases {
            assert_eq!(o.to_string(), line);
            assert_eq!(format!("{} {{{}}}", o.result(), o.reason()), line);
            assert_eq!((o.termination().as_str(), o.white_score()), (termination, white_score));
        }
    }

    #[test]
    fn a_bad_move_changes_nothing() {
        let mut g = game("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &["e2e4"]);
        let before = g.position().to_fen();
        assert!(g.play("e7e4").is_err());
        assert!(g.play("nonsense").is_err());
        assert_eq!(g.position().to_fen(), before);
        assert_eq!(g.moves().len(), 1);
    }
}
