#!/usr/bin/env bash
# tcuc 0.6.25 (bitcast register pairs): the f16 scans' defaults from 2^22
# with the peers (exp/D25, merged as defaults-0.6.25), then the first half
# of 16 reliability specs whose kernels changed (exp/rel25a.txt; memcheck,
# racecheck, initcheck, synccheck, determinism, NaN/Inf).
set -uo pipefail
mkdir -p /tmp/od /tmp/lr
TCUC_BENCH_SKIP_JIT=1 timeout 280 bench/run.sh exp/D25 /tmp/od/scans --ops "scan f16->f32" "scan f16->f16" --segments 4194304 8388608 16777216 whole --only default --reps 15 > /tmp/od/run6.log 2>&1
echo "defaults rc=$?"; cut -d, -f1-9 /tmp/od/scans/results.csv | grep -E "tcuc|ceiling|cub|triton|torch" | head -40
rm -f /tmp/od/scans/throughput.png
tar czf $OUT/defaults25.tgz -C /tmp/od scans run6.log
TCUC_RELIABILITY_SPECS=$PWD/exp/rel25a.txt timeout 290 test/gpu/run_on_gpu.sh exp/R25 reliability > /tmp/lr/reliability-a.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability-a.log | tail -12
cp /tmp/lr/reliability-a.log $OUT/
