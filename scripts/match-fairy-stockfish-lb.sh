#!/usr/bin/env bash
# Menagerie vs the current large-board Fairy-Stockfish (classical evaluation) in VD Chess and
# Random Variant Chess, refereed by `menagerie match`. Fairy-Stockfish reads the variants from
# the oracle configuration (`load FILE` on its command line), under the same names as ours.
# Only the starts it can play exactly are used:
#   VD Chess: its `vdchess` promotes to archbishop, rook, bishop or knight, which is our rule
#     for the sets with the archbishop as the third compound: queen on the board and chancellor
#     in hand (indices 0..959), chancellor on the board and queen in hand (1920..2879).
#   Random Variant Chess: the 34 entries without Giraffe, Sprinter, Griffin or Rhinoceros.
#     Its `rvc` promotes to the types of entry 2; ours to those of the game's array, so it is
#     given queen, rook, bishop and knight, which every entry has (a fairy promotion, rarely
#     the best, is all it gives up).
# Settings: FSF_LB (default ../shared/bin/fairy-stockfish-lb), FSF_INI (the oracle variants),
# VARIANTS (default "vdchess rvc"), FSF_OPTIONS, and GAMES, TC, CONCURRENCY, SEED, OUT,
# MENAGERIE_OPTIONS (see scripts/match-common.sh).
source "$(dirname "${BASH_SOURCE[0]}")/match-common.sh"
build_menagerie
FSF_LB="${FSF_LB:-$ROOT/../shared/bin/fairy-stockfish-lb}"
FSF_INI="${FSF_INI:-$ROOT/../shared/oracle-configs/fairy-stockfish-variants.ini}"
[[ -x "$FSF_LB" ]] || { echo "no Fairy-Stockfish at $FSF_LB (set FSF_LB)" >&2; exit 1; }
[[ -f "$FSF_INI" ]] || { echo "no variant file at $FSF_INI (set FSF_INI)" >&2; exit 1; }
OPPONENT_NAME=fairy-stockfish-lb
ini="$OUT/fairy-stockfish-lb-variants.ini"
sed '/^\[rvc:chess\]/,/^$/s/^promotionPieceTypes = .*/promotionPieceTypes = qrbn/' "$FSF_INI" >"$ini"
read -r -a extra <<<"${FSF_OPTIONS:-option.Hash=64}"
OPPONENT=(name=fairy-stockfish-lb "cmd=$FSF_LB load $ini" proto=uci "${extra[@]}")

# The starts, one FEN a line; the match plays each twice with colours reversed.
openings() {
  local variant="$1" file="$OUT/${OPPONENT_NAME}-${variant}.fen" k index
  : >"$file"
  case "$variant" in
    vdchess)
      RANDOM="$SEED"
      for ((k = 0; k < (GAMES + 1) / 2; k++)); do
        index=$(((k % 2) * 1920 + RANDOM % 960))
        "$MENAGERIE" startpos --variant vdchess --index "$index" >>"$file"
      done
      ;;
    rvc)
      for entry in $(seq 1 45); do
        case " 1 9 14 18 22 26 29 31 32 39 40 " in *" $entry "*) continue ;; esac
        "$MENAGERIE" startpos --variant rvc --index $((entry - 1)) >>"$file"
      done
      ;;
    *) echo "no openings for $variant (vdchess, rvc)" >&2; exit 1 ;;
  esac
  echo "$file"
}

for variant in ${VARIANTS:-vdchess rvc}; do
  run_match "$variant" --openings "file:$(openings "$variant")" "$@"
done
