//! Menagerie: a chess-variant engine for D-Chess, Chess-9, Displacement Chess 2, VD Chess and
//! Random Variant Chess, with orthodox chess and Chess960 as their parents.
//!
//! Layers, each depending only on those after it (tests aside):
//!
//! - `cli` (the command line) and `fuzz` (the fuzz targets) -> `tournament` (`menagerie match`: engine processes, refereed by
//!   `game`) and `protocol` (UCI, XBoard/CECP)
//! - -> `pregame` (the decisions before the first move) and `bench`
//! - -> `engine` (variant, position, options, a non-blocking search with events on a channel)
//! - -> `search` (iterative deepening, the transposition table, parallel threads)
//! - -> `eval` (the evaluation, built from the variant data)
//! - -> `game` (a game's history and its end), `any` (the bitboard width chosen at run time),
//!   `notation`, `perft`
//! - -> `movegen` -> `position` (with FEN) -> `moves` -> `rules` (a variant compiled into attack
//!   tables and hash keys) and `startpos` (start positions by index) -> `variant` (the variant
//!   file) -> `betza`, `magic` -> `bitboard` -> `geometry`, with `random` at the bottom.

pub mod any;
pub mod bench;
pub mod betza;
pub mod bitboard;
pub mod datagen;
pub mod engine;
pub mod eval;
pub mod fuzz;
pub mod game;
pub mod geometry;
pub mod magic;
pub mod movegen;
pub mod moves;
pub mod nnue;
pub mod notation;
pub mod perft;
pub mod position;
pub mod pregame;
pub mod protocol;
pub mod random;
pub mod rules;
pub mod search;
pub mod startpos;
pub mod tournament;
pub mod variant;
pub mod variant_file;
