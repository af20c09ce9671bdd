#!/usr/bin/env bash
# Real XBoard (Debian `xboard`, 4.9.1) under a virtual X server: Menagerie as first engine plays
# a short match in each variant, against itself (or `sjaakii` for normal/fischerandom with
# OPPONENT=sjaakii). Saves per variant the PGN, XBoard's debug log (all engine traffic) and a
# screenshot taken a few seconds into the first game, into OUT (default target/xboard-gui).
# Not part of CI: it needs xboard and xvfb (`apt-get install -y xboard xvfb imagemagick`).
#
# Usage: scripts/xboard-gui.sh [VARIANT ...]     (default: every variant)
#   GAMES=2 TC=0:20 INC=0.2 SHOT_AFTER=3 OUT=target/xboard-gui OPPONENT=menagerie
#   CASTLING=1: instead, check how XBoard referees Displacement castling sent by a scripted first
#   engine (scripts/xboard-castling-stub.py) to Menagerie: 1-step `e1f1,h1e1`, 3-step `e1b1`.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${MENAGERIE:-$here/target/release/menagerie}
out=${OUT:-$here/target/xboard-gui}
games=${GAMES:-2}
tc=${TC:-0:20}
inc=${INC:-0.2}
shot_after=${SHOT_AFTER:-3}
opponent=${OPPONENT:-menagerie}
xboard=${XBOARD:-/usr/games/xboard}
variants=("$@")
[ ${#variants[@]} -eq 0 ] && variants=(normal fischerandom nocastle dchess chess9 displacement vdchess rvc)

[ -x "$bin" ] || (cd "$here" && cargo build --release) || exit 1
command -v Xvfb >/dev/null || { echo "Xvfb missing: apt-get install -y xvfb" >&2; exit 1; }
[ -x "$xboard" ] || { echo "xboard missing: apt-get install -y xboard" >&2; exit 1; }
mkdir -p "$out"

display=:$((90 + RANDOM % 100))
Xvfb "$display" -screen 0 1400x1000x24 >/dev/null 2>&1 &
xvfb_pid=$!
trap 'kill $xvfb_pid 2>/dev/null' EXIT
sleep 1

if [ "${CASTLING:-0}" = 1 ]; then
    stub=$here/scripts/xboard-castling-stub.py
    for line in "short:g1f3 e2e3 f1e2 e1f1,h1e1" "long:b1a3 b2b3 c1b2 d2d3 d1d2 e1b1"; do
        name=castling-${line%%:*}
        echo "== displacement $name: stub plays ${line#*:}"
        rm -f "$out/$name.pgn" "$out/$name.debug" "$out/$name.fen"
        DISPLAY=$display timeout 120 "$xboard" \
            -fcp "$stub ${line#*:}" -fd "$here" -scp "$bin" -sd "$here" \
            -variant displacement -matchGames 1 -tc 0:08 -inc 0 \
            -saveGameFile "$out/$name.pgn" -savePositionFile "$out/$name.fen" \
            -debugMode true -nameOfDebugFile "$out/$name.debug" \
            -autoCallFlag true -popupExitMessage false -ponderNextMove false -soundProgram true \
            >"$out/$name.stdout" 2>&1
        grep -E '<first : move|>second: (usermove|setboard)|<second: (move|Illegal)|Illegal|Forfeit' \
            "$out/$name.debug" | grep -v '^[0-9]* >second: usermove$' | sed 's/^/   /'
        grep -E '^[0-9]+\.' "$out/$name.pgn" | sed 's/^/   pgn: /'
        grep -v '^\[' "$out/$name.fen" | sed 's/^/   final position: /'
    done
    exit 0
fi

for v in "${variants[@]}"; do
    second=$bin
    [ "$opponent" = sjaakii ] && case $v in normal|fischerandom|nocastle) second=/usr/games/sjaakii ;; esac
    extra=()
    # Chess960 castling on XBoard's bughouse (VD) and fairy (Chess-9) rules.
    case $v in vdchess|chess9) extra+=(-fischerCastling) ;; esac
    # Pieces XBoard's Betza reader cannot take (the engine says so in '#' lines) need legality
    # testing off; the engine's highlights still show the legal targets.
    [ "$v" = rvc ] && extra+=(-testLegality false)
    rm -f "$out/$v.pgn" "$out/$v.debug"
    echo "== $v: $games games, $tc + $inc, against $(basename "$second")"
    DISPLAY=$display timeout 900 "$xboard" \
        -fcp "$bin" -fd "$here" -scp "$second" -sd "$here" \
        -variant "$v" -matchGames "$games" -tc "$tc" -inc "$inc" \
        -saveGameFile "$out/$v.pgn" -debugMode true -nameOfDebugFile "$out/$v.debug" \
        -autoCallFlag true -popupExitMessage false -ponderNextMove false \
        -size medium -showCoords true -highlightLastMove true -soundProgram true "${extra[@]}" \
        >"$out/$v.stdout" 2>&1 &
    xb=$!
    sleep "$shot_after"
    DISPLAY=$display import -window root "$out/$v.png" 2>/dev/null &&
        convert "$out/$v.png" -trim +repage "$out/$v.png" && echo "   screenshot $out/$v.png"
    wait $xb
    echo "   xboard exit status $?"
    if [ -s "$out/$v.pgn" ]; then
        grep -E '^\[(Result|Variant|FEN|Termination)' "$out/$v.pgn" | sed 's/^/   /'
        grep -c '^\[Event' "$out/$v.pgn" | sed 's/^/   games saved: /'
    else
        echo "   no PGN saved"
    fi
    grep -E 'Illegal move|illegal|Error|forfeit|xboard exit|setup \(' "$out/$v.debug" 2>/dev/null | head -8 | sed 's/^/   log: /'
done
