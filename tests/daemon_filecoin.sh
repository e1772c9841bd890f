#!/usr/bin/env bash
# The daemon proves Filecoin requests sent over gRPC by a client in another
# language (tests/daemon_filecoin.py: Python, Debian's grpcio, stubs made
# from proto/cuzk/v1/proving.proto), filled the way Curio fills them, at
# 2 KiB: gen-vanilla inputs, `filecoin setup` test keys, the CPU device.
# Every proof is checked with `cuzk filecoin verify`. Then bad requests
# (refused naming the field; a tampered vanilla proof fails the job), a
# missing parameter file (refused naming it), GetStatus listing the keys,
# and a restart in the middle: kill -9 right after jobs were accepted, and
# the next daemon proves them under their ids. The cuzk client's own
# Filecoin requests (cuzk submit --public, cuzk bench batch --public) are
# checked the same way, and its bad flags exit 2 naming the flag.
# Usage: daemon_filecoin.sh <cuzk binary> <source dir>
set -u
cuzk="$1"
src="$2"
work=$(mktemp -d)
daemon_pid=""
cleanup() {
    [ -n "$daemon_pid" ] && kill -9 "$daemon_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT
fail=0
py=python3
python3 -c 'import grpc, grpc_tools.protoc' 2>/dev/null || py=/usr/bin/python3
if ! "$py" -c 'import grpc, grpc_tools.protoc' 2>/dev/null; then
    echo "FAIL: no Python gRPC (tools/install-deps.sh installs python3-grpcio, python3-grpc-tools)"
    exit 1
fi
params="$work/params" in="$work/in" out="$work/out"
mkdir -p "$params" "$in" "$out" "$work/srs"
sock="$work/cuzk.sock"
client() { "$py" "$src/tests/daemon_filecoin.py" "$src/proto" "$sock" "$in" "$out" "$@"; }

# run DESCRIPTION CMD...: CMD must exit 0.
run() {
    local what="$1"
    shift
    if "$@" >"$work/log" 2>&1; then
        echo "ok: $what"
    else
        echo "FAIL: $what"
        sed 's/^/    /' "$work/log"
        fail=1
    fi
}

kinds="winning-post window-post snap-deals"
[ "${CUZK_FIL_POREP:-1}" = 1 ] && kinds="$kinds porep"
for kind in $kinds; do
    extra=""
    [ "$kind" = window-post ] && extra="--sectors 3" # two partitions: 2 + 1 sectors
    run "$kind: gen-vanilla" "$cuzk" filecoin gen-vanilla --kind $kind --sector-size 2KiB \
        --seed 7 $extra --out "$in/$kind"
    [ "$kind" = snap-deals ] && continue # its keys come after the missing-file check
    run "$kind: setup" "$cuzk" filecoin setup --kind $kind --sector-size 2KiB \
        --params-dir "$params" --seed 3
done
# WindowPoSt partition k's own public values (Curio proves one partition a
# request): its sectors and its index
for k in 0 1; do
    "$py" - "$in/window-post/public.json" "$in/window-post/public-$k.json" $k <<'EOF'
import json, sys
p = json.load(open(sys.argv[1]))
k = int(sys.argv[3])
p["sectors"] = p["sectors"][2 * k:2 * k + 2]
p["partition"] = k
json.dump(p, open(sys.argv[2], "w"))
EOF
done

start_daemon() {
    "$cuzk" daemon --device cpu --listen "unix://$sock" --set daemon.journal="$work/journal.db" \
        --set srs.dir="$work/srs" --set srs.filecoin_params="$params" \
        --set gpus.workers_per_gpu=1 --set logging.level=debug >>"$work/daemon.log" 2>&1 &
    daemon_pid=$!
    for _ in $(seq 1 300); do
        grep -q "listening on" "$work/daemon.log" 2>/dev/null && [ -S "$sock" ] && return 0
        sleep 0.1
    done
    echo "FAIL: the daemon did not start"
    sed 's/^/    /' "$work/daemon.log"
    fail=1
    return 1
}

# verify NAME PUBLIC: `cuzk filecoin verify` accepts OUT/NAME.proof
verify() {
    run "$1: cuzk filecoin verify" "$cuzk" filecoin verify --public "$2" --params-dir "$params" \
        "$out/$1.proof"
}

start_daemon || exit 1
# no SnapDeals keys yet: refused at submit, naming the file
if client prove snap-deals >"$work/log" 2>&1 || ! grep -q "v28-empty-sector-update" "$work/log"
then
    echo "FAIL: snap-deals without its parameters"
    sed 's/^/    /' "$work/log"
    fail=1
else
    echo "ok: snap-deals without its parameters: refused naming the file"
fi
run "snap-deals: setup" "$cuzk" filecoin setup --kind snap-deals --sector-size 2KiB \
    --params-dir "$params" --seed 3

run "winning-post: Prove" client prove winning-post
verify winning-post "$in/winning-post/public.json"
for k in 0 1; do
    run "window-post partition $k: Prove" client prove window-post $k
    verify window-post-$k "$in/window-post/public-$k.json"
done
run "snap-deals: Prove" client prove snap-deals
verify snap-deals "$in/snap-deals/public.json"
if [ "${CUZK_FIL_POREP:-1}" = 1 ]; then
    run "porep: Prove (Curio's envelope)" client prove porep
    verify porep "$in/porep/public.json"
fi
run "bad requests" client bad
cat "$work/log" | sed 's/^/    /'
# cuzk submit: WindowPoSt partition 1 (public-1.json names it; its one
# sector is the third), awaited and verified
wd_files=($(ls "$in"/window-post/sector-*.vproof | sort -V))
run "window-post partition 1: cuzk submit --wait" "$cuzk" submit --addr "unix://$sock" \
    --kind window-post --public "$in/window-post/public-1.json" --vanilla "${wd_files[2]}" \
    --wait --proof-out "$out/cli-window-post-1.proof"
verify cli-window-post-1 "$in/window-post/public-1.json"
# cuzk bench batch: three WinningPoSt requests, every one completed
run "winning-post: cuzk bench batch --n 3" "$cuzk" bench batch --addr "unix://$sock" \
    --kind winning-post --public "$in/winning-post/public.json" \
    --vanilla "$in"/winning-post/sector-*.vproof --n 3 --concurrency 2
grep -q '"kind":"winning-post".*"completed":3,' "$work/log" ||
    { echo "FAIL: bench batch did not complete 3 proofs"; sed 's/^/    /' "$work/log"; fail=1; }
# cuzk bench single --every: the calls paced (the WinningPoSt side of a
# mixed load): three due at 0, 0.5 and 1 s, so the run lasts over 1 s
run "winning-post: cuzk bench single --every 0.5 --n 3" "$cuzk" bench single \
    --addr "unix://$sock" --kind winning-post --public "$in/winning-post/public.json" \
    --vanilla "$in"/winning-post/sector-*.vproof --n 3 --every 0.5
grep '"wall_s"' "$work/log" | "$py" -c '
import json, sys
j = json.loads(sys.stdin.readline())
ok = j["bench"] == "single" and j["completed"] == 3 and j["every_s"] == 0.5 \
    and j["wall_s"] >= 1.0 and j["lat_max_ms"] >= j["lat_p99_ms"] >= j["lat_median_ms"] > 0
sys.exit(0 if ok else 1)' ||
    { echo "FAIL: bench single --every: not paced or no p99"; sed 's/^/    /' "$work/log"; fail=1; }
# expect_usage DESCRIPTION TEXT CMD...: CMD exits 2, its stderr naming TEXT
expect_usage() {
    local what="$1" text="$2"
    shift 2
    "$@" >/dev/null 2>"$work/log"
    local rc=$?
    if [ $rc = 2 ] && grep -q -e "$text" "$work/log"; then
        echo "ok: $what: exit 2, '$(head -1 "$work/log")'"
    else
        echo "FAIL: $what: exit $rc, expected 2 naming '$text'"
        sed 's/^/    /' "$work/log"
        fail=1
    fi
}
wp=(--addr "unix://$sock" --public "$in/winning-post/public.json" --vanilla
    "$in"/winning-post/sector-*.vproof)
expect_usage "submit --partition on a WinningPoSt" "--partition" "$cuzk" submit "${wp[@]}" \
    --partition 1
expect_usage "submit --registered-proof x" "--registered-proof" "$cuzk" submit "${wp[@]}" \
    --registered-proof x
expect_usage "submit --kind not the public values'" "--kind" "$cuzk" submit "${wp[@]}" \
    --kind window-post
expect_usage "submit --public missing" "--public" "$cuzk" submit --addr "unix://$sock" \
    --kind winning-post --vanilla "${wd_files[0]}"
expect_usage "bench batch --every (single only)" "--every" "$cuzk" bench batch "${wp[@]}" \
    --every 30
expect_usage "bench single --every 0" "--every" "$cuzk" bench single "${wp[@]}" --every 0
expect_usage "bench batch --vanilla without a file" "--vanilla" "$cuzk" bench batch \
    --addr "unix://$sock" --public "$in/winning-post/public.json" --vanilla
expect_usage "daemon refuses a WindowPoSt number for WinningPoSt" "registered_proof 5" \
    "$cuzk" submit "${wp[@]}" --registered-proof 5
run "GetStatus" client status
grep -q "key v28-proof-of-spacetime-fallback" "$work/log" ||
    { echo "FAIL: GetStatus does not list the PoSt key"; sed 's/^/    /' "$work/log"; fail=1; }

# A restart in the middle: three jobs accepted (new request ids: the
# finished ones above would be answered from the journal), kill -9, and
# the next daemon resumes them from the journal.
rm -f "$out"/*.proof
ids=()
for k in 0 1; do
    id=$(client submit window-post $k 2>"$work/log") || { cat "$work/log"; fail=1; }
    ids+=("$id")
done
kill -9 "$daemon_pid"
wait "$daemon_pid" 2>/dev/null
daemon_pid=""
rm -f "$sock"
start_daemon || exit 1
for k in 0 1; do
    run "after a restart: AwaitProof window-post $k (job ${ids[$k]})" \
        client await "${ids[$k]}" window-post-$k
    verify window-post-$k "$in/window-post/public-$k.json"
done
grep -q "resumed" "$work/daemon.log" ||
    echo "note: every job had finished before the kill (nothing to resume)"
kill -TERM "$daemon_pid"
wait "$daemon_pid" 2>/dev/null
daemon_pid=""
[ "$fail" = 0 ] && echo "daemon_filecoin: all passed"
exit $fail
