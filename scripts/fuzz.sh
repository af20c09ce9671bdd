#!/bin/sh
# Runs every fuzz target of the project (src/fuzz.rs) for MINUTES minutes in all, split evenly,
# and prints how many inputs each tried. A broken invariant prints the failing input and stops.
# Usage: scripts/fuzz.sh MINUTES [SEED]
set -e
minutes=${1:?usage: scripts/fuzz.sh MINUTES [SEED]}
seed=${2:-$(date +%s)}
cd "$(dirname "$0")/.."
cargo build --release --example fuzz
per=$((minutes * 60 / 6))
for target in fen moves book variants uci xboard; do
    target/release/examples/fuzz "$target" "$per" "$seed"
done
