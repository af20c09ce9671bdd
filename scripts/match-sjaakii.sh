#!/usr/bin/env bash
# Menagerie vs Sjaak II (XBoard) in D-Chess (as `nocastle` from the array, either side to move)
# and Chess-9 (as `fischerandom`), refereed by `menagerie match`.
# Settings: GAMES, TC, CONCURRENCY, SEED, OUT (see scripts/match-common.sh).
source "$(dirname "${BASH_SOURCE[0]}")/match-common.sh"
build_menagerie
install_references
OPPONENT_NAME=sjaakii
OPPONENT=(name=sjaakii "cmd=$(engine_path sjaakii)" proto=xboard pregame=random)
# With the pre-game: a coin toss decides who moves first (Black in about half of the games).
run_match dchess --pregame "$@"
run_match chess9 --pregame "$@"
