//! `menagerie match` and `menagerie book` against the real binary: forfeits by fake engines (an
//! illegal move in UCI and XBoard, a hang without and with a clock, a crash followed by a
//! restart), the pre-game protocol's client side, short real self-matches in every variant, a
//! killed match that leaves a valid PGN, a match resumed from its PGN, an SPRT that stops, and EPD
//! books.
//!
//! Nothing here asserts how long a match takes: each `menagerie match` only has to end (a match
//! that runs past `MATCH_HANG_GUARD` has hung).

mod common;

use common::HANG_GUARD;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// How long a match of a few short games may run before the test declares it hung: a liveness
/// check, far beyond what any of these matches needs on a loaded machine.
const MATCH_HANG_GUARD: Duration = Duration::from_secs(600);

const BIN: &str = env!("CARGO_BIN_EXE_menagerie");

fn fake(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("engine-tests/fake-engines").join(name);
    format!("cmd=python3 {}", path.display())
}

/// A fresh scratch directory per test, removed when the test passes (kept for a look when it
/// fails).
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("menagerie-tournament-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    Scratch(dir)
}

fn ours(name: &str) -> Vec<String> {
    vec![format!("name={name}"), format!("cmd={BIN}"), "option.Hash=4".to_string()]
}

/// `menagerie match` with the engines (each a list of fields), extra arguments, a PGN file and
/// a seed.
fn match_command(engines: &[Vec<String>], args: &[&str], pgn: &Path, seed: u64) -> Command {
    let mut cmd = Command::new(BIN);
    cmd.arg("match");
    for e in engines {
        cmd.arg("--engine").args(e);
    }
    cmd.args(args).arg("--pgn").arg(pgn).arg("--seed").arg(seed.to_string());
    cmd
}

/// Run `menagerie match` (seed 11) to its end; it must succeed.
fn run_match(engines: &[Vec<String>], args: &[&str], pgn: &Path) -> Output {
    let out = output_within_hang_guard(match_command(engines, args, pgn, 11));
    assert!(
        out.status.success(),
        "match failed: {}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    out
}

/// Run a command to its end and return its output; panics (killing it) when it runs past the
/// match hang guard.
fn output_within_hang_guard(mut cmd: Command) -> Output {
    let child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start menagerie match");
    let pid = child.id();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(MATCH_HANG_GUARD) {
        Ok(out) => out.expect("wait for menagerie match"),
        Err(_) => {
            let _ = Command::new("kill").arg("-9").arg(pid.to_string()).status();
            panic!("hang guard: the match did not end in {MATCH_HANG_GUARD:?}");
        }
    }
}

/// One game of a PGN file: its tags and its movetext.
struct PgnGame {
    tags: Vec<(String, String)>,
    movetext: String,
}

impl PgnGame {
    fn tag(&self, k: &str) -> &str {
        self.tags.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("no {k} tag"))
    }
}

/// Read a PGN file strictly: tag pairs, a blank line, movetext ending with the Result tag's value.
fn read_pgn(path: &Path) -> Vec<PgnGame> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut games = Vec::new();
    for block in text.split("\n\n[").filter(|b| !b.trim().is_empty()) {
        let block = if block.starts_with('[') { block.to_string() } else { format!("[{block}") };
        let (head, movetext) = block.split_once("\n\n").unwrap_or_else(|| panic!("no movetext in {block}"));
        let tags = head
            .lines()
            .map(|l| {
                let l = l.strip_prefix('[').and_then(|l| l.strip_suffix(']')).unwrap_or_else(|| panic!("bad tag {l}"));
                let (k, v) = l.split_once(' ').unwrap_or_else(|| panic!("bad tag {l}"));
                (k.to_string(), v.trim_matches('"').to_string())
            })
            .collect();
        let g = PgnGame { tags, movetext: movetext.trim().to_string() };
        for k in [
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Variant",
            "FEN",
            "SetUp",
            "Termination",
            "TimeControl",
        ] {
            g.tag(k);
        }
        assert!(g.movetext.ends_with(g.tag("Result")), "movetext must end with the result: {}", g.movetext);
        assert_eq!(g.movetext.matches('{').count(), g.movetext.matches('}').count());
        games.push(g);
    }
    games
}

#[test]
fn illegal_moves_forfeit_in_uci_and_xboard() {
    let dir = scratch("illegal");
    for proto in ["uci", "xboard"] {
        let pgn = dir.join(format!("{proto}.pgn"));
        let bad = vec!["name=bad".to_string(), fake("illegal.py"), format!("proto={proto}")];
        let out = run_match(&[bad, ours("menagerie")], &["--variant", "chess", "--tc", "depth=2"], &pgn);
        let games = read_pgn(&pgn);
        assert_eq!(games.len(), 2, "{proto}");
        for g in &games {
            assert_eq!(g.tag("Termination"), "illegal move", "{proto}: {}", g.movetext);
            let winner = if g.tag("White") == "menagerie" { "1-0" } else { "0-1" };
            assert_eq!(g.tag("Result"), winner);
            assert!(g.movetext.contains("bad ("), "{}", g.movetext);
        }
        let table = String::from_utf8_lossy(&out.stdout);
        assert!(table.contains("bad vs menagerie: 0-0-2"), "{table}");
    }
}

#[test]
fn xboard_claims_resignations_and_rejections_are_judged() {
    let dir = scratch("xboard");
    for (mode, termination) in [("claim", "false claim"), ("resign", "resignation"), ("reject", "protocol error")] {
        let pgn = dir.join(format!("{mode}.pgn"));
        let liar =
            vec!["name=liar".to_string(), format!("{} {mode}", fake("xboard_liar.py")), "proto=xboard".to_string()];
        run_match(&[ours("menagerie"), liar], &["--variant", "chess", "--tc", "depth=1"], &pgn);
        let games = read_pgn(&pgn);
        assert_eq!(games.len(), 2);
        for g in &games {
            assert_eq!(g.tag("Termination"), termination, "{mode}: {}", g.movetext);
            let liar_white = g.tag("White") == "liar";
            assert_eq!(g.tag("Result"), if liar_white { "0-1" } else { "1-0" }, "{mode}");
        }
    }
}

/// Seconds after which the slow fake engine answers: far past the 700 ms hang timeout given
/// below, well short of the 30 s default a referee that ignored it would wait.
const LATE_ANSWER_S: u32 = 20;

/// A silent engine is forfeited by the hang timeout given (without a clock) and by its clock.
/// No time is measured: without a clock the engine answers after `LATE_ANSWER_S`, so a referee
/// that waited longer than the hang timeout given would get a (null) move and judge an illegal
/// move instead of a hang; with a clock the engine never answers, so a referee that ignored the
/// clock would not end the match (the hang guard of `run_match`).
#[test]
fn a_hang_forfeits_by_the_hang_timeout_or_the_clock() {
    let dir = scratch("hang");
    let slow = vec!["name=hang".to_string(), format!("{} {LATE_ANSWER_S}", fake("hang.py"))];
    let pgn = dir.join("depth.pgn");
    run_match(&[slow, ours("menagerie")], &["--variant", "chess", "--tc", "depth=2", "--hang-timeout", "700"], &pgn);
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.tag("Termination"), "protocol hang", "the hang timeout was not applied: {}", g.movetext);
        assert!(g.movetext.contains("hang (") && g.movetext.contains("hangs"), "{}", g.movetext);
    }
    let silent = vec!["name=hang".to_string(), fake("hang.py")];
    let pgn = dir.join("clock.pgn");
    run_match(&[silent, ours("menagerie")], &["--variant", "chess", "--tc", "0.5+0", "--grace", "50"], &pgn);
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(g.tag("Termination"), "time forfeit", "{}", g.movetext);
        assert_eq!(g.tag("TimeControl"), "0.5");
    }
}

#[test]
fn a_crashed_engine_loses_and_is_restarted_for_the_next_game() {
    let dir = scratch("crash");
    let marker = dir.join("crashed-once");
    let crash = vec!["name=crash".to_string(), fake("crash.py"), format!("arg={}", marker.display())];
    let pgn = dir.join("crash.pgn");
    run_match(&[crash, ours("menagerie")], &["--variant", "chess", "--tc", "depth=2", "--games", "4"], &pgn);
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 4, "the match goes on after the crash");
    assert_eq!(games[0].tag("Termination"), "engine crash");
    assert!(games[0].movetext.contains("crash (White) crashed"), "{}", games[0].movetext);
    assert_eq!(games[0].tag("Result"), "0-1");
    // The restarted process answers `bestmove 0000`: an illegal null move, not a crash.
    for g in &games[1..] {
        assert_eq!(g.tag("Termination"), "illegal move", "{}", g.movetext);
    }
}

#[test]
fn pregame_choices_are_asked_checked_and_applied() {
    let dir = scratch("pregame");
    let fake_engine = vec!["name=fake".to_string(), fake("pregame.py")];
    let mut menagerie = ours("menagerie");
    menagerie.push("pregame=random".to_string());
    // D-Chess: game 1 the fake wins the toss and takes Black, so White (menagerie) moves first.
    let pgn = dir.join("dchess.pgn");
    run_match(
        &[fake_engine.clone(), menagerie.clone()],
        &["--variant", "dchess", "--tc", "depth=1", "--pregame", "--games", "4"],
        &pgn,
    );
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 4);
    for (i, g) in games.iter().enumerate() {
        let note = g.tag("Pregame");
        let fen_side = g.tag("FEN").split(' ').nth(1).unwrap_or("");
        if i % 2 == 0 {
            assert!(note.starts_with("fake won the toss and chose Black; menagerie moves first"), "{note}");
            assert_eq!((g.tag("Black"), fen_side), ("fake", "w"));
        } else {
            assert!(note.starts_with("menagerie won the toss"), "{note}");
            let first = if fen_side == "w" { g.tag("White") } else { g.tag("Black") };
            assert_eq!(first, "fake", "the toss loser moves first");
            // The fake swaps its king with its first non-bishop piece.
            let token = note.rsplit(' ').next().unwrap_or("");
            assert_eq!(token.len(), 4, "{note}");
            let rank_no = if fen_side == "w" { 7 } else { 0 };
            let rank = g.tag("FEN").split('/').nth(rank_no).unwrap_or("").to_string();
            let file = (token.as_bytes()[2] - b'a') as usize;
            let mut squares = String::new();
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(n) => squares.extend(std::iter::repeat_n(' ', n as usize)),
                    None => squares.push(c),
                }
            }
            assert_eq!(squares.chars().nth(file).map(|c| c.to_ascii_lowercase()), Some('k'), "{rank} {note}");
        }
    }
    // Chess-9: Black relocates, then White; the fake always relocates its queen.
    let pgn = dir.join("chess9.pgn");
    run_match(&[fake_engine, menagerie.clone()], &["--variant", "chess9", "--tc", "depth=1", "--pregame"], &pgn);
    let games = read_pgn(&pgn);
    assert_eq!(games.len(), 2);
    assert!(games[0].tag("FEN").ends_with("/RNBBKQNR w KQkq - 0 1"), "{}", games[0].tag("FEN"));
    assert!(games[0].tag("Pregame").ends_with("fake (white) relocates queen"), "{}", games[0].tag("Pregame"));
    assert!(games[1].tag("FEN").starts_with("rnbbkqnr/"), "{}", games[1].tag("FEN"));
    assert!(games[1].tag("Pregame").starts_with("fake (black) relocates queen"), "{}", games[1].tag("Pregame"));
    // Illegal answers lose: a side "purple", a relocation of the rook.
    let liar = vec!["name=liar".to_string(), format!("{} illegal", fake("pregame.py"))];
    for variant in ["dchess", "chess9"] {
        let pgn = dir.join(format!("liar-{variant}.pgn"));
        run_match(&[liar.clone(), menagerie.clone()], &["--variant", variant, "--tc", "depth=1", "--pregame"], &pgn);
        let games = read_pgn(&pgn);
        let g = &games[0];
        assert_eq!(g.tag("Termination"), "illegal pre-game choice", "{variant}: {}", g.movetext);
        let liar_white = g.tag("White") == "liar";
        assert_eq!(g.tag("Result"), if liar_white { "0-1" } else { "1-0" }, "{variant}");
        assert!(g.movetext.starts_with("{liar"), "{}", g.movetext);
    }
}

#[test]
fn self_matches_in_every_variant() {
    let dir = scratch("self");
    for variant in ["chess", "chess960", "dchess", "chess9", "displacement", "vdchess", "rvc"] {
        let pgn = dir.join(format!("{variant}.pgn"));
        let out = run_match(
            &[ours("new"), ours("base")],
            &["--variant", variant, "--tc", "depth=2", "--games", "2", "--maxmoves", "60", "--concurrency", "2"],
            &pgn,
        );
        let games = read_pgn(&pgn);
        assert_eq!(games.len(), 2, "{variant}");
        assert_eq!(games[0].tag("FEN"), games[1].tag("FEN"), "one start, colours reversed");
        assert_ne!(games[0].tag("White"), games[1].tag("White"));
        for g in &games {
            assert_eq!(g.tag("Variant"), variant);
            let normal = ["checkmate", "stalemate", "threefold repetition", "fifty-move rule", "insufficient material"];
            let t = g.tag("Termination");
            assert!(normal.iter().any(|n| t.starts_with(n)) || t == "adjudication", "{variant}: {t}\n{}", g.movetext);
            assert!(g.movetext.contains("/2 "), "depth in the comments: {}", g.movetext);
        }
        let table = String::from_utf8_lossy(&out.stdout);
        assert!(table.contains("new vs base:") && table.contains("Elo"), "{table}");
    }
}

#[test]
fn a_killed_match_leaves_every_finished_game() {
    let dir = scratch("killed");
    let pgn = dir.join("killed.pgn");
    let mut child = Command::new(BIN)
        .arg("match")
        .arg("--engine")
        .args(ours("a"))
        .arg("--engine")
        .args(ours("b"))
        .args(["--variant", "dchess", "--tc", "depth=1", "--games", "200", "--pgn"])
        .arg(&pgn)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start match");
    // Poll the file until two games are in it (the hang guard: a match that writes none has
    // hung).
    let deadline = Instant::now() + HANG_GUARD;
    while std::fs::read_to_string(&pgn).map(|t| t.matches("[Event ").count()).unwrap_or(0) < 2 {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("hang guard: no two games written in {HANG_GUARD:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().expect("kill");
    let _ = child.wait();
    let games = read_pgn(&pgn);
    assert!(games.len() >= 2 && games.len() < 200, "{}", games.len());
}

#[test]
fn a_match_resumes_from_its_pgn_file() {
    let dir = scratch("resume");
    let pgn = dir.join("resume.pgn");
    let engines = [ours("a"), ours("b")];
    let args = |games: &'static str| ["--variant", "dchess", "--tc", "depth=1", "--games", games, "--maxmoves", "40"];
    run_match(&engines, &args("4"), &pgn);
    let first_four = std::fs::read_to_string(&pgn).expect("pgn");
    // What a kill while writing a game leaves behind.
    std::fs::write(&pgn, format!("{first_four}[Event \"Menagerie match\"]\n[Site \"x")).expect("write");
    let out = run_match(&engines, &[&args("8")[..], &["--resume"]].concat(), &pgn);
    let text = std::fs::read_to_string(&pgn).expect("pgn");
    assert!(text.starts_with(&first_four), "the finished games are kept as they were");
    let mut rounds: Vec<usize> = read_pgn(&pgn).iter().map(|g| g.tag("Round").parse().expect("round")).collect();
    rounds.sort();
    assert_eq!(rounds, (1..=8).collect::<Vec<_>>());
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("/8 = "), "all eight games are counted: {table}");

    // Another seed schedules other starts: refused, and the file is left alone.
    let other = output_within_hang_guard(match_command(&engines, &[&args("8")[..], &["--resume"]].concat(), &pgn, 12));
    assert!(!other.status.success());
    let err = String::from_utf8_lossy(&other.stderr);
    assert!(err.contains("--resume") && err.contains("--seed"), "{err}");
    assert_eq!(std::fs::read_to_string(&pgn).expect("pgn"), text);
}

#[test]
fn the_sprt_stops_a_decided_match() {
    let dir = scratch("sprt");
    let pgn = dir.join("sprt.pgn");
    let bad = vec!["name=bad".to_string(), fake("illegal.py")];
    let out = run_match(
        &[ours("menagerie"), bad],
        &[
            "--variant",
            "chess",
            "--tc",
            "depth=1",
            "--games",
            "200",
            "--sprt",
            "elo0=0",
            "elo1=100",
            "alpha=0.05",
            "beta=0.05",
        ],
        &pgn,
    );
    let games = read_pgn(&pgn).len();
    assert!((4..200).contains(&games), "{games} games");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(table.contains("H1 accepted"), "{table}");
    // Resumed, a decided match plays no more games and says the same.
    let bad = vec!["name=bad".to_string(), fake("illegal.py")];
    let sprt = ["--sprt", "elo0=0", "elo1=100", "alpha=0.05", "beta=0.05", "--resume"];
    let again = run_match(
        &[ours("menagerie"), bad],
        &[&["--variant", "chess", "--tc", "depth=1", "--games", "200"][..], &sprt].concat(),
        &pgn,
    );
    assert_eq!(read_pgn(&pgn).len(), games);
    let resumed = String::from_utf8_lossy(&again.stdout);
    assert!(resumed.contains("H1 accepted") && resumed.contains(&format!("/{games} = ")), "{resumed}");
}

#[test]
fn books_and_bad_arguments() {
    let dir = scratch("book");
    let file = dir.join("chess9.epd");
    let st = Command::new(BIN)
        .args(["book", "--variant", "chess9", "--count", "12", "--seed", "3", "--output"])
        .arg(&file)
        .status()
        .expect("book");
    assert!(st.success());
    let text = std::fs::read_to_string(&file).expect("book file");
    assert_eq!(text.lines().count(), 12);
    assert!(text.lines().all(|l| l.split(' ').count() == 4 && l.contains(" w HAha ")), "{text}");
    // The book is an opening file for our own runner too.
    let pgn = dir.join("book.pgn");
    let openings = format!("file:{}", file.display());
    run_match(
        &[ours("a"), ours("b")],
        &["--variant", "chess9", "--tc", "depth=1", "--openings", &openings, "--maxmoves", "5"],
        &pgn,
    );
    assert_eq!(read_pgn(&pgn)[0].tag("FEN"), format!("{} 0 1", text.lines().next().unwrap_or("")));
    let illegal = fake("illegal.py");
    for args in [
        vec!["book", "--variant", "rvc", "--count", "1", "--output", "/dev/null"],
        vec!["match", "--engine", "cmd=/nonexistent/engine", "--engine", "cmd=x", "--variant", "chess"],
        // The illegal-move fake lists only normal and fischerandom: no VD Chess.
        vec!["match", "--engine", &illegal, "proto=xboard", "--engine", &format!("cmd={BIN}"), "--variant", "vdchess"],
        vec![
            "match",
            "--engine",
            "name=a",
            "cmd=x",
            "--engine",
            "name=b",
            "cmd=y",
            "--variant",
            "chess",
            "--tc",
            "fast",
        ],
        vec![
            "match",
            "--engine",
            "name=a",
            &format!("cmd={BIN}"),
            "--engine",
            "name=a",
            &format!("cmd={BIN}"),
            "--variant",
            "chess",
        ],
        vec![
            "match",
            "--engine",
            "name=a",
            &format!("cmd={BIN}"),
            "--engine",
            "name=b",
            &format!("cmd={BIN}"),
            "--variant",
            "nonsense",
        ],
    ] {
        let out = Command::new(BIN).args(&args).output().expect("run");
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: ") && !err.contains("panicked"), "{args:?}: {err}");
    }
}
