#!/usr/bin/env bash
# Soak runs: many fast games, refereed by `menagerie match`, counting every game an engine lost
# by failing (time forfeit, illegal move, crash, protocol hang or error) rather than by play.
#
#   scripts/soak.sh self        Menagerie against itself in every variant
#   scripts/soak.sh fairymax    against Fairy-Max in D-Chess
#   scripts/soak.sh sjaakii     against Sjaak II in Chess-9
#   scripts/soak.sh all         the three
#
# Each runs LONG_GAMES (default 1000) games at 1+0.01 and FAST_GAMES (default 200) at
# 0.2+0.002 (0 leaves the control out), concurrency 2. VARIANTS (default: the five) limits the
# self-play variants. Logs and PGN go to OUT (default target/soak). The last line says whether
# Menagerie failed in any game; the exit status is 1 if it did.
source "$(dirname "${BASH_SOURCE[0]}")/match-common.sh"
LONG_GAMES="${LONG_GAMES:-1000}"
FAST_GAMES="${FAST_GAMES:-200}"
VARIANTS="${VARIANTS:-dchess chess9 displacement vdchess rvc}"
OUT="${OUT:-$ROOT/target/soak}"
mkdir -p "$OUT"
which="${1:-self}"
build_menagerie
failures_total=0

# failures LOG: "<games> <failures of Menagerie> <failures of the opponent>" and every failure line.
failures() {
  awk '
    /^\[[0-9]+\/[0-9]+\]/ {
      games++
      if (match($0, /\((time forfeit|illegal move|engine crash|protocol hang|protocol error)\)/)) {
        white = $2; black = $4; result = $5
        loser = (result == "0-1") ? white : black
        if (loser ~ /^menagerie/) ours++; else theirs++
        print "  " $0 > "/dev/stderr"
      }
    }
    END { printf "%d %d %d\n", games, ours + 0, theirs + 0 }' "$1"
}

# soak NAME VARIANT TC GAMES OPPONENT-FIELDS... [-- MATCH-ARGS...]
soak() {
  local name="$1" variant="$2" tc="$3" games="$4"
  shift 4
  local opponent=() extra=()
  while [[ $# -gt 0 && "$1" != "--" ]]; do opponent+=("$1"); shift; done
  [[ "${1:-}" == "--" ]] && shift && extra=("$@")
  local log="$OUT/$name-$variant-$tc.log"
  "$MENAGERIE" match \
    --engine name=menagerie "cmd=$MENAGERIE" option.Hash=16 \
    --engine "${opponent[@]}" \
    --variant "$variant" --tc "$tc" --games "$games" --concurrency 2 --seed "$SEED" \
    --resign movecount=4 score=1000 --draw movenumber=60 movecount=10 score=5 --maxmoves 250 \
    --pgn "$OUT/$name-$variant-$tc.pgn" "${extra[@]}" > "$log" 2>&1 || true
  read -r played ours theirs < <(failures "$log")
  printf '%-10s %-13s %-10s games %5d  Menagerie failures %d  opponent failures %d\n' \
    "$name" "$variant" "$tc" "$played" "$ours" "$theirs"
  [[ "$played" -eq "$games" ]] || echo "  only $played of $games games finished: see $log"
  failures_total=$((failures_total + ours))
  [[ "$played" -eq "$games" ]] || failures_total=$((failures_total + 1))
}

# A count of 0 leaves that time control out.
both_controls() {
  [[ "$LONG_GAMES" -eq 0 ]] || soak "$1" "$2" 1+0.01 "$LONG_GAMES" "${@:3}"
  [[ "$FAST_GAMES" -eq 0 ]] || soak "$1" "$2" 0.2+0.002 "$FAST_GAMES" "${@:3}"
}

if [[ "$which" == self || "$which" == all ]]; then
  for v in $VARIANTS; do
    both_controls self "$v" name=menagerie-2 "cmd=$MENAGERIE" option.Hash=16
  done
fi
if [[ "$which" == fairymax || "$which" == all ]]; then
  install_references
  # Fairy-Max plays D-Chess as `nocastle` (see scripts/match-fairymax.sh).
  both_controls fairymax dchess name=fairymax "cmd=$(engine_path fairymax)" proto=xboard pregame=random -- --pregame
fi
if [[ "$which" == sjaakii || "$which" == all ]]; then
  install_references
  both_controls sjaakii chess9 name=sjaakii "cmd=$(engine_path sjaakii)" proto=xboard pregame=random -- --pregame
fi
if [[ "$failures_total" -eq 0 ]]; then
  echo "soak: Menagerie failed in no game"
else
  echo "soak: Menagerie failed in $failures_total games (or runs did not finish)"
  exit 1
fi
