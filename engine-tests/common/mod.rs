//! Shared by the integration tests: the perft suites (read by the rules crate's reader),
//! reading an engine process's output lines until an expected one, and the hang guard.
//!
//! No test asserts how fast the engine is: a loaded machine makes any such bound fail with
//! nothing wrong. Tests bound work by depth or nodes and check the order and completeness of
//! the output; latency is measured by `scripts/protocol-latency.py` (see `docs/latency.md`).

// Each test crate uses part of this module.
#![allow(dead_code, unused_imports)]

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

// The perft suites' reader belongs to the rules crate's tests; the search tests walk the same
// positions.
#[path = "../../rules/tests/suites/mod.rs"]
mod suites;
pub use suites::*;

/// The engine binary run once with these arguments: its exit code (-1 if killed), stdout and
/// stderr.
pub fn menagerie(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_menagerie")).args(args).output().expect("run menagerie");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The engine binary started with no arguments (stderr dropped): the process, its stdin, and its
/// stdout lines as a reader thread passes them on.
pub fn spawn_engine() -> (Child, ChildStdin, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_menagerie"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start menagerie");
    let stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, stdin, lines)
}

/// The rule sets a user can pick (the `Ruleset` option after `auto`), as both protocols offer
/// them: written out here, not taken from the engine, since a change is a change users see.
pub const RULESETS: [&str; 15] = [
    "chess",
    "chess960",
    "dchess",
    "chess9",
    "chess9+strict-castling",
    "displacement",
    "vdchess",
    "capablanca",
    "caparandom",
    "rvc",
    "rvcstar",
    "rvc+promotion-a",
    "rvc+promotion-b",
    "rvcstar+promotion-a",
    "rvcstar+promotion-b",
];

/// How long a test waits for something the engine owes (a line, a best move, a finished match)
/// before it declares the engine hung. A liveness check only, never a performance bound: it is
/// far beyond anything a working engine needs on a loaded machine, and it exists so that a hung
/// engine fails the test instead of blocking the suite forever.
pub const HANG_GUARD: Duration = Duration::from_secs(120);

/// Read lines until one satisfies `want`; returns every line read, that one last. Panics with
/// the lines so far when none comes within the hang guard (the engine hung).
pub fn read_until(lines: &Receiver<String>, want: impl Fn(&str) -> bool) -> Vec<String> {
    let deadline = Instant::now() + HANG_GUARD;
    let mut seen = Vec::new();
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) => {
                let done = want(&line);
                seen.push(line);
                if done {
                    return seen;
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                panic!("hang guard: no expected line in {HANG_GUARD:?}, the engine hung; lines so far: {seen:#?}")
            }
            Err(RecvTimeoutError::Disconnected) => panic!("the engine closed its output; lines so far: {seen:#?}"),
        }
    }
}

/// The machine's memory in megabytes, from /proc/meminfo (None where it cannot be read).
pub fn total_memory_mb() -> Option<u64> {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|m| m.lines().find_map(|l| l.strip_prefix("MemTotal:").map(str::to_string)))
        .and_then(|l| l.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map(|kb| kb / 1024)
}
