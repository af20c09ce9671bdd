#!/usr/bin/env python3
"""Fake engine for the referee tests: shakes hands (UCI) and exits with status 1 on its first
`go`, the first time it is started. Started again (the marker file given as the argument
exists), it answers `bestmove 0000`: a restarted engine is seen to play on."""
import os
import sys

marker = sys.argv[1] if len(sys.argv) > 1 else None
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name crash\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go":
        if marker and not os.path.exists(marker):
            open(marker, "w").close()
            sys.exit(1)
        print("bestmove 0000", flush=True)
    elif words[0] == "quit":
        break
