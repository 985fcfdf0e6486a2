#!/usr/bin/env bash
# tcuc 0.6.18's f16->f16 defaults from 2^22 with lagged:2:4 and lagged:2:8 forced beside them, and the peers.
set -uo pipefail
mkdir -p /tmp/o7
TCUC_BENCH_SKIP_JIT=1 timeout 500 bench/run.sh exp/D18b /tmp/o7/f16-f16 --ops "scan f16->f16" --segments 4194304 8388608 16777216 whole --only default lagged:2:4 lagged:2:8 --reps 15 > /tmp/o7/run.log 2>&1
echo "rc=$?"; cut -d, -f1-9 /tmp/o7/f16-f16/results.csv
tar czf $OUT/run7.tgz -C /tmp o7
