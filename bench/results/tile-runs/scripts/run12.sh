#!/usr/bin/env bash
# tcuc 0.6.24 as committed (after the load lowering's single-tile path was
# folded into the run path): lagged --check for six types at k = 1, 2, 4
# (W = 4, segment 1000003, three n) and each type's default at n = 2^28;
# the ten lagged reliability specs.
set -uo pipefail
mkdir -p /tmp/lr
bench/gpu_build.sh || exit 2
T=/tmp/tcuc-bench-build/rt/bin/tcuc
ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16" "--dtype i8" "--dtype bf16 --out-dtype bf16" "--dtype bf16" "--dtype f32"; do
  for k in 1 2 4; do for n in 1000 100003 3000017; do
    o=$(TCUC_CACHE_DIR=$PWD/exp/HS6 timeout 15 $T run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block 4 -n $n --check 2>&1); rc=$?
    if [ $rc -eq 0 ] && echo "$o" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc $t k=$k n=$n: $(echo "$o" | tail -2 | tr '\n' ' ')"; fi
  done; done
  o=$(TCUC_CACHE_DIR=$PWD/exp/HS6 timeout 40 $T run --device gpu --op scan $t --segment 268435456 -n 268435456 --check 2>&1); rc=$?
  echo "2^28 default $t rc=$rc $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done
echo "lagged checks: ok $ok bad $bad"
TCUC_RELIABILITY_SPECS=$PWD/exp/rel6.txt timeout 300 test/gpu/run_on_gpu.sh exp/R6 reliability > /tmp/lr/reliability-0.6.24.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability-0.6.24.log | tail -12
cp /tmp/lr/reliability-0.6.24.log $OUT/
