#!/usr/bin/env bash
# 0.6.18 (lagged blocks walk tickets for f16->f16 and i8->i32) vs 0.6.17 (W), lagged:2:4, alternating; then 0.6.18's f16->f16 defaults from 2^22 with the peers.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/W /tmp/o/W "${ARGS[@]}" > /tmp/o/W.log 2>&1
echo "W rc=$? $(grep -h 'tcuc' /tmp/o/W/results.csv | cut -d, -f1,2,7,9 | tr '\n' ' ')"
for v in N18 W N18 W N18; do
  o=/tmp/o/$v; i=2; while [ -d $o ]; do o=/tmp/o/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7,9 | tr '\n' ' ')"
done
TCUC_BENCH_SKIP_JIT=1 timeout 400 bench/run.sh exp/D18 /tmp/o/D18/f16-f16 --ops "scan f16->f16" --segments 4194304 8388608 16777216 whole --only default lagged:2:8 --reps 15 > /tmp/o/D18.log 2>&1
echo "D18 rc=$?"; cut -d, -f1-9 /tmp/o/D18/f16-f16/results.csv
tar czf $OUT/run4.tgz -C /tmp o
