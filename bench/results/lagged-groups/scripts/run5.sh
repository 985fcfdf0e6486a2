#!/usr/bin/env bash
# tcuc 0.6.30's defaults with the peers: f16->f32 from 2^17, f16->f16 from
# 2^17 with lagged:4:8 beside the default (the block scan up to 2^21), and
# bf16 at 2^22 / whole (exp/D: bench.py fill, scripts/fill-run5.sh).
set -uo pipefail
mkdir -p /tmp/od
S="131072 262144 524288 1048576 2097152 4194304 8388608 16777216 whole"
TCUC_BENCH_SKIP_JIT=1 timeout 250 bench/run.sh exp/D /tmp/od/f16-f32 \
  --ops "scan f16->f32" --segments $S --only default --reps 15 > /tmp/od/f32.log 2>&1
echo "f16->f32 rc=$?"
TCUC_BENCH_SKIP_JIT=1 timeout 200 bench/run.sh exp/D /tmp/od/f16-f16 \
  --ops "scan f16->f16" --segments $S --only default lagged:4:8 --reps 15 > /tmp/od/f16.log 2>&1
echo "f16->f16 rc=$?"
TCUC_BENCH_SKIP_JIT=1 timeout 120 bench/run.sh exp/D /tmp/od/bf16 \
  --ops "scan bf16->bf16" "scan bf16->f32" --segments 4194304 whole --only default --reps 15 > /tmp/od/bf16.log 2>&1
echo "bf16 rc=$?"
cat /tmp/od/*/results.csv | cut -d, -f1-9 | grep -v "^op,"
rm -f /tmp/od/*/throughput.png
tar czf $OUT/defaults30.tgz -C /tmp/od f16-f32 f16-f16 bf16 f32.log f16.log bf16.log
