#!/usr/bin/env bash
# tcuc 0.6.29 (bf16 -> f32 in the wide lagged shape prefetches 2 MB ahead with
# a 6 MB lag; bf16 -> bf16 there stores in the quads order): the bf16 scans'
# defaults with CUB, PyTorch and Triton from 2^17 (exp/D29), then the
# reliability runs of the two changed specs (lines 55-56 of
# test/gpu/reliability_specs.txt, exp/R29) and the GPU grid (exp/G29).
set -uo pipefail
TCUC_BENCH_SKIP_JIT=1 timeout 200 bench/run.sh exp/D29 /tmp/d29 \
  --ops "scan bf16->f32" "scan bf16->bf16" \
  --segments 131072 262144 524288 1048576 2097152 4194304 8388608 16777216 whole \
  --only default --reps 15 > /tmp/d29.log 2>&1
echo "defaults rc=$?"; tail -2 /tmp/d29.log
mkdir -p /tmp/lr
TCUC_RELIABILITY_SPECS=$PWD/exp/rel29.txt timeout 150 test/gpu/run_on_gpu.sh exp/R29 reliability > /tmp/lr/reliability-29.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability-29.log
cp /tmp/lr/reliability-29.log $OUT/
tar xJf exp/g29.tar.xz -C exp
timeout 200 test/gpu/run_on_gpu.sh exp/G29 grid > /tmp/grid.log 2>&1
echo "grid rc=$?"
tail -4 /tmp/grid.log
grep -iE "fail|mismatch" /tmp/grid.log | head -20
cp /tmp/grid.log $OUT/grid29.log
