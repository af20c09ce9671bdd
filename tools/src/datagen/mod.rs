//! Training data by self-play (`menagerie datagen`): games from random start positions of the
//! chosen variants, a few random plies first so that games differ, each move searched to a
//! node limit, decided games adjudicated; every game is appended whole to a data file
//! (`format`), with the search's score of each position.
//!
//! Owns: the self-play loop, adjudication, progress reports.
//! Must not know: protocols, the network's training.

pub mod compact;
pub mod format;

use format::{DataError, DataWriter, GameRecord, NO_SCORE};
use menagerie_engine::nnue::embedded::EvalChoice;
use menagerie_engine::nnue::{FeatureMap, Network};
use menagerie_engine::search::{search, SearchJob, SearchLimits, SearchMemory, SearchThreads, TranspositionTable};
use menagerie_rules::game::Game;
use menagerie_rules::geometry::Color;
use menagerie_rules::moves::MoveKind;
use menagerie_rules::random::SplitMix64;
use menagerie_rules::startpos::{form_count, random_index, start_in_form, Form};
use menagerie_rules::variant::Variant;
use menagerie_rules::with_position;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// What to generate.
#[derive(Clone, Debug)]
pub struct DatagenConfig {
    /// Games go to the variants in turn.
    pub variants: Vec<&'static Variant>,
    pub games: u64,
    /// Nodes per move.
    pub nodes: u64,
    /// Games played at once, one search thread each.
    pub threads: usize,
    pub seed: u64,
    /// Transposition table per game thread, MB.
    pub hash_mb: usize,
    /// The evaluation the games are played with, unless `network` is given.
    pub eval: EvalChoice,
    /// A network to play every game with in place of `eval`'s choice (a candidate that is not
    /// built in, as the teacher of its successor's data). It must fit every variant.
    pub network: Option<Arc<Network>>,
    /// Per mille of the games (of variants with pieces in hand) in which one side, chosen at
    /// random, must drop at one of its first `EARLY_DROP_BY` moves (see `EarlyDrop`).
    pub early_drop_permille: u32,
}

/// Random plies before the engine plays: enough that games from one start array differ.
const RANDOM_PLIES: (u64, u64) = (4, 9);
/// The latest of a side's own moves an early drop is made at.
const EARLY_DROP_BY: u64 = 10;
/// A score beyond this for `WIN_PLIES` plies in a row, one side ahead, decides the game.
pub const WIN_SCORE: i32 = 1000;
pub const WIN_PLIES: usize = 8;
/// After `DRAW_FROM_PLY`, a score within this for `DRAW_PLIES` plies in a row is a draw.
pub const DRAW_SCORE: i32 = 10;
pub const DRAW_PLIES: usize = 20;
pub const DRAW_FROM_PLY: usize = 80;
/// A game this long is called a draw.
pub const MAX_PLIES: usize = 400;
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// What a run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DatagenSummary {
    pub games: u64,
    pub positions: u64,
}

fn tenths(white_score: f64) -> u8 {
    (white_score * 10.0).round().clamp(0.0, 10.0) as u8
}

/// A random legal move of `game` for the plies before the engine plays, in coordinate notation:
/// a move of the board where there is one, a drop only where nothing else is legal. A pick
/// among all moves would be a drop 32 times in 52 at the VD Chess start, so almost every game
/// began with both pieces in hand dropped at random, and the data held next to none of the
/// positions a search plays for its first twenty moves, with the piece still in hand.
fn random_ply(game: &Game, rng: &mut SplitMix64) -> Option<String> {
    with_position!(game.position(), p => {
        let legal = p.legal_moves();
        let board: Vec<_> = legal.iter().copied().filter(|m| m.kind() != MoveKind::Drop).collect();
        let pick = if board.is_empty() { legal.iter().copied().collect() } else { board };
        (!pick.is_empty()).then(|| p.move_to_uci(pick[rng.index(pick.len())], true))
    })
}

/// A move at which one side of a game must drop, the best drop its search finds. Self-play
/// holds a piece in hand for about twenty moves on both sides, so a side dropped early mostly
/// where it had to, and the data held few positions after an early drop such as an opponent
/// may choose (Fairy-Stockfish drops at move 6-7); games with one show what it is worth.
#[derive(Clone, Copy, Debug)]
struct EarlyDrop {
    side: Color,
    /// The side's own move (1 = its first after the random plies).
    at_move: u64,
}

/// One self-play game, or `None` if the random plies ended it.
pub fn play_game(
    variant: &'static Variant,
    seed: u64,
    nodes: u64,
    eval: EvalChoice,
    tt: &TranspositionTable,
    pool: &SearchThreads,
) -> Option<GameRecord> {
    let network = eval.network_for(variant).map(|n| n.as_ref());
    play_game_with_early_drops(variant, seed, nodes, network, 0, tt, pool)
}

/// `play_game` searched with `network` (`None`: the hand-written evaluation), where in
/// `early_drop_permille` of the games one side must drop early (`EarlyDrop`). The move made
/// under that constraint keeps no score: it is not the search's free choice, so its position
/// is no sample. The network must fit `variant`.
pub fn play_game_with_early_drops(
    variant: &'static Variant,
    seed: u64,
    nodes: u64,
    network: Option<&Network>,
    early_drop_permille: u32,
    tt: &TranspositionTable,
    pool: &SearchThreads,
) -> Option<GameRecord> {
    let mut rng = SplitMix64::new(seed);
    let start =
        start_in_form(variant, Form::Basic, random_index(form_count(variant, Form::Basic).ok()?, rng.next_u64()))
            .ok()?;
    let mut game = Game::new(start.variant, &start.fen).ok()?;
    let mut moves = Vec::new();
    for _ in 0..RANDOM_PLIES.0 + rng.below(RANDOM_PLIES.1 - RANDOM_PLIES.0 + 1) {
        if game.outcome().is_some() {
            return None;
        }
        let m = random_ply(&game, &mut rng)?;
        game.play(&m).ok()?;
        moves.push((m, NO_SCORE));
    }
    // Drawn only when asked for, so that the games of a seed stay those of earlier versions.
    let early_drop = (early_drop_permille > 0 && rng.below(1000) < u64::from(early_drop_permille)).then(|| EarlyDrop {
        side: if rng.below(2) == 0 { Color::White } else { Color::Black },
        at_move: 1 + rng.below(EARLY_DROP_BY),
    });
    let mut own_moves = [0u64; 2];
    tt.clear();
    let stop = std::sync::atomic::AtomicBool::new(false);
    // Each side keeps its history between its moves, as an engine does through a match, so
    // that the games are played as the engine plays them.
    let memories = [SearchMemory::new(), SearchMemory::new()];
    let (mut winning, mut drawn, mut last_white) = (0usize, 0usize, 0i32);
    let white_score = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.white_score();
        }
        if game.moves().len() >= MAX_PLIES {
            break 0.5;
        }
        let (text, score, white, forced) = with_position!(game.position(), p => {
            let side = p.side_to_move();
            own_moves[side.index()] += 1;
            let drops: Vec<_> = match early_drop {
                Some(e) if e.side == side && e.at_move == own_moves[side.index()] => {
                    p.legal_moves().iter().copied().filter(|m| m.kind() == MoveKind::Drop).collect()
                }
                _ => Vec::new(),
            };
            let mut job = SearchJob::new(p, SearchLimits::nodes(nodes), tt, &stop, pool);
            job.network = network;
            job.memory = Some(&memories[side.index()]);
            job.root_moves = &drops;
            let out = search(&job, |_| {});
            (p.move_to_uci(out.best?, true), out.score, side == Color::White, !drops.is_empty())
        });
        let white_view = if white { score } else { -score };
        winning =
            if white_view.abs() >= WIN_SCORE && white_view.signum() == last_white.signum() { winning + 1 } else { 0 };
        drawn = if white_view.abs() <= DRAW_SCORE && game.moves().len() >= DRAW_FROM_PLY { drawn + 1 } else { 0 };
        last_white = white_view;
        game.play(&text).ok()?;
        moves.push((text, if forced { NO_SCORE } else { score.clamp(-32000, 32000) as i16 }));
        if winning >= WIN_PLIES {
            break if white_view > 0 { 1.0 } else { 0.0 };
        }
        if drawn >= DRAW_PLIES {
            break 0.5;
        }
    };
    Some(GameRecord {
        variant: start.variant.name.clone(),
        start_fen: start.fen,
        white_tenths: tenths(white_score),
        moves,
    })
}

/// How far a run is, as reported every few seconds and at the end.
#[derive(Clone, Copy, Debug)]
pub struct DatagenProgress {
    pub done: DatagenSummary,
    pub goal: u64,
    pub elapsed: Duration,
}

impl std::fmt::Display for DatagenProgress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.elapsed.as_secs_f64().max(1e-3);
        let eta = secs / self.done.games.max(1) as f64 * self.goal.saturating_sub(self.done.games) as f64;
        write!(
            f,
            "datagen: {} of {} games, {} positions, {:.0} positions/s, ETA {:.0} s",
            self.done.games,
            self.goal,
            self.done.positions,
            self.done.positions as f64 / secs,
            eta
        )
    }
}

/// Play `config.games` games and append them to `out`.
pub fn run(
    config: &DatagenConfig,
    out: &Path,
    on_progress: impl Fn(DatagenProgress) + Sync,
) -> Result<DatagenSummary, DataError> {
    if config.variants.is_empty() {
        return Ok(DatagenSummary::default());
    }
    if let Some(n) = &config.network {
        for v in &config.variants {
            FeatureMap::new(&n.layout, v).map_err(|e| DataError::Unfit(format!("{}: {e}", v.name)))?;
        }
    }
    let network_for = |v: &Variant| match &config.network {
        Some(n) => Some(n.as_ref()),
        None => config.eval.network_for(v).map(|n| n.as_ref()),
    };
    let writer = Mutex::new(DataWriter::append(out)?);
    let (games, positions) = (AtomicU64::new(0), AtomicU64::new(0));
    let started = Instant::now();
    crate::work_pool::run_jobs::<_, DataError>(
        config.threads,
        config.games,
        PROGRESS_EVERY,
        || (TranspositionTable::new(config.hash_mb), SearchThreads::new(1)),
        |(tt, pool), g| {
            let variant = config.variants[(g % config.variants.len() as u64) as usize];
            let seed = config.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(g);
            let record = play_game_with_early_drops(
                variant,
                seed,
                config.nodes,
                network_for(variant),
                config.early_drop_permille,
                tt,
                pool,
            );
            let Some(record) = record else {
                return Ok(());
            };
            let scored = record.moves.iter().filter(|m| m.1 != NO_SCORE).count() as u64;
            writer.lock().map_err(|_| DataError::TooLong("lock"))?.write(&record)?;
            games.fetch_add(1, Ordering::Relaxed);
            positions.fetch_add(scored, Ordering::Relaxed);
            Ok(())
        },
        || {
            let done =
                DatagenSummary { games: games.load(Ordering::Relaxed), positions: positions.load(Ordering::Relaxed) };
            on_progress(DatagenProgress { done, goal: config.games, elapsed: started.elapsed() });
        },
    )?;
    let summary = DatagenSummary { games: games.into_inner(), positions: positions.into_inner() };
    on_progress(DatagenProgress { done: summary, goal: config.games, elapsed: started.elapsed() });
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::any::AnyPosition;
    use menagerie_rules::variant::by_name;

    /// Runs `config` into a file of the test's own and reads back what it wrote.
    fn run_and_read(config: &DatagenConfig, name: &str) -> Result<(DatagenSummary, Vec<GameRecord>), DataError> {
        let path = std::env::temp_dir().join(format!("menagerie-datagen-{name}-{}.bin", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let result =
            run(config, &path, |_| {}).and_then(|summary| format::read_file(&path).map(|records| (summary, records)));
        let _ = std::fs::remove_file(&path);
        result
    }

    /// The games of a run of `config`.
    fn games_of(config: &DatagenConfig, name: &str) -> Result<Vec<GameRecord>, DataError> {
        run_and_read(config, name).map(|(_, records)| records)
    }

    #[test]
    fn a_network_file_plays_in_place_of_the_evaluation_asked_for() {
        let dchess = by_name("dchess").expect("variant");
        let eight = menagerie_engine::nnue::embedded::default_for(dchess).expect("8x8 network").clone();
        let twelve = menagerie_engine::nnue::embedded::default_for(by_name("rvc").expect("rvc")).expect("12x8").clone();
        let config = |eval, network| DatagenConfig {
            variants: vec![dchess],
            games: 2,
            nodes: 200,
            threads: 1,
            seed: 9,
            hash_mb: 1,
            eval,
            network,
            early_drop_permille: 0,
        };
        let by_default = games_of(&config(EvalChoice::Default, None), "default").expect("default");
        let hand_written = games_of(&config(EvalChoice::HandWritten, None), "hand").expect("hand-written");
        let by_file = games_of(&config(EvalChoice::HandWritten, Some(eight)), "file").expect("network file");
        assert_ne!(by_default[0].moves, hand_written[0].moves, "the two evaluations play differently");
        // D-Chess's default is the 8x8 network: given as a file it plays the same games,
        // whatever --eval says.
        assert_eq!(by_file[0].moves, by_default[0].moves);
        assert_eq!(by_file[1].moves, by_default[1].moves);
        match games_of(&config(EvalChoice::Default, Some(twelve)), "unfit") {
            Err(DataError::Unfit(why)) => assert!(why.starts_with("dchess"), "{why}"),
            other => panic!("a 12x8 network played D-Chess: {other:?}"),
        }
    }

    #[test]
    fn every_generated_position_replays_legally_from_its_start() {
        let variants = ["dchess", "vdchess", "rvc"].iter().map(|n| by_name(n).expect("variant")).collect();
        let config = DatagenConfig {
            variants,
            games: 3,
            nodes: 300,
            threads: 1,
            seed: 5,
            hash_mb: 1,
            eval: EvalChoice::Default,
            network: None,
            early_drop_permille: 0,
        };
        let (summary, records) = run_and_read(&config, "replay").expect("datagen");
        assert_eq!(records.len() as u64, summary.games);
        assert!(summary.games >= 2 && summary.positions > 0, "{summary:?}");
        for r in &records {
            let variant = by_name(&r.variant).expect("variant");
            let mut game = Game::new(variant, &r.start_fen).expect("start");
            assert!(AnyPosition::from_fen(variant, &r.start_fen).is_ok());
            for (m, _) in &r.moves {
                assert!(game.position().legal_moves_uci(true).contains(m), "{m} illegal in {}", r.variant);
                game.play(m).expect("legal");
            }
            assert!(r.white_tenths <= 10);
        }
    }

    #[test]
    fn an_early_drop_is_made_by_its_tenth_move_and_keeps_no_score() {
        let vd = by_name("vdchess").expect("vdchess");
        let tt = TranspositionTable::new(1);
        let pool = SearchThreads::new(1);
        // A side that dropped by choice before its early-drop move has nothing left to drop.
        let mut forced_games = 0;
        for seed in 0..6 {
            let game = play_game_with_early_drops(vd, seed, 100, None, 1000, &tt, &pool).expect("a game");
            let first_searched = game.moves.iter().position(|m| m.1 != NO_SCORE).expect("a searched move");
            let unscored: Vec<usize> =
                (first_searched..game.moves.len()).filter(|&i| game.moves[i].1 == NO_SCORE).collect();
            assert!(unscored.len() <= 1, "seed {seed}: {unscored:?}");
            assert!(game.moves[..first_searched].iter().all(|m| !m.0.contains('@')));
            let Some(&forced) = unscored.first() else { continue };
            forced_games += 1;
            assert!(game.moves[forced].0.contains('@'), "seed {seed}: {} is no drop", game.moves[forced].0);
            let own_move = (forced - first_searched) / 2 + 1;
            assert!(own_move as u64 <= EARLY_DROP_BY, "seed {seed}: the drop came at own move {own_move}");
        }
        assert!(forced_games >= 3, "{forced_games} of 6 games had an early drop");
        // Without early drops every move after the random plies is the search's own, scored.
        for seed in 0..3 {
            let game = play_game(vd, seed, 100, EvalChoice::HandWritten, &tt, &pool).expect("a game");
            let first_searched = game.moves.iter().position(|m| m.1 != NO_SCORE).expect("a searched move");
            assert!(game.moves[first_searched..].iter().all(|m| m.1 != NO_SCORE), "seed {seed}");
        }
    }

    #[test]
    fn random_plies_keep_pieces_in_hand_while_other_moves_are_legal() {
        let vd = by_name("vdchess").expect("vdchess");
        let start = menagerie_rules::startpos::start_in_form(vd, Form::Basic, 0).expect("start");
        let game = Game::new(start.variant, &start.fen).expect("game");
        assert!(game.position().legal_moves_uci(true).iter().any(|m| m.contains('@')));
        let mut rng = SplitMix64::new(11);
        for _ in 0..200 {
            let m = random_ply(&game, &mut rng).expect("a move");
            assert!(!m.contains('@'), "{m} is a drop");
            assert!(game.position().legal_moves_uci(true).contains(&m));
        }
    }

    #[test]
    fn the_games_are_played_with_the_chosen_evaluation() {
        let dchess = by_name("dchess").expect("dchess");
        let tt = TranspositionTable::new(1);
        let pool = SearchThreads::new(1);
        let game = |eval| play_game(dchess, 7, 300, eval, &tt, &pool).expect("a game");
        let (hand_written, network) = (game(EvalChoice::HandWritten), game(EvalChoice::Network));
        assert_eq!(hand_written.start_fen, network.start_fen);
        assert_ne!(hand_written.moves, network.moves);
        // D-Chess is searched with the 8x8 network by default.
        assert_eq!(game(EvalChoice::Default).moves, network.moves);
    }
}
