#!/usr/bin/env bash
# The sweep's lagged rows for the f16 scans from 2^22 with the tile runs
# (2 and 4 tiles, 4 and 8 warps), for `tcuc tune`.
set -uo pipefail
mkdir -p /tmp/sw
TCUC_BENCH_SKIP_JIT=1 timeout 400 bench/run.sh exp/SWP /tmp/sw/lagged --ops "scan f16->f16" "scan f16->f32" --segments 4194304 8388608 16777216 whole --only lagged:2:4 lagged:4:4 lagged:4:8 lagged:2:8 --no-peers --reps 15 > /tmp/sw/run.log 2>&1
echo "sweep rc=$?"; grep tcuc /tmp/sw/lagged/results.csv | cut -d, -f1-9
rm -f /tmp/sw/lagged/throughput.png
tar czf $OUT/sweep.tgz -C /tmp/sw lagged run.log
