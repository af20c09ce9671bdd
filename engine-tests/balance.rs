//! Tests of `menagerie balance` and `menagerie pieces` as a user runs them: the report's
//! numbers against a recount of the game file it wrote, a stopped study resumed without
//! losing or doubling games, a file of another study refused, and the piece diagrams.

mod common;

use common::menagerie;
use menagerie::json::{self, Json};
use std::path::{Path, PathBuf};

/// A fresh folder of the test's own.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("menagerie-balance-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp folder");
    dir
}

fn text(p: &Path) -> String {
    p.to_str().expect("a UTF-8 path").to_string()
}

/// A tiny study of chess9 (starts 0..2, two games each, 200 nodes a move), with extra arguments.
fn study(out: &Path, extra: &[&str]) -> (i32, String, String) {
    let out = text(out);
    let mut args = vec![
        "balance",
        "--variant",
        "chess9",
        "--nodes",
        "200",
        "--starts",
        "0..2",
        "--games-per-start",
        "2",
        "--threads",
        "1",
        "--worth-positions",
        "50",
        "--out",
        &out,
    ];
    args.extend_from_slice(extra);
    menagerie(&args)
}

fn games(path: &Path) -> Vec<Json> {
    let body = std::fs::read_to_string(path).expect("game file");
    body.lines().map(|l| json::parse(l).expect("a game a line")).collect()
}

fn number(j: &Json, path: &[&str]) -> f64 {
    let mut v = j;
    for key in path {
        v = v.get(key).unwrap_or_else(|| panic!("{key} in {j}"));
    }
    v.as_f64().unwrap_or_else(|| panic!("{path:?} is a number"))
}

fn first_mover_score(g: &Json) -> f64 {
    let white = number(g, &["white_score"]);
    match g.get("first").and_then(Json::as_str) {
        Some("white") => white,
        Some("black") => 1.0 - white,
        other => panic!("first mover {other:?}"),
    }
}

#[test]
fn the_report_agrees_with_the_games_it_wrote() {
    let dir = folder("report");
    let (out, report, svg) = (dir.join("g.jsonl"), dir.join("r.json"), dir.join("r.svg"));
    let (code, stdout, stderr) = study(&out, &["--json", &text(&report), "--svg", &text(&svg)]);
    assert_eq!(code, 0, "{stderr}");
    let lines = games(&out);
    assert_eq!(lines.len(), 6);
    let r = json::parse(&std::fs::read_to_string(&report).expect("report")).expect("JSON report");
    // Recount from the game file.
    let scores: Vec<f64> = lines.iter().map(first_mover_score).collect();
    let (wins, draws, losses) = (
        scores.iter().filter(|&&s| s > 0.5).count() as f64,
        scores.iter().filter(|&&s| s == 0.5).count() as f64,
        scores.iter().filter(|&&s| s < 0.5).count() as f64,
    );
    assert_eq!(number(&r, &["games"]), 6.0);
    assert_eq!((number(&r, &["wins"]), number(&r, &["draws"]), number(&r, &["losses"])), (wins, draws, losses));
    let mean = scores.iter().sum::<f64>() / 6.0;
    assert!((number(&r, &["first_mover", "mean"]) - mean).abs() < 1e-6);
    assert!(number(&r, &["first_mover", "low"]) <= mean && mean <= number(&r, &["first_mover", "high"]));
    let plies: Vec<f64> = lines.iter().map(|g| number(g, &["plies"])).collect();
    assert!((number(&r, &["plies", "mean"]) - plies.iter().sum::<f64>() / 6.0).abs() < 1e-6);
    for g in &lines {
        let moves = g.get("moves").and_then(Json::as_str).expect("moves").split_whitespace().count() as f64;
        assert_eq!(moves, number(g, &["plies"]));
    }
    // Per start: two games each, their mean score.
    let starts = r.get("starts").and_then(Json::as_array).expect("starts");
    assert_eq!(starts.len(), 3);
    for row in starts {
        let start = number(row, &["start"]);
        let own: Vec<f64> = lines.iter().filter(|g| number(g, &["start"]) == start).map(first_mover_score).collect();
        assert_eq!(own.len(), 2);
        assert_eq!(number(row, &["games"]), 2.0);
        assert!((number(row, &["score"]) - own.iter().sum::<f64>() / 2.0).abs() < 1e-6);
    }
    // The table says the same.
    assert!(stdout.starts_with("Balance of chess9: 6 games\n"), "{stdout}");
    let tally = format!("+{wins} ={draws} -{losses}");
    assert!(stdout.lines().any(|l| l.starts_with("First mover's score") && l.ends_with(&tally)), "{stdout}\n{tally}");
    assert!(stdout.contains("Piece worth ("), "{stdout}");
    // The picture: one point per start and one bar per piece kind measured.
    let picture = std::fs::read_to_string(&svg).expect("svg");
    assert!(picture.starts_with("<svg"), "{}", &picture[..80.min(picture.len())]);
    assert_eq!(picture.matches("<circle").count(), 3);
    assert!(picture.contains("chess9: first mover&apos;s score by start position (6 games"));
    let measured = r
        .get("piece_worth")
        .and_then(|w| w.get("pieces"))
        .and_then(Json::as_array)
        .expect("pieces")
        .iter()
        .filter(|p| number(p, &["samples"]) > 0.0)
        .count();
    assert!(measured >= 4, "{r}");
    // A rerun plays nothing and reports the same.
    let (code, again, _) = study(&out, &[]);
    assert_eq!(code, 0);
    assert_eq!(again, stdout);
    assert_eq!(games(&out).len(), 6);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stopped_study_resumes_without_losing_or_doubling_games() {
    let dir = folder("resume");
    let (whole, parts) = (dir.join("whole.jsonl"), dir.join("parts.jsonl"));
    assert_eq!(study(&whole, &[]).0, 0);
    // Stopped after three games, the third torn in the middle of its line.
    assert_eq!(study(&parts, &["--games", "3"]).0, 0);
    assert_eq!(games(&parts).len(), 3);
    let bytes = std::fs::read(&parts).expect("file");
    std::fs::write(&parts, &bytes[..bytes.len() - 40]).expect("tear");
    // Go on to five, then to all six.
    let (code, _, stderr) = study(&parts, &["--games", "5"]);
    assert_eq!(code, 0, "{stderr}");
    let numbers: Vec<f64> = games(&parts).iter().map(|g| number(g, &["game"])).collect();
    assert_eq!(numbers, [0.0, 1.0, 2.0, 3.0, 4.0], "game 2 was torn, cut off and played again");
    let (code, out, _) = study(&parts, &[]);
    assert_eq!(code, 0);
    assert!(out.starts_with("Balance of chess9: 6 games\n"), "{out}");
    // The same games as a run never stopped.
    let sorted = |p: &Path| {
        let mut lines: Vec<String> = games(p).iter().map(Json::to_string).collect();
        lines.sort();
        lines
    };
    assert_eq!(sorted(&parts), sorted(&whole));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_of_another_study_is_refused() {
    let dir = folder("other");
    let out = dir.join("g.jsonl");
    assert_eq!(study(&out, &["--games", "1"]).0, 0);
    let (code, stdout, stderr) = study(&out, &["--games", "2", "--seed", "2"]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty());
    assert!(stderr.contains("belongs to another study"), "{stderr}");
    let (code, _, stderr) = study(&out, &["--pregame"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("without the pre-game"), "{stderr}");
    std::fs::write(&out, "not a game\n").expect("write");
    let (code, _, stderr) = study(&out, &[]);
    assert_ne!(code, 0);
    assert!(stderr.contains(":1: not a game"), "{stderr}");
    let (code, _, stderr) = menagerie(&["balance", "--variant", "rvc", "--pregame", "--out", &text(&out)]);
    assert_ne!(code, 0);
    assert!(stderr.contains("no pre-game decision"), "{stderr}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The diagrams of `pieces`: piece by piece, its heading line and its move count.
fn pieces(variant: &str) -> Vec<(String, usize, String)> {
    let (code, out, stderr) = menagerie(&["pieces", "--variant", variant, "--sample-games", "1", "--nodes", "100"]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<&str> = out.lines().collect();
    let mut found = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if l.contains("  Betza ") {
            let count = lines[i + 1].split(": ").nth(1).and_then(|t| t.split(' ').next()).expect("count");
            let worth = lines[i..].iter().find(|w| w.starts_with("worth: ")).expect("worth line");
            found.push((l.to_string(), count.parse().expect("a number"), worth.to_string()));
        }
    }
    found
}

#[test]
fn pieces_draws_every_kind_with_its_moves() {
    let chess = pieces("chess");
    assert_eq!(chess.len(), 6, "{chess:?}");
    let count = |letter: &str| chess.iter().find(|p| p.0.starts_with(letter)).expect("piece").1;
    assert_eq!(count("N knight"), 8);
    assert_eq!(count("R rook"), 14);
    assert_eq!(count("Q queen"), 27);
    assert!(chess.iter().any(|p| p.0.starts_with("K king (royal)") && p.2.contains("royal")));
    let pawn = chess.iter().find(|p| p.0.starts_with("P pawn")).expect("pawn");
    assert!(pawn.2.starts_with("worth: measured 100 ("), "{pawn:?}");
    // Every kind of Random Variant Chess gets a diagram, the hoppers with a word on their hops.
    let rvc = pieces("rvc");
    let v = menagerie::variant::by_name("rvc").expect("rvc");
    assert_eq!(rvc.len(), v.pieces.len());
    for def in &v.pieces {
        assert!(rvc.iter().any(|p| p.0.starts_with(&format!("{} {}", def.letter, def.name))), "{}", def.name);
    }
    let (_, out, _) = menagerie(&["pieces", "--variant", "rvc", "--sample-games", "0"]);
    assert!(out.contains("those moves need one and are not drawn"));
    assert!(out.contains("    a b c d e f g h i j k l\n"));
}

#[test]
fn a_pregame_study_resumes_over_a_start_with_no_decision_left() {
    // Chess-9 start 3 has both relocations made: its games have no pre-game steps, and are
    // still games of a study with the pre-game.
    let dir = folder("pregame");
    let out = dir.join("g.jsonl");
    let run = |games: &str| {
        menagerie(&[
            "balance",
            "--variant",
            "chess9",
            "--nodes",
            "100",
            "--starts",
            "2..3",
            "--pregame",
            "--threads",
            "1",
            "--worth-positions",
            "10",
            "--games",
            games,
            "--out",
            &text(&out),
        ])
    };
    let (code, _, stderr) = run("2");
    assert_eq!(code, 0, "{stderr}");
    let lines = games(&out);
    let steps = |g: &Json| g.get("pregame").and_then(Json::as_array).map_or(0, <[Json]>::len);
    assert!(steps(&lines[0]) > 0, "start 2 has a relocation to make: {}", lines[0]);
    assert_eq!(steps(&lines[1]), 0, "{}", lines[1]);
    let (code, out_text, stderr) = run("4");
    assert_eq!(code, 0, "{stderr}");
    assert!(out_text.starts_with("Balance of chess9: 4 games\n"), "{out_text}");
    let _ = std::fs::remove_dir_all(&dir);
}
