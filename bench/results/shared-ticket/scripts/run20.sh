#!/usr/bin/env bash
# tcuc 0.6.17: GPU grid, f16->f32 defaults from 2^22 with peers, reliability of the f32-output lagged specs.
set -uo pipefail
start=$(date +%s)
tar xzf exp/G3.tgz -C exp
timeout 240 test/gpu/run_on_gpu.sh exp/G3 grid > $OUT/grid.log 2>&1; echo "grid rc=$? $(( $(date +%s) - start ))s"; tail -4 $OUT/grid.log
timeout 200 bench/run.sh exp/D17 $OUT/f16-f32 --ops "scan f16->f32" --segments 4194304 8388608 16777216 whole --only default --reps 15 > $OUT/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - start ))s"
grep -E "^\| scan" $OUT/f16-f32/results.md | head -20
TCUC_RELIABILITY_SPECS=exp/rel-f32.txt timeout 240 test/gpu/run_on_gpu.sh exp/G3 reliability > $OUT/reliability.log 2>&1; echo "reliability rc=$? $(( $(date +%s) - start ))s"; grep -E "^(ok|FAIL)|determinism:|nan/inf:" $OUT/reliability.log
T=/tmp/tcuc-rt/bin/tcuc
for v in B16b D17 B16b D17; do
  for i in 1 2 3; do TCUC_CACHE_DIR=$PWD/exp/$v timeout 30 $T run --device gpu --op scan --dtype f32 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --json 2>&1 | grep -o '"ms": [0-9.]*' ; done | tr '\n' ' '; echo " f32 $v"
done
echo "D17 f32 check: $(TCUC_CACHE_DIR=$PWD/exp/D17 timeout 30 $T run --device gpu --op scan --dtype f32 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror')"
echo "done $(( $(date +%s) - start ))s"
