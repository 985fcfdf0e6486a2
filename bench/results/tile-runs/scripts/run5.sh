#!/usr/bin/env bash
# tcuc 0.6.23 (the lagged scan's tile runs): the scans' defaults and
# lagged:2:4 from 2^22 and on the whole array, with the peers.
set -uo pipefail
mkdir -p /tmp/od
TCUC_BENCH_SKIP_JIT=1 timeout 560 bench/run.sh exp/D /tmp/od/defaults --ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 8388608 16777216 whole --only default lagged:2:4 --reps 15 > /tmp/od/run.log 2>&1
echo "defaults rc=$?"; cut -d, -f1-9 /tmp/od/defaults/results.csv
rm -f /tmp/od/defaults/throughput.png
tar czf $OUT/defaults.tgz -C /tmp/od defaults run.log
