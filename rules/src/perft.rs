//! Perft: the number of leaf nodes of the legal move tree to a fixed depth, and its per-move
//! breakdown (divide). The last ply is counted without playing the moves (bulk counting).
//!
//! Owns: `perft`, `divide`.
//! Must not know: notation, protocols.

use crate::bitboard::BitSet;
use crate::moves::Move;
use crate::position::Position;

/// Leaf nodes at `depth` plies below `pos`.
pub fn perft<B: BitSet>(pos: &Position<B>, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut total = 0;
            for &m in pos.legal_moves().iter() {
                let mut child = pos.clone();
                child.play(m);
                total += perft(&child, depth - 1);
            }
            total
        }
    }
}

/// Leaf nodes below each legal root move, in generation order. `progress` is called after each
/// root move with (moves done, moves in all).
pub fn divide<B: BitSet>(pos: &Position<B>, depth: u32, mut progress: impl FnMut(usize, usize)) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let mut out = Vec::with_capacity(moves.len());
    for (i, &m) in moves.iter().enumerate() {
        let n = if depth <= 1 {
            1
        } else {
            let mut child = pos.clone();
            child.play(m);
            perft(&child, depth - 1)
        };
        out.push((m, n));
        progress(i + 1, moves.len());
    }
    out
}
