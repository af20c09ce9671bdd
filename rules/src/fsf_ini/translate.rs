//! A Fairy-Stockfish variant, once built, written as a section of Menagerie's own variant file:
//! the pieces the game can ever hold, the pawn rules, castling, drops and the start position. A
//! rule Menagerie would play differently (a promotion zone other than the last rank, double
//! steps from more than one rank, ...) refuses the section here.
//!
//! Owns: `to_menagerie_section`.
//! Must not know: the registry, positions.

use super::ini::IniSection;
use super::model::{board_region, rank_region, FsfVariant, PieceSet};
use super::pieces::{self, KING, PAWN, TYPES};
use super::Refusal;
use std::fmt::Write;

/// The start FEN in the form Menagerie reads, and the piece types it holds.
struct StartFen {
    fen: String,
    types: PieceSet,
}

/// Menagerie's section text for `v`, named as the section `s`.
pub fn to_menagerie_section(s: &IniSection, v: &FsfVariant) -> Result<String, Refusal> {
    let refuse = |key: &str, reason: String| Refusal {
        variant: s.name.clone(),
        line: s.keys.get(key).map_or(s.line, |(l, _)| *l),
        key: Some(key.to_string()),
        reason,
    };
    let board = board_region(v.files, v.ranks);
    let start = start_fen(v).map_err(|why| refuse("startFen", why))?;
    if v.letters[KING].is_none() {
        return Err(refuse("king", "a variant without a king is not supported".into()));
    }
    let king = 1 << KING;
    if v.promotion_pieces[0] != v.promotion_pieces[1] {
        return Err(refuse("promotionPieceTypesWhite", "different promotion pieces per side are not supported".into()));
    }
    let pawns = start.types & (1 << PAWN) != 0;
    let promotion = if pawns { v.promotion_pieces[0] } else { 0 };
    if promotion & (king | 1 << PAWN) != 0 {
        return Err(refuse("promotionPieceTypes", "promotion to a king or a pawn is not supported".into()));
    }
    let used = start.types | promotion | king;

    // Pawn rules: only Fairy-Stockfish's pawn type is a pawn, and it is one in every respect.
    for (key, sets) in [
        ("promotionPawnTypes", v.promotion_pawn_types),
        ("enPassantTypes", v.en_passant_types),
        ("nMoveRuleTypes", v.n_move_rule_types),
    ] {
        for set in sets {
            if set & used != used & (1 << PAWN) {
                return Err(refuse(key, "pawn rules for pieces other than the pawn are not supported".into()));
            }
        }
    }
    let mut double_step = "none".to_string();
    if pawns {
        let last = [rank_region(v.ranks - 1), rank_region(0)];
        for c in 0..2 {
            if v.promotion_region[c] & board != last[c] & board {
                let key = ["promotionRegionWhite", "promotionRegionBlack"][c];
                return Err(refuse(key, "a promotion zone other than the last rank is not supported".into()));
            }
            if v.triple_step_region[c] & board != 0 {
                let key = ["tripleStepRegionWhite", "tripleStepRegionBlack"][c];
                return Err(refuse(key, "triple steps are not supported".into()));
            }
            if v.en_passant_region[c] & board != board {
                let key = ["enPassantRegionWhite", "enPassantRegionBlack"][c];
                return Err(refuse(key, "en passant restricted to some squares is not supported".into()));
            }
        }
        if promotion == 0 {
            return Err(refuse("promotionPieceTypes", "pawns without promotion pieces are not supported".into()));
        }
        let regions = if v.double_step { v.double_step_region.map(|r| r & board) } else { [0, 0] };
        if regions != [0, 0] {
            let rank = (0..v.ranks).find(|&r| regions[0] == rank_region(r) & board);
            match rank {
                Some(r) if regions[1] == rank_region(v.relative(1, r)) & board && r + 3 < v.ranks => {
                    double_step = r.to_string();
                }
                _ => {
                    return Err(refuse(
                        "doubleStepRegionWhite",
                        "double steps from other than one rank, the same for both sides, short of the promotion \
                         rank, are not supported"
                            .into(),
                    ))
                }
            }
        }
    }

    // Castling.
    let rooks = v.castling_rook_pieces[0] & used;
    let castles = v.castling && start.fen.split(' ').nth(2) != Some("-");
    let castling = if !castles || rooks == 0 {
        "none".to_string()
    } else {
        if v.castling_rook_pieces[0] != v.castling_rook_pieces[1] {
            return Err(refuse("castlingRookPieces", "different castling pieces per side are not supported".into()));
        }
        if v.castling_king_piece != [KING, KING] {
            return Err(refuse(
                "castlingKingPiece",
                "castling with a piece other than the king is not supported".into(),
            ));
        }
        let (q, k) = (v.castling_queenside_file, v.castling_kingside_file);
        if q == 0 || q + 1 >= v.files || k == 0 || k >= v.files || q >= k {
            return Err(refuse("castlingKingsideFile", "castling files outside the board".into()));
        }
        let f = |x: u8| (b'a' + x) as char;
        format!("fixed {} {} {} {}", f(q), f(q + 1), f(k), f(k - 1))
    };
    let fen = if castling == "none" {
        let mut fields: Vec<&str> = start.fen.split(' ').collect();
        fields[2] = "-";
        fields.join(" ")
    } else {
        start.fen.clone()
    };

    // Drops.
    let hand = fen.split(' ').next().is_some_and(|b| b.contains('[') && !b.ends_with("[]"));
    if v.piece_drops {
        if v.drop_region.iter().any(|r| r & board != board) {
            return Err(refuse("dropRegionWhite", "drops restricted to some squares are not supported".into()));
        }
    } else if hand {
        return Err(refuse("startFen", "pieces in hand without drops are not supported".into()));
    }

    let mut text = String::new();
    let _ = writeln!(text, "[{}]", s.name);
    let _ = writeln!(text, "board = {}x{}", v.files, v.ranks);
    for t in (0..TYPES).filter(|t| used & (1 << t) != 0) {
        let letter = v.letters[t]
            .map(|c| c.to_ascii_uppercase())
            .ok_or_else(|| refuse("startFen", "a piece without a letter".into()))?;
        let key = pieces::key_of(t);
        if let Some((_, why)) = pieces::SPECIAL_RULES.iter().find(|(special, _)| *special == t) {
            return Err(Refusal {
                variant: s.name.clone(),
                line: v.key_lines[t].unwrap_or(s.line),
                key: Some(key),
                reason: why.to_string(),
            });
        }
        let betza = if t == PAWN {
            "fmWfcF".to_string()
        } else {
            let fsf = if t < pieces::BUILTIN.len() {
                pieces::BUILTIN[t].1.to_string()
            } else if t == KING && v.betza[t].is_empty() {
                "K".to_string()
            } else {
                v.betza[t].clone()
            };
            pieces::menagerie_betza(&fsf).map_err(|why| Refusal {
                variant: s.name.clone(),
                line: v.key_lines[t].unwrap_or(s.line),
                key: Some(key.clone()),
                reason: why,
            })?
        };
        let mut flags = String::new();
        if t == KING {
            flags.push_str(" royal");
        }
        if t == PAWN {
            flags.push_str(" pawn");
        }
        if castling != "none" && rooks & (1 << t) != 0 {
            flags.push_str(" castling-rook");
        }
        let _ = writeln!(text, "piece = {letter} {key} {betza}{flags}");
    }
    let letters = |set: PieceSet| -> String {
        (0..TYPES)
            .filter(|t| set & (1 << t) != 0)
            .filter_map(|t| v.letters[t].map(|c| c.to_ascii_uppercase().to_string()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let _ = writeln!(text, "double-step = {double_step}");
    let _ = writeln!(text, "promotion = {}", letters(promotion));
    let _ = writeln!(text, "castling = {castling}");
    let _ = writeln!(text, "drops = {}", if v.piece_drops { "yes" } else { "no" });
    let _ = writeln!(text, "captures-to-hand = no");
    let _ = writeln!(text, "stalemate = draw");
    let _ = writeln!(text, "start-template = {fen}");
    let _ = writeln!(text, "start = fen {fen}");
    let _ = writeln!(text, "transposition = none");
    let _ = writeln!(text, "relocation = none");
    Ok(text)
}

/// Fairy-Stockfish's start FEN with every field Menagerie expects: fields it leaves out take
/// their usual values (White to move, no castling, no en passant, counters 0 1).
fn start_fen(v: &FsfVariant) -> Result<StartFen, String> {
    let mut fields = v.start_fen.split_whitespace();
    let placement = fields.next().ok_or("an empty start position")?;
    let mut types: PieceSet = 0;
    for c in placement.chars() {
        match c {
            '/' | '[' | ']' | '0'..='9' => {}
            c if c.is_ascii_alphabetic() => {
                let t = v.type_of_letter(c).ok_or_else(|| format!("'{c}' is no piece of this variant"))?;
                types |= 1 << t;
            }
            c => return Err(format!("'{c}' in the board (walls, promoted pieces) is not supported")),
        }
    }
    let rest: Vec<&str> = fields.collect();
    let mut i = 0;
    let side = match rest.first() {
        None => "w",
        Some(&s) if s == "w" || s == "b" => {
            i += 1;
            s
        }
        Some(s) => return Err(format!("'{s}' is not a side to move")),
    };
    let mut castling = "-";
    if let Some(&c) = rest.get(i) {
        if c.chars().all(|ch| ch == '-' || ch.is_ascii_alphabetic()) {
            castling = c;
            i += 1;
        }
    }
    let mut ep = "-";
    if let Some(&e) = rest.get(i) {
        let square =
            e.len() >= 2 && e.as_bytes()[0].is_ascii_lowercase() && e[1..].chars().all(|ch| ch.is_ascii_digit());
        if e == "-" || square {
            ep = e;
            i += 1;
        }
    }
    let counters: Vec<&str> = rest[i..].to_vec();
    if counters.len() > 2 || counters.iter().any(|n| !n.chars().all(|ch| ch.is_ascii_digit())) {
        return Err(format!("fields '{}' are not supported", counters.join(" ")));
    }
    let half = counters.first().copied().unwrap_or("0");
    let full = counters.get(1).copied().unwrap_or("1");
    Ok(StartFen { fen: format!("{placement} {side} {castling} {ep} {half} {full}"), types })
}
