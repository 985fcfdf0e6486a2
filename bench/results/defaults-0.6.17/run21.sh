#!/usr/bin/env bash
# tcuc 0.6.17 f16->f32 defaults from 2^22 with the peers.
set -uo pipefail
start=$(date +%s)
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/D17 $OUT/f16-f32 --ops "scan f16->f32" --segments 4194304 8388608 16777216 whole --only default --reps 15 > $OUT/bench.log 2>&1; echo "bench rc=$? $(( $(date +%s) - start ))s"
cat $OUT/f16-f32/results.md | head -30
