//! The game file of a balance study: one game a line (JSON), appended as games finish, so that
//! a stopped run loses at most the games under way. Reading it back drops a torn last line (a
//! killed run's), cutting it off the file before anything is appended.
//!
//! Owns: `read_games`, `GameWriter`.
//! Must not know: how games are played or scored.

use super::games::GameLine;
use super::BalanceError;
use crate::json;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The games of a file (none if it does not exist), in file order. A last line without its
/// newline is dropped, and with `repair` also cut off the file; any other line that is not a
/// game is an error.
pub fn read_games(path: &Path, repair: bool) -> Result<Vec<GameLine>, BalanceError> {
    let io = |e| BalanceError::Io(path.to_path_buf(), e);
    let text = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(e)),
    };
    let whole = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        log::warn!("{}: dropping a torn last line of {} bytes", path.display(), text.len() - whole);
        if repair {
            OpenOptions::new().write(true).open(path).and_then(|f| f.set_len(whole as u64)).map_err(io)?;
        }
    }
    let body = String::from_utf8_lossy(&text[..whole]);
    let mut games = Vec::new();
    for (n, line) in body.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let game = json::parse(line).ok().as_ref().and_then(GameLine::from_json);
        games.push(game.ok_or_else(|| BalanceError::BadLine { path: path.to_path_buf(), line: n + 1 })?);
    }
    Ok(games)
}

/// Appends games to a file, each as one write of a whole line.
pub struct GameWriter {
    file: File,
    path: PathBuf,
}

impl GameWriter {
    pub fn append(path: &Path) -> Result<GameWriter, BalanceError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| BalanceError::Io(path.to_path_buf(), e))?;
        Ok(GameWriter { file, path: path.to_path_buf() })
    }

    pub fn write(&mut self, game: &GameLine) -> Result<(), BalanceError> {
        let line = format!("{}\n", game.to_json());
        self.file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| BalanceError::Io(self.path.clone(), e))
    }
}
