#!/usr/bin/env python3
"""Fairy-Max with `setboard`: a CECP filter around /usr/games/fairymax.

Fairy-Max announces `setboard=0` and takes positions only through `edit` mode, which python-chess
(and many match tools) do not speak. This filter announces `setboard=1` and turns each
`setboard FEN` into the sequence the CECP specification gives for edit mode: `new`, `force`, the
variant again, a dummy `a2a3` when Black is to move, then `edit`, `#`, the pieces, `.`.

    fairymax-setboard.py [--variant nocastle] [--fairymax /usr/games/fairymax]

With `--variant nocastle` (for D-Chess, which has no castling) the filter asks Fairy-Max for that
variant after every `new`, so that it never castles.
"""

import argparse
import subprocess
import sys
import threading


def edit_commands(fen, variant):
    board, side = fen.split()[0], fen.split()[1]
    lines = ["new", "force"]
    if variant:
        lines.append(f"variant {variant}")
    if side == "b":
        lines.append("a2a3")
    lines += ["edit", "#"]
    white, black = [], []
    for rank_index, row in enumerate(board.split("/")):
        rank = 8 - rank_index
        file = 0
        for ch in row:
            if ch.isdigit():
                file += int(ch)
                continue
            square = f"{chr(ord('a') + file)}{rank}"
            (white if ch.isupper() else black).append(f"{ch.upper()}{square}")
            file += 1
    lines += white + ["c"] + black + ["."]
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fairymax", default="/usr/games/fairymax")
    ap.add_argument("--variant", default=None)
    args = ap.parse_args()
    engine = subprocess.Popen([args.fairymax], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def pump():
        for line in engine.stdout:
            line = line.replace("setboard=0", "setboard=1")
            sys.stdout.write(line)
            sys.stdout.flush()

    threading.Thread(target=pump, daemon=True).start()
    for line in sys.stdin:
        words = line.split()
        if words and words[0] == "setboard" and len(words) >= 3:
            out = edit_commands(" ".join(words[1:]), args.variant)
        elif words and words[0] == "new" and args.variant:
            out = ["new", f"variant {args.variant}"]
        else:
            out = [line.rstrip("\n")]
        try:
            engine.stdin.write("".join(x + "\n" for x in out))
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if words and words[0] == "quit":
            break
    engine.wait(timeout=5)


if __name__ == "__main__":
    main()
