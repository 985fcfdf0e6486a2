#!/usr/bin/env bash
# Run 1 (H100): tile runs in the reduce walks (A: 0.6.30, B: with
# TCUC_EXP_REDUCE_RUNS=1 at fill time), 3 alternating rounds; then the GPU
# correctness grid of 0.6.30 (exp/G from gpu_grid.py fill).
# Caches (build machine):
#   SEGS="1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576 16777216 whole"
#   TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/RA \
#     --ops "reduce f16->f32" --segments $SEGS --only default seg256n:4 grid:4
#   (the same with TCUC_EXP_REDUCE_RUNS=1 into exp/RB)
set -u
out="${OUT:-/tmp/out}"
SEGS="1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576 16777216 whole"
bench/ab.sh --rounds 3 "$out/ab" A=exp/RA B=exp/RB -- --ops "reduce f16->f32" \
  --segments $SEGS --only default seg256n:4 grid:4 --no-peers --reps 15 2>&1 | tee "$out/ab.txt"
timeout 330 test/gpu/run_on_gpu.sh exp/G grid 2>&1 | tail -30 | tee "$out/grid.txt"
cp /tmp/tcuc-grid.log "$out/" 2>/dev/null
