#!/usr/bin/env bash
# Waves: lagged:2:4 at 2^22 and whole with the grid capped at W waves of resident blocks (TCUC_EXP_MAX_WAVES), 0.6.17.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/W /tmp/o/w64 "${ARGS[@]}" > /tmp/o/w64.log 2>&1
echo "w64 rc=$? $(grep -h 'tcuc' /tmp/o/w64/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
for w in 1 2 4 16 64 1 2 8; do
  o=/tmp/o/w$w; i=2; while [ -d $o ]; do o=/tmp/o/w$w-$i; i=$((i+1)); done
  TCUC_EXP_MAX_WAVES=$w PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/W --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "w$w rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done
tar czf $OUT/run1.tgz -C /tmp o
