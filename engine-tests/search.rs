//! Search and engine tests: the bench is deterministic; mates in one and two are found in chess
//! and in VD Chess (by a drop); the 3/5 stalemate of Random Variant Chess is sought when it is
//! the clear choice and avoided when a mate is there; every perft-suite position gets a legal
//! move; repetitions (with the game history) and the 50-move rule are draws; `stop` ends an
//! infinite search with a legal best move and nothing after it; node limits hold; a clock search
//! ends by itself within limits of at most a third of the clock; and alpha-beta with every
//! pruning switched off equals plain minimax.
//!
//! Mates are checked by brute force over `legal_moves`, not by trusting the engine's score.

mod common;

use common::HANG_GUARD;
use crossbeam_channel::{Receiver, RecvTimeoutError};
use menagerie::any::AnyPosition;
use menagerie::bench;
use menagerie::bitboard::BitSet;
use menagerie::engine::{Engine, EngineError, SearchEvent};
use menagerie::eval::evaluate;
use menagerie::geometry::Color;
use menagerie::nnue::embedded::EvalChoice;
use menagerie::position::Position;
use menagerie::search::score::mated_in;
use menagerie::search::{search, Features, ScoreReport, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
use menagerie::variant::{by_name, StalemateRule};
use menagerie::with_position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Run a search to the end and return (last info score, best move, ponder move).
fn finish(rx: Receiver<SearchEvent>) -> (Option<ScoreReport>, Option<String>, Option<String>) {
    let mut score = None;
    while let Some(event) = next_event(&rx) {
        match event {
            SearchEvent::Info { score: s, pv, .. } => {
                assert!(!pv.is_empty(), "an iteration without a principal variation");
                score = Some(s);
            }
            SearchEvent::CurrMove { .. } => {}
            SearchEvent::BestMove { best, ponder } => return (score, best, ponder),
        }
    }
    panic!("the search ended without a best move");
}

fn engine_at(variant: &str, fen: &str) -> Engine {
    let mut e = Engine::new(variant).unwrap_or_else(|err| panic!("{variant}: {err}"));
    e.set_position::<&str>(fen, &[]).unwrap_or_else(|err| panic!("{fen}: {err}"));
    e
}

fn best_at_depth(variant: &str, fen: &str, depth: u32) -> (Option<ScoreReport>, String) {
    let mut e = engine_at(variant, fen);
    let (score, best, _) = finish(e.go(SearchLimits::depth(depth)));
    (score, best.unwrap_or_else(|| panic!("no move in {fen}")))
}

fn after(variant: &str, fen: &str, moves: &[&str]) -> AnyPosition {
    let mut p = AnyPosition::from_fen(by_name(variant).unwrap(), fen).unwrap();
    for m in moves {
        p.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    p
}

fn is_checkmate(p: &AnyPosition) -> bool {
    p.legal_moves_uci(false).is_empty() && p.in_check()
}

fn is_stalemate(p: &AnyPosition) -> bool {
    p.legal_moves_uci(false).is_empty() && !p.in_check()
}

/// Whether the side to move mates in one.
fn mates_in_one(p: &AnyPosition) -> bool {
    p.legal_moves_uci(false).iter().any(|m| {
        let mut c = p.clone();
        c.play_text(m).is_ok() && is_checkmate(&c)
    })
}

/// Whether `first` mates in two: every reply allows a mate in one.
fn move_mates_in_two(p: &AnyPosition, first: &str) -> bool {
    let mut c = p.clone();
    if c.play_text(first).is_err() {
        return false;
    }
    let replies = c.legal_moves_uci(false);
    !replies.is_empty()
        && replies.iter().all(|r| {
            let mut d = c.clone();
            d.play_text(r).is_ok() && mates_in_one(&d)
        })
}

#[test]
fn bench_is_deterministic() {
    let a = bench::run(3, 1, 4, EvalChoice::Default).unwrap();
    let b = bench::run(3, 1, 4, EvalChoice::Default).unwrap();
    assert_eq!(a.nodes, b.nodes);
    assert_eq!(a.positions, b.positions);
    assert!(a.positions.iter().all(|(_, _, n, best)| *n > 0 && best.is_some()));
}

/// `bench --eval`: the hand-written evaluation where the default searches with a network, a
/// network where the default does not (rvcstar, whose J the 12x8 network did not learn), and
/// each deterministic.
#[test]
fn bench_evaluations_differ_where_the_default_does_not_use_them() {
    let nodes_of = |eval, variant: &str| -> Vec<u64> {
        let r = bench::run(4, 1, 4, eval).unwrap();
        r.positions.iter().filter(|(v, ..)| v == variant).map(|(_, _, n, _)| *n).collect()
    };
    let default = |v| nodes_of(EvalChoice::Default, v);
    assert_ne!(default("dchess"), nodes_of(EvalChoice::HandWritten, "dchess"));
    assert_eq!(default("rvcstar"), nodes_of(EvalChoice::HandWritten, "rvcstar"));
    assert_ne!(default("rvcstar"), nodes_of(EvalChoice::Network, "rvcstar"));
    assert_eq!(default("rvc"), nodes_of(EvalChoice::Network, "rvc"));
    assert_eq!(default("chess"), nodes_of(EvalChoice::Network, "chess"));
    assert_eq!(nodes_of(EvalChoice::Network, "rvcstar"), nodes_of(EvalChoice::Network, "rvcstar"));
}

#[test]
fn mate_in_one_and_two_in_chess() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let (score, best) = best_at_depth("chess", fen, 4);
    assert!(is_checkmate(&after("chess", fen, &[&best])), "{best}");
    assert_eq!(score, Some(ScoreReport::Mate(1)));

    let fen = "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1";
    let p = after("chess", fen, &[]);
    assert!(!mates_in_one(&p));
    let (score, best) = best_at_depth("chess", fen, 5);
    assert!(move_mates_in_two(&p, &best), "{best}");
    assert_eq!(score, Some(ScoreReport::Mate(2)));
}

#[test]
fn drop_mates_in_vd_chess() {
    // The chancellor in hand is dropped with mate.
    let fen = "6rk/6pp/8/8/8/8/8/K7[C] w - - 0 1";
    let (score, best) = best_at_depth("vdchess", fen, 4);
    assert!(best.contains('@'), "{best}");
    assert!(is_checkmate(&after("vdchess", fen, &[&best])), "{best}");
    assert_eq!(score, Some(ScoreReport::Mate(1)));

    // Mate in two, beginning with a drop (C@g5; the only first move that mates in two).
    let fen = "5rk1/5p1p/8/8/8/8/8/K6R[C] w - - 0 1";
    let p = after("vdchess", fen, &[]);
    assert!(!mates_in_one(&p), "the mate in two position has a mate in one");
    let (score, best) = best_at_depth("vdchess", fen, 5);
    assert!(move_mates_in_two(&p, &best), "{best}");
    assert!(best.contains('@'), "{best}");
    assert_eq!(score, Some(ScoreReport::Mate(2)));
}

#[test]
fn random_variant_chess_seeks_the_stalemate_that_scores() {
    let v = by_name("rvc").unwrap();
    let StalemateRule::WinForStalemater { score_cp } = v.stalemate else { panic!("rvc stalemate is not a win") };
    // Black is a pawn up, and all its pawns are blocked; Ki6-j7 takes the king's last squares.
    // Every other move leaves White a pawn down in a dead position.
    let fen = "11k/11p/8K2p/11P/12/12/12/12 w - - 0 1";
    let (score, best) = best_at_depth("rvc", fen, 6);
    assert_eq!(best, "i6j7");
    assert!(is_stalemate(&after("rvc", fen, &[&best])));
    assert_eq!(score, Some(ScoreReport::Centipawns(score_cp)));

    // With a queen to spare, the stalemate's small plus is not enough: White mates.
    let fen = "11k/12/9K2/12/12/12/12/Q11 w - - 0 1";
    let (score, best) = best_at_depth("rvc", fen, 6);
    assert!(!is_stalemate(&after("rvc", fen, &[&best])), "{best} stalemates");
    assert!(matches!(score, Some(ScoreReport::Mate(n)) if n > 0), "{score:?}");
}

/// Every position of the perft suites.
fn suite_entries() -> Vec<common::Entry> {
    for file in common::suite_variant_files() {
        menagerie::variant_file::load(&file).unwrap_or_else(|e| panic!("{e}"));
    }
    common::suite_files().iter().flat_map(|f| common::read_suite(f)).collect()
}

#[test]
fn a_legal_move_from_every_perft_suite_position() {
    let entries = suite_entries();
    assert!(entries.len() > 100, "only {} suite positions", entries.len());
    let mut engine = Engine::new("chess").unwrap();
    for e in &entries {
        engine.set_variant(&e.variant).unwrap_or_else(|err| panic!("{}: {err}", e.variant));
        engine.set_position::<&str>(&e.epd, &[]).unwrap_or_else(|err| panic!("{}: {err}", e.epd));
        let legal = engine.position().legal_moves_uci(false);
        let (_, best, ponder) = finish(engine.go(SearchLimits::depth(3)));
        match best {
            Some(m) => {
                assert!(legal.contains(&m), "{} {}: {m} is not legal", e.variant, e.epd);
                if let Some(r) = ponder {
                    let next = after(&e.variant, &e.epd, &[&m]);
                    assert!(next.legal_moves_uci(false).contains(&r), "{}: ponder {r} after {m}", e.epd);
                }
            }
            None => assert!(legal.is_empty(), "{} {}: no move, but {} legal", e.variant, e.epd, legal.len()),
        }
    }
}

/// The next event of a search; a search that sends none within the hang guard has hung.
fn next_event(rx: &Receiver<SearchEvent>) -> Option<SearchEvent> {
    match rx.recv_timeout(HANG_GUARD) {
        Ok(event) => Some(event),
        Err(RecvTimeoutError::Disconnected) => None,
        Err(RecvTimeoutError::Timeout) => panic!("hang guard: no search event in {HANG_GUARD:?}, the search hung"),
    }
}

/// `stop` ends an infinite search, which never ends by itself, with a legal best move, and the
/// search then says nothing more (its channel closes). How soon after `stop` the best move
/// comes is measured by `scripts/protocol-latency.py`, not asserted here.
#[test]
fn stop_ends_an_infinite_search() {
    for (variant, fen) in [
        ("chess", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        ("rvc", "rfcnbqkbncfr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RFCNBQKBNCFR w KQkq - 0 1"),
    ] {
        let mut e = engine_at(variant, fen);
        e.set_threads(2);
        let rx = e.go(SearchLimits { infinite: true, ..SearchLimits::default() });
        // Under way: an iteration of depth 5 is reported, and the search has not ended.
        loop {
            match next_event(&rx) {
                Some(SearchEvent::Info { depth, .. }) if depth >= 5 => break,
                Some(SearchEvent::BestMove { .. }) | None => panic!("{variant}: an infinite search ended by itself"),
                Some(_) => {}
            }
        }
        assert!(e.is_searching(), "{variant}: an infinite search ended by itself");
        e.stop();
        let best = loop {
            match next_event(&rx) {
                Some(SearchEvent::BestMove { best, .. }) => break best,
                Some(_) => {}
                None => panic!("{variant}: no best move after stop"),
            }
        };
        let best = best.expect("a best move");
        assert!(e.position().legal_moves_uci(false).contains(&best), "{variant}: {best}");
        assert_eq!(next_event(&rx), None, "{variant}: an event after the best move");
        e.wait();
    }
}

#[test]
fn node_limits_hold() {
    let v = by_name("vdchess").unwrap();
    let p = AnyPosition::from_fen(v, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1").unwrap();
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let one = SearchThreads::new(1);
    let three = SearchThreads::new(3);
    with_position!(&p, root => {
        for limit in [1, 500, 20_000] {
            tt.clear();
            let outcome = search(&SearchJob::new(root, SearchLimits::nodes(limit), &tt, &stop, &one), |_| {});
            assert!(outcome.nodes <= limit, "{} nodes searched, limit {limit}", outcome.nodes);
            assert!(outcome.best.is_some_and(|m| root.legal_moves().iter().any(|&x| x == m)));
        }
        let outcome = search(&SearchJob::new(root, SearchLimits::nodes(50_000), &tt, &stop, &three), |_| {});
        assert!(outcome.nodes <= 50_000 + 3 * 2048, "{} nodes with 3 threads", outcome.nodes);
    });
    // Through the engine: reported nodes stay within the limit.
    let mut e = engine_at("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    for event in e.go(SearchLimits::nodes(3000)).iter() {
        if let SearchEvent::Info { nodes, .. } = event {
            assert!(nodes <= 3000);
        }
    }
}

#[test]
fn the_engine_refuses_bad_input_and_keeps_its_position() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let mut e = engine_at("chess", start);
    e.set_position(start, &["e2e4", "e7e5"]).unwrap();
    let before = e.position().to_fen();
    assert!(matches!(e.set_position(start, &["e2e4", "e2e4"]), Err(EngineError::Move { index: 1, .. })));
    assert!(matches!(e.set_position::<&str>("rnbqkbnr/pppppppp w", &[]), Err(EngineError::Fen(_))));
    assert!(matches!(e.set_variant("no-such-variant"), Err(EngineError::UnknownVariant(_))));
    assert!(matches!(e.go_restricted(SearchLimits::depth(2), &["e1e3"]), Err(EngineError::SearchMove(_))));
    assert_eq!(e.position().to_fen(), before);
    assert_eq!(e.variant().name, "chess");
    // Restricting the root moves: the best move is one of them, even a poor one.
    let rx = e.go_restricted(SearchLimits::depth(4), &["a2a3", "h2h3"]).unwrap();
    let (_, best, _) = finish(rx);
    assert!(matches!(best.as_deref(), Some("a2a3") | Some("h2h3")), "{best:?}");
}

/// A search under a clock ends by itself (no `stop`; a search that ignored the clock would run
/// into the hang guard) with a move.
#[test]
fn a_clock_search_ends_by_itself() {
    let mut e = engine_at("rvc", "rfcnbqkbncfr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RFCNBQKBNCFR w KQkq - 0 1");
    e.set_move_overhead(20);
    let rx = e.go(SearchLimits { wtime: Some(1000), btime: Some(1000), ..SearchLimits::default() });
    let best = loop {
        match next_event(&rx) {
            Some(SearchEvent::BestMove { best, .. }) => break best,
            Some(_) => {}
            None => panic!("the search ended without a best move"),
        }
    };
    assert!(best.is_some_and(|m| e.position().legal_moves_uci(false).contains(&m)));
    assert_eq!(next_event(&rx), None, "an event after the best move");
}

/// The limits a clock sets, read without waiting for them: a search whose start is put far
/// enough in the past is over. The hard limit (stop at once) is at most a third of the clock
/// less the move overhead (nine tenths on the last move before the control), the soft limit
/// (no new iteration) is no later, a fixed move time is the time less the overhead; `infinite`,
/// `ponder`, depth and nodes have no time limit. A search that has just started (its start put
/// an hour ahead) is within both limits. The time a search really takes is measured by
/// `scripts/protocol-latency.py`.
#[test]
fn clock_limits_are_a_share_of_the_clock() {
    use menagerie::search::TimeManager;
    let now = Instant::now();
    let ago = |ms: u64| now.checked_sub(Duration::from_millis(ms)).expect("a clock before the test");
    let later = now + Duration::from_secs(3600);
    let clock = |ms: u64, inc: u64, to_go: Option<u32>| SearchLimits {
        wtime: Some(ms),
        btime: Some(ms),
        winc: Some(inc),
        binc: Some(inc),
        movestogo: to_go,
        ..SearchLimits::default()
    };
    let overhead = 20;
    for (limits, most_ms) in [
        (clock(1000, 0, None), (1000 - overhead) / 3),
        (clock(60_000, 0, None), (60_000 - overhead) / 3),
        (clock(1000, 5000, None), (1000 - overhead) / 3),
        (clock(10_000, 100, Some(40)), (10_000 - overhead) / 3),
        (clock(10_000, 0, Some(1)), (10_000 - overhead) * 9 / 10),
        (SearchLimits::movetime(500), 500 - overhead),
    ] {
        for side in [Color::White, Color::Black] {
            let just_started = TimeManager::new(&limits, side, overhead, later);
            assert!(just_started.is_timed(), "{limits:?}");
            assert!(!just_started.hard_expired() && !just_started.soft_expired_scaled(1.0), "{limits:?}");
            let over = TimeManager::new(&limits, side, overhead, ago(most_ms));
            assert!(over.hard_expired(), "{limits:?}: still searching after {most_ms} ms");
            assert!(over.soft_expired_scaled(1.0), "{limits:?}: the soft limit is past the hard one");
        }
    }
    // Each side's search keeps to its own clock when the other has a minute.
    let low_white = SearchLimits { wtime: Some(300), btime: Some(60_000), ..SearchLimits::default() };
    let low_black = SearchLimits { wtime: Some(60_000), btime: Some(300), ..SearchLimits::default() };
    assert!(TimeManager::new(&low_white, Color::White, overhead, ago(300)).hard_expired());
    assert!(TimeManager::new(&low_black, Color::Black, overhead, ago(300)).hard_expired());
    for limits in [
        SearchLimits { infinite: true, ..clock(1000, 0, None) },
        SearchLimits { ponder: true, ..clock(1000, 0, None) },
        SearchLimits::depth(5),
        SearchLimits::nodes(1000),
    ] {
        let tm = TimeManager::new(&limits, Color::White, overhead, ago(60_000));
        assert!(!tm.is_timed() && !tm.hard_expired() && !tm.soft_expired_scaled(1.0), "{limits:?}");
    }
}

#[test]
fn repetitions_of_the_game_history_and_the_fifty_move_rule_are_draws() {
    // A rook down, Black can only hope for a draw: Kd8-e8 repeats the position before a1a2.
    let start = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1";
    let mut e = engine_at("chess", start);
    e.set_position(start, &["a1a2", "e8d8", "a2a1"]).unwrap();
    let (score, best, _) = finish(e.go(SearchLimits::depth(6)));
    assert_eq!(best.as_deref(), Some("d8e8"));
    assert_eq!(score, Some(ScoreReport::Centipawns(0)));
    // The same position without its history is simply lost.
    let here = e.position().to_fen();
    e.set_position::<&str>(&here, &[]).unwrap();
    let (score, _, _) = finish(e.go(SearchLimits::depth(6)));
    assert!(matches!(score, Some(ScoreReport::Centipawns(s)) if s < -200), "{score:?}");
    // Every move reaches the hundredth quiet ply.
    let (score, _) = best_at_depth("chess", "4k3/8/8/8/8/8/8/R3K3 b - - 99 80", 6);
    assert_eq!(score, Some(ScoreReport::Centipawns(0)));
}

/// Plain minimax with the search's scoring rules: the static evaluation at the leaves, mates
/// by distance from the root, stalemate by the variant's rule, bare kings drawn.
fn minimax<B: BitSet>(pos: &Position<B>, depth: u32, ply: usize) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return if pos.in_check() {
            mated_in(ply)
        } else {
            match pos.rules().variant.stalemate {
                StalemateRule::Draw => 0,
                StalemateRule::WinForStalemater { score_cp } => -score_cp,
            }
        };
    }
    let bare = pos.occupied().count() <= 2 && !pos.has_hand(Color::White) && !pos.has_hand(Color::Black);
    if ply > 0 && bare {
        return 0;
    }
    if depth == 0 {
        return evaluate(pos);
    }
    let mut best = i32::MIN;
    for &m in moves.iter() {
        let mut child = pos.clone();
        child.play(m);
        best = best.max(-minimax(&child, depth - 1, ply + 1));
    }
    best
}

/// A fixed-depth search with every feature off: plain alpha-beta.
fn plain_search<B: BitSet>(
    root: &Position<B>,
    depth: u32,
    tt: &TranspositionTable,
    threads: &SearchThreads,
) -> menagerie::search::SearchOutcome {
    tt.clear();
    let stop = AtomicBool::new(false);
    let mut job = SearchJob::new(root, SearchLimits::depth(depth), tt, &stop, threads);
    job.features = Features::none();
    search(&job, |_| {})
}

/// Plain alpha-beta scores exactly as minimax, with one thread and with helper threads sharing
/// the table (which, in a fixed-depth search, may answer), whichever thread searched what.
/// Depths 7 and 8 in the pawn endings give the helpers time to join.
#[test]
fn alpha_beta_equals_minimax() {
    let cases = [
        ("chess", "4k3/8/8/3q4/8/2N5/8/4K2R w K - 0 1", 3),
        ("chess", "7k/8/8/8/8/8/R7/1R4K1 w - - 0 1", 3),
        ("chess", "8/3k4/8/2pP4/2P5/8/4K3/8 b - - 0 1", 3),
        ("vdchess", "4k3/3p4/8/8/8/8/3P4/4K3[Cc] w - - 0 1", 2),
        ("vdchess", "4k3/8/8/8/8/8/8/R3K3[a] b Q - 0 1", 3),
        ("rvc", "11k/12/12/5h6/12/3Y8/12/K11 w - - 0 1", 3),
        ("rvc", "11k/11p/8K2p/11P/12/12/12/12 w - - 0 1", 3),
        ("chess", "8/3k4/8/2pP4/2P5/8/4K3/8 b - - 0 1", 8),
        ("chess", "8/8/1k6/p1p5/P1P5/1K6/8/8 w - - 0 1", 8),
        ("rvc", "11k/11p/8K2p/11P/12/12/12/12 w - - 0 1", 7),
    ];
    let tt = TranspositionTable::new(4);
    let one = SearchThreads::new(1);
    let two = SearchThreads::new(2);
    for (variant, fen, depth) in cases {
        let p = AnyPosition::from_fen(by_name(variant).unwrap(), fen).unwrap();
        with_position!(&p, root => {
            let expected = minimax(root, depth, 0);
            for (threads, rounds) in [(&one, 1), (&two, 3)] {
                for round in 0..rounds {
                    let outcome = plain_search(root, depth, &tt, threads);
                    assert_eq!(outcome.depth, depth);
                    assert_eq!(
                        outcome.score,
                        expected,
                        "{variant} {fen} depth {depth}, {} threads, round {round}",
                        threads.count()
                    );
                }
            }
        });
    }
}

/// The same over the bench positions, middle games of every variant: plain alpha-beta with one
/// thread is minimax (see above), so the search with helpers must give exactly its score.
#[test]
fn alpha_beta_with_helper_threads_scores_the_bench_positions_as_one_thread() {
    let tt = TranspositionTable::new(16);
    let one = SearchThreads::new(1);
    let two = SearchThreads::new(2);
    for p in bench::BENCH_POSITIONS {
        let position = AnyPosition::from_fen(by_name(p.variant).unwrap(), p.fen).unwrap();
        with_position!(&position, root => {
            let expected = plain_search(root, 4, &tt, &one).score;
            for round in 0..2 {
                assert_eq!(plain_search(root, 4, &tt, &two).score, expected, "{} {}, round {round}", p.variant, p.fen);
            }
        });
    }
}

/// Not run by default: `cargo test --release --test search -- --ignored --nocapture` prints the
/// bench per position.
#[test]
#[ignore]
fn bench_report() {
    let r = bench::run(bench::DEFAULT_DEPTH, 1, bench::DEFAULT_HASH_MB, EvalChoice::Default).unwrap();
    for (variant, fen, nodes, best) in &r.positions {
        println!("{variant:13} {nodes:>10} {:6} {fen}", best.as_deref().unwrap_or("-"));
    }
    println!("depth {} nodes {} nps {} time {:?}", r.depth, r.nodes, r.nps, r.time);
}

/// With several threads the first to complete a fixed depth ends the search: whichever it was,
/// the last report is of that depth and its line starts with the move played.
#[test]
fn a_parallel_fixed_depth_search_reports_the_line_it_plays() {
    let mut e = Engine::new("chess").unwrap();
    e.set_threads(3);
    for p in bench::BENCH_POSITIONS.iter().take(14) {
        e.set_variant(p.variant).unwrap();
        e.set_position::<&str>(p.fen, &[]).unwrap();
        for depth in [6, 8] {
            let mut last = None;
            let mut best = None;
            for event in e.go(SearchLimits::depth(depth)).iter() {
                match event {
                    SearchEvent::Info { depth, pv, bound, .. } => last = Some((depth, pv, bound)),
                    SearchEvent::BestMove { best: b, .. } => best = b,
                    _ => {}
                }
            }
            let (reported, pv, bound) = last.unwrap_or_else(|| panic!("{}: no report", p.fen));
            assert_eq!((reported, bound), (depth, menagerie::search::Bound::Exact), "{}", p.fen);
            assert_eq!(pv.first(), best.as_ref(), "{} depth {depth}", p.fen);
            e.wait();
        }
    }
}
