#!/usr/bin/env bash
# Recompute A/B: 0.6.17 (W) vs recompute after the exchange (R: sharing rule as shipped; RS1: every type shares; RS0: none shares), lagged:2:4 whole.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/W /tmp/o/W "${ARGS[@]}" > /tmp/o/W.log 2>&1
echo "W rc=$? $(grep -h 'tcuc' /tmp/o/W/results.csv | cut -d, -f1,7,9 | tr '\n' ' ')"
for v in R RS1 RS0; do
for spec in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16" "--dtype i8"; do
  echo "$v check $spec: $(TCUC_CACHE_DIR=$PWD/exp/$v timeout 30 $B/rt/bin/tcuc run --device gpu --op scan $spec --segment 268435456 -n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
done; done
for v in R RS1 RS0 W R RS1 RS0 W R RS1; do
  o=/tmp/o/$v; i=2; while [ -d $o ]; do o=/tmp/o/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,7,9 | tr '\n' ' ')"
done
tar czf $OUT/run2.tgz -C /tmp o
