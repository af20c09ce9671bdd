//! Menagerie: a chess-variant engine for D-Chess, Chess-9, Displacement Chess 2, VD Chess and
//! Random Variant Chess, with orthodox chess, Chess960 and the 10x8 boards as their relatives.
//!
//! This package is the one executable (`src/main.rs`, its command line in `src/cli.rs`) over
//! three crates, each depending only on those before it:
//!
//! - `menagerie-rules` (`rules/`): variants as data, positions, move generation, perft;
//! - `menagerie-engine` (`engine/`): evaluation, network inference, search, protocols, pre-game;
//! - `menagerie-tools` (`tools/`): matches and their referee, data generation, training, fuzzing.
//!
//! The library re-exports the three crates' modules under one name, for the command line, the
//! integration tests (`engine-tests/`) and the studies (`scripts/`).

pub use menagerie_engine::*;
pub use menagerie_rules::*;
pub use menagerie_tools::*;
