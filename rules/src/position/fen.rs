//! FEN in and out for every variant: multi-digit empty runs (`12`), holdings in brackets
//! (`[Cc]`, `[]`, `[-]`) or as an extra rank, X-FEN (`KQkq` = outermost rook) and Shredder-FEN
//! (`HAha`) castling rights, either side to move, en passant, optional move counters.
//!
//! Owns: `FenError`, `FenField`, `Position::from_fen`, `Position::to_fen`.
//! Must not know: move generation, notation, search.

use super::{Piece, Position};
use crate::bitboard::BitSet;
use crate::geometry::{file_letter, Color, Square};
use crate::rules::{Rules, MAX_HAND};
use crate::variant::{CastlingRule, PieceKind};
use std::fmt;

/// The FEN field an error is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FenField {
    Placement,
    Holdings,
    SideToMove,
    Castling,
    EnPassant,
    HalfmoveClock,
    FullmoveNumber,
    /// The fields parse, but together they are not a legal position.
    Position,
}

impl fmt::Display for FenField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FenField::Placement => "piece placement",
            FenField::Holdings => "holdings",
            FenField::SideToMove => "side to move",
            FenField::Castling => "castling rights",
            FenField::EnPassant => "en passant square",
            FenField::HalfmoveClock => "halfmove clock",
            FenField::FullmoveNumber => "fullmove number",
            FenField::Position => "position",
        })
    }
}

/// A FEN that cannot be read: which field, the offending text, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub field: FenField,
    pub text: String,
    pub reason: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad FEN {} '{}': {}", self.field, self.text, self.reason)
    }
}

impl std::error::Error for FenError {}

fn error(field: FenField, text: &str, reason: impl Into<String>) -> FenError {
    FenError { field, text: text.to_string(), reason: reason.into() }
}

impl<B: BitSet> Position<B> {
    /// Read a FEN. The position's promotion choices are derived from this position, taken as the
    /// game's initial array (see `set_initial_array` for games that started elsewhere).
    pub fn from_fen(rules: &'static Rules<B>, fen: &str) -> Result<Position<B>, FenError> {
        let g = rules.geometry;
        let variant = rules.variant;
        let mut pos = Position::empty(rules);
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let placement_field = *fields.first().ok_or_else(|| error(FenField::Placement, fen, "empty FEN"))?;

        // Holdings: "[...]" after the placement, or one extra rank.
        let (board_text, hand_text) = match placement_field.find('[') {
            Some(i) => {
                let h = &placement_field[i..];
                let inner = h
                    .strip_prefix('[')
                    .and_then(|x| x.strip_suffix(']'))
                    .ok_or_else(|| error(FenField::Holdings, h, "holdings are written [..]"))?;
                (&placement_field[..i], Some(inner))
            }
            None => {
                let n = placement_field.split('/').count();
                if n == g.ranks as usize + 1 {
                    let i = placement_field.rfind('/').unwrap_or(0);
                    (&placement_field[..i], Some(&placement_field[i + 1..]))
                } else {
                    (placement_field, None)
                }
            }
        };
        let ranks: Vec<&str> = board_text.split('/').collect();
        if ranks.len() != g.ranks as usize {
            return Err(error(
                FenField::Placement,
                board_text,
                format!("{} ranks, the board has {}", ranks.len(), g.ranks),
            ));
        }
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = g.ranks as i32 - 1 - i as i32;
            let mut file = 0i32;
            let mut chars = rank_text.chars().peekable();
            while let Some(c) = chars.next() {
                if c.is_ascii_digit() {
                    let mut n = c.to_digit(10).unwrap_or(0) as i32;
                    while let Some(d) = chars.peek().and_then(|d| d.to_digit(10)) {
                        n = n * 10 + d as i32;
                        chars.next();
                    }
                    if n == 0 {
                        return Err(error(FenField::Placement, rank_text, "an empty run of 0 squares"));
                    }
                    file += n;
                } else {
                    let kind = variant.kind_of_letter(c).ok_or_else(|| {
                        error(FenField::Placement, rank_text, format!("'{c}' is not a piece of {}", variant.name))
                    })?;
                    let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                    let sq = g.square(file, rank).ok_or_else(|| {
                        error(FenField::Placement, rank_text, format!("rank has more than {} files", g.files))
                    })?;
                    if kind == rules.royal && pos.kings[color.index()].is_some() {
                        return Err(error(FenField::Placement, board_text, format!("{color} has two kings")));
                    }
                    pos.put(sq, Piece { color, kind });
                    file += 1;
                }
                if file > g.files as i32 {
                    return Err(error(FenField::Placement, rank_text, format!("rank has more than {} files", g.files)));
                }
            }
            if file != g.files as i32 {
                return Err(error(FenField::Placement, rank_text, format!("rank has {file} files, not {}", g.files)));
            }
        }
        for c in Color::BOTH {
            if pos.kings[c.index()].is_none() {
                return Err(error(FenField::Placement, board_text, format!("{c} has no king")));
            }
            for k in 0..rules.kinds {
                if rules.is_pawn(k) {
                    let bad = pos.pieces(c, k) & (rules.back_rank[0] | rules.back_rank[1]);
                    if bad.any() {
                        return Err(error(
                            FenField::Placement,
                            board_text,
                            format!("a pawn on {}", g.square_name(bad.lowest())),
                        ));
                    }
                }
            }
        }
        if let Some(h) = hand_text {
            if h != "-" {
                for c in h.chars() {
                    let kind = variant.kind_of_letter(c).ok_or_else(|| {
                        error(FenField::Holdings, h, format!("'{c}' is not a piece of {}", variant.name))
                    })?;
                    if kind == rules.royal {
                        return Err(error(FenField::Holdings, h, "a king cannot be in hand"));
                    }
                    if !variant.drops {
                        return Err(error(FenField::Holdings, h, format!("{} has no drops", variant.name)));
                    }
                    let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
                    let n = pos.hand[color.index()][kind];
                    if n as usize >= MAX_HAND {
                        return Err(error(FenField::Holdings, h, "too many pieces in hand"));
                    }
                    pos.set_hand(color, kind, n + 1);
                }
            }
        }

        let side_text = fields.get(1).copied().unwrap_or("w");
        pos.side = match side_text {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            _ => return Err(error(FenField::SideToMove, side_text, "expected w or b")),
        };
        if pos.side == Color::Black {
            pos.hash ^= rules.zobrist.black_to_move;
        }

        let castling_text = fields.get(2).copied().unwrap_or("-");
        let rights = parse_castling(&pos, castling_text)?;
        pos.set_castling(rights);

        let ep_text = fields.get(3).copied().unwrap_or("-");
        if ep_text != "-" {
            let sq = g.parse_square(ep_text).ok_or_else(|| error(FenField::EnPassant, ep_text, "not a square"))?;
            let us = pos.side;
            let them = us.flip();
            // The square a pawn of `them` just passed: behind it stands that pawn.
            let victim = g.offset(sq, 0, -us.forward());
            let origin = g.offset(sq, 0, us.forward());
            let pawn_there =
                victim.and_then(|v| pos.piece_at(v)).is_some_and(|p| p.color == them && rules.is_pawn(p.kind));
            let empty = pos.piece_at(sq).is_none() && origin.is_some_and(|o| pos.piece_at(o).is_none());
            let rank_ok = rules.variant.double_step.is_some_and(|r| g.relative_rank(sq, them) == r as i32 + 1);
            if !(pawn_there && empty && rank_ok) {
                return Err(error(FenField::EnPassant, ep_text, "no pawn can just have passed this square"));
            }
            if pos.pawn_capturers(sq, us).any() {
                pos.set_ep(Some(sq));
            }
        }

        if let Some(t) = fields.get(4) {
            pos.halfmove = t.parse().map_err(|_| error(FenField::HalfmoveClock, t, "not a number"))?;
        }
        if let Some(t) = fields.get(5) {
            pos.fullmove = t.parse().map_err(|_| error(FenField::FullmoveNumber, t, "not a number"))?;
            if pos.fullmove == 0 {
                pos.fullmove = 1;
            }
        }
        if fields.len() > 6 {
            return Err(error(FenField::FullmoveNumber, fields[6], "unexpected text after the move counters"));
        }
        if let Some(k) = pos.kings[pos.side.flip().index()] {
            if pos.is_attacked(k, pos.side) {
                return Err(error(FenField::Position, fen, "the side not to move is in check"));
            }
        }
        pos.promotion_kinds = pos.initial_array_promotions();
        pos.refresh_checkers();
        Ok(pos)
    }

    /// Take `initial` as the game's initial array for promotion purposes.
    pub fn set_initial_array(&mut self, initial: &Position<B>) {
        self.promotion_kinds = initial.initial_array_promotions();
    }

    /// Promotion kinds when this position is the initial array.
    fn initial_array_promotions(&self) -> u32 {
        let r = self.rules;
        let v = r.variant;
        let present = |k: PieceKind| self.by_kind[k].any() || self.hand[0][k] > 0 || self.hand[1][k] > 0;
        let mut mask = 0u32;
        for &k in &v.promotion {
            mask |= 1 << k;
        }
        for &k in &v.promotion_if_absent {
            if !present(k) {
                mask |= 1 << k;
            }
        }
        if v.promotion_from_initial_array {
            for k in 0..r.kinds {
                if present(k) && k != r.royal && !r.is_pawn(k) {
                    mask |= 1 << k;
                }
            }
        }
        mask
    }

    /// The position as FEN (X-FEN castling letters where unambiguous, Shredder letters
    /// otherwise; holdings in brackets when the variant has drops).
    pub fn to_fen(&self) -> String {
        let r = self.rules;
        let g = r.geometry;
        let mut s = String::new();
        for rank in (0..g.ranks as i32).rev() {
            let mut empty = 0;
            for file in 0..g.files as i32 {
                let sq = g.square(file, rank).unwrap_or(Square(0));
                match self.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(piece_char(r, p));
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            if rank > 0 {
                s.push('/');
            }
        }
        if r.variant.drops {
            s.push('[');
            let mut any = false;
            for c in Color::BOTH {
                for k in 0..r.kinds {
                    for _ in 0..self.hand[c.index()][k] {
                        s.push(piece_char(r, Piece { color: c, kind: k }));
                        any = true;
                    }
                }
            }
            if !any {
                s.push('-');
            }
            s.push(']');
        }
        s.push(' ');
        s.push(self.side.letter());
        s.push(' ');
        s.push_str(&self.castling_text());
        s.push(' ');
        match self.ep {
            Some(sq) => s.push_str(&g.square_name(sq)),
            None => s.push('-'),
        }
        s.push_str(&format!(" {} {}", self.halfmove, self.fullmove));
        s
    }

    fn castling_text(&self) -> String {
        let r = self.rules;
        let g = r.geometry;
        let mut out = String::new();
        for c in Color::BOTH {
            let Some(k) = self.kings[c.index()] else { continue };
            let rooks = self.castling & self.by_color[c.index()];
            let candidates = castling_candidates(self, c);
            let mut king_side: Vec<Square> = rooks.squares().filter(|s| g.file(*s) > g.file(k)).collect();
            let mut queen_side: Vec<Square> = rooks.squares().filter(|s| g.file(*s) < g.file(k)).collect();
            king_side.sort_by_key(|s| -g.file(*s));
            queen_side.sort_by_key(|s| g.file(*s));
            for (list, xfen, outermost) in [
                (&king_side, 'K', candidates.squares().filter(|s| g.file(*s) > g.file(k)).max_by_key(|s| g.file(*s))),
                (&queen_side, 'Q', candidates.squares().filter(|s| g.file(*s) < g.file(k)).min_by_key(|s| g.file(*s))),
            ] {
                for &sq in list.iter() {
                    let letter =
                        if Some(sq) == outermost { xfen } else { file_letter(g.file(sq)).to_ascii_uppercase() };
                    out.push(if c == Color::White { letter } else { letter.to_ascii_lowercase() });
                }
            }
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }
}

/// The FEN letter of a piece.
pub fn piece_char<B: BitSet>(r: &Rules<B>, p: Piece) -> char {
    let l = r.variant.pieces[p.kind].letter;
    if p.color == Color::White {
        l
    } else {
        l.to_ascii_lowercase()
    }
}

/// Castling-capable rooks of a colour on its back rank.
fn castling_candidates<B: BitSet>(pos: &Position<B>, c: Color) -> B {
    let r = pos.rules;
    let mut m = B::EMPTY;
    for (k, p) in r.variant.pieces.iter().enumerate() {
        if p.castling_rook {
            m |= pos.pieces(c, k);
        }
    }
    m & r.back_rank[c.index()]
}

fn parse_castling<B: BitSet>(pos: &Position<B>, text: &str) -> Result<B, FenError> {
    let r = pos.rules;
    let g = r.geometry;
    let mut rights = B::EMPTY;
    if text == "-" {
        return Ok(rights);
    }
    if r.variant.castling == CastlingRule::None {
        // A variant without castling has no rights; GUIs sometimes send KQkq anyway.
        log::debug!("ignoring castling rights '{text}': {} has no castling", r.variant.name);
        return Ok(rights);
    }
    for ch in text.chars() {
        let color = if ch.is_ascii_uppercase() { Color::White } else { Color::Black };
        let lower = ch.to_ascii_lowercase();
        let king = pos.kings[color.index()].ok_or_else(|| error(FenField::Castling, text, "no king"))?;
        if g.relative_rank(king, color) != 0 {
            return Err(error(FenField::Castling, text, format!("'{ch}': the {color} king is not on its first rank")));
        }
        let candidates = castling_candidates(pos, color);
        let kf = g.file(king);
        let rook = match lower {
            'k' => candidates.squares().filter(|s| g.file(*s) > kf).max_by_key(|s| g.file(*s)),
            'q' => candidates.squares().filter(|s| g.file(*s) < kf).min_by_key(|s| g.file(*s)),
            f if f.is_ascii_lowercase() && ((f as u8 - b'a') as i32) < g.files as i32 => {
                let sq = g.square((f as u8 - b'a') as i32, g.rank(king));
                sq.filter(|s| candidates.has(*s) && g.file(*s) != kf)
            }
            _ => return Err(error(FenField::Castling, text, format!("'{ch}' is not a castling letter"))),
        };
        let rook =
            rook.ok_or_else(|| error(FenField::Castling, text, format!("'{ch}': no {color} rook to castle with")))?;
        rights |= B::square(rook);
    }
    Ok(rights)
}
