//! The input layout of a network: which board it reads, which piece kinds (each named by its
//! letter and identified by its moves), and how many pieces of a kind in hand it counts. One
//! layout serves a board family (every 8x8 variant, say): the union of their kinds, in the order
//! the variant data gives them. A variant fits a layout when its board is the layout's and each
//! of its kinds is one of the layout's; `FeatureMap` then turns (perspective, colour, kind,
//! square) and (perspective, colour, kind, count in hand) into input indices, within the frame
//! of the perspective's king (`KingFrame`) where the layout has king buckets.
//!
//! Owns: `InputLayout`, `LayoutKind`, `FeatureMap`, `KingFrame`, `LayoutError`.
//! Must not know: network weights, files, the search, protocols.

use menagerie_rules::geometry::{Color, Geometry, Square, MAX_SQUARES};
use menagerie_rules::variant::{PieceDef, PieceKind, Variant, MAX_KINDS};
use std::fmt;

/// One piece kind of a layout: what a network calls it, and what makes two variants' kinds the
/// same kind (the moves and the roles, never the letter alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutKind {
    pub letter: char,
    pub betza: String,
    pub royal: bool,
    pub pawn: bool,
}

impl LayoutKind {
    pub fn of(piece: &PieceDef) -> LayoutKind {
        LayoutKind { letter: piece.letter, betza: piece.betza.clone(), royal: piece.royal, pawn: piece.pawn }
    }

    fn same_kind(&self, piece: &PieceDef) -> bool {
        self.betza == piece.betza && self.royal == piece.royal && self.pawn == piece.pawn
    }
}

/// The inputs of a network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputLayout {
    pub geometry: Geometry,
    pub kinds: Vec<LayoutKind>,
    /// Inputs per colour and kind for pieces in hand: the input for count `i` (1-based) is on
    /// while the hand holds at least `i` of the kind. Zero: no hand inputs.
    pub hand_max: u8,
    /// Copies of every input, one per region of the board the perspective's king stands in
    /// (`KING_BUCKET_CHOICES`); above one, the board is also mirrored left to right when that
    /// king stands on the right half, so that a king on g1 and one on b1 share their weights.
    /// A piece's worth then depends on where its own side's king is: the king's shelter and the
    /// attack on it, which one set of inputs can only average. One: no king buckets.
    pub king_buckets: u8,
}

/// The king bucket counts a layout may have: 1 (none), 2 (the king on its first rank or
/// not), 4 (that, and on the outer or the inner half of its half of the board).
pub const KING_BUCKET_CHOICES: [u8; 3] = [1, 2, 4];

/// Why a layout cannot be made, or a variant does not fit one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LayoutError {
    /// No variant was given to build a layout from.
    NoVariants,
    /// The variants do not share one board.
    MixedBoards { first: Geometry, other: Geometry, variant: String },
    /// More kinds than a layout can name.
    TooManyKinds(usize),
    /// The variant's board is not the layout's.
    BoardMismatch { layout: Geometry, variant: Geometry },
    /// A kind of the variant is none of the layout's.
    UnknownKind { letter: char, betza: String },
    /// The variant has drops and the layout has no hand inputs.
    NoHandInputs,
}

impl fmt::Display for LayoutError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = |g: &Geometry| format!("{}x{}", g.files, g.ranks);
        match self {
            LayoutError::NoVariants => write!(f, "no variant to build an input layout from"),
            LayoutError::MixedBoards { first, other, variant } => {
                write!(f, "variant {variant} has a {} board, not {}", board(other), board(first))
            }
            LayoutError::TooManyKinds(n) => write!(f, "{n} piece kinds, more than a layout can hold"),
            LayoutError::BoardMismatch { layout, variant } => {
                write!(f, "the network reads a {} board, the variant has {}", board(layout), board(variant))
            }
            LayoutError::UnknownKind { letter, betza } => {
                write!(f, "the network has no input for the piece {letter} ({betza})")
            }
            LayoutError::NoHandInputs => write!(f, "the variant has drops and the network no inputs for the hand"),
        }
    }
}

impl std::error::Error for LayoutError {}

/// The most kinds one layout may hold (a network file names each).
pub const MAX_LAYOUT_KINDS: usize = 64;

/// The board family of `v`: every variant known now (rule options and loaded files included)
/// on the same board, the variants one network's layout must hold.
pub fn family_of(v: &Variant) -> Vec<&'static Variant> {
    menagerie_rules::variant::names_with_options()
        .into_iter()
        .filter_map(|n| menagerie_rules::variant::by_name(n).ok())
        .filter(|w| w.geometry == v.geometry)
        .collect()
}

impl InputLayout {
    /// The layout for a board family: the union of the variants' kinds, in the order they first
    /// appear (variant by variant, piece by piece); hand inputs up to `hand_max` where any of
    /// them has drops, none otherwise.
    pub fn union<'a>(
        variants: impl IntoIterator<Item = &'a Variant>,
        hand_max: u8,
    ) -> Result<InputLayout, LayoutError> {
        let mut geometry = None;
        let mut kinds: Vec<LayoutKind> = Vec::new();
        let mut drops = false;
        for v in variants {
            let g = *geometry.get_or_insert(v.geometry);
            if g != v.geometry {
                return Err(LayoutError::MixedBoards { first: g, other: v.geometry, variant: v.name.clone() });
            }
            drops |= v.drops;
            for p in &v.pieces {
                if !kinds.iter().any(|k| k.same_kind(p)) {
                    kinds.push(LayoutKind::of(p));
                }
            }
        }
        let geometry = geometry.ok_or(LayoutError::NoVariants)?;
        if kinds.len() > MAX_LAYOUT_KINDS {
            return Err(LayoutError::TooManyKinds(kinds.len()));
        }
        Ok(InputLayout { geometry, kinds, hand_max: if drops { hand_max } else { 0 }, king_buckets: 1 })
    }

    /// The same inputs, copied for `king_buckets` regions of the king (one of
    /// `KING_BUCKET_CHOICES`).
    pub fn with_king_buckets(self, king_buckets: u8) -> InputLayout {
        InputLayout { king_buckets, ..self }
    }

    /// Inputs for one perspective.
    pub fn input_count(&self) -> usize {
        usize::from(self.king_buckets.max(1)) * self.bucket_inputs()
    }

    /// Inputs for one perspective within one king bucket.
    pub fn bucket_inputs(&self) -> usize {
        2 * self.kinds.len() * (self.geometry.squares() + self.hand_max as usize)
    }

    fn board_inputs(&self) -> usize {
        2 * self.kinds.len() * self.geometry.squares()
    }
}

/// A variant's kinds placed in a layout: the input indices of its pieces, for each perspective.
#[derive(Clone, Debug)]
pub struct FeatureMap {
    geometry: Geometry,
    squares: usize,
    kinds: usize,
    board_inputs: usize,
    hand_max: u8,
    bucket_inputs: usize,
    king_buckets: u8,
    /// Layout kind of each of the variant's kinds.
    kind_index: [u8; MAX_KINDS],
    /// Each square as a perspective sees it (`2 * perspective + mirrored`): the rank counted
    /// from its side, the file from the left or, mirrored, the right. A table, because the
    /// divisions by the number of files that work it out cost more than the rest of an update.
    oriented: [[u8; MAX_SQUARES]; 4],
}

/// Where one perspective's inputs lie: the first input of its king's bucket, and whether the
/// board is mirrored left to right. A move that changes a perspective's frame changes all of
/// its inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KingFrame {
    offset: usize,
    mirrored: bool,
}

impl FeatureMap {
    /// How `variant` is read by a network of `layout`, or why it cannot be.
    pub fn new(layout: &InputLayout, variant: &Variant) -> Result<FeatureMap, LayoutError> {
        if layout.geometry != variant.geometry {
            return Err(LayoutError::BoardMismatch { layout: layout.geometry, variant: variant.geometry });
        }
        if variant.drops && layout.hand_max == 0 {
            return Err(LayoutError::NoHandInputs);
        }
        let mut kind_index = [0u8; MAX_KINDS];
        for (i, p) in variant.pieces.iter().enumerate().take(MAX_KINDS) {
            let k = layout
                .kinds
                .iter()
                .position(|k| k.same_kind(p))
                .ok_or_else(|| LayoutError::UnknownKind { letter: p.letter, betza: p.betza.clone() })?;
            kind_index[i] = k as u8;
        }
        Ok(FeatureMap {
            geometry: layout.geometry,
            squares: layout.geometry.squares(),
            kinds: layout.kinds.len(),
            board_inputs: layout.board_inputs(),
            hand_max: layout.hand_max,
            bucket_inputs: layout.bucket_inputs(),
            king_buckets: layout.king_buckets.max(1),
            kind_index,
            oriented: Self::orientations(layout.geometry),
        })
    }

    fn orientations(geometry: Geometry) -> [[u8; MAX_SQUARES]; 4] {
        let (files, ranks) = (usize::from(geometry.files), usize::from(geometry.ranks));
        let mut oriented = [[0u8; MAX_SQUARES]; 4];
        for (view, table) in oriented.iter_mut().enumerate() {
            let (black, mirrored) = (view / 2 == Color::Black.index(), view % 2 == 1);
            for (sq, entry) in table.iter_mut().enumerate().take(geometry.squares()) {
                let (mut file, mut rank) = (sq % files, sq / files);
                if black {
                    rank = ranks - 1 - rank;
                }
                if mirrored {
                    file = files - 1 - file;
                }
                *entry = (rank * files + file) as u8;
            }
        }
        oriented
    }

    /// The frame of `perspective` whose king stands on `king` (none: the first bucket, not
    /// mirrored).
    #[inline]
    pub fn frame(&self, perspective: Color, king: Option<Square>) -> KingFrame {
        let (Some(king), true) = (king, self.king_buckets > 1) else {
            return KingFrame { offset: 0, mirrored: false };
        };
        let files = usize::from(self.geometry.files);
        let (file, rank) = (king.index() % files, king.index() / files);
        let relative_rank = match perspective {
            Color::White => rank,
            Color::Black => usize::from(self.geometry.ranks) - 1 - rank,
        };
        let half = files / 2;
        let mirrored = file >= half;
        let file = if mirrored { files - 1 - file } else { file };
        let off_first_rank = usize::from(relative_rank > 0);
        let bucket = match self.king_buckets {
            2 => off_first_rank,
            _ => 2 * off_first_rank + usize::from(2 * file >= half),
        };
        KingFrame { offset: bucket * self.bucket_inputs, mirrored }
    }

    /// The input of a `color` piece of `kind` on `sq`, seen by `perspective` in `frame`:
    /// colours relative to the perspective, the board mirrored top to bottom for Black, so that
    /// a network sees every position as if its side were White.
    #[inline]
    pub fn board_input(
        &self,
        frame: KingFrame,
        perspective: Color,
        color: Color,
        kind: PieceKind,
        sq: Square,
    ) -> usize {
        let relative = usize::from(color != perspective);
        let view = 2 * perspective.index() + usize::from(frame.mirrored);
        frame.offset
            + (relative * self.kinds + self.kind_index[kind] as usize) * self.squares
            + usize::from(self.oriented[view][sq.index()])
    }

    /// The inputs that are on for `count` pieces of `kind` in `color`'s hand, seen by
    /// `perspective` in `frame` (the first `min(count, hand_max)` of that kind's hand inputs).
    #[inline]
    pub fn hand_inputs(
        &self,
        frame: KingFrame,
        perspective: Color,
        color: Color,
        kind: PieceKind,
        count: u8,
    ) -> std::ops::Range<usize> {
        let relative = usize::from(color != perspective);
        let max = self.hand_max as usize;
        let first = frame.offset + self.board_inputs + (relative * self.kinds + self.kind_index[kind] as usize) * max;
        first..first + (count as usize).min(max)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::{by_name, names};

    fn family(files: u8, ranks: u8) -> Vec<&'static Variant> {
        names()
            .into_iter()
            .filter_map(|n| by_name(n).ok())
            .filter(|v| v.geometry.files == files && v.geometry.ranks == ranks)
            .collect()
    }

    #[test]
    fn the_8x8_family_has_the_orthodox_kinds_and_the_two_compounds_with_a_hand() {
        let layout = InputLayout::union(family(8, 8), 1).expect("8x8 layout");
        let letters: String = layout.kinds.iter().map(|k| k.letter).collect();
        assert_eq!(letters, "PNBRQKAC");
        assert_eq!(layout.hand_max, 1, "VD Chess drops");
        assert_eq!(layout.input_count(), 2 * 8 * 65);
        for v in family(8, 8) {
            assert!(FeatureMap::new(&layout, v).is_ok(), "{} fits", v.name);
        }
    }

    #[test]
    fn every_input_of_a_position_is_distinct_and_in_range() {
        let layout = InputLayout::union(family(12, 8), 2).expect("12x8 layout");
        let rvc = by_name("rvc").expect("rvc");
        let map = FeatureMap::new(&layout, rvc).expect("rvc fits");
        let mut seen = std::collections::HashSet::new();
        for perspective in [Color::White, Color::Black] {
            seen.clear();
            for color in [Color::White, Color::Black] {
                for kind in 0..rvc.pieces.len() {
                    for sq in rvc.geometry.all_squares() {
                        let i = map.board_input(map.frame(perspective, None), perspective, color, kind, sq);
                        assert!(i < layout.input_count());
                        assert!(seen.insert(i), "input {i} twice");
                    }
                }
            }
        }
    }

    #[test]
    fn black_sees_the_mirror_of_what_white_sees() {
        let chess = by_name("chess").expect("chess");
        let layout = InputLayout::union([chess], 0).expect("layout");
        let map = FeatureMap::new(&layout, chess).expect("fits");
        let g = chess.geometry;
        let e2 = g.parse_square("e2").expect("e2");
        let e7 = g.parse_square("e7").expect("e7");
        let (white, black) = (map.frame(Color::White, None), map.frame(Color::Black, None));
        assert_eq!(
            map.board_input(white, Color::White, Color::White, 0, e2),
            map.board_input(black, Color::Black, Color::Black, 0, e7)
        );
        assert_ne!(
            map.board_input(white, Color::White, Color::White, 0, e2),
            map.board_input(black, Color::Black, Color::White, 0, e2)
        );
    }

    #[test]
    fn a_variant_outside_the_layout_is_refused_with_the_reason() {
        let chess = by_name("chess").expect("chess");
        let layout = InputLayout::union([chess], 0).expect("layout");
        let vd = by_name("vdchess").expect("vd");
        assert!(matches!(FeatureMap::new(&layout, vd), Err(LayoutError::NoHandInputs)));
        let rvc = by_name("rvc").expect("rvc");
        assert!(matches!(FeatureMap::new(&layout, rvc), Err(LayoutError::BoardMismatch { .. })));
        let with_hand = InputLayout { hand_max: 1, ..layout };
        let err = FeatureMap::new(&with_hand, vd).expect_err("no compounds");
        assert!(err.to_string().contains("no input for the piece"), "{err}");
        let mixed = InputLayout::union([chess, rvc], 0).expect_err("two boards");
        assert!(mixed.to_string().contains("12x8"), "{mixed}");
    }

    #[test]
    fn hand_inputs_count_up_to_the_layout_maximum() {
        let layout = InputLayout::union(family(8, 8), 2).expect("layout");
        let vd = by_name("vdchess").expect("vd");
        let map = FeatureMap::new(&layout, vd).expect("fits");
        let c = vd.kind_of_letter('C').expect("chancellor");
        let frame = map.frame(Color::White, None);
        assert_eq!(map.hand_inputs(frame, Color::White, Color::White, c, 0).len(), 0);
        assert_eq!(map.hand_inputs(frame, Color::White, Color::White, c, 5).len(), 2);
        let r = map.hand_inputs(frame, Color::White, Color::Black, c, 1);
        assert!(r.start >= 2 * 8 * 64 && r.end <= layout.input_count());
        assert_eq!(map.hand_inputs(frame, Color::White, Color::Black, c, 2), r.start..r.start + 2);
    }

    #[test]
    fn king_buckets_mirror_the_right_half_and_split_the_first_rank_from_the_rest() {
        let dchess = by_name("dchess").expect("dchess");
        let plain = InputLayout::union(family(8, 8), 1).expect("layout");
        let layout = plain.clone().with_king_buckets(4);
        assert_eq!(layout.input_count(), 4 * plain.input_count());
        let map = FeatureMap::new(&layout, dchess).expect("fits");
        let g = dchess.geometry;
        let sq = |s: &str| g.parse_square(s).expect("square");
        let bucket = |c: Color, king: &str| map.frame(c, Some(sq(king))).offset / plain.input_count();
        // a-b, c-d on the first rank; then the same off it; the right half mirrors the left.
        assert_eq!([bucket(Color::White, "a1"), bucket(Color::White, "d1"), bucket(Color::White, "b3")], [0, 1, 2]);
        assert_eq!([bucket(Color::White, "e1"), bucket(Color::White, "h1"), bucket(Color::White, "g5")], [1, 0, 2]);
        assert_eq!([bucket(Color::Black, "e8"), bucket(Color::Black, "c7"), bucket(Color::Black, "d1")], [1, 3, 3]);
        // A king on g1 sees a rook on h1 where a king on b1 sees one on a1.
        let rook = dchess.kind_of_letter('R').expect("rook");
        let (g1, b1) = (map.frame(Color::White, Some(sq("g1"))), map.frame(Color::White, Some(sq("b1"))));
        assert_eq!(
            map.board_input(g1, Color::White, Color::White, rook, sq("h1")),
            map.board_input(b1, Color::White, Color::White, rook, sq("a1"))
        );
        // Every input of every frame is distinct and in range.
        let mut seen = std::collections::HashSet::new();
        for king in ["a1", "c1", "a2", "c2"] {
            let frame = map.frame(Color::White, Some(sq(king)));
            for color in [Color::White, Color::Black] {
                for kind in 0..dchess.pieces.len() {
                    for s in g.all_squares() {
                        let i = map.board_input(frame, Color::White, color, kind, s);
                        assert!(i < layout.input_count() && seen.insert(i), "input {i} twice or out of range");
                    }
                }
            }
        }
        let two = FeatureMap::new(&plain.with_king_buckets(2), dchess).expect("fits");
        assert_eq!(two.frame(Color::White, Some(sq("f2"))), KingFrame { offset: two.bucket_inputs, mirrored: true });
    }
}
