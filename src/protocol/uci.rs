//! The UCI front end. vampirc-uci parses the commands its grammar carries (`uci`, `isready`,
//! `setoption`, `ucinewgame`, `go` without `searchmoves` and `ponder`, `stop`, `ponderhit`, `quit`,
//! `debug`); `position` lines, `searchmoves`, `ponder` and every move text go through our own
//! parser, because
//! vampirc-uci silently truncates move lists with drops, files past `h`, ranks past 8 or fairy
//! promotions. `pregame ...` lines go to `pregame::protocol_command` (our own extension, see
//! the README). Errors are answered with `info string error: ...` and change nothing.
//!
//! Owns: UCI text in and out, the UCI options.
//! Must not know: search internals, rules internals (it speaks to `Engine`).

use crate::engine::{
    Engine, SearchEvent, DEFAULT_HASH_MB, DEFAULT_MOVE_OVERHEAD_MS, MAX_HASH_MB, MAX_MULTIPV, MAX_THREADS,
};
use crate::pregame;
use crate::search::{ScoreReport, SearchLimits};
use crate::variant;
use crossbeam_channel::{never, select, Receiver};
use std::io::Write;
use vampirc_uci::{parse_one, UciMessage, UciSearchControl, UciTimeControl};

/// The variants offered in the UCI_Variant combo, the default first.
const UCI_VARIANTS: [&str; 7] = ["chess", "chess960", "dchess", "chess9", "displacement", "vdchess", "rvc"];

/// The UCI session: the engine, the options, and the running search's event channel.
pub struct Uci<W: Write> {
    engine: Engine,
    out: W,
    events: Receiver<SearchEvent>,
    /// UCI_Variant as set by the GUI, and Ruleset (`auto` = follow UCI_Variant).
    uci_variant: String,
    ruleset: String,
    chess960: bool,
    /// While pondering: the limits to search with once `ponderhit` comes (the clock of the
    /// `go ponder` command).
    pondering: Option<SearchLimits>,
}

impl<W: Write> Uci<W> {
    /// A session writing to `out`.
    pub fn new(out: W) -> Option<Uci<W>> {
        let engine = Engine::new("chess").ok()?;
        Some(Uci {
            engine,
            out,
            events: never(),
            uci_variant: "chess".to_string(),
            ruleset: "auto".to_string(),
            chess960: false,
            pondering: None,
        })
    }

    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    fn error(&mut self, message: impl std::fmt::Display) {
        self.say(&format!("info string error: {message}"));
    }

    /// Run until `quit` or the end of input. `lines` delivers stdin lines (from a reader
    /// thread), so that `stop` and `isready` are answered while a search runs.
    pub fn run(&mut self, lines: Receiver<String>) {
        loop {
            let events = self.events.clone();
            select! {
                recv(lines) -> line => match line {
                    Ok(line) => {
                        if !self.command(&line) {
                            break;
                        }
                    }
                    Err(_) => break,
                },
                recv(events) -> event => match event {
                    Ok(e) => self.report(e),
                    Err(_) => self.events = never(),
                },
            }
        }
        self.finish_search();
    }

    /// End a running search and report what it still has to say (its best move above all):
    /// every `go` is answered by a `bestmove`, even when the GUI moves on without waiting.
    fn finish_search(&mut self) {
        if self.engine.is_searching() {
            self.engine.stop();
        }
        self.engine.wait();
        while let Ok(e) = self.events.try_recv() {
            self.report(e);
        }
        self.events = never();
        self.pondering = None;
    }

    /// `ponderhit`: the opponent played the expected move. The ponder search ends without a
    /// best move and a normal search of the same position starts with the clock of `go ponder`
    /// (the table keeps what pondering found).
    fn ponderhit(&mut self) {
        let Some(limits) = self.pondering.take() else { return };
        self.engine.stop();
        self.engine.wait();
        while let Ok(e) = self.events.try_recv() {
            if matches!(e, SearchEvent::Info { .. }) {
                self.report(e);
            }
        }
        self.events = self.engine.go(limits);
    }

    /// Handle one command line; false on `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let first = line.split_whitespace().next().unwrap_or("");
        match first {
            "" => return true,
            "position" => {
                self.finish_search();
                self.position(line);
                return true;
            }
            "go" => {
                self.finish_search();
                self.go(line);
                return true;
            }
            "pregame" => {
                self.finish_search();
                match pregame::protocol_command(line, &self.engine) {
                    Ok(lines) => lines.iter().for_each(|l| self.say(l)),
                    Err(e) => self.error(e),
                }
                return true;
            }
            _ => {}
        }
        match parse_one(line) {
            UciMessage::Uci => self.identify(),
            UciMessage::IsReady => self.say("readyok"),
            UciMessage::UciNewGame => {
                self.finish_search();
                self.engine.new_game();
            }
            UciMessage::Stop => self.engine.stop(),
            UciMessage::PonderHit => self.ponderhit(),
            UciMessage::Quit => return false,
            UciMessage::Debug(_) => {}
            UciMessage::SetOption { name, value } => {
                self.finish_search();
                self.set_option(&name, value.as_deref().unwrap_or(""));
            }
            _ => self.error(format!("unknown command '{line}'")),
        }
        true
    }

    fn identify(&mut self) {
        self.say(&format!("id name Menagerie {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Menagerie developers");
        self.say(&format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"));
        self.say(&format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"));
        self.say(&format!("option name Move Overhead type spin default {DEFAULT_MOVE_OVERHEAD_MS} min 0 max 10000"));
        self.say(&format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"));
        self.say("option name Ponder type check default false");
        self.say("option name UCI_AnalyseMode type check default false");
        self.say("option name UCI_Chess960 type check default false");
        let combo: Vec<String> = UCI_VARIANTS.iter().map(|v| format!("var {v}")).collect();
        self.say(&format!("option name UCI_Variant type combo default chess {}", combo.join(" ")));
        self.say(&format!("option name Ruleset type combo default auto var auto {}", combo.join(" ")));
        self.say("uciok");
    }

    fn set_option(&mut self, name: &str, value: &str) {
        let number = |v: &str| v.trim().parse::<u64>().ok();
        match name.trim().to_ascii_lowercase().as_str() {
            "hash" => match number(value) {
                Some(mb) if mb >= 1 => self.engine.set_hash(mb as usize),
                _ => self.error(format!("Hash must be a number of megabytes, not '{value}'")),
            },
            "threads" => match number(value) {
                Some(n) if n >= 1 => self.engine.set_threads(n as usize),
                _ => self.error(format!("Threads must be a positive number, not '{value}'")),
            },
            "move overhead" => match number(value) {
                Some(ms) => self.engine.set_move_overhead(ms),
                None => self.error(format!("Move Overhead must be milliseconds, not '{value}'")),
            },
            "multipv" => match number(value) {
                Some(n) if n >= 1 => self.engine.set_multipv(n as usize),
                _ => self.error(format!("MultiPV must be a positive number, not '{value}'")),
            },
            // Pondering and analysis need nothing set in advance: `go ponder` and `go infinite`
            // say it all.
            "ponder" | "uci_analysemode" => {
                if !matches!(value.trim(), "true" | "false") {
                    self.error(format!("{name} is true or false, not '{value}'"));
                }
            }
            "uci_chess960" => match value.trim() {
                "true" => self.set_chess960(true),
                "false" => self.set_chess960(false),
                _ => self.error(format!("UCI_Chess960 is true or false, not '{value}'")),
            },
            "uci_variant" => {
                let wanted = value.trim().to_ascii_lowercase();
                self.uci_variant = wanted;
                self.apply_variant();
            }
            "ruleset" => {
                let wanted = value.trim().to_ascii_lowercase();
                if wanted != "auto" && variant::builtin(&wanted).is_err() {
                    self.error(format!("unknown Ruleset '{value}'"));
                    return;
                }
                self.ruleset = wanted;
                self.apply_variant();
            }
            _ => self.error(format!("unknown option '{name}'")),
        }
    }

    fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
        self.engine.set_chess960(on);
        self.apply_variant();
    }

    /// Load the variant that Ruleset, UCI_Variant and UCI_Chess960 select together.
    fn apply_variant(&mut self) {
        let mut name = if self.ruleset == "auto" { self.uci_variant.clone() } else { self.ruleset.clone() };
        if name == "chess" && self.chess960 {
            name = "chess960".to_string();
        }
        if self.engine.variant().name == name || (name == "fischerandom" && self.engine.variant().name == "chess960") {
            return;
        }
        match self.engine.set_variant(&name) {
            Ok(()) => {
                let v = self.engine.variant();
                let start = self.engine.position().to_fen();
                let line = format!(
                    "info string variant {} files {} ranks {} startpos {start}",
                    v.name, v.geometry.files, v.geometry.ranks
                );
                self.say(&line);
            }
            Err(e) => self.error(e),
        }
    }

    /// `position startpos|fen FEN [moves M...]`, parsed here (never by vampirc-uci).
    fn position(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let moves_at = words.iter().position(|&w| w == "moves").unwrap_or(words.len());
        let moves = if moves_at < words.len() { &words[moves_at + 1..] } else { &[][..] };
        let fen = match words.get(1).copied() {
            Some("startpos") if moves_at == 2 => match self.engine.default_start_fen() {
                Ok(f) => f,
                Err(e) => return self.error(e),
            },
            Some("fen") if moves_at > 2 => words[2..moves_at].join(" "),
            _ => return self.error(format!("expected 'position startpos|fen FEN [moves ...]', got '{line}'")),
        };
        if let Err(e) = self.engine.set_position(&fen, moves) {
            self.error(e);
        }
    }

    /// `go ...`: vampirc-uci reads the limits; `searchmoves` is taken out and read here.
    fn go(&mut self, line: &str) {
        let words: Vec<&str> = line.split_whitespace().collect();
        let keywords =
            ["ponder", "wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime", "infinite"];
        let mut search_moves = Vec::new();
        let mut rest = Vec::new();
        let mut ponder = false;
        let mut i = 0;
        while i < words.len() {
            if words[i] == "ponder" {
                // Read here: vampirc-uci drops the clock of `go ponder wtime ...`.
                ponder = true;
                i += 1;
            } else if words[i] == "searchmoves" {
                i += 1;
                while i < words.len() && !keywords.contains(&words[i]) {
                    search_moves.push(words[i].to_string());
                    i += 1;
                }
            } else {
                rest.push(words[i]);
                i += 1;
            }
        }
        let mut limits = match parse_one(&rest.join(" ")) {
            UciMessage::Go { time_control, search_control } => limits_of(time_control, search_control),
            _ => return self.error(format!("cannot read '{line}'")),
        };
        if ponder {
            self.pondering = Some(limits.clone());
            limits = SearchLimits { ponder: true, ..limits };
        }
        let events = if search_moves.is_empty() {
            Ok(self.engine.go(limits))
        } else {
            self.engine.go_restricted(limits, &search_moves)
        };
        match events {
            Ok(rx) => self.events = rx,
            Err(e) => self.error(e),
        }
    }

    fn report(&mut self, event: SearchEvent) {
        match event {
            SearchEvent::Info { multipv, depth, seldepth, score, nodes, nps, time_ms, hashfull, pv } => {
                let score = match score {
                    ScoreReport::Centipawns(cp) => format!("cp {cp}"),
                    ScoreReport::Mate(m) => format!("mate {m}"),
                };
                let line = format!(
                    "info depth {depth} seldepth {seldepth} multipv {multipv} score {score} nodes {nodes} nps {nps} hashfull {hashfull} time {time_ms} pv {}",
                    pv.join(" ")
                );
                self.say(line.trim_end());
            }
            SearchEvent::BestMove { best, ponder } => {
                self.pondering = None;
                let line = match (best, ponder) {
                    (Some(b), Some(p)) => format!("bestmove {b} ponder {p}"),
                    (Some(b), None) => format!("bestmove {b}"),
                    (None, _) => "bestmove 0000".to_string(),
                };
                self.say(&line);
            }
        }
    }
}

fn millis(d: Option<vampirc_uci::Duration>) -> Option<u64> {
    d.map(|d| d.num_milliseconds().max(0) as u64)
}

fn limits_of(time: Option<UciTimeControl>, search: Option<UciSearchControl>) -> SearchLimits {
    let mut limits = SearchLimits::default();
    let no_clock = time.is_none();
    match time {
        Some(UciTimeControl::Infinite) => limits.infinite = true,
        Some(UciTimeControl::Ponder) => limits.ponder = true,
        Some(UciTimeControl::MoveTime(d)) => limits.movetime = millis(Some(d)),
        Some(UciTimeControl::TimeLeft { white_time, black_time, white_increment, black_increment, moves_to_go }) => {
            limits.wtime = millis(white_time);
            limits.btime = millis(black_time);
            limits.winc = millis(white_increment);
            limits.binc = millis(black_increment);
            limits.movestogo = moves_to_go.map(u32::from);
        }
        None => {}
    }
    if let Some(s) = search {
        limits.depth = s.depth.map(u32::from);
        limits.nodes = s.nodes;
        limits.mate = s.mate.map(u32::from);
    }
    if no_clock && limits.depth.is_none() && limits.nodes.is_none() && limits.mate.is_none() {
        // A bare `go` searches until `stop`, as most engines do.
        limits.infinite = true;
    }
    limits
}
