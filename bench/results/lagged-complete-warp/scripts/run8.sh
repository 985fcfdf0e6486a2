#!/usr/bin/env bash
# tcuc 0.6.15's lagged scan at n = 2^31 + 12345 (one segment of 2^31): f16->f32 (gpu_grid large case 8) and f16->f16.
set -uo pipefail
start=$(date +%s)
TCUC_LARGE_CASES=8 test/gpu/run_on_gpu.sh exp/L large > /tmp/large.log 2>&1
echo "large rc=$? $(( $(date +%s) - start ))s"; tail -3 /tmp/large.log
TCUC_CACHE_DIR=$PWD/exp/L timeout 150 /tmp/tcuc-rt/bin/tcuc run --device gpu --op scan --variant lagged --dtype f16 --out-dtype f16 --segment 2147483648 --n 2147495993 --check --json > /tmp/large16.log 2>&1
echo "f16->f16 rc=$? $(( $(date +%s) - start ))s"; tail -2 /tmp/large16.log
cp /tmp/large.log /tmp/large16.log $OUT/
