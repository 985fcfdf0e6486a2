#!/usr/bin/env bash
# 0.6.12 (lagged with the prefetch: lag 6 MB): defaults with peers, i8 lagged,
# GPU grid, lagged reliability.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/U
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/U/bench /tmp/U/defaults --ops "scan f16->f32" \
  --segments 4194304 8388608 16777216 whole --only default > /tmp/U/defaults.log 2>&1
echo "defaults rc=$? $(( $(date +%s) - start ))s"
grep -h 'f16->f32' /tmp/U/defaults/log.txt
mkdir -p /tmp/U/i8
PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/U/i8 --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
  --cub-lib $B/libcub_baselines.so --out /tmp/U/i8 --ops "scan i8->i32" --segments 4194304 whole --only lagged --no-peers > /tmp/U/i8.log 2>&1
echo "i8 rc=$? $(( $(date +%s) - start ))s"; grep -h 'tcuc' /tmp/U/i8/log.txt
find /tmp/U -name '*.png' -delete; tar czf $OUT/u.tgz -C /tmp U
test/gpu/run_on_gpu.sh exp/U/grid grid > /tmp/U/grid.log 2>&1
echo "grid rc=$? $(( $(date +%s) - start ))s"; grep -E '^(ok|FAIL)' /tmp/U/grid.log
TCUC_RELIABILITY_SPECS=exp/R-lagged-specs.txt test/gpu/run_on_gpu.sh exp/U/rel reliability > /tmp/U/reliability.log 2>&1
echo "reliability rc=$? $(( $(date +%s) - start ))s"; grep -E '^(ok|FAIL)' /tmp/U/reliability.log
tar czf $OUT/u.tgz -C /tmp U
rm -f $OUT/throughput.png
