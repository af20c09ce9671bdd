# Shared by the scripts/match-*.sh strength runs (sourced, not run): builds the release binary,
# installs the reference engines, and finds them (the Debian games directory is often not on
# PATH). Settings from the environment:
#   GAMES (per variant, default 100)  TC (default 10+0.1)  CONCURRENCY (default: cores)
#   SEED (default: time)  OUT (directory for the PGN files, default target/match-results)
#   MENAGERIE (the binary to test, default: build target/release/menagerie)
#   MENAGERIE_PREGAME (engine|random, default engine): who makes Menagerie's pre-game choices
#   (`engine`: Menagerie answers the `pregame` commands itself)
#   MENAGERIE_OPTIONS (extra --engine fields for Menagerie, e.g. "option.Use NNUE=true"; one
#   field a line when a field has a space)
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GAMES="${GAMES:-100}"
TC="${TC:-10+0.1}"
CONCURRENCY="${CONCURRENCY:-$(nproc)}"
SEED="${SEED:-$(date +%s)}"
OUT="${OUT:-$ROOT/target/match-results}"
MENAGERIE_BUILT="$ROOT/target/release/menagerie"
MENAGERIE="${MENAGERIE:-$MENAGERIE_BUILT}"
MENAGERIE_PREGAME="${MENAGERIE_PREGAME:-engine}"
mapfile -t MENAGERIE_EXTRA < <(printf '%s\n' "${MENAGERIE_OPTIONS:-}" | sed '/^$/d')
mkdir -p "$OUT"

build_menagerie() {
  # A binary given in MENAGERIE (e.g. a copy kept while the tree changes) is used as it is.
  if [[ "$MENAGERIE" == "$MENAGERIE_BUILT" ]]; then
    (cd "$ROOT" && cargo build --release --bin menagerie)
  fi
}

install_references() {
  "$ROOT/scripts/install-references.sh" --no-python
}

# The path of a reference engine.
engine_path() {
  local p
  p="$(command -v "$1" 2>/dev/null || true)"
  [[ -z "$p" && -x "/usr/games/$1" ]] && p="/usr/games/$1"
  [[ -n "$p" ]] || { echo "$1 not found (scripts/install-references.sh installs it)" >&2; exit 1; }
  echo "$p"
}

# run_match VARIANT [extra match arguments...]: Menagerie (first engine) against the engines
# given in OPPONENT (an array of --engine fields), PGN in $OUT/<name>-<variant>.pgn.
run_match() {
  local variant="$1"
  shift
  echo "== $variant: ${GAMES} games at ${TC}, seed ${SEED}" >&2
  "$MENAGERIE" match \
    --engine name=menagerie "cmd=$MENAGERIE" option.Hash=64 "pregame=$MENAGERIE_PREGAME" "${MENAGERIE_EXTRA[@]}" \
    --engine "${OPPONENT[@]}" \
    --variant "$variant" --tc "$TC" --games "$GAMES" --concurrency "$CONCURRENCY" --seed "$SEED" \
    --resign movecount=4 score=1000 --draw movenumber=60 movecount=10 score=5 --maxmoves 250 \
    --pgn "$OUT/${OPPONENT_NAME}-${variant}.pgn" "$@"
}
