#!/usr/bin/env bash
# `cuzk bench filecoin` at 2 KiB on the CPU: real sealed inputs through the
# engine for window-post (one and two partitions), snap-deals-poseidon,
# winning-post (also with its witnesses packed) and porep (made packed)
# (CUZK_BENCH_FIL_POREP=0 skips the PoRep: 2.7 M constraints, minutes
# instrumented); each run exits 0 and its JSON line says every proof was
# verified, with the partitions, proofs and sectors asked for. Bad flags
# and sizes without a sealer exit 2 naming the flag.
# Usage: bench_filecoin.sh <cuzk binary>
set -u
cuzk="$1"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

# run WHAT WANT_JSON_CHECKS ARGS...: exit 0 and the JSON line's members
# (python expressions over j) all true.
run() {
    local what="$1" checks="$2"
    shift 2
    "$cuzk" bench filecoin --device cpu "$@" >"$work/out" 2>"$work/err"
    local got=$?
    if [ "$got" != 0 ]; then
        echo "FAIL: $what: exit $got"
        sed 's/^/    /' "$work/err"
        fail=1
        return
    fi
    if ! head -1 "$work/out" | python3 -c "
import json, sys
j = json.loads(sys.stdin.readline())
ok = j['bench'] == 'filecoin' and j['all_verified'] is True and j['s_per_proof'] > 0 \
    and j['stage_ms']['witness'] > 0 and j['constraints'] > 0 and ($checks)
sys.exit(0 if ok else 1)"; then
        echo "FAIL: $what: the JSON does not say what was asked: $checks"
        sed 's/^/    /' "$work/out"
        fail=1
        return
    fi
    if ! grep -q "every proof verified" "$work/out"; then
        echo "FAIL: $what: no table"
        fail=1
        return
    fi
    echo "ok: $what"
}

# expect2 WHAT NEEDLE ARGS...: exit 2 and stderr naming NEEDLE.
expect2() {
    local what="$1" needle="$2"
    shift 2
    "$cuzk" bench filecoin "$@" >"$work/out" 2>"$work/err"
    local got=$?
    if [ "$got" != 2 ] || ! grep -q -- "$needle" "$work/err"; then
        echo "FAIL: $what: exit $got, want 2 naming '$needle'"
        sed 's/^/    /' "$work/err"
        fail=1
    else
        echo "ok: $what (exit 2)"
    fi
}

run "window-post 2KiB, 3 proofs on 2 workers (a spread, not a rate)" \
    "j['kind'] == 'window-post' and j['partitions'] == 1 and j['proofs'] == 3 and j['sectors'] == 2 and j['steady'] is False" \
    --kind window-post --sector-size 2KiB --proofs 3 --workers 2
run "window-post 2KiB, 2 partitions of distinct sectors, 2 in flight, circuit cache" \
    "j['partitions'] == 2 and j['real_partitions'] == 2 and j['sectors'] == 4 and j['circuit'] == 'recorded' and j['steady'] is True" \
    --kind window-post --sector-size 2KiB --partitions 2 --proofs 2 --in-flight 2 \
    --circuit-cache "$work" --events "$work/events.jsonl"
if ! ls "$work"/*.cuzk-r1.ccs >/dev/null 2>&1 || ! [ -s "$work/events.jsonl" ]; then
    echo "FAIL: window-post: no circuit cache file or event log written"
    fail=1
fi
run "window-post 2KiB from the circuit cache" "j['circuit'] == 'cached'" \
    --kind window-post --sector-size 2KiB --proofs 1 --circuit-cache "$work"
run "snap-deals-poseidon 2KiB" "j['kind'] == 'snap-deals-poseidon' and j['public_inputs'] == 4" \
    --kind snap-deals-poseidon --sector-size 2KiB --proofs 2
run "winning-post 2KiB, witnesses packed (--witness-pack always)" \
    "j['witnesses_packed'] == 2 and 0 < j['witness_pack_mib'] <= 1.02 * j['variables'] * 32 / 2**20" \
    --kind winning-post --sector-size 2KiB --proofs 2 --in-flight 1 --witness-pack always
run "winning-post 2KiB" \
    "j['kind'] == 'winning-post' and j['partitions'] == 1 and j['sectors'] == 1 and j['steady'] is True" \
    --kind winning-post --sector-size 2KiB --proofs 2 --in-flight 1
if [ "${CUZK_BENCH_FIL_POREP:-1}" != 0 ]; then
    run "porep 2KiB, its witness made packed (--witness-pack always)" \
        "j['kind'] == 'porep' and j['seal_proof'] == 'StackedDrg2KiBV1_1' and j['partitions'] == 1 and j['witnesses_packed'] == 1 and j['witness_pack_mib'] < 0.2 * j['variables'] * 32 / 2**20" \
        --kind porep --sector-size 2KiB --proofs 1 --witness-pack always
else
    echo "skip: porep 2KiB (CUZK_BENCH_FIL_POREP=0)"
fi

# The mixed load (issue 21's shape at 2 KiB): window-post proofs alone,
# then with a winning-post job every 0.3 s beside them; the second JSON
# line reports the mixed run against the first, its jobs' latencies, and
# its own event log, where the winning-post jobs carry their kind.
run "window-post 2KiB with winning-post mixed in" "j['kind'] == 'window-post'" \
    --kind window-post --sector-size 2KiB --proofs 3 --mix winning-post --mix-every 0.3 \
    --events "$work/mix.jsonl"
if ! sed -n 2,99p "$work/out" | grep '^{' | python3 -c "
import json, sys
j = json.loads(sys.stdin.readline())
m = j['mix_latency_s']
ok = j['bench'] == 'filecoin-mix' and j['mix_kind'] == 'winning-post' and j['every_s'] == 0.3 \
    and j['mix_jobs'] >= 1 and 0 < m['p50'] <= m['p99'] <= m['max'] and m['mean'] > 0 \
    and j['baseline_s_per_proof'] > 0 and j['s_per_proof'] > 0 and j['all_verified'] is True \
    and j['mix_stage_ms']['prove'] > 0 and j['target_p99_s'] is None \
    and j['mix_preload'] is True
sys.exit(0 if ok else 1)"; then
    echo "FAIL: mixed run: no filecoin-mix line with the stream's figures"
    sed 's/^/    /' "$work/out"
    fail=1
elif ! grep -q '"kind":"winning-post"' "$work/mix-mix0.3s.jsonl" 2>/dev/null ||
    ! grep -q '"kind":"window-post"' "$work/mix-mix0.3s.jsonl"; then
    echo "FAIL: mixed run: its event log lacks the jobs' kinds"
    fail=1
else
    echo "ok: mixed run reported, event log with both kinds"
fi

expect2 "no --kind" "--kind" --sector-size 2KiB
expect2 "--mix-every without --mix" "--mix-every" --kind window-post --sector-size 2KiB \
    --mix-every 5
expect2 "--mix-every 0" "--mix-every" --kind window-post --sector-size 2KiB --mix winning-post \
    --mix-every 0
expect2 "--mix-every 1,x" "--mix-every" --kind window-post --sector-size 2KiB \
    --mix winning-post --mix-every 1,x
expect2 "--mix nope" "--mix" --kind window-post --sector-size 2KiB --mix nope
expect2 "--mix-preload maybe" "--mix-preload" --kind window-post --sector-size 2KiB \
    --mix winning-post --mix-preload maybe
expect2 "--mix-preload without --mix" "--mix-preload" --kind window-post --sector-size 2KiB \
    --mix-preload off
expect2 "unknown kind" "--kind" --kind nope --sector-size 2KiB
expect2 "--witness-pack sometimes" "--witness-pack" --kind winning-post --sector-size 2KiB \
    --witness-pack sometimes
expect2 "unknown size" "--sector-size" --kind porep --sector-size 3KiB
expect2 "--proofs 0" "--proofs" --kind porep --sector-size 2KiB --proofs 0
expect2 "--partitions 65" "--partitions" --kind window-post --sector-size 2KiB --partitions 65
expect2 "--workers x" "--workers" --kind porep --sector-size 2KiB --workers x
expect2 "--vram-budget junk" "--vram-budget" --kind porep --sector-size 2KiB --vram-budget junk
expect2 "--device gpu" "--device" --kind porep --sector-size 2KiB --device gpu
expect2 "unknown flag" "--frobnicate" --kind porep --sector-size 2KiB --frobnicate 1
expect2 "a flag without its value" "--seed" --kind porep --sector-size 2KiB --seed
expect2 "porep 1.2 at 32GiB (no sparse non-interactive seal)" "inputs" \
    --kind porep --sector-size 32GiB --api 1.2

exit $fail
