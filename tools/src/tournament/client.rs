//! The protocol-neutral face of an engine to the referee (`Client`), what it answers on its turn
//! (`Answer`), the move-text convention each engine is spoken to in (`MoveStyle`), and how a
//! variant is presented to an engine that does not know it by name (`Presentation`).
//!
//! Owns: `Client`, `Turn`, `Answer`, `Reply`, `Score`, `MoveStyle`, `render_move`, `Presentation`.
//! Must not know: UCI or XBoard text (the clients), scheduling, PGN.

use super::engine_process::EngineError;
use super::TimeControl;
use menagerie_rules::any::AnyPosition;
use menagerie_rules::geometry::Color;
use menagerie_rules::moves::MoveKind;
use menagerie_rules::notation::MoveParseError;
use menagerie_rules::variant::{by_name, CastlingRule, Variant};
use menagerie_rules::with_position;
use std::time::Instant;

/// An engine's evaluation from its own point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    /// Mate in N moves (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Centipawns, with mates as large values (for adjudication).
    pub fn as_cp(self) -> i32 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m > 0 => 100_000 - m,
            Score::Mate(m) => -100_000 - m,
        }
    }

    /// PGN comment form: `+0.35`, `-M3`.
    pub fn pgn(self) -> String {
        match self {
            Score::Cp(c) => format!("{}{:.2}", if c >= 0 { "+" } else { "-" }, c.abs() as f64 / 100.0),
            Score::Mate(m) => format!("{}M{}", if m >= 0 { "+" } else { "-" }, m.abs()),
        }
    }
}

/// What an engine does on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move, in the engine's text.
    Move(String),
    /// A null move or "no legal move" (`0000`, `(none)`, `@@@@`).
    NoMove,
    Resign,
    /// A result claim (`1-0`, `0-1`, `1/2-1/2`) with the engine's reason.
    Claim {
        result: String,
        reason: String,
    },
}

/// An answer with the last reported search figures.
#[derive(Clone, Debug)]
pub struct Answer {
    pub reply: Reply,
    pub score: Option<Score>,
    pub depth: Option<u32>,
}

/// What an engine needs to know on its turn. `moves` are in the engine's own `MoveStyle`.
pub struct Turn<'a> {
    pub start_fen: &'a str,
    pub moves: &'a [String],
    pub color: Color,
    pub white_ms: u64,
    pub black_ms: u64,
    pub tc: &'a TimeControl,
    pub deadline: Instant,
}

/// How moves are written to an engine. Replies are read in any form (`parse_move` accepts
/// king-takes-rook, the king's destination, `O-O` and the two-leg form).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveStyle {
    /// Coordinates; castling as the king's destination unless that reads as a king step.
    Coordinates,
    /// Coordinates; castling as king-takes-own-rook (UCI_Chess960).
    KingTakesRook,
    /// XBoard: fixed castling as `O-O`/`O-O-O`, a one-step free castling as two legs.
    Xboard,
}

/// Write a legal move (any accepted text) in a style, for the position before it. Besides what
/// `parse_move` reads, a castling in which the king stays put may come as the king's
/// "destination", its own square (`c8c8`, Sjaak II's Chess-9 O-O-O from c8), when that names
/// exactly one castling.
pub fn render_move(pos: &AnyPosition, text: &str, style: MoveStyle) -> Result<String, MoveParseError> {
    with_position!(pos, p => {
        let g = p.rules().geometry;
        let m = match p.parse_move(text) {
            Ok(m) => m,
            Err(e) => {
                let t = text.trim();
                let square = g.parse_square_prefix(t).and_then(|(a, n)| (g.parse_square(&t[n..]) == Some(a)).then_some(a));
                let stays: Vec<_> = p
                    .legal_moves()
                    .iter()
                    .copied()
                    .filter(|m| m.kind() == MoveKind::Castle && Some(m.from()) == square && m.to() == m.from())
                    .collect();
                match stays.as_slice() {
                    [m] => *m,
                    _ => return Err(e),
                }
            }
        };
        Ok(match (style, m.kind()) {
            (MoveStyle::KingTakesRook, _) => p.move_to_uci(m, true),
            (MoveStyle::Xboard, MoveKind::Castle) => match p.rules().variant.castling {
                CastlingRule::Free { .. } if (g.file(m.to()) - g.file(m.from())).abs() <= 1 => {
                    let rook_to = p.castling_rook_target(m.from(), m.to(), m.rook());
                    format!(
                        "{}{},{}{}",
                        g.square_name(m.from()),
                        g.square_name(m.to()),
                        g.square_name(m.rook()),
                        g.square_name(rook_to)
                    )
                }
                CastlingRule::Fixed { .. } => {
                    if g.file(m.rook()) > g.file(m.from()) { "O-O".to_string() } else { "O-O-O".to_string() }
                }
                _ => p.move_to_uci(m, false),
            },
            _ => p.move_to_uci(m, false),
        })
    })
}

/// How a variant is presented to an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Presentation {
    /// The protocol's variant name (`None`: the protocol's default, orthodox chess).
    pub name: Option<String>,
    /// Chess960 mode (UCI_Chess960 / `fischerandom`).
    pub chess960: bool,
    pub style: MoveStyle,
}

/// The orthodox rule set a variant can be played as by an engine that does not know it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Parent {
    /// Standard chess (from a FEN).
    Standard,
    /// Standard chess without castling (XBoard `nocastle`; elsewhere a FEN without rights).
    NoCastling,
    /// Chess960 castling from shuffled arrays.
    Chess960,
}

/// Whether a variant is orthodox chess but for its start position (and possibly no castling),
/// and then which orthodox rule set plays it. Decided from the variant's data.
pub fn orthodox_parent(v: &Variant) -> Option<Parent> {
    let chess = by_name("chess").ok()?;
    let same_pieces = v.pieces.len() == chess.pieces.len()
        && v.pieces
            .iter()
            .zip(&chess.pieces)
            .all(|(a, b)| a.letter == b.letter && a.betza == b.betza && a.royal == b.royal && a.pawn == b.pawn);
    let same_rules = v.geometry == chess.geometry
        && same_pieces
        && v.promotion == chess.promotion
        && v.promotion_if_absent.is_empty()
        && !v.promotion_once
        && !v.drops
        && v.stalemate == chess.stalemate
        && !v.castling_between_safe;
    if !same_rules {
        return None;
    }
    match v.castling {
        CastlingRule::None => Some(Parent::NoCastling),
        c if c == chess.castling && v.start_count() > 1 => Some(Parent::Chess960),
        c if c == chess.castling => Some(Parent::Standard),
        _ => None,
    }
}

/// The engine side of one game.
pub trait Client: Send {
    fn name(&self) -> &str;
    /// Start the process and shake hands, unless it is running.
    fn ensure_started(&mut self) -> Result<(), EngineError>;
    /// Prepare a new game; returns the move style the engine is spoken to in.
    fn new_game(
        &mut self,
        variant: &'static Variant,
        start_fen: &str,
        tc: &TimeControl,
    ) -> Result<MoveStyle, EngineError>;
    /// Send a pre-game command; returns the words after `pregame` of the engine's answer.
    fn pregame(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError>;
    /// The engine's turn.
    fn think(&mut self, turn: &Turn) -> Result<Answer, EngineError>;
    /// The game ended (result and reason, PGN style).
    fn game_over(&mut self, result: &str, reason: &str);
    /// Kill the process (it is started again by `ensure_started`).
    fn kill(&mut self);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_orthodox_rule_sets_have_an_orthodox_parent() {
        let parent = |n: &str| orthodox_parent(by_name(n).unwrap());
        assert_eq!(parent("chess"), Some(Parent::Standard));
        assert_eq!(parent("dchess"), Some(Parent::NoCastling), "standard chess from a FEN, no castling");
        assert_eq!(parent("chess9"), Some(Parent::Chess960), "Chess960 castling");
        assert_eq!(parent("chess960"), Some(Parent::Chess960));
        assert_eq!(parent("chess9+strict-castling"), None);
        assert_eq!(parent("vdchess"), None);
        assert_eq!(parent("displacement"), None);
        assert_eq!(parent("rvc"), None);
    }

    #[test]
    fn castling_is_rendered_per_style() {
        let v = by_name("chess9").unwrap();
        let pos = AnyPosition::from_fen(v, "r1k4r/8/8/8/8/8/8/R1K4R w KQkq - 0 1").unwrap();
        assert_eq!(render_move(&pos, "c1g1", MoveStyle::KingTakesRook).unwrap(), "c1h1");
        assert_eq!(render_move(&pos, "c1h1", MoveStyle::Coordinates).unwrap(), "c1g1");
        assert_eq!(render_move(&pos, "c1a1", MoveStyle::Coordinates).unwrap(), "c1a1");
        assert_eq!(render_move(&pos, "c1a1", MoveStyle::Xboard).unwrap(), "O-O-O");
        assert_eq!(render_move(&pos, "O-O", MoveStyle::Xboard).unwrap(), "O-O");
        assert_eq!(render_move(&pos, "c1c1", MoveStyle::Coordinates).unwrap(), "c1a1", "the king stays: O-O-O");
        assert!(render_move(&pos, "b1b1", MoveStyle::Coordinates).is_err());
        let d = by_name("displacement").unwrap();
        let pos = AnyPosition::from_fen(d, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        assert_eq!(render_move(&pos, "e1h1", MoveStyle::Xboard).unwrap(), "e1f1,h1e1");
        assert_eq!(render_move(&pos, "e1g1", MoveStyle::Xboard).unwrap(), "e1g1");
        assert!(render_move(&pos, "e1e3", MoveStyle::Xboard).is_err());
        assert_eq!(Score::Cp(-35).pgn(), "-0.35");
        assert_eq!(Score::Mate(3).pgn(), "+M3");
    }
}
