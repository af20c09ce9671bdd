//! One CECP session: the game (start position and moves), the modes (force, which side the engine
//! plays, analysis, pondering), the time control, and the engine's running search. Commands are
//! read while the engine searches: during a search for its own move, `?` moves now, clock and
//! display commands take effect at once, commands that change the game abandon the search, and
//! everything else (`ping` above all) waits until the move has been sent, so that `pong N` means
//! every earlier command is done.
//!
//! Owns: `Xboard`, the session state and command dispatch.
//! Must not know: search internals, rules internals.

use super::clock::Clock;
use super::codec::MoveCodec;
use super::highlight;
use super::setup::{self, XBOARD_BUILT_IN};
use crate::engine::options::{Effect, HASH, RANDOM_START, THREADS};
use crate::engine::{Engine, Frontend, SearchEvent};
use crate::pregame;
use crate::protocol::option_text;
use crate::search::{Bound, ScoreReport, SearchLimits};
use crossbeam_channel::{never, Receiver};
use menagerie_rules::game::{Game, Outcome};
use menagerie_rules::geometry::Color;
use menagerie_rules::startpos::{castles_as_chess960, random_index, start_fen};
use menagerie_rules::variant::{self, Variant};
use menagerie_rules::with_position;
use std::collections::VecDeque;
use std::io::Write;

/// What the engine's search is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Activity {
    Idle,
    /// Searching for its own move, which it will play.
    Thinking,
    /// Searching while the opponent thinks (the result is thrown away; the table keeps it).
    Pondering,
    /// Analyse mode: searching until told otherwise.
    Analysing,
}

/// Commands handled at once even while the engine thinks on its move.
const IMMEDIATE: [&str; 20] = [
    "post", "nopost", "hard", "easy", "time", "otim", "accepted", "rejected", "computer", "name", "rating", "ics",
    "random", ".", "lift", "put", "hover", "hint", "bk", "draw",
];

/// Commands that change the game: a search for the engine's own move is abandoned for them.
const INTERRUPTING: [&str; 15] = [
    "new",
    "force",
    "result",
    "undo",
    "remove",
    "setboard",
    "variant",
    "analyze",
    "playother",
    "go",
    "usermove",
    "white",
    "black",
    "exit",
    "draw",
];

/// The last iteration reported, for the `.` status line.
#[derive(Clone, Debug, Default)]
struct Status {
    time_cs: u64,
    nodes: u64,
    depth: u32,
    best: String,
}

/// A CECP session writing to `out`.
pub struct Xboard<W: Write> {
    engine: Engine,
    out: W,
    events: Receiver<SearchEvent>,
    activity: Activity,
    game: Game,
    /// The game's start position, in the engine's rank numbering.
    start_fen: String,
    codec: MoveCodec,
    /// The variant's king starts on different files (Chess960 castling).
    chess960_castling: bool,
    force: bool,
    /// The side the engine plays when not in force mode.
    engine_side: Color,
    /// A result was claimed or announced: the engine plays no more moves in this game.
    game_over: bool,
    analysing: bool,
    post: bool,
    ponder: bool,
    clock: Clock,
    /// Root moves left out of the search (`exclude`), engine texts.
    excluded: Vec<String>,
    /// Commands that wait for the engine's move.
    deferred: VecDeque<String>,
    status: Status,
    random_state: u64,
    /// The last randomly drawn start (variant name, FEN), kept until a move is played from it:
    /// XBoard repeats `new` + `variant` before a game and applies only the first `setup`, so a
    /// repeated `variant` must describe the same position.
    drawn: Option<(String, String)>,
}

impl<W: Write> Xboard<W> {
    /// A session writing to `out`, in orthodox chess at the start position.
    pub fn new(out: W) -> Option<Xboard<W>> {
        let engine = Engine::new("chess").ok()?;
        let start_fen = engine.default_start_fen().ok()?;
        let game = Game::new(engine.variant(), &start_fen).ok()?;
        Some(Xboard {
            codec: MoveCodec::new(engine.variant().geometry.ranks, false),
            engine,
            out,
            events: never(),
            activity: Activity::Idle,
            game,
            start_fen,
            chess960_castling: false,
            force: false,
            engine_side: Color::Black,
            game_over: false,
            analysing: false,
            post: false,
            ponder: false,
            clock: Clock::default(),
            excluded: Vec::new(),
            deferred: VecDeque::new(),
            status: Status::default(),
            random_state: menagerie_rules::random::clock_seed(),
            drawn: None,
        })
    }

    /// The engine behind the session, as the commands so far have set it.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    fn say(&mut self, line: &str) {
        let _ = writeln!(self.out, "{line}");
        let _ = self.out.flush();
    }

    /// Run until `quit` or the end of input; `lines` delivers stdin lines from a reader thread.
    pub fn run(&mut self, lines: Receiver<crate::protocol::Input>) {
        crate::protocol::run_session(self, lines);
    }

    /// Handle one command line; false on `quit`.
    pub fn command(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (cmd, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        if cmd.is_empty() {
            return true;
        }
        if cmd == "quit" {
            return false;
        }
        match self.activity {
            Activity::Thinking => {
                if cmd == "?" {
                    self.engine.stop();
                    return true;
                }
                if IMMEDIATE.contains(&cmd) {
                    self.dispatch(cmd, args, line);
                    return true;
                }
                if INTERRUPTING.contains(&cmd) || self.looks_like_move(line) {
                    self.abandon_search();
                } else {
                    self.deferred.push_back(line.to_string());
                    return true;
                }
            }
            Activity::Pondering | Activity::Analysing => {
                if !IMMEDIATE.contains(&cmd) && cmd != "ping" {
                    self.abandon_search();
                }
            }
            Activity::Idle => {}
        }
        self.dispatch(cmd, args, line);
        self.resume();
        true
    }

    fn dispatch(&mut self, cmd: &str, args: &str, line: &str) {
        match cmd {
            "xboard" | "accepted" | "rejected" | "computer" | "name" | "rating" | "ics" | "random" | "hint" | "bk"
            | "draw" | "put" | "hover" | "white" | "black" | "?" => {}
            "protover" => self.features(),
            "new" => self.new_game(),
            "variant" => self.variant(args),
            "force" => self.force = true,
            "go" => {
                self.force = false;
                self.engine_side = self.side_to_move();
            }
            "playother" => {
                self.force = false;
                self.engine_side = self.side_to_move().flip();
            }
            "setboard" => self.setboard(args),
            "usermove" => self.user_move(args),
            "undo" => self.take_back(1, line),
            "remove" => self.take_back(2, line),
            "result" => self.game_over = true,
            "hard" => self.ponder = true,
            "easy" => {
                self.ponder = false;
                if self.activity == Activity::Pondering {
                    self.abandon_search();
                }
            }
            "post" => self.post = true,
            "nopost" => self.post = false,
            "ping" => self.say(&format!("pong {args}")),
            // The GUI's own words for two options: checked as the options are.
            "memory" => self.set_option(HASH.name, args, line),
            "cores" => self.set_option(THREADS.name, args, line),
            "option" => {
                let (name, value) = args.split_once('=').unwrap_or((args, ""));
                self.set_option(name, value, line);
            }
            "level" | "st" | "sd" | "nps" | "time" | "otim" => {
                let read = match cmd {
                    "level" => self.clock.level(args),
                    "st" => self.clock.fixed_time(args),
                    "sd" => self.clock.depth(args),
                    "nps" => self.clock.nodes_per_second(args),
                    _ => self.clock.set_clock(cmd == "time", args),
                };
                if let Err(e) = read {
                    self.say(&format!("Error ({e}): {line}"));
                }
            }
            "analyze" => self.analysing = true,
            "exit" => self.analysing = false,
            "." => self.status(),
            "exclude" | "include" => self.restrict(cmd == "exclude", args),
            "lift" => self.lift(args),
            // Our own extension, shared with UCI: it searches on its own and changes nothing.
            // Without a budget, the decision follows the time control XBoard set.
            "pregame" => match pregame::protocol_command(
                line,
                &self.engine,
                pregame::Budget::for_game(&self.clock.limits(Color::White, 0)),
            ) {
                Ok(lines) => lines.iter().for_each(|l| self.say(l)),
                Err(e) => self.say(&format!("Error ({e}): {line}")),
            },
            _ if self.looks_like_move(line) => self.user_move(line),
            _ => self.say(&format!("Error (unknown command): {line}")),
        }
    }

    /// Whether a line without a known command reads as a move (protocol 1 sends bare moves).
    fn looks_like_move(&self, line: &str) -> bool {
        let t = line.trim();
        let b = t.as_bytes();
        !t.contains(char::is_whitespace)
            && (t.starts_with("O-O")
                || t.contains('@')
                || (b.len() >= 4 && b[0].is_ascii_lowercase() && b[1].is_ascii_digit()))
    }

    fn features(&mut self) {
        self.say("feature done=0");
        let name = format!("Menagerie {}", env!("CARGO_PKG_VERSION"));
        self.say(&format!(
            "feature myname=\"{name}\" setboard=1 usermove=1 ping=1 playother=1 san=0 sigint=0 sigterm=0 reuse=1 \
             analyze=1 colors=0 time=1 draw=1 exclude=1 memory=1 smp=1 debug=1 highlight=1 nps=1 name=0"
        ));
        self.say(&format!("feature variants=\"{}\"", setup::gui_variants().join(",")));
        for line in option_text::offer_lines(Frontend::Xboard) {
            self.say(&line);
        }
        self.say("feature done=1");
    }

    /// Set an option through the registry (a Ruleset change applies from the next `new` or
    /// `variant`); a value that is not allowed is answered with an error and changes nothing.
    fn set_option(&mut self, name: &str, value: &str, line: &str) {
        let value = option_text::xboard_value(name, value);
        match self.engine.set_option(Frontend::Xboard, name, value) {
            Ok(option) if option.effect == Effect::Variants => {
                for refusal in self.engine.take_variant_refusals() {
                    self.say(&format!("# {refusal}"));
                }
                self.say(&format!("feature variants=\"{}\"", setup::gui_variants().join(",")));
            }
            Ok(_) => {}
            Err(e) => self.say(&format!("Error ({e}): {line}")),
        }
    }

    // ---- game state -------------------------------------------------------------------------

    fn side_to_move(&self) -> Color {
        with_position!(self.game.position(), p => p.side_to_move())
    }

    /// Start a game of `variant` at `fen` (engine numbering); nothing changes on error.
    fn start_game(&mut self, variant: &'static Variant, fen: &str) -> Result<(), String> {
        let game = Game::new(variant, fen).map_err(|e| e.to_string())?;
        self.chess960_castling = castles_as_chess960(variant);
        self.codec = MoveCodec::new(variant.geometry.ranks, self.chess960_castling);
        self.game = game;
        self.start_fen = fen.to_string();
        self.excluded.clear();
        self.game_over = false;
        Ok(())
    }

    /// Switch the engine to a variant (by our name) at its default start position.
    fn load_variant(&mut self, name: &str) -> Result<&'static Variant, String> {
        if self.engine.variant().name != name || self.game.position().variant().name != name {
            self.engine.set_variant(name).map_err(|e| e.to_string())?;
        }
        let v = self.engine.variant();
        let fen = self.engine.default_start_fen().map_err(|e| e.to_string())?;
        self.start_game(v, &fen)?;
        Ok(v)
    }

    /// The variant a name XBoard sends is played as: XBoard's own names as the Ruleset says.
    fn our_name<'a>(&self, gui_name: &'a str) -> &'a str {
        if XBOARD_BUILT_IN.contains(&gui_name) {
            self.engine.options().rules_for(gui_name)
        } else {
            gui_name
        }
    }

    fn new_game(&mut self) {
        self.force = false;
        self.engine_side = Color::Black;
        self.analysing = false;
        self.clock.set_depth(None);
        let name = variant::by_name(self.our_name("normal")).map(|v| v.name.clone()).unwrap_or_default();
        if let Err(e) = self.load_variant(&name) {
            self.say(&format!("Error ({e}): new"));
        }
        self.engine.new_game();
    }

    fn variant(&mut self, gui_name: &str) {
        let gui_name = gui_name.trim().to_ascii_lowercase();
        let Ok(v) = variant::by_name(self.our_name(&gui_name)) else {
            self.say(&format!("Error (unsupported variant): variant {gui_name}"));
            return;
        };
        if let Err(e) = self.load_variant(&v.name.clone()) {
            self.say(&format!("Error ({e}): variant {gui_name}"));
            return;
        }
        if XBOARD_BUILT_IN.contains(&gui_name.as_str()) {
            return;
        }
        // An engine-defined variant: we tell XBoard the board, pieces and start position, drawn
        // at random when so set (these are games of random arrays). The same draw stands until a
        // move is played: XBoard repeats `new` + `variant` before a game.
        let drawn = match &self.drawn {
            Some((name, fen)) if *name == v.name => Some(fen.clone()),
            _ => None,
        };
        let fen = match drawn {
            Some(fen) => Some(fen),
            None if self.engine.options().check(&RANDOM_START) && v.start_count() > 1 => {
                self.random_state = self.random_state.wrapping_add(0x9E37_79B9_7F4A_7C15);
                start_fen(v, random_index(v.start_count(), self.random_state)).ok()
            }
            None => None,
        };
        if let Some(fen) = fen {
            match self.start_game(v, &fen) {
                Ok(()) => self.drawn = Some((v.name.clone(), fen)),
                Err(e) => log::warn!("random start {fen} of {}: {e}", v.name),
            }
        }
        self.describe();
    }

    /// Tell XBoard the variant and the game's start position: `setup` and `piece` lines.
    fn describe(&mut self) {
        let fen = self.codec.fen_out(&self.start_fen);
        let gui = setup::describe(self.game.position(), &fen, self.chess960_castling);
        self.say(&gui.setup);
        for line in &gui.pieces {
            self.say(line);
        }
        for piece in &gui.untaught {
            self.say(&format!("# XBoard cannot read the moves of {piece}: play with legality testing off"));
        }
    }

    fn setboard(&mut self, fen: &str) {
        let fen = self.codec.fen_in(fen.trim());
        let variant = self.engine.variant();
        if let Err(e) = self.start_game(variant, &fen) {
            self.say(&format!("tellusererror Illegal position: {e}"));
        }
    }

    fn user_move(&mut self, text: &str) {
        match self.codec.read(self.game.position(), text) {
            Ok(m) => {
                if self.game.play(&m).is_err() {
                    self.say(&format!("Illegal move: {}", text.trim()));
                    return;
                }
                self.excluded.clear();
                self.drawn = None;
            }
            Err(e) => match e.reason() {
                Some(reason) => self.say(&format!("Illegal move ({reason}): {}", text.trim())),
                None => self.say(&format!("Illegal move: {}", text.trim())),
            },
        }
    }

    fn take_back(&mut self, plies: usize, line: &str) {
        let moves = self.game.moves().to_vec();
        if moves.len() < plies {
            self.say(&format!("Error (no move to take back): {line}"));
            return;
        }
        let Ok(mut game) = Game::new(self.game.position().variant(), &self.start_fen) else { return };
        for m in &moves[..moves.len() - plies] {
            if game.play(m).is_err() {
                return;
            }
        }
        self.game = game;
        self.excluded.clear();
        self.game_over = false;
    }

    fn restrict(&mut self, exclude: bool, args: &str) {
        if args == "all" {
            self.excluded = if exclude { self.game.position().legal_moves_uci(false) } else { Vec::new() };
            return;
        }
        match self.codec.read(self.game.position(), args) {
            Ok(m) => {
                self.excluded.retain(|x| *x != m);
                if exclude {
                    self.excluded.push(m);
                }
            }
            Err(_) => self.say(&format!("Illegal move: {args}")),
        }
    }

    fn lift(&mut self, what: &str) {
        let square = self.codec.square_in(what.trim());
        if let Some(board) = highlight::targets(self.game.position(), &square) {
            self.say(&format!("highlight {board}"));
        }
    }

    fn status(&mut self) {
        if self.activity != Activity::Analysing {
            return;
        }
        let total = self.game.position().legal_moves_uci(false).len();
        let s = self.status.clone();
        self.say(&format!("stat01: {} {} {} {total} {total} {}", s.time_cs, s.nodes, s.depth, s.best));
    }

    // ---- searching --------------------------------------------------------------------------

    /// Start whatever search the modes ask for, if none runs.
    fn resume(&mut self) {
        if self.activity != Activity::Idle {
            return;
        }
        if self.analysing {
            if self.start_search(SearchLimits { infinite: true, ..SearchLimits::default() }) {
                self.activity = Activity::Analysing;
            }
            return;
        }
        if self.force || self.game_over {
            return;
        }
        if self.side_to_move() == self.engine_side {
            if let Some(outcome) = self.game.outcome() {
                self.claim(outcome);
                return;
            }
            let limits = self.clock.limits(self.engine_side, self.own_moves());
            if self.start_search(limits) {
                self.activity = Activity::Thinking;
            }
        } else if self.ponder
            && self.game.outcome().is_none()
            && self.start_search(SearchLimits { ponder: true, ..SearchLimits::default() })
        {
            self.activity = Activity::Pondering;
        }
    }

    /// Moves the engine's side has made in this game.
    fn own_moves(&self) -> u32 {
        let plies = self.game.moves().len() as u32;
        let first = with_position!(self.game.start(), p => p.side_to_move());
        let by_first = plies.div_ceil(2);
        if first == self.engine_side {
            by_first
        } else {
            plies - by_first
        }
    }

    fn start_search(&mut self, limits: SearchLimits) -> bool {
        if let Err(e) = self.engine.set_position(&self.start_fen, self.game.moves()) {
            log::error!("the engine refused the game: {e}");
            return false;
        }
        self.status = Status::default();
        let events = if self.excluded.is_empty() {
            if !with_position!(self.game.position(), p => p.has_legal_move()) {
                return false;
            }
            Ok(self.engine.go(limits))
        } else {
            let allowed: Vec<String> = self
                .game
                .position()
                .legal_moves_uci(false)
                .into_iter()
                .filter(|m| !self.excluded.contains(m))
                .collect();
            if allowed.is_empty() {
                return false;
            }
            self.engine.go_restricted(limits, &allowed)
        };
        match events {
            Ok(rx) => {
                self.events = rx;
                true
            }
            Err(e) => {
                log::error!("cannot search: {e}");
                false
            }
        }
    }

    /// Stop the running search and drop what it still reports.
    fn abandon_search(&mut self) {
        if self.activity != Activity::Idle || self.engine.is_searching() {
            self.engine.stop();
            self.engine.wait();
        }
        self.events = never();
        self.activity = Activity::Idle;
    }

    fn on_event(&mut self, event: SearchEvent) {
        match event {
            // A failed aspiration window only bounds the score: thinking output shows exact ones.
            SearchEvent::Info { bound, .. } if bound != Bound::Exact => {}
            SearchEvent::Info { depth, score, nodes, time_ms, pv, .. } => {
                let pv = self.gui_line(&pv);
                self.status =
                    Status { time_cs: time_ms / 10, nodes, depth, best: pv.first().cloned().unwrap_or_default() };
                let show = match self.activity {
                    Activity::Thinking => self.post,
                    Activity::Analysing => true,
                    _ => false,
                };
                if show {
                    let score = match score {
                        ScoreReport::Centipawns(cp) => cp,
                        ScoreReport::Mate(m) if m > 0 => 100_000 + m,
                        ScoreReport::Mate(m) => -100_000 + m,
                    };
                    self.say(format!("{depth} {score} {} {nodes} {}", time_ms / 10, pv.join(" ")).trim_end());
                }
            }
            SearchEvent::CurrMove { .. } => {}
            SearchEvent::BestMove { best, .. } => {
                if self.activity != Activity::Thinking {
                    return;
                }
                self.activity = Activity::Idle;
                self.events = never();
                self.play_own(best);
                let pending: Vec<String> = self.deferred.drain(..).collect();
                for line in pending {
                    self.command(&line);
                }
                self.resume();
            }
        }
    }

    /// A line of engine moves in XBoard's text, cut at the first that cannot be played.
    fn gui_line(&self, pv: &[String]) -> Vec<String> {
        let mut position = self.game.position().clone();
        let mut out = Vec::with_capacity(pv.len());
        for m in pv {
            let Ok(text) = self.codec.write(&position, m) else { break };
            if position.play_text(m).is_err() {
                break;
            }
            out.push(text);
        }
        out
    }

    fn play_own(&mut self, best: Option<String>) {
        let Some(best) = best else {
            if let Some(outcome) = self.game.outcome() {
                self.claim(outcome);
            }
            return;
        };
        let text = match self.codec.write(self.game.position(), &best) {
            Ok(t) => t,
            Err(e) => {
                log::error!("the search returned a move that cannot be played: {e}");
                return;
            }
        };
        if let Err(e) = self.game.play(&best) {
            log::error!("the search returned a move that cannot be played: {e}");
            return;
        }
        self.drawn = None;
        self.say(&format!("move {text}"));
        if let Some(outcome) = self.game.outcome() {
            self.claim(outcome);
        }
    }

    fn claim(&mut self, outcome: Outcome) {
        self.say(&outcome.to_string());
        self.game_over = true;
    }
}

impl<W: Write> crate::protocol::Session for Xboard<W> {
    fn command(&mut self, line: &str) -> bool {
        Xboard::command(self, line)
    }

    fn search_events(&mut self) -> &mut Receiver<SearchEvent> {
        &mut self.events
    }

    fn refuse_input(&mut self, why: &str) {
        self.say(&format!("Error (line too long): {why}"));
    }

    fn on_search_event(&mut self, event: SearchEvent) {
        self.on_event(event);
    }

    fn end_search(&mut self) {
        self.abandon_search();
    }
}
