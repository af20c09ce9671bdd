//! The pre-game study (issue 7): over random D-Chess arrays, does the engine's side choice
//! agree with a short self-play mini-match of the two options? Also the time each decision
//! takes, the distribution of the chosen transpositions, and the Chess-9 relocations chosen at
//! several budgets.
//!
//! For each array the coin-toss winner's side choice is made by `pregame::choose_side` (with
//! the first mover's best transposition under each option). Then each option is played out:
//! from the option's start FEN (the first mover's predicted swap applied), the engine plays
//! both sides at a fixed node count per move, once per node count given. The option whose games
//! score more for the side taken is the mini-match's choice; equal scores are a tie.
//!
//! Run: `scripts/pregame-study.sh` (or `cargo run --release --example pregame-study -- --help`).

use menagerie::engine::{Engine, SearchEvent};
use menagerie::game::Game;
use menagerie::geometry::Color;
use menagerie::pregame::{choose_relocation, choose_side, Budget, Decision, Scorer};
use menagerie::random::SplitMix64;
use menagerie::search::{ScoreReport, SearchLimits};
use menagerie::startpos::{apply_relocation, start_fen};
use menagerie::variant::{by_name, Variant};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

struct Settings {
    arrays: usize,
    seed: u64,
    decision: Budget,
    game_nodes: Vec<u64>,
    max_plies: usize,
}

fn parse_args() -> Result<Settings, String> {
    let mut s = Settings {
        arrays: 100,
        seed: 2026,
        decision: Budget::Depth(6),
        game_nodes: vec![2000, 3000, 4000, 6000],
        max_plies: 200,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        let number = || value.parse::<u64>().map_err(|_| format!("{} needs a number, not '{value}'", args[i]));
        match args[i].as_str() {
            "--arrays" => s.arrays = number()? as usize,
            "--seed" => s.seed = number()?,
            "--decision-depth" => s.decision = Budget::Depth(number()? as u32),
            "--decision-nodes" => s.decision = Budget::Nodes(number()?),
            "--game-nodes" => {
                s.game_nodes = value
                    .split(',')
                    .map(|t| t.parse::<u64>().map_err(|_| format!("--game-nodes: bad list '{value}'")))
                    .collect::<Result<_, _>>()?
            }
            "--max-plies" => s.max_plies = number()? as usize,
            "--help" | "-h" => {
                return Err("options: --arrays N --seed S --decision-depth D | --decision-nodes N \
                            --game-nodes N,N,... --max-plies P"
                    .to_string())
            }
            other => return Err(format!("unknown option '{other}'")),
        }
        i += 2;
    }
    Ok(s)
}

/// White's score of one self-play game from `fen`, the engine playing both sides with `nodes`
/// per move. Adjudicated: a score of at least 1000 cp for one side on four plies in a row wins;
/// at the ply limit, 300 cp wins, anything less draws.
fn play(engine: &mut Engine, v: &'static Variant, fen: &str, nodes: u64, max_plies: usize) -> Result<f64, String> {
    let mut game = Game::new(v, fen).map_err(|e| e.to_string())?;
    engine.new_game();
    let mut run = 0i32; // consecutive plies with a decisive score for White (+) or Black (-)
    let mut last_white_cp = 0i32;
    for _ in 0..max_plies {
        if let Some(outcome) = game.outcome() {
            return Ok(outcome.white_score());
        }
        engine.set_position(fen, game.moves()).map_err(|e| e.to_string())?;
        let mover =
            if game.position().to_fen().split_whitespace().nth(1) == Some("b") { Color::Black } else { Color::White };
        let mut best = None;
        let mut cp = 0;
        for event in engine.go(SearchLimits::nodes(nodes)).iter() {
            match event {
                SearchEvent::Info { score, .. } => {
                    cp = match score {
                        ScoreReport::Centipawns(c) => c,
                        ScoreReport::Mate(m) if m > 0 => 30_000,
                        ScoreReport::Mate(_) => -30_000,
                    }
                }
                SearchEvent::BestMove { best: b, .. } => best = b,
                SearchEvent::CurrMove { .. } => {}
            }
        }
        let white_cp = if mover == Color::White { cp } else { -cp };
        last_white_cp = white_cp;
        run = match white_cp {
            c if c >= 1000 => run.max(0) + 1,
            c if c <= -1000 => run.min(0) - 1,
            _ => 0,
        };
        if run.abs() >= 4 {
            return Ok(if run > 0 { 1.0 } else { 0.0 });
        }
        let Some(m) = best else { return Err(format!("no move in {}", game.position().to_fen())) };
        game.play(&m).map_err(|e| e.to_string())?;
    }
    Ok(match game.outcome() {
        Some(o) => o.white_score(),
        None if last_white_cp >= 300 => 1.0,
        None if last_white_cp <= -300 => 0.0,
        None => 0.5,
    })
}

/// The pieces a swap token exchanges, as a kind such as `K-R` (or `none`).
fn swap_kind(fen: &str, token: &str) -> String {
    if token == "none" {
        return "none".to_string();
    }
    let placement = fen.split_whitespace().next().unwrap_or("");
    let ranks: Vec<&str> = placement.split('/').collect();
    let piece_at = |sq: &str| -> char {
        let bytes = sq.as_bytes();
        let (file, rank) = ((bytes[0] - b'a') as usize, (bytes[1] - b'1') as usize);
        let row = ranks[7 - rank];
        let mut expanded = String::new();
        for c in row.chars() {
            match c.to_digit(10) {
                Some(n) => expanded.extend(std::iter::repeat_n('.', n as usize)),
                None => expanded.push(c),
            }
        }
        expanded.chars().nth(file).unwrap_or('?').to_ascii_uppercase()
    };
    let mut pair = [piece_at(&token[0..2]), piece_at(&token[2..4])];
    pair.sort_by_key(|c| "KQRBN".find(*c));
    format!("{}-{}", pair[0], pair[1])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn summary(name: &str, mut times: Vec<f64>) {
    if times.is_empty() {
        return;
    }
    times.sort_by(|a, b| a.total_cmp(b));
    let mean = times.iter().sum::<f64>() / times.len() as f64;
    println!(
        "time {name}: n={} mean {mean:.0} ms, median {:.0} ms, max {:.0} ms",
        times.len(),
        times[times.len() / 2],
        times[times.len() - 1]
    );
}

fn main() {
    let s = match parse_args() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    if let Err(e) = run(&s) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run(s: &Settings) -> Result<(), String> {
    let clock = Instant::now();
    let v = by_name("dchess").map_err(|e| e.to_string())?;
    let mut engine = Engine::new("dchess").map_err(|e| e.to_string())?;
    let mut rng = SplitMix64::new(s.seed);
    let (mut agree, mut disagree, mut ties) = (0, 0, 0);
    let (mut chosen_points, mut other_points, mut games_per_option) = (0.0, 0.0, 0.0);
    let mut side_counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut swap_kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut chosen_swap_kinds: BTreeMap<String, usize> = BTreeMap::new();
    let (mut side_times, mut swap_times) = (Vec::new(), Vec::new());
    let mut margin_agree: Vec<(i32, bool)> = Vec::new();
    let (mut halves_decided, mut halves_agree) = (0, 0);
    println!(
        "# pregame study: {} D-Chess arrays, seed {}, decisions {}, games at {:?} nodes per move, max {} plies",
        s.arrays, s.seed, s.decision, s.game_nodes, s.max_plies
    );
    println!("# index\tside\twhite_cp\tblack_cp\tswap_if_white\tswap_if_black\tgames_white\tgames_black\tverdict");
    for _ in 0..s.arrays {
        let index = rng.below(v.start_count());
        let fen = start_fen(v, index).map_err(|e| e.to_string())?;
        let mut scorer = Scorer::new(16, 1);
        let sd = choose_side(v, &fen, s.decision, &mut scorer).map_err(|e| e.to_string())?;
        side_times.push(ms(sd.decision.elapsed));
        for reply in &sd.replies {
            swap_times.push(ms(reply.elapsed));
            let chosen = reply.chosen();
            *swap_kinds.entry(swap_kind(&reply.options[0].fen, &chosen.name)).or_default() += 1;
        }
        let chosen_reply: &Decision = &sd.replies[sd.decision.best];
        *chosen_swap_kinds.entry(swap_kind(&chosen_reply.options[0].fen, &chosen_reply.chosen().name)).or_default() +=
            1;
        let side = sd.side();
        *side_counts.entry(side.to_string()).or_default() += 1;
        // Mini-match: the points of the side taken, per option.
        let mut games: [Vec<f64>; 2] = [Vec::new(), Vec::new()];
        for (k, option) in sd.decision.options.iter().enumerate() {
            let taken = if k == 0 { Color::White } else { Color::Black };
            for &nodes in &s.game_nodes {
                let white = play(&mut engine, v, &option.fen, nodes, s.max_plies)?;
                games[k].push(if taken == Color::White { white } else { 1.0 - white });
            }
        }
        let points = [games[0].iter().sum::<f64>(), games[1].iter().sum::<f64>()];
        // The mini-match's own reliability: do its two halves (by node count) agree?
        let half = s.game_nodes.len() / 2;
        let diff = |range: std::ops::Range<usize>| -> f64 {
            games[0][range.clone()].iter().sum::<f64>() - games[1][range].iter().sum::<f64>()
        };
        let (first, second) = (diff(0..half), diff(half..s.game_nodes.len()));
        if half > 0 && first != 0.0 && second != 0.0 {
            halves_decided += 1;
            if (first > 0.0) == (second > 0.0) {
                halves_agree += 1;
            }
        }
        let listed = |g: &[f64]| g.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("+");
        let chosen = sd.decision.best;
        chosen_points += points[chosen];
        other_points += points[1 - chosen];
        games_per_option += s.game_nodes.len() as f64;
        let verdict = if points[0] == points[1] {
            ties += 1;
            "tie"
        } else if points[chosen] > points[1 - chosen] {
            agree += 1;
            margin_agree.push(((sd.decision.options[0].score - sd.decision.options[1].score).abs(), true));
            "agree"
        } else {
            disagree += 1;
            margin_agree.push(((sd.decision.options[0].score - sd.decision.options[1].score).abs(), false));
            "disagree"
        };
        println!(
            "{index}\t{side}\t{}\t{}\t{}\t{}\t{}\t{}\t{verdict}",
            sd.decision.options[0].score,
            sd.decision.options[1].score,
            sd.replies[0].chosen().name,
            sd.replies[1].chosen().name,
            listed(&games[0]),
            listed(&games[1]),
        );
        eprintln!("{index}: {verdict} ({:.0} s so far)", clock.elapsed().as_secs_f64());
    }
    let decided = agree + disagree;
    println!("## side choice vs mini-match ({} games per option)", s.game_nodes.len());
    println!(
        "agree {agree}, disagree {disagree}, tie {ties}: agreement {:.1}% of decided arrays",
        100.0 * agree as f64 / decided.max(1) as f64
    );
    let n = games_per_option;
    println!(
        "points of the side taken: engine's choice {:.1}/{n} ({:.1}%), the other option {:.1}/{n} ({:.1}%)",
        chosen_points,
        100.0 * chosen_points / n.max(1.0),
        other_points,
        100.0 * other_points / n.max(1.0)
    );
    println!(
        "mini-match reliability: its two halves ({:?} and {:?} nodes) both decided {halves_decided} arrays and agreed on {halves_agree} ({:.1}%)",
        &s.game_nodes[..s.game_nodes.len() / 2],
        &s.game_nodes[s.game_nodes.len() / 2..],
        100.0 * halves_agree as f64 / halves_decided.max(1) as f64
    );
    for (low, high) in [(0, 10), (10, 20), (20, i32::MAX)] {
        let bucket: Vec<&(i32, bool)> = margin_agree.iter().filter(|(m, _)| (low..high).contains(m)).collect();
        println!(
            "decided arrays with a gap of {low}..{} cp between the two options: {}, of which {} agree",
            if high == i32::MAX { "".to_string() } else { high.to_string() },
            bucket.len(),
            bucket.iter().filter(|(_, a)| *a).count()
        );
    }
    println!("sides taken: {side_counts:?}");
    println!("transpositions chosen (first mover, both options of every array): {swap_kinds:?}");
    println!("transpositions chosen (first mover, the option taken): {chosen_swap_kinds:?}");
    summary("choose-side (40 searches)", side_times);
    summary("transpose (20 searches)", swap_times);

    println!("## Chess-9 relocations from the orthodox start");
    let c9 = by_name("chess9").map_err(|e| e.to_string())?;
    let orthodox = start_fen(c9, 0).map_err(|e| e.to_string())?;
    let mut relocation_times = Vec::new();
    let budgets = [Budget::Depth(4), Budget::Depth(5), Budget::Depth(6), Budget::Depth(7), Budget::Nodes(200_000)];
    for budget in budgets {
        let mut scorer = Scorer::new(16, 1);
        let black = choose_relocation(c9, &orthodox, Color::Black, budget, &mut scorer).map_err(|e| e.to_string())?;
        relocation_times.push(ms(black.elapsed));
        let mut answers = Vec::new();
        for o in &black.options {
            let after = apply_relocation(c9, &orthodox, Color::Black, &o.name).map_err(|e| e.to_string())?;
            let white = choose_relocation(c9, &after, Color::White, budget, &mut scorer).map_err(|e| e.to_string())?;
            relocation_times.push(ms(white.elapsed));
            let scores: Vec<String> = white.options.iter().map(|w| format!("{} {}", w.name, w.score)).collect();
            answers.push(format!("after black {}: white {} [{}]", o.name, white.chosen().name, scores.join(", ")));
        }
        let scores: Vec<String> = black.options.iter().map(|o| format!("{} {}", o.name, o.score)).collect();
        println!("{budget}: black {} [{}]; {}", black.chosen().name, scores.join(", "), answers.join("; "));
    }
    summary("relocate (black 9 searches, white 3)", relocation_times);
    println!("total {:.0} s", clock.elapsed().as_secs_f64());
    Ok(())
}
