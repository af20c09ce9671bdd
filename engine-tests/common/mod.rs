//! Shared by the integration tests: the perft suites (read by the rules crate's reader), and
//! reading an engine process's output lines until an expected one.

// Each test crate uses part of this module.
#![allow(dead_code, unused_imports)]

use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

// The perft suites' reader belongs to the rules crate's tests; the search tests walk the same
// positions.
#[path = "../../rules/tests/suites/mod.rs"]
mod suites;
pub use suites::*;

/// Read lines until one satisfies `want`; returns every line read, that one last. Panics with
/// the lines so far when none comes within `timeout_ms`.
pub fn read_until(lines: &Receiver<String>, want: impl Fn(&str) -> bool, timeout_ms: u64) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_millis(timeout_ms);
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
            Err(_) => panic!("timed out; lines so far: {seen:#?}"),
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
