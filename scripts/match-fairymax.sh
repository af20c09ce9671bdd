#!/usr/bin/env bash
# Menagerie vs Fairy-Max (XBoard) in D-Chess, refereed by `menagerie match`.
# Fairy-Max 5.0b lists `normal` and `nocastle` but not `fischerandom`, and has no `setboard`
# (the referee sets positions up with `edit`): D-Chess is played as `nocastle` from the array;
# Chess-9 needs Chess960 castling and cannot be played by it.
# Settings: GAMES, TC, CONCURRENCY, SEED, OUT (see scripts/match-common.sh).
source "$(dirname "${BASH_SOURCE[0]}")/match-common.sh"
build_menagerie
install_references
OPPONENT_NAME=fairymax
OPPONENT=(name=fairymax "cmd=$(engine_path fairymax)" proto=xboard pregame=random)
run_match dchess --pregame "$@"
