//! Pawns: where each side's pawns are and what they attack (other terms read both), their
//! structure (doubled, isolated, connected pawns) and passed pawns (a bonus growing with their
//! progress, less while blocked, and in the endgame the distances of both royal pieces to the
//! square in front of them).
//!
//! Owns: `Pawns`, `PawnMap`.
//! Must not know: pieces other than pawns and royal pieces, search.

use super::kinds::file_masks;
use super::params::EvalParams;
use super::trace::MgEg;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::{Color, Geometry, Square};
use menagerie_rules::position::Position;
use menagerie_rules::rules::Rules;

/// The pawns of a position, by side.
pub(super) struct PawnMap<B: BitSet> {
    pub squares: [B; 2],
    /// The squares they attack.
    pub attacks: [B; 2],
}

/// The pawn terms' tables. Tables by `color * squares + sq` are for a pawn of `color` on `sq`.
pub(super) struct Pawns<B: BitSet> {
    geometry: Geometry,
    squares: usize,
    /// Kinds that are pawns.
    kinds: u32,
    /// Squares of a file, by file.
    file_mask: Vec<B>,
    /// Squares of the neighbouring files, by file.
    neighbour_files: Vec<B>,
    /// Squares ahead of the pawn on its file and the neighbouring files (a pawn with no enemy
    /// pawn there is passed).
    front_span: Vec<B>,
    /// `beside[sq]`: the squares next to `sq` on its rank.
    beside: Vec<B>,
    /// Connected-pawn bonus.
    connected: Vec<MgEg>,
    /// Passed-pawn bonus.
    passed: Vec<MgEg>,
    /// The square in front of the pawn, and the endgame weight per square of distance of the
    /// enemy and the own royal piece from it.
    stop_square: Vec<Option<Square>>,
    passer_king: Vec<(i16, i16)>,
    /// `passer_blocked` in 1/256.
    passer_blocked: i32,
    /// Per pawn beyond the first on a file, and per pawn without a friendly pawn beside its file.
    doubled: MgEg,
    isolated: MgEg,
}

impl<B: BitSet> Pawns<B> {
    pub fn new(rules: &Rules<B>, w: &EvalParams) -> Pawns<B> {
        let whole = |x: f64| x.round() as i32;
        let g = rules.geometry;
        let squares = rules.squares;
        let last_rank = g.ranks as i32 - 1;
        let file_mask = file_masks::<B>(g);
        let mut front_span = vec![B::EMPTY; 2 * squares];
        let mut beside = vec![B::EMPTY; squares];
        let mut connected = vec![MgEg::ZERO; 2 * squares];
        let mut passed = vec![MgEg::ZERO; 2 * squares];
        let mut stop_square = vec![None; 2 * squares];
        let mut passer_king = vec![(0i16, 0i16); 2 * squares];
        for sq in g.all_squares() {
            for dx in [-1, 1] {
                if let Some(t) = g.offset(sq, dx, 0) {
                    beside[sq.index()] |= B::square(t);
                }
            }
            for color in Color::BOTH {
                let i = color.index() * squares + sq.index();
                for t in g.all_squares() {
                    let ahead = (g.relative_rank(t, color) - g.relative_rank(sq, color)) > 0;
                    if ahead && (g.file(t) - g.file(sq)).abs() <= 1 {
                        front_span[i] |= B::square(t);
                    }
                }
                let span = (last_rank - 2).max(1) as f64;
                let progress = ((g.relative_rank(sq, color) - 1).max(0) as f64 / span).min(1.0);
                let round = |x: f64| x.round() as i16 as i32;
                passed[i] =
                    MgEg::new(round(w.passed_mg * progress * progress), round(w.passed_eg * progress * progress));
                stop_square[i] = g.offset(sq, 0, color.forward());
                let growth = 1.0 + ((g.relative_rank(sq, color) - 1).max(0) as f64 / (last_rank - 1).max(1) as f64);
                connected[i] = MgEg::new(round(w.connected_mg * growth), round(w.connected_eg * growth));
                passer_king[i] = (
                    (w.passer_enemy_king_eg * progress).round() as i16,
                    (w.passer_own_king_eg * progress).round() as i16,
                );
            }
        }
        let neighbour_files = (0..g.files as usize)
            .map(|f| {
                let left = if f > 0 { file_mask[f - 1] } else { B::EMPTY };
                let right = file_mask.get(f + 1).copied().unwrap_or(B::EMPTY);
                left | right
            })
            .collect();
        Pawns {
            geometry: g,
            squares,
            kinds: (0..rules.kinds).filter(|&k| rules.is_pawn(k)).fold(0u32, |m, k| m | 1 << k),
            file_mask,
            neighbour_files,
            front_span,
            beside,
            connected,
            passed,
            stop_square,
            passer_king,
            passer_blocked: (w.passer_blocked * 256.0).round() as i32,
            doubled: MgEg::new(whole(w.doubled_mg), whole(w.doubled_eg)),
            isolated: MgEg::new(whole(w.isolated_mg), whole(w.isolated_eg)),
        }
    }

    /// Where each side's pawns are and what they attack.
    pub fn map(&self, pos: &Position<B>) -> PawnMap<B> {
        let r = pos.rules();
        let occ = pos.occupied();
        let mut map = PawnMap { squares: [B::EMPTY; 2], attacks: [B::EMPTY; 2] };
        for k in 0..r.kinds {
            if self.kinds & (1 << k) != 0 {
                for color in Color::BOTH {
                    let mine = pos.pieces(color, k);
                    map.squares[color.index()] |= mine;
                    let t = r.kind_tables(k, color);
                    for sq in mine.squares() {
                        map.attacks[color.index()] |= r.reach(&t.capture, sq, occ);
                    }
                }
            }
        }
        map
    }

    /// Doubled, isolated and connected pawns of `color`.
    pub fn structure(&self, map: &PawnMap<B>, color: Color) -> MgEg {
        let ours = map.squares[color.index()];
        let mut s = MgEg::ZERO;
        for (file, &mask) in self.file_mask.iter().enumerate() {
            let on_file = (ours & mask).count() as i32;
            if on_file == 0 {
                continue;
            }
            if on_file > 1 {
                s -= self.doubled * (on_file - 1);
            }
            if (ours & self.neighbour_files[file]).is_empty() {
                s -= self.isolated * on_file;
            }
        }
        let defended = map.attacks[color.index()];
        for sq in ours.squares() {
            if defended.has(sq) || !(self.beside[sq.index()] & ours).is_empty() {
                s += self.connected[color.index() * self.squares + sq.index()];
            }
        }
        s
    }

    /// Passed pawns of `color`. `kings` are the royal pieces of `color` and of its opponent.
    pub fn passed(&self, map: &PawnMap<B>, color: Color, kings: [Option<Square>; 2], occ: B) -> MgEg {
        let (ours, theirs) = (map.squares[color.index()], map.squares[color.flip().index()]);
        let mut s = MgEg::ZERO;
        for sq in ours.squares() {
            let i = color.index() * self.squares + sq.index();
            if !(self.front_span[i] & theirs).is_empty() {
                continue;
            }
            let mut bonus = self.passed[i];
            let Some(stop) = self.stop_square[i] else {
                s += bonus;
                continue;
            };
            if occ.has(stop) {
                bonus.mg -= bonus.mg * self.passer_blocked / 256;
                bonus.eg -= bonus.eg * self.passer_blocked / 256;
            }
            let distance = |king: Option<Square>| king.map_or(0, |k| self.geometry.distance(k, stop).min(5));
            let (enemy, own) = self.passer_king[i];
            bonus.eg += distance(kings[1]) * enemy as i32 - distance(kings[0]) * own as i32;
            s += bonus;
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{position, term_alone, W};
    use super::super::{evaluate, Evaluator};
    use super::*;
    use menagerie_rules::rules::compiled;
    use menagerie_rules::variant::by_name;

    #[test]
    fn passed_pawns_count_and_weak_pawns_cost() {
        // The same pawn, blocked on a neighbouring file or free to run.
        let passed = position("chess", "4k3/8/8/8/3P4/8/8/4K3 w - - 0 1");
        let held = position("chess", "4k3/8/4p3/8/3P4/8/8/4K3 w - - 0 1");
        let held_far = position("chess", "4k3/p7/8/8/3P4/8/8/4K3 w - - 0 1");
        assert!(evaluate(&passed) - evaluate(&held) > 100, "a passed pawn is worth more than a pawn");
        assert!(evaluate(&held_far) > evaluate(&held), "a pawn that cannot stop ours is no defence");
        let healthy = position("chess", "4k3/8/8/8/8/8/2PP4/4K3 w - - 0 1");
        let doubled = position("chess", "4k3/8/8/8/8/3P4/3P4/4K3 w - - 0 1");
        assert!(evaluate(&healthy) > evaluate(&doubled));
    }

    #[test]
    fn passed_pawns_want_the_enemy_king_far_and_their_path_free() {
        let off = EvalParams { passer_enemy_king_eg: 0.0, passer_own_king_eg: 0.0, passer_blocked: 0.0, ..W };
        let term = |fen: &str| term_alone(fen, &off);
        let with = Evaluator::with_params(compiled::<u64>(by_name("chess").unwrap()), &W);
        // A white pawn on d6 (stop square d7), bare kings: a pure endgame.
        let progress = 4.0 / 5.0;
        let per_square = |weight: f64| (weight * progress).round() as i32;
        // The black king four squares from d7 (h7), the white one five (d2) or one (e6).
        let far_king = term("8/7k/3P4/8/8/8/3K4/8 w - - 0 1");
        assert_eq!(far_king, 4 * per_square(W.passer_enemy_king_eg) - 5 * per_square(W.passer_own_king_eg));
        let escorted = term("8/7k/3PK3/8/8/8/8/8 w - - 0 1");
        assert_eq!(escorted, 4 * per_square(W.passer_enemy_king_eg) - per_square(W.passer_own_king_eg));
        // The black king on the stop square: it blocks and is at distance 0.
        let blocked = term("8/3k4/3P4/4K3/8/8/8/8 w - - 0 1");
        let bonus = with.pawns.passed[Color::White.index() * 64 + 43].eg;
        assert_eq!(blocked, -(bonus * with.pawns.passer_blocked / 256) - 2 * per_square(W.passer_own_king_eg));
        assert!(escorted > far_king && blocked < escorted, "{far_king} {escorted} {blocked}");
    }

    #[test]
    fn connected_pawns_and_a_closed_king_file_count() {
        let off = EvalParams { connected_mg: 0.0, connected_eg: 0.0, royal_open_file_mg: 0.0, ..W };
        let term = |fen: &str| term_alone(fen, &off);
        let with = Evaluator::with_params(compiled::<u64>(by_name("chess").unwrap()), &W);
        // Bare kings and pawns: a pure endgame, where only the connected bonus counts.
        let bonus = |sq: usize| with.pawns.connected[sq].eg;
        // d4 and e4 side by side; d4 defended by e3; d4 and f4 apart.
        assert_eq!(term("7k/8/8/8/3PP3/8/8/K7 w - - 0 1"), bonus(27) + bonus(28));
        assert_eq!(term("7k/8/8/8/3P4/4P3/8/K7 w - - 0 1"), bonus(27));
        assert_eq!(term("7k/8/8/8/3P1P2/8/8/K7 w - - 0 1"), 0);
        assert!(with.pawns.connected[27 + 16].mg > with.pawns.connected[27].mg, "the bonus grows with progress");
        // With the pieces on, the middlegame: the king on g1 behind f2-g2-h2, or with g2 gone.
        let closed = term("rnbqkbnr/pppppppp/8/8/8/8/5PPP/RNBQ1RK1 w - - 0 1");
        let open = term("rnbqkbnr/pppppppp/8/8/8/8/5P1P/RNBQ1RK1 w - - 0 1");
        assert!(closed > open, "{closed} {open}");
    }
}
