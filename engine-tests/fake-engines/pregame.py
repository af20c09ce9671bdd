#!/usr/bin/env python3
"""Fake engine for the pre-game protocol (issue 7): chooses Black after a won toss, swaps its king
with the first other non-bishop piece of a different type when it moves first (D-Chess),
relocates its queen (Chess-9), prints `pregame option` lines first, and answers every move
request with `bestmove 0000`. With the argument `illegal` every pre-game answer is illegal."""
import sys

illegal = sys.argv[1:] == ["illegal"]


def say(line):
    print(line, flush=True)


def back_rank(fen, colour):
    ranks = fen.split()[0].split("/")
    row = ranks[-1] if colour == "w" else ranks[0]
    out = []
    for c in row:
        out.extend(" " * int(c) if c.isdigit() else c)
    return out


for raw in sys.stdin:
    words = raw.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        say("id name pregame")
        say("option name UCI_Chess960 type check default false")
        say("uciok")
    elif cmd == "isready":
        say("readyok")
    elif cmd == "go":
        say("bestmove 0000")
    elif cmd == "pregame" and len(words) > 2:
        say("pregame option ignored 12")
        if illegal:
            say({"choose-side": "pregame side purple", "transpose": "pregame swap a1a1"}.get(words[2], "pregame relocate rook"))
        elif words[2] == "choose-side":
            say("pregame side black")
        elif words[2] == "transpose":
            fen = " ".join(words[3:9])
            side = fen.split()[1]
            row = back_rank(fen, side)
            king = [i for i, c in enumerate(row) if c.lower() == "k"][0]
            other = [i for i, c in enumerate(row) if c.lower() not in "kb"][0]
            rank = "1" if side == "w" else "8"
            say("pregame swap %s%s%s%s" % ("abcdefgh"[king], rank, "abcdefgh"[other], rank))
        elif words[2] == "relocate":
            say("pregame relocate queen")
    elif cmd == "quit":
        break
