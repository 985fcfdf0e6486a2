#!/usr/bin/env bash
# The quads element order for 16-bit scan tiles (8-byte loads and stores a
# lane, whole 32-byte sectors) against the fixed order (QA: the same tcuc
# with TCUC_EXP_FIXED=1, kernels byte-identical to 0.6.26's): the
# f16->f32 and f16->f16 defaults at every benchmarked size, 2 alternating
# rounds; then the GPU grid (715 kernels, quads build) for correctness.
set -uo pipefail
bench/ab.sh --rounds 2 /tmp/ab QA=exp/QA QB=exp/QB -- \
  --ops "scan f16->f16" "scan f16->f32" --only default --no-peers \
  --reps 15 2>&1 | tee $OUT/ab.txt
tar xJf exp/QGz/qg.tar.xz -C exp
timeout 300 test/gpu/run_on_gpu.sh exp/QG grid > /tmp/grid.log 2>&1
echo "grid rc=$?" | tee -a $OUT/ab.txt
tail -5 /tmp/grid.log | tee -a $OUT/ab.txt
grep -iE "fail|mismatch" /tmp/grid.log | head -20 | tee -a $OUT/ab.txt
cp /tmp/grid.log $OUT/
