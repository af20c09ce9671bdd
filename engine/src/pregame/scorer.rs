//! The option scorer: one search of a start position with the side to move about to make the
//! first move, through the engine's own search and evaluation (the network the engine would
//! search with, if it has one), with a table of its own so that no engine state is touched.
//!
//! Owns: `Scorer`.
//! Must not know: what the options mean, protocols.

use super::PregameError;
use crate::nnue::Network;
use crate::search::{self, Score, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
use menagerie_rules::any::AnyPosition;
use menagerie_rules::variant::Variant;
use menagerie_rules::with_position;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Largest table a pre-game scorer allocates, in megabytes.
pub const MAX_SCORER_HASH_MB: usize = 64;

/// Searches start positions and keeps count of the nodes.
pub struct Scorer {
    tt: TranspositionTable,
    /// Threads of its own: the scorer may run while the engine's are searching.
    threads: SearchThreads,
    stop: AtomicBool,
    /// The learned evaluation to search with; none, the hand-written one.
    network: Option<Arc<Network>>,
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
            network: None,
            nodes: 0,
            searches: 0,
        }
    }

    /// The same scorer searching with `network` (where it fits the variant) instead of the
    /// hand-written evaluation.
    pub fn with_network(self, network: Option<Arc<Network>>) -> Scorer {
        Scorer { network, ..self }
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

    /// The score of `fen` for the side to move at the depth `limits` asks for, or `None` when
    /// its other limits stopped the search before that depth was complete.
    pub fn score_to_depth(
        &mut self,
        v: &'static Variant,
        fen: &str,
        limits: SearchLimits,
    ) -> Result<Option<Score>, PregameError> {
        let position = AnyPosition::from_fen(v, fen).map_err(|e| PregameError::BadFen(format!("'{fen}': {e}")))?;
        let depth = limits.depth.unwrap_or(0);
        let outcome = self.search(&position, limits);
        Ok((outcome.depth >= depth).then_some(outcome.score))
    }

    fn search(&mut self, position: &AnyPosition, limits: SearchLimits) -> search::SearchOutcome {
        let outcome = with_position!(position, p => {
            let mut job = SearchJob::new(p, limits, &self.tt, &self.stop, &self.threads);
            job.network = self.network.as_deref();
            search::search(&job, |_| {})
        });
        self.nodes += outcome.nodes;
        self.searches += 1;
        outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::InputLayout;
    use menagerie_rules::variant::by_name;

    #[test]
    fn the_scorer_searches_with_the_network_it_is_given() {
        let dchess = by_name("dchess").expect("dchess");
        let layout =
            InputLayout::union([by_name("chess").expect("chess"), by_name("vdchess").expect("vd")], 1).expect("layout");
        let fen = "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BRNQKRNB w - - 0 1";
        let score = |network: Option<Network>| {
            let mut scorer = Scorer::new(1, 1).with_network(network.map(Arc::new));
            scorer.score(dchess, fen, SearchLimits::depth(5)).expect("score")
        };
        let hand_written = score(None);
        let mut net = Network::zeroed(layout, 32, 1);
        net.correction = Some(100);
        assert_eq!(score(Some(net.clone())), hand_written, "a correction of nothing");
        // An evaluation network of zero weights sees every position as even.
        net.correction = None;
        assert_eq!(score(Some(net)), 0);
    }
}
