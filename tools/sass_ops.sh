#!/usr/bin/env bash
# Issue slots of one field or curve operation (tools/sass_ops.cu) as built
# with the given knobs, for comparing variants without a GPU:
#
#   tools/sass_ops.sh [-DKNOB=V ...]      (SASS_OPS_NO_G2=1 skips G2: faster)
#
# Slots = SASS instructions + wide multiply-adds (tools/sass_slots.py says
# why); ptxas's register and spill lines follow. ~1 minute, G2 ~4 more.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
extra=()
[ "${SASS_OPS_NO_G2:-0}" = 1 ] && extra+=(-DSASS_OPS_NO_G2)
"$nvcc" -DCUZK_HAVE_CUDA=1 -I"$root/src" -I"$root/include" -O3 -DNDEBUG -arch=sm_90 \
    -std=c++17 "${extra[@]}" "$@" -cubin -Xptxas -v "$root/tools/sass_ops.cu" \
    -o "$work/ops.cubin" 2>"$work/ptxas.txt"
python3 "$root/tools/sass_slots.py" "$work/ops.cubin"
grep -E "Compiling entry|registers|spill" "$work/ptxas.txt" |
    sed -E "s/.*Compiling entry function '([a-z0-9_]*)'.*/\1:/; s/ptxas info *: //" |
    paste -sd' ' | sed 's/ \([a-z0-9_]*:\)/\n\1/g'
