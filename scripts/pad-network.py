#!/usr/bin/env python3
"""A network file made wider by neurons whose weights are all zero.

    scripts/pad-network.py IN.nnue OUT.nnue WIDTH

The padded network evaluates every position exactly as the original does, so a search with
it visits the same tree: what changes is only the cost of each node, which is what a speed
measurement of a wider network needs (docs/nnue-inference.md).
"""
import struct
import sys


def fnv1a64(data):
    h = 0xcbf29ce484222325
    for byte in data:
        h = ((h ^ byte) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    source, target, width = sys.argv[1], sys.argv[2], int(sys.argv[3])
    data = open(source, "rb").read()
    assert data[:7] == b"MENAGNN", "not a Menagerie network"
    header_len = struct.unpack("<I", data[8:12])[0]
    header = data[12:12 + header_len].decode()
    lines = header.split("\n")
    hidden = int(next(l for l in lines if l.startswith("hidden ")).split()[1])
    buckets = next((int(l.split()[2]) for l in lines if l.startswith("output buckets ")), 1)
    assert width >= hidden, "a network can only be made wider"
    body = data[12 + header_len:-8]
    count = (len(body) - 4 * buckets) // 2
    inputs = (count - hidden - 2 * buckets * hidden) // hidden
    weights = struct.unpack(f"<{count}h", body[:2 * count])
    zeros = (0,) * (width - hidden)
    padded = []
    # Every row of `hidden` values (input columns, the bias, each bucket's two output halves)
    # gets the new neurons' zeros at its end.
    for row in range(inputs + 1 + 2 * buckets):
        padded.extend(weights[row * hidden:(row + 1) * hidden] + zeros)
    new_header = header.replace(f"hidden {hidden}\n", f"hidden {width}\n").encode()
    out = (data[:8] + struct.pack("<I", len(new_header)) + new_header
           + struct.pack(f"<{len(padded)}h", *padded) + body[2 * count:])
    open(target, "wb").write(out + struct.pack("<Q", fnv1a64(out)))


if __name__ == "__main__":
    main()
