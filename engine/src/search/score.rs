//! Search scores: centipawns from the side to move's point of view, with mate scores encoded as
//! `MATE - plies` (mating) and `-MATE + plies` (being mated), and their conversion for the
//! transposition table (stored relative to the node, not the root).
//!
//! Owns: `Score`, the score constants, mate-distance helpers, `ScoreReport`.
//! Must not know: positions, moves, protocols.

/// A search score in centipawns (or a mate score).
pub type Score = i32;

/// The deepest ply the search reaches (main search and quiescence together).
pub const MAX_PLY: usize = 128;
/// Larger than any score.
pub const INFINITE: Score = 32_000;
/// The score of mating at the root itself (never reached: a mate takes at least one ply).
pub const MATE: Score = 31_000;
/// Scores at least this large (in absolute value) are mates.
pub const MATE_BOUND: Score = MATE - MAX_PLY as Score;
/// A draw.
pub const DRAW: Score = 0;

/// The score of being mated `ply` plies from the root.
#[inline]
pub fn mated_in(ply: usize) -> Score {
    -MATE + ply as Score
}

/// The score of mating `ply` plies from the root.
#[inline]
pub fn mate_in(ply: usize) -> Score {
    MATE - ply as Score
}

/// Whether a score is a mate score (for either side).
#[inline]
pub fn is_mate(score: Score) -> bool {
    score.abs() >= MATE_BOUND
}

/// A root-relative score as stored in the table: relative to the node `ply` plies deep.
#[inline]
pub fn to_table(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score + ply as Score
    } else if score <= -MATE_BOUND {
        score - ply as Score
    } else {
        score
    }
}

/// A table score read at a node `ply` plies deep, back to root-relative.
#[inline]
pub fn from_table(score: Score, ply: usize) -> Score {
    if score >= MATE_BOUND {
        score - ply as Score
    } else if score <= -MATE_BOUND {
        score + ply as Score
    } else {
        score
    }
}

/// A score as reported to a user: centipawns, or mate in so many moves (negative when the side
/// to move is being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreReport {
    Centipawns(i32),
    Mate(i32),
}

impl ScoreReport {
    /// The report of a root score.
    pub fn from_score(score: Score) -> ScoreReport {
        if score >= MATE_BOUND {
            ScoreReport::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            ScoreReport::Mate(-((MATE + score) / 2))
        } else {
            ScoreReport::Centipawns(score)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_round_trip_and_report_moves() {
        assert_eq!(ScoreReport::from_score(mate_in(1)), ScoreReport::Mate(1));
        assert_eq!(ScoreReport::from_score(mate_in(3)), ScoreReport::Mate(2));
        assert_eq!(ScoreReport::from_score(mated_in(2)), ScoreReport::Mate(-1));
        assert_eq!(ScoreReport::from_score(mated_in(0)), ScoreReport::Mate(0));
        assert_eq!(ScoreReport::from_score(-35), ScoreReport::Centipawns(-35));
        for ply in [0, 5, 40] {
            for s in [mate_in(7), mated_in(9), 120, -3] {
                assert_eq!(from_table(to_table(s, ply), ply), s);
            }
        }
        assert!(is_mate(mated_in(100)) && !is_mate(5000));
    }
}
