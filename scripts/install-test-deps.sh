#!/usr/bin/env bash
# Install what the test suite needs beyond a Rust toolchain: python-chess from PyPI, for
# engine-tests/python_chess_uci.rs (scripts/python-chess-uci.py). Run before `cargo test`.
set -euo pipefail
if python3 -c 'import chess.engine' 2>/dev/null; then
    echo "python-chess $(python3 -c 'import chess; print(chess.__version__)') is installed"
    exit 0
fi
python3 -m pip install --quiet chess || python3 -m pip install --quiet --user chess \
    || python3 -m pip install --quiet --break-system-packages chess
python3 -c 'import chess; print("python-chess", chess.__version__, "installed")'
