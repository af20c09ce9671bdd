//! `menagerie tune` (the SPSA tuner) against the real binary: a run stopped after its first
//! iteration and resumed ends in the same state and history as a run that was never stopped, a
//! history line written just before a kill is dropped on resume, a cut state file is refused
//! and left as it is, and the OpenBench table lists every number.
//!
//! The engine tuned is this package's binary. Built without the `tune` feature it ignores the
//! numbers' options (it answers them with an error line and plays on), which is enough to test
//! the tuner's bookkeeping; built with it (`cargo test --release --features tune --test
//! tuning`), the tuner also checks that the engine offers every number. Nothing here asserts
//! how long anything takes.

use menagerie::search::params::{tunable, TUNABLES};
use menagerie::tournament::{EngineSpec, TimeControl};
use menagerie::tuning::{self, state::StateError, state::TunerState, TuneConfig, TunerError};
use menagerie::variant::by_name;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

/// A fresh scratch directory per test, removed when the test passes.
struct Scratch(PathBuf);

impl Scratch {
    fn new(name: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("menagerie-tuning-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch directory");
        Scratch(dir)
    }

    fn path(&self, file: &str) -> PathBuf {
        self.0.join(file)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

/// Two iterations of one game pair each, at 200 nodes a move, in D-Chess then Chess-9.
fn config(state: &Path, max_games: u64) -> TuneConfig {
    let engine = EngineSpec::parse(&[format!("cmd={BIN}"), "option.Hash=4".to_string()]).expect("engine");
    TuneConfig {
        engine,
        variants: vec![by_name("dchess").unwrap(), by_name("chess9").unwrap()],
        tc: TimeControl::Nodes(200),
        tc_text: "nodes=200".to_string(),
        concurrency: 1,
        pairs_per_iteration: 1,
        planned_iterations: 100,
        params: ["razor_margin", "lmr_base_hundredths", "time_soft_percent"]
            .iter()
            .map(|n| tunable(n).expect("a number of the table"))
            .collect(),
        seed: 42,
        max_games: Some(max_games),
        max_duration: None,
        state_path: state.to_path_buf(),
        history_path: Some(state.with_extension("csv")),
        require_options: cfg!(feature = "tune"),
        adjudication: tuning::default_adjudication(),
        hang_ms: 30_000,
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn a_run_stopped_after_an_iteration_resumes_to_the_state_of_a_run_never_stopped() {
    let dir = Scratch::new("resume");
    let whole = dir.path("whole.json");
    let stopped = dir.path("stopped.json");

    let once = tuning::run(&config(&whole, 4)).expect("an uninterrupted run");
    assert_eq!((once.iteration, once.games), (2, 4));
    assert_eq!(once.wins + once.draws + once.losses, 4);

    let first = tuning::run(&config(&stopped, 2)).expect("the first iteration");
    assert_eq!((first.iteration, first.games), (1, 2));
    assert_eq!(TunerState::load(&stopped).unwrap().as_ref(), Some(&first), "saved after the iteration");
    // A kill after the history line of iteration 2 was written but before its state was saved.
    let history = stopped.with_extension("csv");
    let mut text = read(&history);
    text.push_str("2,4,9,9,9,1,2,3\n");
    std::fs::write(&history, text).unwrap();

    let resumed = tuning::run(&config(&stopped, 4)).expect("the resumed run");
    assert_eq!(resumed, once, "the resumed run ends where the uninterrupted one did");
    assert_eq!(read(&stopped), read(&whole), "the same state file");
    assert_eq!(read(&history), read(&whole.with_extension("csv")), "the same history");
    assert_eq!(read(&history).lines().count(), 3, "a header and a line per iteration");

    // Nothing is left to do: a rerun with the same bound plays no game and changes nothing.
    let again = tuning::run(&config(&stopped, 4)).expect("a rerun");
    assert_eq!(again, once);
    assert_eq!(read(&stopped), read(&whole));

    // Other settings do not resume this state.
    let mut other = config(&stopped, 6);
    other.tc_text = "nodes=300".to_string();
    other.tc = TimeControl::Nodes(300);
    let e = tuning::run(&other).unwrap_err();
    assert!(matches!(e, TunerError::State(StateError::Mismatch { .. })), "{e}");
    assert_eq!(read(&stopped), read(&whole), "a refused state is left as it is");
}

#[test]
fn a_cut_state_file_is_refused_and_left_as_it_is() {
    let dir = Scratch::new("corrupt");
    let state = dir.path("state.json");
    let cut = "{\"format\": 1, \"settings\": {\"seed\": 42, \"vari";
    std::fs::write(&state, cut).unwrap();
    let e = tuning::run(&config(&state, 2)).unwrap_err();
    assert!(matches!(e, TunerError::State(StateError::Corrupt { .. })), "{e}");
    assert_eq!(read(&state), cut);

    // The command line says so on stderr and fails.
    let out = Command::new(BIN)
        .args(["tune", "--state"])
        .arg(&state)
        .args(["--games", "2", "--tc", "nodes=200", "--params", "razor_margin"])
        .output()
        .expect("run menagerie tune");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("not a readable tuner state") && stderr.contains("left untouched"), "{stderr}");
    assert_eq!(read(&state), cut);
    assert!(!dir.path("state.json.history.csv").exists(), "nothing written");
}

#[test]
fn the_openbench_table_lists_every_number_with_its_range_and_step() {
    let out = Command::new(BIN).args(["tune", "--openbench"]).output().expect("run menagerie tune");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).expect("text");
    assert_eq!(text.lines().count(), TUNABLES.len());
    for (line, t) in text.lines().zip(TUNABLES) {
        assert_eq!(line, format!("{}, int, {}, {}, {}, {}, 0.002", t.name, t.default, t.min, t.max, t.step));
    }
    let out = Command::new(BIN).args(["tune", "--openbench", "--params", "no_such_number"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("no search number is called 'no_such_number'"));
}
