#!/usr/bin/env python3
"""Perft oracles for Menagerie's 8x8 variants (dchess, chess9, displacement, vdchess).

Runs independent reference move generators on one position, or checks every entry of a
perft suite file, so that a Menagerie perft mismatch can be bisected move by move.

  scripts/oracle-perft.py [--engines E,E,..] [--divide] [--set N] VARIANT FEN DEPTH
  scripts/oracle-perft.py --suite perft-suites/dchess.perft [--engines ..] [--max-nodes N]

Engines (the references are installed by scripts/install-references.sh):
  menagerie       target/release/menagerie (or $MENAGERIE) `perft --divide`, with --chess960 for
                  chess9/vdchess so that castlings print as king takes own rook like the oracles
  sjaakii         Sjaak II (Debian `sjaakii`), oracle-configs/sjaakii-variants.txt
  fairy-stockfish Fairy-Stockfish binary (Debian `fairy-stockfish`, 11.1 LB), UCI `go perft`,
                  oracle-configs/fairy-stockfish-variants.ini
  pyffish         pyffish (PyPI, embeds Fairy-Stockfish 230826 LB): perft written here on top of
                  pyffish.legal_moves/get_fen (slow: depth <= 3 or so)
  stockfish       Stockfish (Debian `stockfish`), orthodox pieces only (dchess, chess9)
  python-chess    python-chess (PyPI) perft written here (dchess, chess9; for displacement with
                  a small free-castling driver written here, see below)

Displacement: Fairy-Stockfish has one king destination per castling side, so `fairy-stockfish`
and `pyffish` take the union of the castlings of displacement-a/-b/-c (king-takes-rook notation,
UCI_Chess960), dropping the ones whose king would not move; every other move comes from
displacement-b.  `python-chess` uses python-chess for every ordinary move and adds the five free
castlings per side itself (rules.md section 2).  Sjaak II shares one safety mask per castling
side, so it undercounts positions where only a farther king square is attacked.

Divide output is `move: count` in UCI (1-step / Chess-9 rook-only castlings as king takes own
rook, e.g. e1h1, c1a1; drops as C@d4).  Sjaak II's own notation is converted where possible.

Environment: FSF_BIN, SJAAK_BIN, STOCKFISH_BIN, ORACLE_CONFIGS (folder holding the two oracle
configs; default: ../shared/oracle-configs next to the work tree, then /work/shared/oracle-configs).
"""
import argparse
import os
import re
import subprocess
import sys
import time

from oracle_engines import Sjaak, Uci, Unavailable, which

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def find_configs():
    cands = [os.environ.get("ORACLE_CONFIGS"),
             os.path.join(ROOT, "..", "shared", "oracle-configs"),
             "/work/shared/oracle-configs"]
    for c in cands:
        if c and os.path.isfile(os.path.join(c, "fairy-stockfish-variants.ini")):
            return os.path.abspath(c)
    sys.exit("oracle-configs not found: set ORACLE_CONFIGS")


CONFIGS = None


def cfg(name):
    global CONFIGS
    if CONFIGS is None:
        CONFIGS = find_configs()
    return os.path.join(CONFIGS, name)


# --------------------------------------------------------------------------- FEN helpers

def split_fen(fen):
    """placement, hand (None if no brackets), rest"""
    parts = fen.split()
    pl = parts[0]
    hand = None
    m = re.match(r"^(.*?)\[(.*)\]$", pl)
    if m:
        pl, hand = m.group(1), m.group(2)
    return pl, hand, parts[1:]


def vd_variant(fen, set_no=None):
    """Fairy-Stockfish/Sjaak II variant for a vdchess position: the set is identified by the
    compound types present (board or hand); the promotion compound is the absent one."""
    if set_no:
        return "vdchess%d" % set_no
    pl, hand, _ = split_fen(fen)
    present = set(c.upper() for c in pl + (hand or "") if c.upper() in "QAC")
    absent = set("QAC") - present
    if len(absent) != 1:
        raise SystemExit("vdchess: cannot tell the set from %r (compounds present: %s); use --set"
                         % (fen, "".join(sorted(present))))
    # sets with the same promotion compound have identical rules for a given position
    return {"A": "vdchess1", "C": "vdchess2", "Q": "vdchess4"}[absent.pop()]


def disp_board(fen):
    """1 or 2 for a displacement position (from where a king with rights stands)."""
    pl, _, rest = split_fen(fen)
    rows = pl.split("/")

    def king_file(row, k):
        f = 0
        for c in row:
            if c.isdigit():
                f += int(c)
            else:
                if c == k:
                    return f
                f += 1
        return None
    cast = rest[1] if len(rest) > 1 else "-"
    wk, bk = king_file(rows[7], "K"), king_file(rows[0], "k")
    if any(c.isupper() for c in cast):
        if wk == 4:
            return 1
        if wk == 3:
            return 2
    if any(c.islower() for c in cast):
        if bk == 3:
            return 1
        if bk == 4:
            return 2
    return 1


# --------------------------------------------------------------------------- UCI engines

_procs = {}


def fsf_proc(variant, chess960):
    key = ("fsf", variant, chess960)
    if key not in _procs:
        path = which("FSF_BIN", "fairy-stockfish")
        if not path:
            raise Unavailable("fairy-stockfish not installed")
        _procs[key] = Uci(path, [("VariantPath", cfg("fairy-stockfish-variants.ini")),
                                 ("UCI_Chess960", "true" if chess960 else "false"),
                                 ("UCI_Variant", variant)])
    return _procs[key]


def sf_proc(chess960):
    key = ("sf", chess960)
    if key not in _procs:
        path = which("STOCKFISH_BIN", "stockfish")
        if not path:
            raise Unavailable("stockfish not installed")
        _procs[key] = Uci(path, [("UCI_Chess960", "true" if chess960 else "false")])
    return _procs[key]


class NotExpressible(Exception):
    pass


# --------------------------------------------------------------------------- Sjaak II

def sjaak_castles_to_uci(fen, div):
    """Chess960-style names for Sjaak II's O-O / O-O-O (king takes the outermost rook)."""
    pl, _, rest = split_fen(fen)
    rows = pl.split("/")
    stm = rest[0]
    rank = "1" if stm == "w" else "8"
    row = []
    for c in rows[7] if stm == "w" else rows[0]:
        row += ["."] * int(c) if c.isdigit() else [c]
    K, R = ("K", "R") if stm == "w" else ("k", "r")
    if K not in row:
        return div
    kf = row.index(K)
    rooks = [f for f, c in enumerate(row) if c == R]
    out = {}
    for k, n in div.items():
        tgt = None
        if k == "O-O" and any(f > kf for f in rooks):
            tgt = max(rooks)
        elif k == "O-O-O" and any(f < kf for f in rooks):
            tgt = min(rooks)
        out["abcdefgh"[kf] + rank + "abcdefgh"[tgt] + rank if tgt is not None else k] = n
    return out


def sjaak():
    if "sjaak" not in _procs:
        path = which("SJAAK_BIN", "sjaakii")
        if not path:
            raise Unavailable("sjaakii not installed")
        _procs["sjaak"] = Sjaak(path, cfg("sjaakii-variants.txt"))
    return _procs["sjaak"]


# --------------------------------------------------------------------------- pyffish

_pyffish = None


def pyffish():
    global _pyffish
    if _pyffish is None:
        try:
            import pyffish as sf
        except ImportError:
            raise Unavailable("pyffish not installed (pip install pyffish)")
        sf.load_variant_config(open(cfg("fairy-stockfish-variants.ini")).read())
        _pyffish = sf
    return _pyffish


def pyffish_perft(variant, fen, depth, chess960, divide):
    sf = pyffish()

    def rec(moves, d):
        lm = sf.legal_moves(variant, fen, moves, chess960)
        if d == 1:
            return len(lm)
        return sum(rec(moves + [m], d - 1) for m in lm)
    div = {}
    for m in sf.legal_moves(variant, fen, [], chess960):
        div[m] = 1 if depth == 1 else rec([m], depth - 1)
    return sum(div.values()), div


# --------------------------------------------------------------------------- displacement union

DISP_CFGS = {"displacement-a": ("e", "b"), "displacement-b": ("f", "c"), "displacement-c": ("g", "d")}


def disp_union_moves(legal, fen):
    """legal(variant, fen) -> UCI moves (chess960 notation). Returns {uci: (variant, move)} where
    uci is Menagerie's notation (2/3-step as king destination, 1-step as king takes rook)."""
    pl, _, rest = split_fen(fen)
    rows = pl.split("/")
    stm = rest[0]
    back = rows[7] if stm == "w" else rows[0]
    rank = "1" if stm == "w" else "8"
    board = []
    for c in back:
        board += ["."] * int(c) if c.isdigit() else [c]
    K, R = ("K", "R") if stm == "w" else ("k", "r")
    out = {}
    for v, (kf, qf) in DISP_CFGS.items():
        for m in legal(v, fen):
            fr, to = m[:2], m[2:4]
            is_castle = (fr[1] == rank and to[1] == rank and board["abcdefgh".index(fr[0])] == K
                         and board["abcdefgh".index(to[0])] == R)
            if not is_castle:
                if v == "displacement-b":
                    out[m] = (v, m)
                continue
            kfile = "abcdefgh".index(fr[0])
            rfile = "abcdefgh".index(to[0])
            dest = "abcdefgh".index(kf if rfile > kfile else qf)
            if dest == kfile or (dest > kfile) != (rfile > kfile):
                continue          # king would not move, or would move away from the rook
            name = m if abs(dest - kfile) == 1 else fr + "abcdefgh"[dest] + rank
            out[name] = (v, m)
    return out


def disp_fsf_perft(fen, depth, divide, use_pyffish):
    if use_pyffish:
        sf = pyffish()
        legal = lambda v, f: sf.legal_moves(v, f, [], True)
        make = lambda v, f, m: sf.get_fen(v, f, [m], True)
    else:
        def legal(v, f):
            return list(fsf_proc(v, True).perft(f, 1)[1].keys())

        def make(v, f, m):
            return fsf_proc(v, True).state(f, [m])[0]

    def rec(f, d):
        if not use_pyffish and f.split()[2] == "-":
            return fsf_proc("displacement-b", True).perft(f, d)[0]   # no castling left: exact
        mv = disp_union_moves(legal, f)
        if d == 1:
            return len(mv)
        return sum(rec(make(v, f, m), d - 1) for v, m in mv.values())
    div = {}
    for name, (v, m) in disp_union_moves(legal, fen).items():
        div[name] = 1 if depth == 1 else rec(make(v, fen, m), depth - 1)
    return sum(div.values()), div


# --------------------------------------------------------------------------- python-chess

def pychess():
    try:
        import chess
    except ImportError:
        raise Unavailable("python-chess not installed (pip install chess)")
    return chess


def pc_uci(chess, b, m):
    if b.is_castling(m):      # Chess960 notation: king takes own rook
        return chess.square_name(m.from_square) + chess.square_name(m.to_square)
    return m.uci()


def pychess_perft(fen, depth, chess960, divide):
    chess = pychess()
    b = chess.Board(fen, chess960=chess960)

    def rec(d):
        if d == 1:
            return b.legal_moves.count()
        n = 0
        for m in list(b.legal_moves):
            b.push(m)
            n += rec(d - 1)
            b.pop()
        return n
    div = {}
    for m in list(b.legal_moves):
        key = pc_uci(chess, b, m) if chess960 else m.uci()
        b.push(m)
        div[key] = 1 if depth == 1 else rec(depth - 1)
        b.pop()
    return sum(div.values()), div


def free_castlings(chess, b):
    """Displacement free castlings for the side to move: list of (uci, kfrom, kto, rfrom, rto)."""
    us = b.turn
    rank = 0 if us == chess.WHITE else 7
    ksq = b.king(us)
    if ksq is None or chess.square_rank(ksq) != rank or b.is_check():
        return []
    out = []
    for rsq in chess.SquareSet(b.castling_rights & chess.BB_RANKS[rank]):
        if b.piece_at(rsq) != chess.Piece(chess.ROOK, us):
            continue
        kf, rf = chess.square_file(ksq), chess.square_file(rsq)
        step = 1 if rf > kf else -1
        between = [chess.square(f, rank) for f in range(kf + step, rf, step)]
        if any(b.piece_at(s) for s in between):
            continue
        for n in range(1, min(3, len(between)) + 1):   # 1-3 steps, never onto the rook square
            path = [chess.square(kf + step * i, rank) for i in range(1, n + 1)]
            if any(b.is_attacked_by(not us, s) for s in path):
                break        # farther destinations cross this square too
            kto = path[-1]
            rto = chess.square(chess.square_file(kto) - step, rank)
            uci = (chess.square_name(ksq) + chess.square_name(rsq)) if n == 1 else \
                (chess.square_name(ksq) + chess.square_name(kto))
            out.append((uci, ksq, kto, rsq, rto))
    return out


def disp_pychess_perft(fen, depth, divide):
    chess = pychess()
    b = chess.Board(fen, chess960=True)

    def moves():
        res = []
        for m in b.legal_moves:
            if not b.is_castling(m):
                res.append(("n", m))
        for c in free_castlings(chess, b):
            res.append(("c", c))
        return res

    def make(kind, m):
        if kind == "n":
            b.push(m)
            return
        _, kfrom, kto, rfrom, rto = m
        us = b.turn
        b.push(chess.Move.null())
        # low-level setters: the public ones clear the move stack (and so break pop())
        b._remove_piece_at(kfrom)
        b._remove_piece_at(rfrom)
        b._set_piece_at(kto, chess.KING, us)
        b._set_piece_at(rto, chess.ROOK, us)
        b.castling_rights &= ~chess.BB_RANKS[0 if us == chess.WHITE else 7]
        assert not b.is_attacked_by(not us, kto), "castled into check"

    def rec(d):
        mv = moves()
        if d == 1:
            return len(mv)
        n = 0
        for kind, m in mv:
            make(kind, m)
            n += rec(d - 1)
            b.pop()
        return n
    div = {}
    for kind, m in moves():
        key = m.uci() if kind == "n" else m[0]
        make(kind, m)
        div[key] = 1 if depth == 1 else rec(depth - 1)
        b.pop()
    return sum(div.values()), div


# --------------------------------------------------------------------------- Menagerie itself

def menagerie_perft(variant, fen, depth):
    path = os.environ.get("MENAGERIE") or os.path.join(ROOT, "target", "release", "menagerie")
    if not os.path.exists(path):
        raise Unavailable("%s not built (cargo build --release)" % path)
    cmd = [path, "perft", "--variant", variant, "--fen", fen, "--depth", str(depth), "--divide"]
    if variant in ("chess9", "vdchess"):
        cmd.append("--chess960")      # castling as king takes own rook, like the oracles
    out = subprocess.run(cmd, capture_output=True, text=True)
    div, total = {}, None
    for l in out.stdout.splitlines():
        m = re.match(r"^(\S+): (\d+)$", l.strip())
        if m:
            div[m.group(1)] = int(m.group(2))
        elif l.startswith("Nodes searched"):
            total = int(l.split(":")[1])
    if total is None:
        raise RuntimeError("menagerie: %s" % (out.stderr.strip() or out.stdout.strip()))
    return total, div


# --------------------------------------------------------------------------- dispatch

ENGINES = ["menagerie", "sjaakii", "fairy-stockfish", "pyffish", "stockfish", "python-chess"]


def run(engine, variant, fen, depth, divide=False, set_no=None):
    """-> (total, divide dict); raises NotExpressible / Unavailable."""
    if engine == "menagerie":
        return menagerie_perft(variant, fen, depth)
    if variant == "dchess" or variant == "chess9":
        c960 = variant == "chess9"
        if engine == "sjaakii":
            total, div = sjaak().perft(variant, fen, depth, divide)
            return total, sjaak_castles_to_uci(fen, div)
        if engine == "fairy-stockfish":
            return fsf_proc(variant, c960).perft(fen, depth)
        if engine == "pyffish":
            return pyffish_perft(variant, fen, depth, c960, divide)
        if engine == "stockfish":
            return sf_proc(c960).perft(fen, depth)
        if engine == "python-chess":
            return pychess_perft(fen, depth, c960, divide)
    elif variant == "displacement":
        if engine == "sjaakii":
            return sjaak().perft("displacement%d" % disp_board(fen), fen, depth, divide)
        if engine == "fairy-stockfish":
            return disp_fsf_perft(fen, depth, divide, use_pyffish=False)
        if engine == "pyffish":
            return disp_fsf_perft(fen, depth, divide, use_pyffish=True)
        if engine == "python-chess":
            return disp_pychess_perft(fen, depth, divide)
    elif variant == "vdchess":
        v = vd_variant(fen, set_no)
        if engine == "sjaakii":
            total, div = sjaak().perft(v, fen, depth, divide)
            return total, sjaak_castles_to_uci(fen, div)
        if engine == "fairy-stockfish":
            return fsf_proc(v, True).perft(fen, depth)
        if engine == "pyffish":
            return pyffish_perft(v, fen, depth, True, divide)
    else:
        raise SystemExit("unknown variant " + variant)
    raise NotExpressible("%s cannot play %s" % (engine, variant))


def parse_suite(path):
    entries, cur = [], None
    for line in open(path):
        line = line.rstrip("\n")
        if line.startswith("id "):
            cur = {"id": line[3:].strip(), "perft": []}
            entries.append(cur)
        elif cur is None or line.startswith("#") or not line.strip():
            continue
        elif line.startswith("variant "):
            cur["variant"] = line.split()[1]
        elif line.startswith("epd "):
            cur["epd"] = line[4:].strip()
        elif line.startswith("perft "):
            _, d, n = line.split()
            cur["perft"].append((int(d), int(n)))
    return entries


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("variant", nargs="?")
    ap.add_argument("fen", nargs="?")
    ap.add_argument("depth", nargs="?", type=int)
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--set", type=int, help="vdchess set 1..6 (else read from the position)")
    ap.add_argument("--suite", help="check every entry of a .perft file")
    ap.add_argument("--max-nodes", type=int, default=3_000_000,
                    help="--suite: skip counts above this")
    ap.add_argument("--slow-max", type=int, default=200_000,
                    help="--suite: cap for pyffish and the displacement union over fairy-stockfish")
    ap.add_argument("--python-chess-max", type=int, default=1_000_000, help="--suite: cap for python-chess")
    a = ap.parse_args()
    engines = a.engines.split(",")
    if a.suite:
        bad = 0
        for e in parse_suite(a.suite):
            for d, n in e["perft"]:
                for eng in engines:
                    cap = a.max_nodes
                    if eng == "pyffish" or (eng == "fairy-stockfish" and e["variant"] == "displacement"):
                        cap = min(cap, a.slow_max)      # perft driven from Python, move by move
                    elif eng == "python-chess":
                        cap = min(cap, a.python_chess_max)
                    if n > cap:
                        continue
                    try:
                        got, _ = run(eng, e["variant"], e["epd"], d, set_no=a.set)
                    except (NotExpressible, Unavailable):
                        continue
                    flag = "ok" if got == n else "MISMATCH"
                    bad += got != n
                    print("%-18s d%d %10d %-16s %10d %s" % (e["id"], d, n, eng, got, flag), flush=True)
        print("%d mismatches" % bad)
        return 1 if bad else 0
    if not (a.variant and a.fen and a.depth):
        ap.error("VARIANT FEN DEPTH or --suite FILE required")
    results = {}
    for eng in engines:
        t = time.time()
        try:
            total, div = run(eng, a.variant, a.fen, a.depth, a.divide, a.set)
        except NotExpressible:
            continue
        except Unavailable as ex:
            print("# %s: skipped (%s)" % (eng, ex))
            continue
        results[eng] = (total, div)
        print("%-16s perft %d = %d   (%.2fs)" % (eng, a.depth, total, time.time() - t))
    if a.divide and results:
        keys = sorted(set(k for _, d in results.values() for k in d))
        names = list(results)
        print("%-10s " % "move" + " ".join("%14s" % n[:14] for n in names))
        for k in keys:
            vals = [results[n][1].get(k) for n in names]
            mark = "" if len(set(vals)) == 1 else "   <-- differs"
            print("%-10s " % k + " ".join("%14s" % ("-" if v is None else v) for v in vals) + mark)
    totals = set(t for t, _ in results.values())
    print("AGREE" if len(totals) == 1 else "DISAGREE")
    return 0 if len(totals) == 1 else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        for p in _procs.values():
            if isinstance(p, Uci):
                p.close()
            elif isinstance(p, Sjaak):
                try:
                    p.send("quit")
                    p.p.wait(timeout=5)
                except Exception:
                    p.p.kill()
