#!/usr/bin/env bash
# Run 6 (H100): the re-tuned defaults of tcuc 0.6.31 with the peers at the
# cells whose row changed (exp/D32), bf16 beside them, and the 8-tile
# reduce walks' reliability specs (exp/R32). Caches:
#   TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/D32 \
#     --ops "reduce f16->f32" --segments 2048 4096 8192 16384 32768 65536 131072 262144 524288 --only default
#   (and "scan f16->f16" at 512 1024 2048 4096 2097152, "scan f16->f32" at 1024,
#    "reduce bf16->f32" "scan bf16->bf16" "scan bf16->f32" at 1024 8192 65536)
#   while read -r s; do build/bin/tcuc compile $s --arch sm_90 --cache-dir exp/R32 -o /dev/null; done \
#     < bench/results/retune-0.6.31/scripts/reliability-specs.txt
set -uo pipefail
out="${OUT:-/tmp/out}"
mkdir -p /tmp/o6
TCUC_BENCH_SKIP_JIT=1 timeout 150 bench/run.sh exp/D32 /tmp/o6/reduce --ops "reduce f16->f32" \
  --segments 2048 4096 8192 16384 32768 65536 131072 262144 524288 --only default --reps 15 > /tmp/o6/reduce.log 2>&1
echo "reduce rc=$?"
TCUC_BENCH_SKIP_JIT=1 timeout 120 bench/run.sh exp/D32 /tmp/o6/scans --ops "scan f16->f16" "scan f16->f32" \
  --segments 512 1024 2048 4096 2097152 --only default --reps 15 > /tmp/o6/scans.log 2>&1
echo "scans rc=$?"
TCUC_BENCH_SKIP_JIT=1 timeout 120 bench/run.sh exp/D32 /tmp/o6/bf16 --ops "reduce bf16->f32" "scan bf16->bf16" "scan bf16->f32" \
  --segments 1024 8192 65536 --only default --reps 15 > /tmp/o6/bf16.log 2>&1
echo "bf16 rc=$?"
TCUC_RELIABILITY_SPECS=bench/results/retune-0.6.31/scripts/reliability-specs.txt \
  timeout 150 test/gpu/run_on_gpu.sh exp/R32 reliability > /tmp/o6/reliability.log 2>&1
echo "reliability rc=$?"; tail -9 /tmp/o6/reliability.log
rm -f /tmp/o6/*/throughput.png
tar czf "$out/run6.tgz" -C /tmp/o6 .
