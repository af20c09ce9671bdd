//! Fairy-Stockfish variant files (`src/fsf_ini/`): a file of sections copied from
//! Fairy-Stockfish's own variants.ini (and examples of ours) loads the sections Menagerie plays
//! exactly, refuses the others with key, line and reason, and every accepted section's perft
//! equals Fairy-Stockfish's (`data/fsf-variants.perft`, from scripts/fsf-ini-perft.py). Also:
//! a section with an unsupported key is refused alone, and a malformed file changes nothing.
//! Its own process: these tests change the registry of known variants.

#[path = "suites/mod.rs"]
mod suites;

use menagerie_rules::any::AnyPosition;
use menagerie_rules::fsf_ini;
use menagerie_rules::variant;
use menagerie_rules::variant_file::{load, load_fairy_stockfish_text};
use std::path::Path;

fn data(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data").join(name)
}

/// Menagerie's perft of every entry of a suite equals the recorded count (within the budget);
/// returns the number of counts checked.
fn check_suite(name: &str) -> usize {
    let budget: u64 = std::env::var("MENAGERIE_PERFT_MAX_NODES").ok().and_then(|s| s.parse().ok()).unwrap_or(3_000_000);
    let mut failures = Vec::new();
    let mut checked = 0;
    for e in &suites::read_suite(&data(name)) {
        let v = variant::by_name(&e.variant).unwrap_or_else(|err| panic!("{}: {err}", e.id));
        let pos = AnyPosition::from_fen(v, &e.epd).unwrap_or_else(|err| panic!("{}: {err}", e.id));
        for &(depth, expected) in e.counts.iter().filter(|(_, n)| budget == 0 || *n <= budget) {
            checked += 1;
            let got = pos.perft(depth);
            if got != expected {
                failures.push(format!("{} depth {depth}: Fairy-Stockfish {expected}, Menagerie {got}", e.id));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    checked
}

#[test]
fn fairy_stockfish_sections_load_and_match_its_perft() {
    let loaded = load(&data("fsf-variants.ini")).unwrap_or_else(|e| panic!("{e}"));
    let refused: Vec<(&str, usize, Option<&str>)> =
        loaded.refused.iter().map(|r| (r.variant.as_str(), r.line, r.key.as_deref())).collect();
    assert_eq!(
        refused,
        [
            ("semitorpedo", 93, Some("doubleStepRegionWhite")),
            ("kamikazerooks", 97, Some("extinctionValue")),
            ("crossderby", 106, Some("stalemateValue")),
            ("gothhouse", 111, Some("capturesToHand")),
            ("wildebeest", 127, Some("mandatoryPawnPromotion")),
        ],
        "{:#?}",
        loaded.refused
    );
    assert_eq!(loaded.variants.len(), 24);
    // Every accepted section has its start position and one played position in the suite.
    assert_eq!(suites::read_suite(&data("fsf-variants.perft")).len(), 2 * loaded.variants.len());
    let checked = check_suite("fsf-variants.perft");
    assert!(checked >= 150, "only {checked} counts checked");
}

/// The file that expresses Menagerie's own variants for Fairy-Stockfish (a copy of
/// /work/shared/oracle-configs/fairy-stockfish-variants.ini): the sections named like Menagerie's
/// built-in variants are refused, their children (the 45 Random Variant Chess arrays, the six
/// VD Chess sets, the three Displacement castlings) load and count as Fairy-Stockfish does.
#[test]
fn the_oracle_file_of_our_own_variants_loads_and_matches_its_perft() {
    let loaded = load(&data("fsf-oracle-variants.ini")).unwrap_or_else(|e| panic!("{e}"));
    let refused: Vec<&str> = loaded.refused.iter().map(|r| r.variant.as_str()).collect();
    assert_eq!(refused, ["dchess", "chess9", "vdchess", "rvc"], "{:#?}", loaded.refused);
    assert!(loaded.refused.iter().all(|r| r.reason.contains("built-in variant of Menagerie")));
    let entries = suites::read_suite(&data("fsf-oracle-variants.perft"));
    assert_eq!(entries.len(), 2 * loaded.variants.len());
    assert!(check_suite("fsf-oracle-variants.perft") >= 200);
}

#[test]
fn an_unsupported_key_refuses_its_section_only() {
    let text = "\
# a Fairy-Stockfish file
[unit-fsf-ok:chess]
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1

[unit-fsf-flag:chess]
flagRegionWhite = *8
flagPiece = k

[unit-fsf-unknown:chess]
speed = fast

[unit-fsf-child:unit-fsf-flag]
doubleStep = false

[unit-fsf-betza:chess]
customPiece1 = n:nN
";
    assert!(fsf_ini::is_fairy_stockfish(text));
    let loaded = load_fairy_stockfish_text(text).unwrap();
    let names: Vec<&str> = loaded.variants.iter().map(|v| v.name.as_str()).collect();
    assert_eq!(names, ["unit-fsf-ok"]);
    let said: Vec<String> = loaded.refused.iter().map(ToString::to_string).collect();
    assert_eq!(
        said,
        [
            "variant 'unit-fsf-flag' refused: line 6: flagRegionWhite: '*8': flag (race) wins are not supported",
            "variant 'unit-fsf-unknown' refused: line 10: speed: unknown key",
            "variant 'unit-fsf-child' refused: line 12: its parent 'unit-fsf-flag' was refused",
            "variant 'unit-fsf-betza' refused: line 16: customPiece1: 'nN': lame leapers (n) are not supported",
        ]
    );
    for name in ["unit-fsf-flag", "unit-fsf-unknown", "unit-fsf-child", "unit-fsf-betza"] {
        assert!(variant::by_name(name).is_err(), "{name}");
    }
    // A section may not take the name of a variant built into Fairy-Stockfish or Menagerie.
    let loaded = load_fairy_stockfish_text("[gothic:capablanca]\nmaxRank = 8\n[chess9:chess]\nmaxRank = 8\n").unwrap();
    assert!(loaded.variants.is_empty());
    assert!(loaded.refused[0].reason.contains("built-in variant of Fairy-Stockfish"), "{:?}", loaded.refused);
    assert!(loaded.refused[1].reason.contains("built-in"), "{:?}", loaded.refused);
}

#[test]
fn a_malformed_file_changes_nothing() {
    let text = "[unit-fsf-m1:chess]\nstartFen = 8/8/8/8/8/8/8/K6k w - - 0 1\nthis line is garbage\n";
    let e = load_fairy_stockfish_text(text).unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(variant::by_name("unit-fsf-m1").is_err());
    assert!(load_fairy_stockfish_text("maxRank = 8\n").is_err());
    let dir = std::env::temp_dir().join(format!("menagerie-fsf-ini-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let garbage = dir.join("garbage.ini");
    std::fs::write(&garbage, "pieceToCharTable = x\n\u{1}\u{2}garbage\n").unwrap();
    assert!(load(&garbage).is_err());
    let binary = dir.join("binary.ini");
    std::fs::write(&binary, [0xff, 0xfe, b'[']).unwrap();
    assert!(load(&binary).is_err());
    let _ = std::fs::remove_dir_all(&dir);
    // The tests of this process load files at the same time: look for this file's names only.
    assert!(variant::by_name("unit-fsf-m1").is_err());
}

#[test]
fn the_formats_are_told_apart_by_their_keys() {
    assert!(fsf_ini::is_fairy_stockfish("[a:chess]\nstartFen = 8/8/8/8/8/8/8/8 w - - 0 1\n"));
    assert!(fsf_ini::is_fairy_stockfish("[a]\nknight = n\n"));
    assert!(fsf_ini::is_fairy_stockfish("[a:chess]\ncustomPiece1 = z:NN\n"));
    assert!(!fsf_ini::is_fairy_stockfish("[a:chess]\npiece = N nightrider NN\n"));
    assert!(!fsf_ini::is_fairy_stockfish("[a:chess]\ncastling = none\n"));
    assert!(!fsf_ini::is_fairy_stockfish("# maxRank = 10\n[a:chess]\nstart = fen 8/8/8/8/8/8/8/8 w - - 0 1\n"));
    let ours = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/variant/builtin.vars")).unwrap();
    assert!(!fsf_ini::is_fairy_stockfish(&ours));
}

#[test]
fn a_section_is_written_as_menagerie_reads_it() {
    let out = fsf_ini::translate("[unit-capa:capablanca]\npieceToCharTable = -\ndoubleStep = false\n").unwrap();
    let section = out[0].as_ref().unwrap();
    assert!(section.text.contains("board = 10x8\n"), "{}", section.text);
    assert!(section.text.contains("castling = fixed c d i h\n"), "{}", section.text);
    assert!(section.text.contains("double-step = none\n"), "{}", section.text);
    assert!(section.text.contains("piece = A archbishop BN\n"), "{}", section.text);
}
