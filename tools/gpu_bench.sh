#!/usr/bin/env bash
# GPU checks and benchmarks after tools/gpu_run.sh built the tree (same
# BUILD and OUT folders): a small prove under compute-sanitizer memcheck,
# GPU-vs-CPU proofs (byte-identical, both conventions, several sizes), then
# the CUDA benchmarks. Each step's output goes to $OUT/bench-<name>.log; a
# table of step results comes last. BENCH_STEPS picks steps by name
# (default: all), e.g. BENCH_STEPS="prove-check ntt".
set -u -o pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
logs=${OUT:-/tmp/cuzk-gpu-logs}
build=${BUILD:-/tmp/cuzk-build-gpu}
cuzk=$build/bin/cuzk
want=${BENCH_STEPS:-all}
mkdir -p "$logs"
export PATH="/usr/local/cuda/bin:$PATH"
if [ -d /tmp/cuzk-debs ]; then
    lib=$(dirname "$(find /tmp/cuzk-debs -name 'libcmocka.so*' | head -n 1)")
    export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi

names=()
results=()
secs=()

run_step() {
    local name=$1
    shift
    case " $want " in *" all "* | *" $name "*) ;; *) return 0 ;; esac
    local t0=$SECONDS rc
    echo "== $name"
    "$@" >"$logs/bench-$name.log" 2>&1
    rc=$?
    names+=("$name")
    secs+=($((SECONDS - t0)))
    if [ $rc -eq 0 ]; then results+=("ok"); else results+=("FAILED (rc $rc)"); tail -n 20 "$logs/bench-$name.log"; fi
}

memcheck_prove() {
    local cs
    cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n 1)
    "$cs" --tool memcheck --error-exitcode 1 "$cuzk" bench prove --device cuda --log 8 --repeats 1 --check
}

prove_check() {
    local fmt k
    for fmt in bellperson zkey; do
        for k in 2 3 5 9 12 16 20; do
            "$cuzk" bench prove --device cuda --format $fmt --log $k --repeats 1 --check || return 1
        done
    done
}

# The streaming path (bases in pinned host memory, chunked): budgets below
# what the resident key needs.
stream_check() {
    local fmt
    for fmt in bellperson zkey; do
        "$cuzk" bench prove --device cuda --format $fmt --log 16 --repeats 1 --check --vram-budget 96MiB || return 1
        "$cuzk" bench prove --device cuda --format $fmt --log 20 --repeats 1 --check --vram-budget 1GiB || return 1
    done
}

run_step memcheck-prove memcheck_prove
run_step stream-check stream_check
run_step prove-check prove_check
run_step ntt "$cuzk" bench ntt --device cuda --log 16 --log 20 --log 24 --log 27 --repeats 7
run_step msm-g1 "$cuzk" bench msm --device cuda --log 16 --log 20 --log 24 --log 26 --repeats 5
run_step msm-g1-witness "$cuzk" bench msm --device cuda --scalars witness --log 24 --log 26 --repeats 5
run_step msm-g2 "$cuzk" bench msm --device cuda --g2 --log 16 --log 20 --log 24 --repeats 5
run_step prove-20 "$cuzk" bench prove --device cuda --log 20 --repeats 5 --check

echo
for f in "$logs"/bench-*.log; do
    grep -h '^{' "$f" 2>/dev/null
done | tee "$logs/bench.jsonl" | cut -c1-220
echo
printf '%-22s %-18s %6s\n' step result seconds
for i in "${!names[@]}"; do
    printf '%-22s %-18s %6s\n' "${names[$i]}" "${results[$i]}" "${secs[$i]}"
done
