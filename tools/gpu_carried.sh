#!/usr/bin/env bash
# GPU steps with binaries built on another machine and carried along (the
# device tool's carry [".devbin"]): saves the ~5-minute build on the GPU
# machine. .devbin/ holds cuzk-<variant> CLIs, optional test binaries and
# the shared libraries they need (libcjson, libcmocka) from the build host,
# loose or in .devbin/*.tar.gz (unpacked first: the carry holds 64 MiB).
#
#   STEPS="check ab-g1 ..." tools/gpu_carried.sh
#
# Steps (run in the order given, each under its own timeout, output in
# $OUT/<step>.log; a table of results comes last):
#   sanity     nvidia-smi, each binary starts (ldd, a small NTT)
#   tests      .devbin/test_cuda_* (GPU vs CPU kernels)
#   check      GPU proofs byte-identical to the CPU's (both conventions,
#              several sizes, resident and streamed) with cuzk-$NEW
#   ab-msm     G1 2^26 random and witness, G2 2^24 random: every variant
#              (build variants: tools/cuda_variant.sh NAME "-DKNOB=1")
#   ab-wit     witness-scalar MSMs at the 16 GiB chunk sizes (G1 2^22, G2
#              2^21) and G1 2^27 witness, G2 2^24 random: every variant
#   ab-ntt     NTT 2^20, 2^24, 2^27 with every variant
#   msm        G1 2^24, 2^26 random and witness, G2 2^20, 2^24 with cuzk-$NEW
#   ab-bins    the light bins' two methods (CUZK_MSM_BINS=xyzz, affine) with
#              cuzk-$NEW: G2 2^22, 2^24 and G1 2^24, 2^26 random, G1 2^26
#              witness, two rounds each
#   ab-env     one binary (cuzk-$NEW) under each value of an environment
#              knob: AB_VAR (default CUZK_MSM_ORDER) = each of AB_VALUES
#              (default "index size"; e.g. AB_VAR=CUZK_MSM_SEGS
#              AB_VALUES="pow2 wave"): G1 2^22, 2^24, 2^26, 2^27 random,
#              G1 2^26 witness, G2 2^24 random, two rounds each
#   ab-mix     one binary (cuzk-$NEW) under each value of AB_VAR (default
#              CUZK_MSM_ONES = each of "pieces wave"): G1 2^26 50/50,
#              49/49/2, 45/45/10 and witness scalars, G2 2^24 50/50, with
#              CUZK_MSM_TRACE's phases, two rounds each
#   ncu-bins   Nsight Compute of the G1 2^22 light-bins kernel with both
#              methods (cuzk-$NEW): time, warp instructions, active lanes
#              per warp, occupancy (what explained the first batch-affine
#              miss, stop 33)
#   wit-ab     the lone 32 GiB WindowPoSt witness in bench filecoin (one
#              worker, one in flight, 2 proofs) with cuzk-$BASE then
#              cuzk-$NEW on the same host, the circuit recorded once
#   ntt        NTT 2^16..2^27 with cuzk-$NEW
#   ncu-ntt    Nsight Compute sections of the 2^27 NTT kernels (cuzk-$BASE)
#   ncu-msm    Nsight Compute sections of the G1/G2 bucket kernels (cuzk-$NEW)
#   sass       opcode histogram of the hot kernels (cuobjdump of cuzk-$BASE)
#   stalls     warp stall reasons of the NTT pass and the G1 bucket kernel
#   prove24    the 2^24 prove: free VRAM, a 16 GiB and a 6 GiB budget
#   engine     jobs through the engine on the GPU, 1 vs 2 workers (cuzk-$NEW)
#   porep      cuzk bench porep, resident then streamed (POREP_K/P/N/SETUP)
#   filecoin   cuzk bench filecoin at FIL_SIZE (default 32GiB) on sparse-
#              sealed inputs: WinningPoSt latency, PoRep resident and at
#              a 16 GiB budget, WindowPoSt (FIL_KINDS picks; the headline
#              benchmark of issue 20; FIL_WP_INFLIGHT proofs in flight,
#              default 2; FIL_ARGS adds flags to every run, e.g.
#              "--witness-pack auto"), with nvidia-smi samples
#   pack-ab    issue 20's packed witnesses: cuzk bench filecoin --kind porep
#              at FIL_SIZE (PACK_N proofs, default 3) at a 16 GiB budget
#              (one worker), then resident (two workers), each with
#              --witness-pack off, then auto (cuzk-$NEW; RSS, upload, s/proof;
#              PACK_LAYS picks the layouts, default "16g resident")
#   ovl-ab     H beside the streamed MSMs: cuzk bench filecoin --kind porep
#              at FIL_SIZE (OVL_N proofs, default 3) at a 16 GiB budget (one
#              worker) with CUZK_PROVE_OVERLAP=off, then on (cuzk-$NEW,
#              CUZK_STREAM_TRACE; FIL_ARGS adds flags to both)
#   mixed      issue 21's mixed load: cuzk bench filecoin --kind porep at
#              FIL_SIZE (MIX_N proofs, default 6) alone, then with a
#              WinningPoSt every MIX_EVERY seconds (default "30,2": the
#              issue's load, then a denser one for the latency's tail),
#              with the engine's critical lane MIX_LANE ("on"; "on off"
#              for the comparison), each mixed run's timeline
#              (mixed-lane-L-mix<E>s.svg, WinningPoSt outlined) and
#              nvidia-smi samples
#   nsys-porep Nsight Systems kernel/API tables of a small porep run
#   memcheck   compute-sanitizer memcheck of a small prove (cuzk-$NEW)
#   daemon     cuzk daemon on the GPU, proofs through cuzk.v1 (daemon_e2e.sh)
#   scaling    porep (SCALE_K 27, SCALE_P 10 partitions) on 1, 2, 4, 8 GPUs
#              (SCALE_COUNTS, those present): s/proof, efficiency, per-device
#              busy, RSS, and each run's timeline (scaling-N.svg)
#   msm-trace  CUZK_MSM_TRACE phases of the 16 GiB chunk MSMs (G2 2^21
#              witness, G1 2^22 random and witness) and of whole ones (G1
#              2^26, 2^27, G2 2^24 random), means per MSM kind (cuzk-$NEW),
#              with nvidia-smi clocks and throttle reasons every 100 ms
#   lean       porep 2^27 at a 16 GiB budget with CUZK_STREAM_TRACE (per-MSM
#              copy / wait / MSM times of the chunk loop), then Nsight
#              Systems' API, copy and kernel tables of a second run
#   fp-rate    Fp multiplication throughput by pipe (IMAD, FP64, both;
#              `bench field --device cuda`), at two chain lengths
# Environment: NEW (default "new"), BASE (default "base"), STEPS.
set -u -o pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
bin=$root/.devbin
logs=${OUT:-/tmp/cuzk-gpu-logs}
new=$bin/cuzk-${NEW:-new}
base=$bin/cuzk-${BASE:-base}
mkdir -p "$logs"
export PATH="/usr/local/cuda/bin:$PATH"
export LD_LIBRARY_PATH="$bin${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
for t in "$bin"/*.tar.gz; do
    [ -e "$t" ] && tar xzf "$t" -C "$bin"
done
ncu=$(command -v ncu || ls /usr/local/cuda*/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -n 1)
cs=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -n 1)

names=()
results=()
secs=()

run_step() {
    local name=$1 limit=$2
    shift 2
    local t0=$SECONDS rc
    echo "== $name (limit ${limit}s)"
    timeout "$limit" bash -c "$*" >"$logs/$name.log" 2>&1
    rc=$?
    names+=("$name")
    secs+=($((SECONDS - t0)))
    if [ $rc -eq 0 ]; then results+=("ok"); else results+=("FAILED (rc $rc)"); tail -n 15 "$logs/$name.log"; fi
}

sanity() {
    nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm --format=csv
    for b in "$bin"/cuzk-*; do
        echo "-- $b"
        ldd "$b" | grep -i "not found" && return 1
        "$b" bench ntt --device cuda --log 20 --repeats 3 || return 1
    done
}

tests() {
    local t
    for t in "$bin"/test_cuda_*; do
        [ -x "$t" ] || continue
        echo "-- $t"
        "$t" || return 1
    done
}

check() {
    local fmt k
    for fmt in bellperson zkey; do
        for k in 2 5 9 12 16 20; do
            "$new" bench prove --device cuda --format $fmt --log $k --repeats 1 --check || return 1
        done
        "$new" bench prove --device cuda --format $fmt --log 16 --repeats 1 --check \
            --vram-budget 96MiB || return 1
        "$new" bench prove --device cuda --format $fmt --log 20 --repeats 1 --check \
            --vram-budget 1GiB || return 1
    done
}

# Runs "$1 <binary>" for every cuzk-* variant in .devbin.
each_variant() {
    local b
    for b in "$bin"/cuzk-*; do
        echo "-- $b"
        "$1" "$b" || return 1
    done
}

ab_msm_one() {
    "$1" bench msm --device cuda --log 24 --log 26 --repeats 5 &&
        "$1" bench msm --device cuda --scalars witness --log 26 --repeats 5 &&
        "$1" bench msm --device cuda --g2 --log 20 --log 24 --repeats 5
}
ab_msm() { each_variant ab_msm_one; }

ab_wit_one() {
    "$1" bench msm --device cuda --scalars witness --log 22 --log 27 --repeats 5 &&
        "$1" bench msm --device cuda --g2 --scalars witness --log 21 --repeats 5 &&
        "$1" bench msm --device cuda --log 26 --repeats 5 &&
        "$1" bench msm --device cuda --g2 --log 24 --repeats 5
}
ab_wit() { each_variant ab_wit_one; }

msm() {
    "$new" bench msm --device cuda --log 24 --log 26 --repeats 5 || return 1
    "$new" bench msm --device cuda --scalars witness --log 26 --repeats 5 || return 1
    "$new" bench msm --device cuda --g2 --log 20 --log 24 --repeats 5
}

ab_bins() {
    local r m
    for r in 1 2; do
        for m in xyzz affine; do
            echo "-- CUZK_MSM_BINS=$m"
            CUZK_MSM_BINS=$m "$new" bench msm --device cuda --g2 --log 22 --log 24 --repeats 5 &&
                CUZK_MSM_BINS=$m "$new" bench msm --device cuda --log 24 --log 26 --repeats 5 &&
                CUZK_MSM_BINS=$m "$new" bench msm --device cuda --scalars witness --log 26 \
                    --repeats 5 || return 1
        done
    done
}

ab_env() {
    local r v var=${AB_VAR:-CUZK_MSM_ORDER}
    for r in 1 2; do
        for v in ${AB_VALUES:-index size}; do
            echo "-- $var=$v"
            env "$var=$v" "$new" bench msm --device cuda --log 22 --log 24 --log 26 --log 27 \
                --repeats 5 &&
                env "$var=$v" "$new" bench msm --device cuda --g2 --log 24 --repeats 5 &&
                env "$var=$v" "$new" bench msm --device cuda --scalars witness --log 26 \
                    --repeats 5 || return 1
        done
    done
}

# The 0/1 mixes under each value of AB_VAR (default CUZK_MSM_ONES =
# "pieces wave"): G1 2^26 50/50, 49/49/2, 45/45/10 and witness scalars,
# G2 2^24 50/50, two rounds each, with the trace's phases.
ab_mix() {
    local r v s var=${AB_VAR:-CUZK_MSM_ONES}
    for r in 1 2; do
        for v in ${AB_VALUES:-pieces wave}; do
            echo "-- $var=$v"
            for s in zero-one:50,50 zero-one:49,49 zero-one:45,45 witness; do
                env "$var=$v" CUZK_MSM_TRACE=1 "$new" bench msm --device cuda --log 26 \
                    --scalars $s --repeats 5 || return 1
            done
            env "$var=$v" CUZK_MSM_TRACE=1 "$new" bench msm --device cuda --g2 --log 24 \
                --scalars zero-one:50,50 --repeats 5 || return 1
        done
    done
}

ncu_bins() {
    [ -n "$ncu" ] || { echo "ncu not found"; return 1; }
    local m
    for m in xyzz affine; do
        echo "-- CUZK_MSM_BINS=$m"
        CUZK_MSM_BINS=$m "$ncu" --clock-control none --section SpeedOfLight --section Occupancy \
            --section LaunchStats --section WarpStateStats --metrics smsp__inst_executed.sum \
            --kernel-name regex:'msm_g1_bins' --launch-count 1 \
            "$new" bench msm --device cuda --log 22 --repeats 1 || return 1
    done
}

wit_ab() {
    local b cache=$logs/wit-ab-circuits
    mkdir -p "$cache"
    for b in "$base" "$new"; do
        echo "-- $b"
        "$b" bench filecoin --kind window-post --sector-size 32GiB --device cuda --proofs 2 \
            --workers 1 --in-flight 1 --circuit-cache "$cache" || return 1
    done
    rm -rf "$cache"
}

ab_ntt_one() { "$1" bench ntt --device cuda --log 20 --log 24 --log 27 --repeats 7; }
ab_ntt() { each_variant ab_ntt_one; }

ntt() {
    "$new" bench ntt --device cuda --log 16 --log 20 --log 24 --log 27 --repeats 7
}

ncu_sections=(--section SpeedOfLight --section Occupancy --section LaunchStats
    --section WarpStateStats --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis)

ncu_ntt() {
    [ -n "$ncu" ] || { echo "ncu not found"; return 1; }
    "$ncu" --clock-control none $ncu_sections_str --kernel-name regex:'ntt_dif_pass|ntt_bitrev' \
        --launch-count 4 "$base" bench ntt --device cuda --log 27 --repeats 1
}

ncu_msm() {
    [ -n "$ncu" ] || { echo "ncu not found"; return 1; }
    "$ncu" --clock-control none $ncu_sections_str --kernel-name regex:'msm_g1_(bins|segments)|msm_(hist|scatter|classify)' \
        --launch-count 5 "$new" bench msm --device cuda --log 24 --repeats 1 || return 1
    "$ncu" --clock-control none $ncu_sections_str --kernel-name regex:'msm_g2_bins' \
        --launch-count 1 "$new" bench msm --device cuda --g2 --log 22 --repeats 1
}

# Opcodes (without modifiers) of each kernel whose name matches $1.
sass() {
    local cuobjdump
    cuobjdump=$(command -v cuobjdump || ls /usr/local/cuda*/bin/cuobjdump 2>/dev/null | head -n 1)
    [ -n "$cuobjdump" ] || { echo "cuobjdump not found"; return 1; }
    local b
    for b in "$base" "$new"; do
        echo "-- $b"
        "$cuobjdump" -sass "$b" >"$logs/sass.txt" || return 1
        awk '/Function : /{f=$3} /^ +\/\*[0-9a-f]+\*\/ /{op=$2; if (op ~ /^@/) op=$3; sub(/\..*/,"",op); sub(/;$/,"",op); n[f" "op]++; t[f]++}
            END{for (k in n) {split(k, a, " "); if (t[a[1]] > 200) print a[1], a[2], n[k], t[a[1]]}}' "$logs/sass.txt" |
            grep -E 'ntt_dif_pass|msm_g1_bins|dfp_mul_outlined|ntt_mul_call' | sort -k1,1 -k3,3nr | awk '$3 > 8'
    done
    rm -f "$logs/sass.txt"
}

stall_metrics=regex:'smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio'
stalls() {
    [ -n "$ncu" ] || { echo "ncu not found"; return 1; }
    "$ncu" --clock-control none --metrics "$stall_metrics" --kernel-name regex:'ntt_dif_pass' \
        --launch-count 1 "$base" bench ntt --device cuda --log 27 --repeats 1 || return 1
    "$ncu" --clock-control none --metrics "$stall_metrics" --kernel-name regex:'msm_g1_bins' \
        --launch-count 1 "$base" bench msm --device cuda --log 24 --repeats 1
}

prove24() {
    "$new" bench prove --device cuda --log 24 --repeats 5 --vram-budget 120GiB --vram-budget 16GiB \
        --vram-budget 6GiB
}

engine() {
    "$new" bench engine --device cuda --log 20 --jobs 8 --partitions 2 --vram-budget 100GiB || return 1
    "$new" bench engine --device cuda --log 22 --jobs 6 --partitions 2 --vram-budget 100GiB
}

# The PoRep-shaped benchmark through the engine (POREP_K, POREP_P, POREP_N,
# POREP_SETUP): bases resident, then streamed from host memory pinned in
# place under a small budget.
# POREP_MODES picks the runs ("resident small"); POREP_ARGS adds options;
# POREP_CHECK="" drops the resident run's host satisfiability check;
# nvidia-smi samples utilisation and memory every 0.5 s meanwhile.
porep() {
    local k=${POREP_K:-20} p=${POREP_P:-4} n=${POREP_N:-3} su=${POREP_SETUP:-cuda} m smi
    local chk=${POREP_CHECK-"--check"}
    nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,power.draw \
        --format=csv -lms 500 >"$logs/porep-smi.csv" 2>/dev/null &
    smi=$!
    for m in ${POREP_MODES:-resident small}; do
        case $m in
        resident) "$new" bench porep --device cuda --setup "$su" --log-domain "$k" --partitions "$p" \
            --proofs "$n" $chk --events "$logs/porep-events-resident.jsonl" ${POREP_ARGS:-} ||
            { kill $smi; return 1; } ;;
        small) "$new" bench porep --device cuda --setup "$su" --log-domain "$k" --partitions "$p" \
            --proofs "$n" --vram-budget "${POREP_SMALL:-2GiB}" \
            --events "$logs/porep-events-small.jsonl" ${POREP_ARGS:-} || { kill $smi; return 1; } ;;
        esac
    done
    kill $smi
}

# The real Filecoin circuits through the engine (issue 20's targets at
# 32 GiB: WinningPoSt <= 0.3 s latency, PoRep <= 16.0 s/proof resident
# and 27.4 s at 16 GiB with the GPU >= 95% busy, WindowPoSt <= 2.5 s per
# partition).
filecoin() {
    local size=${FIL_SIZE:-32GiB} n=${FIL_N:-3} k smi rc=0 xa=${FIL_ARGS:-}
    nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,power.draw \
        --format=csv -lms 500 >"$logs/filecoin-smi.csv" 2>/dev/null &
    smi=$!
    for k in ${FIL_KINDS:-winning-post porep porep-16g window-post}; do
        case $k in
        winning-post) "$new" bench filecoin --kind winning-post --sector-size "$size" \
            --device cuda --proofs 10 --in-flight 1 $xa || rc=1 ;;
        porep) "$new" bench filecoin --kind porep --sector-size "$size" --device cuda \
            --proofs "$n" --workers 2 --events "$logs/filecoin-porep-events.jsonl" $xa || rc=1 ;;
        porep-16g) "$new" bench filecoin --kind porep --sector-size "$size" --device cuda \
            --proofs "$n" --vram-budget 16GiB $xa || rc=1 ;; # one worker: two get 8 GiB each
        window-post) "$new" bench filecoin --kind window-post --sector-size "$size" \
            --device cuda --proofs "$n" --workers 2 --in-flight "${FIL_WP_INFLIGHT:-2}" $xa ||
            rc=1 ;;
        *) echo "filecoin: unknown kind $k"; rc=1 ;;
        esac
    done
    kill $smi
    return $rc
}

# Packed witnesses off and on, each layout on one binary and card (see
# the header); a summary line per run last.
pack_ab() {
    local size=${FIL_SIZE:-32GiB} n=${PACK_N:-3} m lay rc=0 cache=$logs/pack-ab-circuits
    mkdir -p "$cache"
    for lay in ${PACK_LAYS:-16g resident}; do
        for m in off auto; do
            echo "-- $lay, --witness-pack $m"
            if [ $lay = 16g ]; then
                "$new" bench filecoin --kind porep --sector-size "$size" --device cuda \
                    --proofs "$n" --vram-budget 16GiB --witness-pack $m \
                    --circuit-cache "$cache" >"$logs/pack-ab-$lay-$m.txt" 2>&1 || rc=1
            else
                "$new" bench filecoin --kind porep --sector-size "$size" --device cuda \
                    --proofs "$n" --workers 2 --witness-pack $m \
                    --circuit-cache "$cache" >"$logs/pack-ab-$lay-$m.txt" 2>&1 || rc=1
            fi
            tail -n 12 "$logs/pack-ab-$lay-$m.txt"
        done
    done
    rm -rf "$cache"
    for f in "$logs"/pack-ab-*.txt; do
        printf '%s: ' "$(basename "$f" .txt)"
        grep -o '"s_per_proof":[0-9.]*\|"upload":[0-9.]*\|"rss_peak_gib":[0-9.]*\|"witnesses_packed":[0-9]*' \
            "$f" | head -4 | tr '\n' ' '
        echo
    done
    return $rc
}

# H beside the streamed MSMs off and on (see the header), one binary and
# card, the circuit recorded once; a summary line per run last.
ovl_ab() {
    local size=${FIL_SIZE:-32GiB} n=${OVL_N:-3} v rc=0 cache=$logs/ovl-ab-circuits
    mkdir -p "$cache"
    for v in off on; do
        echo "-- CUZK_PROVE_OVERLAP=$v"
        CUZK_PROVE_OVERLAP=$v CUZK_STREAM_TRACE=1 "$new" bench filecoin --kind porep \
            --sector-size "$size" --device cuda --proofs "$n" --vram-budget 16GiB \
            --circuit-cache "$cache" ${FIL_ARGS:-} >"$logs/ovl-ab-$v.txt" 2>&1 || rc=1
        tail -n 12 "$logs/ovl-ab-$v.txt"
    done
    rm -rf "$cache"
    for f in "$logs"/ovl-ab-*.txt; do
        printf '%s: ' "$(basename "$f" .txt)"
        grep -o '"s_per_proof":[0-9.]*\|"rss_peak_gib":[0-9.]*' "$f" | head -2 | tr '\n' ' '
        grep -m1 'per partition ms' "$f"
    done
    return $rc
}

# Issue 21's mixed load (see the header): the baseline and the mixed runs
# share one circuit, one sealing and one key per kind.
mixed() {
    local size=${FIL_SIZE:-32GiB} smi rc=0 f
    nvidia-smi --query-gpu=timestamp,utilization.gpu,memory.used,power.draw \
        --format=csv -lms 500 >"$logs/mixed-smi.csv" 2>/dev/null &
    smi=$!
    for lane in ${MIX_LANE:-on}; do
        "$new" bench filecoin --kind porep --sector-size "$size" --device cuda \
            --proofs "${MIX_N:-6}" --workers 2 --mix winning-post --mix-every "${MIX_EVERY:-30,2}" \
            --critical-lane "$lane" --events "$logs/mixed-lane-$lane.jsonl" || rc=1
    done
    kill $smi
    for f in "$logs"/mixed*.jsonl; do
        [ -s "$f" ] || continue
        "$new" timeline --in "$f" --out "${f%.jsonl}.svg" --mark winning-post 2>&1 | tail -3
        gzip -f "$f"
    done
    return $rc
}

# Kernel and API time tables (Nsight Systems) of a small PoRep run.
nsys_porep() {
    local nsys
    nsys=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -n 1)
    [ -n "$nsys" ] || { echo "nsys not found"; return 1; }
    "$nsys" profile -o "$logs/porep" --force-overwrite true "$new" bench porep --device cuda \
        --setup "${POREP_SETUP:-cuda}" --log-domain "${POREP_K:-20}" --partitions 2 --proofs 2 || return 1
    "$nsys" stats --report cuda_gpu_kern_sum --format csv "$logs/porep.nsys-rep" | cut -c1-220 | head -40
    "$nsys" stats --report cuda_api_sum --format csv "$logs/porep.nsys-rep" | cut -c1-200 | head -20
    rm -f "$logs/porep.nsys-rep" "$logs/porep.sqlite"
}

# The daemon end to end on the GPU (tools/daemon_e2e.sh): DAEMON_K (20),
# DAEMON_P partitions (4), DAEMON_N jobs (8), DAEMON_DEVICE (cuda), 2 workers.
daemon_e2e() {
    "$root/tools/daemon_e2e.sh" "$new" "${DAEMON_K:-20}" "${DAEMON_P:-4}" "${DAEMON_N:-8}" \
        "${DAEMON_DEVICE:-cuda}" 2
}

lean() {
    local tr="$logs/lean-trace.txt" nsys
    CUZK_STREAM_TRACE=1 "$new" bench porep --device cuda --setup cuda --log-domain 27 \
        --partitions 10 --proofs 2 --vram-budget "${POREP_SMALL:-16GiB}" >"$logs/lean-run.txt" 2>"$tr" ||
        { tail -5 "$tr"; return 1; }
    tail -9 "$logs/lean-run.txt"
    # mean per chunk over every MSM of the same group and size
    grep '^cuzk cuda stream' "$tr" | awk '{k=$4" "$5; n[k]++; c[k]=$8; cp[k]+=$13; w[k]+=$16;
        m[k]+=$21; t[k]+=$25} END{for (k in n) printf "%-14s x%-3d chunks %-3s copy %.2f waited %.2f MSM %.2f ms per chunk, %.1f ms per MSM\n",
        k, n[k], c[k], cp[k]/n[k], w[k]/n[k], m[k]/n[k], t[k]/n[k]}' | sort
    nsys=$(command -v nsys || ls /usr/local/cuda*/bin/nsys /opt/nvidia/nsight-systems/*/bin/nsys 2>/dev/null | head -n 1)
    [ -n "$nsys" ] || { echo "nsys not found"; return 0; }
    "$nsys" profile -o "$logs/lean" --force-overwrite true "$new" bench porep --device cuda \
        --setup cuda --log-domain 27 --partitions 10 --proofs 1 --vram-budget "${POREP_SMALL:-16GiB}" \
        >/dev/null 2>&1 || return 1
    "$nsys" stats --report cuda_api_sum --report cuda_gpu_mem_time_sum --report cuda_gpu_kern_sum \
        --format csv "$logs/lean.nsys-rep" 2>/dev/null | cut -c1-200 | head -80
    rm -f "$logs/lean.nsys-rep" "$logs/lean.sqlite"
}

msm_trace() {
    local tr="$logs/msm-trace.txt" smi rc=0
    : >"$tr"
    # clocks, power and throttle reasons beside it: G1 2^27's bins phase
    # takes ~955 or ~973 ms from one MSM to the next (stop 35)
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,clocks_throttle_reasons.active \
        --format=csv -lms 100 >"$logs/msm-trace-smi.csv" 2>/dev/null &
    smi=$!
    CUZK_MSM_TRACE=1 "$new" bench msm --device cuda --g2 --scalars witness --log 21 --repeats 5 2>>"$tr" &&
        CUZK_MSM_TRACE=1 "$new" bench msm --device cuda --scalars witness --log 22 --repeats 5 2>>"$tr" &&
        CUZK_MSM_TRACE=1 "$new" bench msm --device cuda --log 22 --log 26 --log 27 --repeats 5 2>>"$tr" &&
        CUZK_MSM_TRACE=1 "$new" bench msm --device cuda --g2 --log 24 --repeats 3 2>>"$tr" || rc=1
    kill $smi
    [ $rc = 0 ] || return 1
    # fields: $4 group, $6 n, $8 full; then name/value pairs up to "ms"
    grep '^cuzk msm trace' "$tr" | awk '{k = $4 " " $6 " full " $8; n[k]++
        for (i = 17; i < NF; i += 2) { if ($i == "ms") break; v[k, $i] += $(i + 1); names[$i] = 1 }
        gpu[k] += substr($(NF - 5), 2); host[k] += $(NF - 4)}
        END {for (k in n) {printf "%s (x%d):", k, n[k]
             for (m in names) printf " %s %.2f", m, v[k, m] / n[k]
             printf " | GPU %.2f host %.2f ms\n", gpu[k] / n[k], host[k] / n[k]}}' | sort
}

# Multi-GPU scaling (issue 9): one porep run per device count, 2n + 2
# proofs each; efficiency = throughput with n / (n x throughput with 1).
scaling() {
    local n max k=${SCALE_K:-27} p=${SCALE_P:-10} j
    max=$(nvidia-smi -L | grep -c '^GPU')
    for n in ${SCALE_COUNTS:-1 2 4 8}; do
        [ "$n" -le "$max" ] || { echo "-- $n GPUs: only $max present, skipped"; continue; }
        j=$((n > 4 ? 3 : 2))
        echo "-- $n GPU(s)"
        "$new" bench porep --device cuda --setup cuda --log-domain "$k" --partitions "$p" \
            --proofs $((2 * n + 2)) --devices "$n" --in-flight "$j" \
            --events "$logs/scaling-$n.jsonl" >"$logs/scaling-$n.txt" || { tail -5 "$logs/scaling-$n.txt"; return 1; }
        tail -9 "$logs/scaling-$n.txt"
        "$new" timeline --in "$logs/scaling-$n.jsonl" --out "$logs/scaling-$n.svg" | tail -12
        gzip -f "$logs/scaling-$n.jsonl"
    done
    echo
    grep -h '^{"bench":"porep"' "$logs"/scaling-*.txt | awk '
        { match($0, /"devices":[0-9]+/); n = substr($0, RSTART + 10, RLENGTH - 10) + 0
          match($0, /"s_per_proof":[0-9.]+/); s = substr($0, RSTART + 14, RLENGTH - 14) + 0
          match($0, /"rss_peak_gib":[0-9.]+/); r = substr($0, RSTART + 15, RLENGTH - 15)
          match($0, /"gpu_busy_per_device":\[[0-9.,]*\]/); b = substr($0, RSTART + 22, RLENGTH - 22)
          sp[n] = s; rs[n] = r; bz[n] = b }
        END { printf "%-5s %10s %10s %8s %s\n", "GPUs", "s/proof", "efficiency", "RSS GiB", "busy per device"
              for (n = 1; n <= 32; n++) if (n in sp)
                  printf "%-5d %10.3f %10s %8s %s\n", n, sp[n], (1 in sp) ? sprintf("%.1f%%", 100 * sp[1] / (n * sp[n])) : "-", rs[n], bz[n] }'
}

fp_rate() {
    "$new" bench field --device cuda --iters 2000 && "$new" bench field --device cuda --iters 500
}

memcheck() {
    [ -n "$cs" ] || { echo "compute-sanitizer not found"; return 1; }
    "$cs" --tool memcheck --error-exitcode 1 "$new" bench prove --device cuda --log 8 --repeats 1 --check
}

# timeout runs each step in a new bash: it needs the functions and settings.
export -f fp_rate sanity tests check filecoin mixed scaling msm_trace each_variant ab_msm_one ab_msm ab_wit_one ab_wit ab_ntt_one ab_ntt msm ntt daemon_e2e lean ncu_ntt ncu_msm sass stalls prove24 engine porep nsys_porep memcheck ab_bins ab_env ab_mix ncu_bins wit_ab pack_ab ovl_ab
export root bin logs new base ncu cs stall_metrics ncu_sections_str="${ncu_sections[*]}"
for s in ${STEPS:-sanity check ab-msm}; do
    case $s in
    sanity) run_step sanity 120 sanity ;;
    tests) run_step tests 300 tests ;;
    check) run_step check 300 check ;;
    ab-msm) run_step ab-msm 300 ab_msm ;;
    ab-wit) run_step ab-wit 300 ab_wit ;;
    msm) run_step msm 240 msm ;;
    ab-bins) run_step ab-bins 420 ab_bins ;;
    ab-env) run_step ab-env 360 ab_env ;;
    ab-mix) run_step ab-mix 300 ab_mix ;;
    ncu-bins) run_step ncu-bins 240 ncu_bins ;;
    wit-ab) run_step wit-ab 400 wit_ab ;;
    ntt) run_step ntt 120 ntt ;;
    ab-ntt) run_step ab-ntt 180 ab_ntt ;;
    ncu-ntt) run_step ncu-ntt 240 ncu_ntt ;;
    ncu-msm) run_step ncu-msm 240 ncu_msm ;;
    sass) run_step sass 120 sass ;;
    stalls) run_step stalls 180 stalls ;;
    prove24) run_step prove24 420 prove24 ;;
    engine) run_step engine 240 engine ;;
    porep) run_step porep "${POREP_LIMIT:-400}" porep ;;
    filecoin) run_step filecoin "${FIL_LIMIT:-570}" filecoin ;;
    pack-ab) run_step pack-ab "${PACK_LIMIT:-570}" pack_ab ;;
    ovl-ab) run_step ovl-ab "${OVL_LIMIT:-570}" ovl_ab ;;
    mixed) run_step mixed "${MIX_LIMIT:-570}" mixed ;;
    nsys-porep) run_step nsys-porep 300 nsys_porep ;;
    memcheck) run_step memcheck 240 memcheck ;;
    fp-rate) run_step fp-rate 120 fp_rate ;;
    daemon) run_step daemon 300 daemon_e2e ;;
    lean) run_step lean 540 lean ;;
    msm-trace) run_step msm-trace 240 msm_trace ;;
    scaling) run_step scaling "${SCALE_LIMIT:-570}" scaling ;;
    *) echo "unknown step $s"; exit 2 ;;
    esac
done

echo
for f in "$logs"/*.log; do grep -h '^{' "$f" 2>/dev/null; done >"$logs/bench.jsonl"
cut -c1-200 "$logs/bench.jsonl"
echo
printf '%-12s %-18s %6s\n' step result seconds
for i in "${!names[@]}"; do
    printf '%-12s %-18s %6s\n' "${names[$i]}" "${results[$i]}" "${secs[$i]}"
done
