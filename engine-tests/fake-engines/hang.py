#!/usr/bin/env python3
"""Fake engine for the referee tests: shakes hands (UCI) and then never answers a `go`. With an
argument SECONDS it answers after that many seconds instead, with `bestmove 0000` (a null move,
judged illegal): a referee that waits that long has not applied its hang timeout."""
import sys
import time

late = float(sys.argv[1]) if len(sys.argv) > 1 else None
for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name hang\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "go" and late is not None:
        time.sleep(late)
        print("bestmove 0000", flush=True)
    elif words[0] == "quit":
        break
