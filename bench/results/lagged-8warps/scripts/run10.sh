#!/usr/bin/env bash
# tcuc 0.6.28 as committed (bf16 in the wide shape; bf16 -> bf16 at 4 tiles
# walking tickets with shared fields): reliability of the lagged bf16 specs
# (exp/R28b: line 44 of test/gpu/reliability_specs.txt, now walking, and
# 55-56, new), then the GPU grid with the final kernels (exp/G28b).
set -uo pipefail
mkdir -p /tmp/lr
TCUC_RELIABILITY_SPECS=$PWD/exp/rel28b.txt timeout 200 test/gpu/run_on_gpu.sh exp/R28b reliability > /tmp/lr/reliability-28b.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability-28b.log
cp /tmp/lr/reliability-28b.log $OUT/
tar xJf exp/G28bz/g.tar.xz -C exp
timeout 300 test/gpu/run_on_gpu.sh exp/G28b grid > /tmp/grid.log 2>&1
echo "grid rc=$?"
tail -5 /tmp/grid.log
grep -iE "fail|mismatch" /tmp/grid.log | head -20
cp /tmp/grid.log $OUT/grid28b.log
