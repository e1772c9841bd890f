#!/usr/bin/env python3
"""Writes seed inputs for fuzz/fuzz_ccs.c into fuzz/corpus/ccs/: small cuzk
circuit files (.ccs, layout in include/cuzk/ccs.h) built independently of the
C writer, valid ones and near misses (truncated, a bad checksum, a column out
of range behind a valid checksum, a decreasing row_ptr)."""
import os
import struct

R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
M = (1 << 64) - 1
P1, P2, P3 = 0x9e3779b185ebca87, 0xc2b2ae3d27d4eb4f, 0x165667b19e3779f9
ALIGN, HEADER, ENTRY, NSEC = 64, 64, 32, 10


def rotl(x, r):
    return ((x << r) | (x >> (64 - r))) & M


def checksum(b):
    v = [(P3 * (i + 1)) & M for i in range(4)]
    pad = b + bytes(-len(b) % 32)
    for off in range(0, len(pad), 32):
        for i in range(4):
            w = int.from_bytes(pad[off + 8 * i:off + 8 * i + 8], "little")
            v[i] = (rotl((v[i] + w * P2) & M, 31) * P1) & M
    x = (rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18) + len(b) * P1) & M
    x ^= x >> 33
    x = (x * P2) & M
    x ^= x >> 29
    x = (x * P3) & M
    return x ^ (x >> 32)


def ccs(n_vars, n_public, dictionary, rows, edit=None):
    """rows: list of (A, B, C), each a list of (col, dict index)."""
    n_rows = len(rows)
    secs = [b"".join(v.to_bytes(32, "little") for v in dictionary)]
    nnz = []
    for m in range(3):
        ptr, col, coef = [0], [], []
        for r in rows:
            for c, k in r[m]:
                col.append(c)
                coef.append(k)
            ptr.append(len(col))
        nnz.append(len(col))
        secs += [struct.pack("<%dQ" % len(ptr), *ptr), struct.pack("<%dI" % len(col), *col),
                 struct.pack("<%dI" % len(coef), *coef)]
    if edit:
        edit(secs)
    head = b"cuzkccs\0" + struct.pack("<IIIIII", 1, NSEC, n_rows, n_vars, n_public,
                                      len(dictionary)) + struct.pack("<QQQQ", *nnz, 0)
    pos = -(-(HEADER + NSEC * ENTRY) // ALIGN) * ALIGN
    table, body = b"", b""
    for i, s in enumerate(secs):
        table += struct.pack("<IIQQQ", i, 0, pos, len(s), checksum(s))
        body += bytes(pos - (HEADER + NSEC * ENTRY + len(body))) + s
        pos += len(s)
        if i + 1 < NSEC:
            pos = -(-pos // ALIGN) * ALIGN
    return head + table + body


ONE, MINUS_ONE = 1, R - 1
# xor circuit: ONE, public x = a xor b, a, b free bits (wires 0 1 2 3)
XOR_ROWS = [
    ([(0, 0), (2, 1)], [(2, 0)], []),                 # (1 - a) a = 0
    ([(0, 0), (3, 1)], [(3, 0)], []),                 # (1 - b) b = 0
    ([(2, 2)], [(3, 0)], [(2, 0), (3, 0), (1, 1)]),   # 2a b = a + b - x
    ([(0, 0)], [], []), ([(1, 0)], [], []),           # input rows
]


def bad_col(secs):
    secs[2] = struct.pack("<I", 9) + secs[2][4:]


def bad_ptr(secs):
    secs[1] = struct.pack("<QQQ", 0, 3, 1) + secs[1][24:]


seeds = {
    "xor": ccs(4, 1, [ONE, MINUS_ONE, 2], XOR_ROWS),
    "empty": ccs(1, 0, [], []),
    "one_row": ccs(2, 0, [5], [([(1, 0)], [(0, 0)], [(1, 0)])]),
    "col_out_of_range": ccs(4, 1, [ONE, MINUS_ONE, 2], XOR_ROWS, bad_col),
    "row_ptr_decreasing": ccs(4, 1, [ONE, MINUS_ONE, 2], XOR_ROWS, bad_ptr),
    "dict_eq_r": ccs(4, 1, [ONE, R, 2], XOR_ROWS),
}
x = bytearray(seeds["xor"])
x[-1] ^= 1
seeds["bad_checksum"] = bytes(x)
seeds["trunc_400"] = seeds["xor"][:400]
out = os.path.join(os.path.dirname(__file__), "..", "fuzz", "corpus", "ccs")
os.makedirs(out, exist_ok=True)
for name, data in seeds.items():
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
print("wrote %d seeds to %s" % (len(seeds), os.path.normpath(out)))
