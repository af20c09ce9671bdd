//! The rules of chess variants, as data: what a variant is (its file format and the built-in
//! variants), how its pieces move (Betza notation compiled into attack tables), positions with
//! FEN, legal move generation, move notation, perft, start positions by index, and a game's
//! history and result. Any board up to 16x16, in bitboards of the width the board needs.
//!
//! Must not know: search, evaluation, protocols. Nothing here depends on the engine.
//!
//! Modules, each depending only on those after it:
//!
//! - `game` (a game's history and its end), `any` (the bitboard width chosen at run time),
//!   `notation`, `perft`
//! - -> `movegen` -> `position` (with FEN) -> `moves` -> `rules` (a variant compiled into attack
//!   tables and hash keys) and `startpos` (start positions by index) -> `variant` (the variant
//!   file; `variant_file` loads user files, `fsf_ini` reads Fairy-Stockfish's) -> `betza`, `magic` -> `bitboard` -> `geometry`, with
//!   `random` at the bottom.

pub mod any;
pub mod betza;
pub mod bitboard;
pub mod fsf_ini;
pub mod game;
pub mod geometry;
pub mod magic;
pub mod movegen;
pub mod moves;
pub mod notation;
pub mod perft;
pub mod position;
pub mod random;
pub mod rules;
pub mod startpos;
pub mod variant;
pub mod variant_file;

/// The README's example, compiled and run as a test.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;
