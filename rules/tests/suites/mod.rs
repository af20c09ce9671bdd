//! Reading the perft suites of the workspace's `perft-suites/`: blank-line separated records of
//! `id`, `variant`, `epd` and `perft DEPTH NODES` lines, `#` comments. Shared by the rules
//! crate's tests and (by path) the engine's search tests.

// Each test crate uses part of this module.
#![allow(dead_code)]

use std::path::Path;

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
    // The suites sit at the workspace's root, beside the crate that includes this file (the
    // rules crate's tests, or the root package's).
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = [manifest.join("perft-suites"), manifest.join("../perft-suites")]
        .into_iter()
        .find(|d| d.is_dir())
        .unwrap_or_else(|| panic!("no perft-suites beside {}", manifest.display()));
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == extension))
        .collect();
    files.sort();
    files
}
