#!/usr/bin/env bash
# Menagerie vs Fairy-Stockfish (UCI) in D-Chess (standard chess from the array) and Chess-9
# (UCI_Chess960), refereed by `menagerie match`. Fairy-Stockfish is far stronger: use a short
# time control or a node limit on it to get informative scores, e.g.
#   FSF_OPTIONS="option.UCI_LimitStrength=true option.UCI_Elo=1500" scripts/match-fairy-stockfish.sh
# VARIANTS (default "dchess chess9") may also name capablanca and caparandom, which
# Fairy-Stockfish 11.1 knows by name (played from our random arrays, without a pre-game).
# Settings: GAMES, TC, CONCURRENCY, SEED, OUT (see scripts/match-common.sh).
source "$(dirname "${BASH_SOURCE[0]}")/match-common.sh"
build_menagerie
install_references
OPPONENT_NAME=fairy-stockfish
read -r -a extra <<<"${FSF_OPTIONS:-option.Hash=64}"
OPPONENT=(name=fairy-stockfish "cmd=$(engine_path fairy-stockfish)" proto=uci pregame=random "${extra[@]}")
# With the pre-game where the variant has one: a coin toss decides who moves first (Black in
# about half of the games).
for variant in ${VARIANTS:-dchess chess9}; do
  case "$variant" in
    dchess | chess9) run_match "$variant" --pregame "$@" ;;
    *) run_match "$variant" "$@" ;;
  esac
done
