#!/usr/bin/env python3
"""Per-variant figures of `menagerie datagen` files: games, scored positions, results, and
where there are drops, who chose each side's first drop (a random opening ply or the search),
at which move, and how many sides never dropped.

It reads the record format of src/datagen/format.rs (a torn last record is left out, as the
engine's reader does), so it can look at data while a run is still writing it.

    python3 scripts/datagen-stats.py nets/data/gen19-8x8-vd-n500.bin [more.bin ...]
"""
import struct
import sys
from collections import Counter, defaultdict

NO_SCORE = -32768


def records(data):
    at = 0
    while at + 4 <= len(data):
        (length,) = struct.unpack_from("<I", data, at)
        body = data[at + 4 : at + 4 + length]
        if len(body) < length or at + 8 + length > len(data):
            return
        at += 8 + length
        i = 1  # past the version byte
        name_len = body[i]
        name = body[i + 1 : i + 1 + name_len].decode("utf-8", "replace")
        i += 1 + name_len
        (fen_len,) = struct.unpack_from("<H", body, i)
        fen = body[i + 2 : i + 2 + fen_len].decode("utf-8", "replace")
        i += 2 + fen_len
        white_tenths = body[i]
        (count,) = struct.unpack_from("<H", body, i + 1)
        i += 3
        moves = []
        for _ in range(count):
            move_len = body[i]
            move = body[i + 1 : i + 1 + move_len].decode("utf-8", "replace")
            (score,) = struct.unpack_from("<h", body, i + 1 + move_len)
            i += 3 + move_len
            moves.append((move, score))
        yield name, fen, white_tenths, moves


def report(path):
    try:
        data = open(path, "rb").read()
    except OSError as e:
        print(f"{path}: {e}", file=sys.stderr)
        return
    games, positions, results = Counter(), Counter(), defaultdict(Counter)
    drops, searched_drop_moves = defaultdict(Counter), defaultdict(list)
    for name, fen, tenths, moves in records(data):
        games[name] += 1
        positions[name] += sum(1 for _, s in moves if s != NO_SCORE)
        results[name][tenths] += 1
        random_plies = sum(1 for _, s in moves if s == NO_SCORE)
        first = [None, None]
        for ply, (move, _) in enumerate(moves):
            if "@" in move and first[ply % 2] is None:
                first[ply % 2] = ply
        board = fen.split(" ")[0]
        if "[" not in board or board.endswith("[]"):
            continue  # nothing in hand at the start: no drops to count
        for ply in first:
            if ply is None:
                drops[name]["never"] += 1
            elif ply < random_plies:
                drops[name]["random ply"] += 1
            else:
                drops[name]["search"] += 1
                searched_drop_moves[name].append(ply // 2 + 1)
    print(f"{path}:")
    for name in sorted(games):
        r = results[name]
        print(
            f"  {name}: {games[name]} games, {positions[name]} scored positions, "
            f"White won {r[10]}, drawn {r[5]}, Black won {r[0]}"
        )
        if drops[name]:
            d = sorted(searched_drop_moves[name])
            median = f", median move of a searched drop {d[len(d) // 2]}" if d else ""
            print(f"    first drop of a side: {dict(drops[name])}{median}")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    for p in sys.argv[1:]:
        report(p)
