#!/usr/bin/env python3
"""Fake engine for the referee tests: shakes hands (UCI) and then never answers a `go`."""
import sys

for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    if words[0] == "uci":
        print("id name hang\nuciok", flush=True)
    elif words[0] == "isready":
        print("readyok", flush=True)
    elif words[0] == "quit":
        break
