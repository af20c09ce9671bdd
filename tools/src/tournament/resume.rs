//! Reading back a match's own PGN file so that an interrupted match can go on (`menagerie match
//! --resume`): the finished games with their rounds, players, start and score, and where the
//! file's last complete game ends (a kill during a write can leave half a game after it).
//!
//! Owns: `FinishedGame`, `PgnLog`, `read_finished_games`, `ResumeError`.
//! Must not know: engines, schedules, the rules core (the runner checks the games against its
//! own pairings).

use super::pgn::result_score;
use std::fmt;

/// One finished game as the PGN file records it.
#[derive(Clone, Debug, PartialEq)]
pub struct FinishedGame {
    pub round: usize,
    pub white: String,
    pub black: String,
    /// The position the moves start from (after any pre-game).
    pub fen: String,
    /// White's points: from the `Result` tag, or the `WhiteScore` tag where a result scores
    /// other than 1, 1/2 or 0 (a stalemate scored 3/5).
    pub white_score: f64,
}

/// What a match's PGN file holds.
#[derive(Clone, Debug, PartialEq)]
pub struct PgnLog {
    pub games: Vec<FinishedGame>,
    /// Bytes up to the end of the last complete game: a partly written game after it is cut
    /// off before new games are appended.
    pub complete_len: usize,
}

/// Why a PGN file cannot be resumed from.
#[derive(Clone, Debug, PartialEq)]
pub struct ResumeError {
    /// 1-based position of the game in the file.
    pub game: usize,
    pub reason: String,
}

impl fmt::Display for ResumeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} of the PGN file: {}", self.game, self.reason)
    }
}

impl std::error::Error for ResumeError {}

/// `[Key "value"]` with `\\` and `\"` escapes.
fn tag_pair(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (key, quoted) = inner.split_once(' ')?;
    let body = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        value.push(if c == '\\' { chars.next()? } else { c });
    }
    Some((key.to_string(), value))
}

/// The game of one whole record (tag pairs, a blank line, the movetext without its final blank
/// line).
fn finished_game(record: &str) -> Result<FinishedGame, String> {
    let (head, movetext) = record.split_once("\n\n").ok_or("no movetext")?;
    let mut tags = Vec::new();
    for line in head.lines() {
        tags.push(tag_pair(line).ok_or_else(|| format!("'{line}' is not a tag pair"))?);
    }
    let tag = |k: &str| tags.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str()).ok_or(format!("no {k} tag"));
    let result = tag("Result")?;
    if movetext.split_whitespace().last() != Some(result) {
        return Err(format!("the moves do not end with the result '{result}'"));
    }
    let round = tag("Round")?;
    let white_score = match tag("WhiteScore") {
        Ok(s) => s.parse::<f64>().ok().filter(|x| (0.0..=1.0).contains(x)),
        Err(_) => result_score(result),
    }
    .ok_or_else(|| format!("no score for the result '{result}'"))?;
    Ok(FinishedGame {
        round: round.parse().map_err(|_| format!("bad Round '{round}'"))?,
        white: tag("White")?.to_string(),
        black: tag("Black")?.to_string(),
        fen: tag("FEN")?.to_string(),
        white_score,
    })
}

/// The finished games of a PGN file written by `menagerie match`, which writes each game whole
/// (tags, a blank line, movetext, a blank line) as it ends. Only the end of the file may hold
/// less than a whole record (the match was killed while writing it); anything else that does
/// not read is an error, so that a foreign or damaged file is never appended to.
pub fn read_finished_games(text: &str) -> Result<PgnLog, ResumeError> {
    let mut games = Vec::new();
    let mut at = 0;
    loop {
        let rest = &text[at..];
        // A record ends at the blank line after its movetext, the second one in it.
        let end = rest.find("\n\n").and_then(|head| rest[head + 2..].find("\n\n").map(|m| head + 2 + m + 2));
        let Some(end) = end else { break };
        let game = finished_game(&rest[..end - 2]).map_err(|reason| ResumeError { game: games.len() + 1, reason })?;
        games.push(game);
        at += end;
    }
    let tail = &text[at..];
    if !tail.is_empty() {
        // What a kill leaves: the start of a record, however short.
        if !(tail.starts_with("[Event ") || "[Event ".starts_with(tail)) {
            return Err(ResumeError { game: games.len() + 1, reason: "not a game written by a match".to_string() });
        }
        log::warn!("the PGN file ends with {} bytes of a game cut short: they are dropped", tail.len());
    }
    Ok(PgnLog { games, complete_len: at })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::pgn::{game_pgn, PgnHeader};
    use crate::tournament::referee::{GameRecord, PlayedMove};

    fn record(round: usize, white: &str, result: &str, white_score: f64) -> GameRecord {
        let mv = |san: &str| PlayedMove { san: san.into(), uci: String::new(), score: None, depth: Some(1), ms: 5 };
        GameRecord {
            round,
            white: white.into(),
            black: "b \"q\"".into(),
            white_index: 0,
            black_index: 1,
            variant: "chess".into(),
            fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            pregame: None,
            moves: vec![mv("e4"), mv("e5")],
            result: result.into(),
            white_score,
            termination: "adjudication".into(),
            reason: "both agree {1-0}".into(),
            time_control: "1+0.01".into(),
        }
    }

    fn file(records: &[GameRecord]) -> String {
        let h = PgnHeader { event: "E".into(), site: "S".into(), date: "2026.12.07".into() };
        records.iter().map(|r| game_pgn(&h, r)).collect()
    }

    #[test]
    fn every_finished_game_is_read_back_with_its_score() {
        let text = file(&[record(3, "a", "1-0", 1.0), record(1, "a\\", "1/2-1/2", 0.6), record(2, "a", "0-1", 0.0)]);
        let log = read_finished_games(&text).expect("reads");
        assert_eq!(log.complete_len, text.len());
        let seen: Vec<(usize, &str, &str, f64)> =
            log.games.iter().map(|g| (g.round, g.white.as_str(), g.black.as_str(), g.white_score)).collect();
        assert_eq!(seen, vec![(3, "a", "b \"q\"", 1.0), (1, "a\\", "b \"q\"", 0.6), (2, "a", "b \"q\"", 0.0)]);
        assert_eq!(log.games[0].fen, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
        assert_eq!(read_finished_games("").expect("empty"), PgnLog { games: vec![], complete_len: 0 });
    }

    #[test]
    fn a_game_cut_short_at_any_byte_is_dropped_and_the_ones_before_it_kept() {
        let two = file(&[record(1, "a", "1-0", 1.0), record(2, "b", "0-1", 0.0)]);
        let first_len = file(&[record(1, "a", "1-0", 1.0)]).len();
        for cut in first_len..two.len() {
            let log = read_finished_games(&two[..cut]).unwrap_or_else(|e| panic!("cut at {cut}: {e}"));
            assert_eq!(log.games.len(), 1, "cut at {cut}");
            assert_eq!(log.complete_len, first_len, "cut at {cut}");
        }
        assert_eq!(read_finished_games(&two).expect("whole").games.len(), 2);
    }

    #[test]
    fn damage_before_the_last_game_and_foreign_files_are_refused() {
        let one = file(&[record(1, "a", "1-0", 1.0)]);
        let damaged = format!("{}{}", &one[..one.len() - 8], file(&[record(2, "b", "0-1", 0.0)]));
        let e = read_finished_games(&damaged).expect_err("damaged");
        assert_eq!(e.game, 1, "{e}");
        assert!(read_finished_games("1. e4 e5 *\n").is_err());
        let unfinished = one.replace("1-0\"]", "*\"]").replace(" 1-0\n", " *\n");
        let e = read_finished_games(&format!("{unfinished}{one}")).expect_err("a '*' result");
        assert!(e.reason.contains("no score"), "{e}");
    }
}
