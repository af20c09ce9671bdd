//! Texel tuning of the evaluation weights (`EvalParams`) on the training positions of
//! scripts/texel-data.rs: minimise the mean squared error between a target and the expected
//! score of the static evaluation, `1 / (1 + 10^(-K * eval / 400))`, K fitted first to the
//! current weights. The target blends the game's result (weight LAMBDA) with the expected score
//! of the search's score in the game, which is far less noisy than a result. The search is a
//! local one, a step of each weight in turn per pass (as Texel's), halving the steps when a
//! pass finds nothing. One block of positions in ten is held out: the answer is the weights
//! after the pass with the least error on them. Prints the weights that changed, as
//! `name: old -> new`.
//!
//! Run: `cargo run --release --example texel-tune -- FILE [PASSES=20] [LAMBDA=0.5] [FROZEN]`, where
//! FROZEN is a comma-separated list of weights to leave as they are.

use menagerie::bitboard::BitSet;
use menagerie::eval::{EvalParams, Evaluator};
use menagerie::geometry::Color;
use menagerie::position::Position;
use menagerie::rules::{compiled, Rules};
use menagerie::variant::by_name;
use rayon::prelude::*;
use std::collections::BTreeMap;

/// Lines per block of the hold-out split (a block is a few games, so that the positions of one
/// game stay on one side).
const BLOCK: usize = 1000;

/// The positions of one variant with their target (White's expected score).
struct Group<B: BitSet> {
    rules: &'static Rules<B>,
    train: Vec<(Position<B>, f32)>,
    test: Vec<(Position<B>, f32)>,
}

fn expected(eval: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * eval as f64 / 400.0))
}

impl<B: BitSet> Group<B> {
    /// Summed squared error over the training (or held-out) positions.
    fn error(&self, w: &EvalParams, k: f64, held_out: bool) -> f64 {
        let evaluator = Evaluator::with_params(self.rules, w);
        let set = if held_out { &self.test } else { &self.train };
        set.par_iter()
            .map(|(p, result)| {
                let e = evaluator.evaluate(p);
                let white = if p.side_to_move() == Color::White { e } else { -e };
                (*result as f64 - expected(white, k)).powi(2)
            })
            .sum()
    }
}

struct Data {
    narrow: Vec<Group<u64>>,
    wide: Vec<Group<u128>>,
    train: usize,
    test: usize,
}

impl Data {
    fn load(path: &str, lambda: f64) -> Data {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
        let mut narrow: BTreeMap<String, Group<u64>> = BTreeMap::new();
        let mut wide: BTreeMap<String, Group<u128>> = BTreeMap::new();
        let (mut train, mut test) = (0, 0);
        let records: Vec<(usize, &str, &str, i32, f64)> = text
            .lines()
            .enumerate()
            .filter_map(|(index, line)| {
                let fields: Vec<&str> = line.split(';').collect();
                let [name, fen, score, result] = fields[..] else { return None };
                Some((index, name, fen, score.parse().ok()?, result.parse().ok()?))
            })
            .collect();
        // The search's scores are read as expected scores with the K that best predicts the
        // results from them.
        let score_k = golden(|k| records.iter().map(|r| (r.4 - expected(r.3, k)).powi(2)).sum());
        eprintln!("K of the search's scores: {score_k:.4}");
        for (index, name, fen, score, result) in records {
            let Ok(variant) = by_name(name) else { continue };
            let result = (lambda * result + (1.0 - lambda) * expected(score, score_k)) as f32;
            let held_out = (index / BLOCK) % 10 == 9;
            macro_rules! add {
                ($map:expr, $b:ty) => {{
                    let rules = compiled::<$b>(variant);
                    let Ok(p) = Position::from_fen(rules, fen) else { continue };
                    let g = $map.entry(name.to_string()).or_insert_with(|| Group {
                        rules,
                        train: Vec::new(),
                        test: Vec::new(),
                    });
                    if held_out {
                        g.test.push((p, result));
                        test += 1;
                    } else {
                        g.train.push((p, result));
                        train += 1;
                    }
                }};
            }
            if variant.geometry.squares() > 64 {
                add!(wide, u128)
            } else {
                add!(narrow, u64)
            }
        }
        for (name, g) in &narrow {
            eprintln!("{name}: {} + {} positions", g.train.len(), g.test.len());
        }
        for (name, g) in &wide {
            eprintln!("{name}: {} + {} positions", g.train.len(), g.test.len());
        }
        Data { narrow: narrow.into_values().collect(), wide: wide.into_values().collect(), train, test }
    }

    /// Mean squared error over the training (or held-out) positions.
    fn error(&self, w: &EvalParams, k: f64, held_out: bool) -> f64 {
        let sum: f64 = self.narrow.iter().map(|g| g.error(w, k, held_out)).sum::<f64>()
            + self.wide.iter().map(|g| g.error(w, k, held_out)).sum::<f64>();
        sum / (if held_out { self.test } else { self.train }).max(1) as f64
    }
}

/// The K in 0.2..3 that minimises `error` (golden-section search).
fn golden(error: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (0.2f64, 3.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..25 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let path = args.first().map_or("train.txt", String::as_str);
    let passes = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20usize);
    let lambda = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0.5f64);
    let frozen: Vec<&str> = args.get(3).map_or(Vec::new(), |a| a.split(',').collect());
    let data = Data::load(path, lambda);
    let mut w = EvalParams::DEFAULT;
    let k = golden(|k| data.error(&w, k, false));
    let mut best = data.error(&w, k, false);
    eprintln!("K = {k:.4}; error {best:.6}, held out {:.6}", data.error(&w, k, true));
    // The weights of the pass with the least held-out error are the answer (early stopping).
    let mut best_held_out = (data.error(&w, k, true), w.clone(), 0);
    let mut scale = 1.0;
    let mut halvings = 0;
    for pass in 1..=passes {
        let mut improved = false;
        let count = w.clone().weights_mut().len();
        let names: Vec<&str> = w.clone().weights_mut().iter().map(|(name, _, _)| *name).collect();
        for i in (0..count).filter(|&i| !frozen.contains(&names[i])) {
            for direction in [1.0, -1.0] {
                let mut trial = w.clone();
                let mut weights = trial.weights_mut();
                let (_, step, value) = &mut weights[i];
                **value += direction * *step * scale;
                drop(weights);
                let e = data.error(&trial, k, false);
                if e < best {
                    best = e;
                    w = trial;
                    improved = true;
                    break;
                }
            }
        }
        let held_out = data.error(&w, k, true);
        eprintln!("pass {pass} (steps x{scale}): error {best:.6}, held out {held_out:.6}");
        if held_out < best_held_out.0 {
            best_held_out = (held_out, w.clone(), pass);
        }
        if !improved {
            if halvings == 2 {
                break;
            }
            halvings += 1;
            scale /= 2.0;
        }
    }
    let (held_out, mut w, pass) = best_held_out;
    eprintln!("answer: the weights after pass {pass}, held-out error {held_out:.6}");
    let mut default = EvalParams::DEFAULT;
    for ((name, _, old), (_, _, new)) in default.weights_mut().into_iter().zip(w.weights_mut()) {
        if (*old - *new).abs() > 1e-9 {
            println!("{name}: {old} -> {:.4}", new);
        }
    }
}
