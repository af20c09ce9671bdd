//! Pre-game decisions: the start checks accept every D-Chess and Chess-9 start and refuse
//! everything else; each decision scores every option from the chooser's point of view (the
//! side choice as the negated best transposition of the first mover, Black's relocation as the
//! negated best answer of White) and picks the best; the `pregame` command answers in the
//! documented lines and leaves the engine alone; the CLI prints the whole pre-game; bad input
//! (FENs, swaps, relocations out of turn, budgets) is refused with a clear error.
//!
//! Budgets are small node counts, which keep the searches deterministic on one thread.

mod common;

use common::menagerie;
use menagerie::engine::Engine;
use menagerie::geometry::Color;
use menagerie::pregame::{
    check_start, choose_relocation, choose_side, choose_transposition, protocol_command, run_pregame, Budget, Forced,
    PregameError, Scorer, Sequence, StepKind,
};
use menagerie::random::SplitMix64;
use menagerie::search::{search, SearchJob, SearchThreads, TranspositionTable};
use menagerie::startpos::{apply_transposition, start_fen, transpositions};
use menagerie::variant::{by_name, Variant};
use menagerie::with_position;
use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;

const DCHESS_EXAMPLE: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1";
const CHESS9_START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const SMALL: Budget = Budget::Nodes(20_000);

fn dchess() -> &'static Variant {
    by_name("dchess").unwrap()
}

fn chess9() -> &'static Variant {
    by_name("chess9").unwrap()
}

fn scorer() -> Scorer {
    Scorer::new(4, 1)
}

#[test]
fn every_start_passes_the_check_with_either_side_to_move_in_dchess() {
    let v = dchess();
    let mut rng = SplitMix64::new(7);
    for _ in 0..60 {
        let index = rng.below(v.start_count());
        let fen = start_fen(v, index).unwrap();
        let checked = check_start(v, &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(checked.to_move, Color::White);
        assert_eq!((checked.white_array * 2880 + checked.black_array) as u64, index);
        let black_first = fen.replace(" w ", " b ");
        assert_eq!(check_start(v, &black_first).unwrap().to_move, Color::Black);
        // A transposition keeps a legal start.
        let token = &transpositions(v, &black_first).unwrap()[0];
        check_start(v, &apply_transposition(v, &black_first, token).unwrap()).unwrap();
    }
    for index in 0..9 {
        check_start(chess9(), &start_fen(chess9(), index).unwrap()).unwrap();
    }
}

#[test]
fn positions_that_are_not_starts_are_refused() {
    let not_start = |v: &'static Variant, fen: &str| match check_start(v, fen) {
        Err(PregameError::NotAStart(m)) => m,
        other => panic!("{fen}: expected NotAStart, got {other:?}"),
    };
    let v = dchess();
    // Bishops on the same colour (b8 and d8 are both light).
    let m = not_start(v, "qbnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
    assert!(m.contains("black's back rank"), "{m}");
    // Two queens, no rook.
    not_start(v, "bbqnnqkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
    // A pawn already moved; an extra piece; castling rights.
    let m = not_start(v, "bbqnnrkr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b - - 0 1");
    assert!(m.contains("pawns"), "{m}");
    not_start(v, "bbqnnrkr/pppppppp/8/8/8/4N3/PPPPPPPP/RNBQKBNR b - - 0 1");
    // D-Chess has no castling: the engine reads a castling field as no rights, so the start is
    // the same. Chess-9 without its castling rights is not a start.
    let fen_with_rights = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(check_start(v, fen_with_rights).unwrap().fen.contains(" w - - "));
    let m = not_start(chess9(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1");
    assert!(m.contains("castling rights"), "{m}");
    // Chess-9: only its three arrays, and White moves first.
    let m = not_start(chess9(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(m.contains("one of RNBQKBNR, RNKQBBNR, RNBBKQNR"), "{m}");
    let m = not_start(chess9(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1");
    assert!(m.contains("White moves first"), "{m}");
    // Not a FEN at all.
    for bad in ["", "hello", "8/8/8/8/8/8/8/8 w - - 0 1", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w - - 0 1"] {
        assert!(check_start(v, bad).is_err(), "'{bad}' accepted");
    }
}

/// The score of a plain search of `fen` with the same limits, from the side to move.
fn direct_score(v: &'static Variant, fen: &str, limits: menagerie::search::SearchLimits) -> i32 {
    let p = menagerie::any::AnyPosition::from_fen(v, fen).unwrap();
    let tt = TranspositionTable::new(4);
    let stop = AtomicBool::new(false);
    let threads = SearchThreads::new(1);
    with_position!(&p, p => search(&SearchJob::new(p, limits, &tt, &stop, &threads), |_| {}).score)
}

#[test]
fn the_transposition_scores_every_swap_for_the_first_mover() {
    let v = dchess();
    let d = choose_transposition(v, DCHESS_EXAMPLE, Budget::Depth(2), &mut scorer()).unwrap();
    assert_eq!(d.chooser, Color::Black);
    let names: Vec<&str> = d.options.iter().map(|o| o.name.as_str()).collect();
    let mut expected = vec!["none".to_string()];
    expected.extend(transpositions(v, DCHESS_EXAMPLE).unwrap());
    assert_eq!(names, expected);
    assert_eq!(d.options.len(), 20);
    let best = d.options.iter().map(|o| o.score).max().unwrap();
    assert_eq!(d.chosen().score, best);
    assert!(d.options[..d.best].iter().all(|o| o.score < best), "ties go to the earlier option");
    for o in &d.options {
        let fen = if o.name == "none" {
            DCHESS_EXAMPLE.to_string()
        } else {
            apply_transposition(v, DCHESS_EXAMPLE, &o.name).unwrap()
        };
        assert_eq!(o.fen, fen);
    }
    // The option "none" is exactly a search of the FEN from the first mover's side (depth 2
    // does not depend on what the shared table holds).
    let none = direct_score(v, DCHESS_EXAMPLE, menagerie::search::SearchLimits::depth(2));
    assert_eq!(d.options[0].score, none);
    // White first: the other back rank.
    let white_first = DCHESS_EXAMPLE.replace(" b ", " w ");
    let d = choose_transposition(v, &white_first, SMALL, &mut scorer()).unwrap();
    assert_eq!(d.chooser, Color::White);
    assert!(d.options.iter().skip(1).all(|o| o.name.ends_with('1')), "{:?}", d.options);
}

#[test]
fn the_side_choice_negates_the_first_movers_best_transposition() {
    let v = dchess();
    let sd = choose_side(v, DCHESS_EXAMPLE, SMALL, &mut scorer()).unwrap();
    let names: Vec<&str> = sd.decision.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["white", "black"]);
    assert_eq!(sd.replies.len(), 2);
    for (option, reply) in sd.decision.options.iter().zip(&sd.replies) {
        assert_eq!(reply.options.len(), 20);
        assert_eq!(option.score, -reply.chosen().score);
        assert_eq!(option.reply.as_deref(), Some(reply.chosen().name.as_str()));
        assert_eq!(option.fen, reply.chosen().fen);
    }
    // Taking White means Black moves first, and the other way round.
    assert_eq!(sd.replies[0].chooser, Color::Black);
    assert_eq!(sd.replies[1].chooser, Color::White);
    let best = if sd.decision.options[0].score >= sd.decision.options[1].score { Color::White } else { Color::Black };
    assert_eq!(sd.side(), best);
    // The side to move of the given FEN does not matter, and the result is reproducible.
    let again = choose_side(v, &DCHESS_EXAMPLE.replace(" b ", " w "), SMALL, &mut scorer()).unwrap();
    assert_eq!(again.decision.options, sd.decision.options);
}

#[test]
fn chess9_black_relocates_first_against_whites_best_answer() {
    let v = chess9();
    let black = choose_relocation(v, CHESS9_START, Color::Black, SMALL, &mut scorer()).unwrap();
    let names: Vec<&str> = black.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["none", "king", "queen"]);
    for o in &black.options {
        let answer = o.reply.as_deref().unwrap();
        assert!(["none", "king", "queen"].contains(&answer), "{answer}");
        // White's answer is searched with White to move; the FEN carries both choices.
        assert!(o.fen.contains(" w "), "{}", o.fen);
        check_start(v, &o.fen).unwrap();
    }
    let after_black = "rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let white = choose_relocation(v, after_black, Color::White, SMALL, &mut scorer()).unwrap();
    assert_eq!(white.chooser, Color::White);
    assert_eq!(white.options.len(), 3);
    assert!(white.options.iter().all(|o| o.reply.is_none()));
    assert!(white.options.iter().all(|o| o.fen.starts_with("rnkqbbnr/")));
}

#[test]
fn relocations_out_of_turn_are_refused() {
    let v = chess9();
    let out_of_turn = |fen: &str, color: Color| match choose_relocation(v, fen, color, SMALL, &mut scorer()) {
        Err(PregameError::OutOfTurn(m)) => m,
        other => panic!("{fen} {color}: expected OutOfTurn, got {other:?}"),
    };
    let white_moved = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1";
    assert!(out_of_turn(white_moved, Color::Black).contains("Black chooses first"));
    assert!(out_of_turn(white_moved, Color::White).contains("already"));
    let black_moved = "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(out_of_turn(black_moved, Color::Black).contains("already"));
    // Decisions the variant does not have.
    assert!(matches!(
        choose_relocation(dchess(), DCHESS_EXAMPLE, Color::Black, SMALL, &mut scorer()),
        Err(PregameError::NoSuchDecision { .. })
    ));
    assert!(matches!(
        choose_transposition(v, CHESS9_START, SMALL, &mut scorer()),
        Err(PregameError::NoSuchDecision { .. })
    ));
}

#[test]
fn the_whole_pregame_follows_the_decisions() {
    let p = run_pregame(dchess(), DCHESS_EXAMPLE, SMALL, &Forced::default(), &mut scorer()).unwrap();
    assert_eq!(p.steps.len(), 2);
    assert_eq!(p.steps[0].kind, StepKind::Side);
    let side = p.steps[0].choice.as_str();
    let first_mover = if side == "white" { Color::Black } else { Color::White };
    assert_eq!(p.steps[1].kind, StepKind::Swap(first_mover));
    assert_eq!(check_start(dchess(), &p.fen).unwrap().to_move, first_mover);
    // Imposed side and swap: no search, the swap applied to the first mover's array.
    let forced = Forced { side: Some(Color::White), swap: Some("a8c8".to_string()), ..Forced::default() };
    let p = run_pregame(dchess(), DCHESS_EXAMPLE, SMALL, &forced, &mut scorer()).unwrap();
    assert!(p.steps.iter().all(|s| s.decision.is_none()));
    assert_eq!(p.fen, "qbbnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1");
    // A swap that breaks the bishop rule, or of the wrong side's rank, is refused.
    for bad in ["a8b8", "d8e8", "a1c1", "zz", "a8"] {
        let forced = Forced { side: Some(Color::White), swap: Some(bad.to_string()), ..Forced::default() };
        let e = run_pregame(dchess(), DCHESS_EXAMPLE, SMALL, &forced, &mut scorer()).unwrap_err();
        assert!(matches!(e, PregameError::IllegalChoice(_)), "{bad}: {e:?}");
    }
    // Chess-9: Black's relocation, then White's.
    let p = run_pregame(chess9(), CHESS9_START, SMALL, &Forced::default(), &mut scorer()).unwrap();
    let kinds: Vec<StepKind> = p.steps.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, [StepKind::Relocate(Color::Black), StepKind::Relocate(Color::White)]);
    check_start(chess9(), &p.fen).unwrap();
    let forced = Forced { relocations: vec![(Color::White, "king".to_string())], ..Forced::default() };
    let p = run_pregame(
        chess9(),
        "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        SMALL,
        &forced,
        &mut scorer(),
    )
    .unwrap();
    assert_eq!(p.fen, "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1");
    let forced = Forced { relocations: vec![(Color::Black, "king".to_string())], ..Forced::default() };
    let e = run_pregame(
        chess9(),
        "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        SMALL,
        &forced,
        &mut scorer(),
    )
    .unwrap_err();
    assert!(matches!(e, PregameError::OutOfTurn(_)), "{e:?}");
    assert!(run_pregame(by_name("chess").unwrap(), CHESS9_START, SMALL, &Forced::default(), &mut scorer()).is_err());
}

#[test]
fn every_decision_offers_the_options_of_the_shared_sequence() {
    for (v, fen) in [(dchess(), DCHESS_EXAMPLE), (chess9(), CHESS9_START)] {
        let p = run_pregame(v, fen, SMALL, &Forced::default(), &mut scorer()).unwrap();
        let mut seq = Sequence::new(v, &check_start(v, fen).unwrap().fen).unwrap();
        for step in &p.steps {
            assert_eq!(seq.next(), Some(step.kind), "{}", v.name);
            let d = step.decision.as_ref().unwrap();
            let names: Vec<String> = d.options.iter().map(|o| o.name.clone()).collect();
            assert_eq!(names, seq.options().unwrap(), "{}: {:?}", v.name, step.kind);
            if let Some(c) = step.kind.chooser() {
                assert_eq!(d.chooser, c);
            }
            // Each option's FEN is where the sequence goes from it (and, with a later step,
            // the other side's expected answer).
            for o in &d.options {
                let mut after = seq.after(&o.name).unwrap();
                if let Some(reply) = &o.reply {
                    after.apply(reply).unwrap();
                }
                assert_eq!(after.next(), None);
                assert_eq!(after.fen(), o.fen, "{}: {:?} {}", v.name, step.kind, o.name);
            }
            seq.apply(&step.choice).unwrap();
        }
        assert_eq!(seq.next(), None, "{}: every step was decided", v.name);
        assert_eq!(seq.fen(), p.fen);
    }
    // A decision asked on its own offers the same options as the step in the whole sequence.
    let engine = Engine::new("chess").unwrap();
    let lines =
        protocol_command(&format!("pregame chess9 relocate {CHESS9_START} black depth 1"), &engine, Budget::Depth(1))
            .unwrap();
    let offered: Vec<&str> =
        lines.iter().filter_map(|l| l.strip_prefix("pregame option ")?.split(' ').next()).collect();
    assert_eq!(offered, Sequence::new(chess9(), CHESS9_START).unwrap().options().unwrap());
}

#[test]
fn the_protocol_command_answers_in_documented_lines_and_leaves_the_engine_alone() {
    let mut engine = Engine::new("chess9").unwrap();
    let fen = "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    engine.set_position(fen, &["e2e4"]).unwrap();
    let before = engine.position().to_fen();
    let lines = protocol_command(
        &format!("pregame dchess choose-side {DCHESS_EXAMPLE} nodes 20000"),
        &engine,
        Budget::Depth(1),
    )
    .unwrap();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[0].starts_with("pregame option white ") && lines[1].starts_with("pregame option black "));
    for l in &lines[..2] {
        l.rsplit(' ').next().unwrap().parse::<i32>().unwrap();
    }
    assert!(lines[2] == "pregame side white" || lines[2] == "pregame side black");
    let lines =
        protocol_command(&format!("pregame dchess transpose {DCHESS_EXAMPLE} depth 1"), &engine, Budget::Depth(1))
            .unwrap();
    assert_eq!(lines.len(), 21);
    assert_eq!(lines[0].split(' ').nth(2), Some("none"));
    assert!(lines[20].starts_with("pregame swap "));
    let lines = protocol_command(
        &format!("pregame chess9 relocate {CHESS9_START} black movetime 60"),
        &engine,
        Budget::Depth(1),
    )
    .unwrap();
    assert_eq!(lines.len(), 4);
    assert!(["pregame relocate none", "pregame relocate king", "pregame relocate queen"].contains(&lines[3].as_str()));
    let lines = protocol_command(&format!("pregame chess9 relocate {fen} white nodes 3000"), &engine, Budget::Depth(1))
        .unwrap();
    assert_eq!(lines.len(), 4, "{lines:?}");

    let bad = [
        "pregame",
        "pregame dchess",
        "pregame nochess transpose 8/8/8/8/8/8/8/8 w - - 0 1",
        "pregame dchess transpose",
        "pregame dchess transpose not a fen",
        "pregame dchess flip bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1",
        "pregame dchess transpose qbnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1",
        "pregame dchess transpose bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 depth 0",
        "pregame dchess transpose bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 depth x",
        "pregame dchess transpose bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 movetime 0",
        "pregame dchess transpose bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 nodes",
        "pregame dchess choose-side bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 white",
        "pregame dchess relocate bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1 black",
        "pregame chess9 transpose rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "pregame chess9 relocate rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "pregame chess9 relocate rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1 black",
        "pregame chess9 relocate rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 black",
    ];
    for line in bad {
        let e = protocol_command(line, &engine, Budget::Depth(1)).expect_err(line);
        assert!(e.to_string().starts_with("pregame: "), "{line}: {e}");
    }
    assert_eq!(engine.variant().name, "chess9");
    assert_eq!(engine.position().to_fen(), before);
}

#[test]
fn the_cli_prints_the_whole_pregame() {
    let (code, out, err) = menagerie(&["pregame", "--variant", "dchess", "--index", "1492358", "--nodes", "20000"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("side (the coin-toss winner") && out.contains("swap ("), "{out}");
    let fen = out.lines().last().unwrap().strip_prefix("start fen: ").unwrap();
    check_start(dchess(), fen).unwrap();

    let (code, out, err) =
        menagerie(&["pregame", "--variant", "dchess", "--fen", DCHESS_EXAMPLE, "--depth", "1", "--machine"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    // 2 side options + the side + 20 swap options + the swap + the FEN.
    assert_eq!(lines.len(), 25, "{out}");
    assert!(lines[0].starts_with("side:white ") && lines[1].starts_with("side:black "));
    assert!(lines[3].starts_with("swap:none "));
    for l in lines.iter().filter(|l| l.contains(':') && !l.starts_with("fen ")) {
        let (name, score) = l.split_once(' ').unwrap();
        assert!(name.contains(':'), "{l}");
        score.parse::<i32>().unwrap_or_else(|_| panic!("{l}"));
    }
    assert!(lines[24].starts_with("fen "));

    let (code, out, err) =
        menagerie(&["pregame", "--variant", "chess9", "--index", "0", "--nodes", "9000", "--machine"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 9, "{out}");
    assert!(lines[0].starts_with("relocate.black:none ") && lines[4].starts_with("relocate.white:none "));
    check_start(chess9(), lines[8].strip_prefix("fen ").unwrap()).unwrap();
}

#[test]
fn the_cli_budget_is_the_time_controls_or_the_default() {
    // Both relocations imposed: nothing is searched, and the header names the budget.
    let header = |budget: &[&str]| {
        let mut args = vec!["pregame", "--variant", "chess9", "--index", "0"];
        args.extend(["--relocate", "black:none", "--relocate", "white:king"]);
        args.extend(budget);
        let (code, out, err) = menagerie(&args);
        assert_eq!(code, 0, "{err}");
        out.lines().next().unwrap().to_string()
    };
    assert!(header(&[]).ends_with("(movetime 2000)"), "the documented default");
    assert!(header(&["--tc", "1+0.01"]).ends_with("(movetime 300)"));
    assert!(header(&["--tc", "60+0.6"]).ends_with("(movetime 18000)"));
    assert!(header(&["--tc", "nodes=1000"]).ends_with("(nodes 5000)"));
}

#[test]
fn the_cli_refuses_bad_input_with_one_error_line() {
    let cases: [&[&str]; 11] = [
        &["pregame", "--variant", "dchess", "--index", "0", "--tc", "fast"],
        &["pregame", "--variant", "chess9", "--index", "0", "--swap", "e1c1"],
        &["pregame", "--variant", "dchess", "--index", "0", "--relocate", "black:king"],
        &["pregame", "--variant", "dchess"],
        &["pregame", "--variant", "chess", "--index", "0"],
        &["pregame", "--variant", "dchess", "--index", "8294400"],
        &["pregame", "--variant", "dchess", "--fen", "qbnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1"],
        &["pregame", "--variant", "dchess", "--index", "0", "--swap", "a8b8", "--depth", "1"],
        &["pregame", "--variant", "dchess", "--index", "0", "--side", "red"],
        &["pregame", "--variant", "chess9", "--index", "3", "--relocate", "black:king"],
        &["pregame", "--variant", "dchess", "--index", "0", "--depth", "0"],
    ];
    for args in cases {
        let (code, out, err) = menagerie(args);
        assert_ne!(code, 0, "{args:?}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn uci_answers_pregame_and_keeps_its_position() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start menagerie");
    let mut stdin = child.stdin.take().unwrap();
    let script = format!(
        "uci\nsetoption name UCI_Variant value chess9\nposition fen {CHESS9_START} moves e2e4\n\
         pregame dchess transpose {DCHESS_EXAMPLE} nodes 5000\n\
         pregame dchess transpose qbnbnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1\n\
         pregame chess9 relocate {CHESS9_START} white depth 1\n\
         go depth 1\nquit\n"
    );
    stdin.write_all(script.as_bytes()).unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.iter().filter(|l| l.starts_with("pregame option ")).count(), 20 + 3, "{text}");
    assert!(lines.iter().any(|l| l.starts_with("pregame swap ")), "{text}");
    assert!(lines.iter().any(|l| l.starts_with("pregame relocate ")), "{text}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("info string error: pregame: not a start")).count(), 1, "{text}");
    // The search afterwards is Black's, after 1.e4 in Chess-9: the position was kept.
    let best = lines.iter().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
    let mv = best.split(' ').next().unwrap();
    let mut p = menagerie::any::AnyPosition::from_fen(chess9(), CHESS9_START).unwrap();
    p.play_text("e2e4").unwrap();
    assert!(p.legal_moves_uci(false).contains(&mv.to_string()), "{mv}");
}
