//! The weaker levels against the real binary: `Skill Level`, `UCI_LimitStrength` and `UCI_Elo`
//! offered in UCI and XBoard with their ranges, bad values refused with the level kept, the
//! level a search actually uses (seen in its output: the lines it searches and the depth it
//! stops at), and whole games at low levels in every variant, refereed by `menagerie match`
//! (which forfeits an illegal move). Work is bounded by depth and nodes, never by the clock.

mod common;

use menagerie::engine::skill::{MAX_ELO, MIN_ELO};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command};
use std::sync::mpsc::Receiver;

const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

/// An engine process speaking UCI or XBoard.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Session {
    fn start(protocol: &str) -> (Session, Vec<String>) {
        let (child, stdin, lines) = common::spawn_engine();
        let mut s = Session { child, stdin, lines };
        let handshake = if protocol == "uci" {
            s.send("uci");
            s.expect(|l| l == "uciok")
        } else {
            s.send("xboard");
            s.send("protover 2");
            s.expect(|l| l == "feature done=1")
        };
        (s, handshake)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    fn expect(&mut self, want: impl Fn(&str) -> bool) -> Vec<String> {
        common::read_until(&self.lines, want)
    }

    /// UCI: set an option and return what the engine said about it (nothing, or an error).
    fn set(&mut self, name: &str, value: &str) -> Vec<String> {
        self.send(&format!("setoption name {name} value {value}"));
        self.send("isready");
        let mut lines = self.expect(|l| l == "readyok");
        lines.pop();
        lines
    }

    /// UCI: search with `go ARGS` and return the (depth, multipv) of every `info ... pv` line.
    fn search(&mut self, go: &str) -> Vec<(u32, u32)> {
        self.send(go);
        let lines = self.expect(|l| l.starts_with("bestmove "));
        lines
            .iter()
            .filter(|l| l.starts_with("info depth "))
            .map(|l| (field(l, "depth"), field(l, "multipv")))
            .collect()
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.wait();
    }
}

/// The number after `key` in an info line.
fn field(line: &str, key: &str) -> u32 {
    let mut words = line.split_whitespace();
    words.find(|&w| w == key).and_then(|_| words.next()).and_then(|n| n.parse().ok()).unwrap_or(0)
}

/// The deepest iteration and the most lines of a search's reports.
fn reach(reports: &[(u32, u32)]) -> (u32, u32) {
    (reports.iter().map(|r| r.0).max().unwrap_or(0), reports.iter().map(|r| r.1).max().unwrap_or(0))
}

#[test]
fn the_options_are_offered_in_both_protocols_with_their_ranges() {
    let (_uci, offered) = Session::start("uci");
    for line in [
        "option name Skill Level type spin default 20 min 0 max 20".to_string(),
        "option name UCI_LimitStrength type check default false".to_string(),
        format!("option name UCI_Elo type spin default {MIN_ELO} min {MIN_ELO} max {MAX_ELO}"),
    ] {
        assert!(offered.contains(&line), "{line} missing in {offered:#?}");
    }
    let (_xboard, features) = Session::start("xboard");
    for line in [
        "feature option=\"Skill Level -spin 20 0 20\"".to_string(),
        "feature option=\"UCI_LimitStrength -check 0\"".to_string(),
        format!("feature option=\"UCI_Elo -spin {MIN_ELO} {MIN_ELO} {MAX_ELO}\""),
    ] {
        assert!(features.contains(&line), "{line} missing in {features:#?}");
    }
}

#[test]
fn a_level_searches_four_lines_to_a_capped_depth_and_full_strength_one_line() {
    let (mut s, _) = Session::start("uci");
    s.send("position startpos moves e2e4");
    assert_eq!(reach(&s.search("go depth 6")), (6, 1), "full strength: one line to the depth asked");
    assert!(s.set("Skill Level", "0").is_empty());
    let reports = s.search("go depth 6");
    assert_eq!(reach(&reports), (1, 4), "level 0: four lines of depth 1 only");
    assert_eq!(reports.len(), 4, "{reports:?}");
    // A level in the middle stops between the two.
    assert!(s.set("Skill Level", "9").is_empty());
    let (depth, lines) = reach(&s.search("go depth 30"));
    assert!(depth > 1 && depth < 12 && lines == 4, "level 9: depth {depth}, {lines} lines");
    // MultiPV above four is kept.
    assert!(s.set("MultiPV", "6").is_empty());
    assert_eq!(reach(&s.search("go depth 3")).1, 6);
}

#[test]
fn limit_strength_with_elo_sets_the_level_searched() {
    let (mut s, _) = Session::start("uci");
    s.send("position startpos moves d2d4 g8f6");
    // UCI_Elo alone changes nothing.
    assert!(s.set("UCI_Elo", &MIN_ELO.to_string()).is_empty());
    assert_eq!(reach(&s.search("go depth 5")), (5, 1));
    assert!(s.set("UCI_LimitStrength", "true").is_empty());
    assert_eq!(reach(&s.search("go depth 5")), (1, 4), "the lowest Elo is level 0");
    let middle = (MIN_ELO + MAX_ELO) / 2;
    assert!(s.set("UCI_Elo", &middle.to_string()).is_empty());
    let (mid_depth, lines) = reach(&s.search("go depth 40"));
    assert_eq!(lines, 4);
    assert!(s.set("UCI_Elo", &MAX_ELO.to_string()).is_empty());
    let (top_depth, lines) = reach(&s.search("go depth 40"));
    assert_eq!(lines, 4);
    assert!(1 < mid_depth && mid_depth < top_depth, "Elo {middle}: depth {mid_depth}; Elo {MAX_ELO}: {top_depth}");
    // The Elo overrides Skill Level, and UCI_LimitStrength off gives Skill Level back.
    assert!(s.set("UCI_Elo", &MIN_ELO.to_string()).is_empty());
    assert!(s.set("Skill Level", "19").is_empty());
    assert_eq!(reach(&s.search("go depth 5")), (1, 4));
    assert!(s.set("UCI_LimitStrength", "false").is_empty());
    assert_eq!(reach(&s.search("go depth 5")), (5, 4), "Skill Level 19");
    assert!(s.set("Skill Level", "20").is_empty());
    assert_eq!(reach(&s.search("go depth 5")), (5, 1));
}

#[test]
fn bad_values_are_refused_and_the_level_kept() {
    let (mut s, _) = Session::start("uci");
    assert!(s.set("Skill Level", "0").is_empty());
    for bad in ["21", "-1", "weak"] {
        let said = s.set("Skill Level", bad);
        assert_eq!(said, [format!("info string error: Skill Level must be 0..20, not '{bad}'")]);
    }
    assert!(s.set("UCI_LimitStrength", "true").is_empty());
    for bad in [MIN_ELO - 1, MAX_ELO + 1] {
        let said = s.set("UCI_Elo", &bad.to_string());
        assert_eq!(said, [format!("info string error: UCI_Elo must be {MIN_ELO}..{MAX_ELO}, not '{bad}'")]);
    }
    let said = s.set("UCI_LimitStrength", "1");
    assert_eq!(said, ["info string error: UCI_LimitStrength is true or false, not '1'"]);
    // Still the lowest Elo (level 0): one ply.
    s.send("position startpos");
    assert_eq!(reach(&s.search("go depth 6")), (1, 4));
    assert!(s.set("UCI_LimitStrength", "false").is_empty());
    assert_eq!(reach(&s.search("go depth 6")), (1, 4), "Skill Level kept 0");

    // XBoard: the same checks, answered with `Error`.
    let (mut x, _) = Session::start("xboard");
    for line in ["option Skill Level=0", "option Skill Level=21", "option UCI_Elo=9999", "option UCI_LimitStrength=2"] {
        x.send(line);
    }
    x.send("ping 1");
    let mut said = x.expect(|l| l == "pong 1");
    said.pop();
    assert_eq!(
        said,
        [
            "Error (Skill Level must be 0..20, not '21'): option Skill Level=21".to_string(),
            format!("Error (UCI_Elo must be {MIN_ELO}..{MAX_ELO}, not '9999'): option UCI_Elo=9999"),
            "Error (UCI_LimitStrength is true or false, not '2'): option UCI_LimitStrength=2".to_string(),
        ]
    );
    // Level 0 is kept: the thinking output shows four lines of depth 1 and nothing deeper.
    for line in ["new", "force", "usermove e2e4", "post", "sd 6", "go"] {
        x.send(line);
    }
    let lines = x.expect(|l| l.starts_with("move "));
    let thinking: Vec<&String> = lines.iter().filter(|l| l.split_whitespace().count() >= 5).collect();
    assert_eq!(thinking.len(), 4, "{lines:#?}");
    assert!(thinking.iter().all(|l| l.starts_with("1 ")), "{lines:#?}");
    // And UCI_LimitStrength with UCI_Elo set the level in XBoard too.
    for line in ["option Skill Level=20", "option UCI_LimitStrength=1", &format!("option UCI_Elo={MAX_ELO}"), "new"] {
        x.send(line);
    }
    for line in ["force", "usermove d2d4", "sd 4", "go"] {
        x.send(line);
    }
    let lines = x.expect(|l| l.starts_with("move "));
    let deepest: Vec<&String> = lines.iter().filter(|l| l.starts_with("4 ")).collect();
    assert_eq!(deepest.len(), 4, "four lines at depth 4: {lines:#?}");
}

/// A scratch directory for one test, removed when it passes.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

#[test]
fn low_levels_finish_games_with_legal_moves_in_every_variant() {
    let dir = Scratch(std::env::temp_dir().join(format!("menagerie-skill-{}", std::process::id())));
    std::fs::create_dir_all(&dir.0).expect("scratch dir");
    let level = |n: u32| {
        vec![format!("name=L{n}"), format!("cmd={BIN}"), "option.Hash=4".to_string(), format!("option.Skill Level={n}")]
    };
    let variants = ["chess", "chess960", "dchess", "chess9", "displacement", "vdchess", "capablanca", "rvc", "rvcstar"];
    for variant in variants {
        let pgn = dir.0.join(format!("{variant}.pgn"));
        let mut cmd = Command::new(BIN);
        cmd.arg("match");
        for engine in [level(0), level(5)] {
            cmd.arg("--engine").args(engine);
        }
        // The referee forfeits an illegal move; the levels cap the depth below the one asked.
        cmd.args(["--variant", variant, "--tc", "depth=8", "--games", "2", "--maxmoves", "150", "--seed", "5"]);
        let out = cmd.arg("--pgn").arg(&pgn).output().expect("run menagerie match");
        assert!(out.status.success(), "{variant}: {}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&pgn).expect("pgn");
        let ends: Vec<&str> =
            text.lines().filter_map(|l| l.strip_prefix("[Termination \"")).map(|l| l.trim_end_matches("\"]")).collect();
        assert_eq!(ends.len(), 2, "{variant}: {text}");
        let normal = ["checkmate", "stalemate", "threefold repetition", "fifty-move rule", "insufficient material"];
        for end in ends {
            assert!(
                normal.iter().any(|n| end.starts_with(n)) || end == "adjudication",
                "{variant}: a game ended by {end}\n{text}"
            );
        }
    }
}
