//! UCI sessions against the real binary: the handshake, options, variant switching, positions
//! with moves that vampirc-uci cannot carry, errors that keep the previous position, `stop` and
//! `isready` during a search, and `bestmove 0000` without legal moves.

mod common;

use menagerie::any::AnyPosition;
use menagerie::variant::by_name;
use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    /// The engine, started and not yet spoken to.
    fn spawn() -> Session {
        let (child, stdin, lines) = common::spawn_engine();
        Session { child, stdin, lines }
    }

    /// A session after the handshake.
    fn start() -> Session {
        let mut s = Session::spawn();
        s.send("uci");
        s.expect(|l| l == "uciok");
        s
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Read lines until one satisfies `want` (within the hang guard); returns every line read,
    /// that one last.
    fn expect(&mut self, want: impl Fn(&str) -> bool) -> Vec<String> {
        common::read_until(&self.lines, want)
    }

    fn bestmove(&mut self) -> String {
        let lines = self.expect(|l| l.starts_with("bestmove"));
        let last = lines.last().cloned().unwrap_or_default();
        last.split_whitespace().nth(1).unwrap_or("").to_string()
    }

    /// After a `bestmove` the search has said everything: `isready` is answered by the very next
    /// line (a search that went on printing would put its lines first).
    fn assert_silent(&mut self, after: &str) {
        self.send("isready");
        let lines = self.expect(|l| l == "readyok");
        assert_eq!(lines, ["readyok"], "lines after {after}");
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

fn legal(variant: &str, fen: &str, moves: &[&str]) -> Vec<String> {
    let mut p = AnyPosition::from_fen(by_name(variant).unwrap(), fen).unwrap();
    for m in moves {
        p.play_text(m).unwrap();
    }
    p.legal_moves_uci(false)
}

/// One `option` line as a GUI reads it: `option name NAME type TYPE` and then, by type,
/// `default`, `min`, `max` and `var` fields.
#[derive(Debug, PartialEq)]
struct OptionLine {
    name: String,
    kind: String,
    default: Option<String>,
    min: Option<i64>,
    max: Option<i64>,
    vars: Vec<String>,
}

/// Read an `option` line by the UCI grammar; an error says what a GUI would stumble on.
fn read_option_line(line: &str) -> Result<OptionLine, String> {
    let rest = line.strip_prefix("option name ").ok_or("not 'option name ...'")?;
    let (name, rest) = rest.split_once(" type ").ok_or("no ' type '")?;
    if name.trim().is_empty() || name != name.trim() {
        return Err(format!("bad name '{name}'"));
    }
    let mut words = rest.split(' ');
    let kind = words.next().unwrap_or("").to_string();
    let mut option = OptionLine { name: name.to_string(), kind, default: None, min: None, max: None, vars: Vec::new() };
    // Each field is a keyword and one word (names, defaults and vars here have no blanks).
    let words: Vec<&str> = words.collect();
    if !words.len().is_multiple_of(2) {
        return Err(format!("a field without a value: {words:?}"));
    }
    for pair in words.chunks(2) {
        let (key, value) = (pair[0], pair[1]);
        let number = || value.parse::<i64>().map_err(|_| format!("{key} '{value}' is not a number"));
        match key {
            "default" if option.default.is_none() => option.default = Some(value.to_string()),
            "min" if option.min.is_none() => option.min = Some(number()?),
            "max" if option.max.is_none() => option.max = Some(number()?),
            "var" if !option.vars.contains(&value.to_string()) => option.vars.push(value.to_string()),
            _ => return Err(format!("unexpected or repeated field '{key} {value}'")),
        }
    }
    let default = option.default.clone().ok_or("no default")?;
    match option.kind.as_str() {
        "spin" => {
            let (Some(min), Some(max)) = (option.min, option.max) else {
                return Err("a spin needs min and max".into());
            };
            let d: i64 = default.parse().map_err(|_| format!("spin default '{default}' is not a number"))?;
            if !(min <= d && d <= max) {
                return Err(format!("default {d} outside {min}..{max}"));
            }
        }
        "check" if default == "true" || default == "false" => {}
        "check" => return Err(format!("check default '{default}'")),
        "combo" if option.vars.contains(&default) => {}
        "combo" => return Err(format!("combo default '{default}' is not one of its vars")),
        "string" => {}
        other => return Err(format!("unknown type '{other}'")),
    }
    let ranged = option.min.is_some() || option.max.is_some();
    if (ranged && option.kind != "spin") || (!option.vars.is_empty() && option.kind != "combo") {
        return Err(format!("fields that a {} does not have", option.kind));
    }
    Ok(option)
}

/// The handshake as a GUI shows it: who the engine is, then every option with its type,
/// default and range as written here (not as the engine's own option table says), `uciok`
/// last. The exact text of the lines is in `transcripts/uci/handshake.txt`.
#[test]
fn the_handshake_is_what_a_gui_reads() {
    let mut s = Session::spawn();
    s.send("uci");
    let lines = s.expect(|l| l == "uciok");
    let at = lines.iter().position(|l| l.starts_with("id ")).unwrap_or_else(|| panic!("no id lines: {lines:?}"));
    let handshake = &lines[at..];
    let version = handshake[0].strip_prefix("id name Menagerie ").unwrap_or_else(|| panic!("{}", handshake[0]));
    let parts: Vec<&str> = version.split('.').collect();
    assert!(parts.len() == 3 && parts.iter().all(|p| p.parse::<u32>().is_ok()), "version '{version}'");
    assert!(handshake[1].strip_prefix("id author ").is_some_and(|a| !a.trim().is_empty()), "{}", handshake[1]);
    assert_eq!(handshake.last().map(String::as_str), Some("uciok"));
    let option_lines = &handshake[2..handshake.len() - 1];
    let options: Vec<OptionLine> =
        option_lines.iter().map(|l| read_option_line(l).unwrap_or_else(|e| panic!("'{l}': {e}"))).collect();
    let mut names: Vec<&str> = options.iter().map(|o| o.name.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), options.len(), "an option offered twice: {option_lines:#?}");

    let spin = |name: &str, default: i64, min: i64, max: i64| OptionLine {
        name: name.to_string(),
        kind: "spin".to_string(),
        default: Some(default.to_string()),
        min: Some(min),
        max: Some(max),
        vars: Vec::new(),
    };
    let other = |name: &str, kind: &str, default: &str, vars: &[&str]| OptionLine {
        name: name.to_string(),
        kind: kind.to_string(),
        default: Some(default.to_string()),
        min: None,
        max: None,
        vars: vars.iter().map(|v| v.to_string()).collect(),
    };
    // fischerandom is accepted as chess960 but never offered (Cute Chess would send it back
    // as chess960). The Ruleset offers the variants' rule options too.
    let variants = [
        "chess",
        "chess960",
        "dchess",
        "chess9",
        "displacement",
        "vdchess",
        "capablanca",
        "caparandom",
        "rvc",
        "rvcstar",
    ];
    let rulesets: Vec<&str> = std::iter::once("auto").chain(common::RULESETS).collect();
    let expected = vec![
        spin("Hash", 16, 1, 65536),
        spin("Threads", 1, 1, 256),
        spin("Move Overhead", 30, 0, 10000),
        spin("MultiPV", 1, 1, 64),
        spin("Skill Level", 20, 0, 20),
        other("UCI_LimitStrength", "check", "false", &[]),
        spin("UCI_Elo", 770, 770, 2680),
        other("Ponder", "check", "false", &[]),
        other("UCI_AnalyseMode", "check", "false", &[]),
        other("UCI_ShowWDL", "check", "false", &[]),
        other("UCI_Chess960", "check", "false", &[]),
        other("VariantPath", "string", "<empty>", &[]),
        other("UCI_Variant", "combo", "chess", &variants),
        other("Ruleset", "combo", "auto", &rulesets),
        other("Use NNUE", "check", "true", &[]),
        other("EvalFile", "string", "<embedded>", &[]),
    ];
    for (got, want) in options.iter().zip(&expected) {
        assert_eq!(got, want, "option lines:\n{}", option_lines.join("\n"));
    }
    assert_eq!(options.len(), expected.len(), "option lines:\n{}", option_lines.join("\n"));
    s.send("isready");
    assert_eq!(s.expect(|l| l == "readyok"), ["readyok"]);
}

/// The grammar check itself refuses what a GUI could not read.
#[test]
fn the_option_line_reader_refuses_malformed_lines() {
    for bad in [
        "option Hash type spin default 16 min 1 max 65536",
        "option name Hash type spin default 16 min 1",
        "option name Hash type spin default 0 min 1 max 65536",
        "option name Hash type spin default many min 1 max 65536",
        "option name Ponder type check default maybe",
        "option name UCI_Variant type combo default xiangqi var chess var dchess",
        "option name Ponder type check default false min 0 max 1",
        "option name Hash type spin default 16 min 1 max 65536 max 3",
        "option name Hash type slider default 16",
        "option name EvalFile type string",
    ] {
        assert!(read_option_line(bad).is_err(), "{bad}");
    }
    let good = "option name Move Overhead type spin default 30 min 0 max 10000";
    assert_eq!(
        read_option_line(good).map(|o| (o.name, o.min, o.max)),
        Ok(("Move Overhead".to_string(), Some(0), Some(10000)))
    );
}

#[test]
fn variant_changes_are_announced_and_fairy_moves_arrive_whole() {
    let mut s = Session::start();
    s.send("setoption name UCI_Variant value vdchess");
    let info = s.expect(|l| l.starts_with("info string variant"));
    assert!(info.last().unwrap().contains("vdchess files 8 ranks 8 startpos rnbqkbnr"), "{info:?}");
    // A drop, then a move: both must be played.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1";
    s.send(&format!("position fen {fen} moves C@e4 C@d5"));
    s.send("go depth 2");
    let best = s.bestmove();
    assert!(legal("vdchess", fen, &["C@e4", "C@d5"]).contains(&best), "{best}");
    // Twelve files and a giraffe leap: squares past h.
    s.send("setoption name UCI_Variant value rvc");
    s.expect(|l| l.starts_with("info string variant rvc files 12 ranks 8"));
    s.send("position startpos moves l2l4 a7a6 k1l5");
    s.send("go depth 2");
    let best = s.bestmove();
    let start = "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR w KQkq - 0 1";
    assert!(legal("rvc", start, &["l2l4", "a7a6", "k1l5"]).contains(&best), "{best}");
    // The Ruleset option (Cute Chess cannot set UCI_ options) and the alias fischerandom.
    s.send("setoption name Ruleset value dchess");
    s.expect(|l| l.starts_with("info string variant dchess"));
    s.send("setoption name Ruleset value auto");
    s.send("setoption name UCI_Variant value fischerandom");
    s.expect(|l| l.starts_with("info string variant chess960"));
}

#[test]
fn errors_keep_the_previous_position() {
    let mut s = Session::start();
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    s.send(&format!("position fen {fen}"));
    s.send("position fen 4k3/8/8 w - - 0 1");
    s.expect(|l| l.starts_with("info string error:") && l.contains("FEN"));
    s.send("position startpos moves e2e4 e7e9");
    s.expect(|l| l.starts_with("info string error:") && l.contains("e7e9"));
    s.send("setoption name Hash value lots");
    s.expect(|l| l.starts_with("info string error:") && l.contains("Hash"));
    s.send("frobnicate");
    s.expect(|l| l.starts_with("info string error:") && l.contains("frobnicate"));
    s.send("go depth 1");
    let best = s.bestmove();
    assert!(legal("chess", fen, &[]).contains(&best), "{best} is not a move of the kept position");
}

/// While a search runs, `isready` is answered without ending it, and `stop` ends it with a
/// legal `bestmove` and nothing after it. How fast the answers come is measured by
/// `scripts/protocol-latency.py`, not asserted here.
#[test]
fn stop_and_isready_are_answered_during_a_search() {
    let mut s = Session::start();
    s.send("position startpos");
    s.send("go infinite");
    // The search is under way once it reports an iteration of some depth.
    let mut lines = s.expect(|l| l.starts_with("info depth 8 "));
    s.send("isready");
    lines.extend(s.expect(|l| l == "readyok"));
    // An infinite search never ends by itself: no bestmove before `stop`.
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    s.send("stop");
    let best = s.bestmove();
    assert!(legal("chess", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", &[]).contains(&best));
    s.assert_silent("bestmove");
    // Without a legal move there is nothing to search, but `go infinite` still waits for
    // `stop` before it answers `bestmove 0000` (`isready` is handled after `go`, so a bestmove
    // sent at once would come before readyok).
    s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    s.send("go infinite");
    s.send("isready");
    let lines = s.expect(|l| l == "readyok");
    assert_eq!(lines, ["readyok"]);
    s.send("stop");
    assert_eq!(s.expect(|l| l.starts_with("bestmove")), ["bestmove 0000"]);
    s.assert_silent("bestmove 0000");
}

#[test]
fn no_legal_move_gives_bestmove_0000() {
    let mut s = Session::start();
    s.send("position fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
    s.send("go depth 3");
    assert_eq!(s.bestmove(), "0000");
}

#[test]
fn chess960_castling_is_king_takes_rook_and_searchmoves_restricts_the_root() {
    let mut s = Session::start();
    s.send("setoption name UCI_Chess960 value true");
    s.expect(|l| l.starts_with("info string variant chess960"));
    s.send("position fen 4k3/8/8/8/8/8/PPPPPPPP/4K2R w K - 0 1");
    s.send("go depth 2 searchmoves e1h1");
    assert_eq!(s.bestmove(), "e1h1");
    s.send("setoption name UCI_Chess960 value false");
    s.expect(|l| l.starts_with("info string variant chess"));
    s.send("position fen 4k3/8/8/8/8/8/PPPPPPPP/4K2R w K - 0 1");
    s.send("go depth 2 searchmoves e1g1");
    assert_eq!(s.bestmove(), "e1g1");
    // A drop in searchmoves (vampirc-uci would lose it).
    s.send("setoption name UCI_Variant value vdchess");
    s.expect(|l| l.starts_with("info string variant vdchess"));
    s.send("position fen 4k3/8/8/8/8/8/8/4K3[Cc] w - - 0 1");
    s.send("go depth 2 searchmoves C@e4");
    assert_eq!(s.bestmove(), "C@e4");
}

#[test]
fn malformed_commands_never_break_the_session() {
    let mut s = Session::start();
    let garbage = [
        "position",
        "position fen",
        "position fen moves e2e4",
        "position startpos moves",
        "position startpos moves e2e4 e7e5 e1e1",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
        "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq w KQkq - 0 1",
        "go wtime -5 btime -5",
        "go depth",
        "go nodes many",
        "go searchmoves",
        "go searchmoves z9z9",
        "stop",
        "ponderhit",
        "setoption",
        "setoption name",
        "setoption name Threads value 0",
        "setoption name UCI_Variant value nonsense",
        "setoption name Ruleset value nonsense",
        "setoption name UCI_Chess960 value maybe",
        "\u{0}\u{1}\u{2}",
        "ééé ü",
        &"x".repeat(10_000),
    ];
    for line in garbage {
        s.send(line);
    }
    // `go searchmoves` without moves is a bare `go`: an infinite search, answered by exactly
    // one bestmove once the next `go` arrives (which then fails on z9z9).
    s.send("stop");
    s.expect(|l| l.starts_with("bestmove"));
    s.send("isready");
    s.expect(|l| l == "readyok");
    s.send("position startpos moves e2e4");
    s.send("go depth 2");
    let best = s.bestmove();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(legal("chess", start, &["e2e4"]).contains(&best), "{best}");
}

#[test]
fn ponderhit_turns_pondering_into_a_timed_search() {
    let mut s = Session::start();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    s.send("position startpos moves e2e4 e7e5");
    // A clock a timed search spends in a few milliseconds (70 ms usable after the move
    // overhead, at most a third of it for one move): a ponder search that obeyed it would stop
    // at a low depth, long before depth 14, where pondering is still going.
    s.send("go ponder wtime 100 btime 100 winc 0 binc 0");
    let mut lines = s.expect(|l| l.starts_with("info depth 14 "));
    s.send("isready");
    lines.extend(s.expect(|l| l == "readyok"));
    // Pondering never ends by itself: no bestmove yet.
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    s.send("ponderhit");
    // Now the clock counts: the search ends by itself, without a `stop`.
    let best = s.bestmove();
    assert!(legal("chess", start, &["e2e4", "e7e5"]).contains(&best), "{best}");
    s.assert_silent("bestmove after ponderhit");
    // A ponder search that is stopped answers with its best move, and then is silent.
    s.send("go ponder wtime 3000 btime 3000");
    let lines = s.expect(|l| l.starts_with("info depth 2 "));
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    s.send("stop");
    let best = s.bestmove();
    assert!(legal("chess", start, &["e2e4", "e7e5"]).contains(&best), "{best}");
    s.assert_silent("bestmove after stop");
}

/// `lowerbound`/`upperbound`: an aspiration failure of a long one-line search is reported with
/// its bound. The search is deterministic at a fixed depth on one thread, so the failures of
/// these positions are always the same; reporting them at once (progress_after zero) must show
/// both kinds. The first failure of a depth lies outside the window around the score of the
/// depth before: above it for a fail high (lowerbound), below it for a fail low (upperbound).
#[test]
fn aspiration_failures_are_reported_as_bounds() {
    use menagerie::search::{search, Bound, IterationInfo, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
    use menagerie::with_position;
    use std::sync::atomic::AtomicBool;
    // A minor piece against a pawn: the score swings from depth to depth, failing both ways
    // (which positions do depends on the search's pruning: two, so that one change of it
    // rarely leaves none).
    let fens = ["4k3/8/8/3p4/8/8/8/2B1K3 w - - 0 1", "4k3/8/8/3p4/8/2N5/8/4K3 b - - 0 1"];
    let mut seen = Vec::new();
    for fen in fens {
        let p = AnyPosition::from_fen(by_name("chess").unwrap(), fen).unwrap();
        let tt = TranspositionTable::new(16);
        let stop = AtomicBool::new(false);
        let threads = SearchThreads::new(1);
        let mut infos: Vec<IterationInfo> = Vec::new();
        with_position!(&p, root => {
            let mut job = SearchJob::new(root, SearchLimits::depth(8), &tt, &stop, &threads);
            job.progress_after = std::time::Duration::ZERO;
            search(&job, |info| infos.push(info.clone()));
        });
        let mut previous_exact = None;
        let mut failed_at = 0;
        for info in &infos {
            if info.bound == Bound::Exact {
                previous_exact = Some(info.score);
                continue;
            }
            assert!(!info.pv.is_empty(), "{fen}: a bound without a line: {info:?}");
            seen.push((fen, info.depth, info.bound));
            if failed_at == info.depth {
                continue;
            }
            failed_at = info.depth;
            let previous = previous_exact.expect("aspiration starts from a completed iteration");
            match info.bound {
                Bound::Lower => assert!(info.score > previous, "{fen}: {info:?} after {previous}"),
                _ => assert!(info.score < previous, "{fen}: {info:?} after {previous}"),
            }
        }
    }
    assert!(seen.iter().any(|s| s.2 == Bound::Lower), "no fail high reported: {seen:?}");
    assert!(seen.iter().any(|s| s.2 == Bound::Upper), "no fail low reported: {seen:?}");
}

/// Options that only XBoard offers are unknown here.
#[test]
fn options_only_xboard_offers_are_unknown() {
    let mut s = Session::start();
    s.send("setoption name Random start value false");
    let lines = s.expect(|l| l.starts_with("info string"));
    assert_eq!(lines.last().map(String::as_str), Some("info string error: unknown option 'Random start'"));
}

/// Send `go perft DEPTH` and read its lines up to `Nodes searched`.
fn go_perft(s: &mut Session, depth: u32) -> (Vec<(String, u64)>, u64) {
    s.send(&format!("go perft {depth}"));
    let lines = s.expect(|l| l.starts_with("Nodes searched: "));
    let (last, rest) = lines.split_last().unwrap();
    let total = last["Nodes searched: ".len()..].parse().unwrap();
    let (blank, divide) = rest.split_last().unwrap();
    assert_eq!(blank, "", "a blank line before the total: {lines:?}");
    // Announcements of earlier commands may come first.
    let rows = divide
        .iter()
        .filter(|l| !l.starts_with("info "))
        .map(|l| {
            let (m, n) = l.split_once(": ").unwrap_or_else(|| panic!("not 'move: count': {l}"));
            (m.to_string(), n.parse().unwrap())
        })
        .collect();
    (rows, total)
}

#[test]
fn go_perft_divides_as_stockfish_does() {
    let mut s = Session::start();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    s.send("position startpos moves e2e4");
    let (rows, total) = go_perft(&mut s, 3);
    let mut moves: Vec<String> = rows.iter().map(|(m, _)| m.clone()).collect();
    let mut legal_moves = legal("chess", start, &["e2e4"]);
    moves.sort();
    legal_moves.sort();
    assert_eq!(moves, legal_moves);
    let mut p = AnyPosition::from_fen(by_name("chess").unwrap(), start).unwrap();
    p.play_text("e2e4").unwrap();
    assert_eq!(total, p.perft(3));
    assert_eq!(total, rows.iter().map(|(_, n)| n).sum::<u64>());
    assert_eq!(go_perft(&mut s, 0), (Vec::new(), 1));

    // Moves are written as searches write them: drops, and castling king-takes-rook under
    // UCI_Chess960.
    s.send("setoption name UCI_Variant value vdchess");
    s.send("position fen 4k3/8/8/8/8/8/8/4K3[Cc] w - - 0 1");
    let (rows, _) = go_perft(&mut s, 1);
    assert!(rows.iter().any(|(m, n)| m == "C@e4" && *n == 1), "{rows:?}");
    s.send("setoption name UCI_Variant value chess");
    s.send("setoption name UCI_Chess960 value true");
    s.send("position fen r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    let (rows, total) = go_perft(&mut s, 2);
    assert!(rows.iter().any(|(m, _)| m == "e1h1"), "{rows:?}");
    let castling = AnyPosition::from_fen(by_name("chess960").unwrap(), "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap();
    assert_eq!(total, castling.perft(2));

    // A depth that cannot be read is refused and the session goes on; a running search is
    // answered first.
    for (line, error) in [
        ("go perft 16", "info string error: perft depth 16 is too deep (at most 15)"),
        ("go perft many", "info string error: go perft takes a depth 0..15, not 'many'"),
    ] {
        s.send(line);
        let lines = s.expect(|l| l.starts_with("info string"));
        assert_eq!(lines.last().map(String::as_str), Some(error));
    }
    s.send("go infinite");
    let lines = {
        s.send("go perft 1");
        s.expect(|l| l.starts_with("Nodes searched: "))
    };
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove ")).count(), 1, "{lines:?}");
    s.send("isready");
    s.expect(|l| l == "readyok");
}

/// Send `d` and read its lines up to `Checkers:`.
fn display(s: &mut Session) -> Vec<String> {
    s.send("d");
    s.expect(|l| l.starts_with("Checkers:"))
}

#[test]
fn d_shows_the_board_fen_key_and_checkers() {
    let mut s = Session::start();
    let fen = "4k3/8/8/1B6/8/8/8/4K3 b - - 3 9";
    s.send(&format!("position fen {fen}"));
    let lines = display(&mut s);
    let at = lines.iter().position(|l| l.starts_with(" +---")).expect("a board");
    let board = &lines[at..];
    assert_eq!(board[0], " +---+---+---+---+---+---+---+---+");
    assert_eq!(board[1], " |   |   |   |   | k |   |   |   | 8");
    assert_eq!(board[7], " |   | B |   |   |   |   |   |   | 5");
    assert_eq!(board[15], " |   |   |   |   | K |   |   |   | 1");
    assert_eq!(board[17], "   a   b   c   d   e   f   g   h");
    assert_eq!(board[19], format!("Fen: {fen}"));
    let key = board[20].strip_prefix("Key: ").expect("Key:");
    assert!(key.len() == 16 && key.chars().all(|c| c.is_ascii_hexdigit()), "{key}");
    assert_eq!(board[21], "Checkers: b5");

    // The key is the position's: the same position by another move order has the same key.
    let key_after = |s: &mut Session, moves: &str| {
        s.send(&format!("position startpos moves {moves}"));
        let lines = display(s);
        lines.iter().find_map(|l| l.strip_prefix("Key: ").map(str::to_string)).unwrap()
    };
    let a = key_after(&mut s, "g1f3 g8f6 b1c3");
    let b = key_after(&mut s, "b1c3 g8f6 g1f3");
    let c = key_after(&mut s, "b1c3 g8f6");
    assert_eq!(a, b);
    assert_ne!(a, c);
    assert_eq!(display(&mut s).last().map(String::as_str), Some("Checkers:"));

    // Wide boards, and the interactive loop's `d` prints what UCI's does.
    s.send("setoption name UCI_Variant value rvc");
    s.send("position startpos moves i2i4");
    let uci = display(&mut s);
    let uci = &uci[uci.iter().position(|l| l.starts_with(" +---")).unwrap()..];
    assert!(uci[17].ends_with("   k   l"), "{}", uci[17]);
    let out = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["d", "--variant", "rvc", "--moves", "i2i4"])
        .output()
        .expect("run menagerie d");
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().collect::<Vec<_>>(), uci);
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    child.stdin.as_mut().unwrap().write_all(b"d --variant rvc --moves i2i4\nd --moves e9e4\nquit\n").unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().skip(1).collect();
    assert_eq!(lines[..uci.len()], *uci);
    assert!(lines[uci.len()].starts_with("error: move 1: "), "{text}");
}

#[test]
fn eval_prints_the_terms_and_the_total_as_the_command_line_does() {
    let mut s = Session::start();
    let fen = "r1bqkb1r/pppp1ppp/2n2n2/4p3/4P3/2N2N2/PPPP1PPP/R1BQKB1R w KQkq - 4 4";
    s.send(&format!("position fen {fen}"));
    s.send("eval");
    let lines = s.expect(|l| l.starts_with("Searching with:"));
    let out = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .args(["eval", "--variant", "chess", "--fen", fen])
        .output()
        .expect("menagerie eval");
    let table = String::from_utf8_lossy(&out.stdout);
    let tail: Vec<&str> = table.lines().rev().filter(|l| !l.trim().is_empty()).take(3).collect();
    assert_eq!(lines.iter().rev().take(3).map(String::as_str).collect::<Vec<_>>(), tail);
    assert!(tail[1].starts_with("NNUE evaluation:"), "{tail:?}");
    assert!(tail[2].starts_with("Total evaluation:"), "{tail:?}");
    assert!(lines.iter().any(|l| l.contains("Material")), "{lines:?}");
    // The search was never started: the position and the engine are as before.
    s.send("isready");
    s.expect(|l| l == "readyok");
}

#[test]
fn eval_says_what_the_search_evaluates_with_and_why() {
    let dir = std::env::temp_dir().join(format!("menagerie-uci-eval-with-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("mine.vars");
    std::fs::write(&file, "[my-shuffle:dchess]\n\n[my-nightriders:chess]\npiece = N nightrider NN value=500\n")
        .expect("variant file");
    let mut s = Session::start();
    let searching_with = |s: &mut Session, variant: &str| {
        s.send(&format!("setoption name UCI_Variant value {variant}"));
        s.send("position startpos");
        s.send("eval");
        s.expect(|l| l.starts_with("Searching with:")).pop().expect("the line")
    };
    let measured = searching_with(&mut s, "dchess");
    assert!(
        measured.starts_with("Searching with: network menagerie-8x8-") && measured.ends_with("(built in)"),
        "{measured}"
    );
    let unmeasured = searching_with(&mut s, "rvcstar");
    assert!(unmeasured.starts_with("Searching with: the hand-written evaluation (menagerie-12x8-"), "{unmeasured}");
    assert!(unmeasured.contains("not its default"), "{unmeasured}");
    // A variant of the user's whose pieces the 8x8 network knows gets it; one with a piece no
    // network knows gets the hand-written evaluation, and eval says so.
    s.send(&format!("setoption name VariantPath value {}", file.display()));
    let user = searching_with(&mut s, "my-shuffle");
    assert!(user.starts_with("Searching with: network menagerie-8x8-"), "{user}");
    let unknown_piece = searching_with(&mut s, "my-nightriders");
    assert_eq!(unknown_piece, "Searching with: the hand-written evaluation (no network fits my-nightriders)");
    s.send("setoption name Use NNUE value false");
    let off = searching_with(&mut s, "my-shuffle");
    assert_eq!(off, "Searching with: the hand-written evaluation (Use NNUE is off)");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_bad_eval_file_is_refused_and_the_engine_keeps_its_network() {
    let mut s = Session::start();
    let missing = "/nonexistent/menagerie-net.nnue";
    let not_a_net = std::env::temp_dir().join(format!("menagerie-not-a-net-{}.nnue", std::process::id()));
    std::fs::write(&not_a_net, b"not a network at all").expect("temp file");
    // A well-made network of a width the engine has no inference for.
    let odd_width = std::env::temp_dir().join(format!("menagerie-odd-width-{}.nnue", std::process::id()));
    let chess = by_name("chess").expect("chess");
    let layout = menagerie::nnue::InputLayout::union([chess], 0).expect("layout");
    let net = menagerie::nnue::Network::zeroed(layout, 48, 1);
    std::fs::write(&odd_width, menagerie::nnue::file::write(&net, &[])).expect("temp file");
    for (value, why) in [
        (missing.to_string(), missing.to_string()),
        (not_a_net.display().to_string(), "MENAGNN".to_string()),
        (odd_width.display().to_string(), "hidden 48".to_string()),
    ] {
        s.send(&format!("setoption name EvalFile value {value}"));
        let lines = s.expect(|l| l.starts_with("info string"));
        let last = lines.last().cloned().unwrap_or_default();
        assert!(last.starts_with("info string error") && last.contains(&why), "{last}");
    }
    let _ = std::fs::remove_file(&not_a_net);
    let _ = std::fs::remove_file(&odd_width);
    // The built-in network still serves, and the engine still plays.
    s.send("setoption name Use NNUE value true");
    s.send("position startpos moves e2e4");
    s.send("go depth 4");
    let lines = s.expect(|l| l.starts_with("bestmove "));
    let best = lines.last().and_then(|l| l.split_whitespace().nth(1)).unwrap_or_default().to_string();
    let pos = AnyPosition::from_fen(
        by_name("chess").expect("chess"),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
    )
    .expect("fen");
    assert!(pos.legal_moves_uci(false).contains(&best), "{best}");
}

#[test]
fn a_hash_size_the_machine_cannot_provide_is_refused_and_the_engine_plays_on() {
    let mut s = Session::start();
    // The largest size offered; refused wherever it is more than the machine's memory.
    let total_mb = common::total_memory_mb();
    s.send("setoption name Hash value 65536");
    s.send("isready");
    let lines = s.expect(|l| l == "readyok");
    if total_mb.is_some_and(|mb| mb < 60_000) {
        assert!(
            lines.iter().any(|l| l.starts_with("info string error") && l.contains("Hash")),
            "65536 MB on a {total_mb:?} MB machine: {lines:?}"
        );
    }
    s.send("position startpos");
    s.send("go depth 3");
    let lines = s.expect(|l| l.starts_with("bestmove "));
    assert!(lines.last().is_some_and(|l| !l.contains("0000")), "{lines:?}");
}

#[test]
fn an_overlong_line_is_refused_whole_and_the_engine_plays_on() {
    let mut s = Session::start();
    s.send("position startpos moves e2e4");
    // Three megabytes of moves: more than a line may hold, so none of it is read.
    let long = format!("position startpos moves {}", "g1f3 g8f6 f3g1 f6g8 ".repeat(150_000));
    s.send(&long);
    s.send("isready");
    let lines = s.expect(|l| l == "readyok");
    assert!(
        lines.iter().any(|l| l.starts_with("info string error: a line of 3000024 bytes is longer than")),
        "{lines:?}"
    );
    s.send("go depth 2");
    let best = s.bestmove();
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert!(legal("chess", start, &["e2e4"]).contains(&best), "{best}");
}
