//! The text of the commands testers type by hand, as Stockfish-family engines print it: `d`
//! (the board, then `Fen: ...`, `Key: ...` and `Checkers: ...`), `go perft N` (one
//! `move: count` line per root move, a blank line, `Nodes searched: N`) and `eval` (the
//! evaluation term by term). Shared by UCI and the
//! interactive loop, so that scripts written for one read the other.
//!
//! Owns: the board diagram, the `go perft` depth and its lines, the `eval` lines, `InspectError`.
//! Must not know: sessions, stdin and stdout, search internals.

use crate::eval::InPawns;
use crate::nnue::{FeatureMap, Network};
use menagerie_rules::any::AnyPosition;
use menagerie_rules::bitboard::BitSet;
use menagerie_rules::geometry::{file_letter, Color};
use menagerie_rules::position::fen::piece_char;
use menagerie_rules::with_position;
use std::fmt;

/// The deepest perft accepted: anything deeper would not finish in a lifetime.
pub const MAX_PERFT_DEPTH: u32 = 15;

/// A `go perft` that cannot be run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InspectError {
    /// The depth is missing or not a number.
    BadDepth(String),
    /// The depth is deeper than `MAX_PERFT_DEPTH`.
    TooDeep(u32),
}

impl fmt::Display for InspectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InspectError::BadDepth(text) => write!(f, "go perft takes a depth 0..{MAX_PERFT_DEPTH}, not '{text}'"),
            InspectError::TooDeep(depth) => write!(f, "perft depth {depth} is too deep (at most {MAX_PERFT_DEPTH})"),
        }
    }
}

impl std::error::Error for InspectError {}

/// The depth of a `go perft N` line, or `None` when the line is another `go`.
pub fn perft_depth(line: &str) -> Option<Result<u32, InspectError>> {
    let mut words = line.split_whitespace();
    if words.next() != Some("go") || words.next() != Some("perft") {
        return None;
    }
    let text: Vec<&str> = words.collect();
    let text = text.join(" ");
    Some(match text.parse::<u32>() {
        Ok(depth) if depth <= MAX_PERFT_DEPTH => Ok(depth),
        Ok(depth) => Err(InspectError::TooDeep(depth)),
        Err(_) => Err(InspectError::BadDepth(text)),
    })
}

/// The lines of `go perft`: one `move: count` per root move, a blank line, the total. `rows`
/// are the root moves with their counts; at depth 0 there are none and the total is 1.
pub fn perft_lines(depth: u32, rows: &[(String, u64)]) -> Vec<String> {
    let total: u64 = if depth == 0 { 1 } else { rows.iter().map(|(_, n)| n).sum() };
    let mut lines: Vec<String> = rows.iter().map(|(m, n)| format!("{m}: {n}")).collect();
    lines.push(String::new());
    lines.push(format!("Nodes searched: {total}"));
    lines
}

/// The lines of `d`: the board with White at the bottom (rank numbers on the right, file
/// letters below), a blank line, then the FEN, the hash key in hexadecimal and the squares of
/// the pieces giving check.
pub fn board_lines(position: &AnyPosition) -> Vec<String> {
    with_position!(position, p => {
        let rules = p.rules();
        let g = rules.geometry;
        let (files, ranks) = (i32::from(g.files), i32::from(g.ranks));
        let rule = format!(" {}+", "+---".repeat(files as usize));
        let mut lines = vec![rule.clone()];
        for rank in (0..ranks).rev() {
            let mut row = String::from(" |");
            for file in 0..files {
                let piece = g.square(file, rank).and_then(|s| p.piece_at(s));
                row.push_str(&format!(" {} |", piece.map_or(' ', |pc| piece_char(rules, pc))));
            }
            lines.push(format!("{row} {}", rank + 1));
            lines.push(rule.clone());
        }
        let letters: Vec<String> = (0..files).map(|f| file_letter(f).to_string()).collect();
        lines.push(format!("   {}", letters.join("   ")));
        lines.push(String::new());
        lines.push(format!("Fen: {}", p.to_fen()));
        lines.push(format!("Key: {:016X}", p.hash()));
        let checkers: Vec<String> = p.checkers().squares().map(|s| g.square_name(s)).collect();
        lines.push(format!("Checkers: {}", checkers.join(" ")).trim_end().to_string());
        lines
    })
}

/// The lines of `eval`: the hand-written evaluation of `position`, term by term, then beside
/// it the evaluation of `network` (the one `Use NNUE` would search with), both for White, then
/// what a search evaluates with (`searching_with`, in words).
pub fn eval_lines(position: &AnyPosition, network: Option<&Network>, searching_with: &str) -> Vec<String> {
    let table = with_position!(position, p => crate::eval::trace(p).to_string());
    let mut lines: Vec<String> = table.lines().map(str::to_string).collect();
    let variant = position.variant();
    let mapped = network.and_then(|net| FeatureMap::new(&net.layout, variant).ok().map(|map| (net, map)));
    lines.push(match mapped {
        Some((net, map)) => {
            let (for_mover, mover) = with_position!(position, p => {
                (net.evaluation(net.evaluate(&map, p), || crate::eval::evaluate(p)), p.side_to_move())
            });
            let white = if mover == Color::White { for_mover } else { -for_mover };
            format!("NNUE evaluation: {} (white side)", InPawns(white))
        }
        None => format!("NNUE evaluation: none (no network fits {})", variant.name),
    });
    lines.push(format!("Searching with: {searching_with}"));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    fn position(variant: &str, fen: &str) -> AnyPosition {
        AnyPosition::from_fen(by_name(variant).expect("variant"), fen).expect("fen")
    }

    #[test]
    fn the_board_reads_as_stockfish_prints_it() {
        let p = position("chess", "4k3/8/8/8/8/8/8/4K2r w - - 0 1");
        let lines = board_lines(&p);
        assert_eq!(lines[0], " +---+---+---+---+---+---+---+---+");
        assert_eq!(lines[1], " |   |   |   |   | k |   |   |   | 8");
        assert_eq!(lines[15], " |   |   |   |   | K |   |   | r | 1");
        assert_eq!(lines[17], "   a   b   c   d   e   f   g   h");
        assert_eq!(lines[18], "");
        assert_eq!(lines[19], "Fen: 4k3/8/8/8/8/8/8/4K2r w - - 0 1");
        assert_eq!(lines[20], format!("Key: {:016X}", p.hash()));
        assert_eq!(lines[21], "Checkers: h1");
        assert_eq!(lines.len(), 22);
    }

    #[test]
    fn wide_boards_and_no_checkers() {
        let fen = "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR w KQkq - 0 1";
        let lines = board_lines(&position("rvc", fen));
        assert_eq!(lines[0].len(), 1 + 12 * 4 + 1);
        assert!(lines[17].ends_with(" l"), "{}", lines[17]);
        assert_eq!(lines.last().map(String::as_str), Some("Checkers:"));
    }

    #[test]
    fn perft_depths_are_read_and_bounded() {
        assert_eq!(perft_depth("go perft 3"), Some(Ok(3)));
        assert_eq!(perft_depth("go depth 3"), None);
        assert_eq!(perft_depth("go perft 16"), Some(Err(InspectError::TooDeep(16))));
        assert_eq!(perft_depth("go perft"), Some(Err(InspectError::BadDepth(String::new()))));
        assert_eq!(perft_depth("go perft -1"), Some(Err(InspectError::BadDepth("-1".to_string()))));
        let rows = [("e2e4".to_string(), 20), ("d2d4".to_string(), 20)];
        assert_eq!(perft_lines(2, &rows), ["e2e4: 20", "d2d4: 20", "", "Nodes searched: 40"]);
        assert_eq!(perft_lines(0, &[]), ["", "Nodes searched: 1"]);
    }
}
