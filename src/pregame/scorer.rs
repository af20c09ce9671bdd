//! The option scorer: one search of a start position with the side to move about to make the
//! first move, through the engine's own search and evaluation, with a table of its own so that
//! no engine state is touched.
//!
//! Owns: `Scorer`.
//! Must not know: what the options mean, protocols.

use super::PregameError;
use crate::any::AnyPosition;
use crate::search::{self, Score, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
use crate::variant::Variant;
use crate::with_position;
use std::sync::atomic::AtomicBool;

/// Largest table a pre-game scorer allocates, in megabytes.
pub const MAX_SCORER_HASH_MB: usize = 64;

/// Searches start positions and keeps count of the nodes.
pub struct Scorer {
    tt: TranspositionTable,
    /// Threads of its own: the scorer may run while the engine's are searching.
    threads: SearchThreads,
    stop: AtomicBool,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Searches run so far.
    pub searches: u64,
}

impl Scorer {
    /// A scorer with its own table of `hash_mb` megabytes (at most `MAX_SCORER_HASH_MB`).
    pub fn new(hash_mb: usize, threads: usize) -> Scorer {
        Scorer {
            tt: TranspositionTable::new(hash_mb.clamp(1, MAX_SCORER_HASH_MB)),
            threads: SearchThreads::new(threads),
            stop: AtomicBool::new(false),
            nodes: 0,
            searches: 0,
        }
    }

    /// The score of `fen` for the side to move, searched within `limits`. A search stopped
    /// before its first iteration completes is redone at depth 1, so that every option gets a
    /// real score.
    pub fn score(&mut self, v: &'static Variant, fen: &str, limits: SearchLimits) -> Result<Score, PregameError> {
        let position = AnyPosition::from_fen(v, fen).map_err(|e| PregameError::BadFen(format!("'{fen}': {e}")))?;
        let mut outcome = self.search(&position, limits);
        if outcome.depth == 0 {
            log::debug!("pregame: no iteration completed for {fen}; searching depth 1");
            outcome = self.search(&position, SearchLimits::depth(1));
        }
        Ok(outcome.score)
    }

    fn search(&mut self, position: &AnyPosition, limits: SearchLimits) -> search::SearchOutcome {
        let outcome = with_position!(position, p => {
            search::search(&SearchJob::new(p, limits, &self.tt, &self.stop, &self.threads), |_| {})
        });
        self.nodes += outcome.nodes;
        self.searches += 1;
        outcome
    }
}
