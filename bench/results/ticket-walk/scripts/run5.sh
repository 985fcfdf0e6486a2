#!/usr/bin/env bash
# 0.6.18 correctness on the GPU: the lagged reliability specs (sanitizers, determinism, NaN/Inf), the large f16->f16 lagged case, the grid.
set -uo pipefail
mkdir -p /tmp/o5
tar xzf exp/G18.tgz -C exp
TCUC_RELIABILITY_SPECS=exp/rel18.txt timeout 280 test/gpu/run_on_gpu.sh exp/R18 reliability > /tmp/o5/reliability.log 2>&1
echo "reliability rc=$?"; grep -E "determinism|ERROR SUMMARY|nan|FAIL|fail|ok" /tmp/o5/reliability.log | tail -30
TCUC_LARGE_CASES=9 timeout 120 test/gpu/run_on_gpu.sh exp/G18 large > /tmp/o5/large.log 2>&1
echo "large rc=$?"; tail -4 /tmp/o5/large.log
timeout 300 test/gpu/run_on_gpu.sh exp/G18 grid > /tmp/o5/grid.log 2>&1
echo "grid rc=$?"; tail -6 /tmp/o5/grid.log
cp /tmp/o5/*.log $OUT/
