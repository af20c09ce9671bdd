//! Runs one of the project's fuzz targets (src/fuzz.rs) for a while and reports how many
//! inputs it tried; a broken invariant prints the failing input and aborts.
//!
//! Run: `cargo run --release --example fuzz -- TARGET SECONDS [SEED]` with TARGET one of
//! fen, moves, uci, xboard, book (scripts/fuzz.sh runs them all).

use menagerie::fuzz::{run, Target};
use std::time::Duration;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let target = args.first().and_then(|t| Target::from_name(t));
    let seconds = args.get(1).and_then(|s| s.parse::<u64>().ok());
    let seed = args.get(2).map_or(Some(1), |s| s.parse::<u64>().ok());
    let (Some(target), Some(seconds), Some(seed)) = (target, seconds, seed) else {
        eprintln!("usage: fuzz fen|moves|uci|xboard|book|variants SECONDS [SEED]");
        std::process::exit(2);
    };
    let report = run(target, seed, Duration::from_secs(seconds), u64::MAX);
    println!("{report} (seed {seed})");
}
