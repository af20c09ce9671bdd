//! Opening books for external match tools (`cutechess-cli -openings file=F format=epd`): random
//! start positions of a variant that is orthodox chess but for its start (D-Chess, Chess-9),
//! written as EPD lines in the parent's terms: standard-chess FENs, or Chess960 FENs with
//! Shredder castling letters. Where the variant's first mover is settled by a toss (the
//! transposition rule's variants), either side may be to move.
//!
//! Owns: `write_book`, `shredder_castling`.
//! Must not know: engines, matches.

use super::client::{orthodox_parent, Parent};
use super::MatchError;
use menagerie_rules::any::AnyPosition;
use menagerie_rules::random::SplitMix64;
use menagerie_rules::startpos;
use menagerie_rules::variant::{TranspositionRule, Variant};
use std::io::Write;

/// The castling field of a FEN rewritten with rook files (`KQkq` -> `HAha`): `K` is the
/// outermost castling rook on the king's right, `Q` on its left.
pub fn shredder_castling(v: &Variant, fen: &str) -> Result<String, MatchError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let (Some(board), Some(rights)) = (fields.first(), fields.get(2)) else {
        return Err(MatchError::Config(format!("'{fen}' is not a FEN")));
    };
    let ranks: Vec<&str> = board.split('[').next().unwrap_or("").split('/').collect();
    let royal = v.pieces.iter().find(|p| p.royal).map(|p| p.letter).unwrap_or('K');
    let rook = |c: char| v.pieces.iter().any(|p| p.castling_rook && p.letter == c.to_ascii_uppercase());
    let mut out = String::new();
    for c in rights.chars() {
        let (upper, king_side) = match c {
            'K' => (true, true),
            'Q' => (true, false),
            'k' => (false, true),
            'q' => (false, false),
            '-' => continue,
            other => {
                out.push(other);
                continue;
            }
        };
        let row = if upper { ranks.last() } else { ranks.first() };
        let row = startpos::rank_squares(row.copied().unwrap_or(""));
        let own = |x: char| x != ' ' && x.is_ascii_uppercase() == upper;
        let Some(king) = row.iter().position(|&x| own(x) && x.to_ascii_uppercase() == royal) else {
            return Err(MatchError::Config(format!("no king on the back rank of '{fen}'")));
        };
        let file = if king_side {
            (king + 1..row.len()).rev().find(|&f| own(row[f]) && rook(row[f]))
        } else {
            (0..king).find(|&f| own(row[f]) && rook(row[f]))
        };
        let Some(file) = file else {
            return Err(MatchError::Config(format!("castling right '{c}' without a rook in '{fen}'")));
        };
        let letter = (b'a' + file as u8) as char;
        out.push(if upper { letter.to_ascii_uppercase() } else { letter });
    }
    if out.is_empty() {
        out.push('-');
    }
    Ok(out)
}

/// Write `count` random start positions of `v` as EPD lines.
pub fn write_book(v: &'static Variant, count: usize, seed: u64, out: &mut dyn Write) -> Result<(), MatchError> {
    let Some(parent) = orthodox_parent(v) else {
        return Err(MatchError::Config(format!(
            "{} cannot be played by standard-chess or Chess960 match tools; use 'menagerie match'",
            v.name
        )));
    };
    let mut rng = SplitMix64::new(seed);
    let total = v.start_count();
    for _ in 0..count {
        let fen = startpos::start_fen(v, rng.below(total)).map_err(|e| MatchError::Config(e.to_string()))?;
        let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
        if fields.len() < 4 {
            return Err(MatchError::Config(format!("internal: start '{fen}' is not a FEN")));
        }
        if v.transposition != TranspositionRule::None && rng.below(2) == 1 {
            fields[1] = "b".to_string();
        }
        if parent == Parent::Chess960 {
            fields[2] = shredder_castling(v, &fen)?;
        }
        let epd = fields[..4].join(" ");
        AnyPosition::from_fen(v, &format!("{epd} 0 1"))
            .map_err(|e| MatchError::Config(format!("internal: {epd} rejected: {e}")))?;
        writeln!(out, "{epd}").map_err(|e| MatchError::Io(e.to_string()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    #[test]
    fn chess9_books_use_rook_files() {
        let v = by_name("chess9").unwrap();
        let fen = "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1";
        assert_eq!(shredder_castling(v, fen).unwrap(), "HAha");
        let mut text = Vec::new();
        write_book(v, 30, 1, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(text.lines().count(), 30);
        assert!(text.lines().all(|l| l.ends_with(" w HAha -")), "{text}");
        assert!(text.lines().any(|l| l.ends_with("RNKQBBNR w HAha -")), "relocated arrays appear");
    }

    #[test]
    fn dchess_books_have_either_side_to_move() {
        let v = by_name("dchess").unwrap();
        let mut text = Vec::new();
        write_book(v, 40, 9, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(text.lines().any(|l| l.ends_with(" b - -")) && text.lines().any(|l| l.ends_with(" w - -")));
        let lines: std::collections::HashSet<_> = text.lines().collect();
        assert!(lines.len() > 35, "random arrays");
        assert!(write_book(by_name("rvc").unwrap(), 1, 0, &mut Vec::new()).is_err());
    }
}
