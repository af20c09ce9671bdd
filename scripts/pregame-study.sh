#!/bin/sh
# The pre-game study of issue 7 (see scripts/pregame-study.rs): over 100 random D-Chess arrays,
# the engine's side choice against a self-play mini-match of the two options, the time per
# decision, and the transpositions and Chess-9 relocations chosen. About 10 minutes of CPU on one core.
# Extra arguments go to the study (e.g. --arrays 20 --game-nodes 2000).
set -e
cd "$(dirname "$0")/.."
cargo build --release --example pregame-study
exec "${CARGO_TARGET_DIR:-target}/release/examples/pregame-study" "$@"
