#!/usr/bin/env python3
"""Score training positions (scripts/texel-data.rs) with Fairy-Stockfish, a far stronger judge
than the engine's own short searches, for scripts/texel-tune.rs.

Reads `variant;fen;score;result` lines and writes them back with the search score replaced by
Fairy-Stockfish's (White's point of view, centipawns) for the variants it plays with orthodox
pieces (`dchess`, `chess9` in Chess960 mode, `displacement` with its castling rights dropped:
free castling is not Fairy-Stockfish's, and the evaluation hardly depends on it); the other
lines are dropped. Positions are shared out over several Fairy-Stockfish processes.

    scripts/texel-label.py IN OUT [DEPTH=5] [PROCESSES=2] [EVERY=1]

EVERY keeps one line in that many. Needs /usr/games/fairy-stockfish (scripts/install-references.sh).
"""
import multiprocessing
import subprocess
import sys

ENGINE = "/usr/games/fairy-stockfish"
VARIANTS = {"dchess", "chess9", "displacement"}


def label(job):
    lines, depth = job
    engine = subprocess.Popen([ENGINE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(command):
        engine.stdin.write(command + "\n")

    def wait_for(prefix):
        while True:
            line = engine.stdout.readline()
            if not line:
                raise RuntimeError("Fairy-Stockfish ended")
            if line.startswith(prefix):
                return line

    send("uci")
    wait_for("uciok")
    send("setoption name UCI_Chess960 value true")
    send("isready")
    wait_for("readyok")
    out = []
    for line in lines:
        variant, fen, _score, result = line.split(";")
        fields = fen.split()
        if variant == "displacement":
            fields[2] = "-"
        send("position fen " + " ".join(fields))
        send(f"go depth {depth}")
        score = None
        while True:
            reply = engine.stdout.readline()
            if not reply:
                raise RuntimeError("Fairy-Stockfish ended")
            words = reply.split()
            if "score" in words:
                i = words.index("score")
                if words[i + 1] == "cp":
                    score = int(words[i + 2])
                elif words[i + 1] == "mate":
                    score = 3000 if int(words[i + 2]) > 0 else -3000
            if reply.startswith("bestmove"):
                break
        if score is None:
            continue
        if fields[1] == "b":
            score = -score
        out.append(f"{variant};{fen};{score};{result}")
    send("quit")
    engine.wait()
    return out


def main():
    source, target = sys.argv[1], sys.argv[2]
    depth = int(sys.argv[3]) if len(sys.argv) > 3 else 5
    processes = int(sys.argv[4]) if len(sys.argv) > 4 else 2
    every = int(sys.argv[5]) if len(sys.argv) > 5 else 1
    with open(source) as f:
        lines = [l.strip() for i, l in enumerate(f) if i % every == 0 and l.split(";")[0] in VARIANTS]
    chunk = 2000
    jobs = [(lines[i : i + chunk], depth) for i in range(0, len(lines), chunk)]
    done = 0
    with multiprocessing.Pool(processes) as pool, open(target, "w") as out:
        # In order, so that the blocks of the tuner's hold-out split stay whole games.
        for labelled in pool.imap(label, jobs):
            out.write("".join(l + "\n" for l in labelled))
            done += len(labelled)
            print(f"{done} of {len(lines)} positions", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
