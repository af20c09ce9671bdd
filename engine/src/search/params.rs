//! The tuned numbers of the search, in one table: windows, margins, depth limits, reductions,
//! the history's bonus and limits, and the time manager's shares, each declared once with its
//! default, the range a tuner may move it in and the SPSA step (`c_end`) to move it by, and the
//! reason it has the value it has; and the late-move reduction formula they feed.
//!
//! Owns: `SearchParams` (and its one value, `SearchParams::DEFAULT`), `TUNABLES` (the table's
//! metadata), `Tuning` (the numbers one search runs with), `late_move_reduction`; with the
//! `tune` feature, the process's current values (`set_tunable`) and `TuneError`.
//! Must not know: positions, moves, the evaluation, threads, protocols; which techniques are
//! switched on (that is `Features`).
//!
//! Every number is an integer (the two of the reduction formula in hundredths), so that one
//! kind of UCI option and one SPSA line describe them all. In the default build a search reads
//! `SearchParams::DEFAULT`, a constant, so that the compiler folds every number into the search
//! as it would a literal. Built with the `tune` feature, a search reads a snapshot of the
//! current values, taken once when it starts (`Tuning::current`); the engine offers each
//! number as a UCI and XBoard spin option of the same name (`engine::options`).

use super::score::Score;
use once_cell::sync::Lazy;
use std::fmt;

/// One number of the table as a tuner sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Tunable {
    /// The field's name, which is also the option's.
    pub name: &'static str,
    pub default: i64,
    pub min: i64,
    pub max: i64,
    /// The SPSA perturbation at the end of a tuning run (OpenBench's `c_end`): about a
    /// twentieth of the range, or half a unit for a small whole number such as a depth.
    pub step: f64,
}

/// OpenBench's `r_end`, the same for every number: the learning rate at the end of a run, as
/// OpenBench's documentation recommends.
pub const OPENBENCH_R_END: f64 = 0.002;

impl Tunable {
    /// The OpenBench SPSA input line: `NAME, int, DEFAULT, MIN, MAX, C_END, R_END`.
    pub fn openbench_line(&self) -> String {
        format!("{}, int, {}, {}, {}, {}, {}", self.name, self.default, self.min, self.max, self.step, OPENBENCH_R_END)
    }
}

/// The table: `name: type = default, min..=max, step;` with the reason for each number above
/// it. It declares the struct, its `DEFAULT` and `TUNABLES` in the same order.
macro_rules! search_params {
    ($( $(#[$doc:meta])* $name:ident : $ty:ty = $default:literal, $min:literal ..= $max:literal, $step:literal; )*) => {
        /// Every tuned number of the search. Depths are in plies; margins in centipawns.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchParams {
            $( $(#[$doc])* pub $name: $ty, )*
        }

        impl SearchParams {
            /// The values the engine plays with.
            pub const DEFAULT: SearchParams = SearchParams { $( $name: $default, )* };

            /// The value of the number called `name`.
            pub fn get(&self, name: &str) -> Option<i64> {
                match name {
                    $( stringify!($name) => Some(self.$name as i64), )*
                    _ => None,
                }
            }

            /// Set the number called `name` (whatever its range: see `Tunable`); false when
            /// there is none.
            pub fn set(&mut self, name: &str, value: i64) -> bool {
                match name {
                    $( stringify!($name) => self.$name = value as $ty, )*
                    _ => return false,
                }
                true
            }

            /// The numbers in the table's order, from `values` (`None` when it has too few).
            pub fn from_values(values: &[i64]) -> Option<SearchParams> {
                let mut next = values.iter().copied();
                Some(SearchParams { $( $name: next.next()? as $ty, )* })
            }
        }

        /// Every number of `SearchParams`, in declaration order.
        pub const TUNABLES: &[Tunable] = &[
            $( Tunable { name: stringify!($name), default: $default, min: $min, max: $max, step: $step as f64 }, )*
        ];
    };
}

search_params! {
    // Aspiration windows at the root.
    /// Iterations shallower than this search with the full window: their scores swing too much
    /// from one depth to the next for a window around the previous one to hold.
    aspiration_min_depth: i32 = 4, 1..=10, 0.5;
    /// The first half-width of the window: about a quarter of a pawn, the usual change of score
    /// between two iterations once the score has settled.
    aspiration_window: Score = 25, 5..=100, 3;
    /// Once the half-width (doubled on every failure) exceeds this, the window opens fully: a
    /// score that moved by ten pawns is not near anything, and more narrow searches only waste
    /// time.
    aspiration_full_window_after: Score = 1000, 200..=5000, 100;

    // Node pruning, before the moves are generated (non-PV nodes, not in check).
    /// Reverse futility: a node whose evaluation is above beta by this much per ply of depth
    /// (a ply less where the position is improving) is taken to fail high: about a pawn per
    /// ply, more than the opponent usually wins back per move of a quiet line.
    reverse_futility_margin: Score = 90, 30..=200, 8;
    /// Reverse futility applies up to this depth: deeper, the search has room to find what the
    /// evaluation misses.
    reverse_futility_depth: i32 = 6, 2..=12, 0.5;
    /// Razoring: a node whose evaluation is this much per ply of depth below alpha is settled
    /// by quiescence when quiescence cannot lift it to alpha: two and a half pawns, more than a
    /// quiet move gains near the leaves.
    razor_margin: Score = 250, 50..=600, 20;
    /// Razoring applies up to this depth (1-2 plies: deeper, a quiet plan can find the
    /// material the margin stands for).
    razor_depth: i32 = 2, 0..=6, 0.5;
    /// Null move: tried from this depth. Up to depth 5 the reduced search is quiescence alone:
    /// cheap, and enough to see the captures that punish passing; shallower, it would cost about
    /// as much as the node it spares.
    null_move_min_depth: i32 = 3, 1..=8, 0.5;
    /// The null move's reduction is `base + depth / per_depth + min((eval - beta) / per_eval,
    /// eval_max)` plies (on top of the ply the null move takes): the classic R = 3, growing
    /// with depth (the deeper, the more the reduced search can still see) and with how far the
    /// evaluation is above beta (the more, the more surely the node fails high).
    null_move_reduction_base: i32 = 3, 1..=6, 0.5;
    /// Depth per extra ply of null-move reduction (a divisor: at least 1).
    null_move_reduction_per_depth: i32 = 4, 1..=10, 0.5;
    /// Two pawns above beta for each extra ply of null-move reduction, at most `eval_max` (a
    /// divisor: at least 1).
    null_move_reduction_per_eval: Score = 200, 50..=600, 20;
    /// The most plies the margin above beta adds to the null move's reduction.
    null_move_reduction_eval_max: i32 = 2, 0..=6, 0.5;
    /// Internal iterative reduction: a node without a table move is searched one ply shallower
    /// from this depth. Shallower nodes are cheap enough to search without a good first move,
    /// and the reduced search fills the table for the next iteration.
    iir_depth: i32 = 4, 2..=10, 0.5;

    // Move pruning, inside the move loop (non-PV nodes, not in check, once a move is searched).
    /// SEE pruning: a capture that loses more than this per ply of depth in the exchange is
    /// skipped, a pawn per ply: near the leaves there is no time to win the material back.
    see_pruning_per_depth: Score = 100, 20..=300, 8;
    /// SEE pruning applies up to this depth.
    see_pruning_depth: i32 = 4, 1..=10, 0.5;
    /// Futility pruning: a quiet move is skipped where the evaluation plus `base + per_depth *
    /// depth` does not reach alpha. The margin (170 at depth 1, 350 at depth 3) is what a quiet
    /// move can gain in positional terms within that many plies; material needs a capture.
    futility_base: Score = 80, 0..=300, 8;
    /// Futility pruning's margin per ply of depth.
    futility_per_depth: Score = 90, 20..=300, 8;
    /// Futility pruning applies up to this depth.
    futility_depth: i32 = 3, 1..=10, 0.5;
    /// Late-move pruning: after `base + depth * depth` quiet moves at a node the rest are
    /// skipped. The ordering puts the moves likely to matter first; the count grows with the
    /// square of depth, since deeper a late move has more room to prove itself.
    late_move_base: usize = 3, 0..=12, 0.5;
    /// Late-move pruning applies up to this depth.
    late_move_depth: i32 = 4, 1..=10, 0.5;
    /// History pruning: a quiet move whose history is below `-per_depth * depth` is skipped: it
    /// failed again and again elsewhere. 3000 is about a fifth of the history's range per ply.
    history_pruning_per_depth: i32 = 3000, 500..=10000, 200;
    /// History pruning applies up to this depth.
    history_pruning_depth: i32 = 3, 1..=8, 0.5;

    // Extensions.
    /// A check below the root is extended only while the ply is below this many times the
    /// iteration's depth: an endless series of checks cannot grow the tree without bound.
    check_extension_ply_per_depth: usize = 2, 1..=4, 0.5;

    // Late-move reductions.
    /// Late-move reductions start at this depth: shallower, a reduced search would go straight
    /// into quiescence.
    lmr_min_depth: i32 = 3, 1..=8, 0.5;
    /// The first this many moves of a node are not reduced: the table move, the good captures
    /// and the killers are mostly among them.
    lmr_min_moves: usize = 3, 1..=10, 0.5;
    /// The reduction at depth d for the n-th move is `base + ln(d) * ln(n) / divisor` plies,
    /// rounded down: growing slowly with both, the shape of Stockfish's formula. With a base of
    /// 0.75 every move the other conditions let through is reduced by at least a ply; the
    /// divisor sets how fast it grows (2 plies from the 5th move at depth 6, 3 plies at the 20th
    /// move at depth 10). The base in hundredths of a ply.
    lmr_base_hundredths: i32 = 75, 0..=200, 8;
    /// The reduction formula's divisor, in hundredths (at least 1).
    lmr_divisor_hundredths: i32 = 225, 100..=500, 12;
    /// History worth one ply less (or more) of reduction: over the history's range (+/-16384)
    /// it moves the reduction by two plies at most (a divisor: at least 1).
    lmr_history_per_ply: i32 = 6000, 1000..=20000, 400;
    /// Captures that lose the exchange (as the ordering found) are searched this many plies
    /// shallower from `lmr_min_depth` on, unless they check: they rarely turn out best.
    losing_capture_reduction: i32 = 1, 0..=3, 0.5;

    // Quiescence.
    /// Quiescence plies in which drops that give check are searched: one, for the tactic a
    /// piece in hand threatens at once; more would search every drop sequence.
    quiet_drop_plies: usize = 1, 0..=4, 0.5;
    /// Delta pruning: a capture that cannot lift the stand-pat score to alpha even with this
    /// much to spare (two pawns, for what the position gains besides the victim) is skipped.
    delta_margin: Score = 200, 0..=600, 15;

    // The history of quiet moves (move ordering, history pruning, reductions).
    /// A quiet move that causes a cutoff at depth d gains `min(per_depth_squared * d * d, max)`
    /// history: deep cutoffs say more, and no single one may swamp the table.
    history_bonus_per_depth_squared: i32 = 16, 1..=64, 2;
    /// The largest bonus of one cutoff.
    history_bonus_max: i32 = 6400, 1000..=16384, 300;
    /// Each quiet move tried before the one that cut off loses `min(per_depth_squared * d * d,
    /// max)`: as much as the winner gains, so that a move that only sometimes works stays
    /// near zero.
    history_malus_per_depth_squared: i32 = 16, 1..=64, 2;
    /// The largest malus of one cutoff.
    history_malus_max: i32 = 6400, 1000..=16384, 300;
    /// History scores stay within +/- this (every update pulls an entry towards zero in
    /// proportion, the "gravity" of Stockfish's history): far below the ordering's classes of
    /// killers and captures.
    history_limit: i32 = 16384, 4096..=65536, 1000;

    // Time management (`time`): under a clock, how much of it a move may take.
    /// The moves left in the game assumed when the clock does not say. Most games are decided
    /// well before the clock runs low, so time saved for a long ending is mostly never used:
    /// 20, fewer than the customary 30, spends it while it still decides the game.
    time_moves_to_go: u64 = 20, 5..=60, 2;
    /// The share of the increment a move may spend on top of its part of the clock, in
    /// percent: most of it, keeping some for a hard move.
    time_increment_percent: u64 = 75, 25..=100, 4;
    /// No iteration starts after this percentage of the move's share: an iteration takes
    /// longer than all before it, so one started after half the share ends near it.
    time_soft_percent: u64 = 50, 20..=100, 4;
    /// The hard limit, in percent of the move's share: a few shares, for an iteration that
    /// must end (see `time_hard_clock_divisor` for the cap).
    time_hard_percent: u64 = 400, 150..=800, 25;
    /// The hard limit is at most the clock divided by this (most of it only when this is the
    /// last move before the control).
    time_hard_clock_divisor: u64 = 3, 2..=6, 0.5;
    /// The soft limit's scale, in percent, after 0, 1, 2, 3 and 4 or more iterations with the
    /// same best move: a move that keeps changing is worth more time, a settled choice less.
    /// The shape of Stockfish's best-move-instability factor, with milder numbers.
    time_stability_percent_0: u64 = 150, 80..=250, 6;
    /// See `time_stability_percent_0`.
    time_stability_percent_1: u64 = 120, 70..=200, 6;
    /// See `time_stability_percent_0`.
    time_stability_percent_2: u64 = 100, 60..=160, 5;
    /// See `time_stability_percent_0`.
    time_stability_percent_3: u64 = 85, 50..=140, 5;
    /// See `time_stability_percent_0`.
    time_stability_percent_4: u64 = 75, 40..=120, 5;
    /// A score that fell by this many centipawns since the previous iteration doubles the time
    /// (Stockfish's falling-eval factor; a divisor: at least 1).
    time_falling_eval_divisor: u64 = 200, 50..=800, 20;
    /// The most the falling score may scale the time by, in percent.
    time_falling_max_percent: u64 = 150, 100..=300, 6;
}

impl SearchParams {
    /// The null move's reduction at `depth`, on top of the ply the null move takes, where the
    /// node's evaluation is `eval` against `beta` (`eval >= beta`).
    #[inline]
    pub fn null_move_reduction(&self, depth: i32, eval: Score, beta: Score) -> i32 {
        self.null_move_reduction_base
            + depth / self.null_move_reduction_per_depth
            + ((eval - beta) / self.null_move_reduction_per_eval).min(self.null_move_reduction_eval_max)
    }

    /// The history bonus of a quiet move that caused a cutoff at `depth`.
    #[inline]
    pub fn history_bonus(&self, depth: i32) -> i32 {
        (self.history_bonus_per_depth_squared * depth * depth).min(self.history_bonus_max)
    }

    /// The history malus of a quiet move tried before the one that cut off at `depth`.
    #[inline]
    pub fn history_malus(&self, depth: i32) -> i32 {
        (self.history_malus_per_depth_squared * depth * depth).min(self.history_malus_max)
    }

    /// How much of the soft time limit an iteration may start within, given for how many
    /// iterations in a row the best move has stayed the same (`stable`) and how far the score
    /// fell since the previous iteration (`drop`, in centipawns).
    pub fn iteration_time_factor(&self, stable: u32, drop: i32) -> f64 {
        let by_stability = [
            self.time_stability_percent_0,
            self.time_stability_percent_1,
            self.time_stability_percent_2,
            self.time_stability_percent_3,
            self.time_stability_percent_4,
        ];
        let stability = by_stability[(stable as usize).min(by_stability.len() - 1)] as f64 / 100.0;
        let falling = (1.0 + f64::from(drop.max(0)) / self.time_falling_eval_divisor as f64)
            .min(self.time_falling_max_percent as f64 / 100.0);
        stability * falling
    }

    /// The late-move reduction table for these parameters, by depth and move number (both
    /// from 1; row and column 0 are 0).
    pub fn reduction_table(&self) -> ReductionTable {
        let base = f64::from(self.lmr_base_hundredths) / 100.0;
        let divisor = f64::from(self.lmr_divisor_hundredths.max(1)) / 100.0;
        let mut t = [[0u8; REDUCTION_TABLE_SIZE]; REDUCTION_TABLE_SIZE];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (base + (d as f64).ln() * (n as f64).ln() / divisor) as u8;
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

/// The table entry called `name`.
pub fn tunable(name: &str) -> Option<&'static Tunable> {
    TUNABLES.iter().find(|t| t.name == name)
}

/// Depths and move numbers past the last row and column of the reduction table share them.
pub const REDUCTION_TABLE_SIZE: usize = 64;

/// Base late-move reductions in plies, by depth and move number.
pub type ReductionTable = [[u8; REDUCTION_TABLE_SIZE]; REDUCTION_TABLE_SIZE];

static REDUCTIONS: Lazy<ReductionTable> = Lazy::new(|| SearchParams::DEFAULT.reduction_table());

#[inline]
fn reduction_in(table: &ReductionTable, depth: i32, number: usize) -> i32 {
    let last = REDUCTION_TABLE_SIZE - 1;
    table[(depth.max(0) as usize).min(last)][number.min(last)] as i32
}

/// The base late-move reduction, in plies, of the `number`-th legal move (from 1) at `depth`
/// under `SearchParams::DEFAULT`, before the node's and the move's adjustments.
#[inline]
pub fn late_move_reduction(depth: i32, number: usize) -> i32 {
    reduction_in(&REDUCTIONS, depth, number)
}

/// Why a tuned value was refused; the number keeps its value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TuneError {
    /// No number of the table has that name.
    Unknown(String),
    /// The value lies outside the number's range.
    OutOfRange { name: &'static str, value: i64, min: i64, max: i64 },
}

impl fmt::Display for TuneError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TuneError::Unknown(name) => write!(f, "no tunable search number is called '{name}'"),
            TuneError::OutOfRange { name, value, min, max } => write!(f, "{name} must be {min}..{max}, not {value}"),
        }
    }
}

impl std::error::Error for TuneError {}

/// The numbers one search runs with, fixed when it starts. In the default build it holds
/// nothing: every number is `SearchParams::DEFAULT`'s, a constant. (Not `Copy`, so that the
/// code that hands it on is the same in both builds.)
#[cfg(not(feature = "tune"))]
#[derive(Clone, Debug, Default)]
pub struct Tuning;

#[cfg(not(feature = "tune"))]
impl Tuning {
    /// The numbers a search starting now uses.
    #[inline]
    pub fn current() -> Tuning {
        Tuning
    }

    #[inline(always)]
    pub fn params(&self) -> &'static SearchParams {
        &SearchParams::DEFAULT
    }

    /// `late_move_reduction` under these numbers.
    #[inline(always)]
    pub fn late_move_reduction(&self, depth: i32, number: usize) -> i32 {
        late_move_reduction(depth, number)
    }
}

/// The numbers one search runs with, fixed when it starts: a snapshot of the process's current
/// values (`set_tunable`) and their reduction table.
#[cfg(feature = "tune")]
#[derive(Clone, Debug)]
pub struct Tuning(std::sync::Arc<Tuned>);

#[cfg(feature = "tune")]
#[derive(Debug)]
pub struct Tuned {
    params: SearchParams,
    reductions: ReductionTable,
}

#[cfg(feature = "tune")]
static CURRENT: Lazy<std::sync::RwLock<Tuning>> = Lazy::new(|| {
    std::sync::RwLock::new(Tuning(std::sync::Arc::new(Tuned {
        params: SearchParams::DEFAULT,
        reductions: *REDUCTIONS,
    })))
});

#[cfg(feature = "tune")]
impl Tuning {
    /// The numbers a search starting now uses.
    pub fn current() -> Tuning {
        CURRENT.read().unwrap_or_else(std::sync::PoisonError::into_inner).clone()
    }

    #[inline]
    pub fn params(&self) -> &SearchParams {
        &self.0.params
    }

    /// `late_move_reduction` under these numbers.
    #[inline]
    pub fn late_move_reduction(&self, depth: i32, number: usize) -> i32 {
        reduction_in(&self.0.reductions, depth, number)
    }
}

/// Set the number called `name` for the searches that start from now on (the reduction table
/// is rebuilt when a number of its formula changes). A value outside the number's range is
/// refused and the number keeps its value.
#[cfg(feature = "tune")]
pub fn set_tunable(name: &str, value: i64) -> Result<(), TuneError> {
    let t = tunable(name).ok_or_else(|| TuneError::Unknown(name.to_string()))?;
    if !(t.min..=t.max).contains(&value) {
        return Err(TuneError::OutOfRange { name: t.name, value, min: t.min, max: t.max });
    }
    let mut current = CURRENT.write().unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut params = current.0.params;
    params.set(t.name, value);
    let reductions = if params.lmr_base_hundredths == current.0.params.lmr_base_hundredths
        && params.lmr_divisor_hundredths == current.0.params.lmr_divisor_hundredths
    {
        current.0.reductions
    } else {
        params.reduction_table()
    };
    *current = Tuning(std::sync::Arc::new(Tuned { params, reductions }));
    Ok(())
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

    #[test]
    fn the_table_declares_every_number_once_with_its_default_inside_its_range() {
        let defaults: Vec<i64> = TUNABLES.iter().map(|t| t.default).collect();
        assert_eq!(SearchParams::from_values(&defaults), Some(SearchParams::DEFAULT));
        assert_eq!(SearchParams::from_values(&defaults[1..]), None);
        for (i, t) in TUNABLES.iter().enumerate() {
            assert!(t.min >= 0, "{}: options are unsigned", t.name);
            assert!(t.min <= t.default && t.default <= t.max, "{}: {} outside {}..{}", t.name, t.default, t.min, t.max);
            assert!(t.step > 0.0 && t.step < (t.max - t.min) as f64, "{}: step {}", t.name, t.step);
            assert_eq!(SearchParams::DEFAULT.get(t.name), Some(t.default), "{}", t.name);
            assert!(TUNABLES[i + 1..].iter().all(|u| u.name != t.name), "{} declared twice", t.name);
        }
        // The numbers the search divides by can never be zero.
        for divisor in [
            "null_move_reduction_per_depth",
            "null_move_reduction_per_eval",
            "lmr_divisor_hundredths",
            "lmr_history_per_ply",
            "time_moves_to_go",
            "time_hard_clock_divisor",
            "time_falling_eval_divisor",
        ] {
            assert!(tunable(divisor).is_some_and(|t| t.min >= 1), "{divisor}");
        }
    }

    #[test]
    fn a_number_is_read_and_set_by_name() {
        let mut p = SearchParams::DEFAULT;
        assert!(p.set("futility_base", 123));
        assert_eq!(p.futility_base, 123);
        assert_eq!(p.get("futility_base"), Some(123));
        assert!(!p.set("no_such_number", 1));
        assert_eq!(p.get("no_such_number"), None);
        assert_eq!(
            tunable("aspiration_window").map(Tunable::openbench_line).as_deref(),
            Some("aspiration_window, int, 25, 5, 100, 3, 0.002")
        );
    }

    #[test]
    fn the_scaled_numbers_give_the_reductions_and_time_factors_of_the_old_constants() {
        // The table once held 0.75 and 2.25 as floats; the hundredths must give the same table.
        let mut t = [[0u8; REDUCTION_TABLE_SIZE]; REDUCTION_TABLE_SIZE];
        for (d, row) in t.iter_mut().enumerate().skip(1) {
            for (n, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as u8;
            }
        }
        assert_eq!(SearchParams::DEFAULT.reduction_table(), t);
        let p = SearchParams::DEFAULT;
        assert_eq!(p.iteration_time_factor(3, 0), 0.85);
        assert_eq!(p.iteration_time_factor(2, 1000), 1.5);
        assert_eq!(p.history_bonus(3), 144);
        assert_eq!(p.history_bonus(30), 6400);
        assert_eq!(p.history_malus(20), 6400);
    }

    #[cfg(not(feature = "tune"))]
    #[test]
    fn the_default_build_searches_with_the_defaults() {
        assert_eq!(*Tuning::current().params(), SearchParams::DEFAULT);
        assert_eq!(Tuning::current().late_move_reduction(10, 20), late_move_reduction(10, 20));
    }
}

#[cfg(all(test, feature = "tune"))]
pub(crate) mod tune_tests {
    use super::*;
    use std::sync::Mutex;

    /// The tests that change the process's values take turns, and leave the defaults behind.
    pub(crate) static LIVE_VALUES: Mutex<()> = Mutex::new(());

    /// Put every number back to its default.
    pub(crate) fn restore_defaults() {
        for t in TUNABLES {
            set_tunable(t.name, t.default).expect("a default is in range");
        }
    }

    #[test]
    fn tune_a_set_number_reaches_the_next_search_and_a_refused_one_changes_nothing() {
        let _turn = LIVE_VALUES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let before = Tuning::current();
        assert_eq!(*before.params(), SearchParams::DEFAULT);
        set_tunable("razor_margin", 300).unwrap();
        assert_eq!(Tuning::current().params().razor_margin, 300);
        assert_eq!(before.params().razor_margin, 250, "a search keeps the numbers it started with");
        let refused = set_tunable("razor_margin", 601).unwrap_err();
        assert_eq!(refused.to_string(), "razor_margin must be 50..600, not 601");
        assert_eq!(Tuning::current().params().razor_margin, 300);
        assert!(matches!(set_tunable("razor", 1), Err(TuneError::Unknown(_))));
        // A number of the reduction formula rebuilds the table.
        set_tunable("lmr_divisor_hundredths", 100).unwrap();
        let now = Tuning::current();
        assert_eq!(now.late_move_reduction(20, 20), now.params().reduction_table()[20][20] as i32);
        assert!(now.late_move_reduction(20, 20) > late_move_reduction(20, 20));
        restore_defaults();
        assert_eq!(*Tuning::current().params(), SearchParams::DEFAULT);
        assert_eq!(Tuning::current().late_move_reduction(20, 20), late_move_reduction(20, 20));
    }
}
