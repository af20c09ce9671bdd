//! SPSA tuning of the search's numbers by games (`menagerie tune`): each iteration starts two
//! instances of the engine, one with every chosen number moved up or down by the schedule's
//! perturbation and one with it moved the other way, plays game pairs between them (the same
//! random start, colours reversed) through the match runner, and moves the numbers towards the
//! side that scored better. The state is saved after every iteration, so that a run stopped by
//! its bounds or killed resumes where it stood; a history file gets one line per iteration.
//!
//! Layers: `run` (the loop, engines and games through `tournament`) -> `spsa` (the gains and
//! the update) / `state` (the file) -> `json`.
//!
//! Owns: `TuneConfig`, `TunerError`, `run`, the history file's format, the check that the
//! engine offers the numbers.
//! Must not know: what the numbers mean to the search, protocol text beyond the option list.

pub mod spsa;
pub mod state;

use crate::tournament::engine_process::EngineProcess;
use crate::tournament::schedule::{Openings, Schedule as GameSchedule};
use crate::tournament::{run_match, Adjudication, EngineSpec, GameOptions, MatchConfig, MatchError, TimeControl};
use menagerie_engine::search::params::{Tunable, OPENBENCH_R_END};
use menagerie_rules::random::SplitMix64;
use menagerie_rules::startpos::Form;
use menagerie_rules::variant::Variant;
use spsa::{perturb, update, Schedule, SpsaParam};
use state::{Settings, StateError, TunerState};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Everything a tuning run needs.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The engine tuned (built with the `tune` feature); its own `option.NAME=VALUE` fields are
    /// set in both instances, before the tuned numbers.
    pub engine: EngineSpec,
    /// Played in turn, one per iteration.
    pub variants: Vec<&'static Variant>,
    pub tc: TimeControl,
    /// The time control as typed, kept in the state.
    pub tc_text: String,
    /// Games at once.
    pub concurrency: usize,
    /// Game pairs per iteration, all with the same perturbation.
    pub pairs_per_iteration: u64,
    /// The run the gain schedule is planned for (OpenBench's iterations).
    pub planned_iterations: u64,
    /// The numbers tuned, in the table's order.
    pub params: Vec<&'static Tunable>,
    pub seed: u64,
    /// Stop before an iteration once this many games (over every run on the state) are played.
    pub max_games: Option<u64>,
    /// Stop before an iteration once this run has lasted this long.
    pub max_duration: Option<Duration>,
    pub state_path: PathBuf,
    /// One line per iteration: `iteration,games,wins,draws,losses,` then every number.
    pub history_path: Option<PathBuf>,
    /// Refuse an engine that does not offer every tuned number as an option (an engine built
    /// without the `tune` feature ignores them, and the run would tune noise).
    pub require_options: bool,
    pub adjudication: Adjudication,
    /// How long an engine may stay silent in a game without a clock.
    pub hang_ms: u64,
}

/// Why a tuning run stopped early.
#[derive(Debug)]
pub enum TunerError {
    Config(String),
    State(StateError),
    Match(MatchError),
}

impl fmt::Display for TunerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TunerError::Config(m) => f.write_str(m),
            TunerError::State(e) => write!(f, "{e}"),
            TunerError::Match(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TunerError {}

impl From<StateError> for TunerError {
    fn from(e: StateError) -> TunerError {
        TunerError::State(e)
    }
}

impl From<MatchError> for TunerError {
    fn from(e: MatchError) -> TunerError {
        TunerError::Match(e)
    }
}

/// Adjudication for tuning games, which only need a result: a side both engines see 10 pawns
/// down for 3 moves loses, 8 moves within 0.1 pawn of zero from move 40 draw, and 200 moves
/// draw.
pub fn default_adjudication() -> Adjudication {
    use crate::tournament::{DrawRule, ResignRule};
    Adjudication {
        resign: Some(ResignRule { count: 3, score: 1000 }),
        draw: Some(DrawRule { move_number: 40, count: 8, score: 10 }),
        max_moves: Some(200),
    }
}

/// The numbers' starting values and gains, from the table.
fn initial_params(tunables: &[&Tunable]) -> Vec<SpsaParam> {
    tunables
        .iter()
        .map(|t| SpsaParam {
            name: t.name.to_string(),
            value: t.default as f64,
            min: t.min as f64,
            max: t.max as f64,
            c_end: t.step,
            r_end: OPENBENCH_R_END,
        })
        .collect()
}

/// The engine instance `name` with the tuned numbers at `values`.
fn instance(engine: &EngineSpec, name: &str, params: &[SpsaParam], values: &[i64]) -> EngineSpec {
    let mut spec = engine.clone();
    spec.name = name.to_string();
    spec.options.extend(params.iter().zip(values).map(|(p, v)| (p.name.clone(), v.to_string())));
    spec
}

/// Refuse an engine that does not list every tuned number among its UCI options.
fn check_offers(engine: &EngineSpec, names: &[String]) -> Result<(), TunerError> {
    let mut process = EngineProcess::start(engine).map_err(MatchError::from)?;
    let deadline = Instant::now() + Duration::from_secs(10);
    process.send("uci").map_err(MatchError::from)?;
    let mut offered = Vec::new();
    loop {
        let line = process.recv(deadline, "uciok").map_err(MatchError::from)?;
        let line = line.trim();
        if line == "uciok" {
            break;
        }
        if let Some((name, _)) = line.strip_prefix("option name ").and_then(|l| l.split_once(" type ")) {
            offered.push(name.to_string());
        }
    }
    process.kill();
    let missing: Vec<&str> = names.iter().filter(|n| !offered.contains(n)).map(String::as_str).collect();
    let listed = match missing.len() {
        0 => return Ok(()),
        1..=3 => missing.join(", "),
        n => format!("{} and {} more", missing[..3].join(", "), n - 3),
    };
    Err(TunerError::Config(format!(
        "{} does not offer {listed} as options: build it with `cargo build --release --features tune`",
        engine.program
    )))
}

/// The history file's first line.
fn history_header(params: &[SpsaParam]) -> String {
    let names: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
    format!("iteration,games,wins,draws,losses,{}\n", names.join(","))
}

/// The history file's line after an iteration.
fn history_line(s: &TunerState) -> String {
    let values: Vec<String> = s.params.iter().map(|p| format!("{:.3}", p.value)).collect();
    format!("{},{},{},{},{},{}\n", s.iteration, s.games, s.wins, s.draws, s.losses, values.join(","))
}

/// Make the history file agree with the state: its header, then the lines of the iterations
/// done (a line written just before a kill, for an iteration the state does not have, goes).
fn prepare_history(path: &std::path::Path, s: &TunerState) -> Result<(), StateError> {
    let header = history_header(&s.params);
    let old = std::fs::read_to_string(path).unwrap_or_default();
    let mut text = header.clone();
    if old.starts_with(&header) {
        for line in old[header.len()..].lines() {
            let done = line.split(',').next().and_then(|n| n.parse::<u64>().ok()).is_some_and(|n| n <= s.iteration);
            if done {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    state::write_atomically(path, &text)
}

fn append_history(path: &std::path::Path, s: &TunerState) -> Result<(), StateError> {
    use std::io::Write;
    let io = |e: std::io::Error| StateError::Io { path: path.to_path_buf(), why: e.to_string() };
    let mut file = std::fs::OpenOptions::new().append(true).open(path).map_err(io)?;
    file.write_all(history_line(s).as_bytes()).map_err(io)
}

/// The values on a progress line: every number's, where they are few enough to read.
fn progress_values(params: &[SpsaParam], history: Option<&std::path::Path>) -> String {
    const SHOWN: usize = 8;
    if params.len() <= SHOWN {
        let values: Vec<String> = params.iter().map(|p| format!("{}={:.2}", p.name, p.value)).collect();
        values.join(" ")
    } else {
        let place = history.map_or(String::new(), |h| format!(" in {}", h.display()));
        format!("the {} values{place}", params.len())
    }
}

/// Run (or resume) a tuning run until one of its bounds; returns the state it saved last.
pub fn run(cfg: &TuneConfig) -> Result<TunerState, TunerError> {
    if cfg.variants.is_empty() || cfg.params.is_empty() || cfg.pairs_per_iteration == 0 {
        return Err(TunerError::Config("tuning needs a variant, a number to tune and a game pair".to_string()));
    }
    let settings = Settings {
        seed: cfg.seed,
        variants: cfg.variants.iter().map(|v| v.name.to_string()).collect(),
        tc: cfg.tc_text.clone(),
        pairs_per_iteration: cfg.pairs_per_iteration,
        planned_iterations: cfg.planned_iterations.max(1),
    };
    let names: Vec<String> = cfg.params.iter().map(|t| t.name.to_string()).collect();
    let mut state = match TunerState::load(&cfg.state_path)? {
        Some(s) => {
            s.check_resumes(&settings, &names, &cfg.state_path)?;
            log::info!("resuming {} after iteration {}", cfg.state_path.display(), s.iteration);
            s
        }
        None => TunerState::new(settings.clone(), initial_params(&cfg.params)),
    };
    if cfg.require_options {
        check_offers(&cfg.engine, &names)?;
    }
    if let Some(h) = &cfg.history_path {
        prepare_history(h, &state)?;
    }
    let schedule = Schedule::planned(settings.planned_iterations);
    let started = Instant::now();
    let games_before = state.games;
    loop {
        if state.iteration >= settings.planned_iterations || cfg.max_games.is_some_and(|g| state.games >= g) {
            break;
        }
        if cfg.max_duration.is_some_and(|d| started.elapsed() >= d) {
            break;
        }
        let k = state.iteration + 1;
        let mut rng = SplitMix64::new(state.rng_state);
        let perturbation = perturb(&state.params, &schedule, k, &mut rng);
        let match_seed = rng.next_u64();
        let variant = cfg.variants[(state.iteration % cfg.variants.len() as u64) as usize];
        let config = MatchConfig {
            engines: vec![
                instance(&cfg.engine, "plus", &state.params, &perturbation.plus),
                instance(&cfg.engine, "minus", &state.params, &perturbation.minus),
            ],
            schedule: GameSchedule {
                variant,
                openings: Openings::Random { form: Form::Basic, short_list: false },
                engines: 2,
                games: 2 * cfg.pairs_per_iteration as usize,
                seed: match_seed,
                pregame: false,
            },
            options: GameOptions {
                tc: cfg.tc,
                grace_ms: 100,
                hang_ms: cfg.hang_ms,
                pregame_budget: cfg.tc.pregame_budget(),
                adjudication: cfg.adjudication,
            },
            concurrency: cfg.concurrency,
            pgn_out: None,
            resume: false,
            event: format!("SPSA iteration {k}"),
            sprt: None,
        };
        let summary = run_match(&config, &mut std::io::sink())?;
        let tally =
            summary.tallies.iter().find(|(pair, _)| *pair == (0, 1)).map(|(_, t)| t.clone()).unwrap_or_default();
        update(&mut state.params, &schedule, k, &perturbation.signs, tally.wins, tally.losses);
        state.iteration = k;
        state.rng_state = rng.state();
        state.games += tally.games() as u64;
        state.wins += u64::from(tally.wins);
        state.draws += u64::from(tally.draws);
        state.losses += u64::from(tally.losses);
        // The history line first: a kill before the state is saved leaves a line that the next
        // run drops (`prepare_history`), never a state without its line.
        if let Some(h) = &cfg.history_path {
            append_history(h, &state)?;
        }
        state.save(&cfg.state_path)?;
        let seconds = started.elapsed().as_secs_f64();
        let games_now = state.games - games_before;
        eprintln!(
            "iteration {k} ({}): plus {}-{}-{} (W-D-L); {} games, {games_now} in {seconds:.0} s ({:.0} games/hour); {}",
            variant.name,
            tally.wins,
            tally.draws,
            tally.losses,
            state.games,
            games_now as f64 * 3600.0 / seconds.max(1e-3),
            progress_values(&state.params, cfg.history_path.as_deref())
        );
    }
    Ok(state)
}

/// The table in OpenBench's SPSA input format, one number a line.
pub fn openbench_table(tunables: &[&Tunable]) -> String {
    tunables.iter().map(|t| t.openbench_line() + "\n").collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_engine::search::params::TUNABLES;

    #[test]
    fn the_history_keeps_only_the_iterations_the_state_has() {
        let dir = std::env::temp_dir().join(format!("menagerie-history-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("history.csv");
        let params = initial_params(&[&TUNABLES[0]]);
        let settings = Settings {
            seed: 1,
            variants: vec!["dchess".into()],
            tc: "nodes=100".into(),
            pairs_per_iteration: 1,
            planned_iterations: 10,
        };
        let mut s = TunerState::new(settings, params);
        prepare_history(&path, &s).unwrap();
        for k in 1..=3 {
            s.iteration = k;
            append_history(&path, &s).unwrap();
        }
        s.iteration = 2;
        prepare_history(&path, &s).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.lines().count(), 3, "{text}");
        assert!(text.starts_with("iteration,games,wins,draws,losses,aspiration_min_depth\n"));
        assert!(text.lines().last().unwrap().starts_with("2,"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn the_openbench_table_has_a_line_per_number() {
        let all: Vec<&Tunable> = TUNABLES.iter().collect();
        let text = openbench_table(&all);
        assert_eq!(text.lines().count(), TUNABLES.len());
        for line in text.lines() {
            let fields: Vec<&str> = line.split(", ").collect();
            assert_eq!(fields.len(), 7, "{line}");
            assert_eq!(fields[1], "int");
            assert!(fields[2..].iter().all(|f| f.parse::<f64>().is_ok()), "{line}");
        }
    }
}
