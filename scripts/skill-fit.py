#!/usr/bin/env python3
"""Fit an Elo to each level from the results of scripts/skill-calibration.sh.

Reads result lines (`... A vs B: W-D-L (W-D-L), ...`, as the calibration appends them to
skill-calibration.txt) from the files given or stdin, and fits one Elo per engine by maximum
likelihood under the logistic model (a draw counts as half a win and half a loss), with
Fairy-Max fixed at ANCHOR_ELO. Each pair of engines gets one extra draw, a weak prior that keeps
a pair that never scored finite. Prints, per engine: games, the fitted Elo and its standard
error (from the curvature of the likelihood, relative to the anchor), as a Markdown table.

    scripts/skill-fit.py target/match-results/skill-calibration.txt
"""

import math
import re
import sys

ANCHOR = "fairymax"
ANCHOR_ELO = 1950.0
LINE = re.compile(r"(\S+) vs (\S+): (\d+)-(\d+)-(\d+) \(W-D-L\)")


def read(paths):
    results = {}
    texts = [open(p).read() for p in paths] if paths else [sys.stdin.read()]
    for text in texts:
        for m in LINE.finditer(text):
            a, b, w, d, l = m.group(1), m.group(2), *map(int, m.groups()[2:])
            key = (a, b)
            old = results.get(key, (0, 0, 0))
            results[key] = (old[0] + w, old[1] + d, old[2] + l)
    return results


def expected(diff):
    return 1.0 / (1.0 + 10 ** (-diff / 400.0))


def fit(results):
    names = sorted({n for pair in results for n in pair}, key=order)
    free = [n for n in names if n != ANCHOR]
    elo = {n: ANCHOR_ELO for n in names}
    # Points and games per pair, with the prior draw.
    pairs = [(a, b, w + d / 2 + 0.5, w + d + l + 1) for (a, b), (w, d, l) in results.items()]
    c = math.log(10) / 400.0
    for _ in range(200):
        # Newton steps on the log-likelihood over the free Elos.
        grad = {n: 0.0 for n in free}
        hess = {(i, j): 0.0 for i in free for j in free}
        for a, b, points, games in pairs:
            p = expected(elo[a] - elo[b])
            g = c * (points - games * p)
            h = c * c * games * p * (1 - p)
            for n, sign in ((a, 1), (b, -1)):
                if n in grad:
                    grad[n] += sign * g
            for x, sx in ((a, 1), (b, -1)):
                for y, sy in ((a, 1), (b, -1)):
                    if x in grad and y in grad:
                        hess[(x, y)] += sx * sy * h
        step = solve([[hess[(i, j)] for j in free] for i in free], [grad[n] for n in free])
        for n, s in zip(free, step):
            elo[n] += s
        if max(abs(s) for s in step) < 1e-6:
            break
    inverse = invert([[hess[(i, j)] for j in free] for i in free])
    error = {n: math.sqrt(max(inverse[k][k], 0.0)) for k, n in enumerate(free)}
    error[ANCHOR] = 0.0
    games = {n: sum(w + d + l for (a, b), (w, d, l) in results.items() if n in (a, b)) for n in names}
    return names, elo, error, games


def order(name):
    m = re.fullmatch(r"L(\d+)", name)
    return (0, int(m.group(1))) if m else (1, name)


def solve(matrix, vector):
    n = len(vector)
    a = [row[:] + [v] for row, v in zip(matrix, vector)]
    for i in range(n):
        pivot = max(range(i, n), key=lambda r: abs(a[r][i]))
        a[i], a[pivot] = a[pivot], a[i]
        for r in range(n):
            if r != i:
                f = a[r][i] / a[i][i]
                a[r] = [x - f * y for x, y in zip(a[r], a[i])]
    return [a[i][n] / a[i][i] for i in range(n)]


def invert(matrix):
    n = len(matrix)
    return list(zip(*[solve(matrix, [1.0 if i == j else 0.0 for i in range(n)]) for j in range(n)]))


def main():
    results = read(sys.argv[1:])
    if not any(ANCHOR in pair for pair in results):
        sys.exit(f"no games against {ANCHOR}: nothing to anchor the scale")
    names, elo, error, games = fit(results)
    print("| engine | games | Elo | ± (1 s.e.) |")
    print("|---|---|---|---|")
    for n in names:
        print(f"| {n} | {games[n]} | {elo[n]:.0f} | {error[n]:.0f} |")


if __name__ == "__main__":
    main()
