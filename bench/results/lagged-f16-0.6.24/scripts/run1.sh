#!/usr/bin/env bash
# ncu (WarpStateStats, SourceCounters, memory) of tcuc 0.6.24's lagged:4:4
# f16->f16 kernel at n = 2^28 whole (exp/L0), and of the block:4:16 f16->f16
# scan at segment 2^18 without (exp/B0) and with store runs (exp/BT:
# experiment switches TCUC_EXP_BLOCKRUNS=1 TCUC_EXP_NOLOADRUNS=1 when
# filling); then A/B of the lagged defaults with tile runs of loads and
# stores (L0, as shipped) and of loads only (L1: TCUC_EXP_NOSTORERUNS=1).
set -uo pipefail
bench/gpu_build.sh >/dev/null || exit 2
B=/tmp/tcuc-bench-build/rt/bin/tcuc
mkdir -p /tmp/s
prof() { # name cache segment
  TCUC_CACHE_DIR=$PWD/exp/$2 timeout 150 ncu --clock-control none -k regex:k1 -c 1 \
    --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis \
    --section SpeedOfLight --section LaunchStats --section Occupancy --section SchedulerStats \
    -o /tmp/s/prof_$1 -f $B run --device gpu --op scan --dtype f16 --out-dtype f16 \
    --segment $3 --n 268435456 > /tmp/s/ncu_$1.log 2>&1
  echo "ncu $1 rc=$?"
  ncu -i /tmp/s/prof_$1.ncu-rep --page details > /tmp/s/details_$1.txt 2>&1
  ncu -i /tmp/s/prof_$1.ncu-rep --page source --csv --print-source sass > /tmp/s/sass_$1.csv 2>/tmp/s/sass_$1.err
  gzip -f /tmp/s/sass_$1.csv
}
prof lagged44 L0 268435456
prof block-B0 B0 262144
prof block-BT BT 262144
rm -f /tmp/s/*.ncu-rep
cp /tmp/s/* $OUT/
A=(--ops "scan f16->f16" "scan f16->f32" --segments 4194304 whole --only default --no-peers --reps 15)
timeout 280 bench/ab.sh --rounds 2 /tmp/lr/ab1 L0=exp/L0 L1=exp/L1 -- "${A[@]}"
rm -f /tmp/lr/ab1/*/throughput.png
tar czf $OUT/ab1.tgz -C /tmp/lr ab1
