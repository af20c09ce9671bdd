//! What each piece kind of a variant is worth, measured with the evaluation the engine plays it
//! with: over sample positions, the mean drop of the owner's static evaluation when one piece of
//! that kind is taken off the board. Royal pieces are skipped, as are positions in check and
//! removals that leave a side in check (illegal, or a position no evaluation is made for);
//! castling and en-passant rights are cleared before and after alike (a removed rook takes
//! its right with it). Scaled so that a pawn is 100 where the variant has one.
//!
//! Owns: `PieceWorths`, `measure`.
//! Must not know: games, files, the report's layout.

use menagerie_engine::eval;
use menagerie_engine::nnue::embedded::EvalChoice;
use menagerie_engine::nnue::{FeatureMap, Network};
use menagerie_rules::any::AnyPosition;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::position::Position;
use menagerie_rules::variant::Variant;
use menagerie_rules::with_position;

/// The measured worth of one piece kind.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceWorth {
    pub letter: char,
    pub name: String,
    /// Removals measured.
    pub samples: u64,
    /// Mean drop of the owner's evaluation, raw centipawns.
    pub raw: f64,
    /// Standard error of that mean.
    pub raw_error: f64,
    /// `raw` scaled to pawn = 100 (as `raw` where the variant has no pawn).
    pub worth: f64,
}

/// Every non-royal kind's worth and how it was measured.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceWorths {
    /// `network` or `hand-written evaluation`.
    pub method: String,
    pub positions: u64,
    /// The raw worth of the pawn the others are scaled by, if any.
    pub pawn_raw: Option<f64>,
    pub pieces: Vec<PieceWorth>,
}

#[derive(Clone, Copy, Default)]
struct Sum {
    n: u64,
    sum: f64,
    squares: f64,
}

/// The worths over `fens` (positions of `variant`); positions that do not read are skipped.
pub fn measure(variant: &'static Variant, fens: &[String], choice: EvalChoice) -> PieceWorths {
    let network = choice.network_for(variant).map(|n| n.as_ref());
    let mapped = network.and_then(|n| FeatureMap::new(&n.layout, variant).ok().map(|m| (n, m)));
    let mut sums = vec![Sum::default(); variant.pieces.len()];
    let mut positions = 0;
    for fen in fens {
        let Ok(cleared) = AnyPosition::from_fen(variant, &without_rights(fen)) else { continue };
        let used = with_position!(&cleared, p => removals(p, mapped.as_ref(), &mut sums));
        positions += u64::from(used);
    }
    let pieces: Vec<PieceWorth> = variant
        .pieces
        .iter()
        .zip(&sums)
        .filter(|(def, _)| !def.royal)
        .map(|(def, s)| {
            let n = s.n.max(1) as f64;
            let raw = if s.n == 0 { f64::NAN } else { s.sum / n };
            let var = (s.squares / n - raw * raw).max(0.0);
            PieceWorth {
                letter: def.letter,
                name: def.name.clone(),
                samples: s.n,
                raw,
                raw_error: (var / n).sqrt(),
                worth: raw,
            }
        })
        .collect();
    let pawn_raw = variant
        .pieces
        .iter()
        .filter(|d| d.pawn && !d.royal)
        .find_map(|d| pieces.iter().find(|w| w.letter == d.letter))
        .map(|w| w.raw)
        .filter(|r| r.is_finite() && *r > 0.0);
    let pieces =
        pieces.into_iter().map(|w| PieceWorth { worth: pawn_raw.map_or(w.raw, |p| w.raw * 100.0 / p), ..w }).collect();
    let method = if mapped.is_some() { "network" } else { "hand-written evaluation" };
    PieceWorths { method: method.to_string(), positions, pawn_raw, pieces }
}

/// The FEN with no castling or en-passant rights.
fn without_rights(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    for i in [2, 3] {
        if let Some(f) = fields.get_mut(i) {
            *f = "-";
        }
    }
    fields.join(" ")
}

/// The side to move's evaluation.
fn evaluate<B: BitSet>(p: &Position<B>, mapped: Option<&(&Network, FeatureMap)>) -> i32 {
    match mapped {
        Some((net, map)) => net.evaluation(net.evaluate(map, p), || eval::evaluate(p)),
        None => eval::evaluate(p),
    }
}

/// Whether the side to move is in check or could take the other king.
fn unfit<B: BitSet>(p: &Position<B>) -> bool {
    let other = p.side_to_move().flip();
    p.in_check() || p.king(other).is_some_and(|k| p.is_attacked(k, p.side_to_move()))
}

/// Add every removal from `p` to `sums`; whether the position was used.
fn removals<B: BitSet>(p: &Position<B>, mapped: Option<&(&Network, FeatureMap)>, sums: &mut [Sum]) -> bool {
    if unfit(p) {
        return false;
    }
    let r = p.rules();
    let base = evaluate(p, mapped);
    let fen = p.to_fen();
    for sq in r.geometry.all_squares() {
        let Some(piece) = p.piece_at(sq) else { continue };
        if r.variant.pieces[piece.kind].royal {
            continue;
        }
        let Some(text) = emptied(&fen, r.geometry.files, r.geometry.ranks, r.geometry.file(sq), r.geometry.rank(sq))
        else {
            continue;
        };
        let Ok(q) = Position::from_fen(r, &text) else { continue };
        if unfit(&q) {
            continue;
        }
        let after = evaluate(&q, mapped);
        let sign = if piece.color == p.side_to_move() { 1.0 } else { -1.0 };
        let drop = sign * f64::from(base - after);
        let s = &mut sums[piece.kind];
        s.n += 1;
        s.sum += drop;
        s.squares += drop * drop;
    }
    true
}

/// `fen` with the square at (`file`, `rank`) emptied.
fn emptied(fen: &str, files: u8, ranks: u8, file: i32, rank: i32) -> Option<String> {
    let (placement, rest) = fen.split_once(' ')?;
    let (board, hand) = match placement.find('[') {
        Some(i) => placement.split_at(i),
        None => (placement, ""),
    };
    let mut rows: Vec<Vec<Option<char>>> = Vec::new();
    for text in board.split('/') {
        let mut row = Vec::new();
        let mut run = 0usize;
        for c in text.chars() {
            match c.to_digit(10) {
                Some(d) => run = run * 10 + d as usize,
                None => {
                    row.extend(std::iter::repeat_n(None, run));
                    run = 0;
                    row.push(Some(c));
                }
            }
        }
        row.extend(std::iter::repeat_n(None, run));
        rows.push(row);
    }
    if rows.len() != ranks as usize || rows.iter().any(|r| r.len() != files as usize) {
        return None;
    }
    let row = ranks as usize - 1 - usize::try_from(rank).ok()?;
    *rows.get_mut(row)?.get_mut(usize::try_from(file).ok()?)? = None;
    let text: Vec<String> = rows
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut run = 0;
            for cell in row {
                match cell {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            s.push_str(&run.to_string());
                            run = 0;
                        }
                        s.push(*c);
                    }
                }
            }
            if run > 0 {
                s.push_str(&run.to_string());
            }
            s
        })
        .collect();
    Some(format!("{}{hand} {rest}", text.join("/")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    #[test]
    fn a_square_is_emptied_and_runs_merge() {
        let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
        assert_eq!(
            emptied(fen, 8, 8, 4, 3).as_deref(),
            Some("rnbqkbnr/pppppppp/8/8/8/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")
        );
        assert_eq!(
            emptied("4k3/8/8/8/8/8/8/R3K3[Qp] w - - 0 1", 8, 8, 0, 0).as_deref(),
            Some("4k3/8/8/8/8/8/8/4K3[Qp] w - - 0 1")
        );
        let wide = "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR w - - 0 1";
        assert_eq!(
            emptied(wide, 12, 8, 11, 0).as_deref(),
            Some("rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCG1 w - - 0 1")
        );
    }

    #[test]
    fn the_hand_written_evaluation_values_a_queen_above_a_rook_above_a_pawn() {
        let chess = by_name("chess").expect("chess");
        let fens = [
            "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3",
            "rnbqkb1r/pppp1ppp/5n2/4p3/4P3/2N5/PPPP1PPP/R1BQKBNR w KQkq - 2 3",
            // White in check: skipped.
            "rnb1kbnr/pppp1ppp/8/4p3/5P1q/8/PPPPP1PP/RNBQKBNR w KQkq - 1 3",
        ]
        .map(str::to_string);
        let w = measure(chess, &fens, EvalChoice::HandWritten);
        assert_eq!(w.method, "hand-written evaluation");
        assert_eq!(w.positions, 2);
        let by = |c: char| w.pieces.iter().find(|p| p.letter == c).expect("kind").clone();
        assert!(w.pieces.iter().all(|p| p.letter != 'K'), "kings are not measured");
        assert_eq!(by('P').worth, 100.0);
        assert_eq!(by('P').samples, 32);
        assert!(by('Q').worth > by('R').worth && by('R').worth > by('N').worth && by('N').worth > 100.0, "{w:?}");
    }
}
