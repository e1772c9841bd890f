#!/usr/bin/env python3
"""A cuzk.v1 client in another language, sending Filecoin requests the way
Curio does (filecoin-project/curio lib/ffi/cuzk_funcs.go): the stubs are
generated from proto/cuzk/v1/proving.proto into a temporary folder, the
inputs are `cuzk filecoin gen-vanilla` output (2 KiB), and every proof that
comes back is written to a file for `cuzk filecoin verify`.

Usage: daemon_filecoin.py PROTO_DIR SOCKET INPUTS OUT COMMAND...
  prove KIND [PARTITION]   Prove one request; writes OUT/<name>.proof and
                           prints one line "ok <name> <bytes> <total_ms>"
  submit KIND [PARTITION]  SubmitProof only; prints the job id
  await JOB NAME           AwaitProof; writes OUT/<name>.proof
  bad                      the refused and failed requests
  status                   GetStatus: prints the Filecoin keys
KIND: porep, winning-post, window-post, snap-deals. Exit 0 when every
check held, 1 otherwise (the failure printed)."""
import glob
import json
import os
import sys
import tempfile

from grpc_tools import protoc  # noqa: E402  (Debian python3-grpc-tools)
import grpc  # noqa: E402  (Debian python3-grpcio)

PROTO, SOCK, INPUTS, OUT = sys.argv[1:5]
CMD = sys.argv[5:]

gen = tempfile.mkdtemp(prefix="cuzk-pb-")
if protoc.main(["protoc", "-I" + PROTO, "--python_out=" + gen, "--grpc_python_out=" + gen,
                os.path.join(PROTO, "cuzk/v1/proving.proto")]) != 0:
    sys.exit("protoc failed")
sys.path.insert(0, gen)
from cuzk.v1 import proving_pb2 as pb  # noqa: E402
from cuzk.v1 import proving_pb2_grpc as pbg  # noqa: E402

chan = grpc.insecure_channel("unix://" + SOCK)
stub = pbg.ProvingEngineStub(chan)

# go-state-types abi numbers, as Curio sends them (sn.ProofType, proofType)
SEAL = {"StackedDrg2KiBV1": 0, "StackedDrg2KiBV1_1": 5}
WINNING_2K = 0          # RegisteredPoStProof StackedDrgWinning2KiBV1
WINDOW_2K = 5           # StackedDrgWindow2KiBV1
UPDATE_2K = 0           # RegisteredUpdateProof StackedDrg2KiBV1
SECTOR = 2048


def public(kind):
    with open(os.path.join(INPUTS, kind, "public.json")) as f:
        return json.load(f)


def files(kind, pattern):
    names = glob.glob(os.path.join(INPUTS, kind, pattern))
    return [open(p, "rb").read() for p in sorted(names, key=lambda p: int(p.split("-")[-1]
                                                                       .split(".")[0]))]


def window_partition(p, k, per=2):
    """The sectors of partition k (2 per partition at 2 KiB), as Curio
    sends them: that partition's vanilla proofs only."""
    v = files("window-post", "sector-*.vproof")
    return v[k * per:(k + 1) * per]


def request(kind, part=0):
    p = public(kind)
    if kind == "porep":
        wrapped = open(os.path.join(INPUTS, "porep", "c1.curio.json"), "rb").read()
        return pb.SubmitProofRequest(
            request_id="porep-%d-%d" % (p["miner_id"], p["sector_id"]),
            proof_kind=pb.POREP_SEAL_COMMIT, sector_size=SECTOR,
            registered_proof=SEAL[p["registered_proof"]], priority=pb.NORMAL,
            vanilla_proof=wrapped, sector_number=p["sector_id"], miner_id=p["miner_id"])
    if kind == "winning-post":
        r = bytes.fromhex(p["randomness"])
        return pb.SubmitProofRequest(
            request_id="winpost-%d-%s" % (p.get("miner_id", 1000), r[:8].hex()),
            proof_kind=pb.WINNING_POST, sector_size=SECTOR, registered_proof=WINNING_2K,
            priority=pb.CRITICAL, vanilla_proofs=files(kind, "sector-*.vproof"),
            miner_id=p.get("miner_id", 1000), randomness=r)
    if kind == "window-post":
        r = bytes.fromhex(p["randomness"])
        return pb.SubmitProofRequest(
            request_id="wdpost-%d-%d-%s" % (p.get("miner_id", 1000), part, r[:8].hex()),
            proof_kind=pb.WINDOW_POST_PARTITION, sector_size=SECTOR,
            registered_proof=WINDOW_2K, priority=pb.HIGH,
            vanilla_proofs=window_partition(p, part), miner_id=p.get("miner_id", 1000),
            randomness=r, partition_index=part)
    if kind == "snap-deals":
        return pb.SubmitProofRequest(
            request_id="snap-1000-1", proof_kind=pb.SNAP_DEALS_UPDATE, sector_size=SECTOR,
            registered_proof=UPDATE_2K, priority=pb.NORMAL,
            vanilla_proofs=files(kind, "partition-*.vproof"), sector_number=1, miner_id=1000,
            comm_r_old=bytes.fromhex(p["comm_r_old"]), comm_r_new=bytes.fromhex(p["comm_r_new"]),
            comm_d_new=bytes.fromhex(p["comm_d_new"]))
    sys.exit("unknown kind " + kind)


def name_of(kind, part):
    return kind + ("-%d" % part if kind == "window-post" else "")


def save(res, name):
    if res.status != pb.AwaitProofResponse.COMPLETED:
        print("FAIL: %s: status %s: %s" % (name, pb.AwaitProofResponse.Status.Name(res.status),
                                             res.error_message))
        return 1
    if len(res.proof) % 192 or not res.proof:
        print("FAIL: %s: %d proof bytes" % (name, len(res.proof)))
        return 1
    if not res.total_ms >= res.synthesis_ms or not res.total_ms:
        print("FAIL: %s: timings total %d synthesis %d" % (name, res.total_ms, res.synthesis_ms))
        return 1
    with open(os.path.join(OUT, name + ".proof"), "wb") as f:
        f.write(res.proof)
    print("ok %s %d bytes, total %d ms (queue %d, load %d, synthesis %d, prove %d)" % (
        name, len(res.proof), res.total_ms, res.queue_wait_ms, res.srs_load_ms, res.synthesis_ms,
        res.gpu_compute_ms))
    return 0


def expect_refused(what, req, code, text):
    try:
        stub.SubmitProof(req, timeout=60)
    except grpc.RpcError as e:
        if e.code() != code or text not in e.details():
            print("FAIL: %s: %s %s (want %s '%s')" % (what, e.code(), e.details(), code, text))
            return 1
        print("ok %s: %s: %s" % (what, e.code().name, e.details()))
        return 0
    print("FAIL: %s: accepted" % what)
    return 1


def bad():
    fails = 0
    r = request("winning-post")
    r.request_id = ""
    r.ClearField("randomness")
    fails += expect_refused("missing randomness", r, grpc.StatusCode.INVALID_ARGUMENT,
                            "randomness")
    r = request("winning-post")
    r.registered_proof = WINDOW_2K
    fails += expect_refused("WindowPoSt registered proof for WinningPoSt", r,
                            grpc.StatusCode.INVALID_ARGUMENT, "registered_proof 5")
    r = request("window-post", 0)
    r.request_id = ""
    del r.vanilla_proofs[:]
    fails += expect_refused("no vanilla proofs", r, grpc.StatusCode.INVALID_ARGUMENT,
                            "vanilla_proofs is missing")
    r = request("winning-post")
    r.request_id = ""
    r.vanilla_proofs[0] = r.vanilla_proofs[0][:100]
    fails += expect_refused("truncated vanilla proof", r, grpc.StatusCode.INVALID_ARGUMENT,
                            "vanilla_proofs[0]")
    # a sibling hash changed: well formed, so the job is accepted and fails
    r = request("winning-post")
    r.request_id = "tampered"
    v = bytearray(r.vanilla_proofs[0])
    v[200] ^= 1
    r.vanilla_proofs[0] = bytes(v)
    res = stub.Prove(pb.ProveRequest(submit=r), timeout=600).result
    if (res.status != pb.AwaitProofResponse.FAILED or "not valid" not in res.error_message or
            res.proof):
        print("FAIL: tampered vanilla proof: %s %r" % (
            pb.AwaitProofResponse.Status.Name(res.status), res.error_message))
        fails += 1
    else:
        print("ok tampered vanilla proof: FAILED: %s" % res.error_message)
    return fails


def status():
    s = stub.GetStatus(pb.GetStatusRequest(), timeout=60)
    for k in s.loaded_srs:
        print("key %s %s %d bytes" % (k.circuit_id, pb.SRSStatus.Tier.Name(k.tier), k.size_bytes))
    return 0


def main():
    if CMD[0] == "prove":
        kind, part = CMD[1], int(CMD[2]) if len(CMD) > 2 else 0
        res = stub.Prove(pb.ProveRequest(submit=request(kind, part)), timeout=1800).result
        return save(res, name_of(kind, part))
    if CMD[0] == "submit":
        kind, part = CMD[1], int(CMD[2]) if len(CMD) > 2 else 0
        r = request(kind, part)
        r.request_id += "-again"  # a new job, not the finished one of that id
        print(stub.SubmitProof(r, timeout=600).job_id)
        return 0
    if CMD[0] == "await":
        res = stub.AwaitProof(pb.AwaitProofRequest(job_id=CMD[1]), timeout=1800)
        return save(res, CMD[2])
    if CMD[0] == "bad":
        return 1 if bad() else 0
    if CMD[0] == "status":
        return status()
    sys.exit("unknown command " + CMD[0])


sys.exit(main())
