//! One refereed game: the pre-game (D-Chess coin toss, side choice and transposition; Chess-9
//! relocations) when asked for, the clocks, every engine move checked by the rules core, the end
//! by the variant's rules, forfeits (time, illegal move, crash, hang, false claims, resignation)
//! and adjudication (resign score, draw score, move limit).
//!
//! Owns: `Pairing`, `GameRecord`, `PlayedMove`, `play_game`.
//! Must not know: UCI/XBoard text (the `Client`s), scheduling, PGN layout, statistics.

use super::client::{render_move, Answer, Client, MoveStyle, Reply, Score, Turn};
use super::engine_process::{EngineError, PregameMode};
use super::{Adjudication, GameOptions, TimeControl};
use crate::any::AnyPosition;
use crate::game::{side_name, Game, Outcome};
use crate::geometry::Color;
use crate::random::SplitMix64;
use crate::startpos;
use crate::variant::{TranspositionRule, Variant};
use crate::with_position;
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

fn set_side_to_move(fen: &str, c: Color) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if fields.len() > 1 {
        fields[1] = if c == Color::White { "w" } else { "b" };
    }
    fields.join(" ")
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

/// Ask an engine a pre-game question (or choose at random for it among `options`, written as
/// the engine would answer).
fn ask(
    side: &mut Side,
    rng: &mut SplitMix64,
    command: String,
    options: &[String],
    opts: &GameOptions,
) -> Result<String, (String, &'static str)> {
    if side.mode == PregameMode::Random {
        return Ok(pick(rng, options).to_string());
    }
    let deadline = Instant::now() + Duration::from_millis(opts.pregame_ms + opts.hang_ms.min(5_000));
    let line = format!("{command} movetime {}", opts.pregame_ms);
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

fn run_pregame<'x>(p: &Pairing, a: &mut Side<'x>, b: &mut Side<'x>, opts: &GameOptions) -> Pregame {
    let v = p.variant;
    let mut rng = SplitMix64::new(p.seed ^ 0x5eed_0f9a_3e00);
    let mut fen = p.fen.clone();
    if v.transposition != TranspositionRule::None {
        // D-Chess: the toss winner chooses a side; the other engine moves first and may swap.
        let a_wins = p.a_first;
        let (winner, loser) = if a_wins { (&mut *a, &mut *b) } else { (&mut *b, &mut *a) };
        let sides = ["side white".to_string(), "side black".to_string()];
        let command = format!("pregame {} choose-side {fen}", v.name);
        let answer = match ask(winner, &mut rng, command, &sides, opts) {
            Ok(a) => a,
            Err((reason, termination)) => {
                return Pregame::Forfeit { a_fails: a_wins, a_white: a_wins, ending_reason: reason, termination }
            }
        };
        let winner_white = match answer.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["side", "white"] => true,
            ["side", "black"] => false,
            _ => {
                return Pregame::Forfeit {
                    a_fails: a_wins,
                    a_white: a_wins,
                    ending_reason: format!("{} gave an illegal side choice '{answer}'", winner.client.name()),
                    termination: "illegal pre-game choice",
                }
            }
        };
        let first = if winner_white { Color::Black } else { Color::White };
        fen = set_side_to_move(&fen, first);
        let a_white = winner_white == a_wins;
        let mut options = vec!["swap none".to_string()];
        options.extend(startpos::transpositions(v, &fen).unwrap_or_default().into_iter().map(|t| format!("swap {t}")));
        let command = format!("pregame {} transpose {fen}", v.name);
        let answer = match ask(loser, &mut rng, command, &options, opts) {
            Ok(a) => a,
            Err((reason, termination)) => {
                return Pregame::Forfeit { a_fails: !a_wins, a_white, ending_reason: reason, termination }
            }
        };
        let swap = match answer.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["swap", "none"] | ["none"] => Ok("none".to_string()),
            ["swap", token] | [token] => startpos::apply_transposition(v, &fen, token).map(|f| {
                fen = f;
                token.to_string()
            }),
            _ => Err(startpos::StartError::IllegalSwap(answer.clone())),
        };
        let swap = match swap {
            Ok(s) => s,
            Err(e) => {
                return Pregame::Forfeit {
                    a_fails: !a_wins,
                    a_white,
                    ending_reason: format!("{}: {e}", loser.client.name()),
                    termination: "illegal pre-game choice",
                }
            }
        };
        let note = format!(
            "{} won the toss and chose {}; {} moves first, transposition {swap}",
            winner.client.name(),
            if winner_white { "White" } else { "Black" },
            loser.client.name()
        );
        return Pregame::Done { fen, a_white, note: Some(note) };
    }
    if !v.relocation.is_empty() {
        // Chess-9: Black relocates, then White.
        let a_white = p.a_first;
        let mut notes = Vec::new();
        for color in [Color::Black, Color::White] {
            let a_moves = (color == Color::White) == a_white;
            let side = if a_moves { &mut *a } else { &mut *b };
            let options: Vec<String> = startpos::relocations(v, &fen, color)
                .unwrap_or_default()
                .into_iter()
                .map(|r| format!("relocate {r}"))
                .collect();
            let command = format!("pregame {} relocate {fen} {color}", v.name);
            let answer = match ask(side, &mut rng, command, &options, opts) {
                Ok(a) => a,
                Err((reason, termination)) => {
                    return Pregame::Forfeit { a_fails: a_moves, a_white, ending_reason: reason, termination }
                }
            };
            let choice = answer.strip_prefix("relocate").unwrap_or(&answer).trim().to_string();
            match startpos::apply_relocation(v, &fen, color, &choice) {
                Ok(f) => fen = f,
                Err(e) => {
                    return Pregame::Forfeit {
                        a_fails: a_moves,
                        a_white,
                        ending_reason: format!("{}: {e}", side.client.name()),
                        termination: "illegal pre-game choice",
                    }
                }
            }
            notes.push(format!("{} ({color}) relocates {choice}", side.client.name()));
        }
        return Pregame::Done { fen, a_white, note: Some(notes.join("; ")) };
    }
    Pregame::Done { fen, a_white: p.a_first, note: None }
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
    use crate::variant::StalemateRule;

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

    #[test]
    fn rvc_stalemate_scores_three_fifths() {
        let e = rules_ending(Outcome::Stalemate {
            stalemater: Color::Black,
            rule: StalemateRule::WinForStalemater { score_cp: 70 },
        });
        assert_eq!((e.result, e.white_score), ("1/2-1/2", 0.4));
        assert_eq!(e.termination, "stalemate: 3/5 to Black");
        assert_eq!(set_side_to_move("8/8/8/8/8/8/8/8 w - - 0 1", Color::Black), "8/8/8/8/8/8/8/8 b - - 0 1");
    }
}
