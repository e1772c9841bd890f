#!/usr/bin/env python3
"""Writes seed inputs for fuzz/fuzz_daemon_filecoin.c into
fuzz/corpus/daemon_filecoin/ from the 2 KiB outputs of
`cuzk filecoin gen-vanilla` of each kind.

Usage: tools/gen_fuzz_daemon_filecoin.py <cuzk binary> <out dir>

A seed is the harness's input: the engine kind byte, the header's length
byte and the journal header (src/daemon/daemon_filecoin.c's layout, written
here again from public.json as daemon_jobs.c journals a Curio request), then
each vanilla proof as a 4-byte little-endian length and its bytes. Valid
seeds for each kind, then damaged ones (header of the wrong length, bad
magic, unknown flag, an absent field not zero, another kind, a cut vanilla
proof, a non-Filecoin kind)."""
import json
import os
import struct
import subprocess
import sys
import tempfile

# include/cuzk/engine.h engine_kind
POREP, SNAPDEALS, WINDOW_POST, WINNING_POST = 2, 3, 4, 5
HEADER_BYTES = 176


def header(rp, sector_size=0, sector_number=0, miner_id=0, partition=0, randomness=None,
           comm_r_old=None, comm_r_new=None, comm_d_new=None, magic=b"cuzkfil1", extra_flags=0):
    fields = [randomness, comm_r_old, comm_r_new, comm_d_new]
    flags = extra_flags
    tail = b""
    for i, b in enumerate(fields):
        if b is not None:
            assert len(b) == 32
            flags |= 1 << i
            tail += b
        else:
            tail += bytes(32)
    h = magic + struct.pack("<QQQQII", rp, sector_size, sector_number, miner_id, partition, flags) + tail
    assert len(h) == HEADER_BYTES
    return h


def seed(kind, hdr, vanilla):
    out = bytes([kind, len(hdr)]) + hdr
    for v in vanilla:
        out += struct.pack("<I", len(v)) + v
    return out


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    cuzk, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    seeds = {}
    with tempfile.TemporaryDirectory() as tmp:
        gv = {}
        for k in ("porep", "winning-post", "window-post", "snap-deals"):
            d = os.path.join(tmp, k)
            subprocess.run([cuzk, "filecoin", "gen-vanilla", "--kind", k, "--sector-size", "2KiB",
                            "--out", d], check=True, stdout=subprocess.DEVNULL)
            with open(os.path.join(d, "public.json")) as f:
                gv[k] = (d, json.load(f))

        d, pub = gv["porep"]
        # RegisteredSealProof StackedDrg2KiBV1_1 = 5; Curio's envelope (134 KB)
        assert pub["registered_proof"] == "StackedDrg2KiBV1_1"
        porep_h = header(5, 2048, pub["sector_id"], pub["miner_id"])
        c1 = read(os.path.join(d, "c1.curio.json"))
        seeds["porep_2k"] = seed(POREP, porep_h, [c1])
        # replica_id is checked against miner_id and sector_number
        seeds["porep_2k_other_miner"] = seed(POREP, header(5, 2048, pub["sector_id"], 1001), [c1])
        seeds["porep_2k_cut"] = seed(POREP, porep_h, [c1[:len(c1) // 3]])
        seeds["porep_2k_two_proofs"] = seed(POREP, porep_h, [c1[:200], c1[:200]])

        d, pub = gv["winning-post"]
        rnd = bytes.fromhex(pub["randomness"])
        win_h = header(0, 2048, 0, pub["miner_id"], randomness=rnd)  # StackedDrgWinning2KiBV1
        win = [read(os.path.join(d, "sector-1.vproof"))]
        seeds["winning_2k"] = seed(WINNING_POST, win_h, win)
        seeds["winning_2k_as_window"] = seed(WINDOW_POST, win_h, win)

        d, pub = gv["window-post"]
        rnd = bytes.fromhex(pub["randomness"])
        wdw = [read(os.path.join(d, "sector-%d.vproof" % s["id"])) for s in pub["sectors"]]
        # StackedDrgWindow2KiBV1 = 5 (the 1.0 and 1.1 challenges are the same)
        wdw_h = header(5, 2048, 0, pub["miner_id"], randomness=rnd)
        seeds["window_2k"] = seed(WINDOW_POST, wdw_h, wdw)
        seeds["window_2k_v1_2"] = seed(WINDOW_POST, header(10, 0, 0, pub["miner_id"], randomness=rnd),
                                       wdw)
        seeds["window_2k_cut"] = seed(WINDOW_POST, wdw_h, [wdw[0], wdw[1][:100]])
        seeds["window_2k_empty_proof"] = seed(WINDOW_POST, wdw_h, [wdw[0], b""])

        d, pub = gv["snap-deals"]
        snap_h = header(0, 2048, comm_r_old=bytes.fromhex(pub["comm_r_old"]),
                        comm_r_new=bytes.fromhex(pub["comm_r_new"]),
                        comm_d_new=bytes.fromhex(pub["comm_d_new"]))
        snap = [read(os.path.join(d, "partition-0.vproof"))]
        seeds["snap_2k"] = seed(SNAPDEALS, snap_h, snap)
        seeds["snap_2k_no_comm_d_new"] = seed(
            SNAPDEALS, header(0, 2048, comm_r_old=bytes.fromhex(pub["comm_r_old"]),
                              comm_r_new=bytes.fromhex(pub["comm_r_new"])), snap)

    # damaged headers (on the small WinningPoSt job)
    seeds["header_175"] = seed(WINNING_POST, win_h[:175], win)
    seeds["header_bad_magic"] = seed(WINNING_POST, b"cuzkfil2" + win_h[8:], win)
    seeds["header_unknown_flag"] = seed(WINNING_POST, header(0, 2048, 0, 1000, randomness=rnd,
                                                             extra_flags=0x10), win)
    absent = bytearray(win_h)
    absent[48 + 32 + 7] = 1  # comm_r_old absent but not zero
    seeds["header_absent_not_zero"] = seed(WINNING_POST, bytes(absent), win)
    seeds["header_only"] = seed(WINNING_POST, win_h, [])
    seeds["not_filecoin_kind"] = seed(1, win_h, win)

    for name, b in seeds.items():
        assert len(b) < 300_000, name
        with open(os.path.join(out, name), "wb") as f:
            f.write(b)


if __name__ == "__main__":
    main()
