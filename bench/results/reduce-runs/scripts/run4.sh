#!/usr/bin/env bash
# Run 4 (H100): tile runs in the seg256n scan walk (A: 0.6.31, B: the
# same with TCUC_EXP_SCAN_RUNS=1 at fill time), 3 alternating rounds, at
# 512-16384 for the three scans; then reduce f16->f32 with 8 tiles in
# flight (seg256n:8, grid:8) beside the default, 3 rounds. Caches:
#   S="512 1024 2048 4096 8192 16384"
#   TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/SA \
#     --ops "scan f16->f16" "scan f16->f32" "scan i8->i32" --segments $S --only default seg256n:2 seg256n:4
#   (exp/SB the same with TCUC_EXP_SCAN_RUNS=1)
#   TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/T8 \
#     --ops "reduce f16->f32" --segments 4096 8192 16384 32768 65536 131072 262144 \
#     --only default seg256n:8 grid:8 seg256n:4
set -uo pipefail
out="${OUT:-/tmp/out}"
mkdir -p /tmp/o4
bench/ab.sh --rounds 3 /tmp/o4/scan A=exp/SA B=exp/SB -- \
  --ops "scan f16->f16" "scan f16->f32" "scan i8->i32" --segments 512 1024 2048 4096 8192 16384 \
  --only default seg256n:2 seg256n:4 --no-peers --reps 15 2>&1 | tee /tmp/o4/ab-scan.txt
bench/ab.sh --rounds 3 /tmp/o4/t8 T8=exp/T8 -- --ops "reduce f16->f32" \
  --segments 4096 8192 16384 32768 65536 131072 262144 --only default seg256n:8 grid:8 seg256n:4 \
  --no-peers --reps 15 2>&1 | tee /tmp/o4/t8.txt
cp /tmp/o4/ab-scan.txt /tmp/o4/t8.txt "$out/"
