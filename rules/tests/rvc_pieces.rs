//! The pieces of Random Variant Chess (`rvc`, `rvcstar`; rules.md section 4(b)) through the public
//! API, with 128-bit bitboards (the board is 12x8):
//! (a) how many squares each piece reaches on an otherwise empty board, per modality, from a
//!     centre square and from a corner (numbers worked out by hand from the piece definitions);
//! (b) checks and pins by hoppers (Cannon, Vao, Leo, Grasshopper), by the Griffin and the
//!     Rhinoceros, and the divergent pieces (Tiger, Archer, Sprinter, Walker), asserted through
//!     legal move lists of small positions;
//! (c) four-square castling for both colours, its attacked-square rule, Cannons as castling
//!     rooks, Princesses refused as castling rooks;
//! (d) promotion to exactly the non-royal, non-pawn types of the position read from FEN.

use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::{Color, Square};
use menagerie_rules::moves::MoveKind;
use menagerie_rules::position::{FenField, Position};
use menagerie_rules::rules::{compiled, Rules};
use menagerie_rules::variant::{self, Variant};
use std::collections::BTreeSet;

type Bb = u128;

fn variant(name: &str) -> &'static Variant {
    variant::by_name(name).unwrap_or_else(|e| panic!("{e}"))
}

fn rules(name: &str) -> &'static Rules<Bb> {
    compiled::<Bb>(variant(name))
}

fn sq(r: &Rules<Bb>, name: &str) -> Square {
    r.geometry.parse_square(name).unwrap_or_else(|| panic!("bad square {name}"))
}

/// A FEN of the 12x8 board from a list such as `"Kg1 og8 kl8"` (letter, then square; upper case
/// White), with the side to move and castling field given.
fn fen_of(pieces: &str, side: char, castling: &str) -> String {
    let mut board = [[None::<char>; 12]; 8];
    for token in pieces.split_whitespace() {
        let mut chars = token.chars();
        let letter = chars.next().unwrap_or_else(|| panic!("empty token"));
        let square: String = chars.collect();
        let file = (square.as_bytes()[0] - b'a') as usize;
        let rank: usize = square[1..].parse().unwrap_or_else(|_| panic!("bad square in '{token}'"));
        assert!(file < 12 && (1..=8).contains(&rank), "bad square in '{token}'");
        assert!(board[rank - 1][file].is_none(), "two pieces on {square} in '{pieces}'");
        board[rank - 1][file] = Some(letter);
    }
    let mut rows = Vec::new();
    for rank in (0..8).rev() {
        let mut row = String::new();
        let mut empty = 0;
        for cell in board[rank] {
            match cell {
                None => empty += 1,
                Some(c) => {
                    if empty > 0 {
                        row.push_str(&empty.to_string());
                        empty = 0;
                    }
                    row.push(c);
                }
            }
        }
        if empty > 0 {
            row.push_str(&empty.to_string());
        }
        rows.push(row);
    }
    format!("{} {side} {castling} - 0 1", rows.join("/"))
}

fn load(name: &str, fen: &str) -> Position<Bb> {
    Position::from_fen(rules(name), fen).unwrap_or_else(|e| panic!("{name}: '{fen}' does not load: {e}"))
}

/// A position of `rvc` (or `rvcstar`) from a piece list, White to move, no castling rights.
fn white(name: &str, pieces: &str) -> Position<Bb> {
    load(name, &fen_of(pieces, 'w', "-"))
}

/// Every legal move in coordinate notation (castling as the king's destination).
fn legal(p: &Position<Bb>) -> BTreeSet<String> {
    p.legal_moves().iter().map(|&m| p.move_to_uci(m, false)).collect()
}

/// The legal moves that start on `from`.
fn legal_from(p: &Position<Bb>, from: &str) -> BTreeSet<String> {
    legal(p)
        .into_iter()
        .filter(|m| m.starts_with(from) && !m[from.len()..].starts_with(|c: char| c.is_ascii_digit()))
        .collect()
}

fn set(moves: &[&str]) -> BTreeSet<String> {
    moves.iter().map(|s| s.to_string()).collect()
}

#[track_caller]
fn assert_legal(p: &Position<Bb>, uci: &str) {
    let l = legal(p);
    assert!(l.contains(uci), "'{}': {uci} should be legal; legal moves {l:?}", p.to_fen());
}

#[track_caller]
fn assert_illegal(p: &Position<Bb>, uci: &str) {
    let l = legal(p);
    assert!(!l.contains(uci), "'{}': {uci} should be illegal; legal moves {l:?}", p.to_fen());
}

#[track_caller]
fn assert_check(p: &Position<Bb>, expected: bool) {
    assert_eq!(p.in_check(), expected, "'{}': in_check should be {expected}", p.to_fen());
}

// ---------------------------------------------------------------------------------------------
// (a) Reach on an otherwise empty board
// ---------------------------------------------------------------------------------------------

/// Squares a piece of `letter` and `color` on `from` reaches in the quiet and the capture
/// modality, with the occupancy `occ` (the piece's own square is added).
fn reach(name: &str, letter: char, color: Color, from: &str, occ: &[&str]) -> (u32, u32) {
    let v = variant(name);
    let r = rules(name);
    let kind = v.kind_of_letter(letter).unwrap_or_else(|| panic!("{name}: no piece {letter}"));
    let s = sq(r, from);
    let mut o = Bb::square(s);
    for other in occ {
        o |= Bb::square(sq(r, other));
    }
    let t = r.kind_tables(kind, color);
    let (quiet, capture) = (r.reach(&t.quiet, s, o), r.reach(&t.capture, s, o));
    for (what, b) in [("quiet", quiet), ("capture", capture)] {
        assert!((b & !r.board).is_empty(), "{name} {letter} on {from}: {what} reach leaves the board");
        assert!(!b.has(s), "{name} {letter} on {from}: {what} reach holds its own square");
    }
    (quiet.count(), capture.count())
}

/// The colour-mirrored square name (same file, rank 9 - r).
fn mirror(square: &str) -> String {
    let rank: u32 = square[1..].parse().unwrap_or(0);
    format!("{}{}", &square[..1], 9 - rank)
}

/// One piece: letter, name, then (quiet, capture) from f4 and from a1 on an empty board.
struct Row {
    letter: char,
    name: &'static str,
    f4: (u32, u32),
    a1: (u32, u32),
}

const fn row(letter: char, name: &'static str, f4: (u32, u32), a1: (u32, u32)) -> Row {
    Row { letter, name, f4, a1 }
}

// f4 is file 5 (of 0..11), rank 3 (of 0..7): 5 files to the left, 6 to the right, 3 ranks
// below, 4 above. So a rook sees 5+6+3+4 = 18 squares, a bishop min(6,4)+min(5,4)+min(6,3)+
// min(5,3) = 4+4+3+3 = 14; from a1 a rook sees 11+7 = 18 and a bishop 7 (to h8). From f4 a leap
// of at most 5 files and 3 ranks either way stays on the board; one of 4 ranks only upward.
const ROWS: &[Row] = &[
    // King: the 8 neighbours; 3 in the corner.
    row('K', "king", (8, 8), (3, 3)),
    // Queen: rook 18 + bishop 14 = 32; in the corner 18 + 7 = 25.
    row('Q', "queen", (32, 32), (25, 25)),
    // Rook: 18 from both squares (see above).
    row('R', "rook", (18, 18), (18, 18)),
    // Bishop: 14; 7 from a1.
    row('B', "bishop", (14, 14), (7, 7)),
    // Knight: all 8 (2,1) leaps fit; from a1 only b3 and c2.
    row('N', "knight", (8, 8), (2, 2)),
    // Man (non-royal king): as the King.
    row('M', "man", (8, 8), (3, 3)),
    // Fers: 4 diagonal steps; 1 (b2) from a1.
    row('F', "fers", (4, 4), (1, 1)),
    // Wazir: 4 orthogonal steps; 2 (b1, a2) from a1.
    row('W', "wazir", (4, 4), (2, 2)),
    // Alfil (2,2): d2 h2 d6 h6; c3 from a1.
    row('A', "alfil", (4, 4), (1, 1)),
    // Dabbaba (2,0): d4 h4 f2 f6; c1 and a3 from a1.
    row('D', "dabbaba", (4, 4), (2, 2)),
    // Camel (3,1): (1,3) leaps e1 g1 e7 g7 and (3,1) leaps c3 c5 i3 i5 = 8; b4 and d2 from a1.
    row('C', "camel", (8, 8), (2, 2)),
    // Zebra (3,2): (2,3) leaps d1 h1 d7 h7 and (3,2) leaps c2 c6 i2 i6 = 8; c4 and d3 from a1.
    row('Z', "zebra", (8, 8), (2, 2)),
    // Giraffe (4,1): (1,4) only upward, e8 g8 (rank 4-4 is off), plus (4,1) b3 b5 j3 j5 = 6;
    // b5 and e2 from a1.
    row('G', "giraffe", (6, 6), (2, 2)),
    // Tiger mBcN: moves as the bishop (14; 7), captures as the knight (8; 2).
    row('T', "tiger", (14, 8), (7, 2)),
    // Walker mWcF: moves as the wazir (4; 2), captures as the fers (4; 1).
    row('U', "walker", (4, 4), (2, 1)),
    // Rhinoceros: the 32 squares of the rules.md diagram (all within 3 files of f and 3 ranks of
    // 4, so on the board); from a1 the diagram's quarter x,y >= 0 (b1 d1, a2 b2 c2 d2, b3 c3,
    // a4 b4 = 10), each reached by a path that stays on the board (e.g. a4 by a2-b3-a4).
    row('H', "rhinoceros", (32, 32), (10, 10)),
    // Griffin: 4 diagonal steps, then outward slides: from g5 east 5 + north 3, from e5 west 4 +
    // north 3, from g3 east 5 + south 2, from e3 west 4 + south 2: 4 + 28 = 32. From a1: b2,
    // then c2..l2 (10) and b3..b8 (6): 17.
    row('Y', "griffin", (32, 32), (17, 17)),
    // Empress RN: 18 + 8 = 26; 18 + 2 = 20.
    row('E', "empress", (26, 26), (20, 20)),
    // Princess BN: 14 + 8 = 22; 7 + 2 = 9.
    row('I', "princess", (22, 22), (9, 9)),
    // Cannon mRcpR: moves as the rook (18; 18); captures need a screen: none on an empty board.
    row('O', "cannon", (18, 0), (18, 0)),
    // Leo mQcpQ: moves as the queen (32; 25); no screen, no capture.
    row('L', "leo", (32, 0), (25, 0)),
    // Vao mBcpB: moves as the bishop (14; 7); no screen, no capture.
    row('V', "vao", (14, 0), (7, 0)),
    // Grasshopper gQ: lands just beyond the first piece on a line; no piece, no move at all.
    row('J', "grasshopper", (0, 0), (0, 0)),
    // Archer mKcN: moves as the man (8; 3), captures as the knight (8; 2).
    row('X', "archer", (8, 8), (3, 2)),
    // Sprinter m(1,4)cK: moves as the giraffe (6; 2), captures as the man (8; 3).
    row('S', "sprinter", (6, 8), (2, 3)),
];

#[test]
fn every_rvc_piece_reaches_the_hand_counted_squares_on_an_empty_board() {
    let v = variant("rvc");
    let mut seen = BTreeSet::new();
    for r in ROWS {
        let kind = v.kind_of_letter(r.letter).unwrap_or_else(|| panic!("rvc has no {}", r.letter));
        assert_eq!(v.pieces[kind].name, r.name, "letter {}", r.letter);
        seen.insert(kind);
        for (from, expected) in [("f4", r.f4), ("a1", r.a1)] {
            let got = reach("rvc", r.letter, Color::White, from, &[]);
            assert_eq!(got, expected, "{} ({}) on {from}: (quiet, capture) reach", r.name, r.letter);
            // Black's piece on the mirrored square reaches as many.
            let m = mirror(from);
            let black = reach("rvc", r.letter, Color::Black, &m, &[]);
            assert_eq!(black, expected, "black {} ({}) on {m}: (quiet, capture) reach", r.name, r.letter);
        }
    }
    // Pawn fmWfcF: one step forward (f5), captures forward-diagonally (e5 g5); the double step
    // is a separate table. From a1 (a square a pawn never stands on): a2, and b2.
    assert_eq!(reach("rvc", 'P', Color::White, "f4", &[]), (1, 2));
    assert_eq!(reach("rvc", 'P', Color::White, "a1", &[]), (1, 1));
    assert_eq!(reach("rvc", 'P', Color::Black, "f5", &[]), (1, 2));
    assert_eq!(reach("rvc", 'P', Color::Black, "a8", &[]), (1, 1));
    seen.insert(v.kind_of_letter('P').unwrap_or(usize::MAX));
    // Every piece type of rvc is in the table (27 types less the Star, which is rvcstar's J).
    assert_eq!(seen.len(), v.pieces.len(), "pieces of rvc not covered: {:?}", v.pieces);
}

#[test]
fn the_star_of_rvcstar_reaches_wazir_plus_alfil_squares() {
    let v = variant("rvcstar");
    let kind = v.kind_of_letter('J').unwrap_or_else(|| panic!("rvcstar has no J"));
    assert_eq!(v.pieces[kind].name, "star");
    // Star WA: 4 wazir steps + 4 alfil leaps (d2 h2 d6 h6) = 8; from a1 b1 a2 + c3 = 3.
    assert_eq!(reach("rvcstar", 'J', Color::White, "f4", &[]), (8, 8));
    assert_eq!(reach("rvcstar", 'J', Color::White, "a1", &[]), (3, 3));
    assert_eq!(reach("rvcstar", 'J', Color::Black, "f5", &[]), (8, 8));
    assert_eq!(reach("rvcstar", 'J', Color::Black, "a8", &[]), (3, 3));
    // The Star jumps: a ring of pieces around it does not stop the alfil leaps.
    let ring = ["e3", "e4", "e5", "f3", "f5", "g3", "g4", "g5"];
    assert_eq!(reach("rvcstar", 'J', Color::White, "f4", &ring), (8, 8));
    // rvc's J is still the Grasshopper.
    assert_eq!(variant("rvc").pieces[variant("rvc").kind_of_letter('J').unwrap_or(0)].name, "grasshopper");
}

/// Every other square occupied, or a few screens: the hoppers, the Griffin and the Rhinoceros.
/// `reach` includes the first piece met (a capture target); the move generator masks it.
#[test]
fn hoppers_and_path_pieces_reach_as_counted_with_pieces_in_the_way() {
    let r = rules("rvc");
    let all: Vec<String> = r.geometry.all_squares().map(|s| r.geometry.square_name(s)).collect();
    let crowd = |from: &str| -> Vec<&str> { all.iter().map(|s| s.as_str()).filter(|s| *s != from).collect() };
    // Crowded board, capture modality (quiet for the Grasshopper is the same).
    // Cannon: over each orthogonal neighbour to the next square: h4 d4 f6 f2; c1 a3 from a1.
    assert_eq!(reach("rvc", 'O', Color::White, "f4", &crowd("f4")).1, 4);
    assert_eq!(reach("rvc", 'O', Color::White, "a1", &crowd("a1")).1, 2);
    // Vao: over each diagonal neighbour: d2 h2 d6 h6; c3 from a1.
    assert_eq!(reach("rvc", 'V', Color::White, "f4", &crowd("f4")).1, 4);
    assert_eq!(reach("rvc", 'V', Color::White, "a1", &crowd("a1")).1, 1);
    // Leo: both: 8; c1 a3 c3 from a1.
    assert_eq!(reach("rvc", 'L', Color::White, "f4", &crowd("f4")).1, 8);
    assert_eq!(reach("rvc", 'L', Color::White, "a1", &crowd("a1")).1, 3);
    // Grasshopper: just beyond each of the 8 neighbours; c1 a3 c3 from a1. Both modalities.
    assert_eq!(reach("rvc", 'J', Color::White, "f4", &crowd("f4")), (8, 8));
    assert_eq!(reach("rvc", 'J', Color::White, "a1", &crowd("a1")), (3, 3));
    // Griffin: the diagonal squares are occupied, so only they: 4; 1 (b2).
    assert_eq!(reach("rvc", 'Y', Color::White, "f4", &crowd("f4")), (4, 4));
    assert_eq!(reach("rvc", 'Y', Color::White, "a1", &crowd("a1")), (1, 1));
    // Rhinoceros: every path stops on its first square: the 8 neighbours; 3.
    assert_eq!(reach("rvc", 'H', Color::White, "f4", &crowd("f4")), (8, 8));
    assert_eq!(reach("rvc", 'H', Color::White, "a1", &crowd("a1")), (3, 3));

    // One screen on i4 (east of f4): the Cannon and Leo capture-reach j4 k4 l4 (3), their quiet
    // reach loses j4 k4 l4 (18 - 3 = 15; 32 - 3 = 29); the Grasshopper lands on j4 only.
    assert_eq!(reach("rvc", 'O', Color::White, "f4", &["i4"]), (15, 3));
    assert_eq!(reach("rvc", 'L', Color::White, "f4", &["i4"]), (29, 3));
    assert_eq!(reach("rvc", 'J', Color::White, "f4", &["i4"]), (1, 1));
    // One screen on h6 (north-east of f4): the Vao captures beyond it on i7 and j8 (2) and moves
    // to 14 - 2 = 12 squares (i7 and j8 are lost).
    assert_eq!(reach("rvc", 'V', Color::White, "f4", &["h6"]), (12, 2));
    // A screen on the Griffin's diagonal square g5 stops both outward slides from there:
    // 32 - 5 (h5..l5) - 3 (g6..g8) = 24.
    assert_eq!(reach("rvc", 'Y', Color::White, "f4", &["g5"]), (24, 24));
    // A piece on g6 (not a diagonal square) only cuts the northward slide from g5 at g6: 32 - 2.
    assert_eq!(reach("rvc", 'Y', Color::White, "f4", &["g6"]), (30, 30));
}

// ---------------------------------------------------------------------------------------------
// (b) Checks and pins
// ---------------------------------------------------------------------------------------------

#[test]
fn cannon_checks_over_exactly_one_screen() {
    // No screen between the Cannon on g8 and the king on g1: no check, and g2 is safe.
    let p = white("rvc", "Kg1 og8 kl8");
    assert_check(&p, false);
    assert_legal(&p, "g1g2");
    // One screen (White's Wazir on g4): check.
    let p = white("rvc", "Kg1 Wg4 Ra3 og8 kl8");
    assert_check(&p, true);
    // Moving the sole screen off the line is legal; moving it along the line is not.
    assert_legal(&p, "g4f4");
    assert_legal(&p, "g4h4");
    assert_illegal(&p, "g4g3");
    assert_illegal(&p, "g4g5");
    // A second screen between the screen and the king blocks the check; elsewhere not.
    assert_legal(&p, "a3g3");
    assert_illegal(&p, "a3b3");
    assert_illegal(&p, "a3h3");
    // The king may not stay on the file behind the screen.
    assert_illegal(&p, "g1g2");
    assert_legal(&p, "g1f1");
    assert_legal(&p, "g1h2");
    // Two screens: no check.
    let p = white("rvc", "Kg1 Wg4 Ng6 og8 kl8");
    assert_check(&p, false);
    // Either of two screens is pinned: leaving makes the other the sole screen.
    assert_eq!(legal_from(&p, "g6"), set(&[]), "'{}'", p.to_fen());
    assert_illegal(&p, "g4f4");
    assert_illegal(&p, "g4h4");
    // Moving a screen along the line keeps two screens.
    assert_legal(&p, "g4g3");
    assert_legal(&p, "g4g5");
    assert_legal(&p, "g1g2");
}

#[test]
fn cannon_screens_of_either_colour() {
    // No screen yet: putting a piece on the line as the sole screen exposes the own king.
    let p = white("rvc", "Kg1 Ra3 og8 kl8");
    assert_check(&p, false);
    assert_illegal(&p, "a3g3");
    assert_legal(&p, "a3b3");
    assert_legal(&p, "a3a7");
    // A Black screen and a White piece behind it: the White piece is the second screen and
    // may move along the file but not off it, nor capture the Black screen (it would be the sole
    // screen then).
    let p = white("rvc", "Kg1 Rg3 pg6 og8 kl8");
    assert_check(&p, false);
    assert_eq!(legal_from(&p, "g3"), set(&["g3g2", "g3g4", "g3g5"]), "'{}'", p.to_fen());
    // Black's pawn is the sole screen: check. Capturing it puts the capturer on the line as the
    // sole screen: still check.
    let p = white("rvc", "Kg1 Ra5 pg5 og8 kl8");
    assert_check(&p, true);
    assert_illegal(&p, "a5g5");
    assert_legal(&p, "g1f1");
    // The king may not step behind a Black screen of a Black Cannon: from e3, d4 and e4 are on
    // rank 4 beyond the pawn c4, f4 too (the king leaves e3, which is off that rank); d3 is
    // the pawn's. d2 e2 f2 f3 remain.
    let p = white("rvc", "Ke3 oa4 pc4 kl8");
    assert_check(&p, false);
    assert_eq!(legal_from(&p, "e3"), set(&["e3d2", "e3e2", "e3f2", "e3f3"]), "'{}'", p.to_fen());
}

#[test]
fn vao_checks_over_exactly_one_diagonal_screen() {
    // Vao k8, king d1: the diagonal k8-j7-i6-h5-g4-f3-e2-d1.
    let p = white("rvc", "Kd1 vk8 kl7");
    assert_check(&p, false);
    assert_legal(&p, "d1e2");
    // One screen (Wazir g4): check; the Wazir may leave the diagonal (all its moves do).
    let p = white("rvc", "Kd1 Wg4 vk8 kl7");
    assert_check(&p, true);
    assert_eq!(legal_from(&p, "g4"), set(&["g4f4", "g4g3", "g4g5", "g4h4"]), "'{}'", p.to_fen());
    assert_illegal(&p, "d1e2");
    assert_legal(&p, "d1c1");
    // No screen: a Rook may not become the sole screen on f3.
    let p = white("rvc", "Kd1 Rf1 vk8 kl7");
    assert_illegal(&p, "f1f3");
    assert_legal(&p, "f1f2");
    assert_legal(&p, "f1f4");
    // Two screens (White Knight f3, Black pawn h5): the Knight is pinned (every Knight move
    // leaves the diagonal), and the king may step onto e2.
    let p = white("rvc", "Kd1 Nf3 ph5 vk8 kl7");
    assert_check(&p, false);
    assert_eq!(legal_from(&p, "f3"), set(&[]), "'{}'", p.to_fen());
    assert_legal(&p, "d1e2");
}

#[test]
fn leo_checks_over_one_screen_on_queen_lines() {
    // Without screens the Leo attacks nothing: the king on e1 may go anywhere near it.
    let p = white("rvc", "Ke1 ld4 kl8");
    assert_eq!(legal_from(&p, "e1"), set(&["e1d1", "e1d2", "e1e2", "e1f1", "e1f2"]), "'{}'", p.to_fen());
    // Screens on d2 (file) and e3 (diagonal d4-e3-f2): d1 and f2 are attacked.
    let p = white("rvc", "Ke1 Wd2 We3 ld4 kl8");
    assert_check(&p, false);
    assert_eq!(legal_from(&p, "e1"), set(&["e1e2", "e1f1"]), "'{}'", p.to_fen());
    // A diagonal check over f2 (d4-e3-f2-g1 with the screen on f2); the screen may leave.
    let p = white("rvc", "Kg1 Wf2 ld4 kl8");
    assert_check(&p, true);
    assert_legal(&p, "f2f3");
    assert_legal(&p, "f2e2");
    // An orthogonal check over a screen (d4-d3-d2-d1).
    let p = white("rvc", "Kd1 Wd3 ld4 kl8");
    assert_check(&p, true);
    let p = white("rvc", "Kd1 Wd3 Wd2 ld4 kl8");
    assert_check(&p, false);
}

#[test]
fn grasshopper_attacks_the_square_just_beyond_the_first_piece() {
    // Pawn g2 next to the king g1: the Grasshopper g8 lands on g1, check. Pushing the pawn
    // moves the landing square to g2 or g3; every king step is safe.
    let p = white("rvc", "Kg1 Pg2 jg8 kl8");
    assert_check(&p, true);
    assert_eq!(legal(&p), set(&["g2g3", "g2g4", "g1f1", "g1h1", "g1f2", "g1h2"]), "'{}'", p.to_fen());
    // Pawn g3: the landing square is g2: no check, but the king may not step there.
    let p = white("rvc", "Kg1 Pg3 jg8 kl8");
    assert_check(&p, false);
    assert_illegal(&p, "g1g2");
    assert_legal(&p, "g1h1");
    // On a rank: Grasshopper a4, Knight c4: d4 is attacked, e4 (two beyond) is not.
    let p = white("rvc", "Ke3 Nc4 ja4 kl8");
    assert_illegal(&p, "e3d4");
    assert_legal(&p, "e3e4");
    assert_legal(&p, "e3d3");
}

#[test]
fn griffin_steps_diagonally_then_slides_outward() {
    // Griffin c6: its diagonal squares b5 d5, and the outward slides b4..b1 (from b5 south) and
    // d4..d1 (from d5 south). The king on c4 may go only to c3 and c5.
    let p = white("rvc", "Kc4 yc6 kl8");
    assert_check(&p, false);
    assert_eq!(legal_from(&p, "c4"), set(&["c4c3", "c4c5"]), "'{}'", p.to_fen());
    // Check along the slide c6-d5-d4-d3-d2-d1; a piece on the diagonal square d5 or on the
    // slide (d3) blocks it.
    assert_check(&white("rvc", "Kd1 yc6 kl8"), true);
    assert_check(&white("rvc", "Kd1 Pd5 yc6 kl8"), false);
    assert_check(&white("rvc", "Kd1 Wd3 yc6 kl8"), false);
    // Along the diagonal beyond the first step the Griffin does not attack: e4.
    assert_check(&white("rvc", "Ke4 yc6 kl8"), false);
    // In check: interposing on the diagonal square d5 is legal, on b5 (the other one) not.
    let p = white("rvc", "Kd1 Ra5 yc6 kl8");
    assert_check(&p, true);
    assert_legal(&p, "a5d5");
    assert_illegal(&p, "a5b5");
    assert_illegal(&p, "d1d2");
    assert_legal(&p, "d1e1");
}

#[test]
fn rhinoceros_paths_are_blocked_by_pieces() {
    // Rhinoceros e4, king f7 (offset (1,3)): two paths, e4-f4-g5-g6-f7 and e4-d5-d6-e7-f7.
    let p = white("rvc", "Kf7 he4 kl1");
    assert_check(&p, true);
    // One path blocked (g6): still check through the other.
    let p = white("rvc", "Kf7 Wg6 Ra6 he4 kl1");
    assert_check(&p, true);
    // Blocking the second path (on d6) is legal; e6 and c6 are on no path.
    assert_legal(&p, "a6d6");
    assert_illegal(&p, "a6e6");
    assert_illegal(&p, "a6c6");
    // Both paths blocked: no check.
    assert_check(&white("rvc", "Kf7 Wg6 Wd6 he4 kl1"), false);
}

#[test]
fn divergent_pieces_move_one_way_and_capture_another() {
    // Tiger d4 moves as a bishop, captures as a knight: the Black Wazir on f6 (diagonal) can be
    // neither captured nor passed; the one on e6 (knight) is captured; empty knight squares are
    // not reached.
    let p = white("rvc", "Ka1 Td4 we6 wf6 kl8");
    assert_eq!(
        legal_from(&p, "d4"),
        set(&["d4e5", "d4c5", "d4b6", "d4a7", "d4e3", "d4f2", "d4g1", "d4c3", "d4b2", "d4e6"]),
        "'{}'",
        p.to_fen()
    );
    // A Tiger checks only by a knight jump: e6 is in check, e7 and g7 (its diagonal) are not,
    // and the king may step onto the diagonal (f6) but not onto e6.
    assert_check(&white("rvc", "Ke6 td4 kl8"), true);
    assert_check(&white("rvc", "Kg7 td4 kl8"), false);
    let p = white("rvc", "Ke7 td4 kl8");
    assert_check(&p, false);
    assert_legal(&p, "e7f6");
    assert_illegal(&p, "e7e6");

    // Archer d4 moves as a man, captures as a knight: e5 (adjacent, Black) not capturable, f5
    // (knight, Black) captured, b5 (empty knight square) not reached.
    let p = white("rvc", "Ka1 Xd4 we5 wf5 kl8");
    assert_eq!(
        legal_from(&p, "d4"),
        set(&["d4c3", "d4c4", "d4c5", "d4d3", "d4d5", "d4e3", "d4e4", "d4f5"]),
        "'{}'",
        p.to_fen()
    );
    assert_check(&white("rvc", "Kf5 xd4 kl8"), true);
    assert_check(&white("rvc", "Ke5 xd4 kl8"), false);

    // Sprinter d4 moves as a giraffe (c8 e8 h3 h5), captures as a man: e5 (adjacent, Black) is
    // captured, h5 (giraffe square, Black) is not, empty adjacent squares are not reached.
    let p = white("rvc", "Ka1 Sd4 we5 wh5 kl8");
    assert_eq!(legal_from(&p, "d4"), set(&["d4c8", "d4e8", "d4h3", "d4e5"]), "'{}'", p.to_fen());
    assert_check(&white("rvc", "Ke4 sd4 kl8"), true);
    assert_check(&white("rvc", "Kh5 sd4 kl8"), false);

    // Walker d4 moves one step orthogonally, captures one step diagonally: d5 (Black, ahead)
    // is not captured, e5 (Black, diagonal) is; c5 (empty diagonal) is not reached.
    let p = white("rvc", "Ka1 Ud4 wd5 we5 kl8");
    assert_eq!(legal_from(&p, "d4"), set(&["d4c4", "d4e4", "d4d3", "d4e5"]), "'{}'", p.to_fen());
    assert_check(&white("rvc", "Ke5 ud4 kl8"), true);
    assert_check(&white("rvc", "Kd5 ud4 kl8"), false);
}

#[test]
fn en_passant_changes_the_screens_of_a_cannon() {
    // Black just played d7-d5 and gives check by making d5 the Cannon's sole screen on the d file.
    // Taking en passant puts White's pawn on d6: again the sole screen, so still check. Only
    // king steps off the file remain.
    let p = load("rvc", "3o7k/12/12/3pP7/12/12/12/3K8 w - d6 0 2");
    assert_check(&p, true);
    assert_eq!(legal(&p), set(&["d1c1", "d1c2", "d1e1", "d1e2"]), "'{}'", p.to_fen());
    // On rank 5: d5 and e5 are the Cannon's two screens; the en passant capture takes both off
    // the rank: legal. With a third screen (h5) it would leave h5 the sole screen: illegal.
    let p = load("rvc", "11k/12/12/K2pP6o/12/12/12/12 w - d6 0 2");
    assert_check(&p, false);
    assert_legal(&p, "e5d6");
    let p = load("rvc", "11k/12/12/K2pP2W3o/12/12/12/12 w - d6 0 2");
    assert_check(&p, false);
    assert_illegal(&p, "e5d6");
    assert_legal(&p, "e5e6");
}

#[test]
fn the_king_is_never_its_own_screen_or_hurdle() {
    // Cannon a1, king c1, nothing between: no check, and stepping along the rank to d1 does not
    // make the king's old square a screen.
    let p = white("rvc", "Kc1 oa1 kl8");
    assert_check(&p, false);
    assert_eq!(legal_from(&p, "c1"), set(&["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]), "'{}'", p.to_fen());
    // With a screen on b1 the king is in check and may not flee along the rank (d1).
    let p = white("rvc", "Kc1 Wb1 oa1 kl8");
    assert_check(&p, true);
    assert_eq!(legal_from(&p, "c1"), set(&["c1b2", "c1c2", "c1d2"]), "'{}'", p.to_fen());
    // Grasshopper a1, king c1: it lands on d1 only while the king stands on c1; after c1d1 it
    // lands on e1.
    let p = white("rvc", "Kc1 ja1 kl8");
    assert_check(&p, false);
    assert_eq!(legal_from(&p, "c1"), set(&["c1b1", "c1b2", "c1c2", "c1d1", "c1d2"]), "'{}'", p.to_fen());
    // Leo a1 and king c3 on the long diagonal: without a screen the king may walk along it;
    // with one on b2 it is in check and may not (d4).
    let p = white("rvc", "Kc3 la1 kl8");
    assert_check(&p, false);
    assert_legal(&p, "c3d4");
    assert_legal(&p, "c3b2");
    let p = white("rvc", "Kc3 Wb2 la1 kl8");
    assert_check(&p, true);
    assert_illegal(&p, "c3d4");
    assert_legal(&p, "c3b3");
    // Rhinoceros e4, king g6 (on the path e4-f4-g5-g6-f7), the other path to f7 blocked on d6:
    // the king may not step on to f7 along the path it stands on.
    let p = white("rvc", "Kg6 Wd6 he4 kl1");
    assert_check(&p, true);
    assert_illegal(&p, "g6f7");
    // Griffin c6 checks d3 along c6-d5-d4-d3; d2 stays attacked once the king has left d3.
    let p = white("rvc", "Kd3 yc6 kl8");
    assert_check(&p, true);
    assert_illegal(&p, "d3d2");
    assert_legal(&p, "d3c3");
    assert_legal(&p, "d3e3");
}

// ---------------------------------------------------------------------------------------------
// (c) Castling
// ---------------------------------------------------------------------------------------------

/// The castling moves in both notations: (destination form, king-takes-rook form).
fn castles(p: &Position<Bb>) -> (BTreeSet<String>, BTreeSet<String>) {
    let l = p.legal_moves();
    let c: Vec<_> = l.iter().copied().filter(|m| m.kind() == MoveKind::Castle).collect();
    (c.iter().map(|&m| p.move_to_uci(m, false)).collect(), c.iter().map(|&m| p.move_to_uci(m, true)).collect())
}

fn after(p: &Position<Bb>, uci: &str) -> String {
    let m = p.parse_move(uci).unwrap_or_else(|e| panic!("'{}': {uci}: {e:?}", p.to_fen()));
    let mut q = p.clone();
    q.play(m);
    q.to_fen()
}

#[test]
fn rvc_castles_four_squares_both_ways_for_both_colours() {
    let start = "r5k4r/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R5K4R w KQkq - 0 1";
    let p = load("rvc", start);
    assert_eq!(p.to_fen(), start);
    assert_eq!(castles(&p), (set(&["g1c1", "g1k1"]), set(&["g1a1", "g1l1"])));
    // O-O: king g1-k1, rook l1-j1. O-O-O: king g1-c1, rook a1-d1.
    assert_eq!(after(&p, "g1k1"), "r5k4r/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R8RK1 b kq - 1 1");
    assert_eq!(after(&p, "g1l1"), after(&p, "g1k1"));
    assert_eq!(after(&p, "O-O"), after(&p, "g1k1"));
    assert_eq!(after(&p, "g1c1"), "r5k4r/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/2KR7R b kq - 1 1");
    assert_eq!(after(&p, "g1a1"), after(&p, "g1c1"));
    assert_eq!(after(&p, "O-O-O"), after(&p, "g1c1"));
    let b = load("rvc", &start.replace(" w ", " b "));
    assert_eq!(castles(&b), (set(&["g8c8", "g8k8"]), set(&["g8a8", "g8l8"])));
    assert_eq!(after(&b, "g8k8"), "r8rk1/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R5K4R w KQ - 1 2");
    assert_eq!(after(&b, "g8c8"), "2kr7r/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/R5K4R w KQ - 1 2");
    // Every square between king and rook must be empty, b1 included: a Knight on b1 (White)
    // or k8 (Black) bars that side only.
    let p = load("rvc", "r5k3nr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RN4K4R w KQkq - 0 1");
    assert_eq!(castles(&p).0, set(&["g1k1"]));
    let b = load("rvc", "r5k3nr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RN4K4R b KQkq - 0 1");
    assert_eq!(castles(&b).0, set(&["g8c8"]));
}

#[test]
fn rvc_castling_is_barred_by_attacks_on_the_squares_the_king_crosses_or_reaches() {
    // A Black Rook on rank 4 attacks one square of rank 1. The king crosses h1 i1 j1 to k1, or
    // f1 e1 d1 to c1; attacks on the rooks' squares and on b1 do not matter; g4 gives check.
    let expected: [(&str, &[&str]); 12] = [
        ("a", &["g1c1", "g1k1"]),
        ("b", &["g1c1", "g1k1"]),
        ("c", &["g1k1"]),
        ("d", &["g1k1"]),
        ("e", &["g1k1"]),
        ("f", &["g1k1"]),
        ("g", &[]),
        ("h", &["g1c1"]),
        ("i", &["g1c1"]),
        ("j", &["g1c1"]),
        ("k", &["g1c1"]),
        ("l", &["g1c1", "g1k1"]),
    ];
    for (file, want) in expected {
        let p = load("rvc", &fen_of(&format!("Ra1 Kg1 Rl1 r{file}4 kg8"), 'w', "KQ"));
        assert_eq!(castles(&p).0, set(want), "attacker on {file}4: '{}'", p.to_fen());
        // The same for Black, with a White Rook on rank 5.
        let b = load("rvc", &fen_of(&format!("ra8 kg8 rl8 R{file}5 Kg1"), 'b', "kq"));
        let want_black: Vec<String> = want.iter().map(|m| m.replace('1', "8")).collect();
        let want_black: Vec<&str> = want_black.iter().map(|s| s.as_str()).collect();
        assert_eq!(castles(&b).0, set(&want_black), "attacker on {file}5: '{}'", b.to_fen());
    }
    // No castling out of a Cannon's check (g8 over the screen g5).
    let p = load("rvc", &fen_of("Ra1 Kg1 Rl1 pg5 og8 kj7", 'w', "KQ"));
    assert_check(&p, true);
    assert_eq!(castles(&p).0, set(&[]));
    // A Cannon attacks a crossed square only over a screen: i8 with nothing between, then with a
    // Black pawn on i5 as the screen.
    let p = load("rvc", &fen_of("Ra1 Kg1 Rl1 oi8 kg8", 'w', "KQ"));
    assert_eq!(castles(&p).0, set(&["g1c1", "g1k1"]));
    let p = load("rvc", &fen_of("Ra1 Kg1 Rl1 pi5 oi8 kg8", 'w', "KQ"));
    assert_eq!(castles(&p).0, set(&["g1c1"]));
}

#[test]
fn cannons_in_the_corners_castle_and_princesses_cannot() {
    let fen = "o5k4o/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/O5K4O w KQkq - 0 1";
    let p = load("rvc", fen);
    assert_eq!(p.to_fen(), fen);
    let open = load("rvc", "o5k4o/12/12/12/12/12/12/O5K4O w KQkq - 0 1");
    assert_eq!(castles(&open), (set(&["g1c1", "g1k1"]), set(&["g1a1", "g1l1"])));
    assert_eq!(after(&open, "g1k1"), "o5k4o/12/12/12/12/12/12/O8OK1 b kq - 1 1");
    assert_eq!(after(&open, "g1c1"), "o5k4o/12/12/12/12/12/12/2KO7O b kq - 1 1");
    let b = load("rvc", "o5k4o/12/12/12/12/12/12/O5K4O b KQkq - 0 1");
    assert_eq!(castles(&b), (set(&["g8c8", "g8k8"]), set(&["g8a8", "g8l8"])));
    // Princesses in the corners have no castling rights: KQkq (or the rook files) is refused.
    for rights in ["KQkq", "K", "q", "LAla"] {
        let fen = format!("i5k4i/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/I5K4I w {rights} - 0 1");
        match Position::from_fen(rules("rvc"), &fen) {
            Ok(p) => panic!("'{fen}' was accepted as '{}'", p.to_fen()),
            Err(e) => assert_eq!(e.field, FenField::Castling, "'{fen}': {e}"),
        }
    }
    let p = load("rvc", "i5k4i/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/I5K4I w - - 0 1");
    assert_eq!(castles(&p).0, set(&[]));
}

// ---------------------------------------------------------------------------------------------
// (d) Promotion
// ---------------------------------------------------------------------------------------------

/// The promotion letters of the legal moves from `from` to `to`.
fn promotion_letters(p: &Position<Bb>, from: &str, to: &str) -> BTreeSet<char> {
    let r = p.rules();
    let (f, t) = (sq(r, from), sq(r, to));
    let mut out = BTreeSet::new();
    for &m in p.legal_moves().iter() {
        if m.from() == f && m.to() == t {
            assert_eq!(m.kind(), MoveKind::Promotion, "'{}': {}", p.to_fen(), p.move_to_uci(m, false));
            let uci = p.move_to_uci(m, false);
            let letter = uci.chars().last().unwrap_or(' ');
            assert_eq!(r.variant.kind_of_letter(letter), Some(m.piece()), "'{}': {uci}", p.to_fen());
            out.insert(letter);
        }
    }
    out
}

fn letters(s: &str) -> BTreeSet<char> {
    s.chars().collect()
}

#[test]
fn pawns_promote_to_exactly_the_types_on_the_board() {
    // Cannon and Knight (White), Griffin and Camel (Black): those four, no Queen.
    let p = white("rvc", "Ka1 Pe7 Oc4 Nj2 yh4 cd8 kl8");
    assert_eq!(promotion_letters(&p, "e7", "e8"), letters("cnoy"), "'{}'", p.to_fen());
    assert_eq!(promotion_letters(&p, "e7", "d8"), letters("cnoy"), "'{}'", p.to_fen());
    assert_eq!(promotion_letters(&p, "e7", "f8"), letters(""), "'{}'", p.to_fen());
    // Black promotes to the same set.
    let b = load("rvc", &fen_of("Ka1 Oc4 Nj2 yh4 cd8 pe2 kl8", 'b', "-"));
    assert_eq!(promotion_letters(&b, "e2", "e1"), letters("cnoy"), "'{}'", b.to_fen());
    // A Rhinoceros and a Griffin, a Man and a Queen: those four.
    let p = white("rvc", "Ka1 Pb7 Hc4 Mj2 yh4 qd6 kl8");
    assert_eq!(promotion_letters(&p, "b7", "b8"), letters("hmqy"), "'{}'", p.to_fen());
    // The start array of entry 9 (R H C N B Q K B N C Y R): both the Rhinoceros and the Griffin.
    let p = white("rvc", "Ka1 Pe7 Rb4 Hc4 Cd4 Ne4 Bf4 Qg4 yh4 kl8");
    assert_eq!(promotion_letters(&p, "e7", "e8"), letters("bchnqry"), "'{}'", p.to_fen());
    // The choices are fixed when the game starts: capturing the only Griffin keeps it.
    let mut p = white("rvc", "Ka1 Pe7 Rd1 yd5 kl8");
    assert_eq!(promotion_letters(&p, "e7", "e8"), letters("ry"), "'{}'", p.to_fen());
    for uci in ["d1d5", "l8l7"] {
        let m = p.parse_move(uci).unwrap_or_else(|e| panic!("'{}': {uci}: {e:?}", p.to_fen()));
        p.play(m);
    }
    assert_eq!(p.to_fen(), fen_of("Ka1 Pe7 Rd5 kl7", 'w', "-").replace(" 0 1", " 1 2"));
    assert_eq!(promotion_letters(&p, "e7", "e8"), letters("ry"), "'{}'", p.to_fen());
    // J is the Grasshopper in rvc and the Star in rvcstar.
    let p = white("rvc", "Ka1 Pe7 Jc4 kl8");
    assert_eq!(promotion_letters(&p, "e7", "e8"), letters("j"));
    let p = white("rvcstar", "Ka1 Pe7 Jc4 kl8");
    assert_eq!(promotion_letters(&p, "e7", "e8"), letters("j"));
    let star = variant("rvcstar").kind_of_letter('J').unwrap_or(0);
    let m = p.parse_move("e7e8j").unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(m.piece(), star);
    // Every fairy type of rvc at once (20 non-royal, non-pawn types besides Q R B N).
    let all =
        "Ka1 Pe7 Mb2 Fc2 Wd2 Ae2 Df2 Cg2 Zh2 Gi2 Tj2 Uk2 Hl2 Yb3 Ec3 Id3 Oe3 Lf3 Vg3 Jh3 Xi3 Sj3 Qb4 Rc4 Bd4 Ne4 kl8";
    let p = white("rvc", all);
    assert_eq!(promotion_letters(&p, "e7", "e8"), letters("abcdefgyhijlmnoqrstuvwxz"));
}
