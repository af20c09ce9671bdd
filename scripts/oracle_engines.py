"""The reference engines the perft scripts drive (scripts/oracle-perft.py for 8x8,
scripts/capablanca-perft.py for 10x8 and larger): finding a binary, a UCI engine's `go perft`
and `d`, Sjaak II's console `perft`, and Sjaak II's move names turned into UCI.

Owns only the talking to the processes; which variants, configuration files and positions
each oracle gets is the calling script's business.
"""
import os
import re
import shutil
import subprocess


class Unavailable(Exception):
    """The oracle is not installed here (the message says what to install)."""


def which(env, *names):
    """The binary named by the environment variable `env`, else the first of `names` found
    (an absolute path, on PATH, or in /usr/games where Debian puts its engines); None if none."""
    p = os.environ.get(env)
    if p:
        return p if os.path.exists(p) or shutil.which(p) else None
    for n in names:
        if os.path.isabs(n):
            if os.path.exists(n):
                return n
            continue
        w = shutil.which(n) or (os.path.exists("/usr/games/" + n) and "/usr/games/" + n)
        if w:
            return w
    return None


def moves_suffix(moves):
    return (" moves " + " ".join(moves)) if moves else ""


# A divide line's move: from-to squares with an optional promotion, or a drop (C@d4).
DIVIDE_LINE = re.compile(r"^([a-l]\d+[a-l]\d+[a-z]?|\S+@\S+): (\d+)$")


class Process:
    """A line-oriented child process with stdin and stdout as text."""

    def __init__(self, path, stderr):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=stderr, text=True, bufsize=1)

    def send(self, s):
        self.p.stdin.write(s + "\n")
        self.p.stdin.flush()

    def close(self):
        try:
            self.send("quit")
            self.p.wait(timeout=5)
        except Exception:
            self.p.kill()


class Uci(Process):
    """A UCI engine with Stockfish's `go perft` and `d` (Stockfish, Fairy-Stockfish)."""

    def __init__(self, path, options=()):
        super().__init__(path, subprocess.DEVNULL)
        self.send("uci")
        lines = self.wait("uciok")
        self.name = next((l[8:].strip() for l in lines if l.startswith("id name")), path)
        for k, v in options:
            self.send("setoption name %s value %s" % (k, v))
        self.send("isready")
        self.wait("readyok")

    def wait(self, token):
        """The lines up to and including the first that starts with `token`."""
        lines = []
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("engine died")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith(token):
                return lines

    def perft(self, fen, depth, moves=()):
        """-> (total, {move: count})"""
        self.send("position fen %s%s" % (fen, moves_suffix(moves)))
        self.send("go perft %d" % depth)
        lines = self.wait("Nodes searched")
        div = {}
        for l in lines:
            m = DIVIDE_LINE.match(l)
            if m:
                div[m.group(1)] = int(m.group(2))
        return int(lines[-1].split(":")[1]), div

    def state(self, fen, moves=()):
        """-> (fen, in_check) after the moves"""
        self.send("position fen %s%s" % (fen, moves_suffix(moves)))
        self.send("d")
        out, chk = None, None
        for l in self.wait("Checkers"):
            if l.startswith("Fen: "):
                out = l[5:].strip()
            if l.startswith("Checkers"):
                chk = bool(l.split(":", 1)[1].strip())
        if out is None:
            raise RuntimeError("no Fen line")
        return out, chk


class Sjaak(Process):
    """Sjaak II's console with the variants of `config` loaded."""

    def __init__(self, path, config):
        super().__init__(path, subprocess.STDOUT)
        self.variant = None
        self.send("board off")
        self.send("prompt off")
        self.send("load " + config)

    def perft(self, variant, fen, depth, divide=False):
        """-> (total, {move: count}); moves in UCI where sjaak_move can name them, else as
        Sjaak II prints them (castlings: O-O, O-O-O, then O-O#2 ... for the flexible ones)."""
        if variant != self.variant:
            self.send("variant " + variant)
            self.send("new")
            self.variant = variant
        self.send("setboard " + fen)
        self.send("perft %d%s" % (depth, " 1" if divide else ""))
        div = {}
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise RuntimeError("sjaakii died")
            m = re.match(r"^\s*(\d+)\s+(\d+)\s+\S+\s+\S+nps", line)
            if m:
                if int(m.group(1)) == depth:
                    return int(m.group(2)), div
                div = {}
                continue
            m = re.match(r"^\s*(\S+)\s+(\d+)\s+(\d+)\s*$", line)
            if m:
                k = sjaak_move(m.group(1))
                i = 2
                while k in div:   # flexible castlings all print as O-O / O-O-O
                    k = "%s#%d" % (k.split("#")[0], i)
                    i += 1
                div[k] = int(m.group(2))
            elif re.search(r"(?i)illegal|error|unknown|bad fen", line):
                raise RuntimeError("sjaakii: " + line.strip())


def sjaak_move(s):
    """Sjaak II's `Nb1-c3`, `e7xd8=Q` as UCI (`b1c3`, `e7d8q`); drops and castlings as printed."""
    m = re.match(r"^[A-Z]?([a-l]\d+)[-x]([a-l]\d+)(?:=?([A-Z]))?$", s)
    if m:
        return m.group(1) + m.group(2) + (m.group(3) or "").lower()
    return s
