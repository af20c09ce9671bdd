//! Balance studies of a variant (`menagerie balance`, docs/balance.md): self-play games over
//! its start positions at a stated strength, with or without its pre-game, appended to a game
//! file that a rerun continues; then the first mover's score, the draw rate, the game lengths,
//! the spread of the scores over the start positions, and the worth of each piece kind.
//!
//! The modules: `games` (which game has which start and seed, how one is played), `file` (the
//! game file), `stats` (intervals, quartiles, chi-square), `pieces_worth` (piece values from
//! the evaluation), `report` (the numbers, as text and JSON), `chart` (the SVG picture),
//! `diagram` (a piece's moves on an empty board, for `menagerie pieces`), `json`.
//!
//! Owns: `BalanceConfig`, `BalanceError`, `run`, `BalanceProgress`.
//! Must not know: the command line, protocols.

pub mod chart;
pub mod diagram;
pub mod file;
pub mod games;
pub mod pieces_worth;
pub mod report;
pub mod stats;

use games::{GameLine, GameSettings, GameThread, Starts};
use menagerie_engine::pregame::PregameError;
use menagerie_rules::startpos::StartError;
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a running study reports its progress.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Why a study cannot go on.
#[derive(Debug)]
pub enum BalanceError {
    Io(PathBuf, std::io::Error),
    /// A line of the game file that is neither a game nor the torn last line.
    BadLine {
        path: PathBuf,
        line: usize,
    },
    /// A game of the file that this study would not have played (another variant, seed,
    /// strength, pre-game setting or start list): the file belongs to another study.
    OtherStudy {
        path: PathBuf,
        game: u64,
        reason: String,
    },
    BadStarts(String),
    StartOutOfRange {
        index: u64,
        count: u64,
    },
    TooManyStarts {
        variant: String,
        count: u64,
    },
    Start(StartError),
    Pregame(PregameError),
    BadFen(String),
    BadMove(String),
    NoMove(String),
    Chart(String),
    Settings(String),
}

impl std::fmt::Display for BalanceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BalanceError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            BalanceError::BadLine { path, line } => {
                write!(f, "{}:{line}: not a game of a balance study", path.display())
            }
            BalanceError::OtherStudy { path, game, reason } => {
                write!(
                    f,
                    "{}: game {game} belongs to another study ({reason}); use another output file",
                    path.display()
                )
            }
            BalanceError::BadStarts(t) => write!(f, "--starts '{t}': all, FIRST..LAST or random:K"),
            BalanceError::StartOutOfRange { index, count } => {
                write!(f, "start {index} is out of range: the variant has {count} start positions")
            }
            BalanceError::TooManyStarts { variant, count } => write!(
                f,
                "{variant}: {count} start positions are more than a study lists (at most {}); use random:K or a range",
                games::MAX_STARTS
            ),
            BalanceError::Start(e) => write!(f, "{e}"),
            BalanceError::Pregame(e) => write!(f, "{e}"),
            BalanceError::BadFen(m) => write!(f, "bad FEN: {m}"),
            BalanceError::BadMove(m) => write!(f, "illegal move in a game: {m}"),
            BalanceError::NoMove(fen) => write!(f, "the search found no move in {fen}"),
            BalanceError::Chart(m) => write!(f, "chart: {m}"),
            BalanceError::Settings(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for BalanceError {}

impl From<StartError> for BalanceError {
    fn from(e: StartError) -> Self {
        BalanceError::Start(e)
    }
}

impl From<PregameError> for BalanceError {
    fn from(e: PregameError) -> Self {
        BalanceError::Pregame(e)
    }
}

/// A study.
#[derive(Clone, Debug)]
pub struct BalanceConfig {
    pub settings: GameSettings,
    pub starts: Starts,
    pub games_per_start: u64,
    /// Play only the games numbered below this (of starts × games per start), e.g. to stop a
    /// study early and go on later.
    pub max_games: Option<u64>,
    pub threads: usize,
    pub hash_mb: usize,
    pub seed: u64,
    pub out: PathBuf,
    /// Positions sampled from the games for the piece worths, at most.
    pub worth_positions: usize,
}

/// Plies between the positions sampled for the piece worths.
pub const SAMPLE_EVERY: usize = 8;

/// The games of a study, in order: game `i` plays start `starts[i % n]`.
#[derive(Clone, Debug)]
pub struct Plan {
    pub starts: Vec<u64>,
    pub games: u64,
}

impl Plan {
    pub fn new(config: &BalanceConfig) -> Result<Plan, BalanceError> {
        let starts = config.starts.indices(config.settings.variant, config.seed)?;
        let all = starts.len() as u64 * config.games_per_start;
        Ok(Plan { games: config.max_games.map_or(all, |m| m.min(all)), starts })
    }

    pub fn start_of(&self, game: u64) -> u64 {
        self.starts[(game % self.starts.len() as u64) as usize]
    }
}

/// How far a run is.
#[derive(Clone, Copy, Debug)]
pub struct BalanceProgress {
    pub done: u64,
    pub goal: u64,
    /// Games played by this run (the others were in the file).
    pub played: u64,
    pub elapsed: Duration,
}

impl std::fmt::Display for BalanceProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        let left = self.goal.saturating_sub(self.done) as f64;
        let eta = if self.played > 0 { secs / self.played as f64 * left } else { 0.0 };
        write!(
            f,
            "balance: {} of {} games ({} this run), {:.0} s, ETA {:.0} s",
            self.done, self.goal, self.played, secs, eta
        )
    }
}

/// Check that a game of the file is the one this study plays under its number.
fn check_game(config: &BalanceConfig, plan: &Plan, g: &GameLine) -> Result<(), BalanceError> {
    let s = &config.settings;
    let other = |reason: String| BalanceError::OtherStudy { path: config.out.clone(), game: g.index, reason };
    let variant_name = &s.variant.name;
    if &g.variant != variant_name {
        return Err(other(format!("variant {}, not {variant_name}", g.variant)));
    }
    if g.seed != GameSettings::game_seed(config.seed, g.index) {
        return Err(other("another --seed".to_string()));
    }
    if g.index < plan.games && g.start != plan.start_of(g.index) {
        return Err(other(format!("start {}, not {}: another --starts", g.start, plan.start_of(g.index))));
    }
    let expected = if s.movetime_ms.is_some() { [0, 0] } else { s.node_limits(g.seed) };
    if g.nodes != expected {
        return Err(other(format!("nodes {:?}, not {:?}", g.nodes, expected)));
    }
    // A start whose decisions are all made (a Chess-9 start with both relocations done) has
    // no pre-game steps either way.
    let has_steps =
        || menagerie_engine::pregame::Sequence::new(s.variant, &g.start_fen).is_ok_and(|seq| seq.next().is_some());
    match (s.pregame.is_some(), g.pregame.is_empty()) {
        (true, true) if has_steps() => return Err(other("played without the pre-game".to_string())),
        (false, false) => return Err(other("played with the pre-game".to_string())),
        _ => {}
    }
    Ok(())
}

/// Play the games of the study that its file lacks, then return every game of the plan, in
/// the order of their numbers.
pub fn play(
    config: &BalanceConfig,
    on_progress: impl Fn(BalanceProgress) + Sync,
) -> Result<Vec<GameLine>, BalanceError> {
    if config.games_per_start == 0 || config.threads == 0 || config.settings.nodes == 0 {
        return Err(BalanceError::Settings("a study needs a game per start, a thread and a node per move".to_string()));
    }
    if config.settings.pregame.is_some() {
        menagerie_engine::pregame::sequence::require_pregame(config.settings.variant)?;
    }
    let plan = Plan::new(config)?;
    let existing = file::read_games(&config.out, true)?;
    let mut have = BTreeSet::new();
    for g in &existing {
        check_game(config, &plan, g)?;
        if !have.insert(g.index) {
            log::warn!("{}: game {} is there twice; the first counts", config.out.display(), g.index);
        }
    }
    let todo: Vec<u64> = (0..plan.games).filter(|i| !have.contains(i)).collect();
    let already = plan.games - todo.len() as u64;
    if !todo.is_empty() {
        log::info!("{} games of {} in {}, {} to play", already, plan.games, config.out.display(), todo.len());
        play_missing(config, &plan, &todo, already, &on_progress)?;
    }
    let mut games = file::read_games(&config.out, false)?;
    let mut seen = BTreeSet::new();
    games.retain(|g| g.index < plan.games && seen.insert(g.index));
    games.sort_by_key(|g| g.index);
    Ok(games)
}

fn play_missing(
    config: &BalanceConfig,
    plan: &Plan,
    todo: &[u64],
    already: u64,
    on_progress: &(impl Fn(BalanceProgress) + Sync),
) -> Result<(), BalanceError> {
    let writer = Mutex::new(file::GameWriter::append(&config.out)?);
    let played = AtomicU64::new(0);
    let started = Instant::now();
    let progress =
        |played: u64| BalanceProgress { done: already + played, goal: plan.games, played, elapsed: started.elapsed() };
    crate::work_pool::run_jobs::<_, BalanceError>(
        config.threads,
        todo.len() as u64,
        PROGRESS_EVERY,
        || GameThread::new(config.hash_mb),
        |thread, k| {
            let index = todo[k as usize];
            let seed = GameSettings::game_seed(config.seed, index);
            let game = games::play_game(&config.settings, index, plan.start_of(index), seed, thread)?;
            writer.lock().map_err(|_| BalanceError::Settings("a game thread failed".to_string()))?.write(&game)?;
            played.fetch_add(1, Ordering::Relaxed);
            Ok(())
        },
        || on_progress(progress(played.load(Ordering::Relaxed))),
    )?;
    on_progress(progress(played.into_inner()));
    Ok(())
}

/// The report of a study's games: play what is missing, then measure.
pub fn run(
    config: &BalanceConfig,
    on_progress: impl Fn(BalanceProgress) + Sync,
) -> Result<report::Report, BalanceError> {
    let games = play(config, on_progress)?;
    Ok(report_of(config, &games))
}

/// The report of games already played.
pub fn report_of(config: &BalanceConfig, games: &[GameLine]) -> report::Report {
    let variant = config.settings.variant;
    let fens = games::sample_positions(variant, games, SAMPLE_EVERY, config.worth_positions);
    let worths = pieces_worth::measure(variant, &fens, config.settings.eval);
    report::Report::new(variant, games, worths)
}

/// The piece worths over the positions of a few quick self-play games from random starts (for
/// `menagerie pieces`), with the evaluation the engine plays the variant with.
pub fn quick_worths(
    variant: &'static menagerie_rules::variant::Variant,
    games: u64,
    nodes: u64,
    seed: u64,
) -> Result<pieces_worth::PieceWorths, BalanceError> {
    use menagerie_engine::nnue::embedded::EvalChoice;
    let settings =
        GameSettings { variant, nodes, movetime_ms: None, jitter: 0.15, pregame: None, eval: EvalChoice::Default };
    let starts = Starts::Random(games).indices(variant, seed)?;
    let mut thread = GameThread::new(4);
    let mut lines = Vec::new();
    for i in 0..games {
        let start = starts[(i % starts.len() as u64) as usize];
        lines.push(games::play_game(&settings, i, start, GameSettings::game_seed(seed, i), &mut thread)?);
    }
    let fens = games::sample_positions(variant, &lines, 4, 400);
    Ok(pieces_worth::measure(variant, &fens, settings.eval))
}
