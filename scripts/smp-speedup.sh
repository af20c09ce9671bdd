#!/usr/bin/env bash
# Time to reach a fixed depth over the bench positions with 1 and with N threads (Lazy SMP):
# the ratio is the parallel speed-up target of the search issue (2 threads: at most 0.6x).
#   scripts/smp-speedup.sh [depth=10] [threads=2] [runs=3]
# Run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
depth=${1:-10}
threads=${2:-2}
runs=${3:-3}
cargo build --release --quiet
bin=target/release/menagerie
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
time_of() { "$bin" bench "$depth" "$1" 64 | awk -F': ' '/^Total time/ {print $2}'; }
# The runs alternate 1 and N threads so that a change of machine speed hits both alike; the
# ratio reported is the median of the per-run ratios.
ratios=()
for _ in $(seq "$runs"); do
  one=$(time_of 1)
  many=$(time_of "$threads")
  ratio=$(awk -v a="$many" -v b="$one" 'BEGIN {printf "%.3f", a / b}')
  echo "1 thread ${one} ms, $threads threads ${many} ms, ratio $ratio" >&2
  ratios+=("$ratio")
done
echo "depth $depth, $threads threads / 1 thread, median of $runs runs: $(printf '%s\n' "${ratios[@]}" | median)"
