//! One search thread: iterative deepening with aspiration windows at the root, then a
//! principal variation search whose nodes go through numbered steps (`alphabeta`): the horizon
//! and draws, the table, the evaluation (corrected by the correction history), node pruning
//! (reverse futility, razoring, null move), internal iterative reduction, then the moves in
//! order with move pruning (SEE, futility, late-move, history), check extensions (every check
//! at the root, below it checks that do not lose the exchange) and reductions (`reduction`).
//! Then quiescence (captures and promotions; every evasion when in check), mate scores with
//! mate distance, draws by repetition, the 50-move rule and bare kings, stalemate scored by
//! the variant's rule.
//!
//! Owns: `Worker`, `Shared` (what the threads of one search share), the tree search and its
//! steps.
//! Must not know: notation, protocols, variant names; the value of any tuned number (each is
//! a field of `SearchParams`, and each technique has its switch in `Features`).

use super::busy::BusyTable;
use super::correction_history::CorrectionHistory;
use super::memory::ThreadMemory;
use super::ordering::{is_capture, is_losing_capture, is_tactical, pick_next, score_moves, Heuristics, ScoreList};
use super::params::{SearchParams, Tuning};
use super::score::{from_table, is_mate, mate_in, mated_in, to_table, Score, DRAW, INFINITE, MAX_PLY};
use super::see::see;
use super::time::TimeManager;
use super::tt::{Bound, TableEntry};
use super::{Features, IterationInfo, SearchJob};
use crate::eval::Evaluation;
use crate::nnue::{AccumulatorStack, FeatureMap, Network};
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::moves::{Move, MoveKind, MoveList};
use menagerie_rules::position::Position;
use menagerie_rules::variant::StalemateRule;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Nodes between two looks at the clock, the stop flag and the shared node count: rare enough
/// to cost nothing, often enough to stop within a fraction of a millisecond.
const CHECK_INTERVAL: u64 = 1024;
/// Quiet moves remembered per node to punish their history after a cutoff: a node rarely
/// tries more before a cutoff.
const MAX_QUIETS: usize = 64;
/// Entries of each thread's evaluation cache: a power of two, small enough for a core's cache.
const EVAL_CACHE_ENTRIES: usize = 1 << 14;

/// What the threads of one search share.
pub(super) struct Shared<'a, 'j, B: BitSet> {
    pub job: &'a SearchJob<'j, B>,
    /// Nodes per thread, published every `CHECK_INTERVAL` nodes.
    pub counters: &'a [AtomicU64],
    /// Set when the main thread is done (or a limit is reached): every thread stops.
    pub finished: &'a AtomicBool,
    /// The root moves being searched, when there is more than one thread.
    pub busy: Option<&'a BusyTable>,
    pub time: TimeManager,
    pub start: Instant,
    /// The tuned numbers, the same for every thread (in the default build the constants of
    /// `SearchParams::DEFAULT`, folded into the code).
    pub tuning: Tuning,
}

/// What a thread found.
pub(super) struct ThreadResult {
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub seldepth: u32,
    /// The principal variation, from the best move.
    pub pv: Vec<Move>,
}

#[derive(Clone)]
struct RootMove {
    m: Move,
    score: Score,
    /// The principal variation of the last search in which this move raised alpha.
    pv: Vec<Move>,
}

impl RootMove {
    fn new(m: Move) -> RootMove {
        RootMove { m, score: -INFINITE, pv: Vec::new() }
    }
}

/// What the steps of `alphabeta` know of a node once it is evaluated (step 3).
#[derive(Clone, Copy)]
struct Node {
    /// Plies left, less the internal iterative reduction once step 5 has decided it.
    depth: i32,
    ply: usize,
    pv_node: bool,
    in_check: bool,
    /// The static evaluation rose since the side to move's previous move (never in check).
    improving: bool,
    /// The evaluation as the evaluator gave it, and corrected by the correction history
    /// (both `-INFINITE` in check).
    raw_eval: Score,
    static_eval: Score,
    /// The guess of the node's score the pruning decisions start from: the static evaluation
    /// refined by the table's score (`refined_eval`); `-INFINITE` in check.
    eval: Score,
    /// The table's move, or `Move::NONE`.
    table_move: Move,
}

/// What the move loop of `alphabeta` knows of a legal move while deciding how to search it.
#[derive(Clone, Copy)]
struct MoveFacts {
    m: Move,
    /// Its place among the node's legal moves, from 1 (the pruned ones count).
    number: usize,
    /// A capture or a promotion.
    tactical: bool,
    /// A capture, not a promotion, that the ordering found loses the exchange.
    losing_capture: bool,
    /// How quiet moves of this kind to this square fared elsewhere (0 for a tactical move).
    history: i32,
    /// One of the ply's killer moves.
    killer: bool,
    /// Known once the move is played.
    gives_check: bool,
}

/// One search thread's state.
pub(super) struct Worker<'a, 'j, B: BitSet> {
    id: usize,
    shared: &'a Shared<'a, 'j, B>,
    eval: &'static Evaluation<B>,
    heuristics: Heuristics,
    correction_history: CorrectionHistory,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    root_depth: i32,
    /// Game history then the path from the root, the current position last.
    hashes: Vec<u64>,
    /// The move played at each ply (for counter-moves).
    played: Vec<Move>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    root_moves: Vec<RootMove>,
    /// Static evaluation at each ply of the current path (`-INFINITE` when in check).
    evals: Vec<Score>,
    /// Best root move of the iteration in progress, once some move raised alpha.
    iteration_best: Option<(Move, Score)>,
    /// The principal variation of the last completed iteration.
    last_pv: Vec<Move>,
    stalemate_score: Score,
    node_limit: u64,
    /// The search's tuned numbers (`Shared::tuning`), kept by the thread for quick access.
    tuning: Tuning,
    /// Evaluations by position hash, at `hash % EVAL_CACHE_ENTRIES`.
    eval_cache: Vec<Option<(u64, Score)>>,
    /// The learned evaluation's accumulators along the current line, when the job has a
    /// network that fits the variant.
    nnue: Option<NnueStack<'j>>,
}

/// A network and the accumulators of the line being searched.
struct NnueStack<'n> {
    net: &'n Network,
    map: FeatureMap,
    stack: AccumulatorStack,
}

/// A network's evaluation is kept short of the mate scores, which the search gives meanings of
/// their own.
const NNUE_SCORE_LIMIT: Score = 20_000;

impl<'a, 'j, B: BitSet> Worker<'a, 'j, B> {
    pub fn new(id: usize, shared: &'a Shared<'a, 'j, B>) -> Self {
        let job = shared.job;
        let root = job.root;
        let rules = root.rules();
        let mut hashes = job.history.to_vec();
        hashes.push(root.hash());
        let legal = root.legal_moves();
        let mut root_moves: Vec<RootMove> =
            legal.iter().copied().filter(|m| job.root_moves.contains(m)).map(RootMove::new).collect();
        // No restriction, or none of the given moves is legal: search every legal move.
        if root_moves.is_empty() {
            root_moves = legal.iter().copied().map(RootMove::new).collect();
        }
        let mut memory = job.memory.map(|m| m.take(id)).unwrap_or_default();
        memory.heuristics.new_search();
        let stalemate_score = match rules.variant.stalemate {
            StalemateRule::Draw => DRAW,
            // The side to move is stalemated: the other side inflicted it.
            StalemateRule::WinForStalemater { score_cp } => -score_cp,
        };
        Worker {
            id,
            shared,
            eval: Evaluation::of(rules),
            heuristics: memory.heuristics,
            correction_history: memory.correction_history,
            nodes: 0,
            seldepth: 0,
            aborted: false,
            root_depth: 0,
            hashes,
            played: vec![Move::NONE; MAX_PLY + 2],
            pv: vec![[Move::NONE; MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_moves,
            evals: vec![-INFINITE; MAX_PLY + 2],
            iteration_best: None,
            last_pv: Vec::new(),
            stalemate_score,
            node_limit: job.limits.nodes.unwrap_or(u64::MAX),
            tuning: shared.tuning.clone(),
            eval_cache: vec![None; EVAL_CACHE_ENTRIES],
            nnue: job.network.and_then(|net| {
                let map = FeatureMap::new(&net.layout, rules.variant).ok()?;
                let stack = AccumulatorStack::new(net, MAX_PLY + 2)
                    .map_err(|e| log::error!("searching with the hand-written evaluation: {e}"))
                    .ok()?;
                Some(NnueStack { net, map, stack })
            }),
        }
    }

    /// The network's accumulator of `child`, at `child_ply`, is its parent's changed by the move
    /// (made when `child` is evaluated).
    #[inline]
    fn nnue_push(&mut self, parent: &Position<B>, child: &Position<B>, child_ply: usize) {
        if let Some(n) = &mut self.nnue {
            n.stack.push(n.net, &n.map, parent, child, child_ply);
        }
    }

    /// The search's tuned numbers: constants in the default build.
    #[inline(always)]
    fn params(&self) -> &SearchParams {
        self.tuning.params()
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    fn total_nodes(&self) -> u64 {
        self.shared.counters.iter().map(|c| c.load(Ordering::Relaxed)).sum()
    }

    fn publish_nodes(&self) {
        self.shared.counters[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Count a node; true when the search must stop.
    #[inline]
    fn enter_node(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_INTERVAL) || self.nodes >= self.node_limit {
            self.poll();
        }
        self.aborted
    }

    /// Publish the node count, look at the limits and the stop flags.
    #[cold]
    fn poll(&mut self) {
        self.publish_nodes();
        if self.shared.time.hard_expired() || self.total_nodes() >= self.node_limit {
            self.shared.finished.store(true, Ordering::Relaxed);
        }
        if self.should_stop_now() {
            self.aborted = true;
        }
    }

    fn should_stop_now(&self) -> bool {
        self.shared.finished.load(Ordering::Relaxed) || self.shared.job.stop.load(Ordering::Relaxed)
    }

    /// The thread's search (`iterate`); its tables go back to the job's memory afterwards.
    pub fn run(mut self, on_iteration: &mut dyn FnMut(&IterationInfo)) -> ThreadResult {
        let result = self.iterate(on_iteration);
        if let Some(memory) = self.shared.job.memory {
            let heuristics = std::mem::take(&mut self.heuristics);
            let correction_history = std::mem::take(&mut self.correction_history);
            memory.put(self.id, ThreadMemory { heuristics, correction_history });
        }
        result
    }

    /// Iterative deepening. The main thread reports each completed iteration, one report per
    /// MultiPV line: line k is the best of the root moves not on lines 1..k.
    fn iterate(&mut self, on_iteration: &mut dyn FnMut(&IterationInfo)) -> ThreadResult {
        let job = self.shared.job;
        let limits = &job.limits;
        let mut result = ThreadResult { best: None, ponder: None, score: 0, depth: 0, seldepth: 0, pv: Vec::new() };
        if self.root_moves.is_empty() {
            return result;
        }
        // Before the first iteration completes, the answer is the first legal move.
        result.best = Some(self.root_moves[0].m);
        let max_depth = limits.depth.unwrap_or(MAX_PLY as u32 - 1).clamp(1, MAX_PLY as u32 - 1) as i32;
        let mut score = 0;
        // For how many iterations in a row the best move has stayed the same: with how far the
        // score fell, what the soft time limit is scaled by.
        let mut stable = 0u32;
        let mut previous_best: Option<Move> = None;
        // Helper threads search one line only: the extra lines are for the user to read.
        let lines = if self.is_main() { job.multipv.clamp(1, self.root_moves.len()) } else { 1 };
        // Helper threads skip some depths (see `skips`), to diversify.
        for depth in 1..=max_depth {
            if depth > 1 && (self.should_stop_now() || self.soft_nodes_reached()) {
                break;
            }
            if self.skips(depth) {
                continue;
            }
            self.root_depth = depth;
            self.seldepth = 0;
            self.iteration_best = None;
            let s = self.aspiration(depth, score, 0, on_iteration);
            if self.aborted {
                // A move that was fully searched in the unfinished iteration and beat the
                // previous best is better informed than the last iteration's choice.
                if let Some((m, s)) = self.iteration_best {
                    if result.depth > 0 {
                        result.best = Some(m);
                        result.ponder = None;
                        result.score = s;
                        result.pv = vec![m];
                    }
                }
                break;
            }
            let drop = if depth > 1 { score - s } else { 0 };
            score = s;
            // Best move first, the others by score; failed-low moves keep their order.
            self.root_moves.sort_by_key(|r| -r.score);
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            self.last_pv.clone_from(&pv);
            let best = pv.first().copied().unwrap_or(self.root_moves[0].m);
            let seldepth = self.seldepth.max(depth as usize) as u32;
            result = ThreadResult {
                best: Some(best),
                ponder: pv.get(1).copied(),
                score,
                depth: depth as u32,
                seldepth,
                pv: pv.clone(),
            };
            if !self.is_main() {
                // The first thread to complete the depth asked for ends the search (its result
                // answers and is reported); not with several lines, which only the main thread
                // searches.
                if limits.depth == Some(depth as u32) && job.multipv <= 1 {
                    self.shared.finished.store(true, Ordering::Relaxed);
                }
                continue;
            }
            self.iteration_best = None;
            let Some(reports) = self.multipv_lines(depth, lines, (score, pv), on_iteration) else {
                break;
            };
            self.report_iteration(depth, seldepth, reports, on_iteration);
            stable = if previous_best == Some(best) { stable + 1 } else { 0 };
            previous_best = Some(best);
            if self.iteration_ends_search(score, self.params().iteration_time_factor(stable, drop)) {
                break;
            }
        }
        if result.ponder.is_none() {
            result.ponder = result.best.and_then(|m| self.ponder_from_table(m));
        }
        self.publish_nodes();
        if self.is_main() {
            self.shared.finished.store(true, Ordering::Relaxed);
        }
        result
    }

    /// The main thread's lines of the iteration at `depth` (`lines` in all), the first already
    /// searched: line k is the best of the root moves not on lines 1..k, with its score and
    /// principal variation. `None` when the search was stopped on the way.
    fn multipv_lines(
        &mut self,
        depth: i32,
        lines: usize,
        first: (Score, Vec<Move>),
        on_iteration: &mut dyn FnMut(&IterationInfo),
    ) -> Option<Vec<(Score, Vec<Move>)>> {
        let mut reports = vec![first];
        for line in 1..lines {
            let previous = self.root_moves[line].score;
            let s = self.aspiration(depth, previous, line, on_iteration);
            if self.aborted {
                return None;
            }
            self.root_moves[line..].sort_by_key(|r| -r.score);
            let first = &self.root_moves[line];
            let pv = if first.pv.first() == Some(&first.m) { first.pv.clone() } else { vec![first.m] };
            reports.push((s, pv));
        }
        Some(reports)
    }

    /// Report a completed iteration, one `IterationInfo` per line, with the nodes of all
    /// threads.
    fn report_iteration(
        &mut self,
        depth: i32,
        seldepth: u32,
        lines: Vec<(Score, Vec<Move>)>,
        on_iteration: &mut dyn FnMut(&IterationInfo),
    ) {
        self.publish_nodes();
        let (nodes, time, hashfull) = (self.total_nodes(), self.shared.start.elapsed(), self.shared.job.tt.hashfull());
        for (index, (score, pv)) in lines.into_iter().enumerate() {
            let info = IterationInfo {
                multipv: index as u32 + 1,
                depth: depth as u32,
                seldepth,
                score,
                nodes,
                time,
                hashfull,
                pv,
                bound: Bound::Exact,
            };
            on_iteration(&info);
        }
    }

    /// Whether the main thread stops after an iteration that scored `score`: a mate within the
    /// `mate` limit was found, or under a clock the soft limit (scaled by `time_factor`) has
    /// passed or there is only one move. Never while searching until stopped (infinite, ponder).
    fn iteration_ends_search(&self, score: Score, time_factor: f64) -> bool {
        let limits = &self.shared.job.limits;
        if limits.until_stopped() {
            return false;
        }
        if let Some(mate) = limits.mate {
            if is_mate(score) && score > 0 && (super::score::MATE - score + 1) / 2 <= mate as Score {
                return true;
            }
        }
        let time = &self.shared.time;
        time.is_timed() && (time.soft_expired_scaled(time_factor) || self.root_moves.len() == 1)
    }

    /// Whether the search has passed its soft node limit (`SearchLimits::soft_nodes`): then no
    /// new iteration starts.
    fn soft_nodes_reached(&self) -> bool {
        self.shared.job.limits.soft_nodes.is_some_and(|n| {
            self.publish_nodes();
            self.total_nodes() >= n
        })
    }

    /// Whether this thread skips the iteration of `depth`: helper threads skip depths in blocks
    /// of different sizes and phases (as Stockfish's Lazy SMP did), so that they run ahead of
    /// the main thread at different depths and fill the table where it will look next. The
    /// last iteration is never skipped.
    fn skips(&self, depth: i32) -> bool {
        const SIZE: [i32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
        const PHASE: [i32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];
        if self.is_main() || depth <= 1 || Some(depth as u32) == self.shared.job.limits.depth {
            return false;
        }
        let i = (self.id - 1) % SIZE.len();
        ((depth + PHASE[i]) / SIZE[i]) % 2 != 0
    }

    /// The table's move in the position after `best`, if it is legal there.
    fn ponder_from_table(&self, best: Move) -> Option<Move> {
        let mut child = self.shared.job.root.clone();
        child.play(best);
        let m = self.shared.job.tt.probe(child.hash())?.best;
        (m.is_some() && child.legal_moves().iter().any(|&x| x == m)).then_some(m)
    }

    /// One iteration over the root moves from `first` on, with a narrow window around the
    /// previous score that widens on failure. A failure of a one-line search is reported once
    /// the search has run for `progress_after`.
    fn aspiration(
        &mut self,
        depth: i32,
        previous: Score,
        first: usize,
        on_iteration: &mut dyn FnMut(&IterationInfo),
    ) -> Score {
        if !self.shared.job.features.aspiration
            || depth < self.params().aspiration_min_depth
            || is_mate(previous)
            || previous <= -INFINITE
        {
            return self.root_search(depth, -INFINITE, INFINITE, first);
        }
        let mut delta = self.params().aspiration_window;
        let mut alpha = (previous - delta).max(-INFINITE);
        let mut beta = (previous + delta).min(INFINITE);
        loop {
            let score = self.root_search(depth, alpha, beta, first);
            if self.aborted {
                return score;
            }
            if score <= alpha || score >= beta {
                self.report_bound(depth, score, if score <= alpha { Bound::Upper } else { Bound::Lower }, on_iteration);
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta += delta;
            if delta > self.params().aspiration_full_window_after {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Report an aspiration failure of the main thread's one-line search (a MultiPV search
    /// reports its lines together, at the end of each iteration). A fail high shows the line
    /// that failed high, a fail low the last iteration's line.
    fn report_bound(&mut self, depth: i32, score: Score, bound: Bound, on_iteration: &mut dyn FnMut(&IterationInfo)) {
        let job = self.shared.job;
        if !self.is_main() || job.multipv > 1 || self.shared.start.elapsed() < job.progress_after {
            return;
        }
        let pv = if bound == Bound::Lower && self.pv_len[0] > 0 {
            self.pv[0][..self.pv_len[0]].to_vec()
        } else {
            self.last_pv.clone()
        };
        self.publish_nodes();
        let info = IterationInfo {
            multipv: 1,
            depth: depth as u32,
            seldepth: self.seldepth.max(depth as usize) as u32,
            score,
            nodes: self.total_nodes(),
            time: self.shared.start.elapsed(),
            hashfull: job.tt.hashfull(),
            pv,
            bound,
        };
        on_iteration(&info);
    }

    /// Search the root moves from `first` on (the earlier ones are on earlier MultiPV lines).
    fn root_search(&mut self, depth: i32, mut alpha: Score, beta: Score, first: usize) -> Score {
        let root = self.shared.job.root;
        if let Some(n) = &mut self.nnue {
            n.stack.set_root(n.net, &n.map, root);
        }
        self.pv_len[0] = 0;
        let mut best = -INFINITE;
        // The moves in order, then those put off because another thread was on them.
        let mut order: Vec<usize> = (first..self.root_moves.len()).collect();
        let in_order = order.len();
        let mut next = 0;
        while next < order.len() {
            let i = order[next];
            next += 1;
            let m = self.root_moves[i].m;
            let mut child = root.clone();
            child.play(m);
            self.nnue_push(root, &child, 1);
            let child_hash = child.hash();
            if let Some(busy) = self.shared.busy {
                if i != first && next <= in_order && busy.is_busy(child_hash) {
                    order.push(i);
                    continue;
                }
                busy.enter(child_hash);
            }
            // Reported once it is searched: a move put off is reported when its turn comes.
            if let Some(report) = self.shared.job.on_root_move.filter(|_| self.is_main()) {
                if self.shared.start.elapsed() >= self.shared.job.progress_after {
                    report(&super::RootMoveInfo { depth: depth as u32, m, number: i as u32 + 1 });
                }
            }
            let gives_check = child.in_check();
            let extension = i32::from(self.shared.job.features.check_extension && gives_check);
            let new_depth = depth - 1 + extension;
            self.hashes.push(child_hash);
            self.played[0] = m;
            let score = if i == first {
                -self.alphabeta(&child, new_depth, -beta, -alpha, 1, true, true)
            } else {
                let mut s = -self.alphabeta(&child, new_depth, -alpha - 1, -alpha, 1, false, true);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.alphabeta(&child, new_depth, -beta, -alpha, 1, true, true);
                }
                s
            };
            if let Some(busy) = self.shared.busy {
                busy.leave(child_hash);
            }
            self.hashes.pop();
            if self.aborted {
                break;
            }
            self.root_moves[i].score = if i == first || score > alpha { score } else { -INFINITE };
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(0, m);
                    if first == 0 {
                        self.iteration_best = Some((m, score));
                    } else {
                        self.root_moves[i].pv = self.pv[0][..self.pv_len[0]].to_vec();
                    }
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if !self.aborted && self.pv_len[0] > 0 && first == 0 {
            self.shared.job.tt.store(root.hash(), self.pv[0][0], to_table(best, 0), depth, bound_of(best, beta, true));
        }
        best
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// Whether the current position (the last in `hashes`) is drawn by repetition, the 50-move
    /// rule or bare kings. Any earlier occurrence counts: a position that repeats once can be
    /// repeated again.
    fn is_draw(&self, pos: &Position<B>) -> bool {
        let halfmove = pos.halfmove_clock() as usize;
        if pos.occupied().count() <= 2 && !pos.has_hand(Color::White) && !pos.has_hand(Color::Black) {
            return true;
        }
        if halfmove >= 100 && (!pos.in_check() || pos.has_legal_move()) {
            return true;
        }
        let n = self.hashes.len();
        let current = self.hashes[n - 1];
        let lookback = halfmove.min(n - 1);
        let mut back = 4;
        while back <= lookback {
            if self.hashes[n - 1 - back] == current {
                return true;
            }
            back += 2;
        }
        false
    }

    /// Whether the side has something besides pawns and the royal piece (on the board or in
    /// hand): null-move pruning is unsafe in pawn endings (zugzwang).
    fn has_pieces(&self, pos: &Position<B>, color: Color) -> bool {
        let r = pos.rules();
        let mut pawns_and_king = pos.pieces_of_kind(r.royal);
        for k in 0..r.kinds {
            if r.is_pawn(k) {
                pawns_and_king |= pos.pieces_of_kind(k);
            }
        }
        (pos.pieces_of(color) & !pawns_and_king).any() || pos.has_hand(color)
    }

    /// The evaluation of `pos`, from the thread's cache when it was evaluated lately: the
    /// search evaluates many positions again (on the next iteration, after transpositions, in
    /// quiescence after a table cutoff failed).
    fn static_eval(&mut self, pos: &Position<B>, ply: usize) -> Score {
        let hash = pos.hash();
        let slot = &mut self.eval_cache[hash as usize & (EVAL_CACHE_ENTRIES - 1)];
        match *slot {
            Some((key, score)) if key == hash => score,
            _ => {
                let score = match &mut self.nnue {
                    Some(n) => {
                        let output = n.stack.output(n.net, &n.map, pos, ply);
                        // The accumulator at every ply is the position's: the unit tests check
                        // each evaluation against one from scratch.
                        #[cfg(test)]
                        assert_eq!(output, n.net.evaluate(&n.map, pos), "accumulator of ply {ply} is stale");
                        let score = n.net.evaluation(output, || self.eval.evaluate(pos));
                        score.clamp(-NNUE_SCORE_LIMIT, NNUE_SCORE_LIMIT)
                    }
                    None => self.eval.evaluate(pos),
                };
                *slot = Some((hash, score));
                score
            }
        }
    }

    /// A static evaluation corrected by what searches found of the position's pawn structure.
    #[inline]
    fn corrected(&self, pos: &Position<B>, raw_eval: Score) -> Score {
        if self.shared.job.features.correction_history {
            raw_eval + self.correction_history.correction(pos)
        } else {
            raw_eval
        }
    }

    /// The tree search below the root, in numbered steps as Stockfish's `search()` has: the
    /// horizon and the draws (1), the table (2), the evaluation (3), node pruning (4), internal
    /// iterative reduction (5), then the moves (`search_moves`, steps 6-11).
    #[allow(clippy::too_many_arguments)]
    fn alphabeta(
        &mut self,
        pos: &Position<B>,
        depth: i32,
        mut alpha: Score,
        mut beta: Score,
        ply: usize,
        pv_node: bool,
        null_allowed: bool,
    ) -> Score {
        debug_assert!(-INFINITE <= alpha && alpha < beta && beta <= INFINITE, "window ({alpha}, {beta})");
        debug_assert!(ply < MAX_PLY, "ply {ply} past the stack");
        let features = self.shared.job.features;
        self.pv_len[ply] = ply;

        // Step 1. The horizon, the stop flags, draws, mate distance and the last ply.
        if depth <= 0 {
            return if features.quiescence { self.quiesce(pos, alpha, beta, ply, 0) } else { self.leaf(pos, ply) };
        }
        if self.enter_node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(pos) {
            return DRAW;
        }
        // Mate distance: no score here can beat a mate found nearer the root.
        alpha = alpha.max(mated_in(ply));
        beta = beta.min(mate_in(ply + 1));
        if alpha >= beta {
            return alpha;
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, ply);
        }

        // Step 2. The transposition table: its move is tried first; its score settles a
        // non-PV node where it was searched as deep and its bound says enough.
        let tt = self.shared.job.tt;
        let hash = pos.hash();
        let entry = tt.probe(hash);
        let table_move = entry.map_or(Move::NONE, |e| e.best);
        if let Some(e) = entry {
            if features.table_cutoffs && !pv_node && e.depth >= depth {
                if let Some(s) = table_cutoff(e.score, e.bound, ply, alpha, beta) {
                    return s;
                }
            }
        }

        // Step 3. The static evaluation, and the guess of the node's score that the pruning
        // decisions start from.
        let in_check = pos.in_check();
        let raw_eval = if in_check { -INFINITE } else { self.static_eval(pos, ply) };
        let static_eval = if in_check { raw_eval } else { self.corrected(pos, raw_eval) };
        self.evals[ply] = static_eval;
        // Whether the position got better for the side to move since its previous move: if
        // not, late moves are reduced more.
        let improving = !in_check && ply >= 2 && static_eval > self.evals[ply - 2];
        let eval = if in_check { static_eval } else { refined_eval(static_eval, entry, ply) };
        let mut node = Node { depth, ply, pv_node, in_check, improving, raw_eval, static_eval, eval, table_move };

        // Step 4. Node pruning at a non-PV node not in check, with no mate in sight: reverse
        // futility, razoring, null move.
        if !pv_node && !in_check && !is_mate(beta) {
            if let Some(s) = self.prune_node(pos, &node, alpha, beta, null_allowed) {
                return s;
            }
        }

        // Step 5. Internal iterative reduction: with no table move to start from, a shallower
        // search costs less and fills the table.
        if features.internal_iterative_reduction && depth >= self.params().iir_depth && !table_move.is_some() {
            node.depth -= 1;
        }

        self.search_moves(pos, &node, alpha, beta)
    }

    /// Step 4 of `alphabeta`, at a non-PV node not in check with no mate in sight: the score
    /// that settles the node without a look at its moves, if one does.
    fn prune_node(
        &mut self,
        pos: &Position<B>,
        node: &Node,
        alpha: Score,
        beta: Score,
        null_allowed: bool,
    ) -> Option<Score> {
        let features = self.shared.job.features;
        let Node { depth, ply, eval, .. } = *node;
        // Reverse futility: far enough above beta, the node fails high. An improving position
        // needs less of a margin: its evaluation is likely to hold.
        if features.reverse_futility
            && depth <= self.params().reverse_futility_depth
            && eval - self.params().reverse_futility_margin * (depth - i32::from(node.improving)) >= beta
        {
            return Some(eval);
        }
        // Razoring: far enough below alpha, the node fails low unless quiescence lifts it.
        if features.razoring
            && features.quiescence
            && depth <= self.params().razor_depth
            && !is_mate(alpha)
            && eval + self.params().razor_margin * depth < alpha
        {
            let s = self.quiesce(pos, alpha, alpha + 1, ply, 0);
            if self.aborted {
                return Some(0);
            }
            if s <= alpha {
                return Some(s);
            }
        }
        if features.null_move
            && null_allowed
            && depth >= self.params().null_move_min_depth
            && eval >= beta
            && self.has_pieces(pos, pos.side_to_move())
        {
            return self.null_move(pos, node, beta);
        }
        None
    }

    /// Null-move pruning: where passing still fails high in a reduced search, a move would
    /// too. The score that settles the node, if the null move does.
    fn null_move(&mut self, pos: &Position<B>, node: &Node, beta: Score) -> Option<Score> {
        let Node { depth, ply, eval, .. } = *node;
        let reduction = self.params().null_move_reduction(depth, eval, beta);
        let mut child = pos.clone();
        child.play_null();
        self.nnue_push(pos, &child, ply + 1);
        self.hashes.push(child.hash());
        self.played[ply] = Move::NONE;
        let s = -self.alphabeta(&child, depth - 1 - reduction, -beta, -beta + 1, ply + 1, false, false);
        self.hashes.pop();
        if self.aborted {
            return Some(0);
        }
        // A mate found after passing is no mate in the position, only a fail high.
        (s >= beta).then_some(if is_mate(s) { beta } else { s })
    }

    /// Steps 6-11 of `alphabeta`: order the moves, then prune, extend, reduce and search them
    /// one by one; the result goes to the table.
    fn search_moves(&mut self, pos: &Position<B>, node: &Node, mut alpha: Score, beta: Score) -> Score {
        let Node { depth, ply, pv_node, in_check, table_move, .. } = *node;
        let tt = self.shared.job.tt;

        // Step 6. Generate and order the moves.
        let ctx = pos.legality_context();
        let mut list = MoveList::new();
        pos.generate(&mut list);
        let mut scores = ScoreList::new();
        let previous = if ply > 0 { self.played[ply - 1] } else { Move::NONE };
        score_moves(
            pos,
            &list,
            &mut scores,
            table_move,
            self.heuristics.killers(ply),
            self.heuristics.counter(previous),
            &self.heuristics,
            self.eval,
        );
        let killers = self.heuristics.killers(ply);
        let mut quiets = [Move::NONE; MAX_QUIETS];
        let mut quiet_count = 0;
        let mut best = -INFINITE;
        let mut best_move = Move::NONE;
        let original_alpha = alpha;
        let mut legal = 0;
        // Whether the table's move is a capture or promotion: then the quiet moves are unlikely
        // to be better, and are reduced more.
        let mut table_move_tactical = false;
        for i in 0..list.len() {
            let m = pick_next(&mut list, &mut scores, i);
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            legal += 1;
            let mut mv = self.move_facts(pos, m, legal, scores[i], killers);
            let tactical = mv.tactical;
            if m == table_move {
                table_move_tactical = tactical;
            }

            // Step 7. Move pruning, at a non-PV node not in check, once a move has been
            // searched and no mate is in sight: captures before the move is played, quiet
            // moves once it is known not to check.
            let may_prune = !pv_node && !in_check && legal > 1 && !is_mate(best);
            if may_prune && self.prunes_capture(pos, node, &mv) {
                continue;
            }
            let mut child = pos.clone();
            child.play(m);
            tt.prefetch(child.hash());
            mv.gives_check = child.in_check();
            if may_prune && self.prunes_quiet(node, &mv, alpha, quiet_count) {
                continue;
            }
            // Only for a move that is searched: a pruned one never reaches an evaluation.
            self.nnue_push(pos, &child, node.ply + 1);

            // Step 8. Extensions.
            let new_depth = depth - 1 + self.extension(pos, node, &mv);

            // Step 9. The search: the first move with the full window, the others reduced and
            // with a null window first.
            self.hashes.push(child.hash());
            self.played[ply] = m;
            let score = if legal == 1 {
                -self.alphabeta(&child, new_depth, -beta, -alpha, ply + 1, pv_node, true)
            } else {
                let reduction =
                    reduction(&self.tuning, &self.shared.job.features, node, &mv, new_depth, table_move_tactical);
                self.search_later_move(&child, node, new_depth, reduction, alpha, beta)
            };
            self.hashes.pop();
            if self.aborted {
                return 0;
            }

            // Step 10. A new best move, and at beta a cutoff that teaches the quiet-move
            // heuristics.
            if score > best {
                best = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        if !tactical {
                            self.heuristics.quiet_cutoff(
                                pos,
                                m,
                                &quiets[..quiet_count],
                                depth,
                                ply,
                                previous,
                                self.tuning.params(),
                            );
                        }
                        break;
                    }
                }
            }
            if !tactical && quiet_count < MAX_QUIETS {
                quiets[quiet_count] = m;
                quiet_count += 1;
            }
        }

        // Step 11. Mate or stalemate without a legal move; else the result to the table.
        if legal == 0 {
            return if in_check { mated_in(ply) } else { self.stalemate_score };
        }
        let bound = bound_of(best, beta, best > original_alpha);
        tt.store(pos.hash(), best_move, to_table(best, ply), depth, bound);
        // The correction history learns where the score is exact or its bound says on which
        // side of the static evaluation it lies, from quiet best moves only: a capture's score
        // says what the capture wins, not what the evaluation missed.
        let bound_tells = match bound {
            Bound::Exact => true,
            Bound::Lower => best > node.static_eval,
            Bound::Upper => best < node.static_eval,
        };
        if self.shared.job.features.correction_history
            && !in_check
            && bound_tells
            && !is_mate(best)
            && !(best_move.is_some() && is_tactical(pos, best_move))
        {
            self.correction_history.update(pos, depth, node.raw_eval, best);
        }
        best
    }

    /// What the move loop knows of `m`, the `number`-th legal move, with its ordering `score`,
    /// before it is played.
    fn move_facts(&self, pos: &Position<B>, m: Move, number: usize, score: i32, killers: [Move; 2]) -> MoveFacts {
        let tactical = is_tactical(pos, m);
        let us = pos.side_to_move();
        MoveFacts {
            m,
            number,
            tactical,
            losing_capture: tactical && m.kind() != MoveKind::Promotion && is_losing_capture(score),
            history: if tactical { 0 } else { self.heuristics.history(us, super::ordering::mover_kind(pos, m), m) },
            killer: m == killers[0] || m == killers[1],
            gives_check: false,
        }
    }

    /// Step 7 for a capture, SEE pruning: whether it loses too much in the exchange to be
    /// searched near the leaves. The ordering already found which captures lose the exchange:
    /// only those are measured again.
    fn prunes_capture(&self, pos: &Position<B>, node: &Node, mv: &MoveFacts) -> bool {
        let (depth, m) = (node.depth, mv.m);
        self.shared.job.features.see_pruning
            && mv.losing_capture
            && depth <= self.params().see_pruning_depth
            && see(pos, self.eval, m) < -self.params().see_pruning_per_depth * depth
    }

    /// Step 7 for a quiet move that does not check and is no killer, once `quiets` quiet moves
    /// have been searched: whether it is skipped near the leaves by futility pruning (it cannot
    /// lift the score to alpha), late-move pruning (it comes too late in the order) or history
    /// pruning (it has failed again and again elsewhere).
    fn prunes_quiet(&self, node: &Node, mv: &MoveFacts, alpha: Score, quiets: usize) -> bool {
        if mv.tactical || mv.gives_check || mv.killer {
            return false;
        }
        let features = self.shared.job.features;
        let depth = node.depth;
        let futile = features.futility_pruning
            && depth <= self.params().futility_depth
            && node.eval + self.params().futility_base + self.params().futility_per_depth * depth <= alpha;
        let late = features.late_move_pruning
            && depth <= self.params().late_move_depth
            && quiets >= self.params().late_move_base + (depth * depth) as usize;
        let failing = features.history_pruning
            && depth <= self.params().history_pruning_depth
            && mv.history < -self.params().history_pruning_per_depth * depth;
        futile || late || failing
    }

    /// Step 8: the plies a move is searched deeper. A check is, unless it loses material in the
    /// exchange (then it is rarely more than a spite check) or the path is already much longer
    /// than the iteration's depth.
    fn extension(&self, pos: &Position<B>, node: &Node, mv: &MoveFacts) -> i32 {
        let m = mv.m;
        i32::from(
            self.shared.job.features.check_extension
                && mv.gives_check
                && node.ply < self.params().check_extension_ply_per_depth * self.root_depth as usize
                && see(pos, self.eval, m) >= 0,
        )
    }

    /// Step 9 for a move after the first: a null-window search `reduction` plies shallower;
    /// again at full depth where that beats alpha; with the full window at a PV node where the
    /// score falls inside it.
    fn search_later_move(
        &mut self,
        child: &Position<B>,
        node: &Node,
        new_depth: i32,
        reduction: i32,
        alpha: Score,
        beta: Score,
    ) -> Score {
        let ply = node.ply + 1;
        let mut s = -self.alphabeta(child, new_depth - reduction, -alpha - 1, -alpha, ply, false, true);
        if s > alpha && reduction > 0 && !self.aborted {
            s = -self.alphabeta(child, new_depth, -alpha - 1, -alpha, ply, false, true);
        }
        if s > alpha && s < beta && node.pv_node && !self.aborted {
            s = -self.alphabeta(child, new_depth, -beta, -alpha, ply, true, true);
        }
        s
    }

    /// A leaf without quiescence: the static evaluation, or the game result where the game is
    /// over (so that a plain fixed-depth search scores mates and stalemates).
    fn leaf(&mut self, pos: &Position<B>, ply: usize) -> Score {
        if self.enter_node() {
            return 0;
        }
        if !pos.has_legal_move() {
            return if pos.in_check() { mated_in(ply) } else { self.stalemate_score };
        }
        if self.is_draw(pos) {
            return DRAW;
        }
        self.static_eval(pos, ply)
    }

    /// Captures and promotions (every move when in check); in the first `quiet_drop_plies` plies
    /// also drops that give check, the tactic a piece in hand threatens. `qply` counts the
    /// quiescence plies.
    fn quiesce(&mut self, pos: &Position<B>, mut alpha: Score, beta: Score, ply: usize, qply: usize) -> Score {
        debug_assert!(-INFINITE <= alpha && alpha < beta && beta <= INFINITE, "window ({alpha}, {beta})");
        if self.enter_node() {
            return 0;
        }
        self.pv_len[ply] = ply;
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY - 1 {
            return self.static_eval(pos, ply);
        }
        let tt = self.shared.job.tt;
        let hash = pos.hash();
        let entry = tt.probe(hash);
        let table_move = entry.map_or(Move::NONE, |e| e.best);
        let features = self.shared.job.features;
        if let Some(e) = entry.filter(|_| features.table_cutoffs) {
            if let Some(s) = table_cutoff(e.score, e.bound, ply, alpha, beta) {
                return s;
            }
        }
        let in_check = pos.in_check();
        let stand_pat = if in_check {
            -INFINITE
        } else {
            let raw_eval = self.static_eval(pos, ply);
            self.corrected(pos, raw_eval)
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut best_move = Move::NONE;

        let ctx = pos.legality_context();
        let mut list = MoveList::new();
        pos.generate(&mut list);
        if !in_check {
            let checking_drops = qply < self.params().quiet_drop_plies && pos.has_hand(pos.side_to_move());
            list.retain(|m| {
                is_tactical(pos, m)
                    || (checking_drops
                        && m.kind() == MoveKind::Drop
                        && pos.drop_gives_check(m)
                        && pos.is_legal(m, &ctx))
            });
        }
        let mut scores = ScoreList::new();
        score_moves(pos, &list, &mut scores, table_move, [Move::NONE; 2], Move::NONE, &self.heuristics, self.eval);
        let mut legal = 0;
        for i in 0..list.len() {
            let m = pick_next(&mut list, &mut scores, i);
            if !in_check && m.kind() != MoveKind::Promotion && is_capture(pos, m) {
                let gain = super::ordering::victim_kind(pos, m).map_or(0, |k| self.eval.value(k));
                if features.delta_pruning && stand_pat + gain + self.params().delta_margin <= alpha {
                    continue;
                }
                // A capture that loses the exchange (as the ordering found) does not improve on
                // standing pat.
                if features.quiescence_see_pruning && is_losing_capture(scores[i]) {
                    continue;
                }
            }
            if !pos.is_legal(m, &ctx) {
                continue;
            }
            legal += 1;
            let mut child = pos.clone();
            child.play(m);
            tt.prefetch(child.hash());
            self.nnue_push(pos, &child, ply + 1);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1, qply + 1);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = m;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return mated_in(ply);
        }
        let bound = bound_of(best, beta, best > original_alpha);
        tt.store(hash, best_move, to_table(best, ply), 0, bound);
        best
    }
}

/// The best guess of a node's score before searching it: a stored search score is a better
/// guess than the static evaluation where its bound says the truth lies beyond the evaluation.
fn refined_eval(static_eval: Score, entry: Option<TableEntry>, ply: usize) -> Score {
    let Some(e) = entry.filter(|e| !is_mate(e.score)) else { return static_eval };
    let stored = from_table(e.score, ply);
    let beyond = match e.bound {
        Bound::Exact => true,
        Bound::Lower => stored > static_eval,
        Bound::Upper => stored < static_eval,
    };
    if beyond {
        stored
    } else {
        static_eval
    }
}

/// The bound a score proves, for the table.
fn bound_of(score: Score, beta: Score, raised_alpha: bool) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if raised_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The score a table entry proves for the window (alpha, beta), if it settles the node.
fn table_cutoff(stored: Score, bound: Bound, ply: usize, alpha: Score, beta: Score) -> Option<Score> {
    let s = from_table(stored, ply);
    let cut = match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

/// Step 9's reduction of a move after the first, in plies: a fixed one for a capture that loses
/// the exchange; for a late quiet move the table's (`late_move_reduction`), a ply more where the
/// position is not improving and after a tactical table move, a ply less at a PV node, less
/// with a good history and more with a bad one, never into quiescence. Checks, evasions and
/// shallow nodes are not reduced.
fn reduction(
    tuning: &Tuning,
    features: &Features,
    node: &Node,
    mv: &MoveFacts,
    new_depth: i32,
    table_move_tactical: bool,
) -> i32 {
    if node.depth < tuning.params().lmr_min_depth || node.in_check || mv.gives_check {
        return 0;
    }
    if mv.tactical {
        return if features.losing_capture_reductions && mv.losing_capture {
            tuning.params().losing_capture_reduction
        } else {
            0
        };
    }
    if !features.late_move_reductions || mv.number <= tuning.params().lmr_min_moves || mv.killer {
        return 0;
    }
    let mut r = tuning.late_move_reduction(node.depth, mv.number);
    if node.pv_node {
        r -= 1;
    }
    if !node.improving {
        r += 1;
    }
    if table_move_tactical {
        r += 1;
    }
    r -= mv.history / tuning.params().lmr_history_per_ply;
    r.clamp(0, new_depth - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The numbers the tests' expectations are written for.
    const PARAMS: SearchParams = SearchParams::DEFAULT;

    #[test]
    fn the_network_evaluates_every_node_from_an_up_to_date_accumulator() {
        use crate::nnue::InputLayout;
        use crate::search::{search, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
        use menagerie_rules::random::SplitMix64;
        use menagerie_rules::rules::compiled;
        use menagerie_rules::variant::by_name;
        // Every kind of move: castling, en passant, promotion, drops (VD Chess), null moves.
        for (variant, fen) in [
            ("chess", "r3k2r/pPp2ppp/8/3pP3/8/8/P1PP1PPP/R3K2R w KQkq d6 0 1"),
            ("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1"),
            ("dchess", "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BRNQKRNB b - - 0 1"),
        ] {
            let v = by_name(variant).expect("variant");
            let layout = InputLayout::union([by_name("chess").expect("chess"), by_name("vdchess").expect("vd")], 1)
                .expect("layout");
            let mut net = Network::zeroed(layout, 32, 1);
            let mut rng = SplitMix64::new(3);
            net.input_weights.iter_mut().for_each(|w| *w = rng.below(121) as i16 - 60);
            net.input_bias.iter_mut().for_each(|w| *w = rng.below(201) as i16 - 100);
            net.output_weights.iter_mut().for_each(|w| *w = rng.below(201) as i16 - 100);
            let pos = Position::<u64>::from_fen(compiled::<u64>(v), fen).expect("fen");
            let tt = TranspositionTable::new(1);
            let stop = AtomicBool::new(false);
            let threads = SearchThreads::unpooled(1);
            let mut job = SearchJob::new(&pos, SearchLimits::depth(5), &tt, &stop, &threads);
            job.network = Some(&net);
            let outcome = search(&job, |_| {});
            assert!(outcome.best.is_some() && outcome.nodes > 100, "{variant}: {outcome:?}");
        }
    }

    /// A one-thread search of `pos` to `depth` with a fresh one-megabyte table, a network and
    /// a memory if given.
    fn search_to_depth(
        pos: &Position<u64>,
        depth: u32,
        network: Option<&Network>,
        memory: Option<&crate::search::SearchMemory>,
    ) -> crate::search::SearchOutcome {
        use crate::search::{search, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
        let tt = TranspositionTable::new(1);
        let stop = AtomicBool::new(false);
        let threads = SearchThreads::unpooled(1);
        let mut job = SearchJob::new(pos, SearchLimits::depth(depth), &tt, &stop, &threads);
        job.network = network;
        job.memory = memory;
        search(&job, |_| {})
    }

    #[test]
    fn a_correction_network_that_adds_nothing_searches_as_the_hand_written_evaluation() {
        use crate::nnue::InputLayout;
        use menagerie_rules::rules::compiled;
        use menagerie_rules::variant::by_name;
        let v = by_name("dchess").expect("dchess");
        let layout =
            InputLayout::union([by_name("chess").expect("chess"), by_name("vdchess").expect("vd")], 1).expect("layout");
        let mut net = Network::zeroed(layout, 32, 1);
        let pos =
            Position::<u64>::from_fen(compiled::<u64>(v), "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BRNQKRNB b - - 0 1")
                .expect("fen");
        let run = |network: Option<&Network>| {
            let outcome = search_to_depth(&pos, 6, network, None);
            (outcome.best, outcome.score, outcome.nodes)
        };
        let hand_written = run(None);
        net.correction = Some(100);
        assert_eq!(run(Some(&net)), hand_written, "a zero correction");
        net.correction = None;
        assert_ne!(run(Some(&net)), hand_written, "a zero evaluation searches otherwise");
    }

    #[test]
    fn a_search_with_a_memory_leaves_its_tables_there_for_the_next() {
        use crate::search::ordering::mover_kind;
        use crate::search::SearchMemory;
        use menagerie_rules::rules::compiled;
        use menagerie_rules::variant::by_name;
        let v = by_name("dchess").expect("dchess");
        let pos =
            Position::<u64>::from_fen(compiled::<u64>(v), "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BRNQKRNB w - - 0 1")
                .expect("fen");
        let memory = SearchMemory::new();
        let run = |memory: Option<&SearchMemory>| search_to_depth(&pos, 7, None, memory).nodes;
        let fresh = run(None);
        assert_eq!(run(Some(&memory)), fresh, "the first search of a memory starts from nothing");
        let tables = memory.take(0);
        let learned = pos
            .legal_moves()
            .iter()
            .filter(|&&m| tables.heuristics.history(Color::White, mover_kind(&pos, m), m) != 0)
            .count();
        assert!(learned > 0, "the root's quiet moves have a history");
        memory.put(0, tables);
        assert_ne!(run(Some(&memory)), fresh, "the second starts from what the first learned");
        assert_eq!(run(None), fresh, "a search without a memory is reproducible alone");
    }

    #[test]
    fn a_stored_score_refines_the_evaluation_only_beyond_it() {
        let entry = |score, bound| Some(TableEntry { best: Move::NONE, score, depth: 5, bound });
        assert_eq!(refined_eval(40, None, 3), 40);
        assert_eq!(refined_eval(40, entry(10, Bound::Exact), 3), 10);
        // A lower bound above the evaluation raises it; below it, it says nothing new.
        assert_eq!(refined_eval(40, entry(90, Bound::Lower), 3), 90);
        assert_eq!(refined_eval(40, entry(10, Bound::Lower), 3), 40);
        assert_eq!(refined_eval(40, entry(10, Bound::Upper), 3), 10);
        assert_eq!(refined_eval(40, entry(90, Bound::Upper), 3), 40);
        // Mate scores are distances, not estimates.
        assert_eq!(refined_eval(40, entry(mate_in(7), Bound::Exact), 3), 40);
    }

    fn node(depth: i32, pv_node: bool, improving: bool) -> Node {
        Node {
            depth,
            ply: 5,
            pv_node,
            in_check: false,
            improving,
            raw_eval: 0,
            static_eval: 0,
            eval: 0,
            table_move: Move::NONE,
        }
    }

    fn quiet(number: usize, history: i32) -> MoveFacts {
        MoveFacts {
            m: Move::NONE,
            number,
            tactical: false,
            losing_capture: false,
            history,
            killer: false,
            gives_check: false,
        }
    }

    #[test]
    fn reductions_leave_a_ply_and_grow_with_the_move_number() {
        let all = Features::default();
        for depth in 1..40 {
            for (pv_node, improving, after_tactical) in
                [(false, false, true), (true, true, false), (false, true, false)]
            {
                let n = node(depth, pv_node, improving);
                for history in [-16384, -6000, 0, 5999, 16384] {
                    let mut previous = 0;
                    for number in 2..80 {
                        let r =
                            reduction(&Tuning::current(), &all, &n, &quiet(number, history), depth - 1, after_tactical);
                        assert!(r >= 0 && (r == 0 || r <= depth - 2), "depth {depth}, move {number}: {r}");
                        assert!(r >= previous, "depth {depth}, move {number}");
                        previous = r;
                        if depth < PARAMS.lmr_min_depth || number <= PARAMS.lmr_min_moves {
                            assert_eq!(r, 0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn checks_evasions_killers_and_good_captures_are_not_reduced() {
        let all = Features::default();
        let late = quiet(30, -16384);
        assert!(reduction(&Tuning::current(), &all, &node(10, false, false), &late, 9, false) > 0);
        let check = MoveFacts { gives_check: true, ..late };
        assert_eq!(reduction(&Tuning::current(), &all, &node(10, false, false), &check, 9, false), 0);
        let evasion = Node { in_check: true, ..node(10, false, false) };
        assert_eq!(reduction(&Tuning::current(), &all, &evasion, &late, 9, false), 0);
        let killer = MoveFacts { killer: true, ..late };
        assert_eq!(reduction(&Tuning::current(), &all, &node(10, false, false), &killer, 9, false), 0);
        let capture = MoveFacts { tactical: true, history: 0, ..late };
        assert_eq!(reduction(&Tuning::current(), &all, &node(10, false, false), &capture, 9, false), 0);
        let losing = MoveFacts { losing_capture: true, ..capture };
        assert_eq!(
            reduction(&Tuning::current(), &all, &node(10, false, false), &losing, 9, false),
            PARAMS.losing_capture_reduction
        );
        // Each reduction has its own switch.
        let no_lmr = Features { late_move_reductions: false, ..all };
        assert_eq!(reduction(&Tuning::current(), &no_lmr, &node(10, false, false), &late, 9, false), 0);
        assert_eq!(
            reduction(&Tuning::current(), &no_lmr, &node(10, false, false), &losing, 9, false),
            PARAMS.losing_capture_reduction
        );
        let no_capture_reductions = Features { losing_capture_reductions: false, ..all };
        assert_eq!(
            reduction(&Tuning::current(), &no_capture_reductions, &node(10, false, false), &losing, 9, false),
            0
        );
        assert_eq!(reduction(&Tuning::current(), &Features::none(), &node(10, false, false), &late, 9, false), 0);
    }
}
