#!/usr/bin/env bash
# Perft speed of Menagerie side by side with Stockfish and Fairy-Stockfish, same positions, same run.
#
#   scripts/perft-bench.sh            full depths (a few minutes on 2 cores)
#   QUICK=1 scripts/perft-bench.sh    every depth one less (smoke test)
#   NO_BUILD=1 ...                    do not run `cargo build --release`
#
# Engines: target/release/menagerie (`perft --variant V --fen FEN --depth D`, last line
# `Nodes searched: N`), stockfish and fairy-stockfish (UCI `position fen` + `go perft D`; the
# Fairy-Stockfish variants come from oracle-configs/fairy-stockfish-variants.ini). An engine that
# is missing, or cannot express a position's rules, is skipped with a message. Install the
# reference engines with scripts/install-references.sh.
#
# Timing: wall clock around the perft only. Menagerie's time includes its process start (a few
# ms); the UCI engines are started and set up first, then the clock runs from `go perft` to
# `Nodes searched`. Single thread everywhere (UCI perft is single-threaded).
# Env: MENAGERIE, STOCKFISH_BIN, FSF_BIN, FSF_INI (override the binaries / the variant file).
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(dirname "$here")"
cd "$root" || exit 1

find_bin() { # env-value name
  if [[ -n "$1" ]]; then command -v "$1" 2>/dev/null || { [[ -x "$1" ]] && echo "$1"; }; return; fi
  command -v "$2" 2>/dev/null && return
  [[ -x "/usr/games/$2" ]] && echo "/usr/games/$2"
}

SF="$(find_bin "${STOCKFISH_BIN:-}" stockfish)"
FSF="$(find_bin "${FSF_BIN:-}" fairy-stockfish)"
FSF_INI="${FSF_INI:-}"
if [[ -z "$FSF_INI" ]]; then
  for c in "$root/../shared/oracle-configs" /work/shared/oracle-configs "$root/oracle-configs"; do
    [[ -f "$c/fairy-stockfish-variants.ini" ]] && { FSF_INI="$(cd "$c" && pwd)/fairy-stockfish-variants.ini"; break; }
  done
fi
MEN="${MENAGERIE:-$root/target/release/menagerie}"

# ---------------------------------------------------------------- build Menagerie
have_men=0
if [[ -n "${NO_BUILD:-}" ]]; then
  [[ -x "$MEN" ]] && have_men=1
elif [[ -f "$root/Cargo.toml" ]] && command -v cargo >/dev/null; then
  echo "== cargo build --release"
  if cargo build --release 2>&1 | tail -n 3; [[ ${PIPESTATUS[0]} -eq 0 ]]; then
    [[ -x "$MEN" ]] && have_men=1
  else
    echo "!! cargo build --release failed: Menagerie skipped"
  fi
else
  echo "!! no Cargo.toml or no cargo: Menagerie skipped"
fi
((have_men)) || echo "-- menagerie: not available ($MEN), skipped"
[[ -n "$SF" ]] || echo "-- stockfish: not installed, skipped (scripts/install-references.sh)"
[[ -n "$FSF" ]] || echo "-- fairy-stockfish: not installed, skipped (scripts/install-references.sh)"
if [[ -n "$FSF" && -z "$FSF_INI" ]]; then
  echo "-- fairy-stockfish: fairy-stockfish-variants.ini not found (set FSF_INI): variant positions skipped"
fi

# ---------------------------------------------------------------- positions
# name | menagerie variant | FEN | depth | stockfish mode (chess, chess960 or -) | fairy-stockfish variant (or -)
# The displacement position has no castling rights left, so orthodox Stockfish and any
# displacement-* definition of Fairy-Stockfish play exactly its rules (free castling is not
# expressible in either engine).
POSITIONS=(
  "start|chess|rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1|6|chess|chess"
  "kiwipete|chess|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|chess|chess"
  "chess9-005|chess9|rnkqbbnr/3p4/1p3Qp1/p2P2Pp/2p1p3/P6P/1PPNPP2/R1K1BBNR w KQkq - 0 11|5|chess960|chess9"
  "displacement-010|displacement|1nbk1bnr/1p2ppp1/3p4/1qpN2rp/pP1P4/5PP1/P1PKPN1P/R1BQ1B1R b - - 2 12|5|chess|displacement-b"
  "vdchess-010|vdchess|rcnbkrbn/1p2p2p/p1p5/3p2p1/P2PPp2/2P3PP/1P3P2/RCNBKRBN[Qq] b KQkq e3 0 7|5|-|vdchess3"
  # Random Variant Chess, 12x8 (96 squares): the start position of `startpos --variant rvc
  # --index 1` (entry 2, RFCNBQKBNCFR) and the middlegame rvc-015 of perft-suites/rvc.perft
  # (a 29-ply playout of entry 33; the largest depth-4 count of that suite).
  # Stockfish cannot play it and the Debian Fairy-Stockfish 11.1 crashes (segfault) on the
  # rvc definitions, so both are skipped and their columns show '-'.
  "rvc-start-1|rvc|rfcnbqkbncfr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RFCNBQKBNCFR w KQkq - 0 1|5|-|-"
  "rvc-015|rvc|rzcnb1kb1czr/3p5p2/pppq4pnpP/4PP1p1Q2/P2C5P2/8P3/1PPP3P3P/RZ1NB1KBNCZR b KQkq - 0 15|4|-|-"
)

now_ns() { date +%s%N; }

# uci_perft BIN VARIANTPATH VARIANT CHESS960 FEN DEPTH -> "nodes ns" (empty on failure)
uci_perft() {
  local bin=$1 vpath=$2 variant=$3 c960=$4 fen=$5 depth=$6 line nodes="" t0 t1
  coproc ENG { "$bin" 2>/dev/null; }
  local in=${ENG[1]} out=${ENG[0]} pid=$ENG_PID
  {
    echo uci
    [[ -n "$vpath" ]] && echo "setoption name VariantPath value $vpath"
    echo "setoption name UCI_Chess960 value $c960"
    [[ -n "$variant" ]] && echo "setoption name UCI_Variant value $variant"
    echo "position fen $fen"
    echo isready
  } >&"$in"
  while IFS= read -r -t 60 -u "$out" line; do [[ $line == readyok* ]] && break; done
  t0=$(now_ns)
  printf 'go perft %d\n' "$depth" >&"$in"
  while IFS= read -r -t 3600 -u "$out" line; do
    if [[ $line == "Nodes searched"* ]]; then nodes=${line##*: }; nodes=${nodes//[^0-9]/}; break; fi
  done
  t1=$(now_ns)
  echo quit >&"$in" 2>/dev/null
  wait "$pid" 2>/dev/null
  [[ -n "$nodes" ]] && echo "$nodes $((t1 - t0))"
}

men_perft() { # VARIANT FEN DEPTH
  local t0 t1 out nodes
  t0=$(now_ns)
  out=$("$MEN" perft --variant "$1" --fen "$2" --depth "$3" 2>&1)
  t1=$(now_ns)
  nodes=$(printf '%s\n' "$out" | grep 'Nodes searched' | tail -n 1)
  nodes=${nodes##*: }; nodes=${nodes//[^0-9]/}
  [[ -n "$nodes" ]] && echo "$nodes $((t1 - t0))"
}

fmt_row() { # name engine depth nodes ns
  awk -v n="$1" -v e="$2" -v d="$3" -v nodes="$4" -v ns="$5" 'BEGIN {
    s = ns / 1e9; nps = (s > 0) ? nodes / s : 0
    printf "%-17s %-16s %2d %13d %9.3f %14.0f\n", n, e, d, nodes, s, nps }'
}

ratio() { # nps_a nps_b
  awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.3f", a / b; else printf "-" }'
}

nps() { awk -v n="$1" -v ns="$2" 'BEGIN { printf "%.0f", (ns > 0) ? n / (ns / 1e9) : 0 }'; }

declare -a SUMMARY=()
echo
printf "%-17s %-16s %2s %13s %9s %14s\n" position engine D nodes seconds nodes/s
printf -- '-%.0s' {1..76}; echo
for spec in "${POSITIONS[@]}"; do
  IFS='|' read -r name mvar fen depth sfmode fvar <<<"$spec"
  [[ -n "${QUICK:-}" ]] && depth=$((depth - 1))
  m_nps=0 s_nps=0 f_nps=0 m_nodes="" s_nodes="" f_nodes=""

  if ((have_men)); then
    r=$(men_perft "$mvar" "$fen" "$depth")
    if [[ -n "$r" ]]; then
      read -r m_nodes ns <<<"$r"; fmt_row "$name" menagerie "$depth" "$m_nodes" "$ns"; m_nps=$(nps "$m_nodes" "$ns")
    else
      printf "%-17s %-16s    failed (no 'Nodes searched' line)\n" "$name" menagerie
    fi
  fi
  if [[ -n "$SF" ]]; then
    if [[ "$sfmode" == "-" ]]; then
      printf "%-17s %-16s    skipped: rules not expressible in Stockfish\n" "$name" stockfish
    else
      c960=false; [[ "$sfmode" == chess960 ]] && c960=true
      r=$(uci_perft "$SF" "" "" "$c960" "$fen" "$depth")
      if [[ -n "$r" ]]; then
        read -r s_nodes ns <<<"$r"; fmt_row "$name" stockfish "$depth" "$s_nodes" "$ns"; s_nps=$(nps "$s_nodes" "$ns")
      else
        printf "%-17s %-16s    failed\n" "$name" stockfish
      fi
    fi
  fi
  if [[ -n "$FSF" ]]; then
    if [[ "$fvar" == "-" || ( "$fvar" != chess && -z "$FSF_INI" ) ]]; then
      printf "%-17s %-16s    skipped: variant not available\n" "$name" fairy-stockfish
    else
      c960=false; [[ "$sfmode" == chess960 || "$mvar" == vdchess ]] && c960=true
      r=$(uci_perft "$FSF" "$FSF_INI" "$fvar" "$c960" "$fen" "$depth")
      if [[ -n "$r" ]]; then
        read -r f_nodes ns <<<"$r"; fmt_row "$name" fairy-stockfish "$depth" "$f_nodes" "$ns"; f_nps=$(nps "$f_nodes" "$ns")
      else
        printf "%-17s %-16s    failed\n" "$name" fairy-stockfish
      fi
    fi
  fi
  # node counts must agree
  agree="counts agree"
  ref="${m_nodes:-${s_nodes:-$f_nodes}}"
  [[ -z "$ref" ]] && agree="no engine ran"
  for n in "$m_nodes" "$s_nodes" "$f_nodes"; do
    [[ -n "$n" && "$n" != "$ref" ]] && agree="COUNTS DIFFER (menagerie=${m_nodes:--} stockfish=${s_nodes:--} fairy-stockfish=${f_nodes:--})"
  done
  [[ $m_nps == 0 ]] && m_nps=-; [[ $s_nps == 0 ]] && s_nps=-; [[ $f_nps == 0 ]] && f_nps=-
  SUMMARY+=("$(printf "%-17s %14s %14s %14s %10s %10s  %s" "$name" "$m_nps" "$s_nps" "$f_nps" \
    "$(ratio "$m_nps" "$s_nps")" "$(ratio "$m_nps" "$f_nps")" "$agree")")
done

echo
printf "%-17s %14s %14s %14s %10s %10s\n" position "menagerie n/s" "stockfish n/s" "fsf n/s" "men/sf" "men/fsf"
printf -- '-%.0s' {1..96}; echo
printf '%s\n' "${SUMMARY[@]}"
