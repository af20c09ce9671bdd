#!/usr/bin/env python3
"""Independent perft reference for Random Variant Chess (rvc / rvcstar), 12x8.

Written from ../shared/rules.md section 4 only (not from Menagerie's code), so that it can
check the pieces no other oracle plays: the Giraffe (1,4), the Sprinter m(1,4)cK, the Griffin
and the Rhinoceros. It plays every piece of rules.md 4(b):

  K king + castling   Q R B N P orthodox   M man K   F fers   W wazir   A alfil (2,2)
  D dabbaba (2,0)   C camel (3,1)   Z zebra (3,2)   G giraffe (4,1)   T tiger mBcN
  U walker mWcF   H rhinoceros (circular king-step rider, 16 paths of 1-7 steps)
  Y griffin (one diagonal step, move or capture; or the diagonal step to an empty square and
    then an orthogonal slide outward, i.e. along either component of the diagonal)
  E empress RN   I princess BN   O cannon mRcpR   L leo mQcpQ   V vao mBcpB
  J grasshopper gQ (rvc) or star WA (rvcstar)   X archer mKcN   S sprinter m(1,4)cK

Rules: pawns step, double-step from their first rank (2 / 7), en passant, promote on the last
rank to any non-royal non-pawn type on the board in the root position (both colours; or
--promo LETTERS). Castling (rules.md 4(d), Chess960-style conditions): the king on g1/g8 and a
Rook or Cannon in the corner with the right (KQkq, or the corner's file letter); O-O = king
g-k, partner l-j; O-O-O = king g-c, partner a-d; every square between king and partner empty;
the king not in check; the squares the king crosses and lands on (h-k, or f-c) not attacked
in the current position; the king not in check after the move. Legality: make the move and
test whether the mover's king is attacked (every piece's capture pattern, hoppers included).

Mailbox board (a list of 96 squares, index = file + 12 * rank), precomputed rays and leaps.
Slow (a few 10k nodes/s): use it up to a few hundred thousand nodes.

  scripts/rvc_reference.py [--variant rvc|rvcstar] [--promo LETTERS] [--divide] FEN DEPTH

Output like Menagerie: `move: count` per root move with --divide (castling as the king's
destination, e.g. g1k1), then `Nodes searched: N`.
"""
import argparse
import sys

W, H = 12, 8
N_SQ = W * H
FILES = "abcdefghijkl"


def sq_name(s):
    return FILES[s % W] + str(s // W + 1)


def parse_sq(t):
    return FILES.index(t[0]) + W * (int(t[1:]) - 1)


def on(x, y):
    return 0 <= x < W and 0 <= y < H


ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
QUEEN = ORTH + DIAG


def sym(a, b):
    """All (+-a, +-b) and (+-b, +-a) vectors, without duplicates."""
    out = []
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                v = (x * sx, y * sy)
                if v not in out:
                    out.append(v)
    return out


def leap_table(vectors):
    t = []
    for s in range(N_SQ):
        x, y = s % W, s // W
        t.append([(x + dx) + W * (y + dy) for dx, dy in vectors if on(x + dx, y + dy)])
    return t


def ray_table(vectors):
    """t[s] = list of rays, each the list of squares from s outward."""
    t = []
    for s in range(N_SQ):
        x, y = s % W, s // W
        rays = []
        for dx, dy in vectors:
            r, cx, cy = [], x + dx, y + dy
            while on(cx, cy):
                r.append(cx + W * cy)
                cx += dx
                cy += dy
            if r:
                rays.append(r)
        t.append(rays)
    return t


KING_V = sym(1, 0) + sym(1, 1)
LEAPS = {
    "K": leap_table(KING_V), "F": leap_table(sym(1, 1)), "W": leap_table(sym(1, 0)),
    "A": leap_table(sym(2, 2)), "D": leap_table(sym(2, 0)), "N": leap_table(sym(2, 1)),
    "C": leap_table(sym(3, 1)), "Z": leap_table(sym(3, 2)), "G": leap_table(sym(4, 1)),
    "STAR": leap_table(sym(1, 0) + sym(2, 2)),
}
ROOK_RAYS = ray_table(ORTH)
BISHOP_RAYS = ray_table(DIAG)
QUEEN_RAYS = ray_table(QUEEN)

# Rhinoceros: directions counter-clockwise d0=E .. d7=SE; path (i, s): step k uses d[i+s*(k-1)].
RHINO_DIRS = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]


def rhino_table():
    t = []
    for s in range(N_SQ):
        x, y = s % W, s // W
        paths = []
        for i in range(8):
            for sense in (1, -1):
                p, cx, cy = [], x, y
                for k in range(1, 8):
                    dx, dy = RHINO_DIRS[(i + sense * (k - 1)) % 8]
                    cx, cy = cx + dx, cy + dy
                    if not on(cx, cy):
                        break
                    p.append(cx + W * cy)
                paths.append(p)
        t.append(paths)
    return t


RHINO = rhino_table()


def griffin_table():
    """t[s] = list of (diagonal square, [orthogonal ray 1, orthogonal ray 2])."""
    t = []
    for s in range(N_SQ):
        x, y = s % W, s // W
        out = []
        for dx, dy in DIAG:
            if not on(x + dx, y + dy):
                continue
            fx, fy = x + dx, y + dy
            rays = []
            for ox, oy in ((dx, 0), (0, dy)):
                r, cx, cy = [], fx + ox, fy + oy
                while on(cx, cy):
                    r.append(cx + W * cy)
                    cx += ox
                    cy += oy
                rays.append(r)
            out.append((fx + W * fy, rays))
        t.append(out)
    return t


GRIFFIN = griffin_table()


def white(p):
    return p.isupper()


class Pos:
    __slots__ = ("b", "wtm", "cr", "ep", "star", "promo")

    def copy(self):
        p = Pos()
        p.b = self.b[:]
        p.wtm = self.wtm
        p.cr = self.cr
        p.ep = self.ep
        p.star = self.star
        p.promo = self.promo
        return p


# castling rights: bit 1 = white O-O (l1), 2 = white O-O-O (a1), 4 = black O-O (l8), 8 = black O-O-O (a8)
CORNER_BIT = {parse_sq("l1"): 1, parse_sq("a1"): 2, parse_sq("l8"): 4, parse_sq("a8"): 8}
KING_HOME = {True: parse_sq("g1"), False: parse_sq("g8")}


def from_fen(fen, star=False, promo=None):
    parts = fen.split()
    rows = parts[0].split("/")
    if len(rows) != H:
        raise SystemExit("need 8 ranks: " + fen)
    b = [None] * N_SQ
    for r, row in enumerate(rows):
        y = H - 1 - r
        x, i = 0, 0
        while i < len(row):
            c = row[i]
            if c.isdigit():
                j = i
                while j < len(row) and row[j].isdigit():
                    j += 1
                x += int(row[i:j])
                i = j
                continue
            b[x + W * y] = c
            x += 1
            i += 1
        if x != W:
            raise SystemExit("rank %d has %d files: %s" % (y + 1, x, fen))
    p = Pos()
    p.b = b
    p.wtm = (parts[1] if len(parts) > 1 else "w") == "w"
    p.cr = 0
    cast = parts[2] if len(parts) > 2 else "-"
    for c in cast:
        if c == "K":
            p.cr |= 1
        elif c == "Q":
            p.cr |= 2
        elif c == "k":
            p.cr |= 4
        elif c == "q":
            p.cr |= 8
        elif c.upper() in FILES:      # Shredder-FEN: the file of the castling partner
            f = FILES.index(c.lower())
            if f == W - 1:
                p.cr |= 1 if c.isupper() else 4
            elif f == 0:
                p.cr |= 2 if c.isupper() else 8
    ep = parts[3] if len(parts) > 3 else "-"
    p.ep = None if ep == "-" else parse_sq(ep)
    p.star = star
    if promo is None:
        promo = sorted(set(c.upper() for c in b if c and c.upper() not in "KP"))
    p.promo = list(promo)
    return p


def piece_targets(pos, s, p):
    """(quiet targets, capture targets) of the non-pawn, non-king-castling piece p on s.
    Capture targets are the squares holding an enemy piece that p could take."""
    b = pos.b
    me = white(p)
    t = p.upper()
    quiet, caps = [], []

    def enemy(q):
        return q is not None and white(q) != me

    def leaper(table, mv=True, cp=True):
        for d in table[s]:
            q = b[d]
            if q is None:
                if mv:
                    quiet.append(d)
            elif cp and white(q) != me:
                caps.append(d)

    def slider(rays, mv=True, cp=True):
        for r in rays[s]:
            for d in r:
                q = b[d]
                if q is None:
                    if mv:
                        quiet.append(d)
                    continue
                if cp and white(q) != me:
                    caps.append(d)
                break

    def hopper(rays):
        """capture only: over exactly one piece (screen), take the first piece beyond"""
        for r in rays[s]:
            screen = False
            for d in r:
                q = b[d]
                if q is None:
                    continue
                if not screen:
                    screen = True
                    continue
                if white(q) != me:
                    caps.append(d)
                break

    if t in ("K", "M"):
        leaper(LEAPS["K"])
    elif t in ("F", "W", "A", "D", "N", "C", "Z", "G"):
        leaper(LEAPS[t])
    elif t == "R":
        slider(ROOK_RAYS)
    elif t == "B":
        slider(BISHOP_RAYS)
    elif t == "Q":
        slider(QUEEN_RAYS)
    elif t == "E":
        slider(ROOK_RAYS)
        leaper(LEAPS["N"])
    elif t == "I":
        slider(BISHOP_RAYS)
        leaper(LEAPS["N"])
    elif t == "T":                      # mBcN
        slider(BISHOP_RAYS, cp=False)
        leaper(LEAPS["N"], mv=False)
    elif t == "U":                      # mWcF
        leaper(LEAPS["W"], cp=False)
        leaper(LEAPS["F"], mv=False)
    elif t == "X":                      # mKcN
        leaper(LEAPS["K"], cp=False)
        leaper(LEAPS["N"], mv=False)
    elif t == "S":                      # m(1,4)cK
        leaper(LEAPS["G"], cp=False)
        leaper(LEAPS["K"], mv=False)
    elif t == "O":                      # mRcpR
        slider(ROOK_RAYS, cp=False)
        hopper(ROOK_RAYS)
    elif t == "L":                      # mQcpQ
        slider(QUEEN_RAYS, cp=False)
        hopper(QUEEN_RAYS)
    elif t == "V":                      # mBcpB
        slider(BISHOP_RAYS, cp=False)
        hopper(BISHOP_RAYS)
    elif t == "J":
        if pos.star:                    # Star: WA
            leaper(LEAPS["STAR"])
        else:                           # Grasshopper: land just beyond the nearest piece
            for r in QUEEN_RAYS[s]:
                for i, d in enumerate(r):
                    if b[d] is None:
                        continue
                    if i + 1 < len(r):
                        land = r[i + 1]
                        q = b[land]
                        if q is None:
                            quiet.append(land)
                        elif white(q) != me:
                            caps.append(land)
                    break
    elif t == "H":                      # Rhinoceros: 16 circular paths; a square once per piece
        seen = set()
        for path in RHINO[s]:
            for d in path:
                q = b[d]
                if q is None:
                    if d not in seen:
                        seen.add(d)
                        quiet.append(d)
                    continue
                if white(q) != me and d not in seen:
                    seen.add(d)
                    caps.append(d)
                break
    elif t == "Y":                      # Griffin
        for f, rays in GRIFFIN[s]:
            q = b[f]
            if q is not None:
                if white(q) != me:
                    caps.append(f)
                continue
            quiet.append(f)
            for r in rays:
                for d in r:
                    q = b[d]
                    if q is None:
                        quiet.append(d)
                        continue
                    if white(q) != me:
                        caps.append(d)
                    break
    else:
        raise SystemExit("unknown piece letter %r" % p)
    return quiet, caps


def attacked(pos, sq, by_white):
    """Is square sq attacked by the side by_white? (sq may be empty: a dummy is placed.)"""
    b = pos.b
    saved = b[sq]
    if saved is None:
        b[sq] = "k" if by_white else "K"        # a capturable dummy of the other colour
    try:
        for s in range(N_SQ):
            p = b[s]
            if p is None or white(p) != by_white:
                continue
            if p in "Pp":
                x, y = s % W, s // W
                dy = 1 if by_white else -1
                for dx in (-1, 1):
                    if on(x + dx, y + dy) and (x + dx) + W * (y + dy) == sq:
                        return True
                continue
            if sq in piece_targets(pos, s, p)[1]:
                return True
        return False
    finally:
        b[sq] = saved


def king_sq(pos, wh):
    k = "K" if wh else "k"
    for s in range(N_SQ):
        if pos.b[s] == k:
            return s
    return None


# move = (from, to, promo letter or None, kind) kind: 0 normal, 1 ep, 2 castle O-O, 3 castle O-O-O

def pseudo_moves(pos):
    b = pos.b
    me = pos.wtm
    out = []
    for s in range(N_SQ):
        p = b[s]
        if p is None or white(p) != me:
            continue
        if p in "Pp":
            x, y = s % W, s // W
            dy = 1 if me else -1
            last = H - 1 if me else 0
            start = 1 if me else H - 2
            promos = [c if me else c.lower() for c in pos.promo]

            def add(to, kind=0):
                if to // W == last:
                    for c in promos:
                        out.append((s, to, c, kind))
                else:
                    out.append((s, to, None, kind))
            one = s + W * dy
            if on(x, y + dy) and b[one] is None:
                add(one)
                if y == start and b[one + W * dy] is None:
                    out.append((s, one + W * dy, None, 0))
            for dx in (-1, 1):
                if not on(x + dx, y + dy):
                    continue
                d = (x + dx) + W * (y + dy)
                q = b[d]
                if q is not None and white(q) != me:
                    add(d)
                elif q is None and d == pos.ep:
                    out.append((s, d, None, 1))
            continue
        quiet, caps = piece_targets(pos, s, p)
        for d in quiet:
            out.append((s, d, None, 0))
        for d in caps:
            out.append((s, d, None, 0))
        if p in "Kk":
            out.extend(castlings(pos, s))
    return out


def castlings(pos, ks):
    me = pos.wtm
    if ks != KING_HOME[me]:
        return []
    b = pos.b
    rank = 0 if me else H - 1
    out = []
    partners = ("R", "O") if me else ("r", "o")
    for bit, corner, between, crossed, kdest, kind in (
            (1 if me else 4, W - 1, range(7, 11), range(7, 11), 10, 2),   # h..k empty; h..k safe
            (2 if me else 8, 0, range(1, 6), range(2, 6), 2, 3)):        # b..f empty; c..f safe
        if not pos.cr & bit:
            continue
        if b[corner + W * rank] not in partners:
            continue
        if any(b[f + W * rank] is not None for f in between):
            continue
        if attacked(pos, ks, not me):
            continue
        if any(attacked(pos, f + W * rank, not me) for f in crossed):
            continue
        out.append((ks, kdest + W * rank, None, kind))
    return out


def make(pos, m):
    s, d, promo, kind = m
    n = pos.copy()
    b = n.b
    p = b[s]
    me = pos.wtm
    rank = 0 if me else H - 1
    n.ep = None
    if kind == 2 or kind == 3:
        corner = (W - 1 if kind == 2 else 0) + W * rank
        rdest = (9 if kind == 2 else 3) + W * rank
        partner = b[corner]
        b[s] = None
        b[corner] = None
        b[d] = p
        b[rdest] = partner
        n.cr &= ~(3 if me else 12)
    else:
        if kind == 1:
            b[d - (W if me else -W)] = None
        b[d] = promo if promo else p
        b[s] = None
        if p in "Pp" and abs(d - s) == 2 * W:
            n.ep = (s + d) // 2
        if p in "Kk":
            n.cr &= ~(3 if me else 12)
        n.cr &= ~CORNER_BIT.get(s, 0)
        n.cr &= ~CORNER_BIT.get(d, 0)
    n.wtm = not me
    return n


def legal_moves(pos):
    out = []
    for m in pseudo_moves(pos):
        n = make(pos, m)
        k = king_sq(n, pos.wtm)
        if k is not None and attacked(n, k, not pos.wtm):
            continue
        out.append((m, n))
    return out


def move_name(m):
    s, d, promo, kind = m
    return sq_name(s) + sq_name(d) + (promo.lower() if promo else "")


def perft(pos, depth):
    ms = legal_moves(pos)
    if depth == 1:
        return len(ms)
    return sum(perft(n, depth - 1) for _, n in ms)


def divide(pos, depth):
    res = {}
    for m, n in legal_moves(pos):
        res[move_name(m)] = 1 if depth == 1 else perft(n, depth - 1)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("fen")
    ap.add_argument("depth", type=int)
    ap.add_argument("--variant", default="rvc", choices=["rvc", "rvcstar"])
    ap.add_argument("--promo", help="promotion types (default: the root position's types)")
    ap.add_argument("--divide", action="store_true")
    a = ap.parse_args()
    pos = from_fen(a.fen, star=a.variant == "rvcstar", promo=a.promo.upper() if a.promo else None)
    if a.depth < 1:
        print("Nodes searched: 1")
        return
    if a.divide:
        res = divide(pos, a.depth)
        for k in sorted(res):
            print("%s: %d" % (k, res[k]))
        print("Nodes searched: %d" % sum(res.values()))
    else:
        print("Nodes searched: %d" % perft(pos, a.depth))


if __name__ == "__main__":
    sys.exit(main())
