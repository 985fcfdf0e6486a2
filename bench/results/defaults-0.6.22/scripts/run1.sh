#!/usr/bin/env bash
# tcuc 0.6.22 (lagged f16->f16 and i8: shared fields, constant divisor): the scans' defaults from 2^22 with the peers; the GPU grid and unit tests; the lagged and look-back reliability specs.
set -uo pipefail
mkdir -p /tmp/od
TCUC_BENCH_SKIP_JIT=1 timeout 330 bench/run.sh exp/D /tmp/od/defaults --ops "scan f16->f16" "scan i8->i32" --segments 4194304 8388608 16777216 whole --only default lagged:2:4 --reps 15 > /tmp/od/run.log 2>&1
echo "defaults rc=$?"; cut -d, -f1-9 /tmp/od/defaults/results.csv
tar czf $OUT/defaults.tgz -C /tmp od
timeout 200 test/gpu/run_on_gpu.sh exp/G grid > /tmp/od/grid.log 2>&1; echo "grid rc=$?"; tail -4 /tmp/od/grid.log; cp /tmp/od/grid.log $OUT/
TCUC_RELIABILITY_SPECS=$PWD/exp/rel.txt timeout 240 test/gpu/run_on_gpu.sh exp/R reliability > /tmp/od/reliability.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/od/reliability.log | tail -12
cp /tmp/od/reliability.log $OUT/
