#!/usr/bin/env bash
# A 16-bit fragment's register pair as one bitcast i32 for movmatrix (the
# transposed operand of L·A) and for bf16 mma operands, instead of halves
# shifted and or-ed (ptxas kept two PRMT a pair: 32 of the lagged f16->f16
# kernel's 636 warp instructions a ticket). A/B of the scans' defaults,
# D0 = 0.6.24 (60006d4), D1 = the change; then the correctness grid on the
# changed compiler's kernels (exp/G1: 455 of its 715 kernels differ).
set -uo pipefail
mkdir -p /tmp/lr
A=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 256 4096 65536 262144 1048576 4194304 whole --only default --no-peers --reps 15)
timeout 330 bench/ab.sh --rounds 2 /tmp/lr/ab5 D0=exp/D0 D1=exp/D1 -- "${A[@]}"
rm -f /tmp/lr/ab5/*/throughput.png
tar czf $OUT/ab5.tgz -C /tmp/lr ab5
timeout 220 test/gpu/run_on_gpu.sh exp/G1 grid > /tmp/lr/grid5.log 2>&1
echo "grid rc=$?"; tail -4 /tmp/lr/grid5.log
cp /tmp/lr/grid5.log $OUT/
