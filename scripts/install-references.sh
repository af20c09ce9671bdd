#!/usr/bin/env bash
# Installs the reference engines Menagerie is checked and benchmarked against.
# Idempotent: installs only what is missing.
#
#   Debian: stockfish (orthodox/Chess960 perft), fairy-stockfish (variant perft, "11.1 LB"),
#           sjaakii (Sjaak II 1.4.1, variant perft), fairymax (Fairy-Max 5.0b, match
#           opponent), ethereal-chess (Ethereal 12, D-Chess match opponent) -> /usr/games/
#   PyPI:   pyffish 0.0.90 (Fairy-Stockfish as a Python module), chess 1.11.2 (python-chess)
#
# Used by scripts/oracle-perft.py (perft cross-checks, divide) and scripts/perft-bench.sh.
# Options: --no-python  skip the PyPI packages.
set -euo pipefail

want_python=1
[[ "${1:-}" == "--no-python" ]] && want_python=0

SUDO=""
if [[ "$(id -u)" != 0 ]]; then
  SUDO="sudo"
fi

missing=()
for pkg in stockfish fairy-stockfish sjaakii fairymax ethereal-chess; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$pkg")
  fi
done

if ((${#missing[@]})); then
  echo "install-references: apt-get install ${missing[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
else
  echo "install-references: stockfish, fairy-stockfish, sjaakii, fairymax, ethereal-chess already installed"
fi

if ((want_python)); then
  PY="${PYTHON:-python3}"
  if "$PY" - <<'EOF' 2>/dev/null
import importlib.metadata as m, sys
ok = m.version("pyffish") == "0.0.90" and m.version("chess") == "1.11.2"
sys.exit(0 if ok else 1)
EOF
  then
    echo "install-references: pyffish 0.0.90 and chess 1.11.2 already installed"
  else
    echo "install-references: pip install pyffish==0.0.90 chess==1.11.2"
    "$PY" -m pip install -q --disable-pip-version-check pyffish==0.0.90 chess==1.11.2
  fi
fi

# The Debian engines live in /usr/games, which is often not on root's PATH.
for b in stockfish fairy-stockfish sjaakii fairymax ethereal-chess; do
  p="$(command -v "$b" 2>/dev/null || true)"
  [[ -z "$p" && -x "/usr/games/$b" ]] && p="/usr/games/$b"
  printf '  %-16s %s\n' "$b" "${p:-NOT FOUND}"
done
