//! A position of any variant: bitboards by colour and kind, a square-to-piece array, hands,
//! castling rights (the rook squares that may still castle), en passant, counters, an
//! incrementally updated Zobrist hash (and one of the pawns alone) and the pieces giving
//! check (found once per move, since the search, legality and move generation all ask).
//! Positions are copied to make moves (copy-make).
//!
//! Owns: `Position<B>`, `Piece`, attack detection on a position, `play`.
//! Must not know: notation, search, protocols, variant names.

pub mod fen;

use crate::bitboard::BitSet;
use crate::geometry::{Color, Square, MAX_SQUARES};
use crate::moves::{Move, MoveKind};
use crate::rules::Rules;
use crate::variant::{CastlingRule, PieceKind, MAX_KINDS};

pub use fen::{FenError, FenField};

/// A coloured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub kind: PieceKind,
}

/// A position of one variant with bitboard width `B`.
#[derive(Clone)]
pub struct Position<B: BitSet> {
    pub(crate) rules: &'static Rules<B>,
    pub(crate) by_color: [B; 2],
    pub(crate) by_kind: [B; MAX_KINDS],
    /// 0 = empty, else 1 + kind * 2 + colour.
    pub(crate) mailbox: [u8; MAX_SQUARES],
    pub(crate) hand: [[u8; MAX_KINDS]; 2],
    pub(crate) side: Color,
    /// Squares of rooks (of either colour) that keep their castling right.
    pub(crate) castling: B,
    /// The square a pawn just passed over, set only when an enemy pawn could capture there.
    pub(crate) ep: Option<Square>,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    /// The Zobrist hash of the pawns alone: the search's evaluation correction is kept by
    /// pawn structure.
    pub(crate) pawn_hash: u64,
    /// Kinds a pawn may promote to in this game (fixed when the game starts).
    pub(crate) promotion_kinds: u32,
    /// Kinds no longer available because they were promoted to (variants where each type may
    /// be promoted to once); part of the hash.
    pub(crate) promotions_spent: u32,
    pub(crate) kings: [Option<Square>; 2],
    /// Enemy pieces giving check to the side to move: set by `play`, `play_null` and the FEN
    /// reader (`refresh_checkers`), the only code that changes the pieces or the side to move.
    pub(crate) checkers: B,
}

impl<B: BitSet> Position<B> {
    /// An empty board of the variant, White to move.
    pub(crate) fn empty(rules: &'static Rules<B>) -> Position<B> {
        Position {
            rules,
            by_color: [B::EMPTY; 2],
            by_kind: [B::EMPTY; MAX_KINDS],
            mailbox: [0; MAX_SQUARES],
            hand: [[0; MAX_KINDS]; 2],
            side: Color::White,
            castling: B::EMPTY,
            ep: None,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            pawn_hash: 0,
            promotion_kinds: 0,
            promotions_spent: 0,
            kings: [None; 2],
            checkers: B::EMPTY,
        }
    }

    /// The compiled rules.
    #[inline]
    pub fn rules(&self) -> &'static Rules<B> {
        self.rules
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// Zobrist hash (pieces, side, castling rights, en passant, hands).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Zobrist hash of the pawns of both sides (their piece keys), nothing else.
    #[inline]
    pub fn pawn_hash(&self) -> u64 {
        self.pawn_hash
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Full-move number.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// En passant square, when a capture there is possible.
    #[inline]
    pub fn en_passant(&self) -> Option<Square> {
        self.ep
    }

    /// Rook squares that keep castling rights.
    #[inline]
    pub fn castling_rooks(&self) -> B {
        self.castling
    }

    /// All pieces of a colour.
    #[inline]
    pub fn pieces_of(&self, c: Color) -> B {
        self.by_color[c.index()]
    }

    /// All pieces of a kind, both colours.
    #[inline]
    pub fn pieces_of_kind(&self, k: PieceKind) -> B {
        self.by_kind[k]
    }

    /// Pieces of a colour and kind.
    #[inline]
    pub fn pieces(&self, c: Color, k: PieceKind) -> B {
        self.by_kind[k] & self.by_color[c.index()]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> B {
        self.by_color[0] | self.by_color[1]
    }

    /// The piece on a square.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let code = self.mailbox[sq.index()];
        if code == 0 {
            None
        } else {
            let c = code - 1;
            Some(Piece { color: if c & 1 == 0 { Color::White } else { Color::Black }, kind: (c >> 1) as PieceKind })
        }
    }

    /// How many pieces of a kind a colour holds in hand.
    #[inline]
    pub fn hand_count(&self, c: Color, k: PieceKind) -> u8 {
        self.hand[c.index()][k]
    }

    /// Whether a colour holds anything in hand.
    pub fn has_hand(&self, c: Color) -> bool {
        self.hand[c.index()][..self.rules.kinds].iter().any(|&n| n > 0)
    }

    /// The royal piece's square of a colour.
    #[inline]
    pub fn king(&self, c: Color) -> Option<Square> {
        self.kings[c.index()]
    }

    /// Bit mask of the kinds a pawn may promote to.
    #[inline]
    pub fn promotion_kinds(&self) -> u32 {
        self.promotion_kinds
    }

    pub(crate) fn put(&mut self, sq: Square, p: Piece) {
        debug_assert!(sq.index() < self.rules.geometry.squares(), "{sq:?} is off the board");
        debug_assert_eq!(self.mailbox[sq.index()], 0, "a piece put onto occupied {sq:?}");
        let b = B::square(sq);
        self.by_color[p.color.index()] |= b;
        self.by_kind[p.kind] |= b;
        self.mailbox[sq.index()] = 1 + (p.kind as u8) * 2 + p.color as u8;
        let key = self.rules.piece_key(p.color, p.kind, sq);
        self.hash ^= key;
        if self.rules.is_pawn(p.kind) {
            self.pawn_hash ^= key;
        }
        if p.kind == self.rules.royal {
            self.kings[p.color.index()] = Some(sq);
        }
    }

    pub(crate) fn remove(&mut self, sq: Square, p: Piece) {
        debug_assert_eq!(self.piece_at(sq), Some(p), "removing a piece that is not on {sq:?}");
        let b = B::square(sq);
        self.by_color[p.color.index()] ^= b;
        self.by_kind[p.kind] ^= b;
        self.mailbox[sq.index()] = 0;
        let key = self.rules.piece_key(p.color, p.kind, sq);
        self.hash ^= key;
        if self.rules.is_pawn(p.kind) {
            self.pawn_hash ^= key;
        }
    }

    pub(crate) fn set_hand(&mut self, c: Color, k: PieceKind, n: u8) {
        self.hash ^= self.rules.hand_key(c, k, self.hand[c.index()][k]);
        self.hand[c.index()][k] = n;
        self.hash ^= self.rules.hand_key(c, k, n);
    }

    pub(crate) fn set_castling(&mut self, rooks: B) {
        for sq in (self.castling ^ rooks).squares() {
            self.hash ^= self.rules.zobrist.castling[sq.index()];
        }
        self.castling = rooks;
    }

    pub(crate) fn set_ep(&mut self, ep: Option<Square>) {
        if let Some(s) = self.ep {
            self.hash ^= self.rules.zobrist.en_passant[s.index()];
        }
        self.ep = ep;
        if let Some(s) = ep {
            self.hash ^= self.rules.zobrist.en_passant[s.index()];
        }
    }

    /// The hash computed from scratch, to check the incremental one.
    pub fn hash_from_scratch(&self) -> u64 {
        let r = self.rules;
        let mut h = 0;
        for sq in self.occupied().squares() {
            if let Some(p) = self.piece_at(sq) {
                h ^= r.piece_key(p.color, p.kind, sq);
            }
        }
        if self.side == Color::Black {
            h ^= r.zobrist.black_to_move;
        }
        for sq in self.castling.squares() {
            h ^= r.zobrist.castling[sq.index()];
        }
        if let Some(s) = self.ep {
            h ^= r.zobrist.en_passant[s.index()];
        }
        for c in Color::BOTH {
            for k in 0..r.kinds {
                h ^= r.hand_key(c, k, self.hand[c.index()][k]) ^ r.hand_key(c, k, 0);
            }
        }
        for k in 0..r.kinds {
            if self.promotions_spent & (1 << k) != 0 {
                h ^= r.zobrist.promotion_spent[k];
            }
        }
        h
    }

    /// The pawn hash computed from scratch, to check the incremental one.
    pub fn pawn_hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for sq in self.occupied().squares() {
            if let Some(p) = self.piece_at(sq).filter(|p| self.rules.is_pawn(p.kind)) {
                h ^= self.rules.piece_key(p.color, p.kind, sq);
            }
        }
        h
    }

    /// Pieces of `by` that capture-attack `sq` with occupancy `occ` (pieces on squares outside
    /// `occ` are ignored as attackers too).
    pub fn attackers(&self, sq: Square, by: Color, occ: B) -> B {
        let r = self.rules;
        let them = self.by_color[by.index()] & occ;
        let mut a = B::EMPTY;
        for &k in &r.leap_kinds {
            let candidates = self.by_kind[k] & them;
            if candidates.any() {
                a |= r.leap_from(k, by, sq) & candidates;
            }
        }
        // Line riders by group: the attacks from `sq` meet them where they stand.
        type Lines<B> = fn(&Rules<B>, Square, B) -> B;
        let groups: [(&Vec<PieceKind>, Lines<B>); 2] =
            [(&r.rook_kinds[by.index()], Rules::rook_attacks), (&r.bishop_kinds[by.index()], Rules::bishop_attacks)];
        for (kinds, lines) in groups {
            let mut m = B::EMPTY;
            for &k in kinds {
                m |= self.by_kind[k];
            }
            if (m & them).any() {
                a |= lines(r, sq, occ) & m;
            }
        }
        for &d in &r.extra_rider_dirs {
            // A rider along d attacks sq iff it is the first piece from sq along the opposite way.
            let mask = r.dir_riders[d as usize * 2 + by.index()];
            if mask == 0 {
                continue;
            }
            if let Some(b) = r.first_blocker(r.dir_opposite[d as usize] as usize, sq, occ) {
                if let Some(p) = self.piece_at(b) {
                    if p.color == by && mask & (1 << p.kind) != 0 {
                        a |= B::square(b);
                    }
                }
            }
        }
        for &k in &r.complex_kinds {
            for from in (self.by_kind[k] & them).squares() {
                if r.reach(&r.kind_tables(k, by).capture, from, occ).has(sq) {
                    a |= B::square(from);
                }
            }
        }
        a & them
    }

    /// Pawns of `by` that could capture on `sq` (en passant candidates).
    pub(crate) fn pawn_capturers(&self, sq: Square, by: Color) -> B {
        let r = self.rules;
        let mut capturers = B::EMPTY;
        for k in 0..r.kinds {
            if r.is_pawn(k) {
                capturers |= r.leap_from(k, by, sq) & self.pieces(by, k);
            }
        }
        capturers
    }

    /// Whether `by` attacks `sq` with the current occupancy.
    #[inline]
    pub fn is_attacked(&self, sq: Square, by: Color) -> bool {
        self.attackers(sq, by, self.occupied()).any()
    }

    /// Enemy pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> B {
        self.checkers
    }

    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.any()
    }

    /// The pieces giving check, found from the board (what `checkers` keeps).
    pub fn checkers_from_scratch(&self) -> B {
        match self.kings[self.side.index()] {
            Some(k) => self.attackers(k, self.side.flip(), self.occupied()),
            None => B::EMPTY,
        }
    }

    /// Find the pieces giving check again, after a change of the pieces or the side to move.
    #[inline]
    pub(crate) fn refresh_checkers(&mut self) {
        self.checkers = self.checkers_from_scratch();
    }

    /// Whether dropping `m` (a drop of the side to move) checks the enemy king: only the dropped
    /// piece can, since a drop moves nothing away, so its reach from the drop square decides,
    /// without playing the move.
    #[inline]
    pub fn drop_gives_check(&self, m: Move) -> bool {
        let Some(king) = self.kings[self.side.flip().index()] else {
            return false;
        };
        let r = self.rules;
        let to = m.to();
        r.reach(&r.kind_tables(m.piece(), self.side).capture, to, self.occupied() | B::square(to)).has(king)
    }

    /// The square a castling rook lands on, for a king going `king_from` -> `king_to` with the
    /// rook on `rook_from`.
    pub fn castling_rook_target(&self, king_from: Square, king_to: Square, rook_from: Square) -> Square {
        let r = self.rules;
        let g = r.geometry;
        let rank = r.rank(king_from);
        let queen_side = r.file(rook_from) < r.file(king_from);
        let file = match r.variant.castling {
            CastlingRule::Fixed { queen_side_rook, king_side_rook, .. } => {
                if queen_side {
                    queen_side_rook as i32
                } else {
                    king_side_rook as i32
                }
            }
            _ => r.file(king_to) + if queen_side { 1 } else { -1 },
        };
        g.square(file, rank).unwrap_or(rook_from)
    }

    /// The pawn taken by an en passant capture onto `to`: one rank behind `to` as seen by the
    /// side to move.
    #[inline]
    pub fn en_passant_victim(&self, to: Square) -> Square {
        let files = self.rules.geometry.files as i32;
        Square((to.0 as i32 - self.side.forward() * files) as u8)
    }

    /// Play a move (which must be legal, or at least pseudo-legal) in place.
    pub fn play(&mut self, m: Move) {
        let r = self.rules;
        let us = self.side;
        let them = us.flip();
        let from = m.from();
        let to = m.to();
        self.set_ep(None);
        self.halfmove += 1;
        let mut rights = self.castling;
        let our_rights = self.castling & self.by_color[us.index()];
        match m.kind() {
            MoveKind::Drop => {
                let k = m.piece();
                let n = self.hand[us.index()][k];
                debug_assert!(n > 0, "a drop from an empty hand");
                self.set_hand(us, k, n.saturating_sub(1));
                self.put(to, Piece { color: us, kind: k });
                if r.is_pawn(k) {
                    self.halfmove = 0;
                }
            }
            MoveKind::Castle => {
                let rook_from = m.rook();
                let rook_to = self.castling_rook_target(from, to, rook_from);
                let king = Piece { color: us, kind: r.royal };
                let rook = self.piece_at(rook_from).unwrap_or(king);
                self.remove(from, king);
                self.remove(rook_from, rook);
                self.put(to, king);
                self.put(rook_to, rook);
                rights &= !our_rights;
            }
            _ => {
                let Some(moving) = self.piece_at(from) else { return };
                if let Some(captured) = self.piece_at(to) {
                    self.remove(to, captured);
                    self.halfmove = 0;
                    if r.variant.captures_to_hand && captured.kind != r.royal {
                        let n = self.hand[us.index()][captured.kind];
                        self.set_hand(us, captured.kind, n.saturating_add(1));
                    }
                }
                self.remove(from, moving);
                let placed = if m.kind() == MoveKind::Promotion {
                    if r.variant.promotion_once {
                        self.promotion_kinds &= !(1 << m.piece());
                        self.promotions_spent |= 1 << m.piece();
                        self.hash ^= r.zobrist.promotion_spent[m.piece()];
                    }
                    Piece { color: us, kind: m.piece() }
                } else {
                    moving
                };
                self.put(to, placed);
                if r.is_pawn(moving.kind) {
                    self.halfmove = 0;
                    if m.kind() == MoveKind::EnPassant {
                        let victim = self.en_passant_victim(to);
                        if let Some(p) = self.piece_at(victim) {
                            self.remove(victim, p);
                        }
                    } else {
                        let (mid, two) = r.double_step[from.index() * 2 + us.index()];
                        if two.has(to) {
                            let passed = mid.lowest();
                            // Record en passant only when an enemy pawn could capture there.
                            if self.pawn_capturers(passed, them).any() {
                                self.set_ep(Some(passed));
                            }
                        }
                    }
                }
                if moving.kind == r.royal {
                    rights &= !our_rights;
                }
                rights &= !(B::square(from) | B::square(to));
            }
        }
        self.set_castling(rights);
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = them;
        self.hash ^= r.zobrist.black_to_move;
        self.refresh_checkers();
    }

    /// Pass the move (for null-move search): only the side to move and en passant change.
    pub fn play_null(&mut self) {
        self.set_ep(None);
        self.side = self.side.flip();
        self.hash ^= self.rules.zobrist.black_to_move;
        self.halfmove += 1;
        self.refresh_checkers();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::SplitMix64;
    use crate::rules::compiled;
    use crate::startpos::start_fen;
    use crate::variant::{by_name, names_with_options};

    /// Random playouts of `name` from its start positions, every kind of move included:
    /// `visit` sees each position and its legal moves.
    fn playouts<B: BitSet>(
        name: &str,
        seed: u64,
        games: usize,
        plies: usize,
        mut visit: impl FnMut(&Position<B>, &[Move]),
    ) {
        let v = by_name(name).unwrap();
        let rules = compiled::<B>(v);
        let mut rng = SplitMix64::new(seed);
        for _ in 0..games {
            let fen = start_fen(v, rng.below(v.start_count())).unwrap();
            let mut p = Position::from_fen(rules, &fen).unwrap();
            for _ in 0..plies {
                let moves = p.legal_moves();
                visit(&p, moves.as_slice());
                if moves.is_empty() {
                    break;
                }
                p.play(moves[rng.index(moves.len())]);
            }
        }
    }

    /// Each position's incremental hashes against the ones from scratch.
    fn hashes_hold<B: BitSet>(name: &str, seed: u64) -> usize {
        let mut checked = 0;
        playouts::<B>(name, seed, 4, 120, |p, _| {
            assert_eq!(p.hash(), p.hash_from_scratch(), "{name}: {}", p.to_fen());
            assert_eq!(p.pawn_hash(), p.pawn_hash_from_scratch(), "{name}: {}", p.to_fen());
            checked += 1;
        });
        checked
    }

    #[test]
    fn incremental_hashes_equal_hashes_from_scratch_in_every_variant() {
        for (i, name) in names_with_options().into_iter().enumerate() {
            let checked = if by_name(name).unwrap().geometry.squares() <= 64 {
                hashes_hold::<u64>(name, i as u64)
            } else {
                hashes_hold::<u128>(name, i as u64)
            };
            assert!(checked > 100, "{name}: {checked} positions");
        }
    }

    /// Every legal drop of random playouts: `drop_gives_check` against playing the drop.
    fn drop_checks_agree<B: BitSet>(name: &str, seed: u64) -> (usize, usize) {
        let (mut drops, mut checks) = (0, 0);
        playouts::<B>(name, seed, 8, 60, |p, moves| {
            for &m in moves.iter().filter(|m| m.kind() == MoveKind::Drop) {
                let mut child = p.clone();
                child.play(m);
                assert_eq!(p.drop_gives_check(m), child.in_check(), "{name}: {} then {m:?}", p.to_fen());
                drops += 1;
                checks += usize::from(child.in_check());
            }
        });
        (drops, checks)
    }

    #[test]
    fn a_drop_gives_check_exactly_when_playing_it_does() {
        let (mut drops, mut checks) = (0, 0);
        for (i, name) in names_with_options().into_iter().enumerate() {
            let (d, c) = if by_name(name).unwrap().geometry.squares() <= 64 {
                drop_checks_agree::<u64>(name, 100 + i as u64)
            } else {
                drop_checks_agree::<u128>(name, 100 + i as u64)
            };
            drops += d;
            checks += c;
        }
        assert!(drops > 1000 && checks > 20, "{drops} drops, {checks} of them checks");
    }

    #[test]
    fn the_pawn_hash_sees_pawns_only() {
        let rules = compiled::<u64>(by_name("dchess").unwrap());
        let a = Position::from_fen(rules, "4k3/pp6/8/8/8/8/PP6/4K2N w - - 0 1").unwrap();
        let b = Position::from_fen(rules, "3k4/pp6/8/8/8/8/PP6/N3K3 b - - 0 1").unwrap();
        let c = Position::from_fen(rules, "4k3/p1p5/8/8/8/8/PP6/4K2N w - - 0 1").unwrap();
        assert_eq!(a.pawn_hash(), b.pawn_hash());
        assert_ne!(a.hash(), b.hash());
        assert_ne!(a.pawn_hash(), c.pawn_hash());
    }
}
