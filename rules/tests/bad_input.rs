//! Malformed input to the rules core: FENs that must be refused with the right `FenField` and a
//! message naming the offending text, and move texts that must be refused as `Syntax` or
//! `Illegal` without touching the position.

use menagerie_rules::any::AnyPosition;
use menagerie_rules::notation::MoveParseError;
use menagerie_rules::position::{FenError, FenField, Position};
use menagerie_rules::random::SplitMix64;
use menagerie_rules::rules::compiled;
use menagerie_rules::variant;

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// Read a FEN that must fail, with both widths; the two must give the same error.
fn fen_error(variant_name: &str, fen: &str) -> FenError {
    let v = variant::by_name(variant_name).unwrap_or_else(|e| panic!("{e}"));
    let narrow = match Position::from_fen(compiled::<u64>(v), fen) {
        Ok(p) => panic!("{variant_name}: '{fen}' was accepted as '{}'", p.to_fen()),
        Err(e) => e,
    };
    let wide = match Position::from_fen(compiled::<u128>(v), fen) {
        Ok(p) => panic!("{variant_name}: '{fen}' was accepted with 128-bit boards as '{}'", p.to_fen()),
        Err(e) => e,
    };
    assert_eq!(narrow, wide, "{variant_name}: '{fen}': the widths give different errors");
    if let Ok(p) = AnyPosition::from_fen(v, fen) {
        panic!("{variant_name}: AnyPosition accepted '{fen}' as '{}'", p.to_fen());
    }
    narrow
}

/// Assert the field, that the error's text contains `offending`, and that Display shows the
/// field's name and the error's text.
fn expect(variant_name: &str, fen: &str, field: FenField, offending: &str) {
    let e = fen_error(variant_name, fen);
    assert_eq!(e.field, field, "{variant_name}: '{fen}' gave {e:?}");
    assert!(
        e.text.contains(offending),
        "{variant_name}: '{fen}': error text '{}' does not contain '{offending}'",
        e.text
    );
    let shown = e.to_string();
    assert!(shown.contains(offending), "{variant_name}: '{fen}': '{shown}' does not name '{offending}'");
    assert!(shown.contains(&e.text), "{variant_name}: '{fen}': '{shown}' does not show the text '{}'", e.text);
    assert!(shown.contains(&field.to_string()), "{variant_name}: '{fen}': '{shown}' does not name the field {field}");
    assert!(!e.reason.is_empty(), "{variant_name}: '{fen}': empty reason");
}

#[test]
fn the_good_fens_used_below_are_accepted() {
    // The corpus below is built by breaking these; make sure they are fine as they are.
    for (v, fen) in [
        ("chess", START),
        ("chess", "rnbqkbnr/pppp1ppp/8/8/4pP2/8/PPPPP1PP/RNBQKBNR b KQkq f3 0 3"),
        ("chess", "4k3/8/8/8/8/8/8/4K2R w K - 0 1"),
        ("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1"),
        ("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1"),
        ("dchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ] {
        let var = variant::by_name(v).unwrap_or_else(|e| panic!("{e}"));
        if let Err(e) = AnyPosition::from_fen(var, fen) {
            panic!("{v}: '{fen}' refused: {e}");
        }
    }
}

#[test]
fn placement_errors() {
    use FenField::Placement;
    // Wrong number of ranks (7, and 10; 9 would read the ninth as holdings).
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", Placement, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", Placement, "8/8/8/8/8/8/PPPPPPPP");
    // A rank too long: by pieces, by an empty run, by both.
    expect("chess", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement, "ppppppppp");
    expect("chess", "rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement, "9");
    expect("chess", "rnbqkbnr/pppppppp/8/8/4P4/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1", Placement, "4P4");
    // A rank too short.
    expect("chess", "rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement, "ppppppp");
    expect("chess", "rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement, "7");
    // An empty run of zero squares.
    expect("chess", "rnbqkbnr/pppppppp/3p0p3/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement, "3p0p3");
    // A letter that is no piece of the variant (A is one of VD Chess, not of chess).
    expect("chess", "rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement, "4X3");
    expect("chess", "rnbqkbnr/pppppppp/8/8/4A3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement, "4A3");
    expect("chess", "rnbqkbnr/pppppppp/8/8/4*3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", Placement, "4*3");
    // Two white kings; no black king; no kings at all.
    expect("chess", "rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQKBNR w - - 0 1", Placement, "4K3");
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/4K3/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert!(e.to_string().contains("two kings"), "{e}");
    expect("chess", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1", Placement, "rnbq1bnr");
    let e = fen_error("chess", "rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1");
    assert!(e.to_string().contains("black has no king"), "{e}");
    expect("chess", "8/8/8/8/8/8/8/8 w - - 0 1", Placement, "8/8/8/8/8/8/8/8");
    // A pawn on the first rank, on the last rank (either colour).
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w Qkq - 0 1", Placement, "RNBQKBNP");
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNP w Qkq - 0 1");
    assert!(e.to_string().contains("h1"), "{e}");
    expect("chess", "rnbqkbnP/pppppppp/8/8/8/8/PPPPPPP1/RNBQKBNR w KQq - 0 1", Placement, "rnbqkbnP");
    expect("chess", "4k3/8/8/8/8/8/8/p3K3 w - - 0 1", Placement, "p3K3");
    // A 12-file FEN (Capablanca-sized) in an 8x8 variant.
    expect("chess", "rnabqkbcnr2/pppppppppp2/12/12/12/12/PPPPPPPPPP2/RNABQKBCNR2 w - - 0 1", Placement, "rnabqkbcnr2");
    expect("chess", "4k7/12/12/12/12/12/12/4K7 w - - 0 1", Placement, "4k7");
    expect(
        "vdchess",
        "rnbqkbnrrnbq/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBQKBNRRNBQ[Cc] w - - 0 1",
        Placement,
        "rnbqkbnrrnbq",
    );
    // Nothing at all.
    expect("chess", "", Placement, "");
}

#[test]
fn holdings_errors() {
    use FenField::Holdings;
    // Holdings in a variant without drops: in brackets, and as a ninth rank.
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1", Holdings, "Qq");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR/Qq w KQkq - 0 1", Holdings, "Qq");
    expect("dchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[N] w - - 0 1", Holdings, "N");
    // An unclosed bracket, and text after the closing one.
    expect("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc w KQkq - 0 1", Holdings, "[Cc");
    expect("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc]x w KQkq - 0 1", Holdings, "[Cc]x");
    // A letter that is no piece, and a king in hand.
    expect("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cz] w KQkq - 0 1", Holdings, "Cz");
    expect("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Kc] w KQkq - 0 1", Holdings, "Kc");
}

#[test]
fn side_castling_en_passant_and_counter_errors() {
    // Side to move.
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", FenField::SideToMove, "x");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR white KQkq - 0 1", FenField::SideToMove, "white");

    // A castling letter with no rook to castle with (h8 rook missing; a1 rook missing).
    expect("chess", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Castling, "KQkq");
    let e = fen_error("chess", "rnbqkbn1/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(e.to_string().contains("'k'"), "{e}");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/1NBQKBNR w KQkq - 0 1", FenField::Castling, "KQkq");
    // Shredder letter of a file without a rook; a letter beyond the board; not a letter at all.
    expect("chess960", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HBha - 0 1", FenField::Castling, "HBha");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1", FenField::Castling, "KQkz");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ1q - 0 1", FenField::Castling, "KQ1q");
    // Castling with the king off its first rank.
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1", FenField::Castling, "KQkq");
    let e = fen_error("chess", "rnbqkbnr/pppppppp/8/8/8/4K3/PPPPPPPP/RNBQ1BNR w KQkq - 0 1");
    assert!(e.to_string().contains("first rank"), "{e}");
    expect("chess", "rnbq1bnr/ppppkppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Castling, "KQkq");

    // A bad en passant square: off the board, not a square, upper case.
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", FenField::EnPassant, "e9");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq i6 0 1", FenField::EnPassant, "i6");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", FenField::EnPassant, "e");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq E6 0 1", FenField::EnPassant, "E6");
    // En passant without a pawn that just passed: none there, wrong rank for the side, square
    // occupied, the pawn's origin occupied.
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", FenField::EnPassant, "e6");
    expect("chess", "rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 2", FenField::EnPassant, "e3");
    expect("chess", "rnbqkbnr/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2", FenField::EnPassant, "e6");
    expect("chess", "rnbqkbnr/ppppnppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 2", FenField::EnPassant, "e6");
    // A white pawn where Black's should be.
    expect("chess", "rnbqkbnr/pppp1ppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2", FenField::EnPassant, "e6");

    // Non-numeric and negative clocks, text after the counters.
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - abc 1", FenField::HalfmoveClock, "abc");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", FenField::HalfmoveClock, "-1");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 one", FenField::FullmoveNumber, "one");
    expect("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", FenField::FullmoveNumber, "1.5");
    expect(
        "chess",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 extra",
        FenField::FullmoveNumber,
        "extra",
    );
}

#[test]
fn side_not_to_move_in_check() {
    // White to move, but the black king stands in check from the rook / a knight / a pawn.
    for fen in ["4k3/8/8/8/8/8/8/4R1K1 w - - 0 1", "4k3/8/3N4/8/8/8/8/6K1 w - - 0 1", "4k3/3P4/8/8/8/8/8/6K1 w - - 0 1"]
    {
        expect("chess", fen, FenField::Position, fen);
    }
    // Black to move with the white king in check; and with a VD Chess chancellor giving it.
    expect("chess", "4k3/8/8/8/8/8/8/r3K3 b - - 0 1", FenField::Position, "r3K3");
    expect("vdchess", "4k3/8/8/8/8/3c4/8/4K3[-] b - - 0 1", FenField::Position, "3c4");
}

/// A position for move parsing, with its hash and FEN, checked unchanged after each bad move.
struct Probe {
    pos: AnyPosition,
    fen: String,
    hash: u64,
}

impl Probe {
    fn new(variant_name: &str, fen: &str) -> Probe {
        let v = variant::by_name(variant_name).unwrap_or_else(|e| panic!("{e}"));
        let pos = AnyPosition::from_fen(v, fen).unwrap_or_else(|e| panic!("{variant_name} '{fen}': {e}"));
        Probe { fen: pos.to_fen(), hash: pos.hash(), pos }
    }

    fn refuse(&mut self, text: &str, syntax: bool) {
        let e = match self.pos.play_text(text) {
            Ok(()) => panic!("'{text}' was played in '{}', giving '{}'", self.fen, self.pos.to_fen()),
            Err(e) => e,
        };
        let kind_ok = match &e {
            MoveParseError::Syntax(t) | MoveParseError::Illegal(t) => {
                assert_eq!(t, text.trim(), "'{text}': the error carries '{t}'");
                matches!(e, MoveParseError::Syntax(_)) == syntax
            }
            // Its own kind, whichever the text would otherwise be: the square is named.
            MoveParseError::OffBoard { text: t, square, .. } => {
                assert_eq!(t, text.trim(), "'{text}': the error carries '{t}'");
                t.contains(square.as_str())
            }
        };
        let want = if syntax { "Syntax" } else { "Illegal" };
        assert!(kind_ok, "'{text}' in '{}': expected {want}, got {e:?}", self.fen);
        assert!(e.to_string().contains(text.trim()), "'{e}' does not name '{text}'");
        assert_eq!(self.pos.hash(), self.hash, "'{text}' changed the hash of '{}'", self.fen);
        assert_eq!(self.pos.to_fen(), self.fen, "'{text}' changed the position");
        // The same text through the non-mutating path gives the same answer.
        assert_eq!(self.pos.san_of(text), Err(e), "san_of('{text}') disagrees with play_text");
    }

    fn accept(&self, text: &str) {
        let mut p = self.pos.clone();
        if let Err(e) = p.play_text(text) {
            panic!("'{text}' refused in '{}': {e}", self.fen);
        }
        assert_ne!(p.hash(), self.hash, "'{text}' did not change the hash");
    }
}

#[test]
fn malformed_and_illegal_moves_leave_the_position_alone() {
    let mut p = Probe::new("chess", START);
    p.accept("e2e4");
    p.accept(" e2e4 ");
    p.refuse("e2e5", false); // well formed, a pawn cannot go there
    p.refuse("e2e2", false); // null move
    p.refuse("e3e4", false); // no piece on e3
    p.refuse("e7e5", false); // Black's pawn, White to move
    p.refuse("e1g1", false); // castling through pieces
    p.refuse("e1h1", false);
    p.refuse("O-O", false);
    p.refuse("O-O-O", false);
    p.refuse("e9e8", true); // off the board
    p.refuse("i2i4", true);
    p.refuse("zz", true);
    p.refuse("", true);
    p.refuse("   ", true);
    p.refuse("e2", true);
    p.refuse("e2-e4", true);
    p.refuse("Nf3", true);
    p.refuse("e2e4qq", true);
    p.refuse("e1f1,xx", true); // two-leg castling with a bad leg
    p.refuse("C@e4", false); // chess has no chancellor (and no drops)
    p.refuse("@e4", true);
    p.refuse("CC@e4", true);
    p.refuse("C@e9", true);
    p.refuse("e2e4x", false); // a promotion suffix that is no piece
    p.refuse("e2e4q", false); // a promotion suffix on a non-promoting move

    // Promotion to a king, to nothing, to a pawn; the plain push without a piece.
    let mut p = Probe::new("chess", "k7/4P3/8/8/8/8/8/4K3 w - - 0 1");
    p.accept("e7e8q");
    p.accept("e7e8n");
    p.refuse("e7e8k", false);
    p.refuse("e7e8p", false);
    p.refuse("e7e8x", false);
    p.refuse("e7e8", false);
    p.refuse("e7e8c", false); // chancellor: not a piece of chess

    // Castling that is not legal: through check (f1 attacked), out of check, without the right.
    let mut p = Probe::new("chess", "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1");
    p.refuse("e1g1", false); // the rook on f2 attacks f1
    p.refuse("O-O", false);
    p.accept("e1c1");
    p.accept("O-O-O");
    let mut p = Probe::new("chess", "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
    p.refuse("e1g1", false);
    p.refuse("e1h1", false);
    p.accept("e1c1");
    let mut p = Probe::new("chess", "4k3/4r3/8/8/8/8/8/R3K2R w KQ - 0 1");
    p.refuse("e1g1", false);
    p.refuse("e1c1", false);
    p.refuse("e1f1,h1e1", false); // two-leg form, still castling out of check

    // D-Chess has no castling at all.
    let mut p = Probe::new("dchess", "4k3/8/8/8/8/8/8/R3K2R w - - 0 1");
    p.refuse("O-O", false);
    p.refuse("e1g1", false);

    // Drops with an empty hand, of a piece not held, outside the board, onto a piece.
    let mut p = Probe::new("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1");
    p.refuse("C@e4", false);
    p.refuse("A@e4", false);
    let mut p = Probe::new("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1");
    p.accept("C@e4");
    p.refuse("A@e4", false); // holds a chancellor, not an archbishop
    p.refuse("C@e2", false); // occupied
    p.refuse("C@e9", true);
    p.refuse("K@e4", false);
    p.refuse("X@e4", false);
    p.refuse("C@", true);
    // Black's chancellor in hand does not let White drop two.
    let mut p = Probe::new("vdchess", "4k3/8/8/8/8/8/8/4K3[c] w - - 0 1");
    p.refuse("C@e4", false);
}

/// Read `fen` with both widths; an accepted FEN must read back from its own output, have a
/// consistent hash and generate moves whose texts parse. Returns whether it was accepted.
fn read_anything(variant_name: &str, fen: &str) -> bool {
    let v = variant::by_name(variant_name).unwrap_or_else(|e| panic!("{e}"));
    let narrow = Position::from_fen(compiled::<u64>(v), fen);
    let wide = Position::from_fen(compiled::<u128>(v), fen);
    match (narrow, wide) {
        (Err(a), Err(b)) => {
            assert_eq!(a, b, "{variant_name} '{fen}': the widths give different errors");
            false
        }
        (Ok(p), Ok(w)) => {
            let out = p.to_fen();
            assert_eq!(w.to_fen(), out, "{variant_name} '{fen}': the widths read it differently");
            assert_eq!(p.hash(), p.hash_from_scratch(), "{variant_name} '{fen}': hash");
            let back = Position::from_fen(compiled::<u64>(v), &out)
                .unwrap_or_else(|e| panic!("{variant_name} '{fen}' reads as '{out}', which does not read back: {e}"));
            assert_eq!(back.to_fen(), out, "{variant_name} '{fen}' -> '{out}' -> '{}'", back.to_fen());
            assert_eq!(back.hash(), p.hash(), "{variant_name} '{fen}' -> '{out}': hash changes");
            assert_eq!(p.count_legal(), w.count_legal(), "{variant_name} '{fen}': widths count moves differently");
            for &m in p.legal_moves().iter() {
                assert_eq!(p.parse_move(&p.move_to_uci(m, false)), Ok(m), "{variant_name} '{fen}': {m:?}");
                let mut c = p.clone();
                c.play(m);
                assert_eq!(c.hash(), c.hash_from_scratch(), "{variant_name} '{fen}' after {m:?}: hash");
            }
            true
        }
        (a, b) => panic!("{variant_name} '{fen}': the widths disagree: {:?} vs {:?}", a.err(), b.err()),
    }
}

#[test]
fn mutated_fens_are_refused_or_read_consistently() {
    let seeds: [(&str, &str); 6] = [
        ("chess", START),
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        ("chess", "rnbqkbnr/pppp1ppp/8/8/4pP2/8/PPPPP1PP/RNBQKBNR b KQkq f3 0 3"),
        ("chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
        ("displacement", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        ("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1"),
    ];
    let alphabet: Vec<char> = "pnbrqkacPNBRQKAC0123456789/[]- wbBWKQkqhHx@e".chars().collect();
    let mut rng = SplitMix64::new(0xbad_1d7u64);
    let (mut accepted, mut refused) = (0, 0);
    for round in 0..3000 {
        let (v, seed) = seeds[round % seeds.len()];
        let mut chars: Vec<char> = seed.chars().collect();
        for _ in 0..1 + rng.index(3) {
            let i = rng.index(chars.len());
            match rng.index(3) {
                0 => chars[i] = alphabet[rng.index(alphabet.len())],
                1 => chars.insert(i, alphabet[rng.index(alphabet.len())]),
                _ => {
                    chars.remove(i);
                }
            }
        }
        let fen: String = chars.into_iter().collect();
        if read_anything(v, &fen) {
            accepted += 1;
        } else {
            refused += 1;
        }
    }
    println!("{accepted} mutated FENs accepted, {refused} refused");
    assert!(accepted > 100 && refused > 100, "{accepted} accepted, {refused} refused");
}

#[test]
fn random_move_texts_never_change_the_position_on_error() {
    let alphabet: Vec<char> = "abcdefghijz0123456789@,-OQRBNKCAqrbnkca ".chars().collect();
    let mut rng = SplitMix64::new(0x0dd_5eed);
    for (v, fen) in [
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        ("chess9", "rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1"),
        ("vdchess", "r3k2r/1P6/8/8/8/8/8/R3K2R[Aa] w KQkq - 0 1"),
    ] {
        let var = variant::by_name(v).unwrap_or_else(|e| panic!("{e}"));
        let start = AnyPosition::from_fen(var, fen).unwrap_or_else(|e| panic!("{v} '{fen}': {e}"));
        // Every position a legal move leads to: an accepted text must lead to one of them.
        let children: Vec<String> = start
            .legal_moves_uci(true)
            .iter()
            .map(|m| {
                let mut c = start.clone();
                c.play_text(m).unwrap_or_else(|e| panic!("{v}: own move text {m}: {e}"));
                c.to_fen()
            })
            .collect();
        for _ in 0..3000 {
            let len = rng.index(7);
            let text: String = (0..len).map(|_| alphabet[rng.index(alphabet.len())]).collect();
            let mut p = start.clone();
            match p.play_text(&text) {
                Ok(()) => assert!(
                    children.contains(&p.to_fen()),
                    "{v}: '{text}' played in '{fen}' gives '{}', which no legal move gives",
                    p.to_fen()
                ),
                Err(_) => {
                    assert_eq!(p.hash(), start.hash(), "{v}: '{text}' changed the hash");
                    assert_eq!(p.to_fen(), start.to_fen(), "{v}: '{text}' changed the position");
                }
            }
        }
    }
}
