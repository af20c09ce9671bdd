//! The tools around the engine: `balance` (`menagerie balance` and `pieces`: self-play studies
//! of a variant's balance and its pieces' worth), `tournament` (`menagerie match`: engine
//! processes refereed by the rules crate's `game`), `datagen` (self-play games for training,
//! and their data format), `training` (the network trainer, its samples and checkpoints),
//! `fuzz` (protocol fuzzing), `json` (the little JSON of their files), `tuning` (`menagerie tune`: SPSA tuning of the search's numbers
//! by games), `work_pool` (numbered jobs on worker threads, for the self-play tools).
//!
//! Depends on the engine and rules crates; neither knows this one.

pub mod balance;
pub mod datagen;
pub mod fuzz;
pub mod json;
pub mod tournament;
pub mod training;
pub mod tuning;
pub mod work_pool;
