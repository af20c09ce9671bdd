#!/usr/bin/env python3
"""Protocol latency: how fast the engine answers the commands whose timing the test suite used to
assert (it no longer does: see docs/latency.md). A benchmark, not a test: it measures and prints,
and fails only when the engine dies, hangs or answers wrongly.

Usage: python3 scripts/protocol-latency.py [--engine PATH] [--runs N] [--threads T]
           [--movetime MS] [--only NAME,...]

Defaults: target/release/menagerie, 20 runs per measurement, 2 threads, movetime 200 ms.

Measurements (one engine process each; the positions are cycled through: the kiwipete chess
middle game, the chess opening after 1. e4 e5, and the Random Variant Chess start):

- isready-idle       `isready` -> `readyok` with no search running.
- isready-searching  `isready` -> `readyok` during `go infinite` (sent once depth 6 is reported).
- stop               `stop` -> `bestmove` after `go infinite` has run a random 50-500 ms.
- movetime           `go movetime MS` -> `bestmove`, printed as the overshoot (time - MS; the
                     engine keeps its Move Overhead, 30 ms by default, in reserve, so a negative
                     figure is a search that stopped early).
- clock              `go wtime 1000 btime 1000` -> `bestmove` (the hard limit is at most a third of
                     the clock less the move overhead).
- ponderhit          `ponderhit` -> `bestmove` after `go ponder wtime 3000 btime 3000` reached depth 8.
- xboard-move-now    XBoard `?` -> `move` during `st 10000` (sent once ply 8 is posted).
- xboard-st          XBoard `st 1` + `go` -> `move`, printed as the overshoot (time - 1000 ms).

Times are taken with time.monotonic() just before a command is written and when a reader thread
reads the answer's line, so they include the pipe round trip. One line per measurement: runs,
median, maximum, and the bound the tests used to assert, for comparison. Other jobs on the
machine show up in the maxima. For stop latency over many positions of every variant see
scripts/stop-latency.py.

Exit status: 0 when every measurement ran, 2 when the engine died, hung (no answer within 60 s)
or answered wrongly.
"""

import argparse
import os
import random
import statistics
import sys
import time

HANG_S = 60.0

POSITIONS = [
    ("chess", "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
    ("chess", "position startpos moves e2e4 e7e5"),
    ("rvc", "position startpos"),
]


from engine_process import Engine, EngineFailure, uci_error, xboard_error


def bestmove(line):
    return line.startswith("bestmove")


def uci_engine(args, label):
    e = Engine(args.engine, label)
    e.send("uci")
    e.expect(lambda l: l == "uciok", HANG_S, "uciok")
    e.send(f"setoption name Threads value {args.threads}")
    e.send("isready")
    e.expect(lambda l: l == "readyok", HANG_S, "readyok", bad=uci_error)
    return e


def set_position(e, run):
    variant, position = POSITIONS[run % len(POSITIONS)]
    e.send(f"setoption name UCI_Variant value {variant}")
    e.send("ucinewgame")
    e.send(position)
    e.send("isready")
    e.expect(lambda l: l == "readyok", HANG_S, "readyok after the position", bad=uci_error)


def depth_at_least(d):
    def reached(line):
        w = line.split()
        return len(w) > 2 and w[:2] == ["info", "depth"] and w[2].isdigit() and int(w[2]) >= d

    return reached


# ---- measurements: each returns one time in ms per run -----------------------------------------


def isready_idle(e, args, run, rng):
    set_position(e, run)
    sent = e.send("isready")
    got, _ = e.expect(lambda l: l == "readyok", HANG_S, "readyok")
    return (got - sent) * 1000


def isready_searching(e, args, run, rng):
    set_position(e, run)
    e.send("go infinite")
    e.expect(depth_at_least(6), HANG_S, "info depth 6", bad=bestmove)
    sent = e.send("isready")
    got, _ = e.expect(lambda l: l == "readyok", HANG_S, "readyok during the search", bad=bestmove)
    e.send("stop")
    e.expect(bestmove, HANG_S, "bestmove after stop")
    return (got - sent) * 1000


def stop(e, args, run, rng):
    set_position(e, run)
    e.send("go infinite")
    time.sleep(rng.uniform(0.05, 0.5))
    sent = e.send("stop")
    got, line = e.expect(bestmove, HANG_S, "bestmove after stop")
    if got < sent:
        raise EngineFailure(f"stop: '{line}' before stop")
    return (got - sent) * 1000


def movetime(e, args, run, rng):
    set_position(e, run)
    sent = e.send(f"go movetime {args.movetime}")
    got, _ = e.expect(bestmove, HANG_S, "bestmove after go movetime")
    return (got - sent) * 1000 - args.movetime


def clock(e, args, run, rng):
    set_position(e, run)
    sent = e.send("go wtime 1000 btime 1000")
    got, _ = e.expect(bestmove, HANG_S, "bestmove after go wtime")
    return (got - sent) * 1000


def ponderhit(e, args, run, rng):
    set_position(e, run)
    e.send("go ponder wtime 3000 btime 3000")
    e.expect(depth_at_least(8), HANG_S, "info depth 8 while pondering", bad=bestmove)
    sent = e.send("ponderhit")
    got, _ = e.expect(bestmove, HANG_S, "bestmove after ponderhit")
    return (got - sent) * 1000


def xboard_engine(args, label):
    e = Engine(args.engine, label)
    e.send("xboard")
    e.send("protover 2")
    e.expect(lambda l: l == "feature done=1", HANG_S, "feature done=1")
    e.send(f"cores {args.threads}")
    e.send("option Random start=0")
    e.send("post")
    return e


def xboard_ready(e, run, extra):
    for command in ["new", "force", "variant normal", *extra, f"ping {run}"]:
        e.send(command)
    e.expect(lambda l: l == f"pong {run}", HANG_S, f"pong {run}", bad=xboard_error)


def xboard_move_now(e, args, run, rng):
    xboard_ready(e, run, ["st 10000"])
    e.send("go")

    def ply8(line):
        w = line.split()
        return bool(w) and w[0].isdigit() and int(w[0]) >= 8

    e.expect(ply8, HANG_S, "ply 8 posted", bad=lambda l: l.startswith("move ") or xboard_error(l))
    sent = e.send("?")
    got, _ = e.expect(lambda l: l.startswith("move "), HANG_S, "move after ?", bad=xboard_error)
    return (got - sent) * 1000


def xboard_st(e, args, run, rng):
    xboard_ready(e, run, ["st 1"])
    sent = e.send("go")
    got, _ = e.expect(lambda l: l.startswith("move "), HANG_S, "move under st 1", bad=xboard_error)
    return (got - sent) * 1000 - 1000


# name, what is printed, engine kind, function, the bound the tests used to assert
MEASUREMENTS = [
    ("isready-idle", "isready -> readyok (idle)", uci_engine, isready_idle, "-"),
    ("isready-searching", "isready -> readyok (searching)", uci_engine, isready_searching, "< 300 ms (transcript)"),
    ("stop", "stop -> bestmove", uci_engine, stop, "< 100 ms (search.rs)"),
    ("movetime", "go movetime MS: time - MS", uci_engine, movetime, "-"),
    ("clock", "go wtime 1000 -> bestmove", uci_engine, clock, "< 900 ms (search.rs)"),
    ("ponderhit", "ponderhit -> bestmove (3 s clock)", uci_engine, ponderhit, "< 2500 ms (uci.rs)"),
    ("xboard-move-now", "xboard ? -> move", xboard_engine, xboard_move_now, "< 2000 ms (xboard.rs)"),
    ("xboard-st", "xboard st 1: time - 1000", xboard_engine, xboard_st, "< 300 ms (xboard.rs)"),
]


def main():
    parser = argparse.ArgumentParser(description="Latency of the engine's protocol answers.")
    parser.add_argument("--engine", default="target/release/menagerie")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--movetime", type=int, default=200)
    parser.add_argument("--only", default="", help="comma-separated measurement names")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    if not os.access(args.engine, os.X_OK):
        print(f"error: {args.engine} is not an executable (build it, or pass --engine PATH)", file=sys.stderr)
        sys.exit(2)
    only = {n.strip() for n in args.only.split(",") if n.strip()}
    unknown = only - {m[0] for m in MEASUREMENTS}
    if unknown:
        print(f"error: unknown measurement(s) {', '.join(sorted(unknown))}", file=sys.stderr)
        sys.exit(2)
    rng = random.Random(args.seed)
    print(f"engine {args.engine}, {args.runs} runs per measurement, {args.threads} threads, "
          f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}", flush=True)
    print(f"{'measurement':36} {'runs':>5} {'median ms':>10} {'max ms':>9}   former test bound", flush=True)
    failures = 0
    for name, label, start, measure, bound in MEASUREMENTS:
        if only and name not in only:
            continue
        label = label.replace("MS", str(args.movetime))
        times = []
        e = None
        try:
            e = start(args, name)
            for run in range(args.runs):
                times.append(measure(e, args, run, rng))
        except EngineFailure as err:
            failures += 1
            print(f"FAILED after {len(times)} runs: {err}", flush=True)
        finally:
            if e is not None:
                e.close()
        if times:
            print(f"{label:36} {len(times):5d} {statistics.median(times):10.2f} {max(times):9.2f}   {bound}",
                  flush=True)
    sys.exit(2 if failures else 0)


if __name__ == "__main__":
    main()
