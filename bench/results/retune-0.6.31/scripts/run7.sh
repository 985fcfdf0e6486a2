#!/usr/bin/env bash
# Run 7 (H100): after the tie-break change (fewer tiles first), the defaults
# that changed (reduce f16->f32 at 32768-2^17: grid:2; scan f16->f32 at
# 1024: block:1:4) with the peers (exp/D33), and the JIT's load half of the
# 8 JIT specs compiled here by `build/bin/tcuc-jit-latency exp/J`
# (CUDA_CACHE_DISABLE=1: the driver's PTX JIT cache off), twice.
set -uo pipefail
out="${OUT:-/tmp/out}"
mkdir -p /tmp/o7
TCUC_BENCH_SKIP_JIT=1 timeout 120 bench/run.sh exp/D33 /tmp/o7/reduce --ops "reduce f16->f32" \
  --segments 32768 65536 131072 --only default --reps 15 > /tmp/o7/reduce.log 2>&1
echo "reduce rc=$?"
TCUC_BENCH_SKIP_JIT=1 timeout 100 bench/run.sh exp/D33 /tmp/o7/scans --ops "scan f16->f32" \
  --segments 1024 --only default --reps 15 > /tmp/o7/scans.log 2>&1
echo "scans rc=$?"
for i in 1 2; do
  CUDA_CACHE_DISABLE=1 /tmp/tcuc-bench-build/rt/bin/tcuc-jit-latency exp/J > /tmp/o7/jit_latency_gpu_$i.txt 2>&1
  echo "jit $i rc=$?"; tail -4 /tmp/o7/jit_latency_gpu_$i.txt
done
cut -d, -f1-9 /tmp/o7/*/results.csv | grep -v "^op,"
rm -f /tmp/o7/*/throughput.png
tar czf "$out/run7.tgz" -C /tmp/o7 .
