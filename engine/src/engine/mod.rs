//! The engine facade between the search and the protocols: it holds the variant, the game
//! (start position, moves and the hashes of the positions played), the transposition table,
//! the network of `EvalFile` and the options (declared in `options`; the effects of Hash,
//! Threads, MultiPV, Move Overhead and EvalFile applied here, a value that cannot be applied
//! refused with the engine as it was), and runs searches in the background, each, when `Use
//! NNUE` is on, with the `EvalFile` network that fits the variant or the built-in one that
//! measured stronger in it. Below full strength (`Skill Level`, `UCI_LimitStrength`: `skill`) a
//! search looks at several root moves to a depth the level caps and plays one drawn from them,
//! with a generator seeded anew for every game. A search reports on a channel:
//! `SearchEvent::Info` per completed iteration (`SearchEvent::CurrMove` per root move in long
//! searches), then one `SearchEvent::BestMove`. Moves cross this boundary as coordinate text.
//!
//! Files: `options` (every option, declared once), `skill` (weaker play: the level's depth,
//! lines and choice of move, and the Elo calibration).
//!
//! Owns: `Engine`, `SearchEvent`, `EngineError`.
//! Must not know: UCI or XBoard syntax, stdin and stdout.

pub mod options;
pub mod skill;

pub use skill::Skill;

pub use options::{
    Frontend, OptionError, Options, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_HASH_MB, MAX_MOVE_OVERHEAD_MS,
    MAX_MULTIPV, MAX_THREADS,
};

use crate::nnue::{self, Network};
use crate::search::threads::ThreadsError;
use crate::search::tt::TableSizeError;
use crate::search::{
    self, Bound, RootMoveInfo, Score, ScoreReport, SearchJob, SearchLimits, SearchMemory, SearchThreads,
    TranspositionTable,
};
use crossbeam_channel::{bounded, unbounded, Receiver, Sender, TryRecvError};
use menagerie_rules::any::AnyPosition;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::moves::Move;
use menagerie_rules::notation::MoveParseError;
use menagerie_rules::position::{FenError, Position};
use menagerie_rules::random::{clock_seed, SplitMix64};
use menagerie_rules::startpos::{start_fen, StartError};
use menagerie_rules::variant::{by_name, UnknownVariant, Variant};
use menagerie_rules::with_position;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// What a running search reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// One completed iteration, or an aspiration failure in a long search.
    Info {
        /// Which line of a MultiPV search, from 1 (the best).
        multipv: u32,
        depth: u32,
        seldepth: u32,
        score: ScoreReport,
        nodes: u64,
        nps: u64,
        time_ms: u64,
        /// Per mille of the hash table written by this search.
        hashfull: u32,
        /// The principal variation in coordinate notation.
        pv: Vec<String>,
        /// Exact, or (after an aspiration failure in a long search) Lower or Upper.
        bound: Bound,
    },
    /// The main thread starts on root move number `number` (from 1) of iteration `depth`; sent
    /// only once a search has run for a second (`search::PROGRESS_REPORT_AFTER`).
    CurrMove { depth: u32, currmove: String, number: u32 },
    /// The search is over. `best` is `None` only when there is no legal move.
    BestMove { best: Option<String>, ponder: Option<String> },
}

/// Why a request was refused. The engine keeps its previous state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    UnknownVariant(UnknownVariant),
    /// The variant has no start position to begin with.
    Start(StartError),
    Fen(FenError),
    /// Move number `index` (0-based) of a move list cannot be played.
    Move {
        index: usize,
        error: MoveParseError,
    },
    /// A move given to restrict the search is not legal at the root.
    SearchMove(MoveParseError),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::UnknownVariant(e) => e.fmt(f),
            EngineError::Start(e) => write!(f, "no start position: {e}"),
            EngineError::Fen(e) => e.fmt(f),
            EngineError::Move { index, error } => write!(f, "move {}: {error}", index + 1),
            EngineError::SearchMove(e) => write!(f, "search move: {e}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<UnknownVariant> for EngineError {
    fn from(e: UnknownVariant) -> Self {
        EngineError::UnknownVariant(e)
    }
}

impl From<FenError> for EngineError {
    fn from(e: FenError) -> Self {
        EngineError::Fen(e)
    }
}

impl From<StartError> for EngineError {
    fn from(e: StartError) -> Self {
        EngineError::Start(e)
    }
}

/// A game set up for searching: the position and the hashes of the positions before it.
#[derive(Clone)]
struct Setup {
    position: AnyPosition,
    history: Vec<u64>,
}

impl Setup {
    fn new(variant: &'static Variant, fen: &str, moves: &[&str]) -> Result<Setup, EngineError> {
        let mut position = AnyPosition::from_fen(variant, fen)?;
        let mut history = Vec::with_capacity(moves.len());
        for (index, text) in moves.iter().enumerate() {
            let before = position.hash();
            position.play_text(text).map_err(|error| EngineError::Move { index, error })?;
            history.push(before);
        }
        Ok(Setup { position, history })
    }
}

/// The engine. Searches run on their own threads; every method that changes the state first
/// stops and waits for a running search.
pub struct Engine {
    variant: &'static Variant,
    setup: Setup,
    tt: Arc<TranspositionTable>,
    /// The search threads' history tables, kept between the searches of a game.
    memory: Arc<SearchMemory>,
    hash_mb: usize,
    /// The search threads, kept between searches.
    threads: Arc<SearchThreads>,
    multipv: usize,
    move_overhead_ms: u64,
    chess960: bool,
    /// Every option's value as last set through `set_option`.
    options: Options,
    /// The network read from `EvalFile`, if one was; otherwise the built-in ones serve.
    eval_file: Option<Arc<Network>>,
    /// The sections of the last `VariantPath` file that were refused, for the protocol to say.
    variant_refusals: Vec<String>,
    stop: Arc<AtomicBool>,
    /// Closes when the running search has sent its best move.
    running: Option<Receiver<()>>,
    /// Draws the seed of each search's choice of move below full strength; seeded anew for
    /// every game.
    skill_rng: SplitMix64,
    /// The seed of every game's generator when one is fixed (`set_skill_seed`), for tests.
    skill_seed: Option<u64>,
}

impl Engine {
    /// An engine for a built-in variant, at its default start position.
    pub fn new(variant: &str) -> Result<Engine, EngineError> {
        let v = by_name(variant)?;
        let setup = Setup::new(v, &start_fen(v, v.start_default)?, &[])?;
        Ok(Engine {
            variant: v,
            setup,
            tt: Arc::new(TranspositionTable::new(DEFAULT_HASH_MB)),
            memory: Arc::new(SearchMemory::new()),
            hash_mb: DEFAULT_HASH_MB,
            threads: Arc::new(SearchThreads::new(1)),
            multipv: 1,
            move_overhead_ms: DEFAULT_MOVE_OVERHEAD_MS,
            chess960: false,
            options: Options::default(),
            eval_file: None,
            variant_refusals: Vec::new(),
            stop: Arc::new(AtomicBool::new(false)),
            running: None,
            skill_rng: SplitMix64::new(varying_seed()),
            skill_seed: None,
        })
    }

    /// Switch to a built-in variant, at its default start position, with a cleared table.
    pub fn set_variant(&mut self, name: &str) -> Result<(), EngineError> {
        let v = by_name(name)?;
        let setup = Setup::new(v, &start_fen(v, v.start_default)?, &[])?;
        self.halt();
        self.variant = v;
        self.setup = setup;
        self.tt.clear();
        self.memory.clear();
        Ok(())
    }

    /// The current variant.
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The FEN a protocol's `startpos` means: the variant's default start position.
    pub fn default_start_fen(&self) -> Result<String, EngineError> {
        Ok(start_fen(self.variant, self.variant.start_default)?)
    }

    /// The FEN of the variant's start position number `index` (as `startpos` numbers them).
    pub fn start_fen(&self, index: u64) -> Result<String, EngineError> {
        Ok(start_fen(self.variant, index)?)
    }

    /// Set the position: a FEN, then moves in coordinate notation. On error nothing changes.
    pub fn set_position<S: AsRef<str>>(&mut self, fen: &str, moves: &[S]) -> Result<(), EngineError> {
        let texts: Vec<&str> = moves.iter().map(|m| m.as_ref()).collect();
        let setup = Setup::new(self.variant, fen, &texts)?;
        self.halt();
        self.setup = setup;
        Ok(())
    }

    /// The position searched by `go`.
    pub fn position(&self) -> &AnyPosition {
        &self.setup.position
    }

    /// Set the option `frontend` offers as `name` from a value text and apply its effect; a
    /// value that is not allowed changes nothing. Returns the option set, whose `effect` tells
    /// the protocol what is left for it to do.
    pub fn set_option(
        &mut self,
        frontend: Frontend,
        name: &str,
        text: &str,
    ) -> Result<&'static options::EngineOption, OptionError> {
        let before = self.options.clone();
        let option = self.options.set(frontend, name, text)?;
        let n = self.options.spin(option);
        let applied = match option.effect {
            options::Effect::Hash => self.try_set_hash(n as usize).map_err(|e| e.to_string()),
            options::Effect::Threads => self.try_set_threads(n as usize).map_err(|e| e.to_string()),
            options::Effect::MultiPv => {
                self.set_multipv(n as usize);
                Ok(())
            }
            options::Effect::MoveOverhead => {
                self.set_move_overhead(n);
                Ok(())
            }
            options::Effect::EvalFile => self.load_eval_file(&self.options.file(option)),
            options::Effect::Variants => load_variant_file(&self.options.file(option)).map(|refused| {
                self.variant_refusals = refused;
            }),
            options::Effect::Rules | options::Effect::Kept => Ok(()),
            options::Effect::Tunable => set_tunable(option.name, n),
        };
        match applied {
            Ok(()) => Ok(option),
            Err(why) => {
                self.options = before;
                Err(OptionError::NotApplied { option, why })
            }
        }
    }

    /// The sections of the last `VariantPath` file that were refused (a Fairy-Stockfish file's
    /// sections Menagerie cannot play exactly), each with its line and reason; emptied here.
    pub fn take_variant_refusals(&mut self) -> Vec<String> {
        std::mem::take(&mut self.variant_refusals)
    }

    /// Read the network of `EvalFile` (the default name: the built-in networks); on error the
    /// engine keeps the network it had.
    fn load_eval_file(&mut self, path: &str) -> Result<(), String> {
        if path == options::EMBEDDED_NETWORKS {
            self.eval_file = None;
            return Ok(());
        }
        let net = nnue::file::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
        self.eval_file = Some(Arc::new(net));
        Ok(())
    }

    /// The network a search of the current variant uses: none unless `Use NNUE` is on; then
    /// the `EvalFile` network if it fits the variant, else the built-in one that measured
    /// stronger in it than the hand-written evaluation, if there is one.
    pub fn network(&self) -> Option<Arc<Network>> {
        self.network_for(self.variant)
    }

    /// The network the engine would search `v` with if it were the current variant (the
    /// pre-game decides for a variant of its own).
    pub fn network_for(&self, v: &Variant) -> Option<Arc<Network>> {
        if !self.options.check(&options::USE_NNUE) {
            return None;
        }
        nnue::embedded::fitting(self.eval_file.iter(), v).or_else(|| nnue::embedded::default_for(v)).cloned()
    }

    /// In words, what a search of the current variant evaluates with, and why (what `eval`
    /// reports).
    pub fn evaluation_in_use(&self) -> String {
        if !self.options.check(&options::USE_NNUE) {
            return "the hand-written evaluation (Use NNUE is off)".to_string();
        }
        nnue::embedded::describe(self.variant, self.network().as_ref())
    }

    /// The `EvalFile` network, if one was loaded and it fits the current variant.
    fn loaded_network(&self) -> Option<Arc<Network>> {
        nnue::embedded::fitting(self.eval_file.iter(), self.variant).cloned()
    }

    /// The network that fits the current variant, searched with or not (what `eval` shows): the
    /// `EvalFile` network if it fits, else the built-in one that does.
    pub fn fitting_network(&self) -> Option<Arc<Network>> {
        self.loaded_network().or_else(|| nnue::embedded::fitting(nnue::embedded::built_in(), self.variant).cloned())
    }

    /// Every option's value.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Perft of the current position per root move, the moves written as searches write them
    /// (none at depth 0).
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        if depth == 0 {
            return Vec::new();
        }
        self.setup.position.divide(depth, self.chess960, |_, _| {})
    }

    /// Hash table size in megabytes (at least 1); the table starts empty.
    pub fn set_hash(&mut self, mb: usize) {
        self.halt();
        self.hash_mb = mb.clamp(1, MAX_HASH_MB);
        self.tt = Arc::new(TranspositionTable::new(self.hash_mb));
    }

    /// Hash table size in megabytes (at least 1), or an error if the machine cannot provide it:
    /// then the engine keeps the table it had.
    pub fn try_set_hash(&mut self, mb: usize) -> Result<(), TableSizeError> {
        let mb = mb.clamp(1, MAX_HASH_MB);
        self.halt();
        // The new table's pages are mapped only when written, so the old one can stay until
        // the new one is had.
        self.tt = Arc::new(TranspositionTable::try_new(mb)?);
        self.hash_mb = mb;
        Ok(())
    }

    /// Hash table size in megabytes.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Number of search threads (at least 1). The threads are started here, not per search.
    pub fn set_threads(&mut self, threads: usize) {
        if let Err(e) = self.try_set_threads(threads) {
            log::warn!("{e}; keeping {} threads", self.threads.count());
        }
    }

    /// Search threads (1..MAX_THREADS), or an error if the system will not start them: the
    /// engine then keeps the threads it had.
    pub fn try_set_threads(&mut self, threads: usize) -> Result<(), ThreadsError> {
        let threads = threads.clamp(1, MAX_THREADS);
        if threads != self.threads.count() {
            let pool = SearchThreads::try_new(threads)?;
            self.halt();
            self.threads = Arc::new(pool);
        }
        Ok(())
    }

    pub fn threads(&self) -> usize {
        self.threads.count()
    }

    /// Number of principal variations reported per iteration (at least 1; fewer when there are
    /// fewer legal root moves).
    pub fn set_multipv(&mut self, lines: usize) {
        self.halt();
        self.multipv = lines.clamp(1, MAX_MULTIPV);
    }

    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// Milliseconds kept in reserve per move under a clock.
    pub fn set_move_overhead(&mut self, ms: u64) {
        self.move_overhead_ms = ms;
    }

    /// Write castling as king-takes-rook in reported moves.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// Whether reported moves write castling as king-takes-rook.
    pub fn chess960(&self) -> bool {
        self.chess960
    }

    /// A new game: the table is cleared, and the choices of move below full strength are
    /// seeded anew.
    pub fn new_game(&mut self) {
        self.halt();
        self.tt.clear();
        self.memory.clear();
        self.skill_rng = SplitMix64::new(self.skill_seed.unwrap_or_else(varying_seed));
    }

    /// Fix the seed of the choices of move below full strength, now and at every new game, so
    /// that a game can be replayed (`None`: a seed from the clock for every game, the default).
    pub fn set_skill_seed(&mut self, seed: Option<u64>) {
        self.skill_seed = seed;
        self.skill_rng = SplitMix64::new(seed.unwrap_or_else(varying_seed));
    }

    /// The strength the options ask for: `None` at full strength.
    pub fn skill(&self) -> Option<Skill> {
        Skill::from_options(&self.options)
    }

    /// Start searching the current position; events arrive on the returned channel, which
    /// closes after `BestMove`. Under `infinite` or `ponder` the best move is sent only after
    /// `stop`.
    pub fn go(&mut self, limits: SearchLimits) -> Receiver<SearchEvent> {
        self.start_search(limits, Vec::new())
    }

    /// Like `go`, searching only the given root moves (coordinate notation).
    pub fn go_restricted<S: AsRef<str>>(
        &mut self,
        limits: SearchLimits,
        moves: &[S],
    ) -> Result<Receiver<SearchEvent>, EngineError> {
        let parsed = with_position!(&self.setup.position, p => moves
            .iter()
            .map(|t| p.parse_move(t.as_ref()))
            .collect::<Result<Vec<Move>, MoveParseError>>())
        .map_err(EngineError::SearchMove)?;
        Ok(self.start_search(limits, parsed))
    }

    fn start_search(&mut self, limits: SearchLimits, root_moves: Vec<Move>) -> Receiver<SearchEvent> {
        self.halt();
        self.stop.store(false, Ordering::SeqCst);
        let (tx, rx) = unbounded();
        let (done, running) = bounded(0);
        let skill = self.skill().map(|s| (s, self.skill_rng.next_u64()));
        let run = Run {
            setup: self.setup.clone(),
            root_moves,
            limits,
            tt: Arc::clone(&self.tt),
            memory: Arc::clone(&self.memory),
            stop: Arc::clone(&self.stop),
            threads: Arc::clone(&self.threads),
            multipv: self.multipv,
            move_overhead_ms: self.move_overhead_ms,
            chess960: self.chess960,
            network: self.network(),
            skill,
            tx,
            _done: done,
        };
        self.threads.spawn(move || run.execute());
        self.running = Some(running);
        rx
    }

    /// Ask a running search to stop (it still sends its best move).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Wait until the running search, if any, has sent its best move.
    pub fn wait(&mut self) {
        if let Some(running) = self.running.take() {
            // Nothing is ever sent: this returns when the search drops its end of the channel.
            let _ = running.recv();
        }
    }

    /// Whether a search is running.
    pub fn is_searching(&self) -> bool {
        self.running.as_ref().is_some_and(|running| matches!(running.try_recv(), Err(TryRecvError::Empty)))
    }

    /// Stop and wait.
    fn halt(&mut self) {
        if self.running.is_some() {
            self.stop();
            self.wait();
        }
    }
}

/// A seed that differs from game to game and between engines started together: the clock's
/// nanoseconds mixed with the process id.
fn varying_seed() -> u64 {
    clock_seed() ^ u64::from(std::process::id()).rotate_left(32)
}

/// Make the variants of the file at `path` known (the default name: none); on error none is.
/// Set a search number from its option (`options::Effect::Tunable`): the option's range is the
/// table's, so that only a table out of step with the options is refused here.
#[cfg(feature = "tune")]
fn set_tunable(name: &str, value: u64) -> Result<(), String> {
    let value = i64::try_from(value).map_err(|e| e.to_string())?;
    crate::search::params::set_tunable(name, value).map_err(|e| e.to_string())
}

/// No option has the `Tunable` effect in the engine that plays.
#[cfg(not(feature = "tune"))]
fn set_tunable(name: &str, _value: u64) -> Result<(), String> {
    Err(format!("{name} is a search number, an option only in an engine built with the tune feature"))
}

/// Returns the refused sections of a Fairy-Stockfish file, one line each.
fn load_variant_file(path: &str) -> Result<Vec<String>, String> {
    if path == options::NO_VARIANT_FILE {
        return Ok(Vec::new());
    }
    let loaded = menagerie_rules::variant_file::load(std::path::Path::new(path)).map_err(|e| e.to_string())?;
    Ok(loaded.refused.iter().map(ToString::to_string).collect())
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.halt();
    }
}

/// Everything a background search needs.
struct Run {
    setup: Setup,
    root_moves: Vec<Move>,
    limits: SearchLimits,
    tt: Arc<TranspositionTable>,
    memory: Arc<SearchMemory>,
    stop: Arc<AtomicBool>,
    threads: Arc<SearchThreads>,
    multipv: usize,
    move_overhead_ms: u64,
    chess960: bool,
    network: Option<Arc<Network>>,
    /// Below full strength: the skill and the seed of this search's choice.
    skill: Option<(Skill, u64)>,
    tx: Sender<SearchEvent>,
    /// Dropped when the run ends, which tells `Engine::wait`.
    _done: Sender<()>,
}

impl Run {
    fn execute(self) {
        let event = with_position!(&self.setup.position, p => self.search(p));
        if self.limits.until_stopped() {
            while !self.stop.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        // The receiver may be gone; nobody is left to tell.
        let _ = self.tx.send(event);
    }

    fn search<B: BitSet>(&self, root: &Position<B>) -> SearchEvent {
        let chess960 = self.chess960;
        let root_tx = self.tx.clone();
        let on_root_move = move |r: &RootMoveInfo| {
            let _ = root_tx.send(SearchEvent::CurrMove {
                depth: r.depth,
                currmove: root.move_to_uci(r.m, chess960),
                number: r.number,
            });
        };
        let skill = self.skill.map(|(s, _)| s);
        let job = SearchJob {
            root,
            history: &self.setup.history,
            root_moves: &self.root_moves,
            limits: skill.map_or_else(|| self.limits.clone(), |s| s.limits(self.limits.clone())),
            tt: &self.tt,
            stop: &self.stop,
            threads: &self.threads,
            multipv: skill.map_or(self.multipv, |s| s.lines(self.multipv)),
            move_overhead_ms: self.move_overhead_ms,
            features: search::Features::default(),
            on_root_move: Some(&on_root_move),
            progress_after: search::PROGRESS_REPORT_AFTER,
            network: self.network.as_deref(),
            memory: Some(&self.memory),
        };
        let tx = self.tx.clone();
        // The lines of the last completed iteration (reported together, best first), for a
        // choice below full strength.
        let mut lines: Vec<(Score, Vec<Move>)> = Vec::new();
        let record = &mut lines;
        let outcome = search::search(&job, move |info| {
            if skill.is_some() && info.bound == Bound::Exact {
                if info.multipv == 1 {
                    record.clear();
                }
                record.push((info.score, info.pv.clone()));
            }
            let _ = tx.send(SearchEvent::Info {
                multipv: info.multipv,
                depth: info.depth,
                seldepth: info.seldepth,
                score: ScoreReport::from_score(info.score),
                nodes: info.nodes,
                nps: info.nps(),
                time_ms: info.time.as_millis() as u64,
                hashfull: info.hashfull,
                pv: line_texts(root, &info.pv, chess960),
                bound: info.bound,
            });
        });
        let mut line: Vec<Move> = outcome.best.into_iter().chain(outcome.ponder).collect();
        if let Some((skill, seed)) = self.skill {
            let scores: Vec<Score> = lines.iter().map(|(s, _)| *s).collect();
            let chosen = skill.pick(&scores, &mut SplitMix64::new(seed));
            if let Some((_, pv)) = lines.get(chosen).filter(|(_, pv)| !line_texts(root, pv, chess960).is_empty()) {
                line = pv.iter().copied().take(2).collect();
            }
        }
        let texts = line_texts(root, &line, chess960);
        SearchEvent::BestMove { best: texts.first().cloned(), ponder: texts.get(1).cloned() }
    }
}

/// A line of moves as coordinate texts, cut at the first move that is not legal.
fn line_texts<B: BitSet>(root: &Position<B>, line: &[Move], chess960: bool) -> Vec<String> {
    let mut pos = root.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        if !pos.legal_moves().iter().any(|&x| x == m) {
            break;
        }
        out.push(pos.move_to_uci(m, chess960));
        pos.play(m);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The moves of a game the engine plays against itself from the variant's start, each search
    /// to at most `depth`, after a new game.
    fn self_play(engine: &mut Engine, plies: usize, depth: u32) -> Vec<String> {
        engine.new_game();
        let fen = engine.default_start_fen().expect("start");
        let mut moves: Vec<String> = Vec::new();
        for _ in 0..plies {
            engine.set_position(&fen, &moves).expect("the moves played are legal");
            let events = engine.go(SearchLimits::depth(depth));
            let best = events.iter().find_map(|e| match e {
                SearchEvent::BestMove { best, .. } => best,
                _ => None,
            });
            let Some(m) = best else { break };
            moves.push(m);
        }
        moves
    }

    /// The (multipv, depth) of every report of one search.
    fn reports(engine: &mut Engine, limits: SearchLimits) -> Vec<(u32, u32)> {
        engine
            .go(limits)
            .iter()
            .filter_map(|e| match e {
                SearchEvent::Info { multipv, depth, .. } => Some((multipv, depth)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_fixed_seed_replays_a_game_below_full_strength_and_other_seeds_play_others() {
        let mut engine = Engine::new("dchess").expect("dchess");
        engine.set_option(Frontend::Uci, "Skill Level", "2").expect("level");
        engine.set_skill_seed(Some(1));
        let first = self_play(&mut engine, 24, 8);
        assert_eq!(first.len(), 24);
        assert_eq!(self_play(&mut engine, 24, 8), first, "each new game starts from the fixed seed");
        let others: Vec<Vec<String>> = (2..6)
            .map(|seed| {
                engine.set_skill_seed(Some(seed));
                self_play(&mut engine, 24, 8)
            })
            .collect();
        assert!(others.iter().all(|g| *g != first), "{first:?}\n{others:?}");
        // Seeded from the clock, two games differ too.
        engine.set_skill_seed(None);
        let a = self_play(&mut engine, 24, 8);
        assert_ne!(self_play(&mut engine, 24, 8), a);
    }

    #[test]
    fn full_strength_searches_as_before_whatever_the_seed() {
        let mut engine = Engine::new("chess").expect("chess");
        let run = |engine: &mut Engine, seed| {
            engine.set_skill_seed(Some(seed));
            engine.new_game();
            self_play(engine, 6, 5)
        };
        let first = run(&mut engine, 1);
        assert_eq!(run(&mut engine, 2), first);
        assert!(reports(&mut engine, SearchLimits::depth(4)).iter().all(|&(multipv, _)| multipv == 1));
    }

    #[test]
    fn a_level_searches_four_lines_to_its_depth_and_plays_one_of_them() {
        let mut engine = Engine::new("chess").expect("chess");
        engine.set_option(Frontend::Xboard, "Skill Level", "3").expect("level");
        let seen = reports(&mut engine, SearchLimits::depth(12));
        assert_eq!(seen.iter().map(|r| r.0).max(), Some(CANDIDATE_LINES_FOR_TESTS));
        assert!(seen.iter().all(|r| r.1 <= 4), "level 3 searches at most 4 plies: {seen:?}");
        // Restricted to two root moves, it plays one of them.
        for seed in 0..8 {
            engine.set_skill_seed(Some(seed));
            let events = engine.go_restricted(SearchLimits::depth(3), &["a2a3", "h2h4"]).expect("legal");
            let best = events.iter().find_map(|e| match e {
                SearchEvent::BestMove { best, .. } => best,
                _ => None,
            });
            assert!(matches!(best.as_deref(), Some("a2a3" | "h2h4")), "{best:?}");
        }
    }

    const CANDIDATE_LINES_FOR_TESTS: u32 = skill::CANDIDATE_LINES as u32;

    #[cfg(feature = "tune")]
    #[test]
    fn tune_an_option_sets_the_number_the_next_search_uses_and_a_refused_one_keeps_it() {
        use crate::search::params::tune_tests::{restore_defaults, LIVE_VALUES};
        use crate::search::Tuning;
        let _turn = LIVE_VALUES.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut engine = Engine::new("dchess").expect("dchess");
        let nodes = |engine: &mut Engine| {
            engine.new_game();
            let fen = engine.default_start_fen().expect("start");
            engine.set_position::<&str>(&fen, &[]).expect("start");
            let events = engine.go(SearchLimits::depth(7));
            events
                .iter()
                .filter_map(|e| match e {
                    SearchEvent::Info { nodes, .. } => Some(nodes),
                    _ => None,
                })
                .last()
                .expect("a report")
        };
        let before = nodes(&mut engine);
        engine.set_option(Frontend::Uci, "lmr_divisor_hundredths", "100").expect("in range");
        assert_eq!(Tuning::current().params().lmr_divisor_hundredths, 100);
        let reduced_more = nodes(&mut engine);
        assert_ne!(reduced_more, before, "the search uses the value set");
        let e = engine.set_option(Frontend::Xboard, "lmr_divisor_hundredths", "99").unwrap_err();
        assert_eq!(e.to_string(), "lmr_divisor_hundredths must be 100..500, not '99'");
        assert_eq!(Tuning::current().params().lmr_divisor_hundredths, 100, "the refused value changed nothing");
        assert_eq!(engine.options().spin(options::find(Frontend::Uci, "lmr_divisor_hundredths").unwrap()), 100);
        engine.set_option(Frontend::Uci, "lmr_divisor_hundredths", "225").expect("the default");
        assert_eq!(nodes(&mut engine), before, "the default searches as before");
        restore_defaults();
    }
}
