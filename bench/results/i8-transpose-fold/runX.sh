#!/usr/bin/env bash
# 0.6.14 (table re-tuned from run 19): i8->i32 defaults with peers; GPU grid.
set -uo pipefail
start=$(date +%s)
mkdir -p /tmp/X
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/X/i8 /tmp/X/i8-i32 --ops "scan i8->i32" --only default > /tmp/X/i8.log 2>&1
echo "i8 rc=$? $(( $(date +%s) - start ))s"
find /tmp/X -name '*.png' -delete; tar czf $OUT/x.tgz -C /tmp X
test/gpu/run_on_gpu.sh exp/X/grid grid > /tmp/X/grid.log 2>&1
echo "grid rc=$? $(( $(date +%s) - start ))s"; grep -E '^(ok|FAIL)' /tmp/X/grid.log
tar czf $OUT/x.tgz -C /tmp X
rm -f $OUT/throughput.png
