#!/usr/bin/env bash
# Ticket loop A/B on the H100: 0.6.17 (W) vs blocks that walk tickets, the next drawn by warp 1 (LA: stored at once; L: stored at the warp's end; LA0: no shared fields; LA1: shared fields for every type; LANC: no register cap), and RS0 (recompute, no share). lagged:2:4 whole.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/W /tmp/o/W "${ARGS[@]}" > /tmp/o/W.log 2>&1
echo "W rc=$? $(grep -h 'tcuc' /tmp/o/W/results.csv | cut -d, -f1,7,9 | tr '\n' ' ')"
cmake --build $B/rt --target tcuc > /tmp/o/tcuc-build.log 2>&1 || tail -5 /tmp/o/tcuc-build.log
for v in LA L LA1; do
for spec in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16" "--dtype i8"; do
  for n in 268435456 3000017; do
  echo "$v check $spec n=$n: $(TCUC_CACHE_DIR=$PWD/exp/$v timeout 30 $B/rt/bin/tcuc run --device gpu --op scan $spec --segment 268435456 -n $n --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
done; done; done
for v in LA L LA0 LA1 LANC RS0 W LA L LANC RS0 W LA; do
  o=/tmp/o/$v; i=2; while [ -d $o ]; do o=/tmp/o/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,7,9 | tr '\n' ' ')"
done
tar czf $OUT/run3.tgz -C /tmp o
