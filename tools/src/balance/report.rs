//! The numbers of a balance study, computed from its games alone (so that a test can recount
//! them from the game file), and their two forms: a text table for people and JSON for tools.
//!
//! Owns: `Report`, `StartRow`, the text and JSON layouts.
//! Must not know: how the games were played, the picture.

use super::games::GameLine;
use super::pieces_worth::PieceWorths;
use super::stats::{mean_of_means, quartiles, ChiSquare, MeanScore};
use crate::json::Json;
use menagerie_rules::geometry::Color;
use menagerie_rules::variant::Variant;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One start position's games.
#[derive(Clone, Debug, PartialEq)]
pub struct StartRow {
    pub start: u64,
    /// The first mover's score over its games.
    pub score: MeanScore,
    pub draws: u64,
}

impl StartRow {
    /// `+` where the interval lies above ½ (the first mover is favoured), `-` below, else blank.
    pub fn verdict(&self) -> &'static str {
        if self.score.low > 0.5 {
            "+"
        } else if self.score.high < 0.5 {
            "-"
        } else {
            ""
        }
    }
}

/// Everything a study reports.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub variant: String,
    pub games: u64,
    /// Wins, draws and losses of the side that moved first.
    pub wins: u64,
    pub draws: u64,
    pub losses: u64,
    pub first_mover: MeanScore,
    /// The first mover's score with the start positions as the unit (`mean_of_means`): the
    /// interval for starts sampled from many.
    pub over_starts: Option<MeanScore>,
    /// Games in which Black moved first (after a pre-game).
    pub black_first: u64,
    /// White's score, whoever moved first.
    pub white: MeanScore,
    pub plies_mean: f64,
    /// 25%, 50%, 75% of the game lengths in plies.
    pub plies_quartiles: [f64; 3],
    /// How games ended, most frequent first.
    pub ends: Vec<(String, u64)>,
    /// Pre-game choices (`key:choice`) and how often they were made.
    pub pregame: Vec<(String, u64)>,
    pub starts: Vec<StartRow>,
    /// Whether the start positions' scores differ more than noise.
    pub spread: Option<ChiSquare>,
    pub worths: PieceWorths,
}

fn counted(items: impl Iterator<Item = String>) -> Vec<(String, u64)> {
    let mut map = BTreeMap::new();
    for i in items {
        *map.entry(i).or_insert(0) += 1;
    }
    let mut v: Vec<(String, u64)> = map.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

/// Start rows the table lists all of; above, only the `SHOWN_ENDS` best and worst.
const ALL_ROWS_UP_TO: usize = 60;
const SHOWN_ENDS: usize = 10;
/// Choices of one pre-game step the table names.
const SHOWN_CHOICES: usize = 6;

impl Report {
    /// The pre-game choices grouped by step (`side`, `swap`, `relocate.white`), each step's
    /// choices most frequent first.
    pub fn pregame_by_step(&self) -> Vec<(String, Vec<(String, u64)>)> {
        let mut steps: Vec<(String, Vec<(String, u64)>)> = Vec::new();
        for (text, n) in &self.pregame {
            let (key, choice) = text.split_once(':').unwrap_or((text.as_str(), ""));
            match steps.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => v.push((choice.to_string(), *n)),
                None => steps.push((key.to_string(), vec![(choice.to_string(), *n)])),
            }
        }
        steps
    }

    pub fn new(variant: &Variant, games: &[GameLine], worths: PieceWorths) -> Report {
        let first: Vec<f64> = games.iter().map(GameLine::first_mover_score).collect();
        let white: Vec<f64> = games.iter().map(|g| g.white_score).collect();
        let plies: Vec<f64> = games.iter().map(|g| g.plies as f64).collect();
        let mut by_start: BTreeMap<u64, Vec<f64>> = BTreeMap::new();
        for g in games {
            by_start.entry(g.start).or_default().push(g.first_mover_score());
        }
        let starts: Vec<StartRow> = by_start
            .iter()
            .map(|(&start, s)| StartRow {
                start,
                score: MeanScore::of(s),
                draws: s.iter().filter(|&&x| x == 0.5).count() as u64,
            })
            .collect();
        let groups: Vec<(u64, f64)> = by_start.values().map(|s| (s.len() as u64, s.iter().sum())).collect();
        Report {
            variant: variant.name.clone(),
            games: games.len() as u64,
            wins: first.iter().filter(|&&x| x > 0.5).count() as u64,
            draws: first.iter().filter(|&&x| x == 0.5).count() as u64,
            losses: first.iter().filter(|&&x| x < 0.5).count() as u64,
            first_mover: MeanScore::of(&first),
            over_starts: mean_of_means(&starts.iter().map(|r| r.score.mean).collect::<Vec<_>>()),
            black_first: games.iter().filter(|g| g.first_mover() == Color::Black).count() as u64,
            white: MeanScore::of(&white),
            plies_mean: if plies.is_empty() { f64::NAN } else { plies.iter().sum::<f64>() / plies.len() as f64 },
            plies_quartiles: quartiles(&plies),
            ends: counted(games.iter().map(|g| g.end.clone())),
            pregame: counted(games.iter().flat_map(|g| g.pregame.iter().cloned())),
            starts,
            spread: ChiSquare::of(&groups, &first),
            worths,
        }
    }

    pub fn draw_rate(&self) -> f64 {
        self.draws as f64 / self.games.max(1) as f64
    }

    /// The text table.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        let _ = writeln!(s, "Balance of {}: {} games", self.variant, self.games);
        let f = &self.first_mover;
        let _ = writeln!(
            s,
            "First mover's score  {} [{} .. {}] (95%), {:+.0} Elo; +{} ={} -{}",
            pct(f.mean),
            pct(f.low),
            pct(f.high),
            f.elo(),
            self.wins,
            self.draws,
            self.losses
        );
        if let Some(o) = &self.over_starts {
            let _ = writeln!(
                s,
                "  over {} starts     {} [{} .. {}] (95%, mean of the starts' scores)",
                o.games,
                pct(o.mean),
                pct(o.low),
                pct(o.high)
            );
        }
        if self.black_first > 0 {
            let _ = writeln!(s, "Black moved first in  {} games", self.black_first);
        }
        let w = &self.white;
        let _ = writeln!(s, "White's score        {} [{} .. {}] (95%)", pct(w.mean), pct(w.low), pct(w.high));
        let _ = writeln!(s, "Draw rate            {}", pct(self.draw_rate()));
        let [q1, q2, q3] = self.plies_quartiles;
        let _ = writeln!(s, "Game length (plies)  mean {:.1}, quartiles {q1:.0} / {q2:.0} / {q3:.0}", self.plies_mean);
        let ends: Vec<String> = self.ends.iter().map(|(e, n)| format!("{e} {n}")).collect();
        let _ = writeln!(s, "Endings              {}", ends.join(", "));
        for (key, choices) in self.pregame_by_step() {
            let shown: Vec<String> = choices.iter().take(SHOWN_CHOICES).map(|(c, n)| format!("{c} {n}")).collect();
            let more = if choices.len() > SHOWN_CHOICES {
                format!(", ... ({} different)", choices.len())
            } else {
                String::new()
            };
            let _ = writeln!(s, "{:<20} {}{more}", format!("Pre-game {key}"), shown.join(", "));
        }
        match &self.spread {
            Some(c) => {
                let _ = writeln!(
                    s,
                    "Spread over starts   chi-square {:.1} on {} df, p = {:.3} ({})",
                    c.statistic,
                    c.df,
                    c.p,
                    if c.p < 0.05 { "more than noise" } else { "not more than noise" }
                );
            }
            None => {
                let _ = writeln!(s, "Spread over starts   not measurable (one start, or no spread)");
            }
        }
        let _ = writeln!(s);
        let _ = writeln!(s, "{:>8} {:>6} {:>7} {:>17} {:>6}", "start", "games", "score", "95% interval", "draws");
        let mut rows: Vec<&StartRow> = self.starts.iter().collect();
        if rows.len() > ALL_ROWS_UP_TO {
            let _ = writeln!(
                s,
                "({} starts: the {SHOWN_ENDS} best and worst for the first mover; --json has all)",
                rows.len()
            );
            rows.sort_by(|a, b| b.score.mean.total_cmp(&a.score.mean).then(a.start.cmp(&b.start)));
            rows.drain(SHOWN_ENDS..rows.len() - SHOWN_ENDS);
        }
        for r in rows {
            let _ = writeln!(
                s,
                "{:>8} {:>6} {:>7} {:>17} {:>6} {}",
                r.start,
                r.score.games,
                pct(r.score.mean),
                format!("{} .. {}", pct(r.score.low), pct(r.score.high)),
                r.draws,
                r.verdict()
            );
        }
        let _ = writeln!(s, "(+ favours the first mover, - the second: the interval lies wholly on that side of 50%)");
        let _ = writeln!(s);
        let wo = &self.worths;
        let _ = writeln!(
            s,
            "Piece worth ({}, {} positions; mean evaluation drop when one is removed{})",
            wo.method,
            wo.positions,
            if wo.pawn_raw.is_some() { ", pawn = 100" } else { ", centipawns" }
        );
        let _ = writeln!(s, "{:>6} {:<16} {:>8} {:>8} {:>8}", "piece", "name", "worth", "raw cp", "samples");
        for p in wo.pieces.iter().filter(|p| p.samples > 0) {
            let _ = writeln!(s, "{:>6} {:<16} {:>8.0} {:>8.0} {:>8}", p.letter, p.name, p.worth, p.raw, p.samples);
        }
        let unseen: Vec<String> = wo.pieces.iter().filter(|p| p.samples == 0).map(|p| p.letter.to_string()).collect();
        if !unseen.is_empty() {
            let _ = writeln!(s, "(not on the board in any sampled position: {})", unseen.join(" "));
        }
        s
    }

    /// The JSON form, with the study's command line as given.
    pub fn json(&self, command: &str) -> Json {
        let score = |m: &MeanScore| {
            Json::object([
                ("games", Json::from(m.games)),
                ("mean", Json::from(m.mean)),
                ("low", Json::from(m.low)),
                ("high", Json::from(m.high)),
            ])
        };
        let counts = |v: &[(String, u64)]| Json::Object(v.iter().map(|(k, n)| (k.clone(), Json::from(*n))).collect());
        Json::object([
            ("command", Json::from(command)),
            ("variant", Json::from(self.variant.as_str())),
            ("games", Json::from(self.games)),
            ("first_mover", score(&self.first_mover)),
            ("first_mover_over_starts", self.over_starts.as_ref().map_or(Json::Null, score)),
            ("wins", Json::from(self.wins)),
            ("draws", Json::from(self.draws)),
            ("losses", Json::from(self.losses)),
            ("draw_rate", Json::from(self.draw_rate())),
            ("black_first", Json::from(self.black_first)),
            ("white", score(&self.white)),
            (
                "plies",
                Json::object([
                    ("mean", Json::from(self.plies_mean)),
                    ("quartiles", Json::Array(self.plies_quartiles.iter().map(|&q| Json::from(q)).collect())),
                ]),
            ),
            ("ends", counts(&self.ends)),
            ("pregame", counts(&self.pregame)),
            (
                "spread",
                match &self.spread {
                    Some(c) => Json::object([
                        ("chi_square", Json::from(c.statistic)),
                        ("df", Json::from(c.df)),
                        ("p", Json::from(c.p)),
                    ]),
                    None => Json::Null,
                },
            ),
            (
                "starts",
                Json::Array(
                    self.starts
                        .iter()
                        .map(|r| {
                            Json::object([
                                ("start", Json::from(r.start)),
                                ("games", Json::from(r.score.games)),
                                ("score", Json::from(r.score.mean)),
                                ("low", Json::from(r.score.low)),
                                ("high", Json::from(r.score.high)),
                                ("draws", Json::from(r.draws)),
                            ])
                        })
                        .collect(),
                ),
            ),
            (
                "piece_worth",
                Json::object([
                    ("method", Json::from(self.worths.method.as_str())),
                    ("positions", Json::from(self.worths.positions)),
                    ("pawn_raw", self.worths.pawn_raw.map_or(Json::Null, Json::from)),
                    (
                        "pieces",
                        Json::Array(
                            self.worths
                                .pieces
                                .iter()
                                .map(|p| {
                                    Json::object([
                                        ("letter", Json::from(p.letter.to_string())),
                                        ("name", Json::from(p.name.as_str())),
                                        ("worth", Json::from(p.worth)),
                                        ("raw", Json::from(p.raw)),
                                        ("raw_error", Json::from(p.raw_error)),
                                        ("samples", Json::from(p.samples)),
                                    ])
                                })
                                .collect(),
                        ),
                    ),
                ]),
            ),
        ])
    }
}
