//! Shared by the integration tests: reading the perft suites of `perft-suites/` (blank-line
//! separated records of `id`, `variant`, `epd` and `perft DEPTH NODES` lines; `#` comments),
//! reading an engine process's output lines until an expected one, and the hang guard.
//!
//! No test asserts how fast the engine is: a loaded machine makes any such bound fail with
//! nothing wrong. Tests bound work by depth or nodes and check the order and completeness of
//! the output; latency is measured by `scripts/protocol-latency.py` (see `docs/latency.md`).

// Each test crate uses part of this module.
#![allow(dead_code)]

use std::path::Path;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// One suite entry.
pub struct Entry {
    pub id: String,
    pub variant: String,
    pub epd: String,
    /// (depth, expected leaf count).
    pub counts: Vec<(u32, u64)>,
    /// Where the entry starts, for messages.
    pub file: String,
}

/// Every entry of one suite file.
pub fn read_suite(path: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut entries: Vec<Entry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        let here = || format!("{}:{}", path.display(), i + 1);
        match key {
            "id" => entries.push(Entry {
                id: value.to_string(),
                variant: String::new(),
                epd: String::new(),
                counts: Vec::new(),
                file: here(),
            }),
            "variant" => {
                entries.last_mut().unwrap_or_else(|| panic!("{}: variant before id", here())).variant =
                    value.to_string()
            }
            "epd" => entries.last_mut().unwrap_or_else(|| panic!("{}: epd before id", here())).epd = value.to_string(),
            "perft" => {
                let (d, n) = value.split_once(' ').unwrap_or_else(|| panic!("{}: bad perft line", here()));
                let d: u32 = d.parse().unwrap_or_else(|_| panic!("{}: bad depth", here()));
                let n: u64 = n.trim().parse().unwrap_or_else(|_| panic!("{}: bad count", here()));
                entries.last_mut().unwrap_or_else(|| panic!("{}: perft before id", here())).counts.push((d, n));
            }
            _ => panic!("{}: unknown key '{key}'", here()),
        }
    }
    entries
}

/// The suite files of `perft-suites/`, sorted.
pub fn suite_files() -> Vec<std::path::PathBuf> {
    files_in_suites("perft")
}

/// The test variant files beside the perft suites (`perft-suites/*.vars`): variants of the
/// suites that are not built in.
pub fn suite_variant_files() -> Vec<std::path::PathBuf> {
    files_in_suites("vars")
}

fn files_in_suites(extension: &str) -> Vec<std::path::PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("perft-suites");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == extension))
        .collect();
    files.sort();
    files
}

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
