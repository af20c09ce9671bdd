//! What XBoard must be told to show and referee one of our variants as an engine-defined variant:
//! the `setup (PIECETOCHAR) WxH+HOLDINGS_PARENT FEN` line and the `piece LETTER& BETZA` lines. All
//! of it is derived from the variant data (board size, piece letters and Betza moves, drops,
//! castling kind, the start rule) and one start position: the parent variant from the rules, the
//! picture of each piece from its moves (or the variant file's `xboard-image` choice), the
//! king's castling atoms from where the king and its rooks stand.
//!
//! Owns: `GuiSetup`, the variant names offered to XBoard, XBoard's picture table and parent
//! names.
//! Must not know: the session, search, stdin/stdout.

use menagerie_rules::any::AnyPosition;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::Color;
use menagerie_rules::variant::{self, CastlingRule, PieceKind, Variant};
use menagerie_rules::with_position;

/// XBoard's variant names that XBoard plays by its own rules: answered without `setup`.
pub const XBOARD_BUILT_IN: [&str; 5] = ["normal", "fischerandom", "nocastle", "capablanca", "caparandom"];

/// Our variants whose rules are XBoard's own (`normal`, `fischerandom`, `capablanca`,
/// `caparandom`): offered under XBoard's names only. (D-Chess is also offered as itself:
/// `nocastle` is only its shuffle.)
const PLAYED_AS_XBOARD_BUILT_IN: [&str; 4] = ["chess", "chess960", "capablanca", "caparandom"];

/// The variants offered to the GUI: XBoard's own names first, then every built-in variant of
/// ours that XBoard does not know.
pub fn gui_variants() -> Vec<&'static str> {
    let ours = variant::names().into_iter().filter(|n| !PLAYED_AS_XBOARD_BUILT_IN.contains(n));
    XBOARD_BUILT_IN.into_iter().chain(ours).collect()
}

/// XBoard's piece pictures in PIECETOCHAR order, by the letter XBoard gives each (the King, which
/// always comes last, left out): Pawn Knight Bishop Rook Queen Ferz Alfil Archbishop Chancellor
/// Wazir Man Cannon Nightrider Dragon-Horse Dragon-King Grasshopper, then pictures without moves
/// of their own.
const PICTURES: &str = "PNBRQFEACWMOHIJGDVLSU";

/// Pictures whose built-in moves XBoard knows, with those moves in Betza notation.
const NATIVE_MOVES: [(char, &str); 13] = [
    ('N', "N"),
    ('B', "B"),
    ('R', "R"),
    ('Q', "Q"),
    ('F', "F"),
    ('E', "A"),
    ('A', "BN"),
    ('C', "RN"),
    ('W', "W"),
    ('M', "K"),
    ('O', "mRcpR"),
    ('I', "BW"),
    ('G', "gQ"),
];

/// Pictures handed out, in this order, to pieces whose chosen picture is taken.
const SPARE_PICTURES: &str = "HIJDVLSUGOMWFEAC";

/// The lines that introduce a variant to XBoard.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuiSetup {
    /// `setup (...) WxH+S_parent FEN`.
    pub setup: String,
    /// `piece L& BETZA`, one per piece whose moves XBoard must be taught.
    pub pieces: Vec<String>,
    /// Pieces XBoard cannot be taught (Betza it does not read): the GUI must run with legality
    /// testing off for them.
    pub untaught: Vec<String>,
}

/// The XBoard parent variant whose rules XBoard applies to what the `piece` lines leave open.
/// Never `normal` (XBoard then plays the game as plain chess and sends the second engine no
/// `variant` at all), nor its shuffle variants `nocastle`/`fischerandom` (from the second game of
/// a match on, XBoard shuffles the start itself and sends it with `setboard` while our `setup`
/// is on its way, then takes the `setup`: the first engine and the board disagree). Both seen
/// with XBoard 4.9.1. Chess960 castling on `fairy` or `bughouse` needs XBoard's
/// `-fischerCastling`.
pub fn parent(variant: &Variant) -> &'static str {
    if variant.drops {
        // Every other parent with holdings puts captured pieces into the hand.
        if variant.captures_to_hand {
            "crazyhouse"
        } else {
            "bughouse"
        }
    } else {
        "fairy"
    }
}

/// The setup and piece lines for a game of `position`'s variant starting at `position`, whose
/// FEN (in XBoard's rank numbering) is `fen`.
pub fn describe(position: &AnyPosition, fen: &str, chess960_castling: bool) -> GuiSetup {
    let variant = position.variant();
    let used = kinds_in_game(position);
    let pictures = assign_pictures(variant, &used);
    let mut white = String::new();
    let last_used = pictures.iter().rposition(|p| p.is_some()).unwrap_or(0).max(4);
    for slot in pictures.iter().take(last_used + 1) {
        white.push(slot.map_or('.', |k| variant.pieces[k].letter));
    }
    let royal = variant.royal_kinds().next().map_or('K', |k| variant.pieces[k].letter);
    white.push(royal);
    let black: String = white.chars().map(|c| c.to_ascii_lowercase()).collect();
    let holdings = if variant.drops { white.chars().filter(|&c| c != '.').count() - 1 } else { 0 };
    let parent = parent(variant);
    let setup = format!(
        "setup ({white}{black}) {}x{}+{holdings}_{parent} {fen}",
        variant.geometry.files, variant.geometry.ranks
    );

    let mut pieces = Vec::new();
    let mut untaught = Vec::new();
    for &k in &used {
        let def = &variant.pieces[k];
        if def.pawn {
            continue;
        }
        let mut betza = def.betza.clone();
        if def.royal {
            let castling = castling_atoms(position, chess960_castling);
            if castling.is_empty() {
                continue;
            }
            betza.push_str(&castling);
        } else if matches!(betza.as_str(), "N" | "B" | "R" | "Q") && parent != "fairy" {
            // XBoard's own pieces, on a parent that has them.
            continue;
        }
        if !readable_by_xboard(&def.betza) {
            untaught.push(format!("{} ({} {})", def.letter, def.name, def.betza));
            continue;
        }
        if variant.drops && !def.royal {
            // XBoard stops reading at '@', so the drop atom goes last; the suffix is the depth of
            // the drop zone (the whole board).
            betza.push_str(&format!("@{}", variant.geometry.ranks));
        }
        pieces.push(format!("piece {}& {betza}", def.letter));
    }
    GuiSetup { setup, pieces, untaught }
}

/// The piece kinds a game can show: those on the board and in hand, and the promotion choices.
fn kinds_in_game(position: &AnyPosition) -> Vec<PieceKind> {
    let variant = position.variant();
    (0..variant.pieces.len())
        .filter(|&k| {
            with_position!(position, p => {
                !p.pieces_of_kind(k).is_empty()
                    || p.hand_count(Color::White, k) > 0
                    || p.hand_count(Color::Black, k) > 0
                    || p.promotion_kinds() & (1 << k) != 0
            })
        })
        .collect()
}

/// Picture slot (index into `PICTURES`) of each used non-royal kind.
fn assign_pictures(variant: &Variant, used: &[PieceKind]) -> Vec<Option<PieceKind>> {
    let mut slots: Vec<Option<PieceKind>> = vec![None; PICTURES.len()];
    let slot_of = |letter: char| PICTURES.chars().position(|c| c == letter);
    let mut pending = Vec::new();
    // First every piece with its own picture, so that a stand-in never takes one.
    for &k in used {
        let def = &variant.pieces[k];
        if def.royal {
            continue;
        }
        let native =
            if def.pawn { Some('P') } else { NATIVE_MOVES.iter().find(|(_, b)| *b == def.betza).map(|&(c, _)| c) };
        match native.and_then(slot_of) {
            Some(s) if slots[s].is_none() => slots[s] = Some(k),
            _ => pending.push(k),
        }
    }
    for k in pending {
        let chosen = variant.pieces[k].xboard_image.and_then(slot_of).filter(|&s| slots[s].is_none());
        let spare = || SPARE_PICTURES.chars().filter_map(slot_of).find(|&s| slots[s].is_none());
        if let Some(s) = chosen.or_else(spare) {
            slots[s] = Some(k);
        } else {
            log::warn!("no XBoard picture left for {}", variant.pieces[k].name);
        }
    }
    slots
}

/// Whether XBoard's Betza reader understands the text: no `(x,y)` leaps, bent riders or our
/// circular rider `O` (which is XBoard's castling atom).
fn readable_by_xboard(betza: &str) -> bool {
    !betza.chars().any(|c| matches!(c, '(' | ')' | '[' | ']' | '?' | 'O'))
}

/// The king's castling in XBoard's `O` atoms, seen from White (XBoard mirrors direction letters
/// for Black): `O4` for a king that moves four squares either way, `rO1rO2lO1lO2lO3` for free
/// castling. Empty where the parent variant's castling is right or XBoard cannot say it.
fn castling_atoms(position: &AnyPosition, chess960_castling: bool) -> String {
    let variant = position.variant();
    let (king_file, east_rook, west_rook) = with_position!(position, p => {
        let g = p.rules().geometry;
        let Some(king) = p.king(Color::White) else { return String::new() };
        let kf = g.file(king);
        let rook_files: Vec<i32> = p
            .castling_rooks()
            .squares()
            .filter(|&s| g.rank(s) == g.rank(king))
            .map(|s| g.file(s))
            .collect();
        (
            kf,
            rook_files.iter().copied().filter(|&f| f > kf).min(),
            rook_files.iter().copied().filter(|&f| f < kf).max(),
        )
    });
    match variant.castling {
        CastlingRule::None => String::new(),
        CastlingRule::Fixed { queen_side_king, king_side_king, .. } => {
            let east = king_side_king as i32 - king_file;
            let west = king_file - queen_side_king as i32;
            let orthodox = variant.geometry.files == 8 && east == 2 && west == 2;
            if chess960_castling || orthodox || east <= 0 || west <= 0 {
                String::new()
            } else if east == west {
                format!("O{east}")
            } else {
                format!("lO{west}rO{east}")
            }
        }
        CastlingRule::Free { max_steps } => {
            let mut atoms = String::new();
            let mut side = |direction: char, distance: Option<i32>| {
                if let Some(d) = distance {
                    for steps in 1..=(d - 1).min(max_steps as i32) {
                        atoms.push_str(&format!("{direction}O{steps}"));
                    }
                }
            };
            side('r', east_rook.map(|f| f - king_file));
            side('l', west_rook.map(|f| king_file - f));
            atoms
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::startpos::castles_as_chess960;
    use menagerie_rules::variant::by_name;

    fn setup_of(variant: &str, fen: &str) -> GuiSetup {
        let v = by_name(variant).unwrap();
        let p = AnyPosition::from_fen(v, fen).unwrap();
        describe(&p, fen, castles_as_chess960(v))
    }

    #[test]
    fn the_variants_offered_are_the_built_in_list_in_xboard_names() {
        // Other tests of this process may add variants from files: they come after these.
        let offered = gui_variants().join(",");
        let built_in =
            "normal,fischerandom,nocastle,capablanca,caparandom,dchess,chess9,displacement,vdchess,rvc,rvcstar";
        assert!(offered.starts_with(built_in), "{offered}");
        for name in gui_variants() {
            assert!(variant::by_name(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn parents_follow_the_rules() {
        let shuffled = |n: &str| castles_as_chess960(by_name(n).unwrap());
        assert!(shuffled("chess960") && shuffled("chess9") && shuffled("vdchess"));
        assert!(!shuffled("chess") && !shuffled("rvc") && !shuffled("displacement") && !shuffled("dchess"));
        let parent_of = |n: &str| parent(by_name(n).unwrap());
        for n in ["dchess", "chess9", "displacement", "rvc"] {
            assert_eq!(parent_of(n), "fairy", "{n}");
        }
        assert_eq!(parent_of("vdchess"), "bughouse");
    }

    #[test]
    fn vd_chess_uses_bughouse_holdings() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1";
        let s = setup_of("vdchess", fen);
        assert_eq!(s.setup, format!("setup (PNBRQ..ACKpnbrq..ack) 8x8+7_bughouse {fen}"));
        assert_eq!(s.pieces, vec!["piece A& BN@8", "piece C& RN@8"]);
    }

    #[test]
    fn displacement_teaches_free_castling() {
        let one = setup_of("displacement", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert!(one.pieces.contains(&"piece K& KrO1rO2lO1lO2lO3".to_string()), "{:?}", one.pieces);
        assert!(one.setup.starts_with("setup (PNBRQKpnbrqk) 8x8+0_fairy "));
        let two = setup_of("displacement", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w KQkq - 0 1");
        assert!(two.pieces.contains(&"piece K& KrO1rO2rO3lO1lO2".to_string()), "{:?}", two.pieces);
    }

    #[test]
    fn random_variant_chess_pictures_and_castling() {
        // Hawk... no: rhinoceros (O, untaught) and griffin (untaught) with camels.
        let fen = "rhcnbqkbncyr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RHCNBQKBNCYR w KQkq - 0 1";
        let s = setup_of("rvc", fen);
        assert!(s.setup.contains(" 12x8+0_fairy "), "{}", s.setup);
        assert!(s.pieces.contains(&"piece K& KO4".to_string()), "{:?}", s.pieces);
        assert!(s.pieces.contains(&"piece C& C".to_string()), "{:?}", s.pieces);
        assert_eq!(s.untaught.len(), 2, "{:?}", s.untaught);
        // Camel on the Unicorn picture (its chosen stand-in), H and Y on their choices.
        let table = s.setup.split(['(', ')']).nth(1).unwrap().to_string();
        assert_eq!(table.chars().nth(PICTURES.find('U').unwrap()), Some('C'), "{table}");
        assert_eq!(table.chars().nth(PICTURES.find('D').unwrap()), Some('H'), "{table}");
        assert_eq!(table.len() % 2, 0);
        // Archbishop-like princess and alfil use XBoard's own pictures.
        let s = setup_of("rvc", "rianbqkbnair/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RIANBQKBNAIR w KQkq - 0 1");
        let table = s.setup.split(['(', ')']).nth(1).unwrap().to_string();
        assert!(table.starts_with("PNBRQ.AI"), "{table}");
        assert!(s.untaught.is_empty());
    }
}
