#!/usr/bin/env python3
"""Nodes per second of engine builds on the same fixed-node search, runs alternated.

    scripts/nps-compare.py VARIANT NODES RUNS LABEL=BINARY[:OPTION=VALUE...] ...

Each configuration searches the variant's start position to NODES nodes in a fresh UCI
session (`go nodes`), so two builds that evaluate alike search the same tree; the median of
RUNS runs is printed. OPTION=VALUE pairs become `setoption` commands (EvalFile=net.nnue).
"""
import statistics
import subprocess
import sys


def nps(binary, variant, nodes, options):
    p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True)
    commands = ["uci", f"setoption name UCI_Variant value {variant}",
                *[f"setoption name {k} value {v}" for k, v in options],
                "isready", "position startpos", f"go nodes {nodes}"]
    p.stdin.write("\n".join(commands) + "\n")
    p.stdin.flush()
    last = None
    for line in p.stdout:
        if line.startswith("info") and " nps " in line:
            last = line.split()
        if line.startswith("bestmove"):
            break
    p.stdin.write("quit\n")
    p.stdin.flush()
    p.wait()
    return int(last[last.index("nps") + 1])


def main():
    variant, nodes, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    configs = []
    for arg in sys.argv[4:]:
        label, spec = arg.split("=", 1)
        binary, *options = spec.split(":")
        configs.append((label, binary, [o.split("=", 1) for o in options]))
    results = {label: [] for label, _, _ in configs}
    for _ in range(runs):
        for label, binary, options in configs:
            results[label].append(nps(binary, variant, nodes, options))
    for label, values in results.items():
        print(f"{variant} {label}: median {statistics.median(values):.0f} nodes/s, runs {values}")


if __name__ == "__main__":
    main()
