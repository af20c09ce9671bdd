//! Fits the win/draw/loss model of `UCI_ShowWDL` (src/search/wdl.rs) to self-play games of
//! `menagerie datagen`: every scored position gives its search score and the game's result
//! for the side to move, and the model
//!
//! ```text
//! P(win) = sigmoid((score - MIDPOINT) / SPREAD)    P(loss) = sigmoid((-score - MIDPOINT) / SPREAD)
//! ```
//!
//! gets the midpoint and spread of the largest likelihood. The positions are first counted by
//! score (clamped to ±CLAMP), so the search over the two parameters is cheap whatever the data.
//!
//! Run: `cargo run --release --example wdl-fit -- FILE[,FILE...]` (uncompressed data files).

use menagerie::datagen::format::{read_file, NO_SCORE};
use std::path::Path;

/// Scores beyond this are counted at it: the games are all but decided there.
const CLAMP: i32 = 1500;

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean log-likelihood of the counts under the model.
fn log_likelihood(counts: &[[u64; 3]], midpoint: f64, spread: f64) -> f64 {
    let (mut sum, mut n) = (0.0, 0u64);
    for (i, c) in counts.iter().enumerate() {
        if c.iter().sum::<u64>() == 0 {
            continue;
        }
        let s = i as f64 - f64::from(CLAMP);
        let win = sigmoid((s - midpoint) / spread);
        let loss = sigmoid((-s - midpoint) / spread);
        let draw = (1.0 - win - loss).max(1e-9);
        for (count, p) in c.iter().zip([win, draw, loss]) {
            sum += *count as f64 * p.max(1e-9).ln();
            n += count;
        }
    }
    sum / n.max(1) as f64
}

fn main() {
    let files = std::env::args().nth(1).unwrap_or_default();
    if files.is_empty() {
        eprintln!("usage: wdl-fit FILE[,FILE...]");
        std::process::exit(2);
    }
    let mut counts = vec![[0u64; 3]; (2 * CLAMP + 1) as usize];
    let (mut games, mut positions) = (0u64, 0u64);
    for file in files.split(',') {
        let records = match read_file(Path::new(file)) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{file}: {e}");
                std::process::exit(1);
            }
        };
        for record in records {
            games += 1;
            let white_first = record.start_fen.split_whitespace().nth(1) != Some("b");
            // 0 a win, 1 a draw, 2 a loss, for White.
            let white_outcome = match record.white_tenths {
                10 => 0,
                0 => 2,
                _ => 1,
            };
            for (ply, (_, score)) in record.moves.iter().enumerate() {
                if *score == NO_SCORE || score.unsigned_abs() >= 3000 {
                    continue;
                }
                let white_to_move = white_first == (ply % 2 == 0);
                let outcome = if white_to_move { white_outcome } else { 2 - white_outcome };
                let bin = (i32::from(*score).clamp(-CLAMP, CLAMP) + CLAMP) as usize;
                counts[bin][outcome] += 1;
                positions += 1;
            }
        }
    }
    let (mut best, mut best_ll) = ((0.0, 100.0), f64::NEG_INFINITY);
    let mut midpoint = 0.0;
    while midpoint <= 800.0 {
        let mut spread = 20.0;
        while spread <= 600.0 {
            let ll = log_likelihood(&counts, midpoint, spread);
            if ll > best_ll {
                (best, best_ll) = ((midpoint, spread), ll);
            }
            spread += 2.0;
        }
        midpoint += 2.0;
    }
    let draws: u64 = counts.iter().map(|c| c[1]).sum();
    println!("games {games} positions {positions} draws {:.1}%", 100.0 * draws as f64 / positions.max(1) as f64);
    println!("midpoint {} spread {} log-likelihood {best_ll:.4}", best.0, best.1);
    for s in [0, 50, 100, 200, 300, 500] {
        let win = sigmoid((f64::from(s) - best.0) / best.1);
        let loss = sigmoid((-f64::from(s) - best.0) / best.1);
        println!("score {s:>4}: win {:.3} draw {:.3} loss {:.3}", win, 1.0 - win - loss, loss);
    }
}
