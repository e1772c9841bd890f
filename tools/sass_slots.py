#!/usr/bin/env python3
"""Static SASS counts of a cubin's kernels, without cuobjdump or nvdisasm.

    tools/sass_slots.py FILE.cubin [NAME_PART ...]

For each .text section (a kernel, named by its mangled name; demangled
with c++filt): its instructions (16 bytes each on sm_90, NOPs of the
alignment padding left out), the wide multiply-adds among them, the issue
slots (instructions + wide multiply-adds) and the opcode classes.

Why slots: on the H100/H200 a quarter-SM hands a warp instruction to the
IMAD/ALU/FP64 pipes every second clock whatever the pipe (stop 36's
`bench field`: "SASS instructions at 64 a clock an SM"), and an
IMAD.WIDE takes two of those turns. One Fp Montgomery product is 655
slots here; stop 36 measured 10.04 SM clocks for it, 655 / 64 = 10.2. So
for straight-line code (a field or curve operation, a kernel without
loops) the slots predict the time; for a kernel with loops or calls the
static count is only a bound (the loop body and callee bodies counted
once, untaken paths counted too).

The opcode of an sm_90 instruction is the low 12 bits of its first 64-bit
word; 0x2xx reads registers, 0x8xx an immediate, 0xaxx/0xcxx a constant.
The names below were matched by compiling kernels whose SASS is known
(loads and stores counted, a multiplication's 144 wide products) and are
a reading aid, not a disassembler: unknown codes print in hex."""

import struct
import subprocess
import sys
from collections import Counter

NAMES = {
    0x224: "IMAD", 0x824: "IMAD.imm", 0xA24: "IMAD.c", 0xC24: "IMAD.c2",
    0x225: "IMAD.WIDE", 0x825: "IMAD.WIDE.imm", 0xA25: "IMAD.WIDE.c", 0xC25: "IMAD.WIDE.c2",
    0x227: "IMAD.HI", 0x827: "IMAD.HI.imm", 0xA27: "IMAD.HI.c", 0xC27: "IMAD.HI.c2",
    0x210: "IADD3", 0x810: "IADD3.imm", 0xC10: "IADD3.c2",
    0x212: "LOP3", 0x812: "LOP3.imm", 0x207: "SEL", 0x807: "SEL.imm",
    0x219: "SHF", 0x819: "SHF.imm", 0x211: "LEA", 0x811: "LEA.imm",
    0x202: "MOV", 0x802: "MOV.imm", 0x20C: "ISETP", 0x80C: "ISETP.imm",
    0x981: "LDG", 0x986: "STG", 0x984: "LDS", 0x388: "STS",
    0x983: "LDL", 0x387: "STL", 0xB82: "LDC", 0xAB9: "ULDC",
    0x947: "BRA", 0x94D: "EXIT", 0x950: "RET", 0x944: "CALL",
    0x945: "BSSY", 0x941: "BSYNC", 0x918: "NOP", 0x919: "S2R",
}
WIDE = {0x225, 0x825, 0xA25, 0xC25}
NOP = 0x918


def sections(path):
    """(name, file offset, size) of every section of an ELF64 file."""
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] != b"\x7fELF" or b[4] != 2:
        sys.exit(f"sass_slots: {path}: not an ELF64 file (a cubin: nvcc -cubin)")
    shoff, = struct.unpack_from("<Q", b, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", b, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", b, shoff + i * shentsize) for i in range(shnum)]
    names = hdrs[shstrndx][4]

    def name(o):
        end = b.index(b"\0", names + o)
        return b[names + o:end].decode()

    return b, [(name(h[0]), h[4], h[5]) for h in hdrs]


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    data, secs = sections(sys.argv[1])
    want = sys.argv[2:]
    rows = []
    for name, off, size in secs:
        if not name.startswith(".text."):
            continue
        ops = Counter()
        for i in range(0, size, 16):
            lo, = struct.unpack_from("<Q", data, off + i)
            ops[lo & 0xFFF] += 1
        rows.append((name[6:], ops))
    demangled = subprocess.run(["c++filt"], input="\n".join(r[0] for r in rows),
                               capture_output=True, text=True).stdout.split("\n")
    print(f"{'instr':>7} {'wide':>6} {'slots':>7}  kernel / opcode classes")
    for (mangled, ops), nice in zip(rows, demangled):
        if want and not any(w in nice or w in mangled for w in want):
            continue
        instr = sum(ops.values()) - ops[NOP]
        wide = sum(ops[k] for k in WIDE)
        print(f"{instr:7d} {wide:6d} {instr + wide:7d}  {nice[:110]}")
        mix = ", ".join(f"{NAMES.get(k, hex(k))} {v}" for k, v in ops.most_common() if k != NOP)
        print(f"{'':22}{mix[:200]}")


if __name__ == "__main__":
    main()
