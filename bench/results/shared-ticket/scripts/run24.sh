#!/usr/bin/env bash
# 0.6.17 f16->f32 lagged:2:4: ticket stored first (shipped, D17c) vs after the derived fields (the A/B form, SHO); alternating.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/D17c /tmp/o/D17c "${ARGS[@]}" > /tmp/o/D17c.log 2>&1
echo "D17c rc=$? $(grep -h 'tcuc' /tmp/o/D17c/results.csv | cut -d, -f2,5,7 | tr '\n' ' ')"
for v in SHO D17c SHO D17c SHO; do
  o=/tmp/o/$v; i=2; while [ -d $o ]; do o=/tmp/o/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 60 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f2,5,7 | tr '\n' ' ')"
done
