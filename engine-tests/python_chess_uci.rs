//! python-chess (`chess.engine`, from PyPI) drives the real binary over UCI:
//! `scripts/python-chess-uci.py` plays a D-Chess game from a Black-to-move FEN and a Chess-9
//! game under Chess960, analyses with MultiPV 3 and ponders, checking every move with
//! python-chess. The test fails when python3 or the `chess` module is missing
//! (`scripts/install-test-deps.sh` installs it).

use std::path::Path;
use std::process::Command;

#[test]
fn python_chess_drives_the_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let probe = Command::new("python3").args(["-c", "import chess.engine; print(chess.__version__)"]).output();
    match probe {
        Err(e) => panic!("python3 is needed for this test ({e}); see scripts/install-test-deps.sh"),
        Ok(out) if !out.status.success() => panic!(
            "the python-chess module is missing: run scripts/install-test-deps.sh\n{}",
            String::from_utf8_lossy(&out.stderr)
        ),
        Ok(_) => {}
    }
    let out = Command::new("python3")
        .arg(root.join("scripts/python-chess-uci.py"))
        .arg(env!("CARGO_BIN_EXE_menagerie"))
        .output()
        .expect("run python3");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "python-chess check failed ({})\n{stdout}\n{stderr}", out.status);
    assert!(stdout.contains("all python-chess checks passed"), "{stdout}\n{stderr}");
}
