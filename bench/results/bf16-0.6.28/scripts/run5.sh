#!/usr/bin/env bash
# bf16 in the benchmark (bench.py's EXTRA_OPS, swept where --ops names them):
# the full sweep (every variant, the default, CUB, PyTorch, Triton) of the
# bf16 scans, 2^4..2^24 and the whole array, tcuc 0.6.28's kernels (exp/BF,
# `bench.py fill --ops "scan bf16->f32" "scan bf16->bf16" "reduce bf16->f32"`
# here, carried as exp/BF.tar.xz).
set -uo pipefail
mkdir -p /tmp/bf && tar xJf exp/BF.tar.xz -C /tmp/bf
TCUC_BENCH_SKIP_JIT=1 timeout 560 bench/run.sh /tmp/bf/BF /tmp/bf/scan \
  --ops "scan bf16->f32" "scan bf16->bf16" --reps 15 > /tmp/bf/scan.log 2>&1
echo "rc=$?"; tail -3 /tmp/bf/scan.log
cp /tmp/bf/scan.log $OUT/; mkdir -p $OUT/scan; cp /tmp/bf/scan/* $OUT/scan/
