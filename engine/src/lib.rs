//! The engine that plays the variants of `menagerie_rules`: evaluation (hand-written and
//! learned), search, the engine behind both protocols, the protocols themselves, the pre-game
//! decisions, and the bench.
//!
//! Must not know: the match runner, data generation, training (the tools crate, which depends on
//! this one, never the reverse).
//!
//! Modules, each depending only on those after it (and on the rules crate):
//!
//! - `protocol` (UCI, XBoard/CECP) -> `pregame` (the decisions before the first move) and `bench`
//! - -> `engine` (variant, position, options, a non-blocking search with events on a channel)
//! - -> `search` (iterative deepening, the transposition table, parallel threads)
//! - -> `eval` (the hand-written evaluation) and `nnue` (the network: file, inference)

pub mod bench;
pub mod engine;
pub mod eval;
pub mod nnue;
pub mod pregame;
pub mod protocol;
pub mod search;
