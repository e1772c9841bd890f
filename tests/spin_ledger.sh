#!/usr/bin/env bash
# Model-checks the VRAM ledger's admission protocol (model/ledger.pml) with
# spin: safety (no deadlock = no invalid end state; the model's
# assertions), liveness under weak fairness (the ltl claim "live": every
# waiting worker is eventually admitted; and no non-progress cycle), and
# three broken variants that must fail, to show the checks can fail.
# Works in a temporary folder so the checkout stays clean.
# Usage: tests/spin_ledger.sh [model.pml]     (CC picks the C compiler)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
model=$(realpath "${1:-$here/../model/ledger.pml}")
cc=${CC:-cc}
if ! command -v spin >/dev/null 2>&1; then
    echo "spin_ledger: spin is not installed (Debian package spin; tools/install-deps.sh installs it)" >&2
    exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cp "$model" ledger.pml

# pan's C flags: enough fairness slots for every process, and room for
# weak-fairness cycles.
PANCC="-O2 -w -DNFAIR=4 -DVECTORSZ=4096"
DEPTH=-m2000000
failed=0

# check NAME EXPECT SPIN_FLAGS PAN_CC_FLAGS PAN_RUN_FLAGS
#   EXPECT: pass (errors: 0 required) or fail (errors > 0 required)
# shellcheck disable=SC2086 # the flag lists are split into words on purpose
check() {
    local name=$1 expect=$2 sflags=$3 cflags=$4 pflags=$5
    rm -f pan pan.* ledger.pml.trail
    if ! spin $sflags -a ledger.pml >spin.log 2>&1; then
        echo "spin_ledger: $name: spin -a failed:" >&2
        cat spin.log >&2
        failed=1
        return
    fi
    if ! $cc $PANCC $cflags -o pan pan.c >cc.log 2>&1; then
        echo "spin_ledger: $name: compiling pan.c failed:" >&2
        cat cc.log >&2
        failed=1
        return
    fi
    ./pan $DEPTH $pflags >pan.log 2>&1 || true
    local errors states depth
    errors=$(sed -n 's/.*errors: \([0-9][0-9]*\).*/\1/p' pan.log | tail -n 1)
    states=$(sed -n 's/^ *\([0-9.e+]*\) states, stored.*/\1/p' pan.log | head -n 1)
    depth=$(sed -n 's/.*depth reached \([0-9]*\).*/\1/p' pan.log | tail -n 1)
    local what
    what=$(grep -m1 -E '^pan:[0-9]+: ' pan.log | sed -e 's/^pan:[0-9]*: *//' -e 's/ *(at depth.*//' || true)
    if [ -z "$errors" ] || grep -q "max search depth too small" pan.log; then
        echo "spin_ledger: $name: search incomplete or no result:" >&2
        tail -n 30 pan.log >&2
        failed=1
        return
    fi
    local verdict=ok
    if [ "$expect" = pass ] && [ "$errors" -ne 0 ]; then verdict=FAILED; fi
    if [ "$expect" = fail ] && [ "$errors" -eq 0 ]; then verdict="FAILED (a broken variant passed)"; fi
    printf 'spin_ledger: %-34s %9s states, depth %6s, errors: %s%s -> %s\n' \
        "$name" "$states" "$depth" "$errors" "${what:+ ($what)}" "$verdict"
    if [ "$verdict" != ok ]; then
        grep -v "^ *$" pan.log | head -n 40 >&2
        [ -f ledger.pml.trail ] && spin -t -p -g ledger.pml 2>&1 | tail -n 60 >&2
        failed=1
    fi
}

spin -V
check "safety (deadlock, assertions)" pass "" "-DSAFETY -DNOCLAIM" ""
check "liveness (ltl live, weak fair)" pass "" "" "-a -f"
check "progress (non-progress cycles)" pass "-DNOLTL" "-DNP" "-l -f"
check "control NO_AGING: liveness" fail "-DNO_AGING" "" "-a -f"
check "control BACKFILL: liveness" fail "-DBACKFILL" "" "-a -f"
check "control HOLD_AND_WAIT: deadlock" fail "-DHOLD_AND_WAIT" "-DSAFETY -DNOCLAIM" ""
if [ "$failed" -ne 0 ]; then
    echo "spin_ledger: FAILED" >&2
    exit 1
fi
echo "spin_ledger: all checks as expected"
