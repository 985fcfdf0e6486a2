#!/usr/bin/env bash
# Tile-load runs (one whole-run test, one PTX block a run) A/B against the
# same commit without them (TCUC_EXP_NORUNS=1 when filling exp/B0), H100;
# then GPU checks of the new kernels: lagged --check at odd sizes, the GPU
# grid, the reliability specs whose PTX changed.
set -uo pipefail
B=/tmp/tcuc-bench-build
mkdir -p /tmp/lr
A=(--ops "scan f16->f16" "scan f16->f32" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
timeout 420 bench/ab.sh --rounds 3 /tmp/lr/ab B0=exp/B0 RN=exp/RN -- "${A[@]}"
T=$B/rt/bin/tcuc
ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16" "--dtype i8" "--dtype bf16 --out-dtype bf16"; do
  for w in 2 4; do for k in 1 2; do for n in 1000 100003 3000017; do
    o=$(TCUC_CACHE_DIR=$PWD/exp/HS2 timeout 15 $T run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block $w -n $n --check 2>&1); rc=$?
    if [ $rc -eq 0 ] && echo "$o" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc $t W=$w k=$k n=$n: $(echo "$o" | tail -2 | tr '\n' ' ')"; fi
  done; done; done
  o=$(TCUC_CACHE_DIR=$PWD/exp/HS2 timeout 40 $T run --device gpu --op scan --variant lagged $t --segment 268435456 --tiles-per-warp 2 --warps-per-block 4 -n 268435456 --check 2>&1); rc=$?
  echo "2^28 $t rc=$rc $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done
echo "lagged checks: ok $ok bad $bad"
timeout 240 test/gpu/run_on_gpu.sh exp/G2 grid > /tmp/lr/grid.log 2>&1; echo "grid rc=$?"; tail -3 /tmp/lr/grid.log
TCUC_RELIABILITY_SPECS=$PWD/exp/rel2.txt timeout 300 test/gpu/run_on_gpu.sh exp/R2 reliability > /tmp/lr/reliability.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability.log | tail -20
cp /tmp/lr/grid.log /tmp/lr/reliability.log $OUT/ 2>/dev/null
tar czf $OUT/ab.tgz -C /tmp/lr ab
