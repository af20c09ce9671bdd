//! PGN text of a finished game: the seven-tag roster plus `Variant`, `FEN`, `SetUp`,
//! `Termination`, `TimeControl` (and `Pregame` when there was one, `WhiteScore` when the result
//! scores other than 1, 1/2 or 0), SAN moves with
//! `{+0.35/12 0.8s}` comments, lines of at most 79 characters.
//!
//! Owns: `game_pgn`, `PgnHeader`, `result_score`.
//! Must not know: engines, clocks, the rules core (the referee already wrote SAN).

use super::referee::GameRecord;

/// The match-wide tags.
#[derive(Clone, Debug)]
pub struct PgnHeader {
    pub event: String,
    pub site: String,
    /// `YYYY.MM.DD`.
    pub date: String,
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Comments may not contain `}`.
fn comment(s: &str) -> String {
    s.replace('}', ")").replace('{', "(")
}

/// Today's date in PGN form (UTC).
pub fn today() -> String {
    let days =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() / 86_400).unwrap_or(0)
            as i64;
    // Civil-from-days (H. Hinnant).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}.{m:02}.{d:02}")
}

/// White's points for a `Result` tag (`None` for `*` or anything else).
pub fn result_score(result: &str) -> Option<f64> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The PGN of one game, ending with a blank line.
pub fn game_pgn(h: &PgnHeader, g: &GameRecord) -> String {
    let mut out = String::new();
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    tag("Event", &h.event);
    tag("Site", &h.site);
    tag("Date", &h.date);
    tag("Round", &g.round.to_string());
    tag("White", &g.white);
    tag("Black", &g.black);
    tag("Result", &g.result);
    tag("Variant", &g.variant);
    tag("FEN", &g.fen);
    tag("SetUp", "1");
    tag("Termination", &g.termination);
    tag("TimeControl", &g.time_control);
    if let Some(p) = &g.pregame {
        tag("Pregame", p);
    }
    // A result the Result tag cannot say (a stalemate scored 3/5), for whoever reads the file
    // back (`menagerie match --resume`).
    if result_score(&g.result) != Some(g.white_score) {
        tag("WhiteScore", &g.white_score.to_string());
    }
    out.push('\n');
    let mut tokens = Vec::new();
    let (black_first, mut number) = {
        let f: Vec<&str> = g.fen.split_whitespace().collect();
        (f.get(1) == Some(&"b"), f.get(5).and_then(|n| n.parse::<u32>().ok()).unwrap_or(1).max(1))
    };
    for (i, m) in g.moves.iter().enumerate() {
        let white_move = (i % 2 == 0) != black_first;
        if white_move {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(m.san.clone());
        let secs = format!("{:.1}s", m.ms as f64 / 1000.0);
        let c = match (m.score, m.depth) {
            (Some(s), Some(d)) => format!("{{{}/{d} {secs}}}", s.pgn()),
            (Some(s), None) => format!("{{{} {secs}}}", s.pgn()),
            _ => format!("{{{secs}}}"),
        };
        tokens.push(c);
        if !white_move {
            number += 1;
        }
    }
    tokens.push(format!("{{{}}}", comment(&g.reason)));
    tokens.push(g.result.clone());
    // Wrap, never inside a comment's words joined by spaces (a comment may span lines: allowed).
    let mut line = String::new();
    for t in tokens {
        for piece in t.split(' ') {
            if !line.is_empty() && line.len() + 1 + piece.len() > 79 {
                out.push_str(&line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(piece);
        }
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::client::Score;
    use crate::tournament::referee::PlayedMove;

    #[test]
    fn a_black_first_game_with_comments() {
        let mv = |san: &str, score| PlayedMove { san: san.into(), uci: String::new(), score, depth: Some(3), ms: 800 };
        let g = GameRecord {
            round: 2,
            white: "A".into(),
            black: "B \"x\"".into(),
            white_index: 0,
            black_index: 1,
            variant: "dchess".into(),
            fen: "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1".into(),
            pregame: None,
            moves: vec![mv("e5", Some(Score::Cp(35))), mv("e4", None), mv("Nf6", Some(Score::Mate(-2)))],
            result: "0-1".into(),
            white_score: 0.0,
            termination: "engine crash".into(),
            reason: "A (White) crashed {oops}".into(),
            time_control: "10+0.1".into(),
        };
        let h = PgnHeader { event: "E".into(), site: "S".into(), date: "2026.11.30".into() };
        let text = game_pgn(&h, &g);
        assert!(text.contains("[Black \"B \\\"x\\\"\"]\n"), "{text}");
        assert!(text.contains("[SetUp \"1\"]\n[Termination \"engine crash\"]\n[TimeControl \"10+0.1\"]\n"));
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains("1... e5 {+0.35/3 0.8s} 2. e4 {0.8s} Nf6 {-M2/3 0.8s} {A (White) crashed (oops)} 0-1"),
            "{text}"
        );
        assert!(text.lines().all(|l| l.len() <= 79));
        assert_eq!(today().len(), 10);
    }
}
