#!/usr/bin/env bash
# 0.6.13: the i8 transpose's f16 fragment reaches the mma without the i8
# round trip. i8->i32 defaults, every size: with peers (after), then
# before / after / before / after without peers; then the GPU grid.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/V
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/V/after /tmp/V/after-peers --ops "scan i8->i32" --only default > /tmp/V/after-peers.log 2>&1
echo "after-peers rc=$? $(( $(date +%s) - start ))s"
for v in before after before after; do
  o=/tmp/V/$v; [ -d $o ] && o=$o-2; mkdir -p $o
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/V/${v} --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $o --ops "scan i8->i32" --only default --no-peers > $o.log 2>&1
  echo "$o rc=$? $(( $(date +%s) - start ))s"
done
find /tmp/V -name '*.png' -delete; tar czf $OUT/v.tgz -C /tmp V
test/gpu/run_on_gpu.sh exp/V/grid grid > /tmp/V/grid.log 2>&1
echo "grid rc=$? $(( $(date +%s) - start ))s"; grep -E '^(ok|FAIL)' /tmp/V/grid.log
tar czf $OUT/v.tgz -C /tmp V
rm -f $OUT/throughput.png
