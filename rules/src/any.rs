//! `AnyPosition`: a position of any variant with its bitboard width chosen at load time (`u64`
//! for boards of at most 64 squares, `u128` above), so that the layers above the rules core stay
//! free of type parameters.
//!
//! Owns: width dispatch.
//! Must not know: protocols, search internals.

use crate::notation::MoveParseError;
use crate::perft;
use crate::position::{FenError, Position};
use crate::rules::compiled;
use crate::variant::Variant;

/// A position of either width. (Both variants are large; positions are copied on purpose, and
/// boxing would cost an allocation per copy.)
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
pub enum AnyPosition {
    Narrow(Position<u64>),
    Wide(Position<u128>),
}

/// Run `$e` with `$p` bound to the inner position, whatever its width.
#[macro_export]
macro_rules! with_position {
    ($any:expr, $p:ident => $e:expr) => {
        match $any {
            $crate::any::AnyPosition::Narrow($p) => $e,
            $crate::any::AnyPosition::Wide($p) => $e,
        }
    };
}

impl AnyPosition {
    /// Read a FEN for a variant, choosing the narrowest bitboard that fits.
    pub fn from_fen(variant: &'static Variant, fen: &str) -> Result<AnyPosition, FenError> {
        Self::from_fen_width(variant, fen, variant.geometry.squares() > 64)
    }

    /// Read a FEN with an explicit width (`wide` = `u128`), e.g. to cross-check the two.
    pub fn from_fen_width(variant: &'static Variant, fen: &str, wide: bool) -> Result<AnyPosition, FenError> {
        Ok(if wide {
            AnyPosition::Wide(Position::from_fen(compiled::<u128>(variant), fen)?)
        } else {
            AnyPosition::Narrow(Position::from_fen(compiled::<u64>(variant), fen)?)
        })
    }

    /// The variant.
    pub fn variant(&self) -> &'static Variant {
        with_position!(self, p => p.rules().variant)
    }

    pub fn to_fen(&self) -> String {
        with_position!(self, p => p.to_fen())
    }

    pub fn hash(&self) -> u64 {
        with_position!(self, p => p.hash())
    }

    /// Perft to `depth`.
    pub fn perft(&self, depth: u32) -> u64 {
        with_position!(self, p => perft::perft(p, depth))
    }

    /// Perft per root move, with the moves in coordinate notation.
    pub fn divide(&self, depth: u32, chess960: bool, progress: impl FnMut(usize, usize)) -> Vec<(String, u64)> {
        with_position!(self, p => perft::divide(p, depth, progress)
            .into_iter()
            .map(|(m, n)| (p.move_to_uci(m, chess960), n))
            .collect())
    }

    /// Legal moves in coordinate notation.
    pub fn legal_moves_uci(&self, chess960: bool) -> Vec<String> {
        with_position!(self, p => p.legal_moves().iter().map(|&m| p.move_to_uci(m, chess960)).collect())
    }

    /// Legal moves in SAN.
    pub fn legal_moves_san(&self) -> Vec<String> {
        with_position!(self, p => p.legal_moves().iter().map(|&m| p.move_to_san(m)).collect())
    }

    /// Play a move given in coordinate notation; the position is unchanged on error.
    pub fn play_text(&mut self, text: &str) -> Result<(), MoveParseError> {
        with_position!(self, p => {
            let m = p.parse_move(text)?;
            p.play(m);
            Ok(())
        })
    }

    /// SAN of a move given in coordinate notation.
    pub fn san_of(&self, text: &str) -> Result<String, MoveParseError> {
        with_position!(self, p => p.parse_move(text).map(|m| p.move_to_san(m)))
    }

    pub fn in_check(&self) -> bool {
        with_position!(self, p => p.in_check())
    }
}
