//! XBoard/CECP sessions against the real binary: the protocol-2 handshake, the `setup`/`piece`
//! lines of every engine-defined variant, game flow (new, variant, force, go, playother,
//! setboard, usermove, undo, remove, result, ?, ping/pong ordering, hard/easy), time controls,
//! move forms (drops, O-O, king-takes-rook, two-leg castling), analysis (exclude/include, `.`,
//! mate scores, MultiPV), result claims, `lift`/`highlight`, bad input, and a full game of every
//! variant with the engine playing both sides (also at the lowest skill levels), each move
//! checked by the library.

mod common;

use menagerie::game::Game;
use menagerie::variant::by_name;
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::Receiver;

struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    ping: u32,
    /// Leave out `setup`/`piece`/`#` lines (a `setboard` before the first move repeats them).
    hide_setup: bool,
}

impl Session {
    /// A session after `xboard` / `protover 2`, with the feature lines read.
    fn start() -> (Session, Vec<String>) {
        let (child, stdin, lines) = common::spawn_engine();
        let mut s = Session { child, stdin, lines, ping: 0, hide_setup: false };
        // The banner comes first.
        s.expect(|l| l.starts_with("Menagerie"));
        s.send("xboard");
        s.send("protover 2");
        let features = s.expect(|l| l == "feature done=1");
        (s, features)
    }

    /// A session in the given variant with deterministic start positions.
    fn in_variant(variant: &str) -> Session {
        let (mut s, _) = Session::start();
        s.send("option Random start=0");
        s.send("new");
        s.send(&format!("variant {variant}"));
        s.send("force");
        s.sync();
        s.hide_setup = true;
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

    /// Send a ping and return every line before its pong.
    fn sync(&mut self) -> Vec<String> {
        self.ping += 1;
        let n = self.ping;
        self.send(&format!("ping {n}"));
        let mut lines = self.expect(|l| l == format!("pong {n}"));
        lines.pop();
        if self.hide_setup {
            lines.retain(|l| !l.starts_with("setup ") && !l.starts_with("piece ") && !l.starts_with("# "));
        }
        lines
    }

    /// Send lines and return what came back before a pong.
    fn exchange(&mut self, lines: &[&str]) -> Vec<String> {
        for l in lines {
            self.send(l);
        }
        self.sync()
    }

    /// The engine's next move text.
    fn next_move(&mut self) -> String {
        self.next_move_and_thinking().0
    }

    /// The engine's next move text, and the thinking output (`post`) before it as
    /// (ply, nodes, first move) of each line.
    fn next_move_and_thinking(&mut self) -> (String, Vec<(u32, u64, String)>) {
        let lines = self.expect(|l| l.starts_with("move "));
        let played = lines.last().map(|l| l["move ".len()..].to_string()).unwrap_or_default();
        (played, lines.iter().filter_map(|l| thinking(l)).collect())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// A thinking line (`ply score time nodes pv`) as (ply, nodes, first move of the pv).
fn thinking(line: &str) -> Option<(u32, u64, String)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    let ply = w.first()?.parse().ok()?;
    let nodes = w.get(3)?.parse().ok()?;
    Some((ply, nodes, w.get(4).unwrap_or(&"").to_string()))
}

fn game(variant: &str, fen: &str) -> Game {
    Game::new(by_name(variant).unwrap(), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

#[test]
fn handshake_announces_the_features_and_variants() {
    let (mut s, features) = Session::start();
    let all = features.join("\n");
    assert_eq!(features.first().map(String::as_str), Some("feature done=0"), "{all}");
    for f in [
        "setboard=1",
        "usermove=1",
        "ping=1",
        "playother=1",
        "san=0",
        "sigint=0",
        "reuse=1",
        "analyze=1",
        "colors=0",
        "time=1",
        "draw=1",
        "exclude=1",
        "memory=1",
        "smp=1",
        "debug=1",
        "highlight=1",
        "myname=\"Menagerie",
        "variants=\"normal,fischerandom,nocastle,capablanca,caparandom,dchess,chess9,displacement,vdchess,rvc",
        "option=\"MultiPV -spin 1 1",
        "option=\"Hash -spin",
        "option=\"Threads -spin",
    ] {
        assert!(all.contains(f), "{f} missing in\n{all}");
    }
    // Nothing else is said until asked.
    assert!(s.sync().is_empty());
}

#[test]
fn engine_defined_variants_get_setup_and_piece_lines() {
    let (mut s, _) = Session::start();
    s.send("option Random start=0");
    let reply = |s: &mut Session, v: &str| s.exchange(&["new", &format!("variant {v}")]);
    // XBoard's own variants need no setup.
    for v in ["normal", "fischerandom", "nocastle", "capablanca", "caparandom"] {
        assert!(reply(&mut s, v).is_empty(), "{v}");
    }
    let vd = reply(&mut s, "vdchess");
    assert_eq!(vd[0], format!("setup (PNBRQ..ACKpnbrq..ack) 8x8+7_bughouse {}", START.replace(" w", "[Cc] w")));
    assert!(vd.contains(&"piece A& BN@8".to_string()) && vd.contains(&"piece C& RN@8".to_string()), "{vd:?}");
    let d = reply(&mut s, "displacement");
    assert_eq!(d[0], "setup (PNBRQKpnbrqk) 8x8+0_fairy rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(d.contains(&"piece K& KrO1rO2lO1lO2lO3".to_string()), "{d:?}");
    // Not on XBoard's shuffle parents (nocastle, fischerandom), which XBoard shuffles itself.
    let orthodox = ["piece N& N", "piece B& B", "piece R& R", "piece Q& Q"];
    let dchess = reply(&mut s, "dchess");
    assert_eq!(dchess[0], format!("setup (PNBRQKpnbrqk) 8x8+0_fairy {}", START.replace("KQkq", "-")));
    assert_eq!(dchess[1..], orthodox);
    let chess9 = reply(&mut s, "chess9");
    assert_eq!(chess9[0], format!("setup (PNBRQKpnbrqk) 8x8+0_fairy {START}"));
    assert_eq!(chess9[1..], orthodox, "no castling atoms: Chess960 castling is XBoard's -fischerCastling");
    let rvc = reply(&mut s, "rvc");
    assert!(rvc[0].starts_with("setup (") && rvc[0].contains(") 12x8+0_fairy rgcnbqkbncgr/"), "{rvc:?}");
    assert!(rvc.contains(&"piece K& KO4".to_string()), "{rvc:?}");
    assert!(rvc.contains(&"piece C& C".to_string()), "camel: {rvc:?}");
    // The giraffe's (1,4) leap has no XBetza: a debug line says so instead of a wrong piece line.
    assert!(rvc.iter().any(|l| l.starts_with("# ") && l.contains("giraffe")), "{rvc:?}");
    assert!(!rvc.iter().any(|l| l.starts_with("piece G&")), "{rvc:?}");
    // With random starts (the default) the array changes from game to game, but XBoard's repeated
    // `new` + `variant` before one game (it applies only the first setup) gets the same one.
    s.send("option Random start=1");
    let first = reply(&mut s, "rvc");
    assert_eq!(reply(&mut s, "rvc"), first);
    let mut arrays = std::collections::BTreeSet::new();
    for _ in 0..6 {
        let setup = reply(&mut s, "rvc");
        arrays.insert(setup[0].split_whitespace().nth(3).unwrap_or("").to_string());
        assert!(s.exchange(&["force", "usermove b2b3"]).is_empty());
    }
    assert!(arrays.len() > 1, "{arrays:?}");
    assert_eq!(reply(&mut s, "nonsense"), ["Error (unsupported variant): variant nonsense"]);
}

#[test]
fn cute_chess_dummy_move_then_black_to_move_setboard() {
    let black = START.replace(" w", " b");
    let cases = [
        ("normal", "chess", black.clone()),
        ("fischerandom", "chess960", black.clone()),
        ("nocastle", "dchess", "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BRNQKRNB b - - 0 1".to_string()),
        ("dchess", "dchess", "nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BRNQKRNB b - - 0 1".to_string()),
        ("chess9", "chess9", black.clone()),
        ("displacement", "displacement", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 0 1".to_string()),
        ("vdchess", "vdchess", START.replace(" w", "[Aa] b")),
        ("rvc", "rvc", "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR b - - 0 1".to_string()),
    ];
    for (v, library, fen) in cases {
        let (mut s, _) = Session::start();
        let out = s.exchange(&["new", &format!("variant {v}"), "force", "usermove b2b3"]);
        assert!(!out.iter().any(|l| l.starts_with("Illegal") || l.starts_with("Error")), "{v}: {out:?}");
        // XBoard leaves out the castling field in variants without castling.
        let sent = if v == "nocastle" { fen.replace(" - - ", " - ") } else { fen.clone() };
        let out = s.exchange(&[&format!("setboard {sent}"), "sd 2"]);
        assert!(out.is_empty(), "{v}: {out:?}");
        s.send("go");
        let m = s.next_move();
        assert!(game(library, &fen).play(&m).is_ok(), "{v}: engine played {m} in {fen}");
    }
}

#[test]
fn ping_is_answered_after_the_engine_move() {
    let (mut s, _) = Session::start();
    s.exchange(&["new", "st 1", "post"]);
    s.send("go");
    s.send("ping 99");
    s.send("sd 1");
    let lines = s.expect(|l| l == "pong 99");
    let move_at = lines.iter().position(|l| l.starts_with("move ")).expect("a move before the pong");
    assert!(move_at < lines.len() - 1);
    // Thinking output while post is on: ply score time nodes pv.
    let thinking: Vec<&String> =
        lines.iter().filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit())).collect();
    assert!(!thinking.is_empty(), "{lines:?}");
    for t in thinking {
        let w: Vec<&str> = t.split_whitespace().collect();
        assert!(w.len() >= 5 && w[..4].iter().all(|x| x.parse::<i64>().is_ok()), "{t}");
    }
}

#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut s = Session::in_variant("normal");
    let out = s.exchange(&[
        "usermove e2e5",
        "usermove xyz",
        "usermove e7e8q",
        "frobnicate 12",
        "level 0 x 1",
        "setboard this is not a fen",
        "undo",
        "usermove @@@@",
        "memory lots",
        "option NoSuch=1",
        "option MultiPV=zero",
        "exclude z9z9",
        "\u{0}\u{1}garbage",
        "lift q0",
        "usermove a2a10",
    ]);
    assert_eq!(out[0], "Illegal move: e2e5");
    assert_eq!(out[1], "Illegal move: xyz");
    assert_eq!(out[2], "Illegal move: e7e8q");
    assert_eq!(out[3], "Error (unknown command): frobnicate 12");
    assert!(out[4].starts_with("Error (") && out[4].ends_with("level 0 x 1"), "{out:?}");
    assert!(out[5].starts_with("tellusererror Illegal position"), "{out:?}");
    assert!(out[6].starts_with("Error ("), "{out:?}");
    assert_eq!(out[7], "Illegal move: @@@@");
    assert_eq!(out[13], "Illegal move (square a10 is not on the 8x8 board): a2a10");
    assert_eq!(out.len(), 14, "{out:?}");
    // The position is still the start: the engine answers e2e4 with a Black move.
    s.send("usermove e2e4");
    s.send("sd 2");
    s.send("go");
    let m = s.next_move();
    let mut g = game("chess", START);
    g.play("e2e4").unwrap();
    assert!(g.play(&m).is_ok(), "{m}");
}

/// Every time control ends the search by itself (no `?` is sent: a search that ignored the
/// control would run until the hang guard). Where a control bounds work rather than time it is
/// checked in the thinking output: `sd` in plies, `nps` in nodes (XBoard's node-counting
/// clock: `nps N` with `st S` allows N*S nodes; the whole clock's worth with `level`/`time`).
/// Whether the time controls spend the right amount of time is measured by
/// `scripts/protocol-latency.py`, not asserted here.
#[test]
fn time_controls_are_respected() {
    for (setup, max_ply, max_nodes) in [
        (vec!["level 0 0:02 0.1", "time 200", "otim 200"], None, None),
        (vec!["level 40 0:03 0", "time 300", "otim 300"], None, None),
        (vec!["st 1"], None, None),
        (vec!["level 0 5 0", "sd 3"], Some(3), None),
        (vec!["st 1", "nps 2000"], None, Some(2000)),
        (vec!["level 0 0:02 0.1", "time 200", "otim 200", "nps 1000"], None, Some(2000)),
    ] {
        let mut s = Session::in_variant("normal");
        let mut cmds = setup.clone();
        cmds.extend(["post", "usermove e2e4"]);
        s.exchange(&cmds);
        s.send("go");
        let (m, thought) = s.next_move_and_thinking();
        assert!(!thought.is_empty(), "{setup:?}: no thinking output");
        if let Some(max) = max_ply {
            let deepest = thought.iter().map(|t| t.0).max();
            assert_eq!(deepest, Some(max), "{setup:?}: {thought:?}");
        }
        if let Some(max) = max_nodes {
            assert!(thought.iter().all(|t| t.1 <= max), "{setup:?}: more than {max} nodes: {thought:?}");
        }
        let mut g = game("chess", START);
        g.play("e2e4").unwrap();
        assert!(g.play(&m).is_ok(), "{setup:?}: {m}");
    }
}

#[test]
fn move_now_and_playother_and_undo() {
    let mut s = Session::in_variant("normal");
    // A move time far past the hang guard: only `?` can bring the move in time. It is sent
    // once the search is under way (its sixth iteration is reported).
    s.exchange(&["post", "st 10000"]);
    s.send("go");
    s.expect(|l| thinking(l).is_some_and(|t| t.0 >= 6));
    s.send("?");
    let first = s.next_move();
    // remove in force mode takes back two plies: back at the start, where undo has nothing left.
    let out = s.exchange(&["nopost", "force", "usermove e7e5", "remove", "undo"]);
    assert_eq!(out, ["Error (no move to take back): undo"]);
    let out = s.exchange(&["usermove e2e4"]);
    assert!(out.is_empty(), "after taking back {first} and e7e5, e2e4 is legal: {out:?}");
    // playother: Black to move, the engine takes White and waits.
    s.send("sd 2");
    s.send("playother");
    assert!(s.sync().is_empty());
    s.send("usermove c7c5");
    let m = s.next_move();
    let mut g = game("chess", START);
    for x in ["e2e4", "c7c5", &m] {
        assert!(g.play(x).is_ok(), "{x}");
    }
    // hard: it ponders (silently: the pong comes after pondering began); the next user move is
    // still answered.
    s.send("hard");
    assert!(s.sync().is_empty());
    s.send("usermove b8c6");
    let m2 = s.next_move();
    g.play("b8c6").unwrap();
    assert!(g.play(&m2).is_ok(), "{m2}");
    s.send("easy");
    assert!(s.sync().is_empty());
}

#[test]
fn move_forms_drops_castling_and_two_legs() {
    // VD: drops of the piece in hand, lower-case letters too.
    let mut s = Session::in_variant("vdchess");
    let out = s.exchange(&[
        "setboard r3k2r/8/8/8/8/8/8/R3K2R[Cc] w KQkq - 0 1",
        "usermove c@d4",
        "usermove Q@e5",
        "usermove c@e5",
        "usermove C@f4",
    ]);
    assert_eq!(out, ["Illegal move: Q@e5", "Illegal move: C@f4"], "one drop per side");
    // Chess960 castling: O-O and king-takes-rook.
    let out = s.exchange(&["setboard r3k2r/8/8/8/8/8/8/R3K2R[Cc] w KQkq - 0 1", "usermove O-O", "usermove e8a8"]);
    assert!(out.is_empty(), "{out:?}");
    // The engine writes Chess-9 castling as O-O-O when the king stays on c1.
    let mut s = Session::in_variant("chess9");
    s.exchange(&["setboard 1k6/8/8/8/8/8/8/R1K5 w A - 0 1", "sd 1"]);
    s.send("exclude all");
    s.send("include a1b1");
    s.send("exclude a1b1");
    s.send("include c1a1");
    assert!(s.sync().is_empty());
    s.send("go");
    assert_eq!(s.next_move(), "O-O-O");
    // Displacement: 1-step castling as two legs, 2- and 3-step as the king's destination.
    let mut s = Session::in_variant("displacement");
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    for sent in ["e1f1,h1e1", "e1h1", "e1g1", "e1b1", "e1c1", "e1d1,a1e1"] {
        let out = s.exchange(&[&format!("setboard {fen}"), &format!("usermove {sent}")]);
        assert!(out.is_empty(), "{sent}: {out:?}");
    }
    let out = s.exchange(&[&format!("setboard {fen}"), "usermove e1f1,h1g1"]);
    assert_eq!(out, ["Illegal move: e1f1,h1g1"]);
    s.exchange(&[&format!("setboard {fen}"), "sd 1", "exclude all", "include e1h1"]);
    s.send("go");
    assert_eq!(s.next_move(), "e1f1,h1e1");
    s.exchange(&["force", &format!("setboard {fen}"), "exclude all", "include e1b1"]);
    s.send("go");
    assert_eq!(s.next_move(), "e1b1");
}

#[test]
fn analysis_with_exclude_status_mate_scores_and_multipv() {
    let mut s = Session::in_variant("normal");
    s.send("post");
    s.send("analyze");
    // Once the analysis is past its first iterations, only g1f3 is left to it. The restricted
    // analysis starts again from ply 1, which the one before had passed: from its first line
    // on, every line is of the restricted analysis.
    s.expect(|l| thinking(l).is_some_and(|t| t.0 >= 3));
    s.send("exclude all");
    s.send("include g1f3");
    let first = s.expect(|l| thinking(l).is_some_and(|t| t.0 == 1)).pop();
    let mut lines: Vec<String> = first.into_iter().collect();
    s.send(".");
    lines.extend(s.sync());
    let stat = lines.iter().find(|l| l.starts_with("stat01: ")).expect("a stat01 line");
    assert_eq!(stat.split_whitespace().last(), Some("g1f3"), "{stat}");
    let thought: Vec<_> = lines.iter().filter_map(|l| thinking(l)).collect();
    assert!(!thought.is_empty() && thought.iter().all(|t| t.2 == "g1f3"), "{lines:?}");
    // Mate in 1 is scored 100001; a user move restarts the analysis.
    s.send("setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1");
    let lines = s.expect(|l| l.starts_with(char::is_numeric) && l.split_whitespace().nth(1) == Some("100001"));
    assert!(lines.last().unwrap().ends_with("a1a8"), "{lines:?}");
    s.send("usermove a1a2");
    s.expect(|l| l.starts_with(char::is_numeric) && l.split_whitespace().nth(4) != Some("a1a8"));
    s.send("exit");
    s.sync();
    // MultiPV 3: three different first moves at one depth.
    s.send("setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    s.send("option MultiPV=3");
    s.send("analyze");
    // The first line of depth 5 comes after every line of depth 4.
    let mut lines = s.expect(|l| thinking(l).is_some_and(|t| t.0 >= 5));
    s.send("exit");
    lines.extend(s.sync());
    let depth4: std::collections::BTreeSet<&str> = lines
        .iter()
        .filter(|l| l.split_whitespace().next() == Some("4"))
        .filter_map(|l| l.split_whitespace().nth(4))
        .collect();
    assert_eq!(depth4.len(), 3, "{lines:?}");
    // After exit the analysis is over: nothing more comes, and `.` (answered only while
    // analysing) is not answered.
    assert!(s.exchange(&["."]).is_empty());
    assert!(s.sync().is_empty());
}

#[test]
fn results_are_claimed() {
    // The engine mates.
    let mut s = Session::in_variant("normal");
    s.exchange(&["setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "sd 3"]);
    s.send("go");
    let lines = s.expect(|l| l.contains('{'));
    assert_eq!(lines[lines.len() - 2..], ["move a1a8", "1-0 {White mates}"]);
    // The user mates the engine: it claims on its turn.
    let out = s.exchange(&["new", "setboard 6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "usermove a1a8"]);
    assert_eq!(out, ["1-0 {White mates}"]);
    // Stalemate, orthodox and Random Variant Chess (3/5 to the side that inflicts it).
    let out = s.exchange(&["new", "force", "setboard 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "go"]);
    assert_eq!(out, ["1/2-1/2 {Stalemate}"]);
    let mut s = Session::in_variant("rvc");
    let out = s.exchange(&["setboard 11k/9Q2/10K1/12/12/12/12/12 b - - 0 1", "go"]);
    assert_eq!(out, ["1/2-1/2 {Stalemate: 3/5 to White}"]);
    // Fifty moves: the engine's clock reaches 100 half-moves with the user's move.
    let mut s = Session::in_variant("normal");
    let out = s.exchange(&["setboard 4k3/8/8/8/8/8/4P3/R3K3 w - - 99 80", "usermove a1a2", "go"]);
    assert_eq!(out, ["1/2-1/2 {Draw by fifty-move rule}"]);
    // Threefold repetition.
    let mut s = Session::in_variant("normal");
    let mut cmds = vec!["setboard 4k3/8/8/8/8/8/4P3/R3K3 w - - 0 1"];
    for _ in 0..2 {
        cmds.extend(["usermove a1a2", "usermove e8d8", "usermove a2a1", "usermove d8e8"]);
    }
    cmds.push("go");
    assert_eq!(s.exchange(&cmds), ["1/2-1/2 {Draw by repetition}"]);
    // After `result` the engine plays no more.
    let mut s = Session::in_variant("normal");
    assert!(s.exchange(&["result 1/2-1/2 {agreed}", "go"]).is_empty());
}

#[test]
fn lift_is_answered_with_highlights() {
    let mut s = Session::in_variant("normal");
    assert_eq!(s.exchange(&["lift g1"]), ["highlight 8/8/8/8/8/5Y1Y/8/8"]);
    assert_eq!(s.exchange(&["lift e4"]), ["highlight 8/8/8/8/8/8/8/8"]);
    let mut s = Session::in_variant("vdchess");
    let out = s.exchange(&["setboard k7/8/8/8/8/8/8/K7[Cc] w - - 0 1", "lift C@", "lift a1"]);
    assert_eq!(out[0].matches('Y').count(), 62, "{out:?}");
    assert_eq!(out[1], "highlight 8/8/8/8/8/8/YY6/1Y6");
    assert!(s.exchange(&["put e4", "hover e4"]).is_empty());
}

#[test]
fn options_memory_and_cores() {
    let mut s = Session::in_variant("normal");
    let out = s.exchange(&[
        "memory 32",
        "cores 2",
        "option Hash=8",
        "option Threads=1",
        "option MultiPV=2",
        "option Move Overhead=50",
        "option Ruleset=auto",
    ]);
    assert!(out.is_empty(), "{out:?}");
    // Ruleset: XBoard's `normal` is played as D-Chess (no castling).
    let out =
        s.exchange(&["option Ruleset=dchess", "new", "setboard r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", "usermove e1g1"]);
    assert_eq!(out, ["Illegal move: e1g1"]);
}

/// Drive a whole game with the engine playing both sides at a small depth; check every move with
/// the library and the final claim against the library's verdict.
fn full_game(variant: &str, library_variant: &str, fen: Option<&str>) {
    full_game_with(variant, library_variant, fen, &[]);
}

/// `full_game` with options set first (`option NAME=VALUE` lines).
fn full_game_with(variant: &str, library_variant: &str, fen: Option<&str>, options: &[&str]) {
    let (mut s, _) = Session::start();
    assert!(s.exchange(options).is_empty(), "{options:?}");
    let setup = s.exchange(&["option Random start=0", "new", &format!("variant {variant}"), "force"]);
    s.hide_setup = true;
    let start = match fen {
        Some(f) => {
            assert!(s.exchange(&[&format!("setboard {f}")]).is_empty());
            f.to_string()
        }
        // The start position XBoard was given, if any.
        None => setup
            .first()
            .filter(|l| l.starts_with("setup "))
            .and_then(|l| l.splitn(4, ' ').nth(3))
            .unwrap_or(START)
            .to_string(),
    };
    let mut g = game(library_variant, &start);
    s.exchange(&["sd 2"]);
    for ply in 0..400 {
        s.send("go");
        let lines = s.expect(|l| l.starts_with("move ") || l.contains('{'));
        let last = lines.last().cloned().unwrap_or_default();
        if let Some(m) = last.strip_prefix("move ") {
            g.play(m).unwrap_or_else(|e| panic!("{variant} ply {ply}: engine played {m}: {e}; moves {:?}", g.moves()));
            let after = s.sync();
            if let Some(claim) = after.iter().find(|l| l.contains('{')) {
                let outcome = g.outcome().unwrap_or_else(|| panic!("{variant}: claim {claim} without an end"));
                assert_eq!(claim, &outcome.to_string(), "{variant}");
                eprintln!("{variant} from {start}: {claim} after {} plies", g.moves().len());
                return;
            }
            assert!(g.outcome().is_none(), "{variant}: the game ended ({:?}) without a claim", g.outcome());
        } else {
            let outcome = g.outcome().unwrap_or_else(|| panic!("{variant}: claim {last} without an end"));
            assert_eq!(last, outcome.to_string(), "{variant}");
            eprintln!("{variant} from {start}: {last} after {} plies", g.moves().len());
            return;
        }
    }
    panic!("{variant}: no result after 400 plies");
}

#[test]
fn full_games_of_every_variant() {
    let cases: [(&str, &str, Option<&str>); 9] = [
        ("normal", "chess", None),
        ("fischerandom", "chess960", Some("bqnbrkrn/pppppppp/8/8/8/8/PPPPPPPP/BQNBRKRN w KQkq - 0 1")),
        ("nocastle", "dchess", Some("nrbkqbrn/pppppppp/8/8/8/8/PPPPPPPP/BRNQKRNB b - - 0 1")),
        ("dchess", "dchess", None),
        ("chess9", "chess9", Some("rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBBKQNR w KQkq - 0 1")),
        ("displacement", "displacement", None),
        ("vdchess", "vdchess", Some("nbnqbrkr/pppppppp/8/8/8/8/PPPPPPPP/NBNQBRKR[Aa] w KQkq - 0 1")),
        ("rvc", "rvc", None),
        ("rvc", "rvc", Some("rhcnbqkbncyr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RHCNBQKBNCYR w KQkq - 0 1")),
    ];
    let handles: Vec<_> =
        cases.into_iter().map(|(v, lib, fen)| std::thread::spawn(move || full_game(v, lib, fen))).collect();
    for h in handles {
        h.join().expect("a game failed");
    }
}

#[test]
fn full_games_at_the_lowest_levels() {
    let cases: [(&str, &str, &str); 4] = [
        ("rvc", "rvc", "option Skill Level=0"),
        ("vdchess", "vdchess", "option Skill Level=0"),
        ("chess9", "chess9", "option UCI_LimitStrength=1"),
        ("normal", "chess", "option Skill Level=3"),
    ];
    let handles: Vec<_> = cases
        .into_iter()
        .map(|(v, lib, option)| std::thread::spawn(move || full_game_with(v, lib, None, &[option])))
        .collect();
    for h in handles {
        h.join().expect("a game failed");
    }
}

#[test]
fn pregame_commands_are_answered_and_change_nothing() {
    let mut s = Session::in_variant("normal");
    let dchess = "nqkrbbnr/pppppppp/8/8/8/8/PPPPPPPP/RKBQRNNB w - - 0 1";
    let out = s.exchange(&[
        &format!("pregame dchess transpose {dchess} depth 2"),
        "pregame chess9 relocate rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 black depth 2",
        "pregame dchess transpose not-a-fen",
    ]);
    // "none" and the 19 swaps, then the choice among them.
    let options: Vec<&String> = out.iter().filter(|l| l.starts_with("pregame option ")).collect();
    assert_eq!(options.len(), 20 + 3, "{out:?}");
    let swap = out.iter().find(|l| l.starts_with("pregame swap ")).expect("a swap");
    let chosen = &swap["pregame swap ".len()..];
    assert!(options.iter().any(|o| o.split_whitespace().nth(2) == Some(chosen)), "{out:?}");
    assert!(out.iter().any(|l| l.starts_with("pregame relocate ")), "{out:?}");
    assert!(out.last().is_some_and(|l| l.starts_with("Error (") && l.ends_with("not-a-fen")), "{out:?}");
    // Still the orthodox start, White to move.
    s.send("usermove e2e4");
    s.send("sd 2");
    s.send("go");
    let m = s.next_move();
    let mut g = game("chess", START);
    g.play("e2e4").unwrap();
    assert!(g.play(&m).is_ok(), "{m}");
}

/// The options as XBoard shows them in its engine settings dialog (written out here, not taken
/// from the engine's option table: a change of either is a change users see), then values
/// refused as UCI refuses them.
#[test]
fn options_are_offered_as_xboard_shows_them_and_checked() {
    let (mut s, features) = Session::start();
    let offered: Vec<&str> = features.iter().filter(|l| l.starts_with("feature option=")).map(String::as_str).collect();
    let rulesets: Vec<&str> = std::iter::once("*auto").chain(common::RULESETS).collect();
    let ruleset = format!("feature option=\"Ruleset -combo {}\"", rulesets.join(" /// "));
    assert_eq!(
        offered,
        [
            "feature option=\"Hash -spin 16 1 65536\"",
            "feature option=\"Threads -spin 1 1 256\"",
            "feature option=\"Move Overhead -spin 30 0 10000\"",
            "feature option=\"MultiPV -spin 1 1 64\"",
            "feature option=\"Skill Level -spin 20 0 20\"",
            "feature option=\"UCI_LimitStrength -check 0\"",
            "feature option=\"UCI_Elo -spin 770 770 2680\"",
            "feature option=\"VariantPath -file <empty>\"",
            &ruleset,
            "feature option=\"Random start -check 1\"",
            "feature option=\"Use NNUE -check 1\"",
            "feature option=\"EvalFile -file <embedded>\"",
        ]
    );
    // Values out of range are refused as UCI refuses them, also through `memory` and `cores`,
    // and nothing changes.
    let out = s.exchange(&[
        "option Move Overhead=10001",
        "option Hash=0",
        "memory 65537",
        "cores 0",
        "option Random start=maybe",
        "option Ruleset=shogi",
        "option UCI_Variant=chess",
    ]);
    assert_eq!(
        out,
        [
            "Error (Move Overhead must be 0..10000 milliseconds, not '10001'): option Move Overhead=10001",
            "Error (Hash must be 1..65536 megabytes, not '0'): option Hash=0",
            "Error (Hash must be 1..65536 megabytes, not '65537'): memory 65537",
            "Error (Threads must be 1..256, not '0'): cores 0",
            "Error (Random start is true or false, not 'maybe'): option Random start=maybe",
            "Error (unknown Ruleset 'shogi'): option Ruleset=shogi",
            "Error (unknown option 'UCI_Variant'): option UCI_Variant=chess",
        ]
    );
    // Every rule set UCI's Ruleset offers is taken here too.
    let out = s.exchange(&["option Ruleset=chess9+strict-castling", "option Ruleset=AUTO", "option Random start=0"]);
    assert!(out.is_empty(), "{out:?}");
}

#[test]
fn an_overlong_line_is_refused_whole_and_the_engine_plays_on() {
    let mut s = Session::in_variant("chess");
    let long = format!("setboard {}", "8/".repeat(1_000_000));
    let lines = s.exchange(&["usermove e2e4", &long]);
    assert_eq!(
        lines,
        ["Error (line too long): a line of 2000009 bytes is longer than the 1048576 read; it was ignored"]
    );
    s.send("go");
    let reply = s.next_move();
    let mut g = game("chess", START);
    g.play("e2e4").unwrap_or_else(|e| panic!("{e}"));
    assert!(g.play(&reply).is_ok(), "{reply}");
}

#[test]
fn a_memory_size_the_machine_cannot_provide_is_refused_and_the_engine_plays_on() {
    let total_mb = common::total_memory_mb();
    let mut s = Session::in_variant("chess");
    // The largest size offered; refused wherever it is more than the machine's memory.
    let out = s.exchange(&["memory 65536"]);
    if total_mb.is_some_and(|mb| mb < 60_000) {
        assert_eq!(out.len(), 1, "{out:?}");
        assert!(out[0].starts_with("Error (Hash: cannot allocate") && out[0].ends_with("): memory 65536"), "{out:?}");
    }
    s.exchange(&["usermove e2e4"]);
    s.send("go");
    let reply = s.next_move();
    let mut g = game("chess", START);
    g.play("e2e4").unwrap_or_else(|e| panic!("{e}"));
    assert!(g.play(&reply).is_ok(), "{reply}");
}

#[test]
fn a_variant_file_adds_variants_and_ten_rank_boards_count_ranks_from_zero() {
    let (mut s, _) = Session::start();
    s.send("option Random start=0");
    let bad = s.exchange(&["option VariantPath=engine-tests/variant-files/bad.vars"]);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].starts_with("Error (VariantPath: variant file 'engine-tests/variant-files/bad.vars' line 5:"),
        "{bad:?}"
    );
    assert_eq!(s.exchange(&["variant chess10x10"]), ["Error (unsupported variant): variant chess10x10"]);
    let loaded = s.exchange(&["option VariantPath=perft-suites/big-boards.vars"]);
    assert_eq!(loaded.len(), 1, "{loaded:?}");
    assert!(
        loaded[0].starts_with("feature variants=") && loaded[0].ends_with(",chess10x10,chess12x10\""),
        "{loaded:?}"
    );
    let setup = s.exchange(&["new", "variant chess12x10"]);
    assert!(setup[0].starts_with("setup (") && setup[0].contains(" 12x10+0_fairy rnbacqkcabnr/"), "{setup:?}");
    // XBoard's a1a3 is the pawn's double step a2-a4; a0 is the first rank, l9 the tenth.
    assert!(s.exchange(&["force", "usermove a1a3", "usermove l8l6", "usermove a3a4", "usermove l9l7"]).is_empty());
    assert!(s.exchange(&["usermove a9a8"]).iter().any(|l| l.starts_with("Illegal move")));
    s.send("sd 2");
    s.send("go");
    let m = s.next_move();
    let ranks = |text: &str| text.chars().filter(|c| c.is_ascii_digit()).collect::<String>();
    assert!(!ranks(&m).contains("10") && ranks(&m).len() == 2, "{m} is written with one digit per rank");
}

#[test]
fn a_fairy_stockfish_file_adds_the_variants_menagerie_plays_exactly() {
    let (mut s, _) = Session::start();
    let bad = s.exchange(&["option VariantPath=engine-tests/variant-files/bad-fsf.ini"]);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(
        bad[0].starts_with("Error (VariantPath: variant file 'engine-tests/variant-files/bad-fsf.ini' line 5:"),
        "{bad:?}"
    );
    let loaded = s.exchange(&["option VariantPath=rules/tests/data/fsf-variants.ini"]);
    // One comment per refused section, then the new list.
    assert_eq!(loaded.len(), 6, "{loaded:?}");
    for (line, name) in loaded.iter().zip(["semitorpedo", "kamikazerooks", "crossderby", "gothhouse", "wildebeest"]) {
        assert!(line.starts_with(&format!("# variant '{name}' refused: line ")), "{loaded:?}");
    }
    assert!(loaded[5].starts_with("feature variants=") && loaded[5].contains(",haynie,"), "{loaded:?}");
    assert!(!loaded[5].contains("semitorpedo"), "{loaded:?}");
    let setup = s.exchange(&["new", "variant haynie"]);
    assert!(setup.iter().any(|l| l.contains("6x6+0_fairy rbqkbr/pppppp/6/6/PPPPPP/RBQKBR")), "{setup:?}");
    s.exchange(&["usermove d2d3"]);
    s.send("sd 2");
    s.send("go");
    let m = s.next_move();
    assert!(m.len() == 4 || m.len() == 5, "{m}");
}
