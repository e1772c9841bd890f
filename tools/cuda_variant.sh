#!/usr/bin/env bash
# A build variant for A/B runs on the device: the named CUDA units
# recompiled with extra flags (build knobs such as -DCUZK_EC_LAZY=1) into a
# copy of build/lib/libcuzk_cuda.a, then the CLI and the CUDA test binaries
# relinked against it and stripped into .devbin:
#
#   tools/cuda_variant.sh NAME "FLAGS" [UNIT...]
#
# gives .devbin/cuzk-NAME, .devbin/test_cuda_msm-NAME, .devbin/test_cuda_ntt-NAME and
# .devbin/test_cuda_arith-NAME (the tests step of gpu_carried.sh runs every
# test_cuda_* it finds). UNITs are paths under src/backend/cuda without
# .cu (default: msm/msm_g1 msm/msm_g2). Needs a configured Release build in
# build/ (cmake --build build --target cuzk_cli test_cuda_msm
# test_cuda_arith first); a unit takes ~30 s to compile.
set -euo pipefail

[ $# -ge 2 ] || {
    sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
}
name=$1
flags=$2
shift 2
units=${*:-msm/msm_g1 msm/msm_g2}
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -f "$build/lib/libcuzk_cuda.a" ] || {
    echo "cuda_variant: no $build/lib/libcuzk_cuda.a (build first)" >&2
    exit 1
}
cp "$build/lib/libcuzk_cuda.a" "$work/"
for u in $units; do
    src=$root/src/backend/cuda/$u.cu
    [ -f "$src" ] || {
        echo "cuda_variant: no $src" >&2
        exit 1
    }
    # the flags of the CMake build (src/CMakeLists.txt), plus the variant's;
    # the archive's member keeps the unit's file name
    # shellcheck disable=SC2086
    "$nvcc" -DCUZK_HAVE_CUDA=1 -I"$root/src" -I"$root/include" -O3 -DNDEBUG \
        "--generate-code=arch=compute_90,code=[compute_90,sm_90]" -std=c++17 \
        -Xcompiler=-Wall -Xcompiler=-Wextra -Xcompiler=-Werror -Werror all-warnings \
        $flags -c "$src" -o "$work/$(basename "$u").cu.o"
    ar r "$work/libcuzk_cuda.a" "$work/$(basename "$u").cu.o" 2>/dev/null
done

mkdir -p "$root/.devbin"
# relink: the CMake link line with the copied archive in place of the built one
relink() { # dir (under build) target out
    local dir=$1 target=$2 out=$3
    sed "s#\.\./lib/libcuzk_cuda\.a#$work/libcuzk_cuda.a#" \
        "$build/$dir/CMakeFiles/$target.dir/linkLibs.rsp" >"$work/$target.rsp"
    grep -q "$work/libcuzk_cuda.a" "$work/$target.rsp"
    (cd "$build/$dir" && g++ "@CMakeFiles/$target.dir/objects1" -o "$work/$target" \
        "@$work/$target.rsp" -L/usr/local/cuda/targets/x86_64-linux/lib/stubs \
        -L/usr/local/cuda/targets/x86_64-linux/lib)
    strip -o "$root/.devbin/$out" "$work/$target"
    echo "cuda_variant: .devbin/$out"
}
relink src cuzk_cli "cuzk-$name"
relink tests test_cuda_msm "test_cuda_msm-$name"
relink tests test_cuda_arith "test_cuda_arith-$name"
relink tests test_cuda_ntt "test_cuda_ntt-$name"
