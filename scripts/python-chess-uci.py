#!/usr/bin/env python3
"""python-chess (chess.engine, from PyPI) drives Menagerie over UCI and checks every move.

Usage: scripts/python-chess-uci.py [path/to/menagerie]

- A D-Chess game from a Black-to-move FEN (Ruleset=dchess, as a Cute Chess user sets it), on a
  clock with increment and pondering on (python-chess stops the ponder search before each move).
- A Chess-9 game under Chess960 (Ruleset=chess9; python-chess sets UCI_Chess960 itself), at a
  short fixed time per move, plus a forced castling written as king-takes-rook.
- An analysis with MultiPV 3: three distinct legal lines, and an infinite analysis stopped by the
  client.
- A ponder exchange: bestmove with a legal ponder move; go ponder; stop.

python-chess plays orthodox chess and Chess960, which is what D-Chess and Chess-9 are after the
start array, so its move generator referees both. Exits non-zero on any failure.
"""

import sys
import time

import chess
import chess.engine

DCHESS_FEN = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b - - 0 1"
# Chess-9 start arrays (menagerie startpos --variant chess9 --index 4 / 8), Shredder-FEN.
CHESS9_FENS = [
    "rnkqbbnr/pppppppp/8/8/8/8/PPPPPPPP/RNKQBBNR w HAha - 0 1",
    "rnbbkqnr/pppppppp/8/8/8/8/PPPPPPPP/RNBBKQNR w HAha - 0 1",
]
MAX_PLIES = 40

# How long any one exchange may take before the engine counts as hung: a liveness guard far
# beyond what a working engine needs on a loaded machine, never a performance bound.
HANG_GUARD = 120

failures = []


def check(ok, message):
    if not ok:
        failures.append(message)
        print("FAIL:", message, flush=True)
    return ok


def play_game(engine, board, limit, name, ponder=False):
    """Let the engine play both sides; every move (and ponder move) must be legal."""
    start = board.fen()
    plies = 0
    while not board.is_game_over(claim_draw=True) and plies < MAX_PLIES:
        result = engine.play(board, limit, ponder=ponder, info=chess.engine.INFO_ALL)
        move = result.move
        if not check(move is not None, f"{name}: no move at ply {plies} in {board.fen()}"):
            return
        if not check(move in board.legal_moves, f"{name}: illegal move {move} in {board.fen()}"):
            return
        if result.ponder is not None:
            after = board.copy()
            after.push(move)
            check(result.ponder in after.legal_moves, f"{name}: illegal ponder move {result.ponder} in {after.fen()}")
        if "pv" in result.info:
            replay = board.copy()
            for m in result.info["pv"]:
                if not check(m in replay.legal_moves, f"{name}: illegal pv move {m} in {replay.fen()}"):
                    break
                replay.push(m)
        board.push(move)
        plies += 1
    print(f"{name}: {plies} plies from {start}, {board.result(claim_draw=True)}", flush=True)
    check(plies >= 10 or board.is_game_over(), f"{name}: the game stopped after {plies} plies")


def dchess_game(path):
    with chess.engine.SimpleEngine.popen_uci(path, timeout=HANG_GUARD) as engine:
        check("Ruleset" in engine.options, "no Ruleset option")
        check(engine.id.get("name", "").startswith("Menagerie"), f"id name: {engine.id}")
        engine.configure({"Ruleset": "dchess", "Hash": 16})
        board = chess.Board(DCHESS_FEN)
        check(board.turn == chess.BLACK, "the D-Chess FEN has Black to move")
        limit = chess.engine.Limit(white_clock=4, black_clock=4, white_inc=0.05, black_inc=0.05)
        play_game(engine, board, limit, "D-Chess", ponder=True)


def chess9_game(path):
    with chess.engine.SimpleEngine.popen_uci(path, timeout=HANG_GUARD) as engine:
        engine.configure({"Ruleset": "chess9"})
        for fen in CHESS9_FENS:
            board = chess.Board(fen, chess960=True)
            play_game(engine, board, chess.engine.Limit(time=0.04), f"Chess-9 {fen.split()[0]}")
        # Castling both ways, restricted with searchmoves; python-chess (chess960) reads the
        # engine's king-takes-rook move. O-O-O from c1 leaves the king on c1.
        board = chess.Board("r1k4r/ppp1pppp/8/8/8/8/PPP1PPPP/R1K4R w HAha - 0 1", chess960=True)
        for castle in [chess.Move.from_uci("c1a1"), chess.Move.from_uci("c1h1")]:
            check(board.is_castling(castle), f"python-chess does not see {castle} as castling")
            result = engine.play(board, chess.engine.Limit(depth=2), root_moves=[castle])
            check(result.move == castle, f"Chess-9 castling: expected {castle}, got {result.move}")
        board.push(chess.Move.from_uci("c1a1"))
        board.push(chess.Move.from_uci("c8a8"))
        result = engine.play(board, chess.engine.Limit(depth=3))
        check(result.move in board.legal_moves, f"after O-O-O: illegal {result.move} in {board.fen()}")


def analysis(path):
    with chess.engine.SimpleEngine.popen_uci(path, timeout=HANG_GUARD) as engine:
        engine.configure({"Ruleset": "dchess"})
        board = chess.Board(DCHESS_FEN)
        board.push_uci("g7g6")
        board.push_uci("e2e4")
        infos = engine.analyse(board, chess.engine.Limit(depth=6), multipv=3)
        check(len(infos) == 3, f"MultiPV 3 gave {len(infos)} lines")
        firsts = []
        for i, info in enumerate(infos):
            pv = info.get("pv", [])
            check(info.get("multipv") == i + 1, f"line {i + 1}: multipv {info.get('multipv')}")
            check("score" in info and info.get("depth") == 6, f"line {i + 1}: {info}")
            if not check(len(pv) > 0, f"line {i + 1} has no pv: {info}"):
                continue
            firsts.append(pv[0])
            replay = board.copy()
            for m in pv:
                if not check(m in replay.legal_moves, f"line {i + 1}: illegal {m} in {replay.fen()}"):
                    break
                replay.push(m)
        check(len(set(firsts)) == len(firsts) == 3, f"MultiPV lines do not start with 3 distinct moves: {firsts}")
        # Infinite analysis, stopped by the client once depth 5 is reported.
        deepest = 0
        with engine.analysis(board, multipv=3) as running:
            for info in running:
                deepest = max(deepest, info.get("depth", 0))
                if deepest >= 5 and "pv" in info:
                    break
        check(deepest >= 5, f"infinite analysis reached depth {deepest}")
        # Leaving the block sent `stop` and took the best move: an engine that ignored it would
        # have hung past HANG_GUARD.
        # The engine still answers after the stopped analysis.
        result = engine.play(board, chess.engine.Limit(depth=2))
        check(result.move in board.legal_moves, f"after analysis: illegal {result.move}")


def ponder_exchange(path):
    with chess.engine.SimpleEngine.popen_uci(path, timeout=HANG_GUARD) as engine:
        engine.configure({"Ruleset": "dchess"})
        board = chess.Board(DCHESS_FEN)
        limit = chess.engine.Limit(white_clock=3, black_clock=3)
        first = engine.play(board, limit, ponder=True)
        check(first.move in board.legal_moves, f"ponder: illegal {first.move}")
        if check(first.ponder is not None, "bestmove without a ponder move"):
            board.push(first.move)
            check(first.ponder in board.legal_moves, f"ponder: illegal ponder move {first.ponder}")
            # The engine now ponders on the expected reply; the opponent plays it.
            time.sleep(0.3)
            board.push(first.ponder)
            second = engine.play(board, limit, ponder=True)
            check(second.move in board.legal_moves, f"after pondering: illegal {second.move} in {board.fen()}")
            # A ponder miss: the opponent plays something else.
            board.push(second.move)
            other = next(m for m in board.legal_moves if m != second.ponder)
            time.sleep(0.2)
            board.push(other)
            third = engine.play(board, limit, ponder=False)
            check(third.move in board.legal_moves, f"after a ponder miss: illegal {third.move} in {board.fen()}")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "target/release/menagerie"
    print(f"python-chess {chess.__version__}, engine {path}", flush=True)
    for part in (dchess_game, chess9_game, analysis, ponder_exchange):
        try:
            part(path)
        except Exception as e:  # a crash, a timeout or a protocol error is a failure
            check(False, f"{part.__name__}: {type(e).__name__}: {e}")
    if failures:
        print(f"{len(failures)} failure(s)", flush=True)
        sys.exit(1)
    print("all python-chess checks passed", flush=True)


if __name__ == "__main__":
    main()
