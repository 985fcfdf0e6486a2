#!/usr/bin/env bash
# 0.6.11 (lagged f16->f32 / i8->i32 with the L2 prefetch): defaults with peers,
# i8 lagged with/without prefetch, GPU grid, lagged reliability.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/R/bench $OUT/defaults --ops "scan f16->f32" \
  --segments 4194304 8388608 16777216 whole --only default > $OUT/defaults.log 2>&1
echo "defaults rc=$? $(( $(date +%s) - start ))s"
grep -h 'f16->f32' $OUT/defaults/log.txt
for v in Q/i8-base R/i8pf Q/i8-base R/i8pf; do
  o=/tmp/i8/$(echo $v | tr / -); [ -d $o ] && o=$o-2; mkdir -p $o
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $o --ops "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers > $o.log 2>&1
  echo "$v rc=$? $(( $(date +%s) - start ))s: $(grep -h 'tcuc:lagged' $o/log.txt | tr -s ' ' | cut -d' ' -f3,8,9 | tr '\n' ';')"
done
cp -r /tmp/i8 $OUT/
test/gpu/run_on_gpu.sh exp/R/grid grid > $OUT/grid.log 2>&1
echo "grid rc=$? $(( $(date +%s) - start ))s"; tail -5 $OUT/grid.log
TCUC_RELIABILITY_SPECS=exp/R-lagged-specs.txt test/gpu/run_on_gpu.sh exp/R/rel reliability > $OUT/reliability.log 2>&1
echo "reliability rc=$? $(( $(date +%s) - start ))s"; tail -8 $OUT/reliability.log
