#!/usr/bin/env python3
"""Strength matches for D-Chess and Chess-9, refereed by python-chess.

Menagerie (UCI) plays an opponent (UCI or XBoard) from start positions drawn with
`menagerie startpos`: each start is played twice, colours reversed. The referee keeps the clocks
(wall time per move, increment added after the move), forfeits a side that overruns its clock,
plays an illegal move or dies, and writes every finished game to a PGN file as it ends.

D-Chess is orthodox chess from a custom array (either side may move first, no castling); Chess-9
positions are Chess960 positions. Opponents: fairymax (D-Chess only: it has no Chess960, and for
Chess-9 it is offered only the starts whose castling is orthodox), sjaakii, fairy-stockfish, or any
command with --opponent-cmd/--opponent-proto.

Example (200 games, 10 s + 0.1 s, two games at a time):
    scripts/strength-python.py --opponent sjaakii --variant dchess --games 200 --tc 10+0.1 \
        --concurrency 2 --pgn /tmp/dchess-sjaakii.pgn
"""

import argparse
import concurrent.futures
import math
import os
import random
import subprocess
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_MENAGERIE = os.path.join(HERE, "..", "target", "release", "menagerie")

OPPONENTS = {
    # Fairy-Max takes positions only in edit mode: a filter gives it `setboard`.
    "fairymax": ([os.path.join(HERE, "fairymax-setboard.py")], "xboard"),
    "sjaakii": (["/usr/games/sjaakii"], "xboard"),
    "fairy-stockfish": (["/usr/games/fairy-stockfish"], "uci"),
    "stockfish": (["/usr/games/stockfish"], "uci"),
}

# Chess-9 per-side codes (rules.md 5(c)): 0 orthodox, 1 king swap (king on c1), 2 queen swap.
# Index = 3 * white_code + black_code. Starts without a king on c1 castle as in orthodox chess.
CHESS9_ORTHODOX_CASTLING = [i for i in range(9) if i // 3 != 1 and i % 3 != 1]


def start_fen(menagerie, variant, seed, orthodox_castling_only):
    if variant == "chess9":
        pool = CHESS9_ORTHODOX_CASTLING if orthodox_castling_only else list(range(9))
        index = random.Random(seed).choice(pool)
        args = ["--index", str(index)]
    else:
        args = ["--random", "--seed", str(seed)]
    out = subprocess.run([menagerie, "startpos", "--variant", variant] + args,
                         capture_output=True, text=True, check=True)
    return out.stdout.strip()


def open_engine(cmd, proto):
    if proto == "uci":
        return chess.engine.SimpleEngine.popen_uci(cmd, stderr=subprocess.DEVNULL)
    return chess.engine.SimpleEngine.popen_xboard(cmd, stderr=subprocess.DEVNULL)


class Player:
    """One engine process; restarted after a crash."""

    def __init__(self, name, cmd, proto, options):
        self.name, self.cmd, self.proto, self.options = name, cmd, proto, options
        self.engine = None

    def ensure(self):
        if self.engine is None:
            self.engine = open_engine(self.cmd, self.proto)
            if self.options:
                self.engine.configure(self.options)
        return self.engine

    def close(self):
        if self.engine is not None:
            try:
                self.engine.quit()
            except Exception:
                pass
            self.engine = None


def play_game(white, black, fen, chess960, base, inc, max_plies):
    """Play one game; returns (result, termination, board, comments)."""
    board = chess.Board(fen, chess960=chess960)
    clocks = {chess.WHITE: base, chess.BLACK: base}
    players = {chess.WHITE: white, chess.BLACK: black}
    for p in players.values():
        p.ensure()
    comments = []
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return outcome.result(), outcome.termination.name.lower().replace("_", " "), board, comments
        if board.ply() >= max_plies:
            return "1/2-1/2", "adjudicated draw (move limit)", board, comments
        side = board.turn
        player = players[side]
        limit = chess.engine.Limit(white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK],
                                   white_inc=inc, black_inc=inc)
        loser = "0-1" if side == chess.WHITE else "1-0"
        started = time.monotonic()
        try:
            result = player.ensure().play(board, limit, game=id(board), info=chess.engine.INFO_SCORE | chess.engine.INFO_BASIC)
        except (chess.engine.EngineError, chess.engine.EngineTerminatedError) as e:
            player.close()
            return loser, f"{player.name} failed: {e}", board, comments
        spent = time.monotonic() - started
        clocks[side] -= spent
        if clocks[side] < 0:
            return loser, f"{player.name} lost on time", board, comments
        clocks[side] += inc
        move = result.move
        if move is None or move not in board.legal_moves:
            return loser, f"{player.name} played an illegal move {move}", board, comments
        score = result.info.get("score")
        depth = result.info.get("depth", 0)
        text = ""
        if score is not None:
            pov = score.pov(side)
            text = f"{pov.score(mate_score=100000) / 100:+.2f}/{depth} " if not pov.is_mate() else f"#{pov.mate()}/{depth} "
        comments.append(f"{text}{spent:.2f}s")
        board.push(move)


def elo_and_interval(wins, draws, losses):
    n = wins + draws + losses
    if n == 0:
        return 0.0, 0.0, 0.0
    score = (wins + 0.5 * draws) / n
    var = (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * (0 - score) ** 2) / n
    sd = math.sqrt(var / n)

    def elo(p):
        p = min(max(p, 1e-6), 1 - 1e-6)
        return -400 * math.log10(1 / p - 1)

    return elo(score), elo(score - 1.96 * sd), elo(score + 1.96 * sd)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--menagerie", default=DEFAULT_MENAGERIE)
    ap.add_argument("--menagerie-option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--opponent", default="sjaakii", help=", ".join(OPPONENTS))
    ap.add_argument("--opponent-cmd", help="command of another opponent")
    ap.add_argument("--opponent-proto", default="uci", choices=["uci", "xboard"])
    ap.add_argument("--opponent-option", action="append", default=[], help="NAME=VALUE")
    ap.add_argument("--variant", default="dchess", choices=["dchess", "chess9"])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--tc", default="10+0.1", help="base seconds + increment seconds")
    ap.add_argument("--concurrency", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--pgn", default="strength.pgn")
    args = ap.parse_args()

    if args.opponent_cmd:
        opp_cmd, opp_proto, opp_name = args.opponent_cmd.split(), args.opponent_proto, os.path.basename(args.opponent_cmd.split()[0])
    else:
        opp_cmd, opp_proto = OPPONENTS[args.opponent]
        opp_name = args.opponent
        if opp_name == "fairymax" and args.variant == "dchess":
            opp_cmd = opp_cmd + ["--variant", "nocastle"]
    base, inc = (float(x) for x in args.tc.split("+"))
    chess960 = args.variant == "chess9"
    orthodox_only = chess960 and opp_proto == "xboard" and opp_name == "fairymax"
    variant_option = {"Ruleset": args.variant}
    if chess960:
        variant_option["UCI_Chess960"] = True
    ours = dict(variant_option)
    ours.update(dict(o.split("=", 1) for o in args.menagerie_option))
    theirs = dict(o.split("=", 1) for o in args.opponent_option)
    if chess960 and orthodox_only:
        chess960 = False  # fairymax plays these starts as orthodox chess from a FEN

    lock = threading.Lock()
    totals = {"w": 0, "d": 0, "l": 0}
    local = threading.local()
    everyone = []
    pairs = args.games // 2

    def players():
        if not hasattr(local, "ours"):
            local.ours = Player("Menagerie", [args.menagerie], "uci", ours)
            local.theirs = Player(opp_name, opp_cmd, opp_proto, theirs)
            with lock:
                everyone.extend([local.ours, local.theirs])
        return local.ours, local.theirs

    def run_pair(pair):
        me, them = players()
        fen = start_fen(args.menagerie, args.variant, args.seed * 100003 + pair, orthodox_only)
        for game_in_pair in range(2):
            white, black = (me, them) if game_in_pair == 0 else (them, me)
            result, termination, board, comments = play_game(white, black, fen, chess960, base, inc, args.max_plies)
            game = chess.pgn.Game.from_board(board)
            game.headers.update({"Event": f"{args.variant} strength", "Site": "localhost",
                                 "Round": f"{pair + 1}.{game_in_pair + 1}", "White": white.name,
                                 "Black": black.name, "Result": result, "Termination": termination,
                                 "TimeControl": args.tc.replace("+", "+"), "Variant": "Chess960" if chess960 else "From Position"})
            node = game
            for c in comments:
                node = node.next()
                if node is None:
                    break
                node.comment = c
            with lock:
                if result == "1/2-1/2":
                    totals["d"] += 1
                elif (result == "1-0") == (white is me):
                    totals["w"] += 1
                else:
                    totals["l"] += 1
                with open(args.pgn, "a") as f:
                    print(game, file=f, end="\n\n")
                w, d, l = totals["w"], totals["d"], totals["l"]
                elo, lo, hi = elo_and_interval(w, d, l)
                print(f"games {w + d + l}: +{w} ={d} -{l}  Elo {elo:+.0f} [{lo:+.0f}, {hi:+.0f}]  ({termination})",
                      file=sys.stderr, flush=True)

    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.concurrency) as pool:
            for f in concurrent.futures.as_completed([pool.submit(run_pair, p) for p in range(pairs)]):
                f.result()
    finally:
        for p in everyone:
            p.close()
    w, d, l = totals["w"], totals["d"], totals["l"]
    n = w + d + l
    elo, lo, hi = elo_and_interval(w, d, l)
    print(f"Menagerie vs {opp_name}, {args.variant}, {n} games at {args.tc}: +{w} ={d} -{l}, "
          f"score {(w + 0.5 * d) / max(n, 1):.3f}, draws {d / max(n, 1):.2f}, Elo {elo:+.0f} (95% {lo:+.0f} .. {hi:+.0f})")


if __name__ == "__main__":
    main()
