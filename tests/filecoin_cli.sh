#!/usr/bin/env bash
# Filecoin proofs end to end through the CLI, at 2 KiB: gen-vanilla (real
# sealing) -> setup (insecure test keys under the v28 names) -> prove ->
# verify, for each kind the CLI proves; then tampered proofs, vanilla
# proofs and public values are refused with the documented exit codes
# (1 invalid, 2 bad input).
# Usage: filecoin_cli.sh <cuzk binary> [test data folder]
set -u
cuzk="$1"
CUZK_TESTDATA="${2:-}"
dev="${CUZK_FIL_DEVICE:-cpu}" # the device proofs are made on (cpu, cuda)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
params="$work/params"
mkdir -p "$params"

# expect CODE DESCRIPTION CMD...: runs CMD, checks its exit code.
expect() {
    local want="$1" what="$2"
    shift 2
    "$@" >"$work/out" 2>&1
    local got=$?
    if [ "$got" != "$want" ]; then
        echo "FAIL: $what: exit $got, want $want"
        sed 's/^/    /' "$work/out"
        fail=1
    else
        echo "ok: $what (exit $got)"
    fi
}

# flip BYTE_OFFSET FILE: xor one byte with 0x01.
flip() {
    python3 - "$1" "$2" <<'EOF'
import sys
off, path = int(sys.argv[1]), sys.argv[2]
b = bytearray(open(path, 'rb').read())
b[off] ^= 1
open(path, 'wb').write(b)
EOF
}

for kind in ${KINDS:-window-post winning-post}; do
    d="$work/$kind"
    sectors=""
    [ "$kind" = window-post ] && sectors="--sectors 3" # two partitions of 2
    expect 0 "$kind: gen-vanilla" "$cuzk" filecoin gen-vanilla --kind $kind --sector-size 2KiB \
        --seed 7 $sectors --out "$d"
    expect 0 "$kind: setup" "$cuzk" filecoin setup --kind $kind --sector-size 2KiB \
        --params-dir "$params" --seed 3
    vanilla=$(ls "$d"/sector-*.vproof | sort -V)
    expect 0 "$kind: prove" "$cuzk" filecoin prove --public "$d/public.json" --vanilla $vanilla \
        --params-dir "$params" --device "$dev" --out "$d/proof.bin"
    expect 0 "$kind: verify" "$cuzk" filecoin verify --public "$d/public.json" \
        --params-dir "$params" "$d/proof.bin"
    n=$(stat -c %s "$d/proof.bin")
    want=192
    [ "$kind" = window-post ] && want=384
    if [ "$n" != "$want" ]; then
        echo "FAIL: $kind: proof.bin has $n bytes, want $want"
        fail=1
    fi

    # a proof byte changed: invalid
    cp "$d/proof.bin" "$d/bad.bin"
    flip 100 "$d/bad.bin"
    expect 1 "$kind: tampered proof" "$cuzk" filecoin verify --public "$d/public.json" \
        --params-dir "$params" "$d/bad.bin"
    # other randomness: the proof is not of these challenges
    other=$(python3 -c "print('11'*31 + '00')")
    expect 1 "$kind: other randomness" "$cuzk" filecoin verify --public "$d/public.json" \
        --randomness "$other" --params-dir "$params" "$d/proof.bin"
    # a vanilla proof with one sibling hash changed: refused before proving
    first=$(echo $vanilla | cut -d' ' -f1)
    cp "$first" "$d/bad.vproof"
    flip 200 "$d/bad.vproof"
    rest=$(echo $vanilla | cut -d' ' -f2-)
    [ "$kind" = winning-post ] && rest=""
    expect 1 "$kind: tampered vanilla proof" "$cuzk" filecoin prove --public "$d/public.json" \
        --vanilla "$d/bad.vproof" $rest --params-dir "$params" --device "$dev" --out "$d/x.bin"
    # the vanilla proofs of other randomness: they do not fit the public values
    expect 1 "$kind: vanilla proofs of other challenges" "$cuzk" filecoin prove \
        --public "$d/public.json" --randomness "$other" --vanilla $vanilla \
        --params-dir "$params" --device "$dev" --out "$d/x.bin"
    # a truncated vanilla proof: bad input
    head -c 100 "$first" >"$d/short.vproof"
    expect 2 "$kind: truncated vanilla proof" "$cuzk" filecoin prove \
        --public "$d/public.json" --vanilla "$d/short.vproof" $rest --params-dir "$params" \
        --device "$dev" --out "$d/x.bin"
    # no parameters where it looks: bad input, naming the file
    expect 2 "$kind: missing parameters" "$cuzk" filecoin prove --public "$d/public.json" \
        --vanilla $vanilla --params-dir "$work/none" --device "$dev" --out "$d/x.bin"
    grep -q "missing v28-proof-of-spacetime-fallback" "$work/out" ||
        { echo "FAIL: the missing file is not named"; fail=1; }
    # a proof of the wrong length
    head -c 191 "$d/proof.bin" >"$d/short.bin"
    expect 2 "$kind: short proof file" "$cuzk" filecoin verify --public "$d/public.json" \
        --params-dir "$params" "$d/short.bin"
    [ -e "$d/x.bin" ] && { echo "FAIL: a refused prove left $d/x.bin"; fail=1; }
done

# PoRep: a sealed sector's C1 output (and Curio's envelope of it). 2.7 M
# constraints: skipped where proving is slow (sanitizer builds set
# CUZK_FIL_POREP=0; the C1 path is covered there by test_filecoin_c1).
if [ "${CUZK_FIL_POREP:-1}" = 1 ]; then
    d="$work/porep"
    expect 0 "porep: gen-vanilla" "$cuzk" filecoin gen-vanilla --kind porep --sector-size 2KiB \
        --seed 5 --out "$d"
    expect 0 "porep: setup" "$cuzk" filecoin setup --kind porep --sector-size 2KiB \
        --params-dir "$params" --seed 6
    # its witness made packed whatever the device (the CPU's prover
    # expands it): the proof verifies all the same
    expect 0 "porep: prove (Curio's envelope, --witness-pack always)" "$cuzk" filecoin prove \
        --public "$d/public.json" --vanilla "$d/c1.curio.json" --params-dir "$params" \
        --device "$dev" --witness-pack always --out "$d/proof.bin"
    if ! grep -q "witness .* s (packed, [0-9.]* MiB)" "$work/out"; then
        echo "FAIL: porep: --witness-pack always did not report a packed witness"
        sed 's/^/    /' "$work/out"
        fail=1
    fi
    expect 0 "porep: verify" "$cuzk" filecoin verify --public "$d/public.json" \
        --params-dir "$params" "$d/proof.bin"
    python3 - "$d/public.json" "$d/other.json" <<'EOF2'
import json, sys
p = json.load(open(sys.argv[1]))
p["seed"] = "44" * 31 + "00"
json.dump(p, open(sys.argv[2], "w"))
EOF2
    expect 1 "porep: other seed" "$cuzk" filecoin verify --public "$d/other.json" \
        --params-dir "$params" "$d/proof.bin"
    expect 1 "porep: C1 of other challenges" "$cuzk" filecoin prove --public "$d/other.json" \
        --vanilla "$d/c1.json" --params-dir "$params" --device "$dev" --out "$d/x.bin"
    python3 - "$d/public.json" "$d/wrongsector.json" <<'EOF2'
import json, sys
p = json.load(open(sys.argv[1]))
p["sector_id"] = p["sector_id"] + 1
json.dump(p, open(sys.argv[2], "w"))
EOF2
    expect 2 "porep: replica_id not of that sector" "$cuzk" filecoin verify \
        --public "$d/wrongsector.json" --params-dir "$params" "$d/proof.bin"
    sed 's/"seed":\[/"seed":[1,/' "$d/c1.json" >"$d/bad.json"
    expect 2 "porep: --witness-pack sometimes" "$cuzk" filecoin prove --public "$d/public.json" \
        --vanilla "$d/c1.curio.json" --params-dir "$params" --witness-pack sometimes \
        --out "$d/x.bin"
    expect 2 "porep: malformed C1" "$cuzk" filecoin prove --public "$d/public.json" \
        --vanilla "$d/bad.json" --params-dir "$params" --device "$dev" --out "$d/x.bin"
    [ -e "$d/x.bin" ] && { echo "FAIL: a refused prove left $d/x.bin"; fail=1; }
else
    echo "skip: porep (CUZK_FIL_POREP=0)"
fi

# SnapDeals: a sealed sector updated with new data, one PartitionProof per
# partition
for kind in ${SNAP_KINDS:-snap-deals snap-deals-poseidon}; do
    d="$work/$kind"
    expect 0 "$kind: gen-vanilla" "$cuzk" filecoin gen-vanilla --kind $kind --sector-size 2KiB \
        --seed 9 --out "$d"
    expect 0 "$kind: setup" "$cuzk" filecoin setup --kind $kind --sector-size 2KiB \
        --params-dir "$params" --seed 4
    vanilla=$(ls "$d"/partition-*.vproof | sort -V)
    expect 0 "$kind: prove" "$cuzk" filecoin prove --public "$d/public.json" --vanilla $vanilla \
        --params-dir "$params" --device "$dev" --out "$d/proof.bin"
    expect 0 "$kind: verify" "$cuzk" filecoin verify --public "$d/public.json" \
        --params-dir "$params" "$d/proof.bin"
    other=$(python3 -c "print('22'*31 + '00')")
    expect 1 "$kind: other comm_d_new" "$cuzk" filecoin verify --public "$d/public.json" \
        --comm-d-new "$other" --params-dir "$params" "$d/proof.bin"
    expect 1 "$kind: vanilla proof of other public values" "$cuzk" filecoin prove \
        --public "$d/public.json" --comm-r-new "$other" --vanilla $vanilla \
        --params-dir "$params" --device "$dev" --out "$d/x.bin"
    first=$(echo $vanilla | cut -d' ' -f1)
    cp "$first" "$d/bad.vproof"
    flip 100 "$d/bad.vproof" # an apex leaf or a leaf: the circuit refuses it
    expect 1 "$kind: tampered vanilla proof" "$cuzk" filecoin prove --public "$d/public.json" \
        --vanilla "$d/bad.vproof" --params-dir "$params" --device "$dev" --out "$d/x.bin"
    head -c 50 "$first" >"$d/short.vproof"
    expect 2 "$kind: truncated vanilla proof" "$cuzk" filecoin prove \
        --public "$d/public.json" --vanilla "$d/short.vproof" --params-dir "$params" \
        --device "$dev" --out "$d/x.bin"
    [ -e "$d/x.bin" ] && { echo "FAIL: a refused prove left $d/x.bin"; fail=1; }
done

# CUZK_SLOW=1: PoRep of a real 8 MiB sealing (one partition, about 18 M
# constraints) through setup, prove and verify; and the 32 GiB inputs
# (sparse sealing) of every kind.
if [ "${CUZK_SLOW:-0}" = 1 ]; then
    d="$work/porep8m"
    expect 0 "porep 8MiB: gen-vanilla" "$cuzk" filecoin gen-vanilla --kind porep \
        --sector-size 8MiB --seed 8 --out "$d"
    expect 0 "porep 8MiB: setup" "$cuzk" filecoin setup --kind porep --sector-size 8MiB \
        --params-dir "$params" --seed 8
    expect 0 "porep 8MiB: prove" "$cuzk" filecoin prove --public "$d/public.json" \
        --vanilla "$d/c1.json" --params-dir "$params" --device "$dev" --out "$d/proof.bin"
    expect 0 "porep 8MiB: verify" "$cuzk" filecoin verify --public "$d/public.json" \
        --params-dir "$params" "$d/proof.bin"
    for kind in porep winning-post; do
        expect 0 "$kind 32GiB: gen-vanilla (sparse)" "$cuzk" filecoin gen-vanilla --kind $kind \
            --sector-size 32GiB --out "$work/$kind-32g"
    done
    expect 0 "window-post 32GiB: gen-vanilla of 3 sectors (sparse)" "$cuzk" filecoin \
        gen-vanilla --kind window-post --sector-size 32GiB --sectors 3 --out "$work/wp-32g"
    for kind in snap-deals snap-deals-poseidon; do
        expect 0 "$kind 32GiB: gen-vanilla (sparse sealing, sparse update)" "$cuzk" filecoin \
            gen-vanilla --kind $kind --sector-size 32GiB --out "$work/$kind-32g"
    done
else
    echo "skip: porep 8MiB and 32GiB inputs (CUZK_SLOW=1 runs them)"
fi

# a 32 GiB sector's real vanilla proof offered for a 2 KiB proof
if [ -n "${CUZK_TESTDATA:-}" ]; then
    expect 2 "vanilla proof of another sector size" "$cuzk" filecoin prove \
        --public "$work/window-post/public.json" \
        --vanilla "$CUZK_TESTDATA/filecoin/circuits/post.vproof" "$CUZK_TESTDATA/filecoin/circuits/post.vproof" "$CUZK_TESTDATA/filecoin/circuits/post.vproof" \
        --params-dir "$params" --device "$dev" --out "$work/x.bin"
fi
expect 2 "unknown kind" "$cuzk" filecoin prove --kind nope --sector-size 2KiB --vanilla x --out y
exit $fail
