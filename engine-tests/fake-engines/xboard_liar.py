#!/usr/bin/env python3
"""Fake XBoard engine for the referee tests. With the argument `claim` it claims a draw by
repetition instead of moving; with `resign` it resigns; with `reject` it answers the opponent's
(legal) moves with `Illegal move` (as White it first plays e2e4 from the standard start)."""
import sys

mode = sys.argv[1] if len(sys.argv) > 1 else "claim"
heard_a_move = False


def say(line):
    print(line, flush=True)


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "protover":
        say('feature ping=1 setboard=1 usermove=1 variants="normal" done=1')
    elif cmd == "new":
        heard_a_move = False
    elif cmd == "ping":
        say("pong " + words[1])
    elif cmd == "usermove" and mode == "reject":
        heard_a_move = True
        say("Illegal move: " + words[1])
    elif cmd == "go":
        if mode == "claim":
            say("1/2-1/2 {Draw by repetition}")
        elif mode == "resign":
            say("resign")
        elif not heard_a_move:
            say("move e2e4")
    elif cmd == "quit":
        break
