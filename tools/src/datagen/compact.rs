//! The compact form of a game's moves and scores: each move as its index among the position's
//! legal moves in the order of their coordinate text, each score as the difference from the
//! negation of the score before it (the side to move alternates, and a search's scores of
//! consecutive positions are close), both as variable-length integers. About two bytes a
//! position where the plain form takes seven; reading it back needs the rules, which replay
//! the game.
//!
//! ```text
//! moves = (INDEX(varint) SCORE(varint))*
//! SCORE = 0 for NO_SCORE, else zigzag(score - prediction) + 1,
//!         prediction = -(the previous score), or 0 where there is none
//! ```
//!
//! Owns: encoding and decoding the compact moves.
//! Must not know: the record's framing, the search, the network.

use super::format::NO_SCORE;
use menagerie_rules::any::AnyPosition;
use menagerie_rules::variant::by_name;

/// The position's legal moves as datagen writes them (king-takes-rook castling), sorted, or
/// `None` when two would be written alike (then an index names no single move).
fn ordered_moves(pos: &AnyPosition) -> Option<Vec<String>> {
    let mut moves = pos.legal_moves_uci(true);
    moves.sort_unstable();
    moves.windows(2).all(|w| w[0] != w[1]).then_some(moves)
}

fn push_varint(out: &mut Vec<u8>, mut value: u32) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn read_varint(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut value = 0u32;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(*at)?;
        *at += 1;
        value |= u32::from(byte & 0x7f).checked_shl(shift)?;
        if byte & 0x80 == 0 {
            return Some(value);
        }
    }
    None
}

fn score_code(score: i16, previous: Option<i16>) -> u32 {
    if score == NO_SCORE {
        return 0;
    }
    let prediction = previous.map_or(0, |p| -i32::from(p));
    let delta = i32::from(score) - prediction;
    (((delta << 1) ^ (delta >> 31)) as u32) + 1
}

fn score_of(code: u32, previous: Option<i16>) -> Option<i16> {
    if code == 0 {
        return Some(NO_SCORE);
    }
    let zigzag = code - 1;
    let delta = (zigzag >> 1) as i32 ^ -((zigzag & 1) as i32);
    let score = i16::try_from(previous.map_or(0, |p| -i32::from(p)) + delta).ok()?;
    (score != NO_SCORE).then_some(score)
}

/// The compact bytes of a game of `variant` from `fen`, or `None` where it cannot be written
/// so (a variant this engine does not know, a move that is not legal or not written as
/// datagen writes it): such a game keeps the plain form.
pub fn encode(variant: &str, fen: &str, moves: &[(String, i16)]) -> Option<Vec<u8>> {
    let mut pos = AnyPosition::from_fen(by_name(variant).ok()?, fen).ok()?;
    let mut out = Vec::with_capacity(2 * moves.len());
    let mut previous = None;
    for (text, score) in moves {
        let index = ordered_moves(&pos)?.binary_search(text).ok()?;
        push_varint(&mut out, index as u32);
        push_varint(&mut out, score_code(*score, previous));
        previous = (*score != NO_SCORE).then_some(*score);
        pos.play_text(text).ok()?;
    }
    Some(out)
}

/// The `count` moves and scores of `bytes` (all of them), replayed from `fen` in `variant`.
pub fn decode(variant: &str, fen: &str, bytes: &[u8], count: usize) -> Option<Vec<(String, i16)>> {
    let mut pos = AnyPosition::from_fen(by_name(variant).ok()?, fen).ok()?;
    let mut moves = Vec::with_capacity(count);
    let (mut at, mut previous) = (0usize, None);
    for _ in 0..count {
        let index = read_varint(bytes, &mut at)? as usize;
        let score = score_of(read_varint(bytes, &mut at)?, previous)?;
        let text = ordered_moves(&pos)?.get(index)?.clone();
        pos.play_text(&text).ok()?;
        previous = (score != NO_SCORE).then_some(score);
        moves.push((text, score));
    }
    (at == bytes.len()).then_some(moves)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_round_trip_at_their_extremes_and_after_gaps() {
        let scores = [0, 35, -40, NO_SCORE, 32000, -32000, i16::MAX, i16::MIN + 1, NO_SCORE, NO_SCORE, 7];
        let mut previous = None;
        for s in scores {
            let code = score_code(s, previous);
            assert_eq!(score_of(code, previous), Some(s), "{s} after {previous:?}");
            previous = (s != NO_SCORE).then_some(s);
        }
        // Close scores of alternating sides cost one byte.
        let mut bytes = Vec::new();
        push_varint(&mut bytes, score_code(-30, Some(25)));
        assert_eq!(bytes.len(), 1);
    }

    #[test]
    fn varints_round_trip_and_a_runaway_one_is_refused() {
        let mut bytes = Vec::new();
        for v in [0, 1, 127, 128, 300, 65535, u32::MAX] {
            push_varint(&mut bytes, v);
        }
        let mut at = 0;
        for v in [0, 1, 127, 128, 300, 65535, u32::MAX] {
            assert_eq!(read_varint(&bytes, &mut at), Some(v));
        }
        assert_eq!(at, bytes.len());
        assert_eq!(read_varint(&[0xff; 6], &mut 0), None);
    }

    #[test]
    fn a_game_that_is_not_replayable_keeps_the_plain_form() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let legal = vec![("e2e4".to_string(), 20), ("e7e5".to_string(), -15), ("e1g1".to_string(), 10)];
        assert!(encode("chess", fen, &legal[..2]).is_some());
        assert_eq!(encode("chess", fen, &legal), None, "castling through pieces");
        assert_eq!(encode("no-such-variant", fen, &legal[..2]), None);
    }
}
