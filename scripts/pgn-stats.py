#!/usr/bin/env python3
"""Per-engine figures from the PGN of a match (`menagerie match --pgn`, cutechess-cli):
score, time spent a move by stretches of ten moves, depth, the move of each side's first
drop, and each side's own score at its 10th and 20th moves.

It reads the move comments `{SCORE/DEPTH TIMEs}` that both runners write, so it shows where
two engines spend their clock differently, or where their judgments part, without replaying
the games. The runners write move times to a tenth of a second, so the means of moves much
shorter than that are rough.

    python3 scripts/pgn-stats.py match.pgn [more.pgn ...]
"""
import re
import sys
from collections import defaultdict

from pgn_games import games

MOVE = re.compile(r"(\d+\.+)?\s*([^\s{}]+)\s*\{([+-]?M?[\d.]+)/(\d+) ([\d.]+)s\}")


def report(path):
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as e:
        print(f"{path}: {e}", file=sys.stderr)
        return
    points = defaultdict(float)
    played = defaultdict(int)
    times = defaultdict(lambda: defaultdict(list))
    depths = defaultdict(list)
    drops = defaultdict(list)
    own_score = defaultdict(list)
    count = 0
    for tags, body in games(text):
        white, black = tags.get("White", "?"), tags.get("Black", "?")
        result = tags.get("Result", "*")
        count += 1
        if result in ("1-0", "0-1", "1/2-1/2"):
            for name, won in ((white, "1-0"), (black, "0-1")):
                played[name] += 1
                points[name] += 1.0 if result == won else 0.5 if result == "1/2-1/2" else 0.0
        side, moves, dropped = 0, [0, 0], set()
        for number, san, score, depth, secs in MOVE.findall(body):
            if number:
                side = 0 if number.count(".") == 1 else 1
            name = white if side == 0 else black
            moves[side] += 1
            times[name][min((moves[side] - 1) // 10, 6)].append(float(secs))
            depths[name].append(int(depth))
            if "@" in san and name not in dropped:
                dropped.add(name)
                drops[name].append(moves[side])
            if moves[side] in (10, 20) and "M" not in score:
                own_score[(name, moves[side])].append(float(score))
            side ^= 1
    print(f"{path}: {count} games")
    for name in sorted(depths):
        score = f"{points[name]:.1f}/{played[name]}" if played[name] else "-"
        depth = sum(depths[name]) / len(depths[name])
        print(f"  {name}: score {score}, mean depth {depth:.2f}")
        stretches = " ".join(
            f"{10 * k + 1}{'+' if k == 6 else f'-{10 * k + 10}'}:{sum(v) / len(v):.3f}"
            for k, v in sorted(times[name].items())
        )
        print(f"    seconds a move by its move number: {stretches}")
        if drops[name]:
            d = sorted(drops[name])
            print(f"    first drop: in {len(d)} games, median move {d[len(d) // 2]}")
        for n in (10, 20):
            s = own_score.get((name, n))
            if s:
                print(f"    own score at its move {n}: {sum(s) / len(s):+.2f} ({len(s)} games)")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    for p in sys.argv[1:]:
        report(p)
