#!/usr/bin/env python3
"""A scripted CECP "engine" for checking how real XBoard referees Displacement castling.

It introduces `displacement` exactly as Menagerie does (the `setup` line of board #1 and the
king's `piece` line with its `O` atoms), plays White's moves from the command line whatever Black
does, and then stops moving. Used by scripts/xboard-gui.sh (CASTLING=1) as XBoard's first engine
with Menagerie second: XBoard's debug log then shows whether it accepts `move e1f1,h1e1` (1-step
castling as two legs) and `move e1b1` (3-step castling as the king's destination), and what it
sends to Menagerie for them.

Usage: xboard-castling-stub.py MOVE...   e.g.  g1f3 e2e3 f1e2 e1f1,h1e1
"""

import sys

SETUP = "setup (PNBRQKpnbrqk) 8x8+0_fairy rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KING = "piece K& KrO1rO2lO1lO2lO3"


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    script = sys.argv[1:]
    white_to_move = True
    playing_white = False
    for raw in sys.stdin:
        words = raw.split()
        if not words:
            continue
        cmd = words[0]
        if cmd == "protover":
            say('feature myname="castling stub" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 '
                'colors=0 variants="displacement" done=1')
        elif cmd == "variant":
            say(SETUP)
            say(KING)
        elif cmd == "ping":
            say("pong " + " ".join(words[1:]))
        elif cmd == "new":
            white_to_move, playing_white = True, False
        elif cmd == "force":
            playing_white = False
        elif cmd == "go":
            playing_white = white_to_move
        elif cmd == "usermove":
            white_to_move = not white_to_move
        elif cmd == "quit":
            return
        if playing_white and white_to_move and script:
            say("move " + script.pop(0))
            white_to_move = False


if __name__ == "__main__":
    main()
