#!/usr/bin/env bash
# Menagerie version vs version with an SPRT, in every variant (or those given as VARIANTS):
#   scripts/match-versions.sh BASE_REV            # this checkout against a git revision
#   BASE_BIN=/path/to/old/menagerie scripts/match-versions.sh
# The base revision is exported (git archive) to a temporary directory and built there.
# SPRT bounds: SPRT="elo0=0 elo1=5 alpha=0.05 beta=0.05" (default). GAMES caps each run
# (default 20000). Settings: TC, CONCURRENCY, SEED, OUT (see scripts/match-common.sh).
GAMES="${GAMES:-20000}"
source "$(dirname "${BASH_SOURCE[0]}")/match-common.sh"
build_menagerie
if [[ -z "${BASE_BIN:-}" ]]; then
  rev="${1:?usage: match-versions.sh BASE_REV (or BASE_BIN=path)}"
  base_dir="$(mktemp -d /tmp/menagerie-base.XXXXXX)"
  trap 'rm -rf "$base_dir"' EXIT
  git -C "$ROOT" archive "$rev" | tar -x -C "$base_dir"
  (cd "$base_dir" && cargo build --release --bin menagerie)
  BASE_BIN="$base_dir/target/release/menagerie"
fi
read -r -a sprt <<<"${SPRT:-elo0=0 elo1=5 alpha=0.05 beta=0.05}"
OPPONENT_NAME=base
OPPONENT=(name=base "cmd=$BASE_BIN" option.Hash=64)
for v in ${VARIANTS:-chess dchess chess9 displacement vdchess rvc}; do
  run_match "$v" --sprt "${sprt[@]}"
done
