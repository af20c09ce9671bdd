//! Short runs of the project's fuzz targets (src/fuzz.rs), with fixed seeds: every invariant
//! must hold for the first inputs of each. `scripts/fuzz.sh MINUTES` runs them at length.

use menagerie::fuzz::{run, Target};
use std::time::Duration;

/// The fuzz runner's time budget, used here as a hang guard only: far beyond what the inputs
/// need on a loaded machine, so that every machine checks the same inputs (a budget that ran
/// out first would quietly check fewer on a slow one).
const HANG_GUARD: Duration = Duration::from_secs(600);

fn short_run(target: Target, inputs: u64) {
    let report = run(target, 7, HANG_GUARD, inputs);
    assert_eq!(report.inputs, inputs, "{report}: the hang guard stopped the run");
    eprintln!("{report}");
}

#[test]
fn fen_reader() {
    short_run(Target::Fen, 100_000);
}

#[test]
fn move_reader() {
    short_run(Target::Moves, 20_000);
}

#[test]
fn uci_sessions() {
    short_run(Target::Uci, 1_000);
}

#[test]
fn xboard_sessions() {
    short_run(Target::Xboard, 400);
}

#[test]
fn opening_books() {
    short_run(Target::Book, 100_000);
}

#[test]
fn variant_files() {
    short_run(Target::Variants, 3_000);
}
