#!/usr/bin/env bash
# f16->f32 lagged:2:4 whole: lag D 5/6/7 MB, prefetch 1/2/3 MB (0.6.17).
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" --segments whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/D17 /tmp/o/D17 "${ARGS[@]}" > /tmp/o/D17.log 2>&1
echo "D17 rc=$? $(grep -h 'tcuc' /tmp/o/D17/results.csv | cut -d, -f3-8)"
cmake --build $B/rt --target tcuc > /dev/null 2>&1
for v in L5 L7 P1 P3 D17; do
  o=/tmp/o/$v; [ -d $o ] && o=$o-2
  PYTHONUNBUFFERED=1 timeout 60 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f3-8)"
done
