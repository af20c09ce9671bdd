//! Start arrays drawn as permutations of a set of pieces under rules (Capablanca Random Chess:
//! bishops on opposite colours, queen and archbishop on opposite colours, the king between the
//! rooks, every pawn defended). The arrays are numbered in the alphabetical order of their
//! letters (files a.. first), counting only those that keep every rule.
//!
//! Owns: `ArrayRule`, `Permutations`, the enumeration and its numbering.
//! Must not know: positions, bitboards (a pawn's defence is read from the pieces' Betza steps).

use super::PieceDef;
use crate::betza::Travel;
use once_cell::sync::OnceCell;

/// A rule every array of a permutation start must keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArrayRule {
    /// The pieces of these two letters (the same letter twice: its two pieces) stand on squares
    /// of opposite colours.
    OppositeColours(char, char),
    /// The piece of the first letter stands between the two pieces of the second.
    Between(char, char),
    /// Every pawn in front of the array (the second rank) is defended by a piece of the array.
    PawnsDefended,
}

/// The most arrays a permutation start may have to look through (the permutations of its
/// pieces, before the rules): enough for ten files with three pairs, a bound on the work.
pub const MAX_PERMUTATIONS: u64 = 5_000_000;

/// A start rule: every arrangement of `pieces` that keeps `rules`, the same for both sides.
#[derive(Clone, Debug)]
pub struct Permutations {
    /// The pieces of the array (upper-case letters), in any order.
    pub pieces: String,
    pub rules: Vec<ArrayRule>,
    /// The arrays, found on first use.
    arrays: OnceCell<Vec<String>>,
}

impl PartialEq for Permutations {
    fn eq(&self, other: &Self) -> bool {
        self.pieces == other.pieces && self.rules == other.rules
    }
}

impl Eq for Permutations {}

impl Permutations {
    /// A rule over `pieces`; `None` if they have more than `MAX_PERMUTATIONS` arrangements.
    pub fn new(pieces: &str, rules: Vec<ArrayRule>) -> Option<Permutations> {
        let mut counts = std::collections::BTreeMap::new();
        pieces.chars().for_each(|c| *counts.entry(c).or_insert(0u64) += 1);
        // Multinomial coefficient, one factor at a time, stopping once past the bound.
        let mut total: u64 = 1;
        let mut placed: u64 = 0;
        for &n in counts.values() {
            for i in 1..=n {
                placed += 1;
                total = total.checked_mul(placed)? / i;
                if total > MAX_PERMUTATIONS {
                    return None;
                }
            }
        }
        Some(Permutations { pieces: pieces.to_string(), rules, arrays: OnceCell::new() })
    }

    /// The arrays that keep every rule, in alphabetical order.
    pub fn arrays(&self, pieces: &[PieceDef]) -> &[String] {
        self.arrays.get_or_init(|| {
            let mut letters: Vec<u8> = self.pieces.bytes().collect();
            letters.sort_unstable();
            let mut found = Vec::new();
            loop {
                if self.rules.iter().all(|r| keeps(r, &letters, pieces)) {
                    found.push(String::from_utf8_lossy(&letters).into_owned());
                }
                if !next_permutation(&mut letters) {
                    break;
                }
            }
            found
        })
    }
}

/// The next arrangement in alphabetical order; false after the last.
fn next_permutation(a: &mut [u8]) -> bool {
    let Some(i) = (1..a.len()).rev().find(|&i| a[i - 1] < a[i]) else { return false };
    let pivot = i - 1;
    let Some(j) = (i..a.len()).rev().find(|&j| a[j] > a[pivot]) else { return false };
    a.swap(pivot, j);
    a[i..].reverse();
    true
}

fn files_of(array: &[u8], letter: char) -> impl Iterator<Item = usize> + '_ {
    array.iter().enumerate().filter(move |(_, &c)| c as char == letter).map(|(f, _)| f)
}

fn keeps(rule: &ArrayRule, array: &[u8], pieces: &[PieceDef]) -> bool {
    match *rule {
        ArrayRule::OppositeColours(a, b) => {
            let mut files: Vec<usize> = files_of(array, a).collect();
            if a != b {
                files.extend(files_of(array, b));
            }
            files.len() == 2 && files[0] % 2 != files[1] % 2
        }
        ArrayRule::Between(inner, outer) => {
            let outer: Vec<usize> = files_of(array, outer).collect();
            outer.len() == 2 && files_of(array, inner).all(|f| outer[0] < f && f < outer[1])
        }
        ArrayRule::PawnsDefended => (0..array.len()).all(|pawn| {
            array.iter().enumerate().any(|(file, &letter)| {
                let Some(piece) = pieces.iter().find(|p| p.letter == letter as char) else { return false };
                // A step onto the next rank, one square away, capturing: a leap, or the first
                // square of a ride or a circle.
                piece.steps.iter().any(|s| {
                    s.dy == 1
                        && file as i64 + i64::from(s.dx) == pawn as i64
                        && s.mode.captures()
                        && matches!(s.travel, Travel::Leap | Travel::Ride { .. } | Travel::Circle { .. })
                })
            })
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_come_in_alphabetical_order_without_repeats() {
        let p = Permutations::new("RRK", vec![]).unwrap();
        assert_eq!(p.arrays(&[]), ["KRR", "RKR", "RRK"]);
        let p = Permutations::new("RRK", vec![ArrayRule::Between('K', 'R')]).unwrap();
        assert_eq!(p.arrays(&[]), ["RKR"]);
        let p = Permutations::new("BBNN", vec![ArrayRule::OppositeColours('B', 'B')]).unwrap();
        assert_eq!(p.arrays(&[]), ["BBNN", "BNNB", "NBBN", "NNBB"]);
        assert!(Permutations::new("ABCDEFGHIJKLMN", vec![]).is_none());
        assert!(Permutations::new("RRNNBBQKAC", vec![]).is_some());
    }
}
