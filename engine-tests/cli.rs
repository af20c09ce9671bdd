//! Tests of the `menagerie` executable as a user runs it: output formats, start positions,
//! pre-game setup options, and bad input (non-zero exit, one line on stderr, nothing on stdout).

mod common;

use common::menagerie;
use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn perft_divide_prints_one_line_per_move_and_the_total() {
    let (code, out, _) = menagerie(&["perft", "--variant", "chess", "--depth", "2", "--divide"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 21);
    assert!(lines.contains(&"e2e4: 20"));
    assert_eq!(lines[20], "Nodes searched: 400");
    let (_, out, _) = menagerie(&["perft", "--variant", "chess", "--depth", "3"]);
    assert_eq!(out.trim(), "Nodes searched: 8902");
}

#[test]
fn perft_writes_castling_and_drops_in_each_notation() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R[Cc] w KQkq - 0 1";
    let (_, out, _) = menagerie(&["perft", "--variant", "vdchess", "--fen", fen, "--depth", "1", "--divide"]);
    assert!(out.contains("e1g1: 1") && out.contains("e1c1: 1") && out.contains("C@d4: 1"), "{out}");
    let (_, out, _) =
        menagerie(&["perft", "--variant", "vdchess", "--fen", fen, "--depth", "1", "--divide", "--chess960"]);
    assert!(out.contains("e1h1: 1") && out.contains("e1a1: 1"), "{out}");
    // Displacement: the 1-step castling is king-takes-rook, the others the king's destination.
    let fen = "r2k3r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let (_, out, _) = menagerie(&["perft", "--variant", "displacement", "--fen", fen, "--depth", "1", "--divide"]);
    for m in ["e1h1", "e1g1", "e1a1", "e1c1", "e1b1"] {
        assert!(out.contains(&format!("{m}: 1")), "{m} missing in {out}");
    }
}

#[test]
fn startpos_agrees_with_the_reference_table() {
    let table = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/perft-suites/startpos.tsv")).unwrap();
    let mut checked = 0;
    for line in table.lines().filter(|l| !l.starts_with('#')) {
        let cols: Vec<&str> = line.split('\t').collect();
        let [variant, index, fen] = cols[..] else { continue };
        if variant == "rvc" {
            continue;
        }
        let (code, out, err) = menagerie(&["startpos", "--variant", variant, "--index", index]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.trim(), fen, "{variant} {index}");
        checked += 1;
    }
    assert!(checked >= 30);
}

#[test]
fn startpos_setup_operations() {
    let (_, out, _) = menagerie(&["startpos", "--variant", "dchess", "--index", "1491840", "--swap", "a1b1"]);
    assert_eq!(out.trim(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBNR w - - 0 1");
    let (_, out, _) = menagerie(&["startpos", "--variant", "dchess", "--index", "1491840", "--swap", "c1e1"]);
    assert_eq!(out.trim(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w - - 0 1");
    let (_, out, _) = menagerie(&["startpos", "--variant", "dchess", "--index", "1491840", "--list"]);
    assert_eq!(out.lines().count(), 19);
    let (_, out, _) =
        menagerie(&["startpos", "--variant", "chess9", "--relocate", "black:queen", "--relocate", "white:king"]);
    assert_eq!(out.trim(), "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w KQkq - 0 1");
    let (_, a, _) = menagerie(&["startpos", "--variant", "dchess", "--random", "--seed", "7"]);
    let (_, b, _) = menagerie(&["startpos", "--variant", "dchess", "--random", "--seed", "7"]);
    assert_eq!(a, b);
    assert_eq!(a.split('/').count(), 8);
}

#[test]
fn bad_input_fails_cleanly() {
    let cases: &[&[&str]] = &[
        &["perft", "--variant", "nosuch", "--depth", "1"],
        &["perft", "--variant", "chess", "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1", "--depth", "1"],
        &[
            "perft",
            "--variant",
            "chess",
            "--fen",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
            "--depth",
            "1",
        ],
        &["perft", "--variant", "chess", "--depth", "99"],
        &["perft", "--variant", "dchess", "--index", "8294400", "--depth", "1"],
        &["startpos", "--variant", "chess9", "--index", "9"],
        &["startpos", "--variant", "dchess", "--index", "0", "--swap", "a1b1"],
        &["startpos", "--variant", "dchess", "--index", "0", "--swap", "zz"],
        &["startpos", "--variant", "chess9", "--relocate", "white:rook"],
        &["perft", "--variant", "chess"],
        &["frobnicate"],
        // Random Variant Chess: a letter rvc does not define, a row of the wrong width, an index
        // out of range for the chosen form, an unknown form.
        &[
            "perft",
            "--variant",
            "rvc",
            "--fen",
            "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGK w - - 0 1",
            "--depth",
            "1",
        ],
        &[
            "perft",
            "--variant",
            "rvc",
            "--fen",
            "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCG w - - 0 1",
            "--depth",
            "1",
        ],
        &[
            "perft",
            "--variant",
            "rvc",
            "--fen",
            "rgcnbqkbncgr/ppppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR w - - 0 1",
            "--depth",
            "1",
        ],
        &[
            "perft",
            "--variant",
            "rvc",
            "--fen",
            "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGRP w - - 0 1",
            "--depth",
            "1",
        ],
        &[
            "perft",
            "--variant",
            "rvc",
            "--fen",
            "rgcnbqkbnckr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR w - - 0 1",
            "--depth",
            "1",
        ],
        &[
            "perft",
            "--variant",
            "rvc",
            "--fen",
            "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR w - - 0 1 extra",
            "--depth",
            "1",
        ],
        &["startpos", "--variant", "rvc", "--index", "45"],
        &["startpos", "--variant", "rvc", "--form", "restricted", "--index", "675"],
        &["startpos", "--variant", "rvc", "--form", "general", "--index", "16200"],
        &["startpos", "--variant", "rvc", "--form", "systematic", "--index", "2025"],
        &["startpos", "--variant", "rvc", "--form", "sideways", "--index", "0"],
        &["startpos", "--variant", "chess9", "--form", "general", "--index", "0"],
        &["startpos", "--variant", "dchess", "--random", "--short-list"],
    ];
    for args in cases {
        let (code, out, err) = menagerie(args);
        assert_ne!(code, 0, "{args:?} succeeded");
        assert!(out.is_empty(), "{args:?} printed {out}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn datagen_refuses_a_network_file_that_does_not_fit_and_writes_nothing() {
    let net = concat!(env!("CARGO_MANIFEST_DIR"), "/nets/menagerie-12x8-gen12.nnue");
    let out = std::env::temp_dir().join(format!("menagerie-cli-datagen-{}.bin", std::process::id()));
    let out_arg = out.to_str().expect("path");
    let (code, stdout, err) =
        menagerie(&["datagen", "--variant", "dchess", "--games", "1", "--eval-file", net, "--out", out_arg]);
    assert_ne!(code, 0);
    assert!(stdout.is_empty(), "{stdout}");
    assert_eq!(
        err.trim(),
        "error: the network does not fit dchess: the network reads a 12x8 board, the variant has 8x8"
    );
    assert!(!out.exists(), "a data file was started");
    let (code, _, err) = menagerie(&[
        "datagen",
        "--variant",
        "dchess",
        "--games",
        "1",
        "--eval-file",
        net,
        "--eval",
        "network",
        "--out",
        out_arg,
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("cannot be used with"), "{err}");
}

#[test]
fn random_variant_chess_forms_from_the_command_line() {
    let (code, out, err) = menagerie(&["startpos", "--variant", "rvc", "--form", "restricted", "--index", "585"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.trim(), "rgcjbqkbjcgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCJBQKBJCGR w KQkq - 0 1");
    assert!(err.contains("rvcstar"), "a Star array is announced as rvcstar: {err}");
    let (_, out, _) =
        menagerie(&["perft", "--variant", "rvc", "--form", "restricted", "--index", "585", "--depth", "2"]);
    let (_, star, _) = menagerie(&[
        "perft",
        "--variant",
        "rvcstar",
        "--fen",
        "rgcjbqkbjcgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCJBQKBJCGR w KQkq - 0 1",
        "--depth",
        "2",
    ]);
    assert_eq!(out, star, "perft --form plays a Star array as rvcstar");
    let (_, out, _) = menagerie(&["startpos", "--variant", "rvc", "--random", "--short-list", "--seed", "11"]);
    let fen = out.trim();
    let entry = (0..32).find(|i| {
        let (_, o, _) = menagerie(&["startpos", "--variant", "rvc", "--index", &i.to_string()]);
        o.trim() == fen
    });
    assert!(entry.is_some(), "{fen} is not among the first 32 arrays");
    let (_, out, _) = menagerie(&["variants"]);
    assert!(out.lines().any(|l| l == "rvc") && out.lines().any(|l| l == "rvcstar"));
}

#[test]
fn started_by_hand_it_prints_a_banner_and_waits() {
    let text = interactive_stdout("perft --variant displacement --depth 3\nquit\n");
    let banner = text.lines().next().unwrap_or("");
    assert!(banner.starts_with("Menagerie "), "{banner}");
    for v in ["dchess", "chess9", "displacement", "vdchess"] {
        assert!(banner.contains(v), "{banner}");
    }
    assert!(text.contains("Nodes searched: 8902"), "{text}");
}

/// The interactive front end fed `input` at once (ending in `quit`): its whole stdout.
fn interactive_stdout(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child.stdin.as_mut().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// The same, its lines after the banner.
fn interactive(input: &str) -> Vec<String> {
    interactive_stdout(input).lines().skip(1).map(str::to_string).collect()
}

#[test]
fn any_uci_command_first_starts_uci() {
    // An option and a position before `uci`, as chess-tuning-tools sends them: the option is
    // taken (the start position is Random Variant Chess's 12x8 one), `isready` is answered, and
    // `uci` later still shakes hands.
    let out = interactive("setoption name UCI_Variant value rvc\nposition startpos\nd\nisready\nuci\nquit\n");
    let fen = out.iter().position(|l| l.starts_with("Fen: ")).expect("d answers");
    assert!(out[fen].starts_with("Fen: rgcnbqkbncgr/pppppppppppp/12/"), "{out:?}");
    let ready = out.iter().position(|l| l == "readyok").expect("readyok");
    let uciok = out.iter().position(|l| l == "uciok").expect("uciok");
    assert!(fen < ready && ready < uciok, "{out:?}");
    assert!(!out.iter().any(|l| l.starts_with("error") || l.starts_with("info string error")), "{out:?}");
    for first in ["isready", "ucinewgame", "position startpos", "debug off"] {
        let out = interactive(&format!("{first}\nisready\nquit\n"));
        assert_eq!(out.last().map(String::as_str), Some("readyok"), "{first}: {out:?}");
        assert!(!out.iter().any(|l| l.contains("unknown command")), "{first}: {out:?}");
    }
    // The front end's own commands are still its own.
    let out = interactive("perft --variant chess --depth 2\nquit\n");
    assert!(out.iter().any(|l| l == "Nodes searched: 400"), "{out:?}");
}

#[test]
fn a_cpu_without_the_builds_instructions_is_refused_in_one_line() {
    // The test hook treats SSE2, which every x86-64 build uses, as missing.
    if !cfg!(target_arch = "x86_64") {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .arg("variants")
        .env("MENAGERIE_PRETEND_CPU_LACKS", "sse2")
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    // stdout is a pipe here, as in a GUI: the line goes to both, and nothing else comes.
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    assert!(stdout.starts_with("error: this Menagerie was built for x86-64"), "{stdout}");
    assert!(stdout.contains("lacks sse2") && stdout.contains("make ARCH="), "{stdout}");
    assert_eq!(stderr.trim(), stdout.trim());
    // Without the hook the same binary runs here.
    assert_eq!(menagerie(&["variants"]).0, 0);
}

#[test]
fn bench_ends_with_the_node_count_and_speed() {
    let (code, out, _) = menagerie(&["bench", "3"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert!(n >= 2, "{out}");
    let nodes = lines[n - 2].strip_prefix("Nodes searched: ").expect("node line");
    let speed = lines[n - 1].strip_prefix("Nodes/second: ").expect("speed line");
    assert!(nodes.parse::<u64>().is_ok_and(|v| v > 0) && speed.parse::<u64>().is_ok(), "{out}");
    // The same binary searches the same tree every run.
    let (_, again, _) = menagerie(&["bench", "3"]);
    assert_eq!(again.lines().rev().nth(1), Some(lines[n - 2]));
}

#[test]
fn variants_from_a_file_join_the_built_in_ones_and_a_bad_file_is_refused() {
    let dir = std::env::temp_dir().join(format!("menagerie-cli-variants-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let boards = concat!(env!("CARGO_MANIFEST_DIR"), "/perft-suites/big-boards.vars");
    let (code, out, err) = menagerie(&["--variants", boards, "perft", "--variant", "chess10x10", "--depth", "3"]);
    assert_eq!((code, out.trim()), (0, "Nodes searched: 25520"), "{err}");
    let (_, out, _) = menagerie(&["variants", "--variants", boards]);
    assert!(out.contains("chess12x10"), "{out}");
    // The bench searches the file's variants too.
    let nodes = |out: &str| out.lines().find_map(|l| l.strip_prefix("Nodes searched: ")).map(str::to_string);
    let (_, plain, _) = menagerie(&["bench", "3"]);
    let (code, with_file, err) = menagerie(&["--variants", boards, "bench", "3"]);
    assert_eq!(code, 0, "{err}");
    let (plain, with_file) = (nodes(&plain).unwrap(), nodes(&with_file).unwrap());
    assert!(with_file.parse::<u64>().unwrap() > plain.parse::<u64>().unwrap(), "{with_file} <= {plain}");
    // A match in a variant of the file: the referee and each engine load it.
    let engine = format!("cmd={}", env!("CARGO_BIN_EXE_menagerie"));
    let path = format!("option.VariantPath={boards}");
    let (code, out, err) = menagerie(&[
        "--variants",
        boards,
        "match",
        "--variant",
        "chess10x10",
        "--tc",
        "depth=1",
        "--games",
        "2",
        "--maxmoves",
        "40",
        "--engine",
        "name=a",
        &engine,
        &path,
        "--engine",
        "name=b",
        &engine,
        &path,
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(format!("{out}{err}").contains("[2/2]"), "{out}\n{err}");
    // A built-in variant is replaced only when the file says so.
    let mine = "[chess9:chess]\nstart = fen 4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\n";
    let (code, out, err) = menagerie(&["--variants", &file("no.vars", mine), "startpos", "--variant", "chess9"]);
    assert_eq!(code, 1);
    assert!(out.is_empty() && err.contains("line 1: 'chess9' is a built-in variant"), "{err}");
    let replaced = file("yes.vars", &mine.replace("[chess9:chess]\n", "[chess9:chess]\nreplace = yes\n"));
    let (code, out, err) = menagerie(&["--variants", &replaced, "startpos", "--variant", "chess9"]);
    assert_eq!((code, out.trim()), (0, "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1"), "{err}");
    let (code, _, err) = menagerie(&["--variants", &file("bad.vars", "[x:chess]\nboard = 20x20\n"), "variants"]);
    assert_eq!(code, 1);
    assert!(err.contains("line 2: bad board '20x20'"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_fairy_stockfish_file_loads_with_warnings_for_the_refused_sections() {
    let ini = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/tests/data/fsf-variants.ini");
    let (code, out, err) = menagerie(&["--variants", ini, "perft", "--variant", "haynie", "--depth", "4"]);
    assert_eq!((code, out.trim()), (0, "Nodes searched: 3290"), "{err}");
    let warnings: Vec<&str> = err.lines().filter(|l| l.starts_with("warning: ")).collect();
    assert_eq!(warnings.len(), 5, "{err}");
    assert!(warnings[0].ends_with(
        "variant 'semitorpedo' refused: line 93: doubleStepRegionWhite: double steps from other than one rank, \
         the same for both sides, short of the promotion rank, are not supported"
    ));
    let (code, out, _) = menagerie(&["--variants", ini, "variants"]);
    assert_eq!(code, 0);
    assert!(out.lines().any(|l| l == "indiangreat") && !out.lines().any(|l| l == "wildebeest"), "{out}");
    let bad = concat!(env!("CARGO_MANIFEST_DIR"), "/engine-tests/variant-files/bad-fsf.ini");
    let (code, _, err) = menagerie(&["--variants", bad, "variants"]);
    assert_eq!(code, 1);
    assert!(err.contains("line 5: expected 'key = value'"), "{err}");
}
