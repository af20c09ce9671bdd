//! The UCI front end. vampirc-uci parses the commands its grammar carries (`uci`, `isready`,
//! `setoption`, `ucinewgame`, `go` without `searchmoves` and `ponder`, `stop`, `ponderhit`,
//! `quit`, `debug`); `position` lines, `searchmoves`, `ponder` and every move text go through our
//! own parser, because vampirc-uci silently truncates move lists with drops, files past `h`,
//! ranks past 8 or fairy promotions. Search output: `info depth ... pv` per iteration (with
//! `lowerbound`/`upperbound` for aspiration failures in long searches, and `wdl W D L` after the
//! score under `UCI_ShowWDL`), `info depth D currmove M
//! currmovenumber N` in long searches, one `bestmove` per search. `pregame ...` lines go to
//! `pregame::protocol_command` (our own extension, see docs/pregame.md). Stockfish's `go perft N` and
//! `d` are answered as Stockfish answers them (`inspect`).
//! Errors are answered with `info string error: ...` and change nothing; a `go` with a bad search
//! move or an unreadable limit is still answered (unreadable limits are left out; a `go` with no
//! readable limit left searches to depth 1).
//!
//! Owns: UCI text in and out.
//! Must not know: search internals, rules internals (it speaks to `Engine`).

use super::{inspect, option_text, Session};
use crate::engine::options::{self, Effect};
use crate::engine::{Engine, Frontend, SearchEvent};
use crate::pregame;
use crate::search::{Bound, ScoreReport, SearchLimits, Wdl};
use crossbeam_channel::{never, Receiver};
use menagerie_rules::variant;
use std::io::Write;
use vampirc_uci::{parse_one, UciMessage, UciSearchControl, UciTimeControl};

/// Depth searched for a `go` none of whose limits could be read.
const UNREADABLE_GO_DEPTH: u32 = 1;
/// The UCI session: the engine (with the options), and the running search's event channel.
pub struct Uci<W: Write> {
    engine: Engine,
    out: W,
    events: Receiver<SearchEvent>,
    /// While pondering: the limits to search with once `ponderhit` comes (the clock of the
    /// `go ponder` command).
    pondering: Option<SearchLimits>,
}

impl<W: Write> Uci<W> {
    /// A session writing to `out`.
    pub fn new(out: W) -> Option<Uci<W>> {
        let engine = Engine::new("chess").ok()?;
        Some(Uci { engine, out, events: never(), pondering: None })
    }

    /// The engine behind the session, as the commands so far have set it.
    pub fn engine(&self) -> &Engine {
        &self.engine
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
    pub fn run(&mut self, lines: Receiver<super::Input>) {
        super::run_session(self, lines);
    }

    /// `ponderhit`: the opponent played the expected move. The ponder search ends without a
    /// best move and a normal search of the same position starts with the clock of `go ponder`
    /// (the table keeps what pondering found).
    fn ponderhit(&mut self) {
        let Some(limits) = self.pondering.take() else { return };
        self.engine.stop();
        self.engine.wait();
        while let Ok(e) = self.events.try_recv() {
            if !matches!(e, SearchEvent::BestMove { .. }) {
                self.on_search_event(e);
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
                self.end_search();
                self.position(line);
                return true;
            }
            "go" => {
                self.end_search();
                match inspect::perft_depth(line) {
                    Some(Ok(depth)) => {
                        let rows = self.engine.divide(depth);
                        inspect::perft_lines(depth, &rows).iter().for_each(|l| self.say(l));
                    }
                    Some(Err(e)) => self.error(e),
                    None => self.go(line),
                }
                return true;
            }
            // Read the position only: a running search goes on.
            "d" => {
                inspect::board_lines(self.engine.position()).iter().for_each(|l| self.say(l));
                return true;
            }
            "eval" => {
                let searching_with = self.engine.evaluation_in_use();
                inspect::eval_lines(self.engine.position(), self.engine.fitting_network().as_deref(), &searching_with)
                    .iter()
                    .for_each(|l| self.say(l));
                return true;
            }
            "pregame" => {
                self.end_search();
                match pregame::protocol_command(line, &self.engine, pregame::DEFAULT_BUDGET) {
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
                self.end_search();
                self.engine.new_game();
            }
            UciMessage::Stop => self.engine.stop(),
            UciMessage::PonderHit => self.ponderhit(),
            UciMessage::Quit => return false,
            UciMessage::Debug(_) => {}
            UciMessage::SetOption { name, value } => {
                self.end_search();
                self.set_option(&name, value.as_deref().unwrap_or(""));
            }
            _ => self.error(format!("unknown command '{line}'")),
        }
        true
    }

    fn identify(&mut self) {
        self.say(&format!("id name Menagerie {}", env!("CARGO_PKG_VERSION")));
        self.say("id author the Menagerie developers");
        for line in option_text::offer_lines(Frontend::Uci) {
            self.say(&line);
        }
        self.say("uciok");
    }

    /// `setoption`: the registry reads and checks the value (names and values without regard to
    /// case); a value that is not allowed is answered with an error and changes nothing.
    fn set_option(&mut self, name: &str, value: &str) {
        match self.engine.set_option(Frontend::Uci, name, value) {
            Ok(option) if option.effect == Effect::Rules => self.apply_variant(),
            Ok(option) if option.effect == Effect::Variants => {
                for refusal in self.engine.take_variant_refusals() {
                    self.say(&format!("info string {refusal}"));
                }
                let line = format!("info string variants {}", variant::names().join(" "));
                self.say(&line);
                // The file may have redefined the variant chosen: play the new definition.
                self.apply_variant();
            }
            Ok(_) => {}
            Err(e) => self.error(e),
        }
    }

    /// Load the variant that Ruleset, UCI_Variant and UCI_Chess960 select together. Castling
    /// is written king-takes-rook under UCI_Chess960 and when UCI_Variant is chess960: Cute
    /// Chess sets only the latter for Fischer Random games (also with Ruleset=chess9).
    fn apply_variant(&mut self) {
        let options = self.engine.options();
        let uci_variant = options.combo(&options::VARIANT);
        let chess960 = options.check(&options::CHESS960);
        let mut name = options.rules_for(uci_variant);
        if name == "chess" && chess960 {
            name = "chess960";
        }
        self.engine.set_chess960(chess960 || uci_variant == "chess960");
        if variant::by_name(name).is_ok_and(|v| std::ptr::eq(v, self.engine.variant())) {
            return;
        }
        match self.engine.set_variant(name) {
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
        let (readable, unreadable) = readable_go_words(&rest);
        for problem in &unreadable {
            self.error(format!("go: {problem}; ignored"));
        }
        // Every limit given was unreadable: a short search still answers the `go` (an infinite
        // one, as a bare `go` means, would leave a GUI waiting for a `bestmove`).
        let fallback = !unreadable.is_empty() && readable.len() <= 1 && !ponder && search_moves.is_empty();
        let text = if fallback { format!("go depth {UNREADABLE_GO_DEPTH}") } else { readable.join(" ") };
        if fallback {
            self.error(format!("go: no readable limit; searching to depth {UNREADABLE_GO_DEPTH}"));
        }
        let mut limits = match parse_one(&text) {
            UciMessage::Go { time_control, search_control } => limits_of(time_control, search_control),
            _ => {
                // Still a `go`: it gets its `bestmove`, as a `go` whose limits were unreadable.
                self.error(format!("cannot read '{line}'; searching to depth {UNREADABLE_GO_DEPTH}"));
                SearchLimits { depth: Some(UNREADABLE_GO_DEPTH), ..SearchLimits::default() }
            }
        };
        if ponder {
            self.pondering = Some(limits.clone());
            limits = SearchLimits { ponder: true, ..limits };
        }
        // A search move that cannot be played is reported and left out; the `go` is still
        // answered by a `bestmove` (with no playable search move, every move is searched).
        let mut playable = Vec::new();
        for text in search_moves {
            let mut p = self.engine.position().clone();
            match p.play_text(&text) {
                Ok(()) => playable.push(text),
                Err(e) => self.error(format!("searchmoves: {e}")),
            }
        }
        let events =
            if playable.is_empty() { Ok(self.engine.go(limits)) } else { self.engine.go_restricted(limits, &playable) };
        match events {
            Ok(rx) => self.events = rx,
            Err(e) => self.error(e),
        }
    }
}

/// The words of a `go` line (without `ponder` and `searchmoves`) that vampirc-uci can read, and
/// a description of each one left out: a limit without a number, an unknown word.
fn readable_go_words<'t>(words: &[&'t str]) -> (Vec<&'t str>, Vec<String>) {
    const FLAGS: [&str; 1] = ["infinite"];
    const NUMERIC: [&str; 9] = ["wtime", "btime", "winc", "binc", "movestogo", "depth", "nodes", "mate", "movetime"];
    // What vampirc-uci's grammar reads: times of up to 12 digits, signed (a GUI's overdrawn
    // clock); a node count of up to 12 digits; other counts up to 255.
    let valid = |keyword: &str, value: &str| {
        let digits = value.strip_prefix(['-', '+']).unwrap_or(value);
        let all_digits = !digits.is_empty() && digits.len() <= 12 && digits.bytes().all(|b| b.is_ascii_digit());
        match keyword {
            "wtime" | "btime" | "winc" | "binc" | "movetime" => all_digits,
            "nodes" => all_digits && digits == value,
            _ => value.parse::<u8>().is_ok() && digits == value,
        }
    };
    let mut readable = Vec::new();
    let mut unreadable = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i];
        i += 1;
        // `go` is the command word, first; anywhere else it is a word no limit has.
        if (i == 1 && word == "go") || FLAGS.contains(&word) {
            readable.push(word);
        } else if NUMERIC.contains(&word) {
            let value = words.get(i).copied();
            let number = value.filter(|v| valid(word, v));
            match number {
                Some(v) => {
                    readable.extend([word, v]);
                    i += 1;
                }
                None => {
                    unreadable.push(match value {
                        Some(v) if !NUMERIC.contains(&v) && !FLAGS.contains(&v) => {
                            i += 1;
                            format!("'{v}' is not a valid value for {word}")
                        }
                        _ => format!("{word} has no value"),
                    });
                }
            }
        } else {
            unreadable.push(format!("unknown word '{word}'"));
        }
    }
    (readable, unreadable)
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

impl<W: Write> Session for Uci<W> {
    fn command(&mut self, line: &str) -> bool {
        Uci::command(self, line)
    }

    fn refuse_input(&mut self, why: &str) {
        self.error(why);
    }

    fn on_search_event(&mut self, event: SearchEvent) {
        match event {
            SearchEvent::Info { multipv, depth, seldepth, score, nodes, nps, time_ms, hashfull, pv, bound } => {
                let mut text = match score {
                    ScoreReport::Centipawns(cp) => format!("cp {cp}"),
                    ScoreReport::Mate(m) => format!("mate {m}"),
                };
                if self.engine.options().check(&options::SHOW_WDL) {
                    let wdl = Wdl::of(score);
                    text = format!("{text} wdl {} {} {}", wdl.win, wdl.draw, wdl.loss);
                }
                let score = match bound {
                    Bound::Exact => text,
                    Bound::Lower => format!("{text} lowerbound"),
                    Bound::Upper => format!("{text} upperbound"),
                };
                let line = format!(
                    "info depth {depth} seldepth {seldepth} multipv {multipv} score {score} nodes {nodes} nps {nps} hashfull {hashfull} time {time_ms} pv {}",
                    pv.join(" ")
                );
                self.say(line.trim_end());
            }
            SearchEvent::CurrMove { depth, currmove, number } => {
                self.say(&format!("info depth {depth} currmove {currmove} currmovenumber {number}"));
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

    fn search_events(&mut self) -> &mut Receiver<SearchEvent> {
        &mut self.events
    }

    /// End a running search and report what it still has to say (its best move above all):
    /// every `go` is answered by a `bestmove`, even when the GUI moves on without waiting.
    fn end_search(&mut self) {
        if self.engine.is_searching() {
            self.engine.stop();
        }
        self.engine.wait();
        while let Ok(e) = self.events.try_recv() {
            self.on_search_event(e);
        }
        self.events = never();
        self.pondering = None;
    }
}

#[cfg(test)]
mod tests {
    //! vampirc-uci stops reading a move list at the first move outside its grammar (a drop,
    //! a file past h, a rank past 8, a fairy promotion) and drops the rest without a word. These
    //! tests prove that each of those lists arrives whole through our own parser: the session's
    //! position is the one after the last move.

    use super::Uci;
    use crate::protocol::Session;
    use menagerie_rules::any::AnyPosition;
    use menagerie_rules::variant::by_name;

    fn session() -> Uci<Vec<u8>> {
        Uci::new(Vec::new()).expect("engine")
    }

    fn output(s: &Uci<Vec<u8>>) -> String {
        String::from_utf8_lossy(&s.out).into_owned()
    }

    /// Play `moves` from `fen` through a UCI `position` command and compare with the position
    /// reached by playing them one by one; also check that a list cut at `cut` would differ.
    fn arrives_whole(variant: &str, fen: &str, moves: &[&str], cut: usize) {
        let mut s = session();
        s.command(&format!("setoption name UCI_Variant value {variant}"));
        s.command(&format!("position fen {fen} moves {}", moves.join(" ")));
        assert!(!output(&s).contains("error"), "{}", output(&s));
        let v = by_name(variant).expect("variant");
        let mut whole = AnyPosition::from_fen(v, fen).expect("fen");
        let mut truncated = whole.clone();
        for (i, m) in moves.iter().enumerate() {
            whole.play_text(m).expect("move");
            if i < cut {
                truncated.play_text(m).expect("move");
            }
        }
        assert_eq!(s.engine.position().to_fen(), whole.to_fen());
        assert_ne!(whole.to_fen(), truncated.to_fen());
    }

    #[test]
    fn drops_arrive_whole() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Cc] w KQkq - 0 1";
        arrives_whole("vdchess", fen, &["C@e4", "e7e5", "e4c3", "c@d5", "c3d5"], 0);
        arrives_whole("vdchess", fen, &["e2e4", "c@e5", "g1f3"], 1);
    }

    #[test]
    fn files_past_h_arrive_whole() {
        let fen = "rgcnbqkbncgr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RGCNBQKBNCGR w KQkq - 0 1";
        arrives_whole("rvc", fen, &["i2i4", "l7l5", "k1l5", "a7a6"], 0);
    }

    #[test]
    fn fairy_promotions_arrive_whole() {
        let fen = "5qk5/4P7/12/12/12/12/12/4GCK5 w - - 0 1";
        arrives_whole("rvc", fen, &["e7e8c", "g8h8", "e8h7", "h8h7"], 0);
        arrives_whole("rvc", fen, &["e7e8g", "g8h8", "e8d4"], 0);
        let fen = "k7/4P3/8/8/8/8/8/4K3[Aa] w - - 0 1";
        arrives_whole("vdchess", fen, &["e7e8c", "a8b7", "e8e2"], 0);
    }

    #[test]
    fn aspiration_failures_print_their_bound() {
        use crate::engine::SearchEvent;
        use crate::search::{Bound, ScoreReport};
        let mut s = session();
        for (bound, score) in [
            (Bound::Lower, ScoreReport::Centipawns(31)),
            (Bound::Upper, ScoreReport::Mate(-3)),
            (Bound::Exact, ScoreReport::Centipawns(5)),
        ] {
            s.on_search_event(SearchEvent::Info {
                multipv: 1,
                depth: 12,
                seldepth: 20,
                score,
                nodes: 1000,
                nps: 2000,
                time_ms: 500,
                hashfull: 3,
                pv: vec!["e2e4".to_string()],
                bound,
            });
        }
        let out = output(&s);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines,
            [
                "info depth 12 seldepth 20 multipv 1 score cp 31 lowerbound nodes 1000 nps 2000 hashfull 3 time 500 pv e2e4",
                "info depth 12 seldepth 20 multipv 1 score mate -3 upperbound nodes 1000 nps 2000 hashfull 3 time 500 pv e2e4",
                "info depth 12 seldepth 20 multipv 1 score cp 5 nodes 1000 nps 2000 hashfull 3 time 500 pv e2e4",
            ]
        );
    }

    #[test]
    fn show_wdl_puts_the_split_after_the_score() {
        use crate::engine::SearchEvent;
        use crate::search::{Bound, ScoreReport, Wdl};
        let mut s = session();
        let info = |score, bound| SearchEvent::Info {
            multipv: 1,
            depth: 9,
            seldepth: 12,
            score,
            nodes: 10,
            nps: 20,
            time_ms: 5,
            hashfull: 0,
            pv: vec!["e2e4".to_string()],
            bound,
        };
        s.on_search_event(info(ScoreReport::Centipawns(40), Bound::Exact));
        s.command("setoption name UCI_ShowWDL value true");
        s.on_search_event(info(ScoreReport::Centipawns(40), Bound::Lower));
        s.on_search_event(info(ScoreReport::Mate(2), Bound::Exact));
        let wdl = Wdl::of(ScoreReport::Centipawns(40));
        let out = output(&s);
        let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("info depth")).collect();
        assert_eq!(
            lines,
            [
                "info depth 9 seldepth 12 multipv 1 score cp 40 nodes 10 nps 20 hashfull 0 time 5 pv e2e4".to_string(),
                format!(
                    "info depth 9 seldepth 12 multipv 1 score cp 40 wdl {} {} {} lowerbound nodes 10 nps 20 hashfull 0 time 5 pv e2e4",
                    wdl.win, wdl.draw, wdl.loss
                ),
                "info depth 9 seldepth 12 multipv 1 score mate 2 wdl 1000 0 0 nodes 10 nps 20 hashfull 0 time 5 pv e2e4".to_string(),
            ]
        );
    }

    #[test]
    fn ranks_past_8_are_refused_cleanly() {
        // No variant has more than eight ranks yet: a10 is refused with an error naming the
        // move, and the previous position stays.
        let mut s = session();
        s.command("position startpos moves e2e4");
        let before = s.engine.position().to_fen();
        s.command("position startpos moves e2e4 a7a10");
        assert!(
            output(&s).contains("info string error: move 2: illegal move 'a7a10': square a10 is not on the 8x8 board"),
            "{}",
            output(&s)
        );
        s.command("position fen 4k3/8/8/8/8/8/8/8/8/4K3 w - - 0 1");
        assert!(output(&s).contains("10 ranks, the board has 8"), "{}", output(&s));
        assert_eq!(s.engine.position().to_fen(), before);
    }

    #[test]
    fn searchmoves_with_fairy_moves_arrive_whole() {
        let mut s = session();
        s.command("setoption name UCI_Variant value vdchess");
        s.command("position fen 4k3/8/8/8/8/8/8/4K3[Cc] w - - 0 1");
        s.command("go depth 1 searchmoves C@e4 C@l9 e1d1");
        s.end_search();
        let out = output(&s);
        assert!(
            out.contains("info string error: searchmoves: illegal move 'C@l9': square l9 is not on the 8x8 board"),
            "{out}"
        );
        let best = out.lines().find_map(|l| l.strip_prefix("bestmove ")).unwrap_or("");
        assert!(best.starts_with("C@e4") || best.starts_with("e1d1"), "{out}");
    }

    /// Run one `go` line to its end; the error lines and the best move it printed.
    fn go_output(line: &str) -> (Vec<String>, Option<String>) {
        let mut s = session();
        s.command("position startpos");
        s.command(line);
        s.end_search();
        let out = output(&s);
        let errors = out.lines().filter(|l| l.starts_with("info string error")).map(str::to_string).collect();
        (errors, out.lines().find_map(|l| l.strip_prefix("bestmove ")).map(str::to_string))
    }

    #[test]
    fn a_go_with_unreadable_limits_reports_them_and_still_answers() {
        let (errors, best) = go_output("go nodes many");
        assert_eq!(
            errors,
            [
                "info string error: go: 'many' is not a valid value for nodes; ignored",
                "info string error: go: no readable limit; searching to depth 1",
            ]
        );
        assert!(best.is_some());
        // The readable limits are kept: depth 2 without the unknown word.
        let (errors, best) = go_output("go banana depth 2 mate");
        assert_eq!(
            errors,
            [
                "info string error: go: unknown word 'banana'; ignored",
                "info string error: go: mate has no value; ignored"
            ]
        );
        assert!(best.is_some());
        // Overdrawn clocks and long node counts are readable.
        for line in ["go wtime -50 btime 100 winc 0 binc 0", "go nodes 200 movetime 100000", "go depth 255 nodes 300"] {
            let (errors, best) = go_output(line);
            assert!(errors.is_empty(), "{line}: {errors:?}");
            assert!(best.is_some(), "{line}");
        }
        let (errors, _) = go_output("go depth 256 nodes 300");
        assert_eq!(errors, ["info string error: go: '256' is not a valid value for depth; ignored"]);
    }
}
