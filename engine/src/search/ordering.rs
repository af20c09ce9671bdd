//! Move ordering: the table move first, then captures and promotions by most valuable victim /
//! least valuable attacker, then killer moves and the counter-move, then quiet moves (drops
//! included) by their history score, and last the captures that lose the exchange. Also the per-thread tables these need.
//!
//! Owns: `Heuristics` (killers, history, counter-moves), move classification for the search,
//! `score_moves`, `pick_next`.
//! Must not know: search control (windows, depths, threads), notation, protocols.

use super::params::SearchParams;
use super::score::MAX_PLY;
use super::see::see;
use crate::eval::Evaluation;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::moves::{Move, MoveKind, MoveList, StackList};
use menagerie_rules::position::Position;
use menagerie_rules::variant::{PieceKind, MAX_KINDS};

const TABLE_MOVE: i32 = 1 << 30;
const TACTICAL: i32 = 1 << 28;
const KILLER: i32 = 1 << 27;
/// Captures that lose material in the exchange come after every quiet move.
const BAD_CAPTURE: i32 = -(1 << 26);
const SQUARES: usize = 128;

/// Whether a move captures something.
#[inline]
pub fn is_capture<B: BitSet>(pos: &Position<B>, m: Move) -> bool {
    match m.kind() {
        MoveKind::EnPassant => true,
        MoveKind::Castle | MoveKind::Drop => false,
        _ => pos.piece_at(m.to()).is_some(),
    }
}

/// Whether a move is a capture or a promotion (the moves quiescence searches).
#[inline]
pub fn is_tactical<B: BitSet>(pos: &Position<B>, m: Move) -> bool {
    m.kind() == MoveKind::Promotion || is_capture(pos, m)
}

/// The kind of the piece that moves (or is dropped).
#[inline]
pub fn mover_kind<B: BitSet>(pos: &Position<B>, m: Move) -> PieceKind {
    match m.kind() {
        MoveKind::Drop => m.piece(),
        MoveKind::Castle => pos.rules().royal,
        _ => pos.piece_at(m.from()).map_or(0, |p| p.kind),
    }
}

/// The kind captured by a move, if any.
#[inline]
pub fn victim_kind<B: BitSet>(pos: &Position<B>, m: Move) -> Option<PieceKind> {
    match m.kind() {
        MoveKind::EnPassant => pos.piece_at(m.from()).map(|p| p.kind),
        MoveKind::Castle | MoveKind::Drop => None,
        _ => pos.piece_at(m.to()).map(|p| p.kind),
    }
}

/// Killers, history and counter-moves of one search thread.
pub struct Heuristics {
    killers: Vec<[Move; 2]>,
    /// `history[(color * MAX_KINDS + kind) * SQUARES + to]`.
    history: Vec<i32>,
    /// `counter[from * SQUARES + to]` of the previous move.
    counter: Vec<Move>,
}

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics::new()
    }
}

impl Heuristics {
    pub fn new() -> Heuristics {
        Heuristics {
            killers: vec![[Move::NONE; 2]; MAX_PLY + 2],
            history: vec![0; 2 * MAX_KINDS * SQUARES],
            counter: vec![Move::NONE; SQUARES * SQUARES],
        }
    }

    /// Ready for a new search from tables an earlier one filled: the killers were of its
    /// plies, which are another position's now; the history and counter-moves still hold.
    pub fn new_search(&mut self) {
        self.killers.fill([Move::NONE; 2]);
    }

    #[inline]
    fn history_index(color: Color, kind: PieceKind, m: Move) -> usize {
        (color.index() * MAX_KINDS + kind) * SQUARES + m.to().index()
    }

    /// The killer moves of a ply.
    #[inline]
    pub fn killers(&self, ply: usize) -> [Move; 2] {
        self.killers[ply]
    }

    /// The counter-move to the previous move.
    #[inline]
    pub fn counter(&self, previous: Move) -> Move {
        if previous.is_some() {
            self.counter[previous.from().index() * SQUARES + previous.to().index()]
        } else {
            Move::NONE
        }
    }

    /// The history score of a quiet move.
    #[inline]
    pub fn history(&self, color: Color, kind: PieceKind, m: Move) -> i32 {
        self.history[Self::history_index(color, kind, m)]
    }

    /// Move a history entry by `bonus`, pulled towards zero the nearer it is to `limit` (the
    /// gravity that keeps it within +/- `limit`).
    fn add_history(&mut self, color: Color, kind: PieceKind, m: Move, bonus: i32, limit: i32) {
        let h = &mut self.history[Self::history_index(color, kind, m)];
        let bonus = bonus.clamp(-limit, limit);
        *h += bonus - *h * bonus.abs() / limit;
    }

    /// A quiet move caused a beta cutoff at `depth`: reward it, punish the quiet moves tried
    /// before it (by `params`' history numbers), remember it as killer and counter-move.
    #[allow(clippy::too_many_arguments)]
    pub fn quiet_cutoff<B: BitSet>(
        &mut self,
        pos: &Position<B>,
        m: Move,
        tried: &[Move],
        depth: i32,
        ply: usize,
        previous: Move,
        params: &SearchParams,
    ) {
        let color = pos.side_to_move();
        let limit = params.history_limit.max(1);
        self.add_history(color, mover_kind(pos, m), m, params.history_bonus(depth), limit);
        let malus = params.history_malus(depth);
        for &q in tried {
            if q != m {
                self.add_history(color, mover_kind(pos, q), q, -malus, limit);
            }
        }
        let k = &mut self.killers[ply];
        if k[0] != m {
            k[1] = k[0];
            k[0] = m;
        }
        if previous.is_some() {
            self.counter[previous.from().index() * SQUARES + previous.to().index()] = m;
        }
    }
}

/// Ordering scores of a move list, index for index.
pub type ScoreList = StackList<i32>;

/// Whether an ordering score from `score_moves` marks a capture that loses the exchange. Bad
/// captures sit within a few million of `BAD_CAPTURE`, far below every quiet move's history.
#[inline]
pub fn is_losing_capture(score: i32) -> bool {
    score < BAD_CAPTURE / 2
}

/// Give every move of `list` an ordering score in `scores` (higher first), index for index.
#[allow(clippy::too_many_arguments)]
pub fn score_moves<B: BitSet>(
    pos: &Position<B>,
    list: &MoveList,
    scores: &mut ScoreList,
    table_move: Move,
    killers: [Move; 2],
    counter: Move,
    heuristics: &Heuristics,
    eval: &Evaluation<B>,
) {
    let color = pos.side_to_move();
    scores.clear();
    for &m in list.iter() {
        scores.push(if m == table_move {
            TABLE_MOVE
        } else if is_tactical(pos, m) {
            let victim = victim_kind(pos, m).map_or(0, |k| eval.order_value(k));
            let promotion = if m.kind() == MoveKind::Promotion { eval.value(m.piece()) } else { 0 };
            let attacker = eval.order_value(mover_kind(pos, m)).min(20_000);
            let order = (victim + promotion) * 32 - attacker / 16;
            // Only a capture by a piece worth more than its victim can lose the exchange.
            if attacker > victim + promotion && see(pos, eval, m) < 0 {
                BAD_CAPTURE + order
            } else {
                TACTICAL + order
            }
        } else if m == killers[0] {
            KILLER + 2
        } else if m == killers[1] {
            KILLER + 1
        } else if m == counter {
            KILLER
        } else {
            heuristics.history(color, mover_kind(pos, m), m)
        });
    }
}

/// Move the best-scored move of `list[start..]` to `start` (selection sort, one step) and return
/// it.
#[inline]
pub fn pick_next(list: &mut MoveList, scores: &mut [i32], start: usize) -> Move {
    let moves = list.as_mut_slice();
    let rest = &scores[start..moves.len()];
    // Two passes, the highest score and then its first index, rather than one loop carrying
    // the best index: the first pass vectorises. The first of equal scores wins, as a one-pass
    // loop with `>` would pick: the move order is the same either way.
    let top = rest.iter().copied().max().unwrap_or(0);
    let best = start + rest.iter().position(|&s| s == top).unwrap_or(0);
    moves.swap(start, best);
    scores.swap(start, best);
    moves[start]
}
