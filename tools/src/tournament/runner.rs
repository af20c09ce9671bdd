//! The match: checks that every engine starts, runs the scheduled games on worker threads (each
//! with its own engine processes), writes and flushes each game's PGN as it ends, prints a
//! progress line per game on stderr, stops early when the SPRT is decided, and prints the final
//! table. Resuming, it counts the games its PGN file already holds and plays only the others.
//!
//! Owns: `MatchConfig`, `MatchSummary`, `run_match`, the final table text.
//! Must not know: protocol text, rules internals.

use super::client::Client;
use super::engine_process::{EngineSpec, Proto};
use super::pgn::{game_pgn, PgnHeader};
use super::referee::{play_game, GameRecord, Pairing};
use super::resume::read_finished_games;
use super::schedule::{concurrency, game_pair, pairings, Schedule};
use super::stats::{Sprt, SprtState, Tally};
use super::uci_client::UciClient;
use super::xboard_client::XboardClient;
use super::{GameOptions, MatchError};
use crossbeam_channel::{bounded, unbounded};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub engines: Vec<EngineSpec>,
    pub schedule: Schedule,
    pub options: GameOptions,
    pub concurrency: usize,
    pub pgn_out: Option<PathBuf>,
    /// Go on with the match whose games `pgn_out` already holds (the same engines, variant,
    /// openings and seed): those games count, their rounds are not played again.
    pub resume: bool,
    pub event: String,
    pub sprt: Option<Sprt>,
}

/// What a match produced.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    /// The games played by this run (not those a resumed match found in its PGN file).
    pub games: Vec<GameRecord>,
    /// Per pair (a, b), from a's point of view, resumed games included.
    pub tallies: Vec<((usize, usize), Tally)>,
    pub sprt: Option<SprtVerdict>,
    pub table: String,
}

/// Where an SPRT stands at the end of a match. The verdict is the one taken at the first game
/// whose LLR crossed a bound: the games then in progress are still played and counted in the
/// tallies and the final LLR, which may fall back inside the bounds without undoing the verdict.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtVerdict {
    /// The LLR over every game played.
    pub llr: f64,
    pub state: SprtState,
    /// The games counted and the LLR when the verdict was taken.
    pub decided_at: Option<(usize, f64)>,
}

impl SprtVerdict {
    /// The verdict after one more game, whose LLR over all games so far is `llr`.
    fn after_game(previous: Option<SprtVerdict>, games: usize, llr: f64, state: SprtState) -> SprtVerdict {
        match previous {
            Some(v) if v.decided_at.is_some() => SprtVerdict { llr, ..v },
            _ => SprtVerdict { llr, state, decided_at: (state != SprtState::Continue).then_some((games, llr)) },
        }
    }
}

/// The SPRT line of the final table.
fn sprt_line(s: &Sprt, verdict: &SprtVerdict, games: usize, pairs: usize) -> String {
    let (lo, hi) = s.bounds();
    let mut verdict_text = match verdict.state {
        SprtState::Continue => "not decided".to_string(),
        SprtState::H1 => "H1 accepted".to_string(),
        SprtState::H0 => "H0 accepted".to_string(),
    };
    if let Some((at, llr)) = verdict.decided_at {
        if at < games {
            verdict_text.push_str(&format!(
                " at game {at} (LLR {llr:.2}; games then in progress and counted above: {})",
                games - at
            ));
        }
    }
    let model = if pairs > 0 { format!(" (pairs of games: {pairs})") } else { String::new() };
    format!(
        "SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} [{lo:.2}, {hi:.2}]{model}, {verdict_text}\n",
        s.elo0, s.elo1, s.alpha, s.beta, verdict.llr
    )
}

/// A game a resumed match found finished in its PGN file.
struct Resumed {
    round: usize,
    white_index: usize,
    black_index: usize,
    white_score: f64,
}

/// The finished games of the PGN file at `path`, each checked against the round of this
/// match's schedule it claims to be (players, colours and start, or players alone where a
/// pre-game decides colours and start); a game cut short at the file's end is cut off. A
/// missing file is a match not yet begun.
fn resume_from(path: &Path, schedule: &[Pairing], names: &[String]) -> Result<Vec<Resumed>, MatchError> {
    let io = |e: std::io::Error| MatchError::Io(format!("{}: {e}", path.display()));
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io(e)),
    };
    let bad = |m: String| MatchError::Config(format!("--resume: {}: {m}", path.display()));
    let log = read_finished_games(&text).map_err(|e| bad(e.to_string()))?;
    let mut seen = vec![false; schedule.len()];
    let mut out = Vec::new();
    for g in &log.games {
        let Some(p) = g.round.checked_sub(1).and_then(|i| schedule.get(i)) else {
            return Err(bad(format!("round {} is not one of this match's {} games", g.round, schedule.len())));
        };
        let index = |name: &str| names.iter().position(|n| n == name);
        let (white, black) = if p.a_first { (p.a, p.b) } else { (p.b, p.a) };
        let mismatch = || {
            bad(format!(
                "round {} is {} - {} from {}, but this match's round {} is {} - {} from {} (resume with the same \
                 engines, variant, openings and --seed)",
                g.round, g.white, g.black, g.fen, p.round, names[white], names[black], p.fen
            ))
        };
        let (Some(white_index), Some(black_index)) = (index(&g.white), index(&g.black)) else { return Err(mismatch()) };
        let same = if p.pregame {
            // The pre-game decides the colours and the start.
            (white_index.min(black_index), white_index.max(black_index)) == (p.a, p.b)
        } else {
            (white_index, black_index) == (white, black) && g.fen == p.fen
        };
        if !same {
            return Err(mismatch());
        }
        if std::mem::replace(&mut seen[g.round - 1], true) {
            return Err(bad(format!("round {} is in the file twice", g.round)));
        }
        out.push(Resumed { round: g.round, white_index, black_index, white_score: g.white_score });
    }
    if log.complete_len < text.len() {
        let f = std::fs::OpenOptions::new().write(true).open(path).map_err(io)?;
        f.set_len(log.complete_len as u64).map_err(io)?;
    }
    Ok(out)
}

fn client(spec: &EngineSpec) -> Box<dyn Client> {
    match spec.proto {
        Proto::Uci => Box::new(UciClient::new(spec.clone())),
        Proto::Xboard => Box::new(XboardClient::new(spec.clone())),
    }
}

fn tally_mut(tallies: &mut Vec<((usize, usize), Tally)>, key: (usize, usize)) -> &mut Tally {
    let i = match tallies.iter().position(|(k, _)| *k == key) {
        Some(i) => i,
        None => {
            tallies.push((key, Tally::default()));
            tallies.len() - 1
        }
    };
    &mut tallies[i].1
}

fn pair_line(names: &[String], (a, b): (usize, usize), t: &Tally) -> String {
    let (elo, lo, hi) = t.elo();
    format!(
        "{} vs {}: {}-{}-{} (W-D-L), {:.1}/{} = {:.1}%, draws {:.1}%, Elo {:+.1} [{:+.1}, {:+.1}] (95%)",
        names[a],
        names[b],
        t.wins,
        t.draws,
        t.losses,
        t.total(),
        t.games(),
        100.0 * t.mean(),
        100.0 * t.draw_ratio(),
        elo,
        lo,
        hi
    )
}

/// The final table: one line per engine (points against the field), one per pair, the SPRT.
fn table(names: &[String], tallies: &[((usize, usize), Tally)], sprt_line: Option<String>) -> String {
    let mut out = String::new();
    let mut rows: Vec<(usize, Tally)> = (0..names.len()).map(|i| (i, Tally::default())).collect();
    for ((a, b), t) in tallies {
        for p in &t.points {
            rows[*a].1.add(*p);
            rows[*b].1.add(1.0 - p);
        }
    }
    rows.sort_by(|x, y| y.1.mean().total_cmp(&x.1.mean()));
    let width = names.iter().map(String::len).max().unwrap_or(4).max(4);
    out.push_str(&format!(
        "{:<4} {:<width$} {:>6} {:>8} {:>7} {:>7} {:>8} {:>18}\n",
        "Rank", "Name", "Games", "Points", "Score", "Draws", "Elo", "95% interval"
    ));
    for (rank, (i, t)) in rows.iter().enumerate() {
        let (elo, lo, hi) = t.elo();
        out.push_str(&format!(
            "{:<4} {:<width$} {:>6} {:>8.1} {:>6.1}% {:>6.1}% {:>+8.1} {:>18}\n",
            rank + 1,
            names[*i],
            t.games(),
            t.total(),
            100.0 * t.mean(),
            100.0 * t.draw_ratio(),
            elo,
            format!("[{lo:+.1}, {hi:+.1}]")
        ));
    }
    for (k, t) in tallies {
        out.push_str(&pair_line(names, *k, t));
        out.push('\n');
        if !t.pair_points.is_empty() {
            let [p0, p1, p2, p3, p4] = t.pentanomial();
            out.push_str(&format!(
                "{} vs {}: pairs of games scoring 0, 1/2, 1, 3/2, 2 points: {p0}, {p1}, {p2}, {p3}, {p4}\n",
                names[k.0], names[k.1]
            ));
        }
    }
    if let Some(line) = sprt_line {
        out.push_str(&line);
    }
    out
}

/// Run a match; the PGN goes to `cfg.pgn_out` game by game, progress to stderr, and the final
/// table to `out`.
pub fn run_match(cfg: &MatchConfig, out: &mut dyn Write) -> Result<MatchSummary, MatchError> {
    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    for (i, n) in names.iter().enumerate() {
        if names[..i].contains(n) {
            return Err(MatchError::Config(format!("two engines are named '{n}' (give each a name=...)")));
        }
    }
    if cfg.sprt.is_some() && cfg.engines.len() != 2 {
        return Err(MatchError::Config("the SPRT needs exactly two engines".to_string()));
    }
    let schedule = Schedule { engines: cfg.engines.len(), ..cfg.schedule.clone() };
    let mut games = pairings(&schedule)?;
    let total = games.len();
    let mut tallies: Vec<((usize, usize), Tally)> = Vec::new();
    let mut sprt_state = None;
    let resumed = match (&cfg.pgn_out, cfg.resume) {
        (Some(path), true) => resume_from(path, &games, &names)?,
        (None, true) => return Err(MatchError::Config("--resume needs the match's --pgn file".to_string())),
        (_, false) => Vec::new(),
    };
    if !resumed.is_empty() {
        for r in &resumed {
            let key = (r.white_index.min(r.black_index), r.white_index.max(r.black_index));
            let points = if r.white_index == key.0 { r.white_score } else { 1.0 - r.white_score };
            tally_mut(&mut tallies, key).add_paired(game_pair(r.round), points);
        }
        games.retain(|p| !resumed.iter().any(|r| r.round == p.round));
        if let (Some(s), [(_, t)]) = (&cfg.sprt, tallies.as_slice()) {
            let verdict = SprtVerdict::after_game(None, resumed.len(), s.llr(t), s.state(t));
            if verdict.state != SprtState::Continue {
                games.clear();
            }
            sprt_state = Some(verdict);
        }
        log::info!("resumed: {} games already played, {} to play", resumed.len(), games.len());
        for (k, t) in &tallies {
            eprintln!("[{}/{total}] resumed | {}", resumed.len(), pair_line(&names, *k, t));
        }
    }
    // Every engine must start, shake hands and accept the variant before any game counts (an
    // engine that cannot play it would otherwise forfeit every game).
    if let Some(first) = games.first() {
        for spec in &cfg.engines {
            let mut c = client(spec);
            let checked = c.ensure_started().and_then(|_| c.new_game(first.variant, &first.fen, &cfg.options.tc));
            c.kill();
            checked?;
        }
    }
    let mut pgn_file = match &cfg.pgn_out {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| MatchError::Io(format!("{}: {e}", p.display())))?,
        ),
        None => None,
    };
    let header = PgnHeader {
        event: cfg.event.clone(),
        site: std::env::var("HOSTNAME").unwrap_or_else(|_| "?".to_string()),
        date: super::pgn::today(),
    };
    let workers = concurrency(cfg.concurrency, games.len().max(1));
    log::info!("{} games, {workers} at once", games.len());
    let (job_tx, job_rx) = unbounded::<Pairing>();
    for g in games {
        let _ = job_tx.send(g);
    }
    drop(job_tx);
    // A rendezvous: a worker hands its game over before it takes the next, so that when the
    // SPRT is decided only the games in progress are still played, however fast games end
    // and however slowly this thread is scheduled.
    let (result_tx, result_rx) = bounded::<GameRecord>(0);
    let stop = AtomicBool::new(false);
    let mut records = Vec::new();
    let mut io_error = None;
    std::thread::scope(|scope| {
        for _ in 0..workers {
            let (job_rx, result_tx, stop, specs) = (job_rx.clone(), result_tx.clone(), &stop, &cfg.engines);
            let opts = cfg.options;
            scope.spawn(move || {
                let mut clients: Vec<Option<Box<dyn Client>>> = specs.iter().map(|s| Some(client(s))).collect();
                let modes: Vec<_> = specs.iter().map(|s| s.pregame).collect();
                while !stop.load(Ordering::Relaxed) {
                    let Ok(p) = job_rx.recv() else { break };
                    let (Some(mut a), Some(mut b)) = (clients[p.a].take(), clients[p.b].take()) else { break };
                    let record = play_game(&p, a.as_mut(), b.as_mut(), [modes[p.a], modes[p.b]], &opts);
                    clients[p.a] = Some(a);
                    clients[p.b] = Some(b);
                    if result_tx.send(record).is_err() {
                        break;
                    }
                }
                for c in clients.iter_mut().flatten() {
                    c.kill();
                }
            });
        }
        drop(result_tx);
        for record in result_rx.iter() {
            if let Some(f) = pgn_file.as_mut() {
                let text = game_pgn(&header, &record);
                if let Err(e) = f.write_all(text.as_bytes()).and_then(|_| f.flush()) {
                    io_error = Some(MatchError::Io(format!("writing the PGN: {e}")));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            let (w, b) = (record.white_index, record.black_index);
            let key = (w.min(b), w.max(b));
            let points = if w == key.0 { record.white_score } else { 1.0 - record.white_score };
            tally_mut(&mut tallies, key).add_paired(game_pair(record.round), points);
            let t = tally_mut(&mut tallies, key).clone();
            eprintln!(
                "[{}/{total}] {} - {} {} ({}) | {}",
                resumed.len() + records.len() + 1,
                record.white,
                record.black,
                record.result,
                record.termination,
                pair_line(&names, key, &t)
            );
            if let Some(s) = &cfg.sprt {
                let played = resumed.len() + records.len() + 1;
                let verdict = SprtVerdict::after_game(sprt_state, played, s.llr(&t), s.state(&t));
                if verdict.state != SprtState::Continue && !stop.load(Ordering::Relaxed) {
                    eprintln!("SPRT decided ({:?}): stopping after the games in progress", verdict.state);
                    stop.store(true, Ordering::Relaxed);
                }
                sprt_state = Some(verdict);
            }
            records.push(record);
        }
    });
    if let Some(e) = io_error {
        return Err(e);
    }
    tallies.sort_by_key(|(k, _)| *k);
    let pairs = tallies.first().map_or(0, |(_, t)| t.pair_points.len());
    let sprt_text =
        cfg.sprt.as_ref().zip(sprt_state.as_ref()).map(|(s, v)| sprt_line(s, v, resumed.len() + records.len(), pairs));
    let text = table(&names, &tallies, sprt_text);
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
    Ok(MatchSummary { games: records, tallies, sprt: sprt_state, table: text })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sprt_verdict_stands_when_the_games_in_progress_bring_the_llr_back() {
        let s = Sprt { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        let mut v = None;
        for (games, llr, state) in
            [(1, 1.0, SprtState::Continue), (2, 3.0, SprtState::H1), (3, 2.5, SprtState::Continue)]
        {
            v = Some(SprtVerdict::after_game(v, games, llr, state));
        }
        let v = v.expect("verdict");
        assert_eq!(v, SprtVerdict { llr: 2.5, state: SprtState::H1, decided_at: Some((2, 3.0)) });
        let line = sprt_line(&s, &v, 3, 1);
        assert!(
            line.contains("LLR 2.50 [-2.94, 2.94] (pairs of games: 1)")
                && line.contains("H1 accepted at game 2 (LLR 3.00; games then in progress and counted above: 1)"),
            "{line}"
        );
        let undecided = SprtVerdict::after_game(None, 1, 1.0, SprtState::Continue);
        assert!(sprt_line(&s, &undecided, 1, 0).ends_with("not decided\n"));
    }
}
