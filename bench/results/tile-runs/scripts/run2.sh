#!/usr/bin/env bash
# Tile runs for loads and stores (one whole-run test and one PTX block a
# run), A/B against the same commit with them off (TCUC_EXP_NORUNS=1 when
# filling exp/B1): the scans' defaults at 65536-2^20 (block), 2^22 and the
# whole array, and lagged:2:4; then GPU checks of the new kernels (lagged
# --check, the grid; the reliability specs in run3.sh).
set -uo pipefail
B=/tmp/tcuc-bench-build
mkdir -p /tmp/lr
A=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 65536 262144 1048576 4194304 whole --only default lagged:2:4 --no-peers --reps 15)
timeout 400 bench/ab.sh --rounds 3 /tmp/lr/ab2 B1=exp/B1 RS=exp/RS -- "${A[@]}"
T=$B/rt/bin/tcuc
ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16" "--dtype i8" "--dtype bf16 --out-dtype bf16"; do
  for w in 2 4; do for k in 1 2; do for n in 1000 100003 3000017; do
    o=$(TCUC_CACHE_DIR=$PWD/exp/HS3 timeout 15 $T run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block $w -n $n --check 2>&1); rc=$?
    if [ $rc -eq 0 ] && echo "$o" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc $t W=$w k=$k n=$n: $(echo "$o" | tail -2 | tr '\n' ' ')"; fi
  done; done; done
  o=$(TCUC_CACHE_DIR=$PWD/exp/HS3 timeout 40 $T run --device gpu --op scan --variant lagged $t --segment 268435456 --tiles-per-warp 2 --warps-per-block 4 -n 268435456 --check 2>&1); rc=$?
  echo "2^28 $t rc=$rc $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done
echo "lagged checks: ok $ok bad $bad"
timeout 240 test/gpu/run_on_gpu.sh exp/G3 grid > /tmp/lr/grid2.log 2>&1; echo "grid rc=$?"; tail -3 /tmp/lr/grid2.log
cp /tmp/lr/grid2.log $OUT/ 2>/dev/null
rm -f /tmp/lr/ab2/*/throughput.png
tar czf $OUT/ab2.tgz -C /tmp/lr ab2
