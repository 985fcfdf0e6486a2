#!/usr/bin/env bash
# 0.6.18 vs the one-ticket form at the same version (W18), lagged:2:4 alternating; then the walking specs under the four sanitizers, determinism and NaN/Inf.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o6
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/N18 /tmp/o6/N18 "${ARGS[@]}" > /tmp/o6/N18.log 2>&1
echo "N18 rc=$? $(grep -h 'tcuc' /tmp/o6/N18/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
for v in W18 N18 W18 N18 W18; do
  o=/tmp/o6/$v; i=2; while [ -d $o ]; do o=/tmp/o6/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done
tar czf $OUT/run6.tgz -C /tmp o6
TCUC_RELIABILITY_SPECS=exp/rel18w.txt timeout 400 test/gpu/run_on_gpu.sh exp/R18 reliability > /tmp/o6/reliability.log 2>&1
echo "reliability rc=$?"; grep -E "determinism|SUMMARY|nan|FAIL|ok  " /tmp/o6/reliability.log | tail -30
cp /tmp/o6/reliability.log $OUT/
