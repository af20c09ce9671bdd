#!/usr/bin/env python3
"""Perft reference suites for the 10x8 and larger boards: capablanca, caparandom, and the two
test variants chess10x10 / chess12x10 (which exist in no engine; defined for the oracles in
scripts/oracle-configs-extra/).

  scripts/capablanca-perft.py generate [--only capablanca,caparandom,big-boards]
        draw the positions (seeded), run the oracles, write perft-suites/*.perft
  scripts/capablanca-perft.py check perft-suites/capablanca.perft [--engines E,E] [--max-nodes N]
        re-run the oracles on every count of a suite file
  scripts/capablanca-perft.py perft VARIANT FEN DEPTH [--engines E,E] [--divide]
        one position (divide compares the engines move by move)
  scripts/capablanca-perft.py arrays
        count the caparandom start arrays (scripts/capablanca-perft.py arrays --list prints them)

Oracles (python3 standard library plus the binaries; run one at a time):
  fsf-lb    /work/shared/bin/fairy-stockfish-lb ($FSF_LB_BIN), UCI `go perft`, built-in
            capablanca/caparandom, oracle-configs-extra/fairy-stockfish-extra.ini for the others
  fsf-11    Debian fairy-stockfish 11.1 LB ($FSF_BIN): same family as fsf-lb (not independent);
            oracle-configs-extra/fairy-stockfish-11-extra.ini (older option names) for the others
  sjaakii   Debian Sjaak II 1.4.1 ($SJAAK_BIN): console `perft N`, built-in capablanca/caparandom,
            oracle-configs-extra/sjaakii-extra.txt for the others
  pygen     the independent move generator in this file (mailbox, make-and-test; slow, so only
            used up to --pygen-max nodes per count)
  pyffish   pyffish (PyPI, optional), legal_moves recursion, depth <= 2
"""
import argparse
import os
import random
import re
import sys
import time

from oracle_engines import Sjaak, Uci, Unavailable, which

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
EXTRA = os.path.join(HERE, "oracle-configs-extra")
FSF_INI = os.path.join(EXTRA, "fairy-stockfish-extra.ini")
FSF11_INI = os.path.join(EXTRA, "fairy-stockfish-11-extra.ini")
SJAAK_TXT = os.path.join(EXTRA, "sjaakii-extra.txt")

LIMIT = 3_000_000

# --------------------------------------------------------------------------- variants

# name: (files, ranks, chess960, king dest files (queenside, kingside), rook dest files)
VARIANTS = {
    "capablanca": (10, 8, False, (2, 8), (3, 7)),
    "caparandom": (10, 8, True, (2, 8), (3, 7)),
    "chess10x10": (10, 10, False, (2, 8), (3, 7)),
    "chess12x10": (12, 10, False, (2, 10), (3, 9)),
}
STARTS = {
    "capablanca": "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    "chess10x10": "rnabqkbcnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1",
    "chess12x10": "rnbacqkcabnr/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/RNBACQKCABNR w KQkq - 0 1",
}
FILES = "abcdefghijkl"


def sqname(f, r):
    return FILES[f] + str(r + 1)


# --------------------------------------------------------------------------- independent generator

class Gen:
    """Mailbox move generator (border of 2), make-and-test legality.

    Position = (board list, white_to_move, castling set of rook squares, ep square or None).
    Castling rights are kept as the squares of the castling rooks (Chess960 style), which covers
    the fixed-array variants too (there the rooks start on the corner files).
    """

    def __init__(self, variant):
        self.variant = variant
        W, H, c960, kdest, rdest = VARIANTS[variant]
        self.W, self.H, self.c960, self.kdest, self.rdest = W, H, c960, kdest, rdest
        self.PW = PW = W + 4
        self.size = PW * (H + 4)
        self.KN = [2 * PW + 1, 2 * PW - 1, -2 * PW + 1, -2 * PW - 1, PW + 2, PW - 2, -PW + 2, -PW - 2]
        self.DIAG = [PW + 1, PW - 1, -PW + 1, -PW - 1]
        self.ORTH = [1, -1, PW, -PW]
        self.KING = self.DIAG + self.ORTH

    def sq(self, f, r):
        return (r + 2) * self.PW + f + 2

    def fr(self, s):
        return s % self.PW - 2, s // self.PW - 2

    def name(self, s):
        f, r = self.fr(s)
        return sqname(f, r)

    def parse(self, fen):
        parts = fen.split()
        b = ["#"] * self.size
        rows = parts[0].split("/")
        assert len(rows) == self.H, fen
        for i, row in enumerate(rows):
            r = self.H - 1 - i
            f = 0
            for m in re.finditer(r"\d+|[A-Za-z]", row):
                t = m.group(0)
                if t.isdigit():
                    for _ in range(int(t)):
                        b[self.sq(f, r)] = "."
                        f += 1
                else:
                    b[self.sq(f, r)] = t
                    f += 1
            assert f == self.W, fen
        white = parts[1] == "w"
        cast = set()
        for c in parts[2] if parts[2] != "-" else "":
            color_white = c.isupper()
            r = 0 if color_white else self.H - 1
            K, R = ("K", "R") if color_white else ("k", "r")
            kf = next((f for f in range(self.W) if b[self.sq(f, r)] == K), None)
            if kf is None:
                continue
            u = c.upper()
            if u == "K":
                rf = next((f for f in range(self.W - 1, kf, -1) if b[self.sq(f, r)] == R), None)
            elif u == "Q":
                rf = next((f for f in range(0, kf) if b[self.sq(f, r)] == R), None)
            else:
                rf = FILES.index(u.lower())
            if rf is not None and b[self.sq(rf, r)] == R:
                cast.add(self.sq(rf, r))
        ep = None
        if len(parts) > 3 and parts[3] != "-":
            m = re.match(r"([a-l])(\d+)", parts[3])
            ep = self.sq(FILES.index(m.group(1)), int(m.group(2)) - 1)
            behind = ep - self.PW if white else ep + self.PW      # the pawn that double-stepped
            if b[behind] != ("p" if white else "P"):
                ep = None
        return (b, white, frozenset(cast), ep)

    def attacked(self, b, s, by_white):
        if by_white:
            N, K, P, D, O = "NAC", "K", "P", "BQA", "RQC"
            if b[s - self.PW - 1] == P or b[s - self.PW + 1] == P:
                return True
        else:
            N, K, P, D, O = "nac", "k", "p", "bqa", "rqc"
            if b[s + self.PW - 1] == P or b[s + self.PW + 1] == P:
                return True
        for d in self.KN:
            if b[s + d] in N:
                return True
        for d in self.KING:
            if b[s + d] == K:
                return True
        for d in self.DIAG:
            t = s + d
            while b[t] == ".":
                t += d
            if b[t] in D:
                return True
        for d in self.ORTH:
            t = s + d
            while b[t] == ".":
                t += d
            if b[t] in O:
                return True
        return False

    def pseudo(self, pos):
        """Moves as (from, to, promo, kind): kind 0 normal, 1 double step, 2 ep, 3 castling
        (to = castling rook square)."""
        b, white, cast, ep = pos
        PW = self.PW
        out = []
        own = str.isupper if white else str.islower
        opp = str.islower if white else str.isupper
        fwd = PW if white else -PW
        last = self.H - 1 if white else 0
        start = 1 if white else self.H - 2
        promos = "QRBNAC" if white else "qrbnac"
        for s in range(self.size):
            p = b[s]
            if p in ".#" or not own(p):
                continue
            u = p.upper()
            if u == "P":
                f, r = self.fr(s)
                t = s + fwd
                if b[t] == ".":
                    if self.fr(t)[1] == last:
                        out += [(s, t, q, 0) for q in promos]
                    else:
                        out.append((s, t, None, 0))
                        if r == start and b[t + fwd] == ".":
                            out.append((s, t + fwd, None, 1))
                for t in (s + fwd - 1, s + fwd + 1):
                    q = b[t]
                    if q != "#" and q != "." and opp(q):
                        if self.fr(t)[1] == last:
                            out += [(s, t, x, 0) for x in promos]
                        else:
                            out.append((s, t, None, 0))
                    elif t == ep and q == ".":
                        out.append((s, t, None, 2))
                continue
            if u in "NAC":
                for d in self.KN:
                    q = b[s + d]
                    if q == "." or (q != "#" and opp(q)):
                        out.append((s, s + d, None, 0))
            if u == "K":
                for d in self.KING:
                    q = b[s + d]
                    if q == "." or (q != "#" and opp(q)):
                        out.append((s, s + d, None, 0))
            dirs = []
            if u in "BQA":
                dirs += self.DIAG
            if u in "RQC":
                dirs += self.ORTH
            for d in dirs:
                t = s + d
                while b[t] == ".":
                    out.append((s, t, None, 0))
                    t += d
                if b[t] != "#" and opp(b[t]):
                    out.append((s, t, None, 0))
        out += self.castlings(pos)
        return out

    def castlings(self, pos, safe=True):
        """Castlings whose squares are free; with safe, also king start/path/destination
        not attacked (the final legality is tested after the move like every move)."""
        b, white, cast, ep = pos
        K, R = ("K", "R") if white else ("k", "r")
        r = 0 if white else self.H - 1
        out = []
        for rsq in cast:
            if self.fr(rsq)[1] != r or b[rsq] != R:
                continue
            kf = next((f for f in range(self.W) if b[self.sq(f, r)] == K), None)
            if kf is None:
                continue
            rf = self.fr(rsq)[0]
            side = 1 if rf > kf else 0
            kto, rto = self.kdest[side], self.rdest[side]
            lo, hi = min(kf, rf, kto, rto), max(kf, rf, kto, rto)
            if any(b[self.sq(f, r)] != "." for f in range(lo, hi + 1) if f not in (kf, rf)):
                continue
            step = 1 if kto > kf else -1
            path = range(kf, kto + step, step) if kto != kf else [kf]
            if safe and any(self.attacked(b, self.sq(f, r), not white) for f in path):
                continue
            out.append((self.sq(kf, r), rsq, None, 3))
        return out

    def make(self, pos, m):
        b, white, cast, ep = pos
        s, t, promo, kind = m
        nb = b[:]
        nep = None
        ncast = set(cast)
        if kind == 3:
            r = self.fr(s)[1]
            side = 1 if t > s else 0
            kto, rto = self.sq(self.kdest[side], r), self.sq(self.rdest[side], r)
            k, rk = nb[s], nb[t]
            nb[s] = "."
            nb[t] = "."
            nb[kto] = k
            nb[rto] = rk
            ncast = {c for c in ncast if self.fr(c)[1] != r}
        else:
            p = nb[s]
            nb[s] = "."
            nb[t] = promo if promo else p
            if kind == 2:
                nb[t - (self.PW if white else -self.PW)] = "."
            elif kind == 1:
                nep = (s + t) // 2
            if p in "Kk":
                r = 0 if white else self.H - 1
                ncast = {c for c in ncast if self.fr(c)[1] != r}
            ncast.discard(s)
            ncast.discard(t)
        return (nb, not white, frozenset(ncast), nep)

    def king_attacked(self, pos, white):
        b = pos[0]
        k = "K" if white else "k"
        s = b.index(k)
        return self.attacked(b, s, not white)

    def legal(self, pos):
        res = []
        for m in self.pseudo(pos):
            n = self.make(pos, m)
            if not self.king_attacked(n, pos[1]):
                res.append((m, n))
        return res

    def perft(self, pos, d):
        if d == 1:
            return len(self.legal(pos))
        return sum(self.perft(n, d - 1) for _, n in self.legal(pos))

    def uci(self, pos, m):
        s, t, promo, kind = m
        if kind == 3 and not self.c960:
            side = 1 if t > s else 0
            f, r = self.fr(s)
            return self.name(s) + sqname(self.kdest[side], r)
        return self.name(s) + self.name(t) + (promo.lower() if promo else "")

    def divide(self, pos, d):
        div = {}
        for m, n in self.legal(pos):
            div[self.uci(pos, m)] = 1 if d == 1 else self.perft(n, d - 1)
        return sum(div.values()), div


# --------------------------------------------------------------------------- engines

_procs = {}


def fsf(kind, variant):
    key = (kind, variant)
    if key not in _procs:
        for k in [k for k in _procs if k[0] == kind]:      # one process per binary at a time
            _procs.pop(k).close()
        if kind == "fsf-lb":
            path = which("FSF_LB_BIN", "/work/shared/bin/fairy-stockfish-lb")
        else:
            path = which("FSF_BIN", "/usr/games/fairy-stockfish", "fairy-stockfish")
        if not path:
            raise Unavailable(kind)
        ini = FSF_INI if kind == "fsf-lb" else FSF11_INI
        _procs[key] = Uci(path, [("VariantPath", ini), ("UCI_Variant", variant)])
    return _procs[key]


def sjaak():
    if "sjaak" not in _procs:
        path = which("SJAAK_BIN", "/usr/games/sjaakii", "sjaakii")
        if not path:
            raise Unavailable("sjaakii")
        _procs["sjaak"] = Sjaak(path, SJAAK_TXT)
    return _procs["sjaak"]


_pyffish = None


def pyffish():
    global _pyffish
    if _pyffish is None:
        try:
            import pyffish as sf
        except ImportError:
            raise Unavailable("pyffish")
        sf.load_variant_config(open(FSF_INI).read())
        _pyffish = sf
    return _pyffish


def sjaak_fen(variant, fen):
    """Sjaak II takes Shredder-FEN castling for caparandom; KQkq elsewhere."""
    return fen


def run(engine, variant, fen, depth, divide=False):
    if engine in ("fsf-lb", "fsf-11"):
        return fsf(engine, variant).perft(fen, depth)
    if engine == "sjaakii":
        return sjaak().perft(variant, sjaak_fen(variant, fen), depth, divide)
    if engine == "pygen":
        g = Gen(variant)
        pos = g.parse(fen)
        if divide:
            return g.divide(pos, depth)
        return g.perft(pos, depth), {}
    if engine == "pyffish":
        sf = pyffish()
        c960 = VARIANTS[variant][2]

        def rec(moves, d):
            lm = sf.legal_moves(variant, fen, moves, c960)
            return len(lm) if d == 1 else sum(rec(moves + [m], d - 1) for m in lm)
        div = {m: (1 if depth == 1 else rec([m], depth - 1))
               for m in sf.legal_moves(variant, fen, [], c960)}
        return sum(div.values()), div
    raise SystemExit("unknown engine " + engine)


def close_all():
    for p in list(_procs.values()):
        p.close()
    _procs.clear()


def versions():
    out = {}
    for kind in ("fsf-lb", "fsf-11"):
        try:
            out[kind] = fsf(kind, "capablanca").name
        except Unavailable:
            pass
    return out


# --------------------------------------------------------------------------- caparandom arrays

def caparandom_arrays(pawn_rule=True):
    """All back-rank arrays of Capablanca Random Chess (Scharnagl's rules):
    bishops on opposite colours, queen and archbishop on opposite colours, king between the
    rooks, and every pawn of the start position defended by a piece of its own side."""
    import itertools
    res = []
    seen = set()
    for perm in itertools.permutations("RNABQKBCNR"):
        if perm in seen:
            continue
        seen.add(perm)
        res_ok = valid_array("".join(perm), pawn_rule)
        if res_ok:
            res.append("".join(perm))
    return sorted(res)


def pawn_defended(arr, f):
    """Is the pawn on file f (rank 2) defended by a back-rank piece (rank 1)?"""
    n = len(arr)
    for g in range(n):
        p = arr[g]
        d = abs(g - f)
        if d == 0 and p in "RQCK":           # orthogonal step up the file
            return True
        if d == 1 and p in "BQAK":           # diagonal step
            return True
        if d == 2 and p in "NAC":            # knight jump (2,1)
            return True
    return False


def valid_array(a, pawn_rule=True):
    light = [i for i, p in enumerate(a) if p == "B"]
    if len(light) != 2 or (light[0] + light[1]) % 2 == 0:
        return False
    if (a.index("Q") + a.index("A")) % 2 == 0:
        return False
    rooks = [i for i, p in enumerate(a) if p == "R"]
    if not (rooks[0] < a.index("K") < rooks[1]):
        return False
    return not pawn_rule or all(pawn_defended(a, f) for f in range(len(a)))


def array_fen(a):
    return "%s/%s/10/10/10/10/%s/%s w %s - 0 1" % (
        a.lower(), "p" * 10, "P" * 10, a, shredder_rights_of_array(a))


def shredder_rights_of_array(a):
    rooks = [i for i, p in enumerate(a) if p == "R"]
    return "".join(FILES[i].upper() for i in rooks) + "".join(FILES[i] for i in rooks)


def shredder(fen):
    """FSF prints caparandom castling as rook files (kingside first): normalise to sorted
    Shredder-FEN (white files ascending, then black)."""
    parts = fen.split()
    c = parts[2]
    if c != "-":
        parts[2] = "".join(sorted(x for x in c if x.isupper())) + \
            "".join(sorted(x for x in c if x.islower()))
    return " ".join(parts)


# --------------------------------------------------------------------------- features

def features(variant, fen, in_check=None):
    g = Gen(variant)
    return features_pos(g, g.parse(fen))


def features_pos(g, pos):
    legal = g.legal(pos)
    tags = []
    if g.king_attacked(pos, pos[1]):
        tags.append("check")
    if any(m[3] == 2 for m, _ in legal):
        tags.append("ep")
    if any(m[2] for m, _ in legal):
        tags.append("promo")
    cas = [m for m, _ in legal if m[3] == 3]
    if cas:
        tags.append("castle")
        for m in cas:
            s, t = m[0], m[1]
            side = 1 if t > s else 0
            kf, rf = g.fr(s)[0], g.fr(t)[0]
            if g.kdest[side] == kf:
                tags.append("kingstays")
            if g.kdest[side] == rf:
                tags.append("kingtorooksq")
            if g.rdest[side] == rf:
                tags.append("rookstays")
    unsafe = [m for m in g.castlings(pos, safe=False) if m not in cas]
    if unsafe:
        tags.append("castle_attacked")
    if pos[2]:
        tags.append("rights")
        if not cas:
            tags.append("rights_blocked")
    if not legal:
        tags.append("nomoves")
    return sorted(set(tags), key=tags.index), len(legal)


# --------------------------------------------------------------------------- playouts

def weight(style, g, pos, m):
    """Move weights of the seeded playouts (all moves stay possible)."""
    if style == "plain":
        return 1.0
    b, white = pos[0], pos[1]
    s, t, promo, kind = m
    p = b[s].upper()
    cap = b[t] not in ".#" or kind == 2
    back = g.fr(s)[1] == (0 if white else g.H - 1)
    if style == "develop":       # clear the back rank, keep king and rooks at home
        if kind == 3:
            return 0.3
        if p == "K":
            return 0.1
        if p == "R":
            return 0.2 if back else 1.0
        if p == "P":
            return 1.0 + (1.0 if cap else 0.0)
        return (4.0 if back else 1.0) + (2.0 if cap else 0.0)
    if style == "pawns":         # race pawns (and captures) towards promotion
        if promo:
            return 20.0
        if p == "P":
            adv = g.fr(t)[1] if white else g.H - 1 - g.fr(t)[1]
            return 2.0 + adv * adv * 0.5 + (3.0 if cap else 0.0)
        if p == "K":
            return 0.3
        return 1.0 + (3.0 if cap else 0.0)
    raise ValueError(style)


def playout(variant, fen, plies, rng, style, want=None, lo=0):
    """Seeded random legal playout driven by fairy-stockfish-lb (`go perft 1` lists the moves,
    `d` gives the FEN). The independent generator follows along; its move list must equal
    Fairy-Stockfish's at every ply. With `want`, the playout stops at the first ply >= lo whose
    position has all the wanted features (else it runs `plies` plies)."""
    e = fsf("fsf-lb", variant)
    g = Gen(variant)
    pos = g.parse(fen)
    moves = []
    for ply in range(plies):
        if want is not None and ply >= lo:
            tags, nleg = features_pos(g, pos)
            if nleg and all(w in tags for w in want):
                break
        _, div = e.perft(fen, 1, moves)
        legal = {g.uci(pos, m): (m, n) for m, n in g.legal(pos)}
        if set(div) != set(legal):
            raise RuntimeError("move lists differ after %s %s: fsf-only %s, pygen-only %s" % (
                fen, moves, sorted(set(div) - set(legal)), sorted(set(legal) - set(div))))
        if not div:
            break
        lm = sorted(div)
        mv = rng.choices(lm, weights=[weight(style, g, pos, legal[x][0]) for x in lm])[0]
        moves.append(mv)
        pos = legal[mv][1]
    out, chk = e.state(fen, moves)
    if variant == "caparandom":
        out = shredder(out)
    if chk != g.king_attacked(pos, pos[1]):
        raise RuntimeError("check status differs at %s" % out)
    return out, chk, moves


def find_playout(variant, start, want, lo, hi, style, seed, used, log, tries=400):
    """First seed (seed, seed+1, ...) whose playout reaches a position with all features in
    `want` between ply lo and ply hi (the first such ply; without wanted features, a length
    drawn in lo..hi)."""
    for k in range(tries):
        rng = random.Random(seed + k)
        if want:
            fen, chk, moves = playout(variant, start, hi, rng, style, want, lo)
        else:
            fen, chk, moves = playout(variant, start, rng.randint(lo, hi), rng, style)
        tags, nleg = features(variant, fen)
        if all(w in tags for w in want) and fen not in used and nleg > 0:
            log("  slot %s: seed %d, %d plies, %s (%d tries)" % (",".join(want) or "any", seed + k,
                                                               len(moves), ",".join(tags), k + 1))
            return fen, tags, seed + k, len(moves), moves
    raise RuntimeError("no playout with %s in %d tries" % (want, tries))


# --------------------------------------------------------------------------- perft driving

def fsf_counts(variant, fen, log):
    """Counts from fsf-lb: every depth while below LIMIT (at least 3)."""
    e = fsf("fsf-lb", variant)
    counts = []
    d = 1
    while True:
        n, _ = e.perft(fen, d)
        if n >= LIMIT and d > 3:
            break
        counts.append((d, n))
        d += 1
    log("  fsf-lb: %s" % " ".join("d%d=%d" % c for c in counts))
    return counts


def verify(variant, fen, counts, engines, pygen_max, log):
    """Re-run every count on the other engines. -> ({engine: max depth agreed}, mismatches)"""
    agreed, bad = {"fsf-lb": counts[-1][0]}, []
    for eng in engines:
        if eng == "fsf-lb":
            continue
        for d, n in counts:
            if (eng == "pygen" and n > pygen_max) or (eng == "pyffish" and d > 2):
                break
            t = time.time()
            try:
                got, _ = run(eng, variant, fen, d)
            except Unavailable:
                break
            if got != n:
                bad.append((eng, d, n, got))
                log("  MISMATCH %s d%d: fsf-lb %d, %s %d" % (eng, d, n, eng, got))
                break
            agreed[eng] = d
            if time.time() - t > 5:
                log("  %s d%d ok (%.0fs)" % (eng, d, time.time() - t))
    log("  agreed: %s" % agreed)
    return agreed, bad


NAMES = {"fsf-lb": "fairy-stockfish-lb", "fsf-11": "fairy-stockfish-11.1", "sjaakii": "sjaakii",
         "pygen": "python generator", "pyffish": "pyffish"}


def source_line(agreed):
    order = ["fsf-lb", "fsf-11", "sjaakii", "pygen", "pyffish"]
    return " + ".join("%s d1-%d" % (NAMES[e], agreed[e]) for e in order if e in agreed) + " agree"


def independent_ok(agreed, counts):
    """Every depth covered by Fairy-Stockfish and at least one non-FSF oracle."""
    other = max(agreed.get("sjaakii", 0), agreed.get("pygen", 0))
    return other >= counts[-1][0]


# --------------------------------------------------------------------------- suite plans

def plan_capablanca():
    V = "capablanca"
    S = STARTS[V]
    slots = [(["castle_attacked"], 6, 40, "develop"), (["ep"], 6, 20, "pawns"), (["ep"], 20, 40, "plain"),
             (["promo"], 20, 40, "pawns"), (["promo"], 30, 40, "pawns"),
             (["castle"], 8, 20, "develop"), (["castle"], 16, 30, "develop"),
             (["check"], 10, 30, "plain"), (["check"], 25, 40, "develop"),
             (["castle"], 20, 40, "plain"), ([], 30, 40, "plain")]
    out = [dict(variant=V, epd=S, desc="start position of Capablanca chess")]
    for i, (want, lo, hi, style) in enumerate(slots):
        out.append(dict(variant=V, start=S, want=want, lo=lo, hi=hi, style=style,
                        seed=10000 + 1000 * i, what="Capablanca start"))
    return out


def draw_arrays(rng):
    arrays = caparandom_arrays()
    kingstays = [a for a in arrays if a.index("K") in (2, 8) and
                 (a.index("K") == 2 and "R" in a[:2] or a.index("K") == 8 and "R" in a[9:])]
    torooksq = [a for a in arrays if (a[2] == "R" and a.index("K") > 2) or
                (a[8] == "R" and a.index("K") < 8)]
    picks = []
    while len(picks) < 4:
        a = rng.choice(arrays)
        if a not in picks:
            picks.append(a)
    picks.append(rng.choice([a for a in kingstays if a not in picks]))
    picks.append(rng.choice([a for a in torooksq if a not in picks]))
    return arrays, kingstays, torooksq, picks


def plan_caparandom():
    V = "caparandom"
    arrays, kingstays, torooksq, picks = draw_arrays(random.Random(960))
    out = []
    for i, a in enumerate(picks):
        note = ""
        if i == 4:
            note = " (drawn among the arrays where a king can castle without moving)"
        if i == 5:
            note = " (drawn among the arrays where a castling king lands on its rook's square)"
        out.append(dict(variant=V, epd=array_fen(a),
                        desc="start position of Capablanca Random Chess, array %s%s" % (a, note)))
    slots = [(4, ["castle", "kingstays"], 8, 40, "develop"),
             (5, ["castle", "kingtorooksq"], 8, 40, "develop"),
             (3, ["castle", "rookstays"], 8, 40, "develop"),
             (1, ["ep"], 6, 30, "pawns"),
             (2, ["promo"], 20, 40, "pawns"),
             (3, ["check"], 10, 40, "plain"),
             (5, ["castle_attacked"], 8, 40, "develop")]
    for j, (ai, want, lo, hi, style) in enumerate(slots):
        out.append(dict(variant=V, start=array_fen(picks[ai]), want=want, lo=lo, hi=hi, style=style,
                        seed=20000 + 1000 * j, what="array %s" % picks[ai]))
    return out


def plan_big():
    out = []
    for vi, V in enumerate(("chess10x10", "chess12x10")):
        S = STARTS[V]
        out.append(dict(variant=V, epd=S, desc="start position of %s" % V))
        slots = [(["ep"], 6, 30, "pawns"), (["promo"], 30, 40, "pawns"),
                 (["castle"], 8, 30, "develop"), (["check"], 10, 40, "plain")]
        for j, (want, lo, hi, style) in enumerate(slots):
            out.append(dict(variant=V, start=S, want=want, lo=lo, hi=hi, style=style,
                            seed=30000 + 10000 * vi + 1000 * j, what="the %s start" % V))
    return out


SUITES = {
    "capablanca": ("capablanca.perft", plan_capablanca),
    "caparandom": ("caparandom.perft", plan_caparandom),
    "big-boards": ("big-boards.perft", plan_big),
}

TAGS_DOC = """# Feature tags in the comments (true in the position itself, at the root): check = side to
# move in check; ep = an en passant capture is legal; promo = a promotion is legal; castle = a
# castling is legal; kingstays = a legal castling leaves the king on its square (only the rook
# moves); kingtorooksq = a legal castling puts the king on its castling rook's square;
# rookstays = a legal castling leaves the rook on its square (only the king moves);
# castle_attacked = a castling whose squares are free is illegal because the king's start,
# path or destination is attacked; rights = castling rights remain; rights_blocked = rights
# remain but no castling is legal now.
"""


def header(suite, vers):
    lb = vers.get("fsf-lb", "?")
    f11 = vers.get("fsf-11", "?")
    common = """#
# Oracles (independent move generators; every count below was produced by at least two
# independent ones that agree - Fairy-Stockfish counts as one family whatever the build -
# see each entry's 'source' line):
#   fairy-stockfish-lb: %s (large-board build from git c19b5f6, /work/shared/bin/fairy-stockfish-lb)
#   fairy-stockfish-11.1: %s (Debian package; same family as fairy-stockfish-lb)
#   sjaakii: Sjaak II 1.4.1 (Debian package)
#   python generator: the independent mailbox move generator (make-and-test) in
#     scripts/capablanca-perft.py, which also regenerates this file (`generate`) or re-checks it
#     (`check`)
#   pyffish: pyffish 0.0.90 (PyPI; embeds Fairy-Stockfish 230826 LB, same family; depth <= 2 only)
# Depth per entry: every depth up to the largest whose count stays below 3 million (at least 3).
# Positions: seeded random legal playouts (scripts/capablanca-perft.py; the moves are listed by
# fairy-stockfish-lb, and the python generator's move list was required to be equal at every
# ply); perft n = number of leaf nodes at depth n.
""" % (lb, f11)
    if suite == "capablanca":
        h = """# Reference perft counts for Capablanca chess (10x8).
# Start rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1; archbishop A = B+N,
# chancellor C = R+N; castling king f1-c1 (rook a1-d1) / f1-i1 (rook j1-h1), standard rules;
# promotion on the last rank to Q R B N A C. Castling rights in FEN as KQkq. Castling moves are
# named by the king's move (f1i1, f1c1) as Fairy-Stockfish prints them in capablanca.
# Oracles used: fairy-stockfish-lb and fairy-stockfish-11.1 (built-in `capablanca`), sjaakii
# (built-in `capablanca`), python generator, pyffish.
"""
    elif suite == "caparandom":
        h = """# Reference perft counts for Capablanca Random Chess (caparandom, 10x8).
# Random back rank, the same for both sides: bishops on opposite colours, queen and archbishop on
# opposite colours, king between the rooks, every pawn of the start array defended by a piece of
# its own side (%d such arrays). Chess960-style castling: the king ends on the c-file (rook on
# d) or the i-file (rook on h), squares between king and rook and their destinations empty (but
# for themselves), king's start, path and destination not attacked.
# Castling rights are written in Shredder-FEN: the files of the castling rooks, White's in
# upper case then Black's, each ascending (e.g. AJaj); Fairy-Stockfish prints the same letters
# kingside first (JAja) and names a castling king-takes-own-rook (d1j1, c1a1).
# The six start arrays were drawn with random.Random(960) from the full list (four uniformly,
# one among the arrays where a castling can leave the king on its square, one among those where
# the castling king lands on its rook's square); playouts start from them.
# Oracles used: fairy-stockfish-lb and fairy-stockfish-11.1 (built-in `caparandom`), sjaakii
# (built-in `caparandom`, castling squares from the FEN), python generator, pyffish.
""" % len(caparandom_arrays())
    else:
        h = """# Reference perft counts for two big-board test variants (defined only for the oracles, in
# scripts/oracle-configs-extra/: fairy-stockfish-extra.ini, fairy-stockfish-11-extra.ini for
# the Debian build, sjaakii-extra.txt).
#   chess10x10: 10x10, start rnabqkbcnr/pppppppppp/10/10/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1
#   chess12x10: 12x10, start rnbacqkcabnr/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/RNBACQKCABNR w KQkq - 0 1
# Pieces P N B R Q K plus archbishop A (B+N) and chancellor C (R+N). Pawns double-step from their
# start rank only (rank 2 / rank 9), en passant, promotion only on the last rank (10 for White,
# 1 for Black) to Q R B N A C. Castling: 10x10 king f1-c1 (rook a1-d1) / f1-i1 (rook j1-h1);
# 12x10 king g1-c1 (rook a1-d1) / g1-k1 (rook l1-j1); same on rank 10 for Black; standard
# rules. Stalemate is a draw. Rank 10 squares are written with two digits (e10).
# Castling rights as KQkq; castling moves named by the king's move (f1i1, g1k1).
# Oracles used: fairy-stockfish-lb (fairy-stockfish-extra.ini), fairy-stockfish-11.1
# (fairy-stockfish-11-extra.ini), sjaakii (sjaakii-extra.txt), python generator, pyffish
# (loading fairy-stockfish-extra.ini).
"""
    return h + common + TAGS_DOC


def write_suite(path, header_text, entries):
    with open(path, "w") as f:
        f.write(header_text)
        for e in entries:
            f.write("\nid %s\nvariant %s\nepd %s\n" % (e["id"], e["variant"], e["epd"]))
            for d, n in e["perft"]:
                f.write("perft %d %d\n" % (d, n))
            f.write("# %s\n# source: %s\n" % (e["comment"], e["source"]))


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


def generate(suite, engines, pygen_max, log):
    fname, plan = SUITES[suite]
    prefix = {"capablanca": "capablanca", "caparandom": "caparandom"}.get(suite)
    vers = versions()
    entries, used = [], set()
    counters = {}
    for item in plan():
        V = item["variant"]
        pre = prefix or V
        counters[pre] = counters.get(pre, 0) + 1
        eid = "%s-%03d" % (pre, counters[pre])
        log("%s" % eid)
        if "epd" in item:
            fen, desc = item["epd"], item["desc"]
            tags, _ = features(V, fen)
        else:
            fen, tags, seed, n, moves = find_playout(V, item["start"], item["want"], item["lo"],
                                                     item["hi"], item["style"], item["seed"], used, log)
            desc = "random playout of %d plies (seed %d, %s) from %s" % (n, seed, item["style"], item["what"])
        used.add(fen)
        log("  %s" % fen)
        counts = fsf_counts(V, fen, log)
        agreed, bad = verify(V, fen, counts, engines, pygen_max, log)
        if bad:
            raise SystemExit("disagreement on %s: %s" % (eid, bad))
        if not independent_ok(agreed, counts):
            raise SystemExit("%s: no independent second oracle for every depth (%s)" % (eid, agreed))
        entries.append(dict(id=eid, variant=V, epd=fen, perft=counts,
                            comment="%s; features: %s" % (desc, ", ".join(tags) or "none"),
                            source=source_line(agreed)))
    path = os.path.join(ROOT, "perft-suites", fname)
    write_suite(path, header(suite, vers), entries)
    log("wrote %s (%d entries)" % (path, len(entries)))


def check(path, engines, max_nodes, pygen_max):
    bad = 0
    for e in parse_suite(path):
        for d, n in e["perft"]:
            for eng in engines:
                if n > max_nodes or (eng == "pygen" and n > pygen_max) or (eng == "pyffish" and d > 2):
                    continue
                try:
                    got, _ = run(eng, e["variant"], e["epd"], d)
                except Unavailable:
                    continue
                flag = "ok" if got == n else "MISMATCH"
                bad += got != n
                print("%-16s d%d %10d %-8s %10d %s" % (e["id"], d, n, eng, got, flag), flush=True)
    print("%d mismatches" % bad)
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("cmd", choices=["generate", "check", "perft", "arrays"])
    ap.add_argument("args", nargs="*")
    ap.add_argument("--only", default="capablanca,caparandom,big-boards")
    ap.add_argument("--engines", default="fsf-lb,fsf-11,sjaakii,pygen,pyffish")
    ap.add_argument("--pygen-max", type=int, default=LIMIT)
    ap.add_argument("--max-nodes", type=int, default=LIMIT)
    ap.add_argument("--divide", action="store_true")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    engines = a.engines.split(",")
    log = lambda s: print(s, file=sys.stderr, flush=True)
    if a.cmd == "arrays":
        arrays = caparandom_arrays()
        if a.list:
            print("\n".join(arrays))
        # cross-check of the pawn rule with the move generator's attack test
        g = Gen("caparandom")
        by_attack = 0
        for arr in arrays:
            b = g.parse(array_fen(arr))[0]
            by_attack += all(g.attacked(b, g.sq(f, 1), True) for f in range(10))
        print("%d caparandom start arrays (%d of them pass the attack test; %d without the "
              "pawn rule)" % (len(arrays), by_attack, len(caparandom_arrays(False))))
        picks = draw_arrays(random.Random(960))[3]
        print("suite arrays: %s, valid: %s" % (" ".join(picks), all(valid_array(x) for x in picks)))
        return 0
    if a.cmd == "generate":
        for s in a.only.split(","):
            generate(s, engines, a.pygen_max, log)
        return 0
    if a.cmd == "check":
        return check(a.args[0], engines, a.max_nodes, a.pygen_max)
    variant, fen, depth = a.args[0], a.args[1], int(a.args[2])
    res = {}
    for eng in engines:
        t = time.time()
        try:
            res[eng] = run(eng, variant, fen, depth, a.divide)
        except Unavailable as ex:
            print("# %s unavailable" % ex)
            continue
        print("%-8s perft %d = %d (%.1fs)" % (eng, depth, res[eng][0], time.time() - t))
    if a.divide:
        keys = sorted(set(k for _, d in res.values() for k in d))
        print("%-10s " % "move" + " ".join("%10s" % n[:10] for n in res))
        for k in keys:
            vals = [res[n][1].get(k) for n in res]
            print("%-10s " % k + " ".join("%10s" % ("-" if v is None else v) for v in vals) +
                  ("" if len(set(vals)) == 1 else "   <-- differs"))
    ok = len(set(t for t, _ in res.values())) == 1
    print("AGREE" if ok else "DISAGREE")
    return 0 if ok else 1


if __name__ == "__main__":
    try:
        sys.exit(main())
    finally:
        close_all()
