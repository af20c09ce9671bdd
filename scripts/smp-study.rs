//! The parallel-search study: time to reach a fixed depth with 1 and with N threads over the
//! bench positions. This machine's speed drifts by a third from one second to the next, so the
//! two searches of a position run back to back (the order alternating), each position several
//! times, and the ratio is taken of the summed times; the per-round ratios give its spread.
//!
//! Run: `scripts/smp-speedup.sh` (or `cargo run --release --example smp-study -- DEPTH THREADS ROUNDS`).

use menagerie::any::AnyPosition;
use menagerie::bench::BENCH_POSITIONS;
use menagerie::search::{search, SearchJob, SearchLimits, SearchThreads, TranspositionTable};
use menagerie::variant::by_name;
use menagerie::with_position;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let depth = args.first().copied().unwrap_or(11) as u32;
    let threads = args.get(1).copied().unwrap_or(2).max(2);
    let rounds = args.get(2).copied().unwrap_or(3).max(1);
    let one = SearchThreads::new(1);
    let many = SearchThreads::new(threads);
    let tt = TranspositionTable::new(64);
    let stop = AtomicBool::new(false);
    let positions: Vec<(&str, AnyPosition)> = BENCH_POSITIONS
        .iter()
        .filter_map(|p| Some((p.variant, AnyPosition::from_fen(by_name(p.variant).ok()?, p.fen).ok()?)))
        .collect();
    // Per position: time and nodes with 1 and with N threads, summed over the rounds.
    let per_position = std::cell::RefCell::new(vec![([Duration::ZERO; 2], [0u64; 2]); positions.len()]);
    let time_to_depth = |index: usize, position: &AnyPosition, pool: &SearchThreads| -> Duration {
        tt.clear();
        let start = Instant::now();
        let outcome = with_position!(position, p => search(&SearchJob::new(p, SearchLimits::depth(depth), &tt, &stop, pool), |_| {}));
        let which = usize::from(pool.count() > 1);
        let elapsed = start.elapsed();
        let entry = &mut per_position.borrow_mut()[index];
        entry.0[which] += elapsed;
        entry.1[which] += outcome.nodes;
        elapsed
    };
    let (mut total_one, mut total_many) = (Duration::ZERO, Duration::ZERO);
    let mut round_ratios = Vec::new();
    for round in 0..rounds {
        let (mut round_one, mut round_many) = (Duration::ZERO, Duration::ZERO);
        for (index, (_, position)) in positions.iter().enumerate() {
            // Which goes first alternates, so that a steady drift favours neither.
            if (round + index) % 2 == 0 {
                round_one += time_to_depth(index, position, &one);
                round_many += time_to_depth(index, position, &many);
            } else {
                round_many += time_to_depth(index, position, &many);
                round_one += time_to_depth(index, position, &one);
            }
        }
        let ratio = round_many.as_secs_f64() / round_one.as_secs_f64();
        eprintln!(
            "round {}: 1 thread {:?}, {threads} threads {:?}, ratio {ratio:.3}",
            round + 1,
            round_one,
            round_many
        );
        round_ratios.push(ratio);
        total_one += round_one;
        total_many += round_many;
    }
    // Which positions the overhead comes from.
    for (index, ([time_one, time_many], [nodes_one, nodes_many])) in per_position.borrow().iter().enumerate() {
        eprintln!(
            "position {:2} ({:12}): 1 thread {:8.3} s, time ratio {:.3}, node ratio {:.3}",
            index + 1,
            positions[index].0,
            time_one.as_secs_f64(),
            time_many.as_secs_f64() / time_one.as_secs_f64(),
            *nodes_many as f64 / *nodes_one as f64
        );
    }
    round_ratios.sort_by(f64::total_cmp);
    let [nodes_one, nodes_many] =
        per_position.borrow().iter().fold([0u64; 2], |[one, many], (_, [n1, n2])| [one + n1, many + n2]);
    let node_ratio = nodes_many as f64 / nodes_one as f64;
    eprintln!(
        "nodes: {threads} threads / 1 thread {node_ratio:.3}; nodes per second: {:.3}",
        node_ratio / (total_many.as_secs_f64() / total_one.as_secs_f64())
    );
    let ratio = total_many.as_secs_f64() / total_one.as_secs_f64();
    println!(
        "depth {depth}, {threads} threads / 1 thread, {} positions x {rounds} rounds: {ratio:.3} (rounds {:.3}..{:.3})",
        positions.len(),
        round_ratios[0],
        round_ratios[round_ratios.len() - 1]
    );
}
