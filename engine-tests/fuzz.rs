//! Short runs of the project's fuzz targets (src/fuzz.rs), with fixed seeds: every invariant
//! must hold for the first inputs of each. `scripts/fuzz.sh MINUTES` runs them at length.

use menagerie::fuzz::{run, Target};
use std::time::Duration;

fn short_run(target: Target, inputs: u64) {
    // The time bound only guards a slow machine; the inputs are the same on any.
    let report = run(target, 7, Duration::from_secs(30), inputs);
    assert!(report.inputs > 0, "{report}");
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
