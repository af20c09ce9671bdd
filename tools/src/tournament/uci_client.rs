//! The referee's side of UCI: handshake (`uci`/`uciok`, options), variant selection
//! (`UCI_Variant` when the engine lists the variant, else standard chess or `UCI_Chess960` for
//! orthodox rule sets), `position fen ... moves ...`, `go` with the referee's clocks, reading
//! `info` and `bestmove`, and the `pregame` commands.
//!
//! Owns: `UciClient`.
//! Must not know: the rules of the game (the referee checks every move), scheduling.

use super::client::{orthodox_parent, Answer, Client, MoveStyle, Parent, Reply, Score, Turn};
use super::engine_process::{EngineError, EngineProcess, EngineSpec};
use super::TimeControl;
use menagerie_rules::startpos::castles_as_chess960;
use menagerie_rules::variant::Variant;
use std::time::{Duration, Instant};

/// How long the handshake and `isready` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

pub struct UciClient {
    spec: EngineSpec,
    process: Option<EngineProcess>,
    /// Values of the engine's UCI_Variant combo.
    variants: Vec<String>,
    /// Values of the engine's `Ruleset` combo (Menagerie's own option, which also offers the
    /// rule sets outside the UCI_Variant list: `rvcstar`, `rvc+promotion-a`, ...).
    rulesets: Vec<String>,
    has_chess960: bool,
}

impl UciClient {
    pub fn new(spec: EngineSpec) -> UciClient {
        UciClient { spec, process: None, variants: Vec::new(), rulesets: Vec::new(), has_chess960: false }
    }

    fn process(&mut self) -> Result<&mut EngineProcess, EngineError> {
        let name = self.spec.name.clone();
        self.process.as_mut().ok_or(EngineError::Exited { name })
    }

    fn ready(&mut self) -> Result<(), EngineError> {
        let deadline = Instant::now() + HANDSHAKE;
        let p = self.process()?;
        p.send("isready")?;
        let mut announced = None;
        loop {
            let line = p.recv(deadline, "readyok")?;
            let line = line.trim();
            if line == "readyok" {
                break;
            }
            // An engine that loaded a variant file (VariantPath) lists its variants anew.
            if let Some(list) = line.strip_prefix("info string variants ") {
                announced = Some(list.split_whitespace().map(str::to_string).collect());
            }
        }
        if let Some(variants) = announced {
            self.variants = variants;
        }
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: &str) -> Result<(), EngineError> {
        self.process()?.send(&format!("setoption name {name} value {value}"))
    }
}

/// Parse `info ... depth D ... score cp|mate N ...` into the figures kept. Only the first line
/// of a MultiPV search counts (an engine below full strength searches several): the others are
/// the scores of worse moves, not of the position.
fn read_info(line: &str, score: &mut Option<Score>, depth: &mut Option<u32>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let multipv = words.iter().take_while(|&&w| w != "pv" && w != "string").position(|&w| w == "multipv");
    if multipv.and_then(|i| words.get(i + 1)).is_some_and(|n| *n != "1") {
        return;
    }
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => {
                if let Some(d) = words.get(i + 1).and_then(|w| w.parse().ok()) {
                    *depth = Some(d);
                }
                i += 2;
            }
            "score" => {
                let n = words.get(i + 2).and_then(|w| w.parse::<i32>().ok());
                match (words.get(i + 1).copied(), n) {
                    (Some("cp"), Some(n)) => *score = Some(Score::Cp(n)),
                    (Some("mate"), Some(n)) => *score = Some(Score::Mate(n)),
                    _ => {}
                }
                i += 3;
            }
            // The rest of the line is free text or moves.
            "pv" | "string" => break,
            _ => i += 1,
        }
    }
}

/// The `go` line for a turn.
fn go_line(turn: &Turn) -> String {
    match *turn.tc {
        TimeControl::Clock { inc_ms, .. } => {
            format!("go wtime {} btime {} winc {inc_ms} binc {inc_ms}", turn.white_ms, turn.black_ms)
        }
        TimeControl::MoveTime(ms) => format!("go movetime {ms}"),
        TimeControl::Depth(d) => format!("go depth {d}"),
        TimeControl::Nodes(n) => format!("go nodes {n}"),
    }
}

impl Client for UciClient {
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
        p.send("uci")?;
        let deadline = Instant::now() + HANDSHAKE;
        let mut variants = Vec::new();
        let mut rulesets = Vec::new();
        let mut has_chess960 = false;
        loop {
            let line = p.recv(deadline, "uciok")?;
            let line = line.trim();
            if line == "uciok" {
                break;
            }
            let lower = line.to_ascii_lowercase();
            let combo = if lower.starts_with("option name uci_variant ") {
                Some(&mut variants)
            } else if lower.starts_with("option name ruleset ") {
                Some(&mut rulesets)
            } else {
                None
            };
            if let Some(list) = combo {
                let words: Vec<&str> = line.split_whitespace().collect();
                for w in words.windows(2) {
                    if w[0] == "var" {
                        list.push(w[1].to_ascii_lowercase());
                    }
                }
            } else if lower.starts_with("option name uci_chess960 ") {
                has_chess960 = true;
            }
        }
        self.variants = variants;
        self.rulesets = rulesets;
        self.has_chess960 = has_chess960;
        self.process = Some(p);
        for (name, value) in self.spec.options.clone() {
            self.set_option(&name, &value)?;
        }
        self.ready()
    }

    fn new_game(&mut self, variant: &'static Variant, _fen: &str, _tc: &TimeControl) -> Result<MoveStyle, EngineError> {
        let name = self.spec.name.clone();
        if !self.variants.contains(&variant.name) && self.rulesets.contains(&variant.name) {
            self.set_option("Ruleset", &variant.name)?;
            self.process()?.send("ucinewgame")?;
            self.ready()?;
            return Ok(MoveStyle::Coordinates);
        }
        // Engines write Chess960 castling king-takes-rook (Fairy-Stockfish reads no other form
        // in its shuffle variants): known by name, such a variant is played under UCI_Chess960.
        let (variant_option, chess960) = if self.variants.contains(&variant.name) {
            (Some(variant.name.clone()), self.has_chess960 && castles_as_chess960(variant))
        } else {
            match orthodox_parent(variant) {
                Some(parent) => {
                    let standard = self.variants.iter().find(|v| *v == "chess" || *v == "standard").cloned();
                    (standard, parent == Parent::Chess960)
                }
                None => {
                    return Err(EngineError::Protocol {
                        name,
                        message: format!("cannot play {} (not in its UCI_Variant list)", variant.name),
                    })
                }
            }
        };
        if chess960 && !self.has_chess960 {
            return Err(EngineError::Protocol {
                name,
                message: format!("cannot play {}: no UCI_Chess960", variant.name),
            });
        }
        if let Some(v) = variant_option {
            self.set_option("UCI_Variant", &v)?;
        }
        if self.has_chess960 {
            self.set_option("UCI_Chess960", if chess960 { "true" } else { "false" })?;
        }
        self.process()?.send("ucinewgame")?;
        self.ready()?;
        Ok(if chess960 { MoveStyle::KingTakesRook } else { MoveStyle::Coordinates })
    }

    fn pregame(&mut self, command: &str, deadline: Instant) -> Result<String, EngineError> {
        let p = self.process()?;
        p.send(command)?;
        let line =
            p.wait_for(deadline, "pregame answer", |l| l.starts_with("pregame ") && !l.starts_with("pregame option"))?;
        Ok(line.trim()["pregame ".len()..].trim().to_string())
    }

    fn think(&mut self, turn: &Turn) -> Result<Answer, EngineError> {
        let p = self.process()?;
        let mut position = format!("position fen {}", turn.start_fen);
        if !turn.moves.is_empty() {
            position.push_str(" moves ");
            position.push_str(&turn.moves.join(" "));
        }
        p.send(&position)?;
        p.send(&go_line(turn))?;
        let (mut score, mut depth) = (None, None);
        loop {
            let line = p.recv(turn.deadline, "bestmove")?;
            let line = line.trim();
            if line.starts_with("info ") {
                read_info(line, &mut score, &mut depth);
            } else if let Some(rest) = line.strip_prefix("bestmove") {
                let reply = match rest.split_whitespace().next() {
                    None | Some("0000") | Some("(none)") | Some("@@@@") => Reply::NoMove,
                    Some(m) => Reply::Move(m.to_string()),
                };
                return Ok(Answer { reply, score, depth });
            }
        }
    }

    fn game_over(&mut self, _result: &str, _reason: &str) {
        // A search may still run (after a time forfeit): stop it and drop its bestmove.
        if let Some(p) = self.process.as_mut() {
            let _ = p.send("stop");
        }
        if self.ready().is_err() {
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
    fn info_lines_are_read() {
        let (mut s, mut d) = (None, None);
        read_info("info depth 12 seldepth 20 multipv 1 score cp -35 nodes 100 pv e2e4 e7e5", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Cp(-35)), Some(12)));
        read_info("info depth 13 score mate 4 lowerbound pv e2e4", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Mate(4)), Some(13)));
        read_info("info string depth 99 score cp 1", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Mate(4)), Some(13)), "free text is not read");
        read_info("info depth 14 multipv 2 score cp -80 pv a2a3", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Mate(4)), Some(13)), "a second line is a worse move's");
        read_info("info depth 14 multipv 1 score cp 20 pv e2e4", &mut s, &mut d);
        assert_eq!((s, d), (Some(Score::Cp(20)), Some(14)));
    }
}
