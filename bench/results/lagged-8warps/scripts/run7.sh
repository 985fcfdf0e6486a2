#!/usr/bin/env bash
# tcuc 0.6.28: reliability of the lagged f16 specs (exp/R28: the lagged
# f16 lines of test/gpu/reliability_specs.txt, 53 and 54 new, compiled with
# `tcuc compile SPEC --cache-dir`), then the GPU grid (exp/G28 from
# `test/gpu/gpu_grid.py fill`, carried as exp/G28z/g.tar.xz).
set -uo pipefail
mkdir -p /tmp/lr
TCUC_RELIABILITY_SPECS=$PWD/exp/rel28.txt timeout 240 test/gpu/run_on_gpu.sh exp/R28 reliability > /tmp/lr/reliability-28.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability-28.log
cp /tmp/lr/reliability-28.log $OUT/
tar xJf exp/G28z/g.tar.xz -C exp
timeout 300 test/gpu/run_on_gpu.sh exp/G28 grid > /tmp/grid.log 2>&1
echo "grid rc=$?"
tail -5 /tmp/grid.log
grep -iE "fail|mismatch" /tmp/grid.log | head -20
cp /tmp/grid.log $OUT/grid28.log
