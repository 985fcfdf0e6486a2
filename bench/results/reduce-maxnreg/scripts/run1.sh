#!/usr/bin/env bash
# Run 1 (H100): the reduce walks (seg256n, the grid's chunk pass) with
# `.maxnreg 56` (B: TCUC_EXP_REDUCE_MINBLOCKS=56 at fill time, which puts
# nvvm.maxnreg on their kernels) against 0.6.31 (A): 59 -> 56 registers
# lets 9 blocks of 128 threads (36 warps) share an SM instead of 8 (32).
# 3 alternating rounds, defaults and seg256n:8.
# Caches (build machine):
#   SEGS="1024 2048 4096 8192 16384 131072 1048576 16777216 whole"
#   TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/MA \
#     --ops "reduce f16->f32" --segments $SEGS --only default seg256n:8
#   (the same with TCUC_EXP_REDUCE_MINBLOCKS=56 into exp/MB)
set -u
out="${OUT:-/tmp/out}"
SEGS="1024 2048 4096 8192 16384 131072 1048576 16777216 whole"
timeout 300 bench/ab.sh --rounds 3 "$out/ab" A=exp/MA B=exp/MB -- --ops "reduce f16->f32" \
  --segments $SEGS --only default seg256n:8 --no-peers --reps 15 2>&1 | tee "$out/ab.txt"
rm -f "$out"/ab/*/throughput.png
