#!/usr/bin/env bash
# Fails when a file includes a header of a higher layer (../shared/DESIGN.md
# §5; README "Architecture"). Run by `make test` (ctest check_layers).
#
# A file's layer is its folder under src/ (src/backend/cpu/x.c: backend_cpu);
# a public header's layer is the table below, so a new header must be placed
# in a layer before anything may include it. Two rules:
#   1. no #include of a higher layer;
#   2. an internal header (under src/) is private to its folder, except the
#      low-level ones every layer may share (util/, field/).
# Usage: tools/check_layers.sh [repository root]
set -euo pipefail
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
cd "$root"

# Layers from the bottom; a layer may include its own and lower ones.
layers=(util field curve model circuits formats backend_cpu backend_cuda groth16 filecoin engine daemon
        workloads cli)

# Public headers (include/cuzk/NAME.h) by layer.
declare -A hdr=(
    [status]=util [parallel]=util [request]=util [hash]=util
    [fp]=field [fp2]=field [fp6]=field [fp12]=field [fr]=field [fr_pack]=field
    [g1]=curve [g2]=curve [pairing]=curve [encode]=curve [decimal]=curve
    [circuit]=model [proof]=model [bases]=model [pk]=model [key]=model [toxic]=model
    [backend]=model [device]=model
    [zkey]=formats [wtns]=formats [r1cs]=formats [bellperson]=formats
    [snarkjs_json]=formats [ccs]=formats [key_load]=formats [key_write]=formats
    [circuit_record]=formats
    [msm]=backend_cpu [ntt]=backend_cpu [backend_cpu]=backend_cpu
    [cuda]=backend_cuda [cuda_backend]=backend_cuda [cuda_msm]=backend_cuda
    [cuda_ntt]=backend_cuda [cuda_device]=backend_cuda [cuda_selftest]=backend_cuda [cuda_setup]=backend_cuda
    [groth16]=groth16 [prover]=groth16 [setup]=groth16
    [engine]=engine [ledger]=engine [priority]=engine
    [config]=daemon [daemon]=daemon [daemon_rpc]=daemon [eventlog]=daemon [http]=daemon
    [journal]=daemon [metrics]=daemon [rpc]=daemon
    [gen]=workloads
    [timeline]=cli
    [filecoin_proofs]=filecoin [filecoin_graph]=filecoin [filecoin_challenges]=filecoin
    [filecoin_sha]=filecoin [filecoin_por]=filecoin [filecoin_merkle]=filecoin
    [filecoin_porep]=filecoin [filecoin_post]=filecoin [filecoin_circuits]=filecoin
    [filecoin_poseidon]=filecoin [filecoin_vanilla]=filecoin
    [filecoin_update]=filecoin [filecoin_inputs]=filecoin [filecoin_prove]=filecoin
    [filecoin_public]=filecoin [filecoin_params]=filecoin [filecoin_snap]=filecoin
    [filecoin_seal]=filecoin [filecoin_c1]=filecoin [filecoin_job]=filecoin
    [poseidon]=circuits
    [cs]=circuits [cs_boolean]=circuits [cs_num]=circuits [cs_uint32]=circuits
    [cs_sha256]=circuits [cs_multipack]=circuits [cs_uint64]=circuits [cs_insertion]=circuits
    [cs_poseidon]=circuits
)

rank() {
    local i
    for i in "${!layers[@]}"; do
        [ "${layers[$i]}" = "$1" ] && { echo "$i"; return; }
    done
    echo -1
}

# The layer of a path under src/ (a folder name; backend/X is backend_X).
src_layer() {
    local rel="${1#src/}"
    case "$rel" in
    backend/*) rel="${rel#backend/}"; echo "backend_${rel%%/*}" ;;
    *) echo "${rel%%/*}" ;;
    esac
}

fail=0
bad() {
    echo "check_layers: $1" >&2
    fail=1
}

# Every public header must be placed.
for h in include/cuzk/*.h; do
    n=$(basename "$h" .h)
    [ -n "${hdr[$n]:-}" ] || bad "$h is in no layer (add it to tools/check_layers.sh)"
done

files=$(find src include -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)
for f in $files; do
    case "$f" in
    include/cuzk/*) me="${hdr[$(basename "$f" .h)]:-}" ;;
    src/*/*) me=$(src_layer "$f") ;;
    *) continue ;;
    esac
    rme=$(rank "$me")
    [ "$rme" -ge 0 ] || { bad "$f: folder is in no layer"; continue; }
    lineno=0
    while IFS= read -r line; do
        lineno=$((lineno + 1))
        [[ "$line" =~ ^[[:space:]]*#[[:space:]]*include[[:space:]]*\"([^\"]+)\" ]] || continue
        inc="${BASH_REMATCH[1]}"
        case "$inc" in
        cuzk/v1/*) them=daemon ;; # the generated gRPC messages
        cuzk/*.h)
            them="${hdr[$(basename "$inc" .h)]:-}"
            [ -n "$them" ] || { bad "$f:$lineno: $inc is not a public header"; continue; }
            ;;
        *)
            # Internal: relative to the file, else to src/.
            d=$(dirname "$f")
            if [ -f "$d/$inc" ]; then p=$(realpath -m --relative-to=. "$d/$inc")
            elif [ -f "src/$inc" ]; then p="src/$inc"
            else continue # a system or generated header
            fi
            case "$p" in
            src/*/*) them=$(src_layer "$p") ;;
            *) bad "$f:$lineno: $inc resolves outside src/ ($p)"; continue ;;
            esac
            if [ "$them" != "$me" ] && [ "$them" != util ] && [ "$them" != field ]; then
                bad "$f:$lineno: includes $p, internal to $them"
                continue
            fi
            ;;
        esac
        rthem=$(rank "$them")
        [ "$rthem" -le "$rme" ] || bad "$f:$lineno: $me includes $inc of the higher layer $them"
    done < "$f"
done

if [ "$fail" -ne 0 ]; then
    echo "check_layers: FAILED (layers, bottom first: ${layers[*]})" >&2
    exit 1
fi
echo "check_layers: $(echo "$files" | wc -l) files, every include points down"
