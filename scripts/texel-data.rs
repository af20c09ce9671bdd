//! Training positions for tuning the evaluation (scripts/texel-tune.rs): self-play games of the
//! engine at a fixed number of nodes per move, from random start positions of every variant
//! with a few random moves first, so that the games differ. Each quiet position of a game (the
//! side to move not in check, the engine's move neither a capture, a promotion nor a drop) is
//! written with the game's result and the search's score, one per line:
//! `variant;fen;White's search score;White's score in the game`.
//!
//! Run: `cargo run --release --example texel-data -- GAMES SEED NODES THREADS > FILE`.
//! A game whose score stays beyond ±1000 for 8 plies is adjudicated to the side ahead, one
//! within ±10 for 20 plies after move 40 a draw, and one longer than 400 plies a draw.

use menagerie::game::{Game, Outcome};
use menagerie::random::SplitMix64;
use menagerie::search::{search, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
use menagerie::startpos::{form_count, random_index, start_in_form, Form};
use menagerie::variant::builtin;
use menagerie::with_position;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

/// Variants and how many games of each in ten.
const MIX: [(&str, u64); 5] = [("dchess", 4), ("chess9", 3), ("displacement", 1), ("vdchess", 1), ("rvc", 1)];
const RANDOM_PLIES: (u64, u64) = (4, 9);
const WIN_SCORE: i32 = 1000;
const WIN_PLIES: usize = 8;
const DRAW_SCORE: i32 = 10;
const DRAW_PLIES: usize = 20;
const MAX_PLIES: usize = 400;

/// One game; returns its quiet positions (variant, FEN) and White's score.
fn play_game(seed: u64, nodes: u64, tt: &TranspositionTable, pool: &SearchThreads) -> Option<(Vec<String>, f64)> {
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
    let variant = builtin(name).ok()?;
    let start =
        start_in_form(variant, Form::Basic, random_index(form_count(variant, Form::Basic).ok()?, rng.next_u64()))
            .ok()?;
    let mut game = Game::new(variant, &start.fen).ok()?;
    let random_plies = RANDOM_PLIES.0 + rng.below(RANDOM_PLIES.1 - RANDOM_PLIES.0 + 1);
    for _ in 0..random_plies {
        let moves = game.position().legal_moves_uci(true);
        if moves.is_empty() || game.outcome().is_some() {
            return None;
        }
        game.play(&moves[rng.index(moves.len())]).ok()?;
    }
    tt.clear();
    let stop = AtomicBool::new(false);
    let mut quiet = Vec::new();
    let (mut winning, mut drawn) = (0usize, 0usize);
    let mut last_white_score: i32 = 0;
    let score = loop {
        if let Some(outcome) = game.outcome() {
            break outcome.white_score();
        }
        if game.moves().len() > MAX_PLIES {
            break Outcome::FiftyMoves.white_score();
        }
        let (text, score, tactical, in_check, white) = with_position!(game.position(), p => {
            let out = search(&SearchJob::new(p, SearchLimits::nodes(nodes), tt, &stop, pool), |_| {});
            let best = out.best?;
            let text = p.move_to_uci(best, true);
            let san = p.move_to_san(best);
            let tactical = san.contains('x') || san.contains('=') || san.contains('@');
            (text, out.score, tactical, p.in_check(), p.side_to_move() == menagerie::geometry::Color::White)
        });
        let white_score = if white { score } else { -score };
        if !in_check && !tactical && score.abs() < 2 * WIN_SCORE {
            quiet.push(format!("{};{};{white_score}", name, game.position().to_fen()));
        }
        winning = if white_score.abs() >= WIN_SCORE && white_score.signum() == last_white_score.signum() {
            winning + 1
        } else {
            0
        };
        drawn = if white_score.abs() <= DRAW_SCORE && game.moves().len() >= 80 { drawn + 1 } else { 0 };
        last_white_score = white_score;
        if winning >= WIN_PLIES {
            break if white_score > 0 { 1.0 } else { 0.0 };
        }
        if drawn >= DRAW_PLIES {
            break 0.5;
        }
        game.play(&text).ok()?;
    };
    eprintln!("game {seed}, {name}: {} plies, {score}", game.moves().len());
    Some((quiet, score))
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
                        play_game(seed.wrapping_mul(1_000_003).wrapping_add(g), nodes, &tt, &pool)
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
