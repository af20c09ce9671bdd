//! The bench: a fixed-depth search of a fixed list of positions covering every built-in variant
//! (start positions and middlegames from the perft suites), and of the start position of each
//! variant loaded from a file, with the table cleared before each position, each variant
//! evaluated as the engine evaluates it by default (the built-in network where one is the
//! default, else the hand-written evaluation) unless told otherwise (`EvalChoice`, to set the
//! speed of the two evaluations side by side). With one thread the
//! node count is deterministic: it is the engine's signature, and a change that should not
//! alter the search must not alter it.
//!
//! Owns: `BENCH_POSITIONS`, `run`, `BenchReport`.
//! Must not know: protocols, output formatting.

use crate::engine::EngineError;
use crate::nnue::embedded::EvalChoice;
use crate::search::{self, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
use menagerie_rules::any::AnyPosition;
use menagerie_rules::startpos::start_fen;
use menagerie_rules::variant::{by_name, is_builtin, names};
use menagerie_rules::with_position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Depth of `menagerie bench` without arguments (a few seconds in a release build).
pub const DEFAULT_DEPTH: u32 = 8;
/// Threads of the bench without arguments (more than one makes the count vary).
pub const DEFAULT_THREADS: usize = 1;
/// Hash table size of the bench without arguments, in megabytes.
pub const DEFAULT_HASH_MB: usize = 16;

/// One bench position: variant name and FEN.
#[derive(Clone, Copy, Debug)]
pub struct BenchPosition {
    pub variant: &'static str,
    pub fen: &'static str,
}

const fn p(variant: &'static str, fen: &'static str) -> BenchPosition {
    BenchPosition { variant, fen }
}

/// The bench positions: two or three per built-in variant.
pub const BENCH_POSITIONS: &[BenchPosition] = &[
    p("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    p("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    p("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"),
    p("chess960", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1"),
    p("chess960", "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"),
    p("dchess", "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1"),
    p("dchess", "2bbrrnn/1k1p1p2/p3B3/4B1p1/p2PPPPp/1Q5P/2P4R/2R1NNK1 b - - 0 18"),
    p("dchess", "nbbk1rnr/pp4p1/5q2/3PppP1/1pP4p/8/P2P1PKP/RQRNNBB1 w - - 1 10"),
    p("chess9", "rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1"),
    p("chess9", "r1kqbbnr/1pp1pp2/2np3p/p5p1/1B1P2P1/P1P4P/1P2PP2/RNKQ1BNR w KQkq - 0 7"),
    p("chess9", "r1k4r/pppqbppp/2npbn2/4p3/4P3/2NPBN2/PPPQBPPP/R1K4R w KQkq - 0 1"),
    p("displacement", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    p("displacement", "r1bk3r/pp1pn1pB/n4pqp/4p3/1b1Q4/4P3/PBPP1PPP/RN2K1NR b KQkq - 4 11"),
    p("displacement", "r2kq2r/pppb1ppp/2np1n2/2b1p3/2B1P3/2NP1N2/PPPB1PPP/R3K2R w KQkq - 0 1"),
    p("vdchess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1"),
    p("vdchess", "1nb1kbnr/r1Bpa1p1/1p5p/1PP1p3/p5P1/P2P1P2/5p2/RN2KBNR[Cc] w KQk - 0 14"),
    p("vdchess", "rnbqk1nr/pppp1p1p/8/3cP1p1/6QP/b3P1P1/PPPP4/RNB1KBNR[C] b KQkq - 2 6"),
    p("capablanca", "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"),
    p("capablanca", "r2b1kb2r/1p1ap1ppp1/n1p2pq1pn/3p6/5P2P1/Q1NPP2cC1/PPP3PP1P/R4KB2R w KQkq - 2 14"),
    p("caparandom", "qrkbbanncr/pppppppppp/10/10/10/10/PPPPPPPPPP/QRKBBANNCR w BJbj - 0 1"),
    p("caparandom", "2rbbk1nra/p2p1ppp1p/2c4np1/1p1qp5/6P3/7NN1/PPPPPP1PPP/Q1RBBK2RA w CIci - 0 7"),
    p("rvc", "rfcnbqkbncfr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RFCNBQKBNCFR w KQkq - 0 1"),
    p("rvc", "rt2q1kb2tr/p1pbppp1ppnp/ap1pn5pa/5T1pT3/2P5PPBP/AP2N2A4/P2PPPPP2P1/R3BQK1N2R b KQkq - 2 14"),
    p("rvc", "r1cnbqkbn1yr/p1pppppppp1p/1p10/10p1/Q1h1P7/7PP3/PPPP1PP2cPP/RHCNBK1BNCYR w kq - 2 7"),
    p("rvcstar", "rjcnbqkbncjr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RJCNBQKBNCJR w KQkq - 0 1"),
    p("rvcstar", "r1j1bqkbnjyr/pp1p1pPp1ppp/12/1hp1p3p3/5Q6/2N2nJ5/PPPPPKPPPPPP/RHJ1B2BN1YR w kq - 3 11"),
];

/// What a bench run measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Nodes of all positions.
    pub nodes: u64,
    /// Nodes per second over the whole run.
    pub nps: u64,
    pub time: Duration,
    pub depth: u32,
    /// Per position: variant, FEN, nodes, best move found (`None` only without a legal move).
    pub positions: Vec<(String, String, u64, Option<String>)>,
}

/// Search every bench position to `depth` with `threads` threads and a table of `hash_mb`
/// megabytes, cleared before each position, evaluating as `eval` says.
pub fn run(depth: u32, threads: usize, hash_mb: usize, eval: EvalChoice) -> Result<BenchReport, EngineError> {
    let tt = TranspositionTable::new(hash_mb);
    let search_threads = SearchThreads::new(threads);
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let mut nodes = 0;
    let mut positions = Vec::with_capacity(BENCH_POSITIONS.len());
    // Variants loaded from a file (`--variants`) are benched from their default start position.
    let loaded: Vec<(&'static str, String)> = names()
        .into_iter()
        .filter(|name| !is_builtin(name))
        .filter_map(|name| by_name(name).ok())
        .map(|v| Ok((v.name.as_str(), start_fen(v, v.start_default)?)))
        .collect::<Result<_, EngineError>>()?;
    let listed = BENCH_POSITIONS.iter().map(|bp| (bp.variant, bp.fen.to_string()));
    for (variant_name, fen) in listed.chain(loaded) {
        let variant = by_name(variant_name)?;
        let position = AnyPosition::from_fen(variant, &fen)?;
        tt.clear();
        let (n, best) = with_position!(&position, root => {
            let mut job = SearchJob::new(root, SearchLimits::depth(depth.max(1)), &tt, &stop, &search_threads);
            job.network = eval.network_for(variant).map(|n| n.as_ref());
            let outcome = search::search(&job, |_| {});
            (outcome.nodes, outcome.best.map(|m| root.move_to_uci(m, false)))
        });
        nodes += n;
        positions.push((variant_name.to_string(), fen, n, best));
    }
    let time = start.elapsed();
    Ok(BenchReport { nodes, nps: search::nps(nodes, time), time, depth, positions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_is_benched_and_every_position_reads() {
        for name in names() {
            assert!(BENCH_POSITIONS.iter().filter(|p| p.variant == name).count() >= 2, "{name} has too few positions");
        }
        for bp in BENCH_POSITIONS {
            let v = by_name(bp.variant).unwrap();
            let p = AnyPosition::from_fen(v, bp.fen).unwrap_or_else(|e| panic!("{}: {e}", bp.fen));
            assert!(!p.legal_moves_uci(false).is_empty(), "{} has no legal move", bp.fen);
        }
    }
}
