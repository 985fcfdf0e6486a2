#!/usr/bin/env bash
# The two lagged reliability specs not yet under all four sanitizers with 0.6.18 (i8 4:16, one-warp f16->f16).
set -uo pipefail
TCUC_RELIABILITY_SPECS=exp/rel18r.txt timeout 500 test/gpu/run_on_gpu.sh exp/R18 reliability > /tmp/rel8.log 2>&1
echo "reliability rc=$?"; grep -E "SUMMARY|determinism|nan/inf|^ok|^FAIL" /tmp/rel8.log | cut -c1-220
cp /tmp/rel8.log $OUT/reliability-rest.log
