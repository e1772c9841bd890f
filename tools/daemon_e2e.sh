#!/usr/bin/env bash
# The daemon end to end: a PoRep-shaped circuit and its INSECURE key in a
# registry, `cuzk daemon` serving it, `cuzk bench batch` proving through
# it over cuzk.v1 (every proof verified by the daemon before it answers),
# `cuzk status`, then SIGTERM. Used by tools/gpu_carried.sh (step daemon)
# and runnable anywhere:
#
#   tools/daemon_e2e.sh CUZK_BINARY [K] [PARTITIONS] [JOBS] [DEVICE] [WORKERS]
#
# K default 12, PARTITIONS 2, JOBS 4, DEVICE cpu|cuda (default: the
# daemon's choice), WORKERS per GPU default 2. Work files in $OUT (or a
# temporary folder); prints the batch's JSON summary and table last.
set -u -o pipefail
cuzk=${1:?usage: daemon_e2e.sh CUZK_BINARY [K] [PARTITIONS] [JOBS] [DEVICE] [WORKERS]}
k=${2:-12} parts=${3:-2} jobs=${4:-4} device=${5:-} workers=${6:-2}
work=$(mktemp -d "${OUT:-/tmp}/daemon-e2e.XXXXXX")
sock="$work/cuzk.sock"
pid=
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null
    rm -rf "$work/gen" "$work/srs" "$work"/*.db* 2>/dev/null
}
trap cleanup EXIT
fail() { echo "daemon_e2e: $*" >&2; [ -f "$work/daemon.log" ] && tail -20 "$work/daemon.log" >&2; exit 1; }

t0=$SECONDS
"$cuzk" gen-circuit --profile porep-32g --log-domain "$k" --partitions "$parts" "$work/gen" \
    >"$work/gen.log" 2>&1 || fail "gen-circuit failed"
mkdir -p "$work/srs"
"$cuzk" setup --format bellperson --seed 7 "$work/gen/circuit.r1cs" "$work/srs/porep.params" \
    >"$work/setup.log" 2>&1 || fail "setup failed"
cp "$work/gen/circuit.ccs" "$work/srs/porep.ccs"
echo "daemon_e2e: circuit and key at 2^$k in $((SECONDS - t0)) s"

# A submit carries every partition's .wtns: the daemon's message limit
# (default 64 MiB) must hold them (2^20 x 4 partitions is 130 MB).
wbytes=0
for ((p = 0; p < parts; p++)); do
    wbytes=$((wbytes + $(stat -c %s "$work/gen/witness_$p.wtns")))
done
msg_mib=$((wbytes / 1048576 + 2))
[ $msg_mib -lt 64 ] && msg_mib=64
[ $msg_mib -gt 2047 ] && fail "the witnesses ($wbytes bytes) exceed gRPC's 2 GiB message limit"
cat >"$work/cuzk.toml" <<TOML
[daemon]
listen = "unix://$sock"
journal = "$work/journal.db"
max_message_bytes = "${msg_mib}MiB"
[srs]
dir = "$work/srs"
preload = ["porep"]
[gpus]
workers_per_gpu = $workers
TOML
"$cuzk" daemon --config "$work/cuzk.toml" ${device:+--device "$device"} >"$work/daemon.log" 2>&1 &
pid=$!
for _ in $(seq 1 600); do
    [ -S "$sock" ] && "$cuzk" status --addr "unix://$sock" >/dev/null 2>&1 && break
    kill -0 "$pid" 2>/dev/null || fail "the daemon exited"
    sleep 0.1
done
"$cuzk" status --addr "unix://$sock" >"$work/status-before.txt" 2>&1 || fail "status failed"
wit=()
for ((p = 0; p < parts; p++)); do wit+=("$work/gen/witness_$p.wtns"); done
"$cuzk" bench batch --addr "unix://$sock" --circuit porep --n "$jobs" --concurrency 4 "${wit[@]}" \
    >"$work/batch.log" 2>&1
rc=$?
"$cuzk" status --addr "unix://$sock" >"$work/status-after.txt" 2>&1
kill -TERM "$pid"
wait "$pid"
drc=$?
pid=
cat "$work/status-after.txt"
cat "$work/batch.log"
[ $rc -eq 0 ] || fail "bench batch exited $rc"
[ $drc -eq 0 ] || fail "the daemon exited $drc after SIGTERM"
echo "daemon_e2e: ok ($jobs jobs x $parts partitions at 2^$k, $((SECONDS - t0)) s in all)"
