//! Training positions for tuning the evaluation (scripts/texel-tune.rs): self-play games of the
//! engine at a fixed number of nodes per move, from random start positions of every variant
//! with a few random moves first, so that the games differ. Each quiet position of a game (the
//! side to move not in check, the engine's move neither a capture, a promotion nor a drop) is
//! written with the game's result and the search's score, one per line:
//! `variant;fen;White's search score;White's score in the game`.
//!
//! Run: `cargo run --release --example texel-data -- GAMES SEED NODES THREADS > FILE`.
//! The games are `menagerie datagen`'s (`datagen::play_game`: its random plies and
//! adjudication).

use menagerie::datagen::{format::NO_SCORE, play_game};
use menagerie::game::Game;
use menagerie::geometry::Color;
use menagerie::nnue::embedded::EvalChoice;
use menagerie::random::SplitMix64;
use menagerie::search::{SearchThreads, TranspositionTable};
use menagerie::variant::by_name;
use menagerie::with_position;
use std::io::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Variants and how many games of each in ten.
const MIX: [(&str, u64); 5] = [("dchess", 4), ("chess9", 3), ("displacement", 1), ("vdchess", 1), ("rvc", 1)];
/// Scores beyond this are decided positions, not judgment to tune on.
const MAX_SCORE: i32 = 2000;

/// One self-play game (`menagerie datagen`'s); returns its quiet positions as
/// `variant;fen;White's search score` and White's score in the game.
fn quiet_positions(seed: u64, nodes: u64, tt: &TranspositionTable, pool: &SearchThreads) -> Option<(Vec<String>, f64)> {
    let mut rng = SplitMix64::new(seed);
    let total: u64 = MIX.iter().map(|m| m.1).sum();
    let mut pick = rng.below(total);
    let mut name = MIX[0].0;
    for (n, weight) in MIX {
        if pick < weight {
            name = n;
            break;
        }
        pick -= weight;
    }
    let record = play_game(by_name(name).ok()?, rng.next_u64(), nodes, EvalChoice::HandWritten, tt, pool)?;
    let variant = by_name(&record.variant).ok()?;
    let mut game = Game::new(variant, &record.start_fen).ok()?;
    let mut quiet = Vec::new();
    for (text, score) in &record.moves {
        let (tactical, in_check, white) = with_position!(game.position(), p => {
            let san = p.move_to_san(p.parse_move(text).ok()?);
            (san.contains('x') || san.contains('=') || san.contains('@'), p.in_check(), p.side_to_move() == Color::White)
        });
        let score = i32::from(*score);
        if score != i32::from(NO_SCORE) && !in_check && !tactical && score.abs() < MAX_SCORE {
            let white_score = if white { score } else { -score };
            quiet.push(format!("{};{};{white_score}", record.variant, game.position().to_fen()));
        }
        game.play(text).ok()?;
    }
    eprintln!("game {seed}, {name}: {} plies, {}", record.moves.len(), record.white_tenths);
    Some((quiet, f64::from(record.white_tenths) / 10.0))
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let games = args.first().copied().unwrap_or(100);
    let seed = args.get(1).copied().unwrap_or(1);
    let nodes = args.get(2).copied().unwrap_or(5000);
    let threads = args.get(3).copied().unwrap_or(2).max(1);
    let next = AtomicU64::new(0);
    let out = Mutex::new(std::io::stdout());
    let positions = AtomicU64::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let tt = TranspositionTable::new(16);
                let pool = SearchThreads::new(1);
                loop {
                    let g = next.fetch_add(1, Ordering::Relaxed);
                    if g >= games {
                        break;
                    }
                    let Some((quiet, score)) =
                        quiet_positions(seed.wrapping_mul(1_000_003).wrapping_add(g), nodes, &tt, &pool)
                    else {
                        continue;
                    };
                    positions.fetch_add(quiet.len() as u64, Ordering::Relaxed);
                    let mut o = out.lock().unwrap_or_else(|p| p.into_inner());
                    for q in &quiet {
                        let _ = writeln!(o, "{q};{score}");
                    }
                    let _ = o.flush();
                }
            });
        }
    });
    eprintln!("{} positions", positions.load(Ordering::Relaxed));
}
