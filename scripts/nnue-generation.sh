#!/usr/bin/env bash
# One generation of a built-in network: a datagen batch played by the engine as built (its
# networks on), a candidate trained on every data file of the family, and a self-play screen of
# the candidate against the built-in network. The steps are in docs/networks.md, their reasons
# in docs/history/network.md; nets/README.md says how each shipped network was made.
#
# Settings from the environment:
#   FAMILY      8x8 (default), rvc or 10x8: which data files (nets/data/*-FAMILY-*.bin) and
#               variants
#   BATCH       the new data file's name in nets/data, without .bin (required), e.g. gen8-8x8-n500
#   MINUTES     datagen time, stopped by SIGINT so that only whole games are kept (default 60;
#               0 skips datagen and trains on the data there is)
#   NODES       nodes a move in datagen (default 500)   THREADS (default: cores)
#   VARIANTS    datagen's variants, games dealt in turn (default: the family's mix below)
#   SEED        datagen seed (required: each batch needs its own, or it replays earlier games)
#   EPOCHS HIDDEN CORRECTION BUCKETS   the training recipe (default 6, 128, 200; lambda 1.0,
#               seed 1; buckets 8 for 8x8, 1 for rvc, as the built-in networks were made)
#   SCREEN_GAMES   games of the screen at 1 s + 0.01 s (default 200; 0 skips it)
#   SCREEN_SEED    (default 11)
#   OUT         where the candidate and the logs go (default target/nnue-generation)
#   MENAGERIE   the binary (default: build target/release/menagerie)
#
#   BATCH=gen8-8x8-n500 SEED=2201 MINUTES=60 scripts/nnue-generation.sh
#
# The new data file stays in nets/data/BATCH.bin; compress it with `xz -9 -k` to commit it
# (nets/README.md states the budget). Embedding a candidate is a change of
# src/nnue/embedded.rs.
OUT="${OUT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/target/nnue-generation}"
# ROOT, MENAGERIE and build_menagerie, as the match scripts have them; it makes OUT.
source "$(dirname "${BASH_SOURCE[0]}")/match-common.sh"
FAMILY="${FAMILY:-8x8}"
BATCH="${BATCH:?BATCH=name of the new data file, e.g. gen8-8x8-n500}"
SEED="${SEED:?SEED=the datagen seed (each batch its own)}"
MINUTES="${MINUTES:-60}"
NODES="${NODES:-500}"
THREADS="${THREADS:-$(nproc)}"
EPOCHS="${EPOCHS:-6}"
HIDDEN="${HIDDEN:-128}"
CORRECTION="${CORRECTION:-200}"
SCREEN_GAMES="${SCREEN_GAMES:-200}"
SCREEN_SEED="${SCREEN_SEED:-11}"
DATA="$ROOT/nets/data"

case "$FAMILY" in
  8x8)
    DATAGEN_VARIANTS="${VARIANTS:-chess9,dchess,vdchess,chess9,dchess,vdchess,displacement}"
    SCREEN_VARIANT=dchess
    BUCKETS="${BUCKETS:-8}"
    ;;
  rvc)
    DATAGEN_VARIANTS="${VARIANTS:-rvc}"
    SCREEN_VARIANT=rvc
    BUCKETS="${BUCKETS:-1}"
    ;;
  10x8)
    # Capablanca and Capablanca Random; until a 10x8 network is built in, the screen's
    # "built-in" side plays with the hand-written evaluation.
    DATAGEN_VARIANTS="${VARIANTS:-capablanca,caparandom}"
    SCREEN_VARIANT=caparandom
    BUCKETS="${BUCKETS:-1}"
    ;;
  *)
    echo "FAMILY is 8x8, rvc or 10x8, not '$FAMILY'" >&2
    exit 2
    ;;
esac
[[ "$BATCH" == *"-$FAMILY-"* ]] || {
  echo "BATCH '$BATCH' must contain '-$FAMILY-', or training would not find it" >&2
  exit 2
}

build_menagerie
say() { echo "$(date +%H:%M:%S) $*" >&2; }

# Committed data is compressed; training reads the .bin files.
for xz_file in "$DATA"/*-"$FAMILY"-*.bin.xz; do
  if [[ -e "$xz_file" && ! -e "${xz_file%.xz}" ]]; then xz -dk "$xz_file"; fi
done

if [[ "$MINUTES" != 0 ]]; then
  say "datagen $BATCH: $DATAGEN_VARIANTS, $NODES nodes a move, $THREADS threads, seed $SEED, $MINUTES minutes"
  # timeout's SIGINT ends the run between games; its status 124 is the expected end.
  timeout -s INT "${MINUTES}m" "$MENAGERIE" datagen --variant "$DATAGEN_VARIANTS" --games 100000000 \
    --nodes "$NODES" --threads "$THREADS" --seed "$SEED" --eval default \
    --out "$DATA/$BATCH.bin" 2>"$OUT/datagen-$BATCH.log" || [[ $? == 124 ]]
  say "$(tail -n 1 "$OUT/datagen-$BATCH.log")"
fi

files=("$DATA"/*-"$FAMILY"-*.bin)
[[ -e "${files[0]}" ]] || { echo "no data files $DATA/*-$FAMILY-*.bin" >&2; exit 1; }
data_list="$(IFS=,; echo "${files[*]}")"
candidate="$OUT/$BATCH-candidate.nnue"
say "train $candidate on ${#files[@]} files: hidden $HIDDEN, $EPOCHS epochs, correction $CORRECTION, $BUCKETS buckets"
"$MENAGERIE" train --data "$data_list" --out "$candidate" --hidden "$HIDDEN" --epochs "$EPOCHS" \
  --lambda 1.0 --seed 1 --correction "$CORRECTION" --buckets "$BUCKETS" 2>&1 | tee "$OUT/train-$BATCH.log" >&2

if [[ "$SCREEN_GAMES" != 0 ]]; then
  say "screen: the candidate against the built-in network, $SCREEN_VARIANT, $SCREEN_GAMES games at 1+0.01"
  "$MENAGERIE" match --engine name=candidate "cmd=$MENAGERIE" "option.EvalFile=$candidate" option.Hash=32 \
    --engine name=built-in "cmd=$MENAGERIE" option.Hash=32 --variant "$SCREEN_VARIANT" --tc 1+0.01 \
    --games "$SCREEN_GAMES" --seed "$SCREEN_SEED" --concurrency "$(nproc)" \
    --resign movecount=3 score=600 --draw movenumber=40 movecount=8 score=10 \
    >"$OUT/screen-$BATCH.log" 2>&1
  grep -h 'W-D-L' "$OUT/screen-$BATCH.log" | tail -n 1
fi
