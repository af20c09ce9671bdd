#!/usr/bin/env bash
# Every perft suite at full depth (no node budget), in release mode.
set -euo pipefail
cd "$(dirname "$0")/.."
MENAGERIE_PERFT_MAX_NODES=0 cargo test --release --test perft -- --nocapture
