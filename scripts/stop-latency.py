#!/usr/bin/env python3
"""Stop latency: how long the engine takes to answer `stop` (UCI) or `?` (XBoard) with its move.

Usage: python3 scripts/stop-latency.py [--engine PATH] [--searches N]
           [--variants dchess,chess9,displacement,vdchess,rvc] [--protocol uci|xboard|both]
           [--threads T] [--hash MB] [--seed S] [--target-ms MS]

Defaults: target/release/menagerie, 100 searches per variant, all five variants, both protocols,
2 threads, 256 MB hash, seed 1, target 50 ms.

For each variant a list of positions is made first (a random start array from
`menagerie startpos --variant V --random --seed S`, then 0-8 random legal plies played through a
helper UCI session's `go perft 1`, keeping only positions with at least two legal moves); both
protocols search the same list.

- UCI: `uci`, Threads, Hash, UCI_Variant, `ucinewgame`, `isready`; per search `position fen F`,
  `isready`, `go infinite`, a random wait of 50-500 ms, `stop`; measured until `bestmove`.
- XBoard: `xboard`, `protover 2` (until `feature done=1`), `memory`, `cores`; per search `new`,
  `force`, `variant V`, `setboard F`, `st 60`, `ping N` (until `pong N`), `go`, the same random
  wait, `?`; measured until `move ...`. A search that ends by itself before `?` (a forced mate
  reaches the maximum depth at once under `st`) is not counted; the next position (a few spares
  are made) takes its place.

Times are taken with time.monotonic() just before the command is written and when a reader
thread reads the answer's line, so they include the pipe round trip. One line per variant and
protocol: searches, median and maximum in ms (and, when the maximum misses the target, every
time over it and the slowest search's position); then whether every maximum is under the
target. Other jobs on the machine show up in the maxima: measure on an otherwise idle machine.

Exit status: 0 when every maximum is under the target, 1 when one is not, 2 when the engine died,
hung (no answer within 5 s of `stop`/`?`, 30 s for set-up commands) or answered wrongly; the other
runs still go on and the message says which search failed.
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

ALL_VARIANTS = ["dchess", "chess9", "displacement", "vdchess", "rvc"]
ANSWER_TIMEOUT = 5.0
SETUP_TIMEOUT = 30.0
MAX_RANDOM_PLIES = 8


from engine_process import Engine, EngineFailure, uci_error, xboard_error


# ---- positions ---------------------------------------------------------------------------------


def start_fen(engine_path, variant, seed):
    out = subprocess.run(
        [engine_path, "startpos", "--variant", variant, "--random", "--seed", str(seed)],
        capture_output=True,
        text=True,
        timeout=30,
    )
    if out.returncode != 0 or not out.stdout.strip():
        raise EngineFailure(f"startpos --variant {variant} --seed {seed} failed: {out.stderr.strip()}")
    return out.stdout.strip().splitlines()[0]


def legal_moves(helper, fen, moves):
    position = f"position fen {fen}" + (" moves " + " ".join(moves) if moves else "")
    helper.send(position)
    helper.send("go perft 1")
    found = []
    while True:
        _, line = helper.expect(lambda l: True, SETUP_TIMEOUT, "perft output", bad=None)
        if uci_error(line):
            raise EngineFailure(f"positions: '{line}' after '{position}'")
        if line.startswith("Nodes searched"):
            return found
        if ": " in line and not line.startswith("info"):
            found.append(line.split(":")[0])


def make_positions(engine_path, variant, count, rng):
    """`count` FENs: random start arrays plus 0-8 random legal plies, each with 2+ legal moves."""
    helper = Engine(engine_path, f"positions/{variant}")
    try:
        helper.send("uci")
        helper.expect(lambda l: l == "uciok", SETUP_TIMEOUT, "uciok")
        helper.send(f"setoption name UCI_Variant value {variant}")
        helper.send("isready")
        helper.expect(lambda l: l == "readyok", SETUP_TIMEOUT, "readyok", bad=uci_error)
        fens = []
        while len(fens) < count:
            fen = start_fen(engine_path, variant, rng.randrange(1 << 30))
            moves = []
            for _ in range(rng.randint(0, MAX_RANDOM_PLIES)):
                legal = legal_moves(helper, fen, moves)
                if not legal:
                    break
                moves.append(rng.choice(legal))
            if len(legal_moves(helper, fen, moves)) < 2:
                continue
            helper.send(f"position fen {fen}" + (" moves " + " ".join(moves) if moves else ""))
            helper.send("d")
            _, line = helper.expect(lambda l: l.startswith("Fen: "), SETUP_TIMEOUT, "the Fen line of d")
            fens.append(line[len("Fen: "):].strip())
            helper.expect(lambda l: l.startswith("Checkers:"), SETUP_TIMEOUT, "the Checkers line of d")
        return fens
    finally:
        helper.close()


# ---- the two protocols -------------------------------------------------------------------------


def run_uci(args, variant, fens, rng, latencies, skipped):
    e = Engine(args.engine, f"uci/{variant}")
    try:
        e.send("uci")
        e.expect(lambda l: l == "uciok", SETUP_TIMEOUT, "uciok")
        e.send(f"setoption name Threads value {args.threads}")
        e.send(f"setoption name Hash value {args.hash}")
        e.send(f"setoption name UCI_Variant value {variant}")
        e.send("ucinewgame")
        e.send("isready")
        e.expect(lambda l: l == "readyok", SETUP_TIMEOUT, "readyok after the options", bad=uci_error)
        for i, fen in enumerate(fens[: args.searches], 1):
            e.send(f"position fen {fen}")
            e.send("isready")
            e.expect(lambda l: l == "readyok", SETUP_TIMEOUT, f"readyok (search {i}, {fen})", bad=uci_error)
            e.send("go infinite")
            time.sleep(rng.uniform(0.05, 0.5))
            early = [l for l in e.pending() if l.startswith("bestmove")]
            if early:
                raise EngineFailure(f"uci/{variant}: '{early[0]}' before stop (search {i}, {fen})")
            sent = e.send("stop")
            got, line = e.expect(
                lambda l: l.startswith("bestmove"), ANSWER_TIMEOUT, f"bestmove after stop (search {i}, {fen})"
            )
            if got < sent:
                raise EngineFailure(f"uci/{variant}: '{line}' before stop (search {i}, {fen})")
            latencies.append(((got - sent) * 1000.0, i, fen))
    finally:
        e.close("quit")


def run_xboard(args, variant, fens, rng, latencies, skipped):
    e = Engine(args.engine, f"xboard/{variant}")
    try:
        e.send("xboard")
        e.send("protover 2")
        e.expect(lambda l: l.startswith("feature") and "done=1" in l, SETUP_TIMEOUT, "feature done=1")
        e.send(f"memory {args.hash}")
        e.send(f"cores {args.threads}")
        e.send("ping 0")
        e.expect(lambda l: l == "pong 0", SETUP_TIMEOUT, "pong 0 after memory and cores", bad=xboard_error)
        for i, fen in enumerate(fens, 1):
            for command in ("new", "force", f"variant {variant}", f"setboard {fen}", "st 60", f"ping {i}"):
                e.send(command)
            e.expect(lambda l: l == f"pong {i}", SETUP_TIMEOUT, f"pong {i} ({fen})", bad=xboard_error)
            e.send("go")
            time.sleep(rng.uniform(0.05, 0.5))
            early = [l for l in e.pending() if l.startswith("move ") or xboard_error(l)]
            if early and xboard_error(early[0]):
                raise EngineFailure(f"xboard/{variant}: '{early[0]}' before ? (search {i}, {fen})")
            if early:
                # A search under `st` may end by itself (a forced mate): not a stop, not counted.
                skipped.append((i, fen, early[0]))
                continue
            sent = e.send("?")
            got, line = e.expect(
                lambda l: l.startswith("move "), ANSWER_TIMEOUT, f"move after ? (search {i}, {fen})", bad=xboard_error
            )
            if got < sent:
                skipped.append((i, fen, line))
                continue
            latencies.append(((got - sent) * 1000.0, i, fen))
            if len(latencies) == args.searches:
                return
        raise EngineFailure(f"xboard/{variant}: out of positions ({len(skipped)} searches ended before ?)")
    finally:
        e.close("quit")


# ---- main --------------------------------------------------------------------------------------


def main():
    parser = argparse.ArgumentParser(description="Time from stop (UCI) / ? (XBoard) to the engine's move.")
    parser.add_argument("--engine", default="target/release/menagerie")
    parser.add_argument("--searches", type=int, default=100)
    parser.add_argument("--variants", default=",".join(ALL_VARIANTS))
    parser.add_argument("--protocol", choices=["uci", "xboard", "both"], default="both")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--hash", type=int, default=256)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--target-ms", type=float, default=50.0)
    args = parser.parse_args()

    if not os.access(args.engine, os.X_OK):
        print(f"error: {args.engine} is not an executable (build it, or pass --engine PATH)", file=sys.stderr)
        sys.exit(2)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    protocols = ["uci", "xboard"] if args.protocol == "both" else [args.protocol]
    rng = random.Random(args.seed)

    print(f"engine {args.engine}, {args.threads} threads, {args.hash} MB hash, {args.searches} searches "
          f"per variant and protocol, wait 50-500 ms, seed {args.seed}", flush=True)
    print(f"{'protocol':8} {'variant':13} {'searches':>8} {'median ms':>10} {'max ms':>8}", flush=True)
    failures = []
    maxima = []
    for variant in variants:
        try:
            # Spares for the XBoard searches that end by themselves (a mate found under `st`).
            fens = make_positions(args.engine, variant, args.searches + max(5, args.searches // 5), rng)
        except EngineFailure as e:
            failures.append(str(e))
            print(f"FAILED: {e}", flush=True)
            continue
        for protocol in protocols:
            latencies = []
            skipped = []
            try:
                (run_uci if protocol == "uci" else run_xboard)(args, variant, fens, rng, latencies, skipped)
            except EngineFailure as e:
                failures.append(str(e))
                print(f"FAILED after {len(latencies)} searches: {e}", flush=True)
            if latencies:
                times = [ms for ms, _, _ in latencies]
                worst, index, fen = max(latencies)
                maxima.append(worst)
                print(f"{protocol:8} {variant:13} {len(times):8d} {statistics.median(times):10.1f} "
                      f"{worst:8.1f}", flush=True)
                if skipped:
                    print(f"  {len(skipped)} other search(es) ended by themselves before ? and were not counted "
                          f"(first: search {skipped[0][0]}, {skipped[0][2]})", flush=True)
                if worst >= args.target_ms:
                    slow = sorted(ms for ms in times if ms >= args.target_ms)
                    print(f"  {len(slow)} over {args.target_ms:g} ms ({', '.join(f'{ms:.0f}' for ms in slow)}); "
                          f"slowest: search {index}, {fen}", flush=True)

    under = bool(maxima) and not failures and all(m < args.target_ms for m in maxima)
    print(f"every maximum under {args.target_ms:g} ms: {'yes' if under else 'no'}"
          + (f" ({len(failures)} run(s) failed)" if failures else ""), flush=True)
    if failures:
        sys.exit(2)
    sys.exit(0 if under else 1)


if __name__ == "__main__":
    main()
