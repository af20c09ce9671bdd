//! The referee's side of XBoard/CECP v2: `xboard`, `protover 2` and the `feature` lines (waiting
//! for `done=1` with a timeout), variant selection (`variant NAME` when listed, else `normal` or
//! `fischerandom` for orthodox rule sets), `new`/`force`/`setboard`, the time control (`level`,
//! `st`, `sd`, `nps`), `time`/`otim`, moves (`usermove` or plain), `go`, and reading `move X`,
//! `resign`, result claims, `Illegal move` and thinking output.
//!
//! Owns: `XboardClient`, `Features`.
//! Must not know: the rules of the game (the referee checks moves and claims), scheduling.

use super::client::{orthodox_parent, Answer, Client, MoveStyle, Parent, Reply, Score, Turn};
use super::engine_process::{split_words, EngineError, EngineProcess, EngineSpec};
use super::TimeControl;
use menagerie_rules::variant::Variant;
use std::time::{Duration, Instant};

/// How long to wait for `feature done=1` (after `done=0`: the extended wait).
const FEATURES: Duration = Duration::from_secs(2);
const FEATURES_EXTENDED: Duration = Duration::from_secs(20);

/// The features an engine announced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Features {
    pub variants: Vec<String>,
    pub usermove: bool,
    pub setboard: bool,
    pub ping: bool,
}

impl Features {
    /// Read one `feature a=1 b="x y"` line; returns whether it says `done=1`.
    fn read(&mut self, line: &str, accepted: &mut Vec<String>) -> Option<bool> {
        let mut done = None;
        for word in split_words(line).iter().skip(1) {
            let Some((key, value)) = word.split_once('=') else { continue };
            accepted.push(key.to_string());
            match key {
                "variants" => self.variants = value.split(',').map(|v| v.trim().to_string()).collect(),
                "usermove" => self.usermove = value == "1",
                "setboard" => self.setboard = value == "1",
                "ping" => self.ping = value == "1",
                "done" => done = Some(value == "1"),
                _ => {}
            }
        }
        done
    }
}

pub struct XboardClient {
    spec: EngineSpec,
    process: Option<EngineProcess>,
    features: Features,
    /// Moves of the current game the engine already knows.
    known: usize,
    ping: u32,
}

/// Protocol names of the orthodox rule sets.
const NORMAL: &str = "normal";
const FISCHERANDOM: &str = "fischerandom";
const NOCASTLE: &str = "nocastle";

/// The protocol-1 way to set up a position, for engines without `setboard`: a dummy White move
/// when Black is to move, then `edit`, `#`, White's pieces, `c`, Black's pieces, `.`.
fn edit_lines(fen: &str) -> Option<Vec<String>> {
    let mut fields = fen.split_whitespace();
    let board = fields.next()?;
    let black_to_move = fields.next() == Some("b");
    let ranks: Vec<&str> = board.split('[').next()?.split('/').collect();
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (i, row) in ranks.iter().enumerate() {
        let rank = ranks.len() - i;
        for (file, c) in menagerie_rules::startpos::rank_squares(row).into_iter().enumerate().filter(|&(_, c)| c != ' ')
        {
            let square = format!("{}{}{rank}", c.to_ascii_uppercase(), (b'a' + file as u8) as char);
            if c.is_ascii_uppercase() {
                white.push(square)
            } else {
                black.push(square)
            }
        }
    }
    let mut out = Vec::new();
    if black_to_move {
        out.push("a2a3".to_string());
    }
    out.extend(["edit".to_string(), "#".to_string()]);
    out.extend(white);
    out.push("c".to_string());
    out.extend(black);
    out.push(".".to_string());
    Some(out)
}

/// Seconds as XBoard writes them: whole numbers plain, else with up to three decimals.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

/// The time-control lines for a game.
fn level_lines(tc: &TimeControl) -> Vec<String> {
    match *tc {
        TimeControl::Clock { base_ms, inc_ms } => {
            let secs = base_ms / 1000;
            let base = if base_ms.is_multiple_of(1000) {
                format!("{}:{:02}", secs / 60, secs % 60)
            } else {
                format!("{}:{:02}", secs / 60, seconds(base_ms % 60_000))
            };
            vec![format!("level 0 {base} {}", seconds(inc_ms))]
        }
        // `st` takes whole seconds.
        TimeControl::MoveTime(ms) => vec![format!("st {}", ms.div_ceil(1000).max(1))],
        TimeControl::Depth(d) => vec!["st 86400".to_string(), format!("sd {d}")],
        TimeControl::Nodes(n) => vec!["st 1".to_string(), format!("nps {n}")],
    }
}

/// A thinking-output score: the spec's mates are +-(100000 + N); some engines count down from
/// 100000 in plies instead.
fn xboard_score(s: i32) -> Score {
    let a = s.abs();
    if a > 100_000 {
        Score::Mate(s.signum() * (a - 100_000))
    } else if a >= 90_000 {
        Score::Mate(s.signum() * ((100_000 - a) + 1) / 2)
    } else {
        Score::Cp(s)
    }
}

/// A thinking line `ply score time nodes pv`: (depth, score in cp).
fn read_thinking(line: &str) -> Option<(u32, i32)> {
    let mut w = line.split_whitespace();
    let depth = w.next()?.trim_end_matches(['.', '&']).parse().ok()?;
    let score = w.next()?.parse().ok()?;
    w.next()?.parse::<i64>().ok()?;
    Some((depth, score))
}

impl XboardClient {
    pub fn new(spec: EngineSpec) -> XboardClient {
        XboardClient { spec, process: None, features: Features::default(), known: 0, ping: 0 }
    }

    fn process(&mut self) -> Result<&mut EngineProcess, EngineError> {
        let name = self.spec.name.clone();
        self.process.as_mut().ok_or(EngineError::Exited { name })
    }

    /// `ping N` / `pong N`: everything sent before has been handled; lines before are dropped.
    fn sync(&mut self) -> Result<(), EngineError> {
        if !self.features.ping {
            self.process()?.drain();
            return Ok(());
        }
        self.ping += 1;
        let n = self.ping;
        let p = self.process()?;
        p.send(&format!("ping {n}"))?;
        let want = format!("pong {n}");
        p.wait_for(Instant::now() + Duration::from_secs(10), &want, |l| l == want)?;
        Ok(())
    }

    fn protocol_error(&self, message: String) -> EngineError {
        EngineError::Protocol { name: self.spec.name.clone(), message }
    }
}

impl Client for XboardClient {
    fn name(&self) -> &str {
        &self.spec.name
    }

    fn ensure_started(&mut self) -> Result<(), EngineError> {
        if let Some(p) = self.process.as_mut() {
            if p.alive() {
                return Ok(());
            }
            self.process = None;
        }
        let mut p = EngineProcess::start(&self.spec)?;
        p.send("xboard")?;
        p.send("protover 2")?;
        let mut features = Features::default();
        let mut deadline = Instant::now() + FEATURES;
        loop {
            let line = match p.recv(deadline, "feature done=1") {
                Ok(l) => l,
                // Protocol 1 engines never say done=1: go on with what we have.
                Err(EngineError::Timeout { .. }) => break,
                Err(e) => return Err(e),
            };
            if !line.starts_with("feature ") {
                continue;
            }
            let mut keys = Vec::new();
            let done = features.read(&line, &mut keys);
            for k in keys {
                p.send(&format!("accepted {k}"))?;
            }
            match done {
                Some(true) => break,
                Some(false) => deadline = Instant::now() + FEATURES_EXTENDED,
                None => {}
            }
        }
        self.features = features;
        self.process = Some(p);
        for (name, value) in self.spec.options.clone() {
            self.process()?.send(&format!("option {name}={value}"))?;
        }
        Ok(())
    }

    fn new_game(&mut self, variant: &'static Variant, fen: &str, tc: &TimeControl) -> Result<MoveStyle, EngineError> {
        let listed = |n: &str| self.features.variants.iter().any(|v| v == n);
        let (name, style) = if listed(&variant.name) {
            (variant.name.clone(), MoveStyle::Xboard)
        } else {
            match orthodox_parent(variant) {
                Some(Parent::NoCastling) if listed(NOCASTLE) => (NOCASTLE.to_string(), MoveStyle::Coordinates),
                Some(Parent::Standard | Parent::NoCastling) => (NORMAL.to_string(), MoveStyle::Coordinates),
                Some(Parent::Chess960) if listed(FISCHERANDOM) => (FISCHERANDOM.to_string(), MoveStyle::Xboard),
                _ => {
                    return Err(
                        self.protocol_error(format!("cannot play {} (not in its variants feature)", variant.name))
                    )
                }
            }
        };
        let edit = if self.features.setboard {
            None
        } else {
            Some(edit_lines(fen).ok_or_else(|| self.protocol_error(format!("cannot set up '{fen}' by edit")))?)
        };
        self.sync()?;
        let p = self.process()?;
        p.send("new")?;
        if name != NORMAL {
            p.send(&format!("variant {name}"))?;
        }
        p.send("force")?;
        match edit {
            None => p.send(&format!("setboard {fen}"))?,
            Some(lines) => {
                for l in lines {
                    p.send(&l)?;
                }
            }
        }
        for l in level_lines(tc) {
            p.send(&l)?;
        }
        p.send("post")?;
        p.send("easy")?;
        self.known = 0;
        Ok(style)
    }

    fn pregame(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError> {
        let p = self.process()?;
        p.send(command)?;
        loop {
            let line = p.recv(deadline, "pregame answer")?;
            let line = line.trim();
            if line.starts_with("Error") {
                return Err(self.protocol_error(format!("refused the pre-game command: {line}")));
            }
            if line.starts_with("pregame ") && !line.starts_with("pregame option") {
                return Ok(line["pregame ".len()..].trim().to_string());
            }
        }
    }

    fn think(&mut self, turn: &Turn) -> Result<Answer, EngineError> {
        let usermove = self.features.usermove;
        let known = self.known;
        let p = self.process()?;
        p.send("force")?;
        for m in turn.moves.iter().skip(known) {
            p.send(&if usermove { format!("usermove {m}") } else { m.clone() })?;
        }
        let (own, other) = match turn.color {
            menagerie_rules::geometry::Color::White => (turn.white_ms, turn.black_ms),
            menagerie_rules::geometry::Color::Black => (turn.black_ms, turn.white_ms),
        };
        let (own, other) = match *turn.tc {
            TimeControl::Clock { .. } => (own, other),
            TimeControl::MoveTime(ms) => (ms, ms),
            _ => (8_640_000_000, 8_640_000_000),
        };
        p.send(&format!("time {}", own / 10))?;
        p.send(&format!("otim {}", other / 10))?;
        p.send("go")?;
        self.known = turn.moves.len() + 1;
        let (mut score, mut depth) = (None, None);
        loop {
            let p = self.process()?;
            let line = p.recv(turn.deadline, "move")?;
            let line = line.trim();
            let mut words = line.split_whitespace();
            let first = words.next().unwrap_or("");
            let reply = match first {
                "move" => match words.next() {
                    Some("@@@@") | None => Reply::NoMove,
                    Some(m) => Reply::Move(m.to_string()),
                },
                "resign" => Reply::Resign,
                "1-0" | "0-1" | "1/2-1/2" => Reply::Claim {
                    result: first.to_string(),
                    reason: line[first.len()..].trim().trim_start_matches('{').trim_end_matches('}').to_string(),
                },
                _ if line.starts_with("Illegal move") => {
                    return Err(self.protocol_error(format!("rejected a legal move: {line}")));
                }
                _ => {
                    if let Some((d, s)) = read_thinking(line) {
                        depth = Some(d);
                        score = Some(xboard_score(s));
                    }
                    continue;
                }
            };
            return Ok(Answer { reply, score, depth });
        }
    }

    fn game_over(&mut self, result: &str, reason: &str) {
        if let Some(p) = self.process.as_mut() {
            let _ = p.send(&format!("result {result} {{{reason}}}"));
            let _ = p.send("force");
        }
        if self.sync().is_err() {
            self.kill();
        }
    }

    fn kill(&mut self) {
        if let Some(mut p) = self.process.take() {
            p.stop("quit");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_and_levels() {
        let mut f = Features::default();
        let mut keys = Vec::new();
        let done = f.read(r#"feature ping=1 setboard=1 variants="normal,fischerandom" myname="X Y" done=1"#, &mut keys);
        assert_eq!(done, Some(true));
        assert!(f.ping && f.setboard && !f.usermove);
        assert_eq!(f.variants, vec!["normal", "fischerandom"]);
        assert_eq!(keys, vec!["ping", "setboard", "variants", "myname", "done"]);
        assert_eq!(level_lines(&TimeControl::Clock { base_ms: 120_000, inc_ms: 500 }), vec!["level 0 2:00 0.5"]);
        assert_eq!(level_lines(&TimeControl::Clock { base_ms: 10_000, inc_ms: 100 }), vec!["level 0 0:10 0.1"]);
        assert_eq!(level_lines(&TimeControl::MoveTime(250)), vec!["st 1"]);
        assert_eq!(read_thinking(" 9  156  1084  48000  Nf3 Nc6"), Some((9, 156)));
        assert_eq!(read_thinking("telluser hello"), None);
        assert_eq!(xboard_score(-100_003), Score::Mate(-3));
        assert_eq!(xboard_score(99_997), Score::Mate(2));
        assert_eq!(xboard_score(-35), Score::Cp(-35));
        let edit = edit_lines("k7/8/8/8/8/8/8/6RK b - - 0 1").unwrap();
        assert_eq!(edit, vec!["a2a3", "edit", "#", "Rg1", "Kh1", "c", "Ka8", "."]);
    }
}
