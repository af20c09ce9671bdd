#!/usr/bin/env python3
"""The pre-game's choices judged by an independent engine (issue 54).

For random D-Chess arrays, every option of the first mover's transposition (for each colour
moving first) is scored by the judge (Stockfish 15.1 from Debian by default, at a fixed depth,
one thread), and so is the coin-toss winner's side choice (taking White is worth minus Black's
best transposition as first mover, and the other way round). The Chess-9 relocations are judged
from the orthodox arrays: Black's three options, each against White's best answer, and White's
three answers to each of Black's choices (the nine arrays, White to move, Chess960 castling).

Menagerie then makes the same decisions at each budget asked for (`pregame ...` protocol
lines), and the report gives, per decision kind: the mean regret (the judge's value of its best
option minus that of Menagerie's choice, in centipawns from the chooser's side), how often
Menagerie chose the judge's best, and the same for a random option, for never swapping, and
for a coin.

The judge's scores are cached in a JSON file (keyed by FEN and depth), so a second run with
other budgets costs only Menagerie's searches, and an interrupted run loses nothing.

    scripts/pregame-judge.py --arrays 15 --seed 1 --depth 14 \\
        --budget "nodes 500000" --budget "clock 2000 20"

Budgets are the `pregame` command's: `depth D`, `nodes N`, `movetime MS` or `clock BASE INC`.
Nodes make the measurement independent of the machine's load.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from engine_process import Engine, EngineFailure, uci_error  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
MATE = 10000


def startpos(menagerie, *args):
    out = subprocess.run([menagerie, "startpos", *args], capture_output=True, text=True, check=True)
    return out.stdout.strip().splitlines()[-1]


def with_side(fen, side):
    f = fen.split()
    f[1] = side
    return " ".join(f)


def swapped(fen, token):
    """`fen` with the two back-rank squares of a swap token such as `b8g8` exchanged."""
    if token == "none":
        return fen
    f = fen.split()
    ranks = f[0].split("/")
    rank_index = 8 - int(token[1])
    row = []
    for ch in ranks[rank_index]:
        row.extend(["."] * int(ch) if ch.isdigit() else [ch])
    a, b = ord(token[0]) - ord("a"), ord(token[2]) - ord("a")
    row[a], row[b] = row[b], row[a]
    text, empty = "", 0
    for ch in row:
        if ch == ".":
            empty += 1
            continue
        if empty:
            text += str(empty)
            empty = 0
        text += ch
    if empty:
        text += str(empty)
    ranks[rank_index] = text
    f[0] = "/".join(ranks)
    return " ".join(f)


def shredder_castling(fen):
    """KQkq -> HAha for the judge's Chess960 mode (Chess-9's rooks stay on a and h)."""
    f = fen.split()
    f[2] = "".join({"K": "H", "Q": "A", "k": "h", "q": "a"}.get(c, c) for c in f[2])
    return " ".join(f)


class Judge:
    """A UCI engine scoring positions at a fixed depth, with a cache on disk."""

    def __init__(self, path, depth, cache_path):
        self.path, self.depth, self.cache_path = path, depth, cache_path
        self.cache = {}
        if os.path.exists(cache_path):
            with open(cache_path) as f:
                self.cache = json.load(f)
        self.engine = None

    def _start(self):
        self.engine = Engine(self.path, "judge")
        self.engine.send("uci")
        self.engine.expect(lambda l: l == "uciok", 30, "uciok")
        for option in ("Threads value 1", "Hash value 64", "UCI_Chess960 value true"):
            self.engine.send(f"setoption name {option}")

    def score(self, fen):
        """Centipawns for the side to move; a mate counts as +-10000."""
        key = f"{fen}|{self.depth}"
        if key in self.cache:
            return self.cache[key]
        if self.engine is None:
            self._start()
        self.engine.send("ucinewgame")
        self.engine.send("isready")
        self.engine.expect(lambda l: l == "readyok", 30, "readyok")
        self.engine.send(f"position fen {fen}")
        self.engine.send(f"go depth {self.depth}")
        score = None
        while True:
            _, line = self.engine.expect(lambda l: l.startswith(("info", "bestmove")), 600, "bestmove")
            if line.startswith("bestmove"):
                break
            w = line.split()
            if "score" in w and "upperbound" not in w and "lowerbound" not in w:
                kind, value = w[w.index("score") + 1], int(w[w.index("score") + 2])
                score = value if kind == "cp" else (MATE if value > 0 else -MATE)
        if score is None:
            raise EngineFailure(f"judge gave no score for {fen}")
        self.cache[key] = score
        tmp = self.cache_path + ".tmp"
        with open(tmp, "w") as f:
            json.dump(self.cache, f, indent=0, sort_keys=True)
        os.replace(tmp, self.cache_path)
        return score

    def close(self):
        if self.engine is not None:
            self.engine.close()


class Menagerie:
    """Menagerie answering `pregame` lines over UCI."""

    def __init__(self, path, options):
        self.engine = Engine(path, "menagerie")
        self.engine.send("uci")
        self.engine.expect(lambda l: l == "uciok", 30, "uciok")
        for option in options:
            self.engine.send(f"setoption name {option}")

    def ask(self, line):
        """The options with their scores, and the choice."""
        self.engine.send(line)
        options = {}
        while True:
            _, answer = self.engine.expect(lambda l: l.startswith("pregame"), 3600, "pregame answer", bad=uci_error)
            w = answer.split()
            if w[1] == "option":
                options[w[2]] = int(w[3])
            else:
                return options, w[2]

    def close(self):
        self.engine.close()


def regret_stats(regrets, agreements):
    return {
        "decisions": len(regrets),
        "mean_regret": round(statistics.mean(regrets), 1) if regrets else None,
        "agreement": f"{sum(agreements)}/{len(agreements)}",
    }


def dchess(args, judge, menagerie_path):
    """Judge values of every D-Chess option, then Menagerie's choices at each budget."""
    rng = random.Random(args.seed)
    arrays = [
        startpos(menagerie_path, "--variant", "dchess", "--random", "--seed", str(rng.randrange(1 << 31)))
        for _ in range(args.arrays)
    ]
    lister = Menagerie(menagerie_path, [])
    tables = []
    for i, array in enumerate(arrays):
        table = {"array": array, "transpose": {}}
        for side in ("w", "b"):
            fen = with_side(array, side)
            options, _ = lister.ask(f"pregame dchess transpose {fen} depth 1")
            table["transpose"][side] = {o: judge.score(swapped(fen, o)) for o in options}
        tables.append(table)
        print(f"judged array {i + 1}/{len(arrays)}: {array}", file=sys.stderr)
    lister.close()

    baseline = {"random": ([], []), "never swap": ([], []), "coin": ([], [])}
    for t in tables:
        for side in ("w", "b"):
            values = t["transpose"][side]
            best = max(values.values())
            baseline["never swap"][0].append(best - values["none"])
            baseline["never swap"][1].append(values["none"] == best)
            baseline["random"][0].append(best - statistics.mean(values.values()))
            baseline["random"][1].append(sum(v == best for v in values.values()) / len(values))
        side_values = {"white": -max(t["transpose"]["b"].values()), "black": -max(t["transpose"]["w"].values())}
        best = max(side_values.values())
        baseline["coin"][0].append(best - statistics.mean(side_values.values()))
        baseline["coin"][1].append(0.5 if side_values["white"] != side_values["black"] else 1)
    report = {"baselines": {}}
    for name, (regrets, agree) in baseline.items():
        report["baselines"][name] = {
            "mean_regret": round(statistics.mean(regrets), 1),
            "agreement": f"{sum(agree):.1f}/{len(agree)}",
        }

    # The judge's own engine at a lower depth: how far a strong engine's quick choices are from
    # its deep ones, i.e. how much of the regret any quick search is bound to keep.
    for depth in args.reference_depth:
        quick = Judge(judge.path, depth, judge.cache_path)
        trans_regret, trans_agree, side_regret, side_agree = [], [], [], []
        for t in tables:
            quick_best = {}
            for side in ("w", "b"):
                values = t["transpose"][side]
                fen = with_side(t["array"], side)
                quick_values = {o: quick.score(swapped(fen, o)) for o in values}
                choice = max(quick_values, key=quick_values.get)
                quick_best[side] = quick_values[choice]
                trans_regret.append(max(values.values()) - values[choice])
                trans_agree.append(values[choice] == max(values.values()))
            side_values = {"white": -max(t["transpose"]["b"].values()), "black": -max(t["transpose"]["w"].values())}
            choice = "white" if -quick_best["b"] >= -quick_best["w"] else "black"
            side_regret.append(max(side_values.values()) - side_values[choice])
            side_agree.append(side_values[choice] == max(side_values.values()))
        quick.close()
        judge.cache.update(quick.cache)
        report[f"judge at depth {depth}"] = {
            "transposition": regret_stats(trans_regret, trans_agree),
            "side": regret_stats(side_regret, side_agree),
        }
        print(f"dchess judge depth {depth}: {json.dumps(report[f'judge at depth {depth}'])}", file=sys.stderr)

    for budget in args.budget:
        m = Menagerie(menagerie_path, args.option)
        trans_regret, trans_agree, side_regret, side_agree = [], [], [], []
        for t in tables:
            for side in ("w", "b"):
                values = t["transpose"][side]
                _, choice = m.ask(f"pregame dchess transpose {with_side(t['array'], side)} {budget}")
                trans_regret.append(max(values.values()) - values[choice])
                trans_agree.append(values[choice] == max(values.values()))
            _, choice = m.ask(f"pregame dchess choose-side {t['array']} {budget}")
            side_values = {"white": -max(t["transpose"]["b"].values()), "black": -max(t["transpose"]["w"].values())}
            side_regret.append(max(side_values.values()) - side_values[choice])
            side_agree.append(side_values[choice] == max(side_values.values()))
        m.close()
        report[budget] = {
            "transposition": regret_stats(trans_regret, trans_agree),
            "side": regret_stats(side_regret, side_agree),
        }
        print(f"dchess {budget}: {json.dumps(report[budget])}", file=sys.stderr)
    return report


def chess9(args, judge, menagerie_path):
    """The nine Chess-9 arrays judged with White to move; Black's and White's relocations."""
    names = ["none", "king", "queen"]
    start = startpos(menagerie_path, "--variant", "chess9", "--index", "0")
    leaf = {}
    for w_code, white in enumerate(names):
        for b_code, black in enumerate(names):
            fen = startpos(menagerie_path, "--variant", "chess9", "--index", str(3 * w_code + b_code))
            leaf[(black, white)] = judge.score(shredder_castling(fen))
    print("judged the nine Chess-9 arrays", file=sys.stderr)
    black_values = {b: -max(leaf[(b, w)] for w in names) for b in names}
    report = {
        "black_values": black_values,
        "white_values": {b: {w: leaf[(b, w)] for w in names} for b in names},
    }
    for budget in args.budget:
        m = Menagerie(menagerie_path, args.option)
        _, black = m.ask(f"pregame chess9 relocate {start} black {budget}")
        whites = {}
        for b in names:
            after = startpos(menagerie_path, "--variant", "chess9", "--relocate", f"black:{b}")
            _, whites[b] = m.ask(f"pregame chess9 relocate {after} white {budget}")
        m.close()
        white_regret = [max(leaf[(b, w)] for w in names) - leaf[(b, whites[b])] for b in names]
        report[budget] = {
            "black_choice": black,
            "black_regret": max(black_values.values()) - black_values[black],
            "white_choices": whites,
            "white_regrets": white_regret,
        }
        print(f"chess9 {budget}: {json.dumps(report[budget])}", file=sys.stderr)
    return report


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--menagerie", default=os.path.join(ROOT, "target/release/menagerie"))
    ap.add_argument("--judge", default="/usr/games/stockfish")
    ap.add_argument("--arrays", type=int, default=15)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--depth", type=int, default=14, help="the judge's depth for D-Chess")
    ap.add_argument("--chess9-depth", type=int, default=20)
    ap.add_argument("--budget", action="append", default=[], help="a pregame budget, repeatable")
    ap.add_argument(
        "--reference-depth", action="append", type=int, default=[], help="also judge the judge's choices at this depth"
    )
    ap.add_argument("--option", action="append", default=["Threads value 1", "Hash value 64"])
    ap.add_argument("--cache", default="pregame-judge-cache.json")
    ap.add_argument("--variants", default="dchess,chess9")
    ap.add_argument("--out", help="write the report as JSON here")
    args = ap.parse_args()
    report = {"judge": args.judge, "depth": args.depth, "arrays": args.arrays, "seed": args.seed}
    try:
        if "dchess" in args.variants:
            judge = Judge(args.judge, args.depth, args.cache)
            report["dchess"] = dchess(args, judge, args.menagerie)
            judge.close()
        if "chess9" in args.variants:
            judge = Judge(args.judge, args.chess9_depth, args.cache)
            report["chess9"] = chess9(args, judge, args.menagerie)
            judge.close()
    except EngineFailure as e:
        sys.exit(f"pregame-judge: {e}")
    text = json.dumps(report, indent=2)
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text + "\n")


if __name__ == "__main__":
    main()
