#!/usr/bin/env bash
# All 48 reliability specs (test/gpu/reliability_specs.txt) on tcuc 0.6.26's
# kernels (exp/RA), in two halves (exp/relA1.txt, exp/relA2.txt; PART=1|2).
set -uo pipefail
mkdir -p /tmp/lr
part="${PART:-1}"
TCUC_RELIABILITY_SPECS=$PWD/exp/relA$part.txt timeout 500 test/gpu/run_on_gpu.sh exp/RA reliability > /tmp/lr/reliability-0.6.26-$part.log 2>&1
echo "reliability part $part rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability-0.6.26-$part.log
cp /tmp/lr/reliability-0.6.26-$part.log $OUT/
