//! Variants as data: the typed description of a game (board, pieces in Betza notation, castling,
//! drops, promotion, start-position rules, game-end rules), read from the embedded text
//! `builtin.vars` or a user file by `parse`.
//!
//! Owns: `Variant`, `PieceDef`, the rule enums; the registry of known variants (`registry`).
//! Must not know: bitboards, positions, search, protocols. Nothing outside this module (and the
//! loader in `parse`) may look at a variant's name to decide a rule.

pub mod arrays;
pub mod parse;
pub mod registry;

use crate::betza::Step;
use crate::geometry::Geometry;
use std::fmt;

pub use arrays::{ArrayRule, Permutations};
pub use parse::{parse_variants, VariantError};
pub use registry::{by_name, install, is_builtin, names, names_with_options, UnknownVariant};

/// Index of a piece type in its variant's piece table.
pub type PieceKind = usize;

/// The most piece types one variant may define.
pub const MAX_KINDS: usize = 32;

/// One piece type of a variant.
#[derive(Clone, Debug)]
pub struct PieceDef {
    /// FEN letter, upper case.
    pub letter: char,
    pub name: String,
    /// The Betza text, kept for XBoard's `piece` command.
    pub betza: String,
    pub steps: Vec<Step>,
    /// Losing it (being unable to avoid its capture) loses the game.
    pub royal: bool,
    /// Double steps, en passant, promotion and the 50-move reset apply.
    pub pawn: bool,
    /// May castle with the king.
    pub castling_rook: bool,
    /// Material value in centipawns, if the variant gives one.
    pub value: Option<i32>,
    /// The XBoard piece image to show it with, by XBoard's letter for that image, where XBoard has
    /// no image with this piece's moves (the closest picture, chosen in the variant file).
    pub xboard_image: Option<char>,
}

/// How castling works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingRule {
    None,
    /// Chess960 semantics: the king and rook end on fixed files (0-based), one pair per side.
    Fixed {
        queen_side_king: u8,
        queen_side_rook: u8,
        king_side_king: u8,
        king_side_rook: u8,
    },
    /// Free castling: the king moves 1..=max_steps towards the rook (never onto it) and the rook
    /// lands on the square next to the king on the other side.
    Free {
        max_steps: u8,
    },
}

/// What a stalemate is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StalemateRule {
    Draw,
    /// The side that inflicts stalemate scores 3/5; search sees it as a small win of `score_cp`.
    WinForStalemater {
        score_cp: i32,
    },
}

/// How start positions are numbered and built.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartRule {
    /// Complete FENs, index = position in the list.
    Fens(Vec<String>),
    /// Back-rank arrays (White's letters, files a..), chosen independently per side:
    /// index = white * n + black.
    Arrays(Vec<String>),
    /// Chess960 (Scharnagl numbering), the same array for both sides. With sets, index =
    /// set * 960 + number; each set replaces the queen by its board piece and gives each side its
    /// hand piece.
    Shuffle960Mirrored { sets: Vec<(char, char)> },
    /// Back-rank arrays, the same for both sides: index = position in the list.
    MirroredArrays(Vec<String>),
    /// An independent array per side: per-side number = tail * 960 + Scharnagl number, where the
    /// tail orders the last three empty squares; index = white * n + black.
    Shuffle960PerSide { tails: Vec<String> },
    /// Every arrangement of a set of pieces that keeps some rules, the same for both sides:
    /// index = position in alphabetical order.
    Permutations(Permutations),
}

/// The D-Chess transposition: a setup swap by the first mover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TranspositionRule {
    None,
    SwapTwoKeepBishopColours,
}

/// A complete, validated variant description.
#[derive(Clone, Debug)]
pub struct Variant {
    pub name: String,
    pub geometry: Geometry,
    pub pieces: Vec<PieceDef>,
    /// Relative rank (0 = first) from which pawns may step twice.
    pub double_step: Option<u8>,
    pub promotion: Vec<PieceKind>,
    pub promotion_if_absent: Vec<PieceKind>,
    pub promotion_from_initial_array: bool,
    /// Each type may be promoted to only once in a game (by either side).
    pub promotion_once: bool,
    pub castling: CastlingRule,
    /// Every square between the king and the castling rook must also be unattacked (a stricter
    /// reading of Chess-9's rule, kept as an option).
    pub castling_between_safe: bool,
    pub drops: bool,
    pub captures_to_hand: bool,
    pub stalemate: StalemateRule,
    pub start_template: String,
    pub start: StartRule,
    pub transposition: TranspositionRule,
    /// Chess-9 relocations: (piece kind, file of the bishop it may swap with).
    pub relocation: Vec<(PieceKind, u8)>,
    /// Extended setup forms (Random Variant Chess), if any.
    pub forms: Option<SetupForms>,
    /// The start index a GUI's `startpos` means (the orthodox-looking array where there is one).
    pub start_default: u64,
    /// Basic-form draws may be restricted to the first this-many arrays.
    pub short_list: Option<u32>,
}

/// A piece that a setup form puts into a slot; `variant` names the variant the game must then
/// be played as (the Star shares the Grasshopper's letter, so Star arrays are `rvcstar` games).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub letter: char,
    pub variant: Option<String>,
}

/// A substitution: slot index and the piece put there.
pub type Substitution = (usize, Candidate);

/// Savard's extended setup forms (rules.md 4(c)), as data: the slots of the base arrays, the
/// choices of the General and Restricted methods, the Systematic bases, the de-duplicating
/// substitution and the clash table for the wing pieces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupForms {
    /// Per slot: the orthodox letter and the files it covers.
    pub slots: Vec<(char, Vec<u8>)>,
    /// General method: per slot, the candidates (the orthodox piece first).
    pub general: Vec<Vec<Candidate>>,
    /// Restricted method: `None` = no substitution.
    pub restricted: Vec<Option<Substitution>>,
    /// Systematic bases; `?` marks the files an entry fills.
    pub bases: Vec<String>,
    /// Systematic de-duplication: the substitution applied on top in the duplicate cases.
    pub dedup: Option<Substitution>,
    /// Wing clash rule: (substituted-in letter, replacement for that letter among the wings).
    pub clash: Vec<(char, char)>,
}
impl Variant {
    /// The piece kind with this FEN letter (either case).
    pub fn kind_of_letter(&self, letter: char) -> Option<PieceKind> {
        let up = letter.to_ascii_uppercase();
        self.pieces.iter().position(|p| p.letter == up)
    }

    /// Kinds that are royal.
    pub fn royal_kinds(&self) -> impl Iterator<Item = PieceKind> + '_ {
        self.pieces.iter().enumerate().filter(|(_, p)| p.royal).map(|(k, _)| k)
    }

    /// Number of start positions the start rule numbers.
    pub fn start_count(&self) -> u64 {
        match &self.start {
            StartRule::Fens(f) => f.len() as u64,
            StartRule::Arrays(a) => (a.len() * a.len()) as u64,
            StartRule::MirroredArrays(a) => a.len() as u64,
            StartRule::Shuffle960Mirrored { sets } => 960 * sets.len().max(1) as u64,
            StartRule::Shuffle960PerSide { tails } => {
                let n = 960 * tails.len() as u64;
                n * n
            }
            StartRule::Permutations(p) => p.arrays(&self.pieces).len() as u64,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

/// The embedded variant file.
pub const BUILTIN_TEXT: &str = include_str!("builtin.vars");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_file_loads_every_variant() {
        let names = names();
        for n in ["chess", "chess960", "dchess", "chess9", "displacement", "vdchess"] {
            assert!(names.contains(&n), "{n} missing");
        }
        let vd = by_name("vdchess").unwrap();
        assert!(vd.drops && !vd.captures_to_hand);
        assert_eq!(vd.pieces.len(), 8);
        assert_eq!(by_name("dchess").unwrap().castling, CastlingRule::None);
        assert_eq!(by_name("displacement").unwrap().castling, CastlingRule::Free { max_steps: 3 });
        assert_eq!(by_name("dchess").unwrap().start_count(), 8_294_400);
        assert_eq!(by_name("vdchess").unwrap().start_count(), 5760);
        assert_eq!(by_name("chess9").unwrap().start_count(), 9);
        assert!(by_name("fischerandom").is_ok());
        for v in ["chess", "chess960", "dchess", "vdchess"] {
            let v = by_name(v).unwrap();
            let fen = crate::startpos::start_fen(v, v.start_default).unwrap();
            assert!(fen.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"), "{fen}");
        }
        assert!(by_name("nonsense").is_err());
    }
}
