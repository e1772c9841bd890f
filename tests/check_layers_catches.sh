#!/usr/bin/env bash
# tools/check_layers.sh must pass on the tree and fail on each planted
# violation: an upward include, another folder's internal header, and a
# public header placed in no layer.
set -euo pipefail
root="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fresh() {
    rm -rf "$tmp/t"
    mkdir -p "$tmp/t"
    cp -r "$root/src" "$root/include" "$root/tools" "$tmp/t/"
}
expect() { # expect pass|fail what
    local got=pass
    bash "$tmp/t/tools/check_layers.sh" "$tmp/t" >"$tmp/out" 2>&1 || got=fail
    if [ "$got" != "$1" ]; then
        echo "FAIL: $2: expected $1, got $got"
        cat "$tmp/out"
        exit 1
    fi
    echo "ok: $2 ($got)"
}

fresh
expect pass "the tree as it is"
fresh
sed -i '0,/#include "cuzk\/fp.h"/s//#include "cuzk\/fp.h"\n#include "cuzk\/engine.h"/' "$tmp/t/src/field/fp.c"
grep -q 'cuzk/engine.h' "$tmp/t/src/field/fp.c"
expect fail "field includes engine.h"
fresh
echo '#include "cuzk/prover.h"' >>"$tmp/t/include/cuzk/circuit.h"
expect fail "a model header includes a groth16 header"
fresh
echo '#include "../backend/cpu/msm_internal.h"' >>"$tmp/t/src/cli/main.c"
expect fail "the CLI includes the CPU backend's internal header"
fresh
echo '#include "engine/engine_internal.h"' >>"$tmp/t/src/daemon/daemon.c"
expect fail "the daemon includes the engine's internal header"
fresh
printf '#ifndef X\n#define X\n#endif\n' >"$tmp/t/include/cuzk/unplaced.h"
expect fail "a public header in no layer"
