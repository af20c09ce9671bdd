#!/usr/bin/env python3
"""Fake engine for the referee tests: shakes hands in UCI or XBoard (whichever comes first) and
answers every move request with e2e5, which is illegal in every start position."""
import sys


def say(line):
    print(line, flush=True)


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        say("id name illegal")
        say("uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "go" and len(words) > 1:
        say("info depth 1 score cp 0")
        say("bestmove e2e5")
    elif cmd == "protover":
        say('feature ping=1 setboard=1 usermove=1 variants="normal,fischerandom" done=1')
    elif cmd == "ping":
        say("pong " + words[1])
    elif cmd == "go":
        say("move e2e5")
    elif cmd == "quit":
        break
