//! Move generation for every variant, driven by the compiled tables: piece moves (leaps, rides,
//! hops, paths), pawn double steps, en passant and promotion, castling (fixed-destination and
//! free), drops; and legality.
//!
//! Legality: moves are generated pseudo-legally, then filtered. Where only rides can make an
//! attack depend on occupancy (`Rules::pins_suffice`), a move of a piece that is neither the king
//! nor pinned, played while not in check, is legal without further test; every other move is
//! tested by recomputing the attacks on the king with the occupancy after the move, which is
//! exact for hoppers, bent and circular riders too.
//!
//! Owns: `generate`, `is_legal`, `legal_moves`, `count_legal`.
//! Must not know: notation, search, protocols, variant names.

use crate::bitboard::BitSet;
use crate::geometry::Square;
use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::variant::{CastlingRule, PieceKind};

/// A group of pseudo-legal moves.
enum Batch<B> {
    /// Ordinary moves (including pawn double steps) from one square.
    Normal {
        from: Square,
        to: B,
    },
    /// Pawn moves onto the promotion zone, each to every promotion kind.
    Promotions {
        from: Square,
        to: B,
    },
    Drops {
        kind: PieceKind,
        to: B,
    },
    Single(Move),
}

/// Facts about the side to move's king, computed once per node for the legality test.
#[derive(Clone, Copy)]
pub struct LegalityContext<B> {
    king: Option<Square>,
    checkers: B,
    pinned: B,
    /// Moves of unpinned pieces out of check need no test.
    fast: bool,
}

impl<B: BitSet> Position<B> {
    /// The legality context of the side to move.
    pub fn legality_context(&self) -> LegalityContext<B> {
        let r = self.rules;
        let king = self.kings[self.side.index()];
        let checkers = self.checkers();
        let them = self.by_color[self.side.flip().index()];
        let fast = checkers.is_empty()
            && (r.pins_suffice || r.unpinnable_kinds.iter().all(|&k| (self.by_kind[k] & them).is_empty()));
        let pinned = match king {
            Some(k) if fast => self.pinned(k),
            _ => B::EMPTY,
        };
        LegalityContext { king, checkers, pinned, fast }
    }

    /// Our pieces that stand alone between our king and an enemy rider aimed at it (a superset
    /// is harmless: those moves are tested in full).
    fn pinned(&self, king: Square) -> B {
        let r = self.rules;
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let theirs = self.by_color[them.index()];
        let mut snipers = B::EMPTY;
        for &k in &r.pinner_kinds {
            snipers |= self.by_kind[k];
        }
        snipers &= theirs;
        let mut pinned = B::EMPTY;
        if snipers.is_empty() {
            return pinned;
        }
        for d in 0..r.dirs.len() {
            if (r.ray(d, king) & snipers).is_empty() {
                continue;
            }
            let mask = r.pinners[r.dir_opposite[d] as usize * 2 + them.index()];
            if mask == 0 {
                continue;
            }
            let Some(s) = r.first_blocker(d, king, theirs) else { continue };
            let Some(p) = self.piece_at(s) else { continue };
            if mask & (1 << p.kind) == 0 {
                continue;
            }
            let between = r.ray(d, king) & !r.ray(d, s) & !B::square(s) & occ;
            if between.any() && !between.several() {
                pinned |= between;
            }
        }
        pinned & self.by_color[us.index()]
    }

    /// Whether a pseudo-legal move leaves the mover's king safe.
    pub fn is_legal(&self, m: Move, ctx: &LegalityContext<B>) -> bool {
        let Some(king) = ctx.king else { return true };
        let them = self.side.flip();
        let occ = self.occupied();
        match m.kind() {
            MoveKind::Castle => true,
            MoveKind::Drop => {
                if ctx.fast {
                    return true;
                }
                self.attackers(king, them, occ | B::square(m.to())).is_empty()
            }
            MoveKind::EnPassant => {
                let victim = B::square(self.en_passant_victim(m.to()));
                let after = (occ ^ B::square(m.from()) ^ victim) | B::square(m.to());
                self.attackers(king, them, after).is_empty()
            }
            _ => {
                let from = m.from();
                let to = B::square(m.to());
                if from == king {
                    let after = (occ ^ B::square(from)) | to;
                    return (self.attackers(m.to(), them, after) & !to).is_empty();
                }
                if ctx.fast && !ctx.pinned.has(from) {
                    return true;
                }
                let after = (occ ^ B::square(from)) | to;
                (self.attackers(king, them, after) & !to).is_empty()
            }
        }
    }

    /// Every pseudo-legal move (castling is generated fully legal).
    pub fn generate(&self, list: &mut MoveList) {
        self.generate_with(list, self.checkers());
    }

    fn generate_with(&self, list: &mut MoveList, checkers: B) {
        self.for_each_batch(checkers, !B::EMPTY, |batch| match batch {
            Batch::Normal { from, to } => {
                for t in to.squares() {
                    list.push(Move::normal(from, t));
                }
            }
            Batch::Promotions { from, to } => {
                for t in to.squares() {
                    self.push_promotions(list, from, t);
                }
            }
            Batch::Drops { kind, to } => {
                for t in to.squares() {
                    list.push(Move::drop(kind, t));
                }
            }
            Batch::Single(m) => list.push(m),
        });
    }

    /// Produce the pseudo-legal moves in batches (one piece's targets at a time), so that
    /// counting can use population counts. Pawns outside `pawns` are left out (a caller that
    /// counts them as a set), except for their en passant captures.
    fn for_each_batch(&self, checkers: B, pawns: B, mut emit: impl FnMut(Batch<B>)) {
        let r = self.rules;
        let us = self.side;
        let them = us.flip();
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = ours | theirs;
        let empty = r.board & !occ;

        for k in 0..r.kinds {
            let pieces = self.by_kind[k] & ours;
            if pieces.is_empty() {
                continue;
            }
            let t = r.kind_tables(k, us);
            if r.is_pawn(k) {
                let zone = r.promotion_zone[us.index()];
                for from in (pieces & pawns).squares() {
                    let quiet = r.reach(&t.quiet, from, occ) & empty;
                    let captures = r.reach(&t.capture, from, occ) & theirs;
                    let targets = quiet | captures;
                    let mut normal = targets & !zone;
                    let (mid, two) = r.double_step[from.index() * 2 + us.index()];
                    if (quiet & mid).any() {
                        normal |= two & empty;
                    }
                    emit(Batch::Normal { from, to: normal });
                    if (targets & zone).any() {
                        emit(Batch::Promotions { from, to: targets & zone });
                    }
                }
                if let Some(ep) = self.ep {
                    for from in pieces.squares() {
                        if t.capture.leaps[from.index()].has(ep) {
                            emit(Batch::Single(Move::en_passant(from, ep)));
                        }
                    }
                }
            } else if t.symmetric {
                for from in pieces.squares() {
                    emit(Batch::Normal { from, to: r.reach(&t.capture, from, occ) & !ours });
                }
            } else {
                for from in pieces.squares() {
                    let to = (r.reach(&t.quiet, from, occ) & empty) | (r.reach(&t.capture, from, occ) & theirs);
                    emit(Batch::Normal { from, to });
                }
            }
        }

        if r.variant.drops {
            for k in 0..r.kinds {
                if self.hand[us.index()][k] == 0 {
                    continue;
                }
                let mut region = empty;
                if r.is_pawn(k) {
                    region &= !(r.back_rank[0] | r.back_rank[1]);
                }
                emit(Batch::Drops { kind: k, to: region });
            }
        }

        if checkers.is_empty() && (self.castling & ours).any() {
            self.generate_castling(|m| emit(Batch::Single(m)));
        }
    }

    fn push_promotions(&self, list: &mut MoveList, from: Square, to: Square) {
        let mut mask = self.promotion_kinds;
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            list.push(Move::promotion(from, to, k));
        }
    }

    /// Squares from `a` to `b` on one rank, both included.
    fn rank_span(&self, a: Square, b: Square) -> B {
        let r = self.rules;
        if a == b {
            return B::square(a);
        }
        let dir = if b.0 > a.0 { 0 } else { 4 };
        (r.ray(dir, a) & !r.ray(dir, b)) | B::square(a)
    }

    fn generate_castling(&self, mut emit: impl FnMut(Move)) {
        let r = self.rules;
        let g = r.geometry;
        let us = self.side;
        let them = us.flip();
        let Some(king) = self.kings[us.index()] else { return };
        let occ = self.occupied();
        let rank = r.rank(king);
        for rook in (self.castling & self.by_color[us.index()]).squares() {
            if r.rank(rook) != rank {
                continue;
            }
            let toward = if r.file(rook) > r.file(king) { 1 } else { -1 };
            match r.variant.castling {
                CastlingRule::None => {}
                CastlingRule::Fixed { queen_side_king, king_side_king, .. } => {
                    let king_file = if toward < 0 { queen_side_king } else { king_side_king };
                    let Some(king_to) = g.square(king_file as i32, rank) else { continue };
                    let rook_to = self.castling_rook_target(king, king_to, rook);
                    let path = self.rank_span(king, king_to) | self.rank_span(rook, rook_to);
                    let movers = B::square(king) | B::square(rook);
                    if (path & occ & !movers).any() {
                        continue;
                    }
                    let mut crossed = self.rank_span(king, king_to) & !B::square(king) & !B::square(king_to);
                    if r.variant.castling_between_safe {
                        crossed |= self.rank_span(king, rook) & !movers;
                    }
                    if crossed.squares().any(|s| self.is_attacked(s, them)) {
                        continue;
                    }
                    let after = (occ & !movers) | B::square(king_to) | B::square(rook_to);
                    if self.attackers(king_to, them, after).is_empty() {
                        emit(Move::castle(king, king_to, rook));
                    }
                }
                CastlingRule::Free { max_steps } => {
                    let between = self.rank_span(king, rook) & !B::square(king) & !B::square(rook);
                    if (between & occ).any() {
                        continue;
                    }
                    for step in 1..=max_steps as i32 {
                        let Some(king_to) = g.offset(king, toward * step, 0) else { break };
                        if king_to == rook {
                            break;
                        }
                        let rook_to = self.castling_rook_target(king, king_to, rook);
                        if step > 1 {
                            // The square crossed last must be safe; nearer ones were tested on
                            // the earlier steps (a failure there ended the loop).
                            let Some(crossed) = g.offset(king, toward * (step - 1), 0) else { break };
                            if self.is_attacked(crossed, them) {
                                break;
                            }
                        }
                        let movers = B::square(king) | B::square(rook);
                        let after = (occ & !movers) | B::square(king_to) | B::square(rook_to);
                        if self.attackers(king_to, them, after).is_empty() {
                            emit(Move::castle(king, king_to, rook));
                        }
                    }
                }
            }
        }
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let ctx = self.legality_context();
        let mut list = MoveList::new();
        self.generate_with(&mut list, ctx.checkers);
        list.retain(|m| self.is_legal(m, &ctx));
        list
    }

    /// The number of legal moves (perft's last ply). Targets of pieces that need no legality
    /// test are counted by population count, without building moves.
    pub fn count_legal(&self) -> usize {
        let ctx = self.legality_context();
        let promotions = self.promotion_kinds.count_ones() as usize;
        let mut n = 0usize;
        let mut per_piece_pawns = !B::EMPTY;
        if ctx.fast {
            let (counted, set_count) = self.count_pawns_as_sets(&ctx, promotions);
            per_piece_pawns = !counted;
            n += set_count;
        }
        let free = |from: Square| ctx.fast && Some(from) != ctx.king && !ctx.pinned.has(from);
        self.for_each_batch(ctx.checkers, per_piece_pawns, |batch| match batch {
            Batch::Normal { from, to } => {
                if free(from) {
                    n += to.count() as usize;
                } else {
                    n += to.squares().filter(|&t| self.is_legal(Move::normal(from, t), &ctx)).count();
                }
            }
            Batch::Promotions { from, to } => {
                let targets = if free(from) {
                    to.count() as usize
                } else {
                    to.squares().filter(|&t| self.is_legal(Move::normal(from, t), &ctx)).count()
                };
                n += targets * promotions;
            }
            Batch::Drops { kind, to } => {
                if ctx.fast {
                    n += to.count() as usize;
                } else {
                    n += to.squares().filter(|&t| self.is_legal(Move::drop(kind, t), &ctx)).count();
                }
            }
            Batch::Single(m) => n += self.is_legal(m, &ctx) as usize,
        });
        n
    }

    /// Count the moves of unpinned pawns with whole-board shifts (pawns whose moves are plain
    /// leaps; en passant excluded). Returns the pawns counted and the number of moves.
    fn count_pawns_as_sets(&self, ctx: &LegalityContext<B>, promotions: usize) -> (B, usize) {
        let r = self.rules;
        let us = self.side;
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[us.flip().index()];
        let empty = r.board & !(ours | theirs);
        let zone = r.promotion_zone[us.index()];
        let forward = us.forward() * r.geometry.files as i32;
        let mut counted = B::EMPTY;
        let mut n = 0;
        let mut count = |targets: B| {
            n += (targets & !zone).count() as usize + (targets & zone).count() as usize * promotions;
        };
        for k in 0..r.kinds {
            if !r.is_pawn(k) {
                continue;
            }
            let t = r.kind_tables(k, us);
            let plain = |m: &crate::rules::Modality<B>| m.plain && !m.rook && !m.bishop;
            if !plain(&t.quiet) || !plain(&t.capture) {
                continue;
            }
            let pawns = self.by_kind[k] & ours & !ctx.pinned;
            if pawns.is_empty() {
                continue;
            }
            counted |= pawns;
            for &(sources, shift) in &t.quiet.leap_shifts {
                let single = (pawns & sources).shifted(shift) & empty;
                count(single);
                if shift == forward {
                    // Double steps: from the double-step rank, through an empty square.
                    let from_rank = (single.shifted(-shift)) & r.double_step_zone[us.index()];
                    let two = from_rank.shifted(2 * shift) & empty;
                    count(two & r.board);
                }
            }
            for &(sources, shift) in &t.capture.leap_shifts {
                count((pawns & sources).shifted(shift) & theirs);
            }
        }
        (counted, n)
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        let ctx = self.legality_context();
        let mut list = MoveList::new();
        self.generate_with(&mut list, ctx.checkers);
        list.iter().any(|&m| self.is_legal(m, &ctx))
    }
}
