#!/usr/bin/env bash
# Menagerie vs the current large-board Fairy-Stockfish (classical evaluation) in VD Chess and
# Random Variant Chess, refereed by `menagerie match`. Fairy-Stockfish reads the variants from
# the oracle configuration (`load FILE` on its command line), under the same names as ours.
# Only the starts it can play exactly are used:
#   VD Chess: its `vdchess` promotes to archbishop, rook, bishop or knight, which is our rule
#     for the sets with the archbishop as the third compound: queen on the board and chancellor
#     in hand (indices 0..959), chancellor on the board and queen in hand (1920..2879).
#   VD Chess, every set (VARIANTS="vdchess-all"): the six sets in turn, GAMES shared out, each
#     set's starts (indices (set-1)*960..set*960-1) with Fairy-Stockfish's `vdchess` given the
#     promotion types of the set's own section (`vdchessN`); W-D-L summed at the end.
#   Random Variant Chess: the 34 entries without Giraffe, Sprinter, Griffin or Rhinoceros, one
#     short match each (GAMES in all, shared out): the promotion types are those of the game's
#     array, so Fairy-Stockfish's `rvc` is given those of the entry's own section (`rvcNN`) for
#     each, and the W-D-L over all entries is summed at the end.
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
read -r -a extra <<<"${FSF_OPTIONS:-option.Hash=64}"
# opponent INI: Fairy-Stockfish reading the variants of INI.
opponent() {
  OPPONENT=(name=fairy-stockfish-lb "cmd=$FSF_LB load $1" proto=uci "${extra[@]}")
}

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
    *) echo "no openings for $variant (vdchess)" >&2; exit 1 ;;
  esac
  echo "$file"
}

# Random Variant Chess, entry by entry; the per-entry tables go to stdout as they finish.
rvc_by_entry() {
  local entries=() entry nn promotion ini fen log="$OUT/${OPPONENT_NAME}-rvc.log"
  for entry in $(seq 1 45); do
    nn=$(printf '%02d' "$entry")
    grep -q "^\[rvc$nn:rvc\]" "$FSF_INI" && entries+=("$entry")
  done
  local per_entry=$(((GAMES + 2 * ${#entries[@]} - 1) / (2 * ${#entries[@]}) * 2))
  : >"$log"
  for entry in "${entries[@]}"; do
    nn=$(printf '%02d' "$entry")
    promotion=$(sed -n "/^\[rvc$nn:rvc\]/,/^$/s/^promotionPieceTypes = //p" "$FSF_INI")
    ini="$OUT/${OPPONENT_NAME}-rvc$nn.ini"
    sed "/^\[rvc:chess\]/,/^$/s/^promotionPieceTypes = .*/promotionPieceTypes = $promotion/" "$FSF_INI" >"$ini"
    fen="$OUT/${OPPONENT_NAME}-rvc$nn.fen"
    "$MENAGERIE" startpos --variant rvc --index $((entry - 1)) >"$fen"
    opponent "$ini"
    echo "== entry $entry" >&2
    GAMES=$per_entry SEED=$((SEED + entry)) run_match rvc --openings "file:$fen" "$@" | tee -a "$log"
  done
  sum_pairs "Random Variant Chess, all entries" "$log"
}

# The W-D-L summed over the pair lines of LOG ("menagerie vs X: W-D-L (W-D-L), P/N = ..."),
# printed under LABEL with the score and Elo.
sum_pairs() {
  awk -v label="$1" '/^menagerie vs / { split($4, r, "-"); w += r[1]; d += r[2]; l += r[3]; split($6, p, "/"); pts += p[1]; n += p[2] }
    END {
      if (n == 0) exit 1
      m = pts / n; v = (w * (1 - m) ^ 2 + d * (0.5 - m) ^ 2 + l * m ^ 2) / n; se = sqrt(v / n)
      lo = m - 1.96 * se; hi = m + 1.96 * se
      printf "%s: menagerie %d-%d-%d (W-D-L), %.1f/%d = %.1f%%, Elo %+.1f [%+.1f, %+.1f] (95%%)\n",
        label, w, d, l, pts, n, 100 * m, -400 * log(1 / m - 1) / log(10), -400 * log(1 / lo - 1) / log(10), -400 * log(1 / hi - 1) / log(10)
    }' "$2"
}

# VD Chess, set by set; the per-set tables go to stdout as they finish.
vd_by_set() {
  local set promotion ini fen k log="$OUT/${OPPONENT_NAME}-vdchess-all.log"
  local per_set=$(((GAMES + 11) / 12 * 2))
  : >"$log"
  for set in 1 2 3 4 5 6; do
    promotion=$(sed -n "/^\[vdchess$set:vdchess\]/,/^$/s/^promotionPieceTypes = //p" "$FSF_INI")
    ini="$OUT/${OPPONENT_NAME}-vdchess$set.ini"
    sed "/^\[vdchess:chess\]/,/^$/s/^promotionPieceTypes = .*/promotionPieceTypes = $promotion/" "$FSF_INI" >"$ini"
    fen="$OUT/${OPPONENT_NAME}-vdchess$set.fen"
    : >"$fen"
    RANDOM=$((SEED + set))
    for ((k = 0; k < per_set / 2; k++)); do
      "$MENAGERIE" startpos --variant vdchess --index $(((set - 1) * 960 + RANDOM % 960)) >>"$fen"
    done
    opponent "$ini"
    echo "== set $set (promotion $promotion)" >&2
    GAMES=$per_set SEED=$((SEED + set)) run_match vdchess --openings "file:$fen" "$@" | tee -a "$log"
  done
  sum_pairs "VD Chess, all six sets" "$log"
}

opponent "$FSF_INI"
for variant in ${VARIANTS:-vdchess rvc}; do
  case "$variant" in
    rvc) rvc_by_entry "$@" ;;
    vdchess-all) vd_by_set "$@" ;;
    *) run_match "$variant" --openings "file:$(openings "$variant")" "$@" ;;
  esac
done
