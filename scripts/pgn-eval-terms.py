#!/usr/bin/env python3
"""Menagerie's static evaluation, term by term, of the positions a match reached: for each game
of a match PGN (`menagerie match --pgn`), the position before Menagerie's move N is rebuilt and
given to `menagerie eval`, and the terms (hand-written evaluation, network, and the search's
own score from the PGN comment) are averaged from Menagerie's side beside the games' result.

It answers where a steady misjudgment against an opponent comes from: in VD Chess the
hand-written evaluation's material term (the worth of a piece in hand) was the pawn Menagerie
judged itself ahead by while scoring below even (docs/history/network.md).

The PGN's moves are in SAN; they are turned into coordinates with `pyffish` (Fairy-Stockfish's
Python binding, `pip install pyffish`) and the variant file Fairy-Stockfish played with.

    python3 scripts/pgn-eval-terms.py --pgn match.pgn --variant vdchess --move 10 \\
        [--count 80] [--holding] [--menagerie target/release/menagerie] \\
        [--ini ../shared/oracle-configs/fairy-stockfish-variants.ini]

`--holding`: only the positions where Menagerie still has its pieces in hand and the opponent
has dropped one.
"""
import argparse
import re
import statistics
import subprocess
import sys
from collections import defaultdict

from pgn_games import games

TERM = re.compile(r"\s*([A-Za-z][\w ]*?) \|\s+(-?[\d.]+)\s+(-?[\d.]+) \|\s+(-?[\d.]+)\s+(-?[\d.]+) \|\s+(-?[\d.]+)\s+(-?[\d.]+)")
MOVE = re.compile(r"([^\s{}]+)\s*\{([^}]*)\}")
RESULT = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}


def to_coordinates(sf, variant, fen, sans):
    """The SAN moves from `fen` in coordinates, or None where one does not match exactly one move."""
    done = []
    for san in sans:
        here = sf.get_fen(variant, fen, done, True)
        found = [u for u in sf.legal_moves(variant, fen, done, True)
                 if sf.get_san(variant, here, u, True).rstrip("+#") == san.rstrip("+#")]
        if len(found) != 1:
            return None
        done.append(found[0])
    return done


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pgn", required=True)
    ap.add_argument("--variant", required=True)
    ap.add_argument("--move", type=int, default=10, help="Menagerie's move number")
    ap.add_argument("--count", type=int, default=80, help="at most this many positions")
    ap.add_argument("--holding", action="store_true")
    ap.add_argument("--name", default="menagerie", help="Menagerie's name in the PGN")
    ap.add_argument("--menagerie", default="target/release/menagerie")
    ap.add_argument("--ini", default="../shared/oracle-configs/fairy-stockfish-variants.ini")
    a = ap.parse_args()
    try:
        import pyffish as sf
    except ImportError:
        sys.exit("pyffish is needed: pip install pyffish")
    with open(a.ini, encoding="utf-8") as f:
        sf.load_variant_config(f.read())
    with open(a.pgn, encoding="utf-8", errors="replace") as f:
        text = f.read()

    terms = defaultdict(list)
    totals = defaultdict(list)
    for tags, moves in ((tags, MOVE.findall(body)) for tags, body in games(text)):
        if len(totals["result"]) >= a.count or a.name not in (tags.get("White"), tags.get("Black")):
            continue
        white = tags.get("White") == a.name
        sign = 1.0 if white else -1.0
        index = 2 * (a.move - 1) + (0 if white else 1)
        if len(moves) <= index or tags.get("Result") not in RESULT:
            continue
        sans = [m for m, _ in moves[:index]]
        ours = sans[0 if white else 1::2]
        theirs = sans[1 if white else 0::2]
        if a.holding and (any("@" in m for m in ours) or not any("@" in m for m in theirs)):
            continue
        start = tags.get("FEN", sf.start_fen(a.variant))
        coords = to_coordinates(sf, a.variant, start, sans)
        if coords is None:
            continue
        fen = sf.get_fen(a.variant, start, coords, True)
        out = subprocess.run([a.menagerie, "eval", "--variant", a.variant, "--fen", fen],
                             capture_output=True, text=True).stdout
        hand = re.search(r"Total evaluation: (-?[\d.]+)", out)
        net = re.search(r"NNUE evaluation: (-?[\d.]+)", out)
        search = re.match(r"\s*([+-]?[\d.]+)/", moves[index][1])
        if not hand or not search:
            continue
        for line in out.splitlines():
            m = TERM.match(line)
            if m:
                terms[m.group(1)].append((sign * float(m.group(6)), sign * float(m.group(7))))
        result = RESULT[tags["Result"]]
        totals["result"].append(result if white else 1.0 - result)
        totals["hand-written"].append(sign * float(hand.group(1)))
        if net:
            totals["network"].append(sign * float(net.group(1)))
        totals["search"].append(float(search.group(1)))

    n = len(totals["result"])
    if n == 0:
        sys.exit("no position matched")
    print(f"{n} positions before {a.name}'s move {a.move}; its score in those games {statistics.mean(totals['result']):.1%}")
    for key in ("hand-written", "network", "search"):
        if totals[key]:
            print(f"  {key:>12}: {statistics.mean(totals[key]):+.2f} pawns for {a.name}")
    print("  hand-written terms (middlegame, endgame), for it:")
    for term, values in terms.items():
        mg = statistics.mean(v[0] for v in values)
        eg = statistics.mean(v[1] for v in values)
        print(f"  {term:>12}: {mg:+.2f} {eg:+.2f}")


if __name__ == "__main__":
    main()
