#!/usr/bin/env bash
# Time to reach a fixed depth over the bench positions with 1 and with N threads (Lazy SMP):
# the ratio is the parallel speed-up target of the search issue (2 threads: at most 0.6x).
#   scripts/smp-speedup.sh [depth=11] [threads=2] [rounds=10]
# Run it on an otherwise idle machine. The two searches of each position run back to back
# (scripts/smp-study.rs), because this machine's speed drifts from one second to the next; the
# study also prints the node and nodes-per-second ratios, which split the time ratio into
# search overhead and parallel throughput.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet --example smp-study
target/release/examples/smp-study "${1:-11}" "${2:-2}" "${3:-10}"
