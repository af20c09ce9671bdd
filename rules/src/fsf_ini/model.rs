//! A Fairy-Stockfish variant as Fairy-Stockfish's parser builds it, for the rules Menagerie can
//! play: the parents it has an exact equivalent of, and every key applied in Fairy-Stockfish's
//! own order with Fairy-Stockfish's value types. A key whose value changes play in a way
//! Menagerie has no rule for is refused here, with its line.
//!
//! Owns: `FsfVariant`, `Region`, `PieceSet`, `parent`, `FsfVariant::apply`.
//! Must not know: Menagerie's variant text, positions.

use super::ini::IniSection;
use super::pieces::{self, CUSTOM_SLOTS, KING, PAWN, TYPES};
use super::Refusal;

/// Squares of Fairy-Stockfish's largest board (12 files x 10 ranks), bit = rank * 12 + file.
pub type Region = u128;
/// Piece types, bit = type index.
pub type PieceSet = u64;

pub const FSF_FILES: u8 = 12;
pub const FSF_RANKS: u8 = 10;
const ALL_SQUARES: Region = (1 << (FSF_FILES as u32 * FSF_RANKS as u32)) - 1;

pub fn rank_region(rank: u8) -> Region {
    ((1u128 << FSF_FILES) - 1) << (rank as u32 * FSF_FILES as u32)
}

pub fn file_region(file: u8) -> Region {
    (0..FSF_RANKS).fold(0, |r, rank| r | 1u128 << (rank as u32 * FSF_FILES as u32 + file as u32))
}

/// The board's squares (files x ranks) as a region.
pub fn board_region(files: u8, ranks: u8) -> Region {
    (0..ranks).fold(0, |r, rank| r | (((1u128 << files) - 1) << (rank as u32 * FSF_FILES as u32)))
}

/// The variant being built: the fields of Fairy-Stockfish's `Variant` that decide play here.
#[derive(Clone, Debug)]
pub struct FsfVariant {
    pub files: u8,
    pub ranks: u8,
    /// Lower-case letter per piece type.
    pub letters: Vec<Option<char>>,
    /// Betza of custom types (and of a custom king).
    pub betza: Vec<String>,
    /// Where each type's letter was given in the section (for refusals).
    pub key_lines: Vec<Option<usize>>,
    pub chess960: bool,
    pub start_fen: String,
    pub promotion_region: [Region; 2],
    pub promotion_pawn_types: [PieceSet; 2],
    pub promotion_pieces: [PieceSet; 2],
    pub double_step: bool,
    pub double_step_region: [Region; 2],
    pub triple_step_region: [Region; 2],
    pub en_passant_region: [Region; 2],
    pub en_passant_types: [PieceSet; 2],
    pub n_move_rule_types: [PieceSet; 2],
    pub castling: bool,
    pub castling_kingside_file: u8,
    pub castling_queenside_file: u8,
    pub castling_king_piece: [usize; 2],
    pub castling_rook_pieces: [PieceSet; 2],
    pub piece_drops: bool,
    pub drop_region: [Region; 2],
}

fn set(t: usize) -> PieceSet {
    1 << t
}

/// Fairy-Stockfish's default `Variant` (chess rules and pieces).
fn base() -> FsfVariant {
    let mut letters = vec![None; TYPES];
    for (t, c) in [(0, 'p'), (1, 'n'), (2, 'b'), (3, 'r'), (4, 'q'), (KING, 'k')] {
        letters[t] = Some(c);
    }
    FsfVariant {
        files: 8,
        ranks: 8,
        letters,
        betza: vec![String::new(); TYPES],
        key_lines: vec![None; TYPES],
        chess960: false,
        start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
        promotion_region: [rank_region(7), rank_region(0)],
        promotion_pawn_types: [set(PAWN); 2],
        promotion_pieces: [set(1) | set(2) | set(3) | set(4); 2],
        double_step: true,
        double_step_region: [rank_region(1), rank_region(6)],
        triple_step_region: [0; 2],
        en_passant_region: [ALL_SQUARES; 2],
        en_passant_types: [set(PAWN); 2],
        n_move_rule_types: [set(PAWN); 2],
        castling: true,
        castling_kingside_file: 6,
        castling_queenside_file: 2,
        castling_king_piece: [KING; 2],
        castling_rook_pieces: [set(3); 2],
        piece_drops: false,
        drop_region: [ALL_SQUARES; 2],
    }
}

/// The start of a section without a parent: the default rules with no pieces at all.
pub fn no_parent() -> FsfVariant {
    let mut v = base();
    v.letters = vec![None; TYPES];
    v.promotion_pieces = [0; 2];
    v
}

/// Fairy-Stockfish's built-in variants that Menagerie plays exactly, as parents.
pub fn parent(name: &str) -> Option<FsfVariant> {
    let mut v = base();
    let capablanca = |v: &mut FsfVariant| {
        v.files = 10;
        v.castling_kingside_file = 8;
        v.castling_queenside_file = 2;
        v.add_piece(11, 'a');
        v.add_piece(12, 'c');
        v.start_fen = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1".into();
        v.promotion_pieces = [set(11) | set(12) | set(4) | set(3) | set(2) | set(1); 2];
    };
    match name {
        "chess" | "normal" => {}
        "fischerandom" => v.chess960 = true,
        "nocastle" => {
            v.castling = false;
            v.start_fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1".into();
        }
        "fairy" => {
            for (t, c) in [(8, 's'), (5, 'f'), (11, 'a'), (12, 'c'), (34, 'm')] {
                v.add_piece(t, c);
            }
        }
        "amazon" => {
            v.remove_piece(4);
            v.add_piece(13, 'a');
            v.start_fen = "rnbakbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBAKBNR w KQkq - 0 1".into();
            v.promotion_pieces = [set(13) | set(3) | set(2) | set(1); 2];
        }
        "capablanca" => capablanca(&mut v),
        "caparandom" => {
            capablanca(&mut v);
            v.chess960 = true;
        }
        "gothic" => {
            capablanca(&mut v);
            v.start_fen = "rnbqckabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQCKABNR w KQkq - 0 1".into();
        }
        "embassy" => {
            capablanca(&mut v);
            v.castling_kingside_file = 7;
            v.castling_queenside_file = 1;
            v.start_fen = "rnbqkcabnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBQKCABNR w KQkq - 0 1".into();
        }
        _ => return None,
    }
    Some(v)
}

/// The names of Fairy-Stockfish's built-in variants (its large-board build with all variants):
/// Fairy-Stockfish keeps these and skips a file's section of the same name.
pub const FSF_BUILTIN_NAMES: &[&str] = &[
    "chess",
    "normal",
    "fischerandom",
    "nocastle",
    "armageddon",
    "torpedo",
    "berolina",
    "pawnsideways",
    "pawnback",
    "legan",
    "fairy",
    "makruk",
    "makpong",
    "cambodian",
    "karouk",
    "asean",
    "ai-wok",
    "shatranj",
    "chaturanga",
    "amazon",
    "georgian",
    "nightrider",
    "grasshopper",
    "hoppelpoppel",
    "newzealand",
    "kingofthehill",
    "racingkings",
    "knightmate",
    "misere",
    "losers",
    "giveaway",
    "antichess",
    "suicide",
    "codrus",
    "extinction",
    "kinglet",
    "threekings",
    "horde",
    "petrified",
    "nocheckatomic",
    "atomic",
    "atomar",
    "isolation",
    "isolation7x7",
    "snailtrail",
    "fox-and-hounds",
    "duck",
    "joust",
    "3check",
    "5check",
    "crazyhouse",
    "loop",
    "chessgi",
    "bughouse",
    "koedem",
    "pocketknight",
    "placement",
    "sittuyin",
    "seirawan",
    "shouse",
    "dragon",
    "paradigm",
    "minishogi",
    "mini",
    "kyotoshogi",
    "micro",
    "dobutsu",
    "gorogoro",
    "judkins",
    "torishogi",
    "euroshogi",
    "losalamos",
    "gardner",
    "almost",
    "sortofalmost",
    "chigorin",
    "perfect",
    "spartan",
    "shatar",
    "coregal",
    "clobber",
    "breakthrough",
    "ataxx",
    "flipersi",
    "flipello",
    "minixiangqi",
    "raazuvaa",
    "shogi",
    "checkshogi",
    "shoshogi",
    "yarishogi",
    "okisakishogi",
    "capablanca",
    "capahouse",
    "caparandom",
    "gothic",
    "janus",
    "modern",
    "chancellor",
    "embassy",
    "centaur",
    "gustav3",
    "jesonmor",
    "courier",
    "grand",
    "opulent",
    "tencubed",
    "omicron",
    "troitzky",
    "wolf",
    "shako",
    "clobber10",
    "flipello10",
    "amazons",
    "xiangqi",
    "manchu",
    "supply",
    "janggi",
    "janggitraditional",
    "janggimodern",
    "janggicasual",
];

/// How a key that Menagerie has no rule for must read to change nothing.
enum Fixed {
    Bool(bool),
    Int(i64),
    /// One of the words of a Fairy-Stockfish enum (first = the only one taken).
    Word(&'static [&'static str]),
    /// A bitboard that must be empty.
    NoSquares,
    /// A piece set that must be empty.
    NoPieces,
    /// Any well-formed value: the key has no effect unless another refused key is set.
    /// A file (number from 1 or letter), 0-based.
    File(u8),
    AnyFile,
    AnyBool,
    AnyInt,
    AnyWord(&'static [&'static str]),
    AnyPieces,
    AnyRegion,
}

/// Keys Menagerie takes only at the value that leaves chess rules alone, with the reason.
const FIXED: &[(&str, Fixed, &str)] = &[
    ("twoBoards", Fixed::Bool(false), "bughouse-style pockets are not supported"),
    ("sittuyinPromotion", Fixed::Bool(false), "Sittuyin promotion is not supported"),
    ("promotionLimit", Fixed::Word(&[""]), "promotion limits are not supported"),
    ("promotedPieceType", Fixed::Word(&[""]), "piece promotion is not supported"),
    ("piecePromotionOnCapture", Fixed::Bool(false), "piece promotion is not supported"),
    ("mandatoryPawnPromotion", Fixed::Bool(true), "optional promotion is not supported"),
    ("mandatoryPiecePromotion", Fixed::Bool(false), "piece promotion is not supported"),
    ("pieceDemotion", Fixed::Bool(false), "demotion is not supported"),
    ("blastOnCapture", Fixed::Bool(false), "explosions are not supported"),
    ("blastImmuneTypes", Fixed::NoPieces, "explosions are not supported"),
    ("mutuallyImmuneTypes", Fixed::NoPieces, "immune pieces are not supported"),
    ("petrifyOnCaptureTypes", Fixed::NoPieces, "petrification is not supported"),
    ("petrifyBlastPieces", Fixed::Bool(false), "petrification is not supported"),
    ("castlingDroppedPiece", Fixed::Bool(false), "castling with dropped pieces is not supported"),
    ("castlingRank", Fixed::Int(1), "castling away from the first rank is not supported"),
    // It only picks among several castling kings on the rank; Menagerie's positions have one.
    ("castlingKingFile", Fixed::AnyFile, ""),
    (
        "castlingRookKingsideFile",
        Fixed::File(FSF_FILES - 1),
        "castling with a rook found from another file is not supported",
    ),
    ("castlingRookQueensideFile", Fixed::File(0), "castling with a rook found from another file is not supported"),
    ("oppositeCastling", Fixed::Bool(false), "opposite castling is not supported"),
    ("checking", Fixed::Bool(true), "games without checks are not supported"),
    ("dropChecks", Fixed::Bool(true), "drops that may not check are not supported"),
    ("mustCapture", Fixed::Bool(false), "compulsory captures are not supported"),
    ("mustDrop", Fixed::Bool(false), "compulsory drops are not supported"),
    ("mustDropType", Fixed::AnyPieces, ""),
    ("dropLoop", Fixed::Bool(false), "drop loops are not supported"),
    ("capturesToHand", Fixed::Bool(false), "captured pieces going to hand (crazyhouse rules) are not supported"),
    ("firstRankPawnDrops", Fixed::Bool(false), "pawn drops on the first rank are not supported"),
    ("promotionZonePawnDrops", Fixed::Bool(false), "pawn drops in the promotion zone are not supported"),
    ("enclosingDrop", Fixed::Word(&["none"]), "enclosing drops are not supported"),
    ("enclosingDropStart", Fixed::NoSquares, "enclosing drops are not supported"),
    ("sittuyinRookDrop", Fixed::Bool(false), "Sittuyin rook drops are not supported"),
    ("dropOppositeColoredBishop", Fixed::Bool(false), "bishop drop colour rules are not supported"),
    ("dropPromoted", Fixed::Bool(false), "dropping promoted pieces is not supported"),
    ("dropNoDoubled", Fixed::NoPieces, "no-doubled-pawn drop rules are not supported"),
    ("dropNoDoubledCount", Fixed::AnyInt, ""),
    ("immobilityIllegal", Fixed::Bool(false), "immobility rules are not supported"),
    ("gating", Fixed::Bool(false), "gating is not supported"),
    ("wallingRule", Fixed::Word(&["none"]), "walls are not supported"),
    ("wallingRegionWhite", Fixed::AnyRegion, ""),
    ("wallingRegionBlack", Fixed::AnyRegion, ""),
    ("wallingRegion", Fixed::AnyRegion, ""),
    ("wallOrMove", Fixed::Bool(false), "walls are not supported"),
    ("seirawanGating", Fixed::Bool(false), "Seirawan gating is not supported"),
    ("cambodianMoves", Fixed::Bool(false), "Cambodian special moves are not supported"),
    ("diagonalLines", Fixed::NoSquares, "Janggi diagonals are not supported"),
    ("pass", Fixed::Bool(false), "passing is not supported"),
    ("passWhite", Fixed::Bool(false), "passing is not supported"),
    ("passBlack", Fixed::Bool(false), "passing is not supported"),
    ("passOnStalemate", Fixed::Bool(false), "passing is not supported"),
    ("passOnStalemateWhite", Fixed::Bool(false), "passing is not supported"),
    ("passOnStalemateBlack", Fixed::Bool(false), "passing is not supported"),
    ("makpongRule", Fixed::Bool(false), "the Makpong rule is not supported"),
    ("flyingGeneral", Fixed::Bool(false), "the flying general is not supported"),
    ("soldierPromotionRank", Fixed::Int(1), "Xiangqi soldier rules are not supported"),
    ("flipEnclosedPieces", Fixed::Word(&["none"]), "flipping pieces is not supported"),
    ("nMoveRule", Fixed::Int(50), "Menagerie plays the 50-move rule only"),
    ("nFoldRule", Fixed::Int(3), "Menagerie plays threefold repetition only"),
    ("nFoldValue", Fixed::Word(&["draw"]), "Menagerie scores repetition as a draw only"),
    ("nFoldValueAbsolute", Fixed::AnyBool, ""),
    ("perpetualCheckIllegal", Fixed::Bool(false), "perpetual-check rules are not supported"),
    ("moveRepetitionIllegal", Fixed::Bool(false), "repetition bans are not supported"),
    ("chasingRule", Fixed::Word(&["none"]), "chasing rules are not supported"),
    ("stalemateValue", Fixed::Word(&["draw"]), "Menagerie scores stalemate as a draw here"),
    ("stalematePieceCount", Fixed::Bool(false), "stalemate piece counting is not supported"),
    ("checkmateValue", Fixed::Word(&["loss"]), "checkmate is a loss for the mated side only"),
    ("shogiPawnDropMateIllegal", Fixed::Bool(false), "pawn-drop mate rules are not supported"),
    ("shatarMateRule", Fixed::Bool(false), "Shatar mate rules are not supported"),
    ("bikjangRule", Fixed::Bool(false), "bikjang is not supported"),
    ("extinctionValue", Fixed::Word(&["none"]), "extinction wins are not supported"),
    ("extinctionClaim", Fixed::Bool(false), "extinction wins are not supported"),
    ("extinctionPseudoRoyal", Fixed::Bool(false), "pseudo-royal pieces are not supported"),
    ("dupleCheck", Fixed::Bool(false), "duple check is not supported"),
    ("extinctionPieceTypes", Fixed::NoPieces, "extinction wins are not supported"),
    ("extinctionPieceCount", Fixed::AnyInt, ""),
    ("extinctionOpponentPieceCount", Fixed::AnyInt, ""),
    ("flagPiece", Fixed::AnyPieces, ""),
    ("flagPieceWhite", Fixed::AnyPieces, ""),
    ("flagPieceBlack", Fixed::AnyPieces, ""),
    ("flagRegion", Fixed::NoSquares, "flag (race) wins are not supported"),
    ("flagRegionWhite", Fixed::NoSquares, "flag (race) wins are not supported"),
    ("flagRegionBlack", Fixed::NoSquares, "flag (race) wins are not supported"),
    ("whiteFlag", Fixed::NoSquares, "flag (race) wins are not supported"),
    ("blackFlag", Fixed::NoSquares, "flag (race) wins are not supported"),
    ("flagPieceCount", Fixed::AnyInt, ""),
    ("flagPieceBlockedWin", Fixed::AnyBool, ""),
    ("flagMove", Fixed::AnyBool, ""),
    ("flagPieceSafe", Fixed::AnyBool, ""),
    ("checkCounting", Fixed::Bool(false), "check counting is not supported"),
    ("connectN", Fixed::Int(0), "connection wins are not supported"),
    ("connectPieceTypes", Fixed::AnyPieces, ""),
    ("connectHorizontal", Fixed::AnyBool, ""),
    ("connectVertical", Fixed::AnyBool, ""),
    ("connectDiagonal", Fixed::AnyBool, ""),
    ("connectRegion1White", Fixed::NoSquares, "connection wins are not supported"),
    ("connectRegion2White", Fixed::NoSquares, "connection wins are not supported"),
    ("connectRegion1Black", Fixed::NoSquares, "connection wins are not supported"),
    ("connectRegion2Black", Fixed::NoSquares, "connection wins are not supported"),
    ("connectNxN", Fixed::Int(0), "connection wins are not supported"),
    ("collinearN", Fixed::Int(0), "connection wins are not supported"),
    ("connectValue", Fixed::AnyWord(&["win", "loss", "draw", "none"]), ""),
    ("materialCounting", Fixed::Word(&["none"]), "material counting is not supported"),
    ("adjudicateFullBoard", Fixed::Bool(false), "full-board adjudication is not supported"),
    ("countingRule", Fixed::Word(&["none"]), "counting rules are not supported"),
    ("castlingWins", Fixed::Word(&["-", ""]), "castling wins are not supported"),
    ("dropOnTop", Fixed::Bool(false), "drops from the top are not supported"),
];

/// Keys with no effect on play (the GUI's pictures and pockets, the evaluation's values).
pub const PRESENTATION: [&str; 5] =
    ["variantTemplate", "pieceToCharTable", "pocketSize", "pieceValueMg", "pieceValueEg"];

/// Every key Fairy-Stockfish reads, for telling its files from Menagerie's.
pub fn is_fsf_key(key: &str) -> bool {
    const OWN: &[&str] = &[
        "maxRank",
        "maxFile",
        "chess960",
        "startFen",
        "promotionRegionWhite",
        "promotionRegionBlack",
        "promotionRank",
        "promotionPawnTypes",
        "promotionPawnTypesWhite",
        "promotionPawnTypesBlack",
        "promotionPieceTypes",
        "promotionPieceTypesWhite",
        "promotionPieceTypesBlack",
        "pawnTypes",
        "doubleStep",
        "doubleStepRegionWhite",
        "doubleStepRegionBlack",
        "doubleStepRank",
        "doubleStepRankMin",
        "tripleStepRegionWhite",
        "tripleStepRegionBlack",
        "enPassantRegion",
        "enPassantRegionWhite",
        "enPassantRegionBlack",
        "enPassantTypes",
        "enPassantTypesWhite",
        "enPassantTypesBlack",
        "castlingKingsideFile",
        "castlingQueensideFile",
        "castlingKingPiece",
        "castlingKingPieceWhite",
        "castlingKingPieceBlack",
        "castlingRookPieces",
        "castlingRookPiecesWhite",
        "castlingRookPiecesBlack",
        "castlingRookPiece",
        "pieceDrops",
        "dropRegionWhite",
        "dropRegionBlack",
        "whiteDropRegion",
        "blackDropRegion",
        "nMoveRuleTypes",
        "nMoveRuleTypesWhite",
        "nMoveRuleTypesBlack",
    ];
    OWN.contains(&key)
        || PRESENTATION.contains(&key)
        || FIXED.iter().any(|(k, _, _)| *k == key)
        || (0..TYPES).any(|t| pieces::key_of(t) == key)
        || key.starts_with("mobilityRegion")
}

impl FsfVariant {
    /// Fairy-Stockfish's `add_piece`: a letter names one type only.
    pub fn add_piece(&mut self, t: usize, c: char) {
        let c = c.to_ascii_lowercase();
        for (other, l) in self.letters.iter_mut().enumerate() {
            if *l == Some(c) && other != t {
                *l = None;
                self.promotion_pieces[0] &= !set(other);
                self.promotion_pieces[1] &= !set(other);
            }
        }
        self.letters[t] = Some(c);
    }

    fn remove_piece(&mut self, t: usize) {
        self.letters[t] = None;
        self.promotion_pieces[0] &= !set(t);
        self.promotion_pieces[1] &= !set(t);
    }

    /// The type with this letter (either case).
    pub fn type_of_letter(&self, c: char) -> Option<usize> {
        let c = c.to_ascii_lowercase();
        self.letters.iter().position(|l| *l == Some(c))
    }

    /// Apply a section's keys in Fairy-Stockfish's order; every key must be consumed.
    pub fn apply(&mut self, s: &IniSection) -> Result<(), Refusal> {
        let mut used: Vec<&str> = Vec::new();
        let refuse = |key: &str, reason: String| Refusal {
            variant: s.name.clone(),
            line: s.keys.get(key).map_or(s.line, |(l, _)| *l),
            key: Some(key.to_string()),
            reason,
        };
        macro_rules! get {
            ($key:expr) => {{
                let key: &str = $key;
                match s.keys.get_key_value(key) {
                    Some((k, (_, v))) => {
                        used.push(k.as_str());
                        Some(v.as_str())
                    }
                    None => None,
                }
            }};
        }
        let bad = |key: &str, v: &str, what: &str| refuse(key, format!("'{v}' is not a valid {what}"));

        if let Some(v) = get!("maxRank") {
            self.ranks = parse_int(v)
                .filter(|r| (1..=FSF_RANKS as i64).contains(r))
                .ok_or_else(|| bad("maxRank", v, "rank"))? as u8;
        }
        if let Some(v) = get!("maxFile") {
            self.files = parse_file(v).ok_or_else(|| bad("maxFile", v, "file"))? + 1;
        }
        for t in 0..TYPES {
            let key = pieces::key_of(t);
            if t == KING - 1 {
                // Fairy-Stockfish keeps the last custom slot for a custom king.
                if s.keys.contains_key(&key) {
                    return Err(refuse(&key, "this slot is reserved for the king".into()));
                }
                continue;
            }
            if let Some(v) = get!(&key) {
                if let Some(c) = v.chars().next() {
                    if c.is_ascii_alphabetic() {
                        self.add_piece(t, c);
                        self.key_lines[t] = s.keys.get(&key).map(|(l, _)| *l);
                    } else {
                        self.remove_piece(t);
                    }
                    let is_custom = t >= pieces::custom(1) && t < pieces::custom(1) + CUSTOM_SLOTS;
                    if is_custom || t == KING {
                        if v.len() > 1 {
                            self.betza[t] = v.get(2..).unwrap_or("").to_string();
                        } else if is_custom {
                            return Err(refuse(&key, "a custom piece needs its Betza (letter:BETZA)".into()));
                        } else {
                            self.betza[t].clear();
                        }
                    }
                }
            }
        }
        for k in s.keys.keys() {
            if k.starts_with("mobilityRegion") {
                return Err(refuse(k, "mobility regions are not supported".into()));
            }
        }
        for k in PRESENTATION {
            get!(k);
        }
        if let Some(v) = get!("promotionRank") {
            let r = parse_int(v)
                .filter(|r| (1..=FSF_RANKS as i64).contains(r))
                .ok_or_else(|| bad("promotionRank", v, "rank"))?;
            self.promotion_region = [self.zone(0, r as u8 - 1), self.zone(1, r as u8 - 1)];
        }
        let ds_rank = get!("doubleStepRank");
        let ds_min = if ds_rank.is_none() { get!("doubleStepRankMin") } else { None };
        if ds_rank.is_some() || ds_min.is_some() {
            let rank_of = |k: &str, v: Option<&str>| -> Result<u8, Refusal> {
                match v {
                    None => Ok(1),
                    Some(v) => parse_int(v)
                        .filter(|r| (1..=FSF_RANKS as i64).contains(r))
                        .map(|r| r as u8 - 1)
                        .ok_or_else(|| bad(k, v, "rank")),
                }
            };
            let max = rank_of("doubleStepRank", ds_rank)?;
            let min = rank_of("doubleStepRankMin", ds_min)?;
            for c in 0..2 {
                let mut region = 0;
                for r in min..=max.max(min) {
                    if r <= max {
                        region |= rank_region(self.relative(c, r));
                    }
                }
                self.double_step_region[c] = region;
            }
        }
        macro_rules! pieces_key {
            ($key:expr, $targets:expr) => {
                if let Some(v) = get!($key) {
                    let parsed = self.piece_set(v).ok_or_else(|| bad($key, v, "set of piece letters"))?;
                    for t in $targets {
                        *t = parsed;
                    }
                }
            };
        }
        macro_rules! region_key {
            ($key:expr, $targets:expr) => {
                if let Some(v) = get!($key) {
                    let parsed = parse_region(v).ok_or_else(|| bad($key, v, "list of squares"))?;
                    for t in $targets {
                        *t = parsed;
                    }
                }
            };
        }
        macro_rules! bool_key {
            ($key:expr, $target:expr) => {
                if let Some(v) = get!($key) {
                    *$target = parse_bool(v).ok_or_else(|| bad($key, v, "bool (true or false)"))?;
                }
            };
        }
        if let Some(v) = get!("castlingRookPiece") {
            let p = self.piece_set(v).ok_or_else(|| bad("castlingRookPiece", v, "set of piece letters"))?;
            self.castling_rook_pieces = [p; 2];
        }
        region_key!("whiteDropRegion", [&mut self.drop_region[0]]);
        region_key!("blackDropRegion", [&mut self.drop_region[1]]);
        if let Some(v) = get!("pawnTypes") {
            let p = self.piece_set(v).ok_or_else(|| bad("pawnTypes", v, "set of piece letters"))?;
            self.promotion_pawn_types = [p; 2];
            self.en_passant_types = [p; 2];
            self.n_move_rule_types = [p; 2];
        }
        bool_key!("chess960", &mut self.chess960);
        if let Some(v) = get!("startFen") {
            self.start_fen = v.to_string();
        }
        region_key!("promotionRegionWhite", [&mut self.promotion_region[0]]);
        region_key!("promotionRegionBlack", [&mut self.promotion_region[1]]);
        if let Some(v) = get!("promotionPawnTypes") {
            let p = self.piece_set(v).ok_or_else(|| bad("promotionPawnTypes", v, "set of piece letters"))?;
            self.promotion_pawn_types = [p; 2];
        }
        pieces_key!("promotionPawnTypesWhite", [&mut self.promotion_pawn_types[0]]);
        pieces_key!("promotionPawnTypesBlack", [&mut self.promotion_pawn_types[1]]);
        if let Some(v) = get!("promotionPieceTypes") {
            let p = self.piece_set(v).ok_or_else(|| bad("promotionPieceTypes", v, "set of piece letters"))?;
            self.promotion_pieces = [p; 2];
        }
        pieces_key!("promotionPieceTypesWhite", [&mut self.promotion_pieces[0]]);
        pieces_key!("promotionPieceTypesBlack", [&mut self.promotion_pieces[1]]);
        bool_key!("doubleStep", &mut self.double_step);
        region_key!("doubleStepRegionWhite", [&mut self.double_step_region[0]]);
        region_key!("doubleStepRegionBlack", [&mut self.double_step_region[1]]);
        region_key!("tripleStepRegionWhite", [&mut self.triple_step_region[0]]);
        region_key!("tripleStepRegionBlack", [&mut self.triple_step_region[1]]);
        if let Some(v) = get!("enPassantRegion") {
            let r = parse_region(v).ok_or_else(|| bad("enPassantRegion", v, "list of squares"))?;
            self.en_passant_region = [r; 2];
        }
        region_key!("enPassantRegionWhite", [&mut self.en_passant_region[0]]);
        region_key!("enPassantRegionBlack", [&mut self.en_passant_region[1]]);
        if let Some(v) = get!("enPassantTypes") {
            let p = self.piece_set(v).ok_or_else(|| bad("enPassantTypes", v, "set of piece letters"))?;
            self.en_passant_types = [p; 2];
        }
        pieces_key!("enPassantTypesWhite", [&mut self.en_passant_types[0]]);
        pieces_key!("enPassantTypesBlack", [&mut self.en_passant_types[1]]);
        bool_key!("castling", &mut self.castling);
        if let Some(v) = get!("castlingKingsideFile") {
            self.castling_kingside_file = parse_file(v).ok_or_else(|| bad("castlingKingsideFile", v, "file"))?;
        }
        if let Some(v) = get!("castlingQueensideFile") {
            self.castling_queenside_file = parse_file(v).ok_or_else(|| bad("castlingQueensideFile", v, "file"))?;
        }
        for (key, sides) in [
            ("castlingKingPiece", [0, 1].as_slice()),
            ("castlingKingPieceWhite", &[0]),
            ("castlingKingPieceBlack", &[1]),
        ] {
            if let Some(v) = get!(key) {
                let p = self.piece_set(v).filter(|p| p.count_ones() == 1).ok_or_else(|| bad(key, v, "piece letter"))?;
                for &c in sides {
                    self.castling_king_piece[c] = p.trailing_zeros() as usize;
                }
            }
        }
        if let Some(v) = get!("castlingRookPieces") {
            let p = self.piece_set(v).ok_or_else(|| bad("castlingRookPieces", v, "set of piece letters"))?;
            self.castling_rook_pieces = [p; 2];
        }
        pieces_key!("castlingRookPiecesWhite", [&mut self.castling_rook_pieces[0]]);
        pieces_key!("castlingRookPiecesBlack", [&mut self.castling_rook_pieces[1]]);
        bool_key!("pieceDrops", &mut self.piece_drops);
        region_key!("dropRegionWhite", [&mut self.drop_region[0]]);
        region_key!("dropRegionBlack", [&mut self.drop_region[1]]);
        if let Some(v) = get!("nMoveRuleTypes") {
            let p = self.piece_set(v).ok_or_else(|| bad("nMoveRuleTypes", v, "set of piece letters"))?;
            self.n_move_rule_types = [p; 2];
        }
        pieces_key!("nMoveRuleTypesWhite", [&mut self.n_move_rule_types[0]]);
        pieces_key!("nMoveRuleTypesBlack", [&mut self.n_move_rule_types[1]]);

        for (key, fixed, why) in FIXED {
            let Some(v) = get!(key) else { continue };
            let ok = match fixed {
                Fixed::Bool(d) => parse_bool(v).ok_or_else(|| bad(key, v, "bool (true or false)"))? == *d,
                Fixed::AnyBool => parse_bool(v).map(|_| true).ok_or_else(|| bad(key, v, "bool (true or false)"))?,
                Fixed::Int(d) => parse_int(v).ok_or_else(|| bad(key, v, "number"))? == *d,
                Fixed::File(d) => parse_file(v).ok_or_else(|| bad(key, v, "file"))? == *d,
                Fixed::AnyFile => parse_file(v).map(|_| true).ok_or_else(|| bad(key, v, "file"))?,
                Fixed::AnyInt => parse_int(v).map(|_| true).ok_or_else(|| bad(key, v, "number"))?,
                Fixed::Word(words) => words.first() == Some(&v) || (words.contains(&v) && !v.is_empty()),
                Fixed::AnyWord(words) => {
                    if !words.contains(&v) {
                        return Err(bad(key, v, "value"));
                    }
                    true
                }
                Fixed::NoSquares => parse_region(v).ok_or_else(|| bad(key, v, "list of squares"))? == 0,
                Fixed::AnyRegion => parse_region(v).map(|_| true).ok_or_else(|| bad(key, v, "list of squares"))?,
                Fixed::NoPieces => self.piece_set(v).ok_or_else(|| bad(key, v, "set of piece letters"))? == 0,
                Fixed::AnyPieces => {
                    self.piece_set(v).map(|_| true).ok_or_else(|| bad(key, v, "set of piece letters"))?
                }
            };
            if !ok {
                return Err(refuse(key, format!("'{v}': {why}")));
            }
        }
        for (k, (line, _)) in &s.keys {
            if !used.contains(&k.as_str()) {
                let reason = if is_fsf_key(k) { "not read here" } else { "unknown key" };
                return Err(Refusal {
                    variant: s.name.clone(),
                    line: *line,
                    key: Some(k.clone()),
                    reason: reason.into(),
                });
            }
        }
        Ok(())
    }

    /// Rank `r` (0-based, White's view) seen from `colour`'s side on this board.
    pub fn relative(&self, colour: usize, r: u8) -> u8 {
        if colour == 0 {
            r
        } else {
            self.ranks.saturating_sub(1).saturating_sub(r)
        }
    }

    /// Fairy-Stockfish's `zone_bb`: the relative ranks from `r` onward.
    fn zone(&self, colour: usize, r: u8) -> Region {
        (r..self.ranks.max(r + 1)).filter(|&x| x < FSF_RANKS).fold(0, |z, x| z | rank_region(self.relative(colour, x)))
    }

    /// A set of piece letters as Fairy-Stockfish reads it: `-` = none, `*` = all; any other
    /// character must be a letter of this variant.
    pub fn piece_set(&self, v: &str) -> Option<PieceSet> {
        let mut p = 0;
        for c in v.chars().filter(|c| !c.is_whitespace()) {
            match c {
                '-' => return Some(p),
                '*' => p = PieceSet::MAX,
                _ => p |= set(self.type_of_letter(c)?),
            }
        }
        Some(p)
    }
}

fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

fn parse_int(v: &str) -> Option<i64> {
    v.trim().parse().ok()
}

/// A file: a number from 1 or a letter from `a`; 0-based.
fn parse_file(v: &str) -> Option<u8> {
    let v = v.trim();
    let f = match v.chars().next()? {
        c if c.is_ascii_digit() => v.parse::<u8>().ok()?.checked_sub(1)?,
        c if c.is_ascii_lowercase() && v.len() == 1 => c as u8 - b'a',
        _ => return None,
    };
    (f < FSF_FILES).then_some(f)
}

/// Fairy-Stockfish's bitboard list: `*3` a rank, `c*` a file, `c3` a square, `-` nothing.
pub fn parse_region(v: &str) -> Option<Region> {
    let mut region = 0;
    for w in v.split_whitespace() {
        if w == "-" {
            break;
        }
        let mut chars = w.chars();
        let first = chars.next()?;
        let rest = chars.as_str();
        if rest == "*" && first.is_ascii_alphabetic() {
            let f = first.to_ascii_lowercase() as u8 - b'a';
            if f >= FSF_FILES {
                return None;
            }
            region |= file_region(f);
        } else if first == '*' {
            let r: u8 = rest.parse().ok()?;
            if r == 0 || r > FSF_RANKS {
                return None;
            }
            region |= rank_region(r - 1);
        } else if first.is_ascii_alphabetic() {
            let f = first.to_ascii_lowercase() as u8 - b'a';
            let r: u8 = rest.parse().ok()?;
            if f >= FSF_FILES || r == 0 || r > FSF_RANKS {
                return None;
            }
            region |= 1u128 << ((r - 1) as u32 * FSF_FILES as u32 + f as u32);
        } else {
            return None;
        }
    }
    Some(region)
}
