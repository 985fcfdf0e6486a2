#!/usr/bin/env bash
# A1 (the ticket's atomic on a global address) against A3 (A1 and the look-back words' relaxed loads and stores on global addresses too), H100, lagged:2:4.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o2
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/A1 /tmp/o2/A1 "${ARGS[@]}" > /tmp/o2/A1.log 2>&1
echo "A1 rc=$? $(grep -h 'tcuc' /tmp/o2/A1/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
for v in A3 A1 A3 A1 A3; do
  o=/tmp/o2/$v; i=2; while [ -d $o ]; do o=/tmp/o2/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done
tar czf $OUT/run2.tgz -C /tmp o2
