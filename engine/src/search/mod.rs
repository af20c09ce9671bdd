//! The search: iterative deepening with aspiration windows over a principal variation search
//! (alpha-beta) with quiescence, run by the N threads of a persistent pool (`SearchThreads`) on
//! the same root (Lazy SMP) sharing one lock-free transposition table and a stop flag; a thread
//! puts off the later root moves another thread is on (`busy`). The deepest completed iteration
//! of any thread answers (and is reported when a helper's); in a fixed-depth search the first
//! thread to complete the depth ends the search. It never prints:
//! the caller gets one `IterationInfo` per completed iteration through a callback (and, in long
//! searches, one per aspiration failure and a `RootMoveInfo` per root move), and the outcome as
//! the return value.
//!
//! Owns: `search`, `SearchJob`, `Features`, `IterationInfo`, `RootMoveInfo`, `SearchOutcome`; the
//! submodules own scores, the table, ordering, exchange evaluation, the tuned numbers
//! (`params`), the evaluation's correction by pawn structure (`correction_history`), what the
//! threads keep between searches (`memory`), time limits, the win/draw/loss model of scores
//! (`wdl`), the thread pool, the busy root moves and the per-thread tree search (`worker`).
//! Must not know: notation, protocols, variant names.

pub mod busy;
pub mod correction_history;
pub mod memory;
pub mod ordering;
pub mod params;
pub mod score;
pub mod see;
pub mod threads;
pub mod time;
pub mod tt;
pub mod wdl;
mod worker;

pub use memory::SearchMemory;
pub use params::{SearchParams, Tuning};
pub use score::{Score, ScoreReport};
pub use threads::SearchThreads;
pub use time::{SearchLimits, TimeManager};
pub use tt::{Bound, TranspositionTable};
pub use wdl::Wdl;

use crate::nnue::Network;
use busy::BusyTable;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::moves::Move;
use menagerie_rules::position::Position;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};
use worker::{Shared, Worker};

/// The search techniques in use, one switch each; all on by default. Turning them all off
/// (`Features::none`) leaves a plain alpha-beta to a fixed depth with the static evaluation at
/// the leaves, whose root score must equal plain minimax (a test of the tree search). The
/// numbers each technique uses are in `SearchParams`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Captures and promotions searched past the horizon (without it, leaves are evaluated).
    pub quiescence: bool,
    /// In quiescence, captures that cannot reach alpha even with a margin are skipped.
    pub delta_pruning: bool,
    /// In quiescence, captures that lose the exchange are skipped.
    pub quiescence_see_pruning: bool,
    /// Scores of the transposition table settle nodes.
    pub table_cutoffs: bool,
    /// Iterations search a narrow window around the previous score first.
    pub aspiration: bool,
    /// A node whose evaluation is far above beta near the leaves fails high at once.
    pub reverse_futility: bool,
    /// A node whose evaluation is far below alpha near the leaves is settled by quiescence.
    pub razoring: bool,
    /// A node where passing still fails high in a reduced search fails high.
    pub null_move: bool,
    /// A node without a table move is searched a ply shallower.
    pub internal_iterative_reduction: bool,
    /// Captures that lose much in the exchange are skipped near the leaves.
    pub see_pruning: bool,
    /// Quiet moves that cannot lift the evaluation to alpha are skipped near the leaves.
    pub futility_pruning: bool,
    /// Quiet moves late in the order are skipped near the leaves.
    pub late_move_pruning: bool,
    /// Quiet moves with a bad history are skipped near the leaves.
    pub history_pruning: bool,
    /// Late quiet moves are searched shallower first.
    pub late_move_reductions: bool,
    /// Captures that lose the exchange are searched shallower first.
    pub losing_capture_reductions: bool,
    /// Checks are searched a ply deeper.
    pub check_extension: bool,
    /// The static evaluation is corrected by what searches found of the same pawn structure.
    pub correction_history: bool,
}

impl Default for Features {
    fn default() -> Self {
        Features::all(true)
    }
}

impl Features {
    /// Nothing but alpha-beta (with move ordering, which does not change the score).
    pub fn none() -> Features {
        Features::all(false)
    }

    /// Every technique on, or every one off.
    fn all(on: bool) -> Features {
        Features {
            quiescence: on,
            delta_pruning: on,
            quiescence_see_pruning: on,
            table_cutoffs: on,
            aspiration: on,
            reverse_futility: on,
            razoring: on,
            null_move: on,
            internal_iterative_reduction: on,
            see_pruning: on,
            futility_pruning: on,
            late_move_pruning: on,
            history_pruning: on,
            late_move_reductions: on,
            losing_capture_reductions: on,
            check_extension: on,
            correction_history: on,
        }
    }
}

/// What one search is to do.
pub struct SearchJob<'a, B: BitSet> {
    pub root: &'a Position<B>,
    /// Hashes of the game's positions before the root, oldest first (for repetitions).
    pub history: &'a [u64],
    /// Search only these root moves (all legal moves when empty or when none of them is legal;
    /// illegal ones are ignored).
    pub root_moves: &'a [Move],
    pub limits: SearchLimits,
    pub tt: &'a TranspositionTable,
    /// Set by the caller to stop the search.
    pub stop: &'a AtomicBool,
    /// The threads the search runs on: all of them, the first as the main thread.
    pub threads: &'a SearchThreads,
    /// Principal variations to report per iteration (1 = only the best move).
    pub multipv: usize,
    /// Milliseconds kept in reserve per move under a clock.
    pub move_overhead_ms: u64,
    pub features: Features,
    /// Told by the main thread which root move it starts searching, once the search has run
    /// for `progress_after` (for a GUI's `currmove`). It must not block.
    pub on_root_move: Option<&'a (dyn Fn(&RootMoveInfo) + Sync)>,
    /// How long the search runs before the main thread reports progress: root moves
    /// (`on_root_move`) and, with one line only, aspiration failures (an `IterationInfo` whose
    /// score is a bound).
    pub progress_after: Duration,
    /// The learned evaluation to use where it fits the variant (the hand-written one when
    /// `None` or when it does not fit).
    pub network: Option<&'a Network>,
    /// Where the threads' history tables are kept between searches; `None`: each search
    /// starts from empty tables.
    pub memory: Option<&'a SearchMemory>,
}

impl<'a, B: BitSet> SearchJob<'a, B> {
    /// A job with no game history, every root move and every feature.
    pub fn new(
        root: &'a Position<B>,
        limits: SearchLimits,
        tt: &'a TranspositionTable,
        stop: &'a AtomicBool,
        threads: &'a SearchThreads,
    ) -> Self {
        SearchJob {
            root,
            history: &[],
            root_moves: &[],
            limits,
            tt,
            stop,
            threads,
            multipv: 1,
            move_overhead_ms: 0,
            features: Features::default(),
            on_root_move: None,
            progress_after: PROGRESS_REPORT_AFTER,
            network: None,
            memory: None,
        }
    }
}

/// How long a search runs before the main thread reports progress (`SearchJob::progress_after`).
pub const PROGRESS_REPORT_AFTER: Duration = Duration::from_secs(1);

/// The root move the main thread starts searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMoveInfo {
    /// The iteration's depth.
    pub depth: u32,
    pub m: Move,
    /// Its place in the iteration's move order, from 1.
    pub number: u32,
}

/// The result of one completed iteration of the main thread, or of one aspiration failure
/// (`bound` Lower: the score is at least this; Upper: at most this).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IterationInfo {
    /// Which MultiPV line, from 1.
    pub multipv: u32,
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    /// Nodes of all threads so far.
    pub nodes: u64,
    pub time: Duration,
    /// Per mille of the table written by this search.
    pub hashfull: u32,
    pub pv: Vec<Move>,
    /// Exact for a completed iteration.
    pub bound: Bound,
}

impl IterationInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.time)
    }
}

/// Nodes per second for `nodes` searched in `time`.
pub fn nps(nodes: u64, time: Duration) -> u64 {
    let micros = time.as_micros().max(1);
    (nodes as u128 * 1_000_000 / micros) as u64
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play; `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// Score of the last completed iteration (0 if none completed).
    pub score: Score,
    /// Deepest completed iteration (0 if none).
    pub depth: u32,
    /// Nodes of all threads.
    pub nodes: u64,
    pub time: Duration,
}

/// Search `job.root` until a limit is reached or `job.stop` is set. `on_iteration` is called
/// from the main search thread after every completed iteration, and for aspiration failures
/// once the search has run for `job.progress_after`.
pub fn search<B: BitSet>(job: &SearchJob<'_, B>, mut on_iteration: impl FnMut(&IterationInfo) + Send) -> SearchOutcome {
    let start = Instant::now();
    job.tt.new_search();
    let counters: Vec<AtomicU64> = (0..job.threads.count()).map(|_| AtomicU64::new(0)).collect();
    let finished = AtomicBool::new(false);
    // The tuned numbers are read once, so that every thread and the clock use the same.
    let tuning = Tuning::current();
    let time =
        TimeManager::with_params(&job.limits, job.root.side_to_move(), job.move_overhead_ms, start, tuning.params());
    let busy = (job.threads.count() > 1).then(BusyTable::new);
    let shared = Shared { job, counters: &counters, finished: &finished, busy: busy.as_ref(), time, start, tuning };
    let results = job.threads.run(
        || {
            let result = Worker::new(0, &shared).run(&mut on_iteration);
            // The helpers stop with the main thread.
            finished.store(true, Ordering::Relaxed);
            result
        },
        |id| Worker::new(id, &shared).run(&mut |_: &IterationInfo| {}),
    );
    let mut results = results.into_iter();
    let mut answer = results.next().flatten();
    let mut helper_answers = false;
    for r in results.flatten() {
        // A helper that completed a deeper iteration than the main thread answers.
        if r.best.is_some() && answer.as_ref().is_none_or(|a| r.depth > a.depth) {
            answer = Some(r);
            helper_answers = true;
        }
    }
    let nodes = counters.iter().map(|c| c.load(Ordering::Relaxed)).sum();
    let time = start.elapsed();
    if let Some(r) = answer.as_ref().filter(|r| helper_answers && r.depth > 0 && job.multipv <= 1) {
        // The last report shows the line that answers.
        on_iteration(&IterationInfo {
            multipv: 1,
            depth: r.depth,
            seldepth: r.seldepth,
            score: r.score,
            nodes,
            time,
            hashfull: job.tt.hashfull(),
            pv: r.pv.clone(),
            bound: Bound::Exact,
        });
    }
    let fallback = || {
        let legal = job.root.legal_moves();
        legal.iter().copied().find(|m| job.root_moves.contains(m)).or_else(|| legal.iter().copied().next())
    };
    match answer {
        Some(r) => SearchOutcome {
            best: r.best.or_else(fallback),
            ponder: r.ponder,
            score: r.score,
            depth: r.depth,
            nodes,
            time,
        },
        None => SearchOutcome { best: fallback(), ponder: None, score: 0, depth: 0, nodes, time },
    }
}
