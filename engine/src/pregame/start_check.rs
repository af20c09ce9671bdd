//! Whether a FEN is a start position of a variant with per-side arrays (D-Chess, Chess-9): both
//! back ranks are arrays of the variant's start rule (D-Chess: a permutation of the back-rank
//! pieces with the bishops on opposite colours; Chess-9: one of its three arrays), the pawns
//! stand on their start ranks, nothing else is on the board, and the castling rights and en
//! passant square are the start's. Black may be to move only where the variant's first mover is
//! decided by a coin toss, which comes with the transposition rule.
//!
//! Owns: `check_start`, `CheckedStart`, `side_arrays`.
//! Must not know: search, protocols, variant names.

use super::PregameError;
use menagerie_rules::any::AnyPosition;
use menagerie_rules::geometry::Color;
use menagerie_rules::startpos::{rank_squares, scharnagl, side_to_move, start_fen, with_side_to_move};
use menagerie_rules::variant::{StartRule, TranspositionRule, Variant};

/// A FEN found to be a start position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckedStart {
    /// The FEN as the engine writes it.
    pub fen: String,
    /// Per-side array numbers in the variant's numbering (Chess-9: 0 = orthodox, 1 = king swap,
    /// 2 = queen swap; D-Chess: 0..2879).
    pub white_array: usize,
    pub black_array: usize,
    pub to_move: Color,
}

/// The arrays one side may start with, in the variant's numbering, as upper-case letters from
/// file a. Only start rules with independent per-side arrays have pre-game decisions.
pub fn side_arrays(v: &Variant) -> Result<Vec<String>, PregameError> {
    match &v.start {
        StartRule::Arrays(arrays) => Ok(arrays.clone()),
        StartRule::Shuffle960PerSide { tails } => Ok(tails
            .iter()
            .flat_map(|tail| (0..960u32).map(move |sp| scharnagl(sp, tail).iter().collect::<String>()))
            .collect()),
        _ => Err(PregameError::NotAStart(format!("{} has no per-side start arrays", v.name))),
    }
}

/// The back rank of `color` as upper-case letters from file a (spaces for empty squares).
fn back_rank(placement: &str, color: Color) -> String {
    let ranks: Vec<&str> = placement.split('/').collect();
    let text = match color {
        Color::White => ranks.last().copied().unwrap_or(""),
        Color::Black => ranks.first().copied().unwrap_or(""),
    };
    rank_squares(text).into_iter().collect()
}

/// Check that `fen` is a start position of `v` (see the module header).
pub fn check_start(v: &'static Variant, fen: &str) -> Result<CheckedStart, PregameError> {
    let position = AnyPosition::from_fen(v, fen).map_err(|e| PregameError::BadFen(format!("'{fen}': {e}")))?;
    let normalized = position.to_fen();
    let placement = normalized.split_whitespace().next().unwrap_or("");
    let to_move = side_to_move(&normalized);
    let arrays = side_arrays(v)?;
    let find = |color: Color| -> Result<usize, PregameError> {
        let rank = back_rank(placement, color);
        let upper = rank.to_ascii_uppercase();
        let right_case = match color {
            Color::White => rank.chars().all(|c| c.is_ascii_uppercase()),
            Color::Black => rank.chars().all(|c| c.is_ascii_lowercase()),
        };
        arrays.iter().position(|a| right_case && *a == upper).ok_or_else(|| {
            let shown = rank.replace(' ', ".");
            let what = match &v.start {
                StartRule::Arrays(list) => format!("one of {}", list.join(", ")),
                _ => "a start array (the back-rank pieces in any order, bishops on opposite colours)".to_string(),
            };
            PregameError::NotAStart(format!("{color}'s back rank '{shown}' is not {what} ({} in '{fen}')", v.name))
        })
    };
    let white_array = find(Color::White)?;
    let black_array = find(Color::Black)?;
    if to_move == Color::Black && v.transposition == TranspositionRule::None {
        return Err(PregameError::NotAStart(format!("in {} White moves first ('{fen}')", v.name)));
    }
    let index = (white_array * arrays.len() + black_array) as u64;
    let expected = start_fen(v, index)?;
    let expected = with_side_to_move(&expected, to_move);
    let expected_position = AnyPosition::from_fen(v, &expected)
        .map_err(|e| PregameError::NotAStart(format!("internal: start {expected} rejected: {e}")))?;
    if expected_position.hash() != position.hash() {
        let expected_placement = expected.split_whitespace().next().unwrap_or("");
        let reason = if expected_placement != placement {
            "pawns off their start ranks or pieces off the back ranks".to_string()
        } else {
            let rest: Vec<&str> = expected.split_whitespace().skip(2).take(2).collect();
            format!("castling rights and en passant must be '{}'", rest.join(" "))
        };
        return Err(PregameError::NotAStart(format!("'{fen}': {reason} (expected '{expected}')")));
    }
    Ok(CheckedStart { fen: normalized, white_array, black_array, to_move })
}
