#!/usr/bin/env bash
# One run of the CUDA checks on a GPU machine (an H200 with CUDA 13.0 and
# CMake; no network, no apt needed): configure (Release, CUDA on, ptxas
# register report), build with every core, ctest -R cuda, then
# compute-sanitizer memcheck on test_cuda_arith at a small size. Prints a
# summary table last and exits non-zero when a step failed.
#
#   tools/gpu_run.sh            (from anywhere; the repository is this script's)
#
# cmocka and cJSON: when .debs/*.deb exist (tools/fetch_gpu_debs.sh makes
# them; carry the ignored folder .debs along), they are unpacked with
# dpkg -x into /tmp/cuzk-debs and CMake is pointed there; otherwise the
# system's are used.
# Environment: SKIP_MEMCHECK (set: no memcheck step), OUT (log folder, default /tmp/cuzk-gpu-logs), BUILD (build
# folder, default /tmp/cuzk-build-gpu), JOBS (default: all cores),
# SANITIZER_ITERS (test size under compute-sanitizer, default 257),
# CUZK_TEST_SEED (passed on to the tests).
# Logs: env.log configure.log build.log ctest.log sanitizer.log
# registers.txt (registers and spills per kernel) summary.txt.
set -u -o pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
logs=${OUT:-/tmp/cuzk-gpu-logs}
build=${BUILD:-/tmp/cuzk-build-gpu}
jobs=${JOBS:-$(nproc)}
san_iters=${SANITIZER_ITERS:-257}
prefix=/tmp/cuzk-debs
mkdir -p "$logs"
export PATH="/usr/local/cuda/bin:$PATH"

step_names=()
step_results=()
step_secs=()
failed=0

# step NAME LOG COMMAND...: runs COMMAND with its output in $logs/LOG.
step() {
    local name=$1 log=$2
    shift 2
    local t0=$SECONDS rc
    echo "== $name (log: $logs/$log)"
    "$@" >"$logs/$log" 2>&1
    rc=$?
    step_names+=("$name")
    step_secs+=($((SECONDS - t0)))
    if [ $rc -eq 0 ]; then
        step_results+=("ok")
    else
        step_results+=("FAILED (rc $rc)")
        failed=1
        tail -n 30 "$logs/$log"
    fi
    return $rc
}

skip() {
    step_names+=("$1")
    step_results+=("skipped: $2")
    step_secs+=(0)
}

show_env() {
    date -u
    uname -a
    nvidia-smi || true
    nvcc --version
    cmake --version
    command -v compute-sanitizer || echo "compute-sanitizer: not on PATH"
    echo "nproc: $(nproc)"
    git -C "$root" log -1 --oneline 2>/dev/null || true
}

configure() {
    local extra=()
    if compgen -G "$root/.debs/*.deb" >/dev/null; then
        rm -rf "$prefix"
        mkdir -p "$prefix"
        for f in "$root"/.debs/*.deb; do
            echo "dpkg -x $f"
            dpkg -x "$f" "$prefix" || return 1
        done
        local inc="$prefix/usr/include" lib
        lib=$(dirname "$(find "$prefix" -name 'libcmocka.so*' | head -n 1)")
        extra+=("-DCMAKE_PREFIX_PATH=$prefix/usr")
        [ -f "$inc/cmocka.h" ] && extra+=("-DCMOCKA_INCLUDE_DIR=$inc")
        [ -f "$inc/cjson/cJSON.h" ] && extra+=("-DCJSON_INCLUDE_DIR=$inc")
        [ -e "$lib/libcmocka.so" ] && extra+=("-DCMOCKA_LIBRARY=$lib/libcmocka.so")
        [ -e "$lib/libcjson.so" ] && extra+=("-DCJSON_LIBRARY=$lib/libcjson.so")
        export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
        echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"
    else
        echo "no .debs/*.deb: using the system's cmocka and cJSON"
    fi
    cmake -S "$root" -B "$build" -G "Unix Makefiles" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
        -DCUZK_CUDA_PTXAS_VERBOSE=ON "${extra[@]}"
}

# Kernel name, registers, stack frame and spills from ptxas -v in the build log.
registers() {
    printf '%-34s %5s %7s %8s %8s\n' kernel regs stack spill_st spill_ld
    awk '
        /Compiling entry function/ {
            k = $0; sub(/.*entry function '\''/, "", k); sub(/'\''.*/, "", k)
            if (match(k, /selftest_[a-z0-9_]+/)) k = substr(k, RSTART, RLENGTH)
        }
        /bytes stack frame/ { st = $1; ss = $5; sl = $9 }
        /Used [0-9]+ registers/ {
            for (i = 1; i <= NF; i++) if ($i == "Used") r = $(i + 1)
            if (k != "") printf "%-34s %5s %7s %8s %8s\n", k, r, st, ss, sl
            k = ""
        }' "$logs/build.log" | sort -u
}

sanitize() {
    local cs
    cs=$(command -v compute-sanitizer ||
        ls /usr/local/cuda*/bin/compute-sanitizer /usr/local/cuda*/compute-sanitizer/compute-sanitizer \
            /opt/nvidia/*/compute-sanitizer 2>/dev/null | head -n 1)
    if [ -z "$cs" ]; then
        echo "compute-sanitizer not found"
        return 1
    fi
    echo "$cs --tool memcheck, CUZK_TEST_ITERS=$san_iters"
    CUZK_TEST_ITERS=$san_iters "$cs" --tool memcheck --error-exitcode 1 "$build/bin/test_cuda_arith"
}

cd "$root" || exit 1
step "environment" env.log show_env
if step "configure" configure.log configure; then
    # --output-sync keeps each unit's ptxas report in one piece for registers().
    if step "build (-j$jobs)" build.log cmake --build "$build" -j"$jobs" -- --output-sync=target; then
        registers >"$logs/registers.txt" 2>&1
        step "ctest -R cuda" ctest.log ctest --test-dir "$build" -R cuda --output-on-failure -V
        if [ -n "${SKIP_MEMCHECK:-}" ]; then
            skip "memcheck" "SKIP_MEMCHECK set"
        else
            step "memcheck (CUZK_TEST_ITERS=$san_iters)" sanitizer.log sanitize
        fi
    else
        skip "ctest -R cuda" "build failed"
        skip "memcheck" "build failed"
    fi
else
    skip "build" "configure failed"
fi

{
    echo
    echo "cuzk GPU run: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), logs in $logs"
    grep -h "test_cuda_arith: device\|CUZK_TEST_SEED\|no GPU" "$logs/ctest.log" 2>/dev/null | head -n 3
    grep -h "ERROR SUMMARY" "$logs/sanitizer.log" 2>/dev/null | tail -n 1
    if [ -s "$logs/registers.txt" ]; then
        echo
        cat "$logs/registers.txt"
    fi
    echo
    printf '%-38s %-22s %6s\n' step result seconds
    printf '%-38s %-22s %6s\n' ---- ------ -------
    for i in "${!step_names[@]}"; do
        printf '%-38s %-22s %6s\n' "${step_names[$i]}" "${step_results[$i]}" "${step_secs[$i]}"
    done
} | tee "$logs/summary.txt"
exit $failed
