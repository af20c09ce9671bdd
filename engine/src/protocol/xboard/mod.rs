//! The XBoard/CECP (protocol version 2) front end, with H.G. Muller's engine-defined variants:
//! `variant NAME` for a variant XBoard does not know is answered with `setup` and `piece` lines
//! derived from the variant data, so that the GUI can draw, check and notate the game.
//!
//! Files: `session` (commands, game flow, search events), `setup` (what XBoard is told about a
//! variant), `codec` (move and FEN text in XBoard's dialect), `clock` (time controls),
//! `highlight` (`lift` answered with target squares).
//!
//! Owns: CECP text in and out.
//! Must not know: search internals, rules internals (it speaks to `Engine`, `Game` and the
//! positions' public moves).

pub mod clock;
pub mod codec;
pub mod highlight;
pub mod session;
pub mod setup;

pub use session::Xboard;
