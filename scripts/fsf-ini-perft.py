#!/usr/bin/env python3
"""Regenerate the perft suite of a Fairy-Stockfish variant file from Fairy-Stockfish itself.

For every section of the file that Menagerie accepts (`menagerie --variants FILE variants`),
this asks Fairy-Stockfish (UCI: VariantPath, UCI_Variant, position, `go perft`) for the start
position and for one position a few seeded-random plies later, and writes a suite in the format
of perft-suites/ (id, variant, epd, perft DEPTH NODES). rules/tests/fsf_ini.rs checks Menagerie
against it without needing Fairy-Stockfish.

  scripts/fsf-ini-perft.py [--ini rules/tests/data/fsf-variants.ini]
                           [--out rules/tests/data/fsf-variants.perft]
                           [--fsf /work/shared/bin/fairy-stockfish-lb]
                           [--menagerie target/release/menagerie]
                           [--max-nodes 3000000] [--max-depth 4] [--plies 6]

Depths: every depth from 1 up to --max-depth whose count stays at or below --max-nodes (depth 3
is always kept).
"""
import argparse
import random
import re
import subprocess
import sys


def fsf(binary, ini, variant, commands):
    """Run Fairy-Stockfish on one variant with these commands; return its output."""
    text = "\n".join(
        ["uci", f"setoption name VariantPath value {ini}", f"setoption name UCI_Variant value {variant}"]
        + commands
        + ["quit", ""]
    )
    out = subprocess.run([binary], input=text, capture_output=True, text=True, timeout=600)
    return out.stdout


def position(moves):
    return "position startpos" + (" moves " + " ".join(moves) if moves else "")


def legal_moves(binary, ini, variant, moves):
    out = fsf(binary, ini, variant, [position(moves), "go perft 1"])
    return sorted(m.group(1) for m in re.finditer(r"^(\S+): 1$", out, re.M))


def fen_of(binary, ini, variant, moves):
    out = fsf(binary, ini, variant, [position(moves), "d"])
    m = re.search(r"^Fen: (.*)$", out, re.M)
    if not m:
        sys.exit(f"{variant}: no FEN from Fairy-Stockfish:\n{out}")
    return m.group(1).strip()


def perft(binary, ini, variant, moves, depth):
    out = fsf(binary, ini, variant, [position(moves), f"go perft {depth}"])
    m = re.search(r"^Nodes searched: (\d+)", out, re.M)
    if not m:
        sys.exit(f"{variant}: no perft from Fairy-Stockfish:\n{out}")
    return int(m.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ini", default="rules/tests/data/fsf-variants.ini")
    ap.add_argument("--out", default="rules/tests/data/fsf-variants.perft")
    ap.add_argument("--fsf", default="/work/shared/bin/fairy-stockfish-lb")
    ap.add_argument("--menagerie", default="target/release/menagerie")
    ap.add_argument("--max-nodes", type=int, default=3_000_000)
    ap.add_argument("--max-depth", type=int, default=4)
    ap.add_argument("--plies", type=int, default=6)
    args = ap.parse_args()

    sections = re.findall(r"^\[([^\]:]+)", open(args.ini).read(), re.M)
    listed = subprocess.run(
        [args.menagerie, "--variants", args.ini, "variants"], capture_output=True, text=True, check=True
    )
    refused = set(re.findall(r"variant '([^']+)' refused", listed.stderr))
    accepted = [s for s in sections if s in listed.stdout.split() and s not in refused]
    lines = [
        f"# Perft of the sections of {args.ini} that Menagerie accepts, counted by Fairy-Stockfish",
        f"# ({args.fsf.split('/')[-1]}) with scripts/fsf-ini-perft.py: the start position and the",
        f"# position after {args.plies} seeded-random plies; depths up to {args.max_depth} with at most",
        f"# {args.max_nodes} nodes (depth 3 always). Checked by rules/tests/fsf_ini.rs.",
        "",
    ]
    for variant in accepted:
        rng = random.Random(variant)
        moves = []
        for _ in range(args.plies):
            legal = legal_moves(args.fsf, args.ini, variant, moves)
            if not legal:
                break
            moves.append(rng.choice(legal))
        for tag, line in (("start", []), ("played", moves)):
            counts = []
            for depth in range(1, args.max_depth + 1):
                n = perft(args.fsf, args.ini, variant, line, depth)
                if n > args.max_nodes and depth > 3:
                    break
                counts.append((depth, n))
                if n > args.max_nodes:
                    break
            lines.append(f"id fsf-{variant}-{tag}")
            lines.append(f"variant {variant}")
            lines.append(f"epd {fen_of(args.fsf, args.ini, variant, line)}")
            if line:
                lines.append(f"# moves {' '.join(line)}")
            lines += [f"perft {d} {n}" for d, n in counts]
            lines.append("")
            print(variant, tag, counts, file=sys.stderr)
    open(args.out, "w").write("\n".join(lines))


if __name__ == "__main__":
    main()
