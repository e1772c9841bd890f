#!/usr/bin/env bash
# External reference check: proofs made by cuzk (random r, s), for the shared
# snarkjs cases and for keys from cuzk's own test setup, must pass
# `snarkjs groth16 verify` 0.7.6; a tampered public signal must not.
# snarkjs is installed from npm into a cache folder (never into the repo).
# Usage: snarkjs_verify.sh <cuzk binary> <shared testdata dir>
set -euo pipefail
cuzk=$1
data=$2/snarkjs
cache=${CUZK_NPM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/cuzk-npm}
snarkjs=$cache/node_modules/.bin/snarkjs
if [ ! -x "$snarkjs" ]; then
    echo "installing snarkjs@0.7.6 into $cache"
    mkdir -p "$cache"
    npm install --prefix "$cache" --no-audit --no-fund snarkjs@0.7.6 >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# snarkjs colours its log; strip the escapes before matching its verdict
verify() { "$snarkjs" groth16 verify "$@" 2>&1 | sed 's/\x1b\[[0-9;]*m//g' || true; }
check_ok() { # vk public proof
    out=$(verify "$1" "$2" "$3")
    if ! grep -q "snarkJS: OK!" <<<"$out"; then
        echo "FAIL: snarkjs rejected $3: $out"
        exit 1
    fi
}
check_bad() {
    out=$(verify "$1" "$2" "$3")
    if grep -q "snarkJS: OK!" <<<"$out"; then
        echo "FAIL: snarkjs accepted a tampered public input for $3"
        exit 1
    fi
}

n=0
for case in multiplier sha256_64; do
    d=$data/$case
    "$cuzk" prove "$d/$case.zkey" "$d/witness.wtns" "$work/p.json" "$work/pub.json"
    check_ok "$d/verification_key.json" "$work/pub.json" "$work/p.json"
    sed '0,/"[0-9]/s/"\([0-9]*\)"/"\1 9"/; s/ 9"/9"/' "$work/pub.json" >"$work/bad.json"
    cmp -s "$work/pub.json" "$work/bad.json" && { echo "FAIL: tampering changed nothing"; exit 1; }
    check_bad "$d/verification_key.json" "$work/bad.json" "$work/p.json"
    n=$((n + 1))
done
echo "ok: cuzk proofs for the shared keys pass snarkjs verify ($n cases)"

# cuzk's own insecure setup: key, vkey JSON and proof all from cuzk.
d=$data/multiplier
"$cuzk" setup --format zkey --seed 3 --vkey-json "$work/own_vk.json" "$d/multiplier.r1cs" "$work/own.zkey" 2>/dev/null
"$cuzk" prove "$work/own.zkey" "$d/witness.wtns" "$work/op.json" "$work/opub.json"
check_ok "$work/own_vk.json" "$work/opub.json" "$work/op.json"
# snarkjs reads cuzk's zkey itself: its vkey export and its own prover agree
"$snarkjs" zkey export verificationkey "$work/own.zkey" "$work/sj_vk.json" >/dev/null
check_ok "$work/sj_vk.json" "$work/opub.json" "$work/op.json"
echo "ok: proofs from cuzk's own setup pass snarkjs verify (and snarkjs reads the zkey)"
