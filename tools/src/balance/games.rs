//! The games of a balance study: which start position and seed game `i` has, how it is played
//! (in-process self-play at a node limit jittered per side and game, the variant's pre-game
//! first where asked for, decided games adjudicated as `datagen` does), and its line in the
//! game file.
//!
//! Owns: `Starts`, `GameSettings`, `GameLine`, `play_game`.
//! Must not know: files, statistics, the report.

use super::BalanceError;
use crate::datagen::{DRAW_FROM_PLY, DRAW_PLIES, DRAW_SCORE, MAX_PLIES, WIN_PLIES, WIN_SCORE};
use crate::json::Json;
use menagerie_engine::nnue::embedded::EvalChoice;
use menagerie_engine::pregame::{run_pregame, Budget, Forced, Scorer};
use menagerie_engine::search::{search, SearchJob, SearchLimits, SearchMemory, SearchThreads, TranspositionTable};
use menagerie_rules::game::Game;
use menagerie_rules::geometry::Color;
use menagerie_rules::random::SplitMix64;
use menagerie_rules::startpos::{self, start_in_form, Form};
use menagerie_rules::variant::Variant;
use menagerie_rules::with_position;
use std::sync::atomic::AtomicBool;

/// Which start positions a study plays (by index of the variant's own start rule, as
/// `menagerie startpos --index` numbers them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Starts {
    All,
    /// First to last, both included.
    Range(u64, u64),
    /// A sample of this many distinct indices, drawn from the study's seed.
    Random(u64),
}

impl std::str::FromStr for Starts {
    type Err = BalanceError;
    fn from_str(text: &str) -> Result<Starts, BalanceError> {
        let bad = || BalanceError::BadStarts(text.to_string());
        if text == "all" {
            return Ok(Starts::All);
        }
        if let Some(k) = text.strip_prefix("random:") {
            return k.parse().ok().filter(|&k| k > 0).map(Starts::Random).ok_or_else(bad);
        }
        let (a, b) = text.split_once("..").ok_or_else(bad)?;
        match (a.parse(), b.parse()) {
            (Ok(a), Ok(b)) if a <= b => Ok(Starts::Range(a, b)),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for Starts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Starts::All => write!(f, "all"),
            Starts::Range(a, b) => write!(f, "{a}..{b}"),
            Starts::Random(k) => write!(f, "random:{k}"),
        }
    }
}

/// The most start positions one study may list (`all` of a variant with more is refused).
pub const MAX_STARTS: u64 = 100_000;

impl Starts {
    /// The start indices, ascending.
    pub fn indices(self, v: &Variant, seed: u64) -> Result<Vec<u64>, BalanceError> {
        let count = v.start_count();
        match self {
            Starts::All if count > MAX_STARTS => Err(BalanceError::TooManyStarts { variant: v.name.clone(), count }),
            Starts::All => Ok((0..count).collect()),
            Starts::Range(_, b) if b >= count => Err(BalanceError::StartOutOfRange { index: b, count }),
            Starts::Range(a, b) if b - a >= MAX_STARTS => {
                Err(BalanceError::TooManyStarts { variant: v.name.clone(), count: b - a + 1 })
            }
            Starts::Range(a, b) => Ok((a..=b).collect()),
            Starts::Random(k) if k >= count => Ok((0..count).collect()),
            Starts::Random(k) if k > MAX_STARTS => {
                Err(BalanceError::TooManyStarts { variant: v.name.clone(), count: k })
            }
            Starts::Random(k) => {
                let mut rng = SplitMix64::new(seed ^ 0x5354_4152_5453);
                let mut picked = std::collections::BTreeSet::new();
                while (picked.len() as u64) < k {
                    picked.insert(rng.below(count));
                }
                Ok(picked.into_iter().collect())
            }
        }
    }
}

/// How every game of a study is played.
#[derive(Clone, Copy, Debug)]
pub struct GameSettings {
    pub variant: &'static Variant,
    /// Nodes per move before the jitter.
    pub nodes: u64,
    /// A fixed time per move instead of nodes (games then differ by timing, not by a seed).
    pub movetime_ms: Option<u64>,
    /// Each side's node limit is `nodes` times a factor drawn per game from 1 ± this.
    pub jitter: f64,
    /// The pre-game's budget per decision, where the study plays it.
    pub pregame: Option<Budget>,
    pub eval: EvalChoice,
}

impl GameSettings {
    /// The seed of game `index` of a study seeded `seed`.
    pub fn game_seed(seed: u64, index: u64) -> u64 {
        SplitMix64::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ index.wrapping_mul(0xd1b5_4a32_d192_ed03)).next_u64()
    }

    /// White's and Black's node limits in the game of `seed`.
    pub fn node_limits(&self, seed: u64) -> [u64; 2] {
        let mut rng = SplitMix64::new(seed);
        [0; 2].map(|_| {
            let unit = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            ((self.nodes as f64 * (1.0 + self.jitter * (2.0 * unit - 1.0))).round() as u64).max(1)
        })
    }
}

/// One game of a study as its game file holds it, one JSON object a line.
#[derive(Clone, Debug, PartialEq)]
pub struct GameLine {
    /// The game's number in the study; its start and seed follow from it.
    pub index: u64,
    pub variant: String,
    pub seed: u64,
    /// Start index and FEN before the pre-game.
    pub start: u64,
    pub start_fen: String,
    /// `key:choice` of each pre-game step (`side:black`, `swap:b1g1`, `relocate.white:king`).
    pub pregame: Vec<String>,
    /// The FEN the game was played from (after the pre-game).
    pub fen: String,
    /// White's and Black's node limits (0 under a move time).
    pub nodes: [u64; 2],
    /// White's score: 1, ½, 0 (3/5 and 2/5 for a stalemate where that scores so).
    pub white_score: f64,
    pub plies: u64,
    /// How it ended: the rules' reason, or an adjudication.
    pub end: String,
    pub moves: Vec<String>,
}

impl GameLine {
    /// The side that moved first.
    pub fn first_mover(&self) -> Color {
        startpos::side_to_move(&self.fen)
    }

    /// The first mover's score.
    pub fn first_mover_score(&self) -> f64 {
        match self.first_mover() {
            Color::White => self.white_score,
            Color::Black => 1.0 - self.white_score,
        }
    }

    pub fn to_json(&self) -> Json {
        let strings = |v: &[String]| Json::Array(v.iter().map(|s| Json::from(s.as_str())).collect());
        Json::object([
            ("game", Json::from(self.index)),
            ("variant", Json::from(self.variant.as_str())),
            ("seed", Json::from(self.seed.to_string())),
            ("start", Json::from(self.start)),
            ("start_fen", Json::from(self.start_fen.as_str())),
            ("pregame", strings(&self.pregame)),
            ("fen", Json::from(self.fen.as_str())),
            ("first", Json::from(self.first_mover().to_string())),
            ("nodes", Json::Array(self.nodes.iter().map(|&n| Json::from(n)).collect())),
            ("white_score", Json::from(self.white_score)),
            ("result", Json::from(result_text(self.white_score))),
            ("plies", Json::from(self.plies)),
            ("end", Json::from(self.end.as_str())),
            ("moves", Json::from(self.moves.join(" "))),
        ])
    }

    /// A line read back; `None` when a field is missing or of the wrong type.
    pub fn from_json(j: &Json) -> Option<GameLine> {
        let text = |k: &str| j.get(k).and_then(Json::as_str).map(str::to_string);
        let nodes = j.get("nodes")?.as_array()?;
        Some(GameLine {
            index: j.get("game")?.as_u64()?,
            variant: text("variant")?,
            seed: text("seed")?.parse().ok()?,
            start: j.get("start")?.as_u64()?,
            start_fen: text("start_fen")?,
            pregame: j
                .get("pregame")?
                .as_array()?
                .iter()
                .map(|s| s.as_str().map(str::to_string))
                .collect::<Option<_>>()?,
            fen: text("fen")?,
            nodes: [nodes.first()?.as_u64()?, nodes.get(1)?.as_u64()?],
            white_score: j.get("white_score")?.as_f64().filter(|s| (0.0..=1.0).contains(s))?,
            plies: j.get("plies")?.as_u64()?,
            end: text("end")?,
            moves: text("moves")?.split_whitespace().map(str::to_string).collect(),
        })
    }
}

/// The PGN result of White's score.
pub fn result_text(white_score: f64) -> &'static str {
    if white_score > 0.5 {
        "1-0"
    } else if white_score < 0.5 {
        "0-1"
    } else {
        "1/2-1/2"
    }
}

/// What one game thread keeps between games (each game clears it first, so that a game
/// depends on its seed alone, not on the games the thread played before).
pub struct GameThread {
    pub tt: TranspositionTable,
    pub pool: SearchThreads,
    pub hash_mb: usize,
}

impl GameThread {
    pub fn new(hash_mb: usize) -> GameThread {
        GameThread { tt: TranspositionTable::new(hash_mb), pool: SearchThreads::new(1), hash_mb }
    }
}

/// Play game `index` of a study from start `start` with seed `seed`.
pub fn play_game(
    settings: &GameSettings,
    index: u64,
    start: u64,
    seed: u64,
    thread: &mut GameThread,
) -> Result<GameLine, BalanceError> {
    let begin = start_in_form(settings.variant, Form::Basic, start)?;
    let (variant, start_fen) = (begin.variant, begin.fen);
    let (pregame, fen) = match settings.pregame {
        Some(budget) => {
            // A fresh scorer: its table would carry what earlier games' pre-games found.
            let network = settings.eval.network_for(variant).cloned();
            let mut scorer = Scorer::new(thread.hash_mb, 1).with_network(network);
            let p = run_pregame(variant, &start_fen, budget, &Forced::default(), &mut scorer)?;
            (p.steps.iter().map(|s| format!("{}:{}", s.kind.key(), s.choice)).collect(), p.fen)
        }
        None => (Vec::new(), start_fen.clone()),
    };
    let mut game = Game::new(variant, &fen).map_err(|e| BalanceError::BadFen(e.to_string()))?;
    let nodes = if settings.movetime_ms.is_some() { [0, 0] } else { settings.node_limits(seed) };
    let limits = |side: Color| match settings.movetime_ms {
        Some(ms) => SearchLimits::movetime(ms),
        None => SearchLimits::nodes(nodes[side.index()]),
    };
    thread.tt.clear();
    let network = settings.eval.network_for(variant).map(|n| n.as_ref());
    let stop = AtomicBool::new(false);
    // Each side keeps its history between its moves, as an engine does through a match.
    let memories = [SearchMemory::new(), SearchMemory::new()];
    let (mut winning, mut drawn, mut last_white) = (0usize, 0usize, 0i32);
    let (white_score, end) = loop {
        if let Some(outcome) = game.outcome() {
            break (outcome.white_score(), outcome.reason());
        }
        if game.moves().len() >= MAX_PLIES {
            break (0.5, format!("{MAX_PLIES} plies"));
        }
        let (text, score, white) = with_position!(game.position(), p => {
            let side = p.side_to_move();
            let mut job = SearchJob::new(p, limits(side), &thread.tt, &stop, &thread.pool);
            job.network = network;
            job.memory = Some(&memories[side.index()]);
            let out = search(&job, |_| {});
            let best = out.best.ok_or_else(|| BalanceError::NoMove(p.to_fen()))?;
            (p.move_to_uci(best, true), out.score, side == Color::White)
        });
        let white_view = if white { score } else { -score };
        winning =
            if white_view.abs() >= WIN_SCORE && white_view.signum() == last_white.signum() { winning + 1 } else { 0 };
        drawn = if white_view.abs() <= DRAW_SCORE && game.moves().len() >= DRAW_FROM_PLY { drawn + 1 } else { 0 };
        last_white = white_view;
        game.play(&text).map_err(|e| BalanceError::BadMove(format!("{text}: {e}")))?;
        if winning >= WIN_PLIES {
            break (if white_view > 0 { 1.0 } else { 0.0 }, "adjudicated win".to_string());
        }
        if drawn >= DRAW_PLIES {
            break (0.5, "adjudicated draw".to_string());
        }
    };
    Ok(GameLine {
        index,
        variant: variant.name.clone(),
        seed,
        start,
        start_fen,
        pregame,
        fen,
        nodes,
        white_score,
        plies: game.moves().len() as u64,
        end,
        moves: game.moves().to_vec(),
    })
}

/// Sample positions of games for the piece worths: every `every` plies from ply `every` on,
/// at most `most` in all (spread over the games by taking every game's first few first).
pub fn sample_positions(variant: &'static Variant, games: &[GameLine], every: usize, most: usize) -> Vec<String> {
    let mut per_game: Vec<Vec<String>> = games
        .iter()
        .map(|g| {
            let mut out = Vec::new();
            let Ok(mut game) = Game::new(variant, &g.fen) else { return out };
            for (ply, m) in g.moves.iter().enumerate() {
                if game.play(m).is_err() {
                    break;
                }
                if (ply + 1) % every.max(1) == 0 {
                    out.push(game.position().to_fen());
                }
            }
            out.reverse();
            out
        })
        .collect();
    let mut fens = Vec::new();
    while fens.len() < most && per_game.iter().any(|g| !g.is_empty()) {
        for g in per_game.iter_mut() {
            if let Some(f) = g.pop() {
                if fens.len() < most {
                    fens.push(f);
                }
            }
        }
    }
    fens
}

#[cfg(test)]
mod tests {
    use super::*;
    use menagerie_rules::variant::by_name;

    #[test]
    fn start_lists_parse_and_stay_in_range() {
        let rvc = by_name("rvc").expect("rvc");
        assert_eq!("all".parse::<Starts>().unwrap(), Starts::All);
        assert_eq!("3..5".parse::<Starts>().unwrap(), Starts::Range(3, 5));
        assert_eq!("random:7".parse::<Starts>().unwrap(), Starts::Random(7));
        for bad in ["5..3", "random:0", "x", "1..", "random:-1"] {
            assert!(bad.parse::<Starts>().is_err(), "{bad}");
        }
        assert_eq!(Starts::All.indices(rvc, 1).unwrap().len() as u64, rvc.start_count());
        assert_eq!(Starts::Range(3, 5).indices(rvc, 1).unwrap(), vec![3, 4, 5]);
        assert!(Starts::Range(3, rvc.start_count()).indices(rvc, 1).is_err());
        let sample = Starts::Random(7).indices(rvc, 9).unwrap();
        assert_eq!(sample.len(), 7);
        assert!(sample.windows(2).all(|w| w[0] < w[1]) && sample.iter().all(|&i| i < rvc.start_count()));
        assert_eq!(sample, Starts::Random(7).indices(rvc, 9).unwrap(), "the seed decides");
        let dchess = by_name("dchess").expect("dchess");
        assert!(Starts::All.indices(dchess, 1).is_err(), "millions of starts");
    }

    #[test]
    fn node_limits_vary_within_the_jitter_and_follow_the_seed() {
        let v = by_name("chess").expect("chess");
        let s = GameSettings {
            variant: v,
            nodes: 1000,
            movetime_ms: None,
            jitter: 0.15,
            pregame: None,
            eval: EvalChoice::HandWritten,
        };
        let limits: Vec<[u64; 2]> = (0..50).map(|i| s.node_limits(GameSettings::game_seed(1, i))).collect();
        assert!(limits.iter().flatten().all(|&n| (850..=1150).contains(&n)));
        assert!(limits.iter().any(|l| l[0] != l[1]));
        assert_eq!(limits[3], s.node_limits(GameSettings::game_seed(1, 3)));
        assert_ne!(GameSettings::game_seed(1, 3), GameSettings::game_seed(2, 3));
    }

    #[test]
    fn a_game_line_reads_back_as_written() {
        let line = GameLine {
            index: 4,
            variant: "dchess".to_string(),
            seed: u64::MAX - 3,
            start: 123,
            start_fen: "a b".to_string(),
            pregame: vec!["side:black".to_string(), "swap:b1g1".to_string()],
            fen: "x b - - 0 1".to_string(),
            nodes: [990, 1010],
            white_score: 0.5,
            plies: 3,
            end: "adjudicated draw".to_string(),
            moves: vec!["e2e4".to_string(), "e7e5".to_string(), "g1f3".to_string()],
        };
        let text = line.to_json().to_string();
        assert_eq!(GameLine::from_json(&crate::json::parse(&text).unwrap()), Some(line.clone()));
        assert_eq!(line.first_mover(), Color::Black);
        assert_eq!(line.first_mover_score(), 0.5);
    }
}
