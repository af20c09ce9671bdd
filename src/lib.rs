//! Menagerie: a chess-variant engine for D-Chess, Chess-9, Displacement Chess 2, VD Chess and
//! Random Variant Chess, with orthodox chess and Chess960 as their parents.
//!
//! Layers, each depending only on those after it:
//! `cli` -> `tournament` (matches between engine processes) -> `any` -> `perft` / `notation` /
//! `startpos` -> `movegen` / `position` -> `rules` -> `variant` / `betza` -> `bitboard` / `geometry`.

pub mod any;
pub mod bench;
pub mod betza;
pub mod bitboard;
pub mod engine;
pub mod eval;
pub mod game;
pub mod geometry;
pub mod magic;
pub mod movegen;
pub mod moves;
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
