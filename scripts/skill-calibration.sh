#!/usr/bin/env bash
# Calibrate the weaker levels (Skill Level, and through it UCI_Elo): Menagerie at some levels
# against Fairy-Max 5.0b (the anchor: CCRL puts it near 1950 in chess) and Sjaak II 1.4.1, and
# level against level, in D-Chess from random arrays without the pre-game, refereed by
# `menagerie match`. docs/skill.md has the results and how the Elo table is made from them.
#
# Usage: scripts/skill-calibration.sh [STEP...]
#   STEP is fairymax:LEVEL, sjaakii:LEVEL or LEVEL-LEVEL (the first named is the first engine).
#   Without steps, the set of docs/skill.md is played.
# Settings (see scripts/match-common.sh): GAMES per step (default 30), TC (default 5+0.05),
# CONCURRENCY (default 1), SEED (default: the time), OUT, MENAGERIE. A one-line result per step
# is appended to $OUT/skill-calibration.txt; the PGN of step S goes to $OUT/skill-S.pgn.
GAMES="${GAMES:-30}"
TC="${TC:-5+0.05}"
CONCURRENCY="${CONCURRENCY:-1}"
source "$(dirname "${BASH_SOURCE[0]}")/match-common.sh"
build_menagerie
install_references

STEPS=("$@")
if [[ ${#STEPS[@]} -eq 0 ]]; then
  STEPS=(0-4 4-8 8-12 12-16 16-19 fairymax:8 fairymax:12 sjaakii:12)
fi

# level_fields ARRAY LEVEL: set ARRAY to the --engine fields of Menagerie at LEVEL.
level_fields() {
  local -n fields="$1"
  fields=("name=L$2" "cmd=$MENAGERIE" option.Hash=16 "option.Skill Level=$2")
}

for step in "${STEPS[@]}"; do
  case "$step" in
    fairymax:* | sjaakii:*)
      reference="${step%%:*}"
      level_fields first "${step#*:}"
      second=("name=$reference" "cmd=$(engine_path "$reference")" proto=xboard)
      ;;
    *-*)
      level_fields first "${step%-*}"
      level_fields second "${step#*-}"
      ;;
    *)
      echo "unknown step '$step' (fairymax:LEVEL, sjaakii:LEVEL or LEVEL-LEVEL)" >&2
      exit 2
      ;;
  esac
  pgn="$OUT/skill-${step//:/-}.pgn"
  echo "== $step: $GAMES games at $TC, seed $SEED" >&2
  "$MENAGERIE" match --engine "${first[@]}" --engine "${second[@]}" \
    --variant dchess --tc "$TC" --games "$GAMES" --concurrency "$CONCURRENCY" --seed "$SEED" \
    --resign movecount=4 score=1000 --draw movenumber=60 movecount=10 score=5 --maxmoves 250 \
    --pgn "$pgn" | tee "$OUT/skill-${step//:/-}.txt"
  grep ' vs ' "$OUT/skill-${step//:/-}.txt" | sed "s/^/$step at $TC, seed $SEED: /" >>"$OUT/skill-calibration.txt"
done
cat "$OUT/skill-calibration.txt"
