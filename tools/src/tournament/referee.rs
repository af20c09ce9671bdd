//! One refereed game: the pre-game when asked for (each step of the pre-game `Sequence` put to
//! the engine whose choice it is, or chosen for it at random from the step's options), the
//! clocks, every engine move checked by the rules core, the end by the variant's rules,
//! forfeits (time, illegal move, crash, hang, false claims, resignation, illegal pre-game
//! choice) and adjudication (resign score, draw score, move limit).
//!
//! Owns: `Pairing`, `GameRecord`, `PlayedMove`, `play_game`, the wording of forfeits and
//! adjudications.
//! Must not know: UCI/XBoard text (the `Client`s), scheduling, PGN layout, statistics, the
//! pre-game order and its legal options (`pregame::Sequence`), the text of an end by the rules
//! (`game::Outcome`).

use super::client::{render_move, Answer, Client, MoveStyle, Reply, Score, Turn};
use super::engine_process::{EngineError, PregameMode};
use super::{Adjudication, GameOptions, TimeControl};
use menagerie_engine::pregame::{self, Budget, PregameError, Sequence, StepKind};
use menagerie_rules::any::AnyPosition;
use menagerie_rules::game::{side_name, Game, Outcome};
use menagerie_rules::geometry::Color;
use menagerie_rules::random::SplitMix64;
use menagerie_rules::variant::Variant;
use menagerie_rules::with_position;
use std::time::{Duration, Instant};

/// One game to play: engines `a` and `b` (indices into the engine list), the variant, the start
/// FEN, and who is White (with a side choice: who wins the coin toss).
#[derive(Clone, Debug)]
pub struct Pairing {
    pub round: usize,
    pub a: usize,
    pub b: usize,
    pub variant: &'static Variant,
    pub fen: String,
    /// `a` plays White; with a D-Chess side choice: `a` wins the toss.
    pub a_first: bool,
    /// Play the variant's pre-game (side choice, transposition, relocations).
    pub pregame: bool,
    pub seed: u64,
}

/// A move as played, for the PGN.
#[derive(Clone, Debug)]
pub struct PlayedMove {
    pub san: String,
    pub uci: String,
    pub score: Option<Score>,
    pub depth: Option<u32>,
    pub ms: u64,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct GameRecord {
    pub round: usize,
    pub white: String,
    pub black: String,
    /// Engine indices of White and Black.
    pub white_index: usize,
    pub black_index: usize,
    pub variant: String,
    /// The position the moves start from (after the pre-game).
    pub fen: String,
    /// What happened in the pre-game, if anything.
    pub pregame: Option<String>,
    pub moves: Vec<PlayedMove>,
    /// `1-0`, `0-1`, `1/2-1/2`.
    pub result: String,
    /// White's points: 1, 0, 0.5, or 0.6/0.4 for a stalemate scored 3/5.
    pub white_score: f64,
    pub termination: String,
    /// The reason in words (PGN comment after the moves).
    pub reason: String,
    pub time_control: String,
}

/// How a game ended, before it is written down.
struct Ending {
    result: &'static str,
    white_score: f64,
    termination: String,
    reason: String,
}

fn win(winner: Color, termination: &str, reason: String) -> Ending {
    let (result, white_score) = if winner == Color::White { ("1-0", 1.0) } else { ("0-1", 0.0) };
    Ending { result, white_score, termination: termination.to_string(), reason }
}

fn draw(termination: &str, reason: String) -> Ending {
    Ending { result: "1/2-1/2", white_score: 0.5, termination: termination.to_string(), reason }
}

/// The ending by the variant's rules.
fn rules_ending(o: Outcome) -> Ending {
    Ending { result: o.result(), white_score: o.white_score(), termination: o.termination(), reason: o.reason() }
}

/// The loss of `side` for an engine failure.
fn failure(side: Color, name: &str, e: &EngineError, clocked: bool) -> Ending {
    let (termination, what) = match e {
        EngineError::Timeout { .. } if clocked => ("time forfeit", "loses on time".to_string()),
        EngineError::Timeout { waiting_for, .. } => ("protocol hang", format!("hangs (no {waiting_for})")),
        EngineError::Exited { .. } | EngineError::Write { .. } => ("engine crash", "crashed".to_string()),
        EngineError::Spawn { error, .. } => ("engine crash", format!("cannot be started: {error}")),
        EngineError::Protocol { message, .. } => ("protocol error", message.clone()),
        EngineError::BadSpec(m) => ("protocol error", m.clone()),
    };
    win(side.flip(), termination, format!("{} ({}) {what}", name, side_name(side)))
}

/// Deterministic pseudo-random choice among `options`.
fn pick<'a>(rng: &mut SplitMix64, options: &'a [String]) -> &'a str {
    options.get(rng.index(options.len())).map(String::as_str).unwrap_or("none")
}

/// The outcome of the pre-game: the start FEN, whether `a` plays White, a description; or a
/// forfeit by one engine (`a` = true when `a` fails).
enum Pregame {
    Done { fen: String, a_white: bool, note: Option<String> },
    Forfeit { a_fails: bool, a_white: bool, ending_reason: String, termination: &'static str },
}

struct Side<'a> {
    client: &'a mut dyn Client,
    mode: PregameMode,
}

/// Ask an engine for the decision of step `kind` (or choose at random for it among `options`).
fn ask(
    side: &mut Side,
    rng: &mut SplitMix64,
    kind: StepKind,
    seq: &Sequence,
    options: &[String],
    opts: &GameOptions,
) -> Result<String, (String, &'static str)> {
    if side.mode == PregameMode::Random {
        return Ok(pick(rng, options).to_string());
    }
    let wait_ms = match opts.pregame_budget {
        Budget::MoveTime { ms } => ms + opts.hang_ms.min(5_000),
        Budget::Depth(_) | Budget::Nodes(_) => opts.hang_ms,
    };
    let deadline = Instant::now() + Duration::from_millis(wait_ms);
    let line = format!("{} {}", pregame::request(kind, &seq.variant().name, seq.fen()), opts.pregame_budget);
    match side.client.pregame(&line, deadline) {
        Ok(answer) => Ok(answer),
        Err(e) => {
            let term = match e {
                EngineError::Timeout { .. } => "protocol hang",
                EngineError::Exited { .. } | EngineError::Write { .. } => "engine crash",
                _ => "protocol error",
            };
            side.client.kill();
            Err((format!("{} failed in the pre-game: {e}", side.client.name()), term))
        }
    }
}

/// Why an answer to step `kind` is refused: it is not one choice (`None`), or the rules forbid it.
fn illegal_choice(kind: StepKind, name: &str, answer: &str, e: Option<PregameError>) -> String {
    match (kind, e) {
        (StepKind::Side, _) => format!("{name} gave an illegal side choice '{answer}'"),
        (_, Some(PregameError::IllegalChoice(m))) => format!("{name}: {m}"),
        (_, Some(e)) => format!("{name}: {e}"),
        (_, None) => format!("{name} gave an unreadable pre-game answer '{answer}'"),
    }
}

/// The variant's pre-game, each step asked of the engine whose choice it is. With a side
/// choice, `a_first` says who wins the coin toss, and who plays White is known once he chooses.
fn run_pregame<'x>(p: &Pairing, a: &mut Side<'x>, b: &mut Side<'x>, opts: &GameOptions) -> Pregame {
    let Ok(mut seq) = Sequence::new(p.variant, &p.fen) else {
        return Pregame::Done { fen: p.fen.clone(), a_white: p.a_first, note: None };
    };
    let mut rng = SplitMix64::new(p.seed ^ 0x5eed_0f9a_3e00);
    let mut a_white = p.a_first;
    let mut notes = Vec::new();
    while let Some(kind) = seq.next() {
        let a_asked = match kind.chooser() {
            // The side choice is the coin-toss winner's.
            None => p.a_first,
            Some(c) => (c == Color::White) == a_white,
        };
        let side = if a_asked { &mut *a } else { &mut *b };
        let options = seq.options().unwrap_or_default();
        let answer = match ask(side, &mut rng, kind, &seq, &options, opts) {
            Ok(answer) => answer,
            Err((reason, termination)) => {
                return Pregame::Forfeit { a_fails: a_asked, a_white, ending_reason: reason, termination }
            }
        };
        let name = side.client.name().to_string();
        let applied = match pregame::choice_in(kind, &answer) {
            Some(choice) => seq.apply(choice).map(|()| choice.to_string()).map_err(Some),
            None => Err(None),
        };
        let choice = match applied {
            Ok(choice) => choice,
            Err(e) => {
                return Pregame::Forfeit {
                    a_fails: a_asked,
                    a_white,
                    ending_reason: illegal_choice(kind, &name, &answer, e),
                    termination: "illegal pre-game choice",
                }
            }
        };
        notes.push(match kind {
            StepKind::Side => {
                let taken = kind.chooser_after(&choice);
                a_white = (taken == Color::White) == p.a_first;
                format!("{name} won the toss and chose {}", side_name(taken))
            }
            StepKind::Swap(_) => format!("{name} moves first, transposition {choice}"),
            StepKind::Relocate(c) => format!("{name} ({c}) relocates {choice}"),
        });
    }
    Pregame::Done { fen: seq.fen().to_string(), a_white, note: Some(notes.join("; ")) }
}

/// Scores per side for adjudication, most recent last.
#[derive(Default)]
struct ScoreLog {
    white: Vec<i32>,
    black: Vec<i32>,
}

impl ScoreLog {
    fn last(list: &[i32], n: usize) -> Option<&[i32]> {
        (list.len() >= n && n > 0).then(|| &list[list.len() - n..])
    }

    fn adjudicate(&self, adj: &Adjudication, fullmove: u32) -> Option<Ending> {
        if let Some(r) = adj.resign {
            let n = r.count as usize;
            for (loser, own, other) in
                [(Color::White, &self.white, &self.black), (Color::Black, &self.black, &self.white)]
            {
                if let (Some(l), Some(w)) = (Self::last(own, n), Self::last(other, n)) {
                    if l.iter().all(|&s| s <= -r.score) && w.iter().all(|&s| s >= r.score) {
                        let reason = format!("both engines agree {} is lost (resign score)", side_name(loser));
                        return Some(win(loser.flip(), "adjudication", reason));
                    }
                }
            }
        }
        if let Some(d) = adj.draw {
            let n = d.count as usize;
            if fullmove >= d.move_number {
                if let (Some(w), Some(b)) = (Self::last(&self.white, n), Self::last(&self.black, n)) {
                    if w.iter().chain(b).all(|&s| s.abs() <= d.score) {
                        return Some(draw("adjudication", "both engines see a draw (draw score)".to_string()));
                    }
                }
            }
        }
        None
    }
}

/// Play one game between `clients[p.a]` and `clients[p.b]`.
pub fn play_game<'c>(
    p: &Pairing,
    a: &'c mut dyn Client,
    b: &'c mut dyn Client,
    modes: [PregameMode; 2],
    opts: &GameOptions,
) -> GameRecord {
    let (a_name, b_name) = (a.name().to_string(), b.name().to_string());
    let tc = opts.tc;
    let clocked = matches!(tc, TimeControl::Clock { .. } | TimeControl::MoveTime(_));
    let record = |a_white: bool, fen: &str, note: Option<String>, moves: Vec<PlayedMove>, e: Ending| GameRecord {
        round: p.round,
        white: if a_white { a_name.clone() } else { b_name.clone() },
        black: if a_white { b_name.clone() } else { a_name.clone() },
        white_index: if a_white { p.a } else { p.b },
        black_index: if a_white { p.b } else { p.a },
        variant: p.variant.name.clone(),
        fen: fen.to_string(),
        pregame: note,
        moves,
        result: e.result.to_string(),
        white_score: e.white_score,
        termination: e.termination,
        reason: e.reason,
        time_control: tc.pgn(),
    };
    // Start both engines (a restart after a crash in the previous game).
    for (is_a, c) in [(true, &mut *a), (false, &mut *b)] {
        if let Err(e) = c.ensure_started() {
            let a_white = p.a_first;
            let side = if is_a == a_white { Color::White } else { Color::Black };
            let ending = failure(side, c.name(), &e, false);
            return record(a_white, &p.fen, None, Vec::new(), ending);
        }
    }
    let mut sa = Side { client: &mut *a, mode: modes[0] };
    let mut sb = Side { client: &mut *b, mode: modes[1] };
    let (fen, a_white, note) = if p.pregame {
        match run_pregame(p, &mut sa, &mut sb, opts) {
            Pregame::Done { fen, a_white, note } => (fen, a_white, note),
            Pregame::Forfeit { a_fails, a_white, ending_reason, termination } => {
                let loser = if a_fails == a_white { Color::White } else { Color::Black };
                let ending = win(loser.flip(), termination, ending_reason);
                return record(a_white, &p.fen, None, Vec::new(), ending);
            }
        }
    } else {
        (p.fen.clone(), p.a_first, None)
    };
    let (white, black) = if a_white { (sa.client, sb.client) } else { (sb.client, sa.client) };
    let mut clients: [&mut dyn Client; 2] = [white, black];
    let finish = |clients: &mut [&mut dyn Client; 2], e: &Ending| {
        for c in clients.iter_mut() {
            c.game_over(e.result, &e.reason);
        }
    };
    let mut game = match Game::new(p.variant, &fen) {
        Ok(g) => g,
        Err(e) => {
            // A bad start position is the schedule's fault; nobody gets the point.
            let ending = draw("abandoned", format!("bad start position: {e}"));
            finish(&mut clients, &ending);
            return record(a_white, &fen, note, Vec::new(), ending);
        }
    };
    let mut styles = [MoveStyle::Coordinates; 2];
    for (i, c) in clients.iter_mut().enumerate() {
        match c.new_game(p.variant, &fen, &tc) {
            Ok(s) => styles[i] = s,
            Err(e) => {
                let side = if i == 0 { Color::White } else { Color::Black };
                let ending = failure(side, c.name(), &e, false);
                c.kill();
                finish(&mut clients, &ending);
                return record(a_white, &fen, note, Vec::new(), ending);
            }
        }
    }
    let mut texts: [Vec<String>; 2] = [Vec::new(), Vec::new()];
    let mut played = Vec::new();
    let mut clock = match tc {
        TimeControl::Clock { base_ms, .. } => [base_ms, base_ms],
        _ => [0, 0],
    };
    let mut scores = ScoreLog::default();
    let ending = loop {
        if let Some(o) = game.outcome() {
            break rules_ending(o);
        }
        if let Some(max) = opts.adjudication.max_moves {
            if played.len() as u32 >= 2 * max {
                break draw("adjudication", format!("move limit of {max} moves"));
            }
        }
        let pos: AnyPosition = game.position().clone();
        let side = with_position!(&pos, q => q.side_to_move());
        let i = side.index();
        let budget = match tc {
            TimeControl::Clock { .. } => clock[i],
            TimeControl::MoveTime(ms) => ms,
            _ => opts.hang_ms,
        };
        let started = Instant::now();
        let turn = Turn {
            start_fen: &fen,
            moves: &texts[i],
            color: side,
            white_ms: clock[0],
            black_ms: clock[1],
            tc: &tc,
            deadline: started + Duration::from_millis(budget + if clocked { opts.grace_ms } else { 0 }),
        };
        let answer = clients[i].think(&turn);
        let ms = started.elapsed().as_millis() as u64;
        let Answer { reply, score, depth } = match answer {
            Ok(a) => a,
            Err(e) => {
                let ending = failure(side, clients[i].name(), &e, clocked);
                clients[i].kill();
                break ending;
            }
        };
        if let TimeControl::Clock { inc_ms, .. } = tc {
            if ms > clock[i] + opts.grace_ms {
                break failure(
                    side,
                    clients[i].name(),
                    &EngineError::Timeout { name: String::new(), waiting_for: String::new() },
                    true,
                );
            }
            clock[i] = clock[i].saturating_sub(ms) + inc_ms;
        }
        let name = clients[i].name().to_string();
        let text = match reply {
            Reply::Move(t) => t,
            Reply::NoMove => {
                break win(side.flip(), "illegal move", format!("{name} ({}) played a null move", side_name(side)))
            }
            Reply::Resign => break win(side.flip(), "resignation", format!("{name} ({}) resigns", side_name(side))),
            Reply::Claim { result, reason } => {
                // Every real game end was caught above: a claim now is false.
                break win(
                    side.flip(),
                    "false claim",
                    format!("{name} ({}) claimed {result} {{{reason}}} in an unfinished game", side_name(side)),
                );
            }
        };
        let canonical = match render_move(&pos, &text, MoveStyle::Coordinates) {
            Ok(c) => c,
            Err(e) => break win(side.flip(), "illegal move", format!("{name} ({}) played {e}", side_name(side))),
        };
        let san = pos.san_of(&canonical).unwrap_or_else(|_| canonical.clone());
        for (k, style) in styles.iter().enumerate() {
            texts[k].push(render_move(&pos, &canonical, *style).unwrap_or_else(|_| canonical.clone()));
        }
        if let Err(e) = game.play(&canonical) {
            // Cannot happen: render_move just parsed it; keep the record honest anyway.
            break win(side.flip(), "illegal move", format!("{name}: {e}"));
        }
        played.push(PlayedMove { san, uci: canonical, score, depth, ms });
        if let Some(s) = score {
            if side == Color::White {
                scores.white.push(s.as_cp())
            } else {
                scores.black.push(s.as_cp())
            }
        } else if side == Color::White {
            scores.white.clear()
        } else {
            scores.black.clear()
        }
        let fullmove = with_position!(game.position(), q => q.fullmove_number());
        if let Some(e) = scores.adjudicate(&opts.adjudication, fullmove) {
            break e;
        }
    };
    finish(&mut clients, &ending);
    record(a_white, &fen, note, played, ending)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::{DrawRule, ResignRule};
    use menagerie_rules::variant::StalemateRule;

    #[test]
    fn adjudication_needs_both_engines_to_agree() {
        let adj = Adjudication {
            resign: Some(ResignRule { count: 2, score: 500 }),
            draw: Some(DrawRule { move_number: 10, count: 2, score: 10 }),
            max_moves: None,
        };
        let log = ScoreLog { white: vec![600, 700], black: vec![-600, -650] };
        assert_eq!(log.adjudicate(&adj, 5).map(|e| e.result), Some("1-0"));
        let log = ScoreLog { white: vec![600, 700], black: vec![-600, 0] };
        assert!(log.adjudicate(&adj, 5).is_none(), "Black does not agree");
        let log = ScoreLog { white: vec![5, 0], black: vec![-3, 2] };
        assert!(log.adjudicate(&adj, 9).is_none(), "too early");
        assert_eq!(log.adjudicate(&adj, 10).map(|e| e.result), Some("1/2-1/2"));
    }

    /// An engine that answers the pre-game from a script and records what it was asked.
    struct Scripted {
        name: &'static str,
        answers: Vec<&'static str>,
        asked: Vec<String>,
    }

    impl Scripted {
        fn new(name: &'static str, answers: &[&'static str]) -> Scripted {
            Scripted { name, answers: answers.iter().rev().copied().collect(), asked: Vec::new() }
        }
    }

    impl Client for Scripted {
        fn name(&self) -> &str {
            self.name
        }
        fn ensure_started(&mut self) -> Result<(), EngineError> {
            Ok(())
        }
        fn new_game(&mut self, _: &'static Variant, _: &str, _: &TimeControl) -> Result<MoveStyle, EngineError> {
            Ok(MoveStyle::Coordinates)
        }
        fn pregame(&mut self, command: &str, _: Instant) -> Result<String, EngineError> {
            self.asked.push(command.to_string());
            self.answers.pop().map(str::to_string).ok_or_else(|| EngineError::BadSpec("no answer left".to_string()))
        }
        fn think(&mut self, _: &Turn) -> Result<Answer, EngineError> {
            Err(EngineError::BadSpec("not in a pre-game test".to_string()))
        }
        fn game_over(&mut self, _: &str, _: &str) {}
        fn kill(&mut self) {}
    }

    const OPTS: GameOptions = GameOptions {
        tc: TimeControl::Depth(1),
        grace_ms: 0,
        hang_ms: 0,
        pregame_budget: Budget::MoveTime { ms: 50 },
        adjudication: Adjudication { resign: None, draw: None, max_moves: None },
    };

    fn pairing(variant: &str, fen: &str, a_first: bool, seed: u64) -> Pairing {
        let variant = menagerie_rules::variant::by_name(variant).unwrap();
        Pairing { round: 1, a: 0, b: 1, variant, fen: fen.to_string(), a_first, pregame: true, seed }
    }

    fn referee(p: &Pairing, a: &mut Scripted, b: &mut Scripted, modes: [PregameMode; 2]) -> Pregame {
        let mut sa = Side { client: a, mode: modes[0] };
        let mut sb = Side { client: b, mode: modes[1] };
        run_pregame(p, &mut sa, &mut sb, &OPTS)
    }

    /// The start the search-driven pre-game reaches with the same choices imposed.
    fn imposed(p: &Pairing, forced: &menagerie_engine::pregame::Forced) -> String {
        let mut scorer = menagerie_engine::pregame::Scorer::new(1, 1);
        menagerie_engine::pregame::run_pregame(
            p.variant,
            &p.fen,
            menagerie_engine::pregame::Budget::Depth(1),
            forced,
            &mut scorer,
        )
        .unwrap()
        .fen
    }

    const DCHESS: &str = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1";
    const CHESS9: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    const ENGINES: [PregameMode; 2] = [PregameMode::Engine, PregameMode::Engine];

    #[test]
    fn the_referee_asks_each_step_of_the_sequence_of_its_chooser() {
        // D-Chess: `a` wins the toss and takes Black, so `b` moves first with White and swaps.
        let p = pairing("dchess", DCHESS, true, 1);
        let (mut a, mut b) = (Scripted::new("a", &["side black"]), Scripted::new("b", &["a1b1"]));
        let Pregame::Done { fen, a_white, note } = referee(&p, &mut a, &mut b, ENGINES) else {
            panic!("a forfeit");
        };
        assert_eq!(a.asked, [format!("pregame dchess choose-side {DCHESS} movetime 50")]);
        assert_eq!(b.asked, [format!("pregame dchess transpose {DCHESS} movetime 50")]);
        assert!(!a_white);
        assert_eq!(note.as_deref(), Some("a won the toss and chose Black; b moves first, transposition a1b1"));
        let forced = menagerie_engine::pregame::Forced {
            side: Some(Color::Black),
            swap: Some("a1b1".to_string()),
            ..Default::default()
        };
        assert_eq!(fen, imposed(&p, &forced));
        assert_eq!(fen, "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/NRBQKBNR w - - 0 1");
        // Chess-9: Black (`b`) relocates first, then White (`a`), answering without the keyword.
        let p = pairing("chess9", CHESS9, true, 1);
        let (mut a, mut b) = (Scripted::new("a", &["queen"]), Scripted::new("b", &["relocate king"]));
        let Pregame::Done { fen, a_white, note } = referee(&p, &mut a, &mut b, ENGINES) else {
            panic!("a forfeit");
        };
        assert_eq!(b.asked, [format!("pregame chess9 relocate {CHESS9} black movetime 50")]);
        let after_black = "rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(a.asked, [format!("pregame chess9 relocate {after_black} white movetime 50")]);
        assert!(a_white);
        assert_eq!(note.as_deref(), Some("b (black) relocates king; a (white) relocates queen"));
        let forced = menagerie_engine::pregame::Forced {
            relocations: vec![(Color::Black, "king".to_string()), (Color::White, "queen".to_string())],
            ..Default::default()
        };
        assert_eq!(fen, imposed(&p, &forced));
    }

    #[test]
    fn the_referee_offers_the_budget_of_the_time_control() {
        let p = pairing("dchess", DCHESS, true, 1);
        for (tc, budget) in [("2+0.02", "movetime 600"), ("60+0.6", "movetime 18000"), ("nodes=1000", "nodes 5000")] {
            let opts = GameOptions { pregame_budget: tc.parse::<TimeControl>().unwrap().pregame_budget(), ..OPTS };
            let (mut a, mut b) = (Scripted::new("a", &["side white"]), Scripted::new("b", &["none"]));
            let mut sa = Side { client: &mut a, mode: PregameMode::Engine };
            let mut sb = Side { client: &mut b, mode: PregameMode::Engine };
            assert!(matches!(run_pregame(&p, &mut sa, &mut sb, &opts), Pregame::Done { .. }));
            assert_eq!(a.asked, [format!("pregame dchess choose-side {DCHESS} {budget}")], "{tc}");
            assert_eq!(b.asked, [format!("pregame dchess transpose {} {budget}", DCHESS.replace(" w ", " b "))]);
        }
    }

    #[test]
    fn an_illegal_answer_forfeits_for_the_side_that_gave_it() {
        // Variant, start, the answers of `a` and of `b`, whether `a` fails, the reason.
        type Case = (&'static str, &'static str, &'static [&'static str], &'static [&'static str], bool, &'static str);
        let cases: [Case; 4] = [
            ("dchess", DCHESS, &["side purple"], &[], true, "a gave an illegal side choice 'side purple'"),
            ("dchess", DCHESS, &["side black"], &["swap a8c8"], false, "b: illegal transposition: 'a8c8'"),
            ("chess9", CHESS9, &[], &["relocate rook"], false, "b: illegal relocation: 'rook' for black"),
            ("chess9", CHESS9, &["king queen"], &["none"], true, "a gave an unreadable pre-game answer"),
        ];
        for (variant, fen, for_a, for_b, a_fails, reason) in cases {
            let p = pairing(variant, fen, true, 1);
            let (mut a, mut b) = (Scripted::new("a", for_a), Scripted::new("b", for_b));
            match referee(&p, &mut a, &mut b, ENGINES) {
                Pregame::Forfeit { a_fails: fails, ending_reason, termination, .. } => {
                    assert_eq!(fails, a_fails, "{variant} {for_a:?} {for_b:?}");
                    assert!(ending_reason.starts_with(reason), "{ending_reason}");
                    assert_eq!(termination, "illegal pre-game choice");
                }
                Pregame::Done { fen, .. } => panic!("{variant} {for_a:?} {for_b:?}: accepted, {fen}"),
            }
        }
    }

    #[test]
    fn random_choices_follow_the_sequence_and_its_seed() {
        let random = [PregameMode::Random, PregameMode::Random];
        for (variant, fen) in [("dchess", DCHESS), ("chess9", CHESS9)] {
            for seed in 0..12 {
                let p = pairing(variant, fen, seed % 2 == 0, seed);
                let (mut a, mut b) = (Scripted::new("a", &[]), Scripted::new("b", &[]));
                let Pregame::Done { fen, a_white, note } = referee(&p, &mut a, &mut b, random) else {
                    panic!("{variant} {seed}: a forfeit");
                };
                assert!(a.asked.is_empty() && b.asked.is_empty(), "random choosers ask no engine");
                // The same picks from the same seed, walking the sequence by hand.
                let mut rng = SplitMix64::new(seed ^ 0x5eed_0f9a_3e00);
                let mut seq = Sequence::new(p.variant, &p.fen).unwrap();
                while seq.next().is_some() {
                    let options = seq.options().unwrap();
                    let choice = pick(&mut rng, &options).to_string();
                    seq.apply(&choice).unwrap();
                }
                assert_eq!(fen, seq.fen(), "{variant} {seed}");
                let choices: Vec<&str> = seq.made().iter().map(|(_, c)| c.as_str()).collect();
                let words: Vec<&str> =
                    note.as_deref().unwrap().split("; ").map(|n| n.rsplit(' ').next().unwrap()).collect();
                if variant == "dchess" {
                    assert_eq!(words[0].to_ascii_lowercase(), choices[0], "{note:?}");
                    assert_eq!(a_white, (choices[0] == "white") == p.a_first);
                    assert_eq!(words[1], choices[1]);
                } else {
                    assert_eq!(words, choices);
                    assert_eq!(a_white, p.a_first);
                }
                let mut forced = menagerie_engine::pregame::Forced::default();
                for (kind, choice) in seq.made() {
                    match kind {
                        StepKind::Side => forced.side = Color::from_name(choice),
                        StepKind::Swap(_) => forced.swap = Some(choice.clone()),
                        StepKind::Relocate(c) => forced.relocations.push((*c, choice.clone())),
                    }
                }
                assert_eq!(fen, imposed(&p, &forced), "{variant} {seed}: the decision's sequence agrees");
            }
        }
    }

    #[test]
    fn rvc_stalemate_scores_three_fifths() {
        let e = rules_ending(Outcome::Stalemate {
            stalemater: Color::Black,
            rule: StalemateRule::WinForStalemater { score_cp: 70 },
        });
        assert_eq!((e.result, e.white_score), ("1/2-1/2", 0.4));
        assert_eq!(e.termination, "stalemate: 3/5 to Black");
    }
}
