//! The tuned numbers of the tree search, in one value: windows, margins, depth limits and
//! reductions, each with the reason it has the value it has, and the late-move reduction
//! formula they feed.
//!
//! Owns: `SearchParams` (and its one value, `SearchParams::DEFAULT`), `late_move_reduction`.
//! Must not know: positions, moves, the evaluation, threads; which techniques are switched on
//! (that is `Features`).
//!
//! The values are a constant, so that the compiler folds every number into the search as it
//! would a literal. A tuner (SPSA, say) would make them a field of the `SearchJob`.

use super::score::Score;
use once_cell::sync::Lazy;

/// Every tuned number of the tree search. Depths are in plies; margins in centipawns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchParams {
    // Aspiration windows at the root.
    /// Iterations shallower than this search with the full window: their scores swing too much
    /// from one depth to the next for a window around the previous one to hold.
    pub aspiration_min_depth: i32,
    /// The first half-width of the window: about a quarter of a pawn, the usual change of score
    /// between two iterations once the score has settled.
    pub aspiration_window: Score,
    /// Once the half-width (doubled on every failure) exceeds this, the window opens fully: a
    /// score that moved by ten pawns is not near anything, and more narrow searches only waste
    /// time.
    pub aspiration_full_window_after: Score,

    // Node pruning, before the moves are generated (non-PV nodes, not in check).
    /// Reverse futility: a node whose evaluation is above beta by this much per ply of depth
    /// (a ply less where the position is improving) is taken to fail high: about a pawn per
    /// ply, more than the opponent usually wins back per move of a quiet line.
    pub reverse_futility_margin: Score,
    /// Reverse futility applies up to this depth: deeper, the search has room to find what the
    /// evaluation misses.
    pub reverse_futility_depth: i32,
    /// Razoring: a node whose evaluation is this much per ply of depth below alpha is settled
    /// by quiescence when quiescence cannot lift it to alpha: two and a half pawns, more than a
    /// quiet move gains near the leaves.
    pub razor_margin: Score,
    /// Razoring applies up to this depth (1-2 plies: deeper, a quiet plan can find the
    /// material the margin stands for).
    pub razor_depth: i32,
    /// Null move: tried from this depth. Up to depth 5 the reduced search is quiescence alone:
    /// cheap, and enough to see the captures that punish passing; shallower, it would cost about
    /// as much as the node it spares.
    pub null_move_min_depth: i32,
    /// The null move's reduction is `base + depth / per_depth + min((eval - beta) / per_eval,
    /// eval_max)` plies (on top of the ply the null move takes): the classic R = 3, growing
    /// with depth (the deeper, the more the reduced search can still see) and with how far the
    /// evaluation is above beta (the more, the more surely the node fails high).
    pub null_move_reduction_base: i32,
    pub null_move_reduction_per_depth: i32,
    /// Two pawns above beta for each extra ply of null-move reduction, at most `eval_max`.
    pub null_move_reduction_per_eval: Score,
    pub null_move_reduction_eval_max: i32,
    /// Internal iterative reduction: a node without a table move is searched one ply shallower
    /// from this depth. Shallower nodes are cheap enough to search without a good first move,
    /// and the reduced search fills the table for the next iteration.
    pub iir_depth: i32,

    // Move pruning, inside the move loop (non-PV nodes, not in check, once a move is searched).
    /// SEE pruning: a capture that loses more than this per ply of depth in the exchange is
    /// skipped, a pawn per ply: near the leaves there is no time to win the material back.
    pub see_pruning_per_depth: Score,
    /// SEE pruning applies up to this depth.
    pub see_pruning_depth: i32,
    /// Futility pruning: a quiet move is skipped where the evaluation plus `base + per_depth *
    /// depth` does not reach alpha. The margin (170 at depth 1, 350 at depth 3) is what a quiet
    /// move can gain in positional terms within that many plies; material needs a capture.
    pub futility_base: Score,
    pub futility_per_depth: Score,
    /// Futility pruning applies up to this depth.
    pub futility_depth: i32,
    /// Late-move pruning: after `base + depth * depth` quiet moves at a node the rest are
    /// skipped. The ordering puts the moves likely to matter first; the count grows with the
    /// square of depth, since deeper a late move has more room to prove itself.
    pub late_move_base: usize,
    /// Late-move pruning applies up to this depth.
    pub late_move_depth: i32,
    /// History pruning: a quiet move whose history is below `-per_depth * depth` is skipped: it
    /// failed again and again elsewhere. 3000 is about a fifth of the history's range per ply.
    pub history_pruning_per_depth: i32,
    /// History pruning applies up to this depth.
    pub history_pruning_depth: i32,

    // Extensions.
    /// A check below the root is extended only while the ply is below this many times the
    /// iteration's depth: an endless series of checks cannot grow the tree without bound.
    pub check_extension_ply_per_depth: usize,

    // Late-move reductions.
    /// Late-move reductions start at this depth: shallower, a reduced search would go straight
    /// into quiescence.
    pub lmr_min_depth: i32,
    /// The first this many moves of a node are not reduced: the table move, the good captures
    /// and the killers are mostly among them.
    pub lmr_min_moves: usize,
    /// The reduction at depth d for the n-th move is `base + ln(d) * ln(n) / divisor` plies,
    /// rounded down: growing slowly with both, the shape of Stockfish's formula. With a base of
    /// 0.75 every move the other conditions let through is reduced by at least a ply; the
    /// divisor sets how fast it grows (2 plies from the 5th move at depth 6, 3 plies at the 20th
    /// move at depth 10).
    pub lmr_base: f64,
    pub lmr_divisor: f64,
    /// History worth one ply less (or more) of reduction: over the history's range (+/-16384)
    /// it moves the reduction by two plies at most.
    pub lmr_history_per_ply: i32,
    /// Captures that lose the exchange (as the ordering found) are searched this many plies
    /// shallower from `lmr_min_depth` on, unless they check: they rarely turn out best.
    pub losing_capture_reduction: i32,

    // Quiescence.
    /// Quiescence plies in which drops that give check are searched: one, for the tactic a
    /// piece in hand threatens at once; more would search every drop sequence.
    pub quiet_drop_plies: usize,
    /// Delta pruning: a capture that cannot lift the stand-pat score to alpha even with this
    /// much to spare (two pawns, for what the position gains besides the victim) is skipped.
    pub delta_margin: Score,
}

impl SearchParams {
    /// The values the engine plays with.
    pub const DEFAULT: SearchParams = SearchParams {
        aspiration_min_depth: 4,
        aspiration_window: 25,
        aspiration_full_window_after: 1000,
        reverse_futility_margin: 90,
        reverse_futility_depth: 6,
        razor_margin: 250,
        razor_depth: 2,
        null_move_min_depth: 3,
        null_move_reduction_base: 3,
        null_move_reduction_per_depth: 4,
        null_move_reduction_per_eval: 200,
        null_move_reduction_eval_max: 2,
        iir_depth: 4,
        see_pruning_per_depth: 100,
        see_pruning_depth: 4,
        futility_base: 80,
        futility_per_depth: 90,
        futility_depth: 3,
        late_move_base: 3,
        late_move_depth: 4,
        history_pruning_per_depth: 3000,
        history_pruning_depth: 3,
        check_extension_ply_per_depth: 2,
        lmr_min_depth: 3,
        lmr_min_moves: 3,
        lmr_base: 0.75,
        lmr_divisor: 2.25,
        lmr_history_per_ply: 6000,
        losing_capture_reduction: 1,
        quiet_drop_plies: 1,
        delta_margin: 200,
    };

    /// The null move's reduction at `depth`, on top of the ply the null move takes, where the
    /// node's evaluation is `eval` against `beta` (`eval >= beta`).
    #[inline]
    pub fn null_move_reduction(&self, depth: i32, eval: Score, beta: Score) -> i32 {
        self.null_move_reduction_base
            + depth / self.null_move_reduction_per_depth
            + ((eval - beta) / self.null_move_reduction_per_eval).min(self.null_move_reduction_eval_max)
    }

    /// The late-move reduction table for these parameters, by depth and move number (both
    /// from 1; row and column 0 are 0).
    pub fn reduction_table(&self) -> [[u8; REDUCTION_TABLE_SIZE]; REDUCTION_TABLE_SIZE] {
        let mut t = [[0u8; REDUCTION_TABLE_SIZE]; REDUCTION_TABLE_SIZE];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (self.lmr_base + (d as f64).ln() * (n as f64).ln() / self.lmr_divisor) as u8;
            }
        }
        t
    }
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams::DEFAULT
    }
}

/// Depths and move numbers past the last row and column of the reduction table share them.
pub const REDUCTION_TABLE_SIZE: usize = 64;

static REDUCTIONS: Lazy<[[u8; REDUCTION_TABLE_SIZE]; REDUCTION_TABLE_SIZE]> =
    Lazy::new(|| SearchParams::DEFAULT.reduction_table());

/// The base late-move reduction, in plies, of the `number`-th legal move (from 1) at `depth`
/// under `SearchParams::DEFAULT`, before the node's and the move's adjustments.
#[inline]
pub fn late_move_reduction(depth: i32, number: usize) -> i32 {
    let last = REDUCTION_TABLE_SIZE - 1;
    REDUCTIONS[(depth.max(0) as usize).min(last)][number.min(last)] as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        let t = SearchParams::DEFAULT.reduction_table();
        for d in 1..REDUCTION_TABLE_SIZE {
            for n in 1..REDUCTION_TABLE_SIZE {
                if d > 1 {
                    assert!(t[d][n] >= t[d - 1][n], "depth {d}, move {n}");
                }
                if n > 1 {
                    assert!(t[d][n] >= t[d][n - 1], "depth {d}, move {n}");
                }
            }
        }
        assert_eq!(late_move_reduction(REDUCTION_TABLE_SIZE as i32 + 10, 500), t[63][63] as i32);
    }

    #[test]
    fn the_null_move_reduction_grows_with_depth_and_the_margin_to_beta_up_to_a_cap() {
        let p = SearchParams::DEFAULT;
        assert_eq!(p.null_move_reduction(3, 100, 100), 3);
        assert_eq!(p.null_move_reduction(8, 100, 100), 5);
        assert_eq!(p.null_move_reduction(8, 500, 100), 7);
        assert_eq!(p.null_move_reduction(8, 5000, 100), 7);
        for depth in 3..40 {
            for margin in (0..2000).step_by(50) {
                let r = p.null_move_reduction(depth, margin, 0);
                assert!(r >= p.null_move_reduction(depth - 1, margin, 0));
                assert!(margin == 0 || r >= p.null_move_reduction(depth, margin - 50, 0));
            }
        }
    }

    #[test]
    fn the_first_reductions_come_where_the_parameters_say() {
        // The first move and depth 1 are never reduced; a move late enough at lmr_min_depth
        // is, by a ply at most.
        let p = SearchParams::DEFAULT;
        for d in 1..REDUCTION_TABLE_SIZE as i32 {
            assert_eq!(late_move_reduction(d, 1), 0);
        }
        for n in 1..REDUCTION_TABLE_SIZE {
            assert_eq!(late_move_reduction(1, n), 0);
        }
        assert_eq!(late_move_reduction(p.lmr_min_depth, p.lmr_min_moves + 1), 1);
        assert!(late_move_reduction(p.lmr_min_depth, REDUCTION_TABLE_SIZE) <= 2);
    }
}
