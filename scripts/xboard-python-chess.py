#!/usr/bin/env python3
"""D-Chess and Chess-9 games against Menagerie over XBoard/CECP with python-chess
(`chess.engine.popen_xboard`, pip package `chess`).

python-chess only knows 8x8 boards of orthodox pieces, so it can referee D-Chess (a board class
with `xboard_variant = "dchess"`, no castling) and Chess-9 (`xboard_variant = "chess9"` with
Chess960 castling). It sends `new`, `variant dchess|chess9`, `setboard FEN`, the clock and
`usermove`s, and checks every move the engine sends. Menagerie plays both sides; each game starts
from a random start position drawn by `menagerie startpos --random`.

Usage: scripts/xboard-python-chess.py [path/to/menagerie] [games per variant]
Exit status 0 when every game ends legally with the result python-chess computes.
"""

import subprocess
import sys

import chess
import chess.engine


class DChessBoard(chess.Board):
    aliases = ["D-Chess"]
    uci_variant = "dchess"
    xboard_variant = "dchess"


class Chess9Board(chess.Board):
    aliases = ["Chess-9"]
    uci_variant = "chess9"
    xboard_variant = "chess9"


def random_start(binary, variant, seed):
    out = subprocess.run(
        [binary, "startpos", "--variant", variant, "--random", "--seed", str(seed)],
        capture_output=True, text=True, check=True,
    )
    return out.stdout.strip().splitlines()[-1]


def play(binary, board_class, variant, seed, chess960):
    fen = random_start(binary, variant, seed)
    board = board_class(fen, chess960=chess960)
    engine = chess.engine.SimpleEngine.popen_xboard([binary])
    try:
        while not board.is_game_over(claim_draw=True) and board.ply() < 300:
            result = engine.play(board, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.05,
                                                           black_inc=0.05))
            if result.move is None:
                raise RuntimeError(f"{variant}: no move at {board.fen()}")
            if result.move not in board.legal_moves:
                raise RuntimeError(f"{variant}: illegal move {result.move} at {board.fen()}")
            board.push(result.move)
    finally:
        engine.quit()
    outcome = board.outcome(claim_draw=True)
    print(f"{variant} seed {seed}: {fen}: {board.ply()} plies, "
          f"{outcome.termination.name if outcome else 'unfinished'} {board.result(claim_draw=True)}")
    print("   ", " ".join(m.uci() for m in board.move_stack))
    return True


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/menagerie"
    games = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    ok = True
    for seed in range(1, games + 1):
        for board_class, variant, chess960 in [(DChessBoard, "dchess", False), (Chess9Board, "chess9", True)]:
            try:
                play(binary, board_class, variant, seed, chess960)
            except Exception as e:  # report every failure, then fail
                print(f"{variant} seed {seed}: FAILED: {e!r}")
                ok = False
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
