#!/usr/bin/env bash
# ncu of the block:4:16 f16->f16 scan at segment 2^18, n = 2^28, without (exp/B0, 0.6.24)
# and with store runs (exp/BT: runs-switches.patch, TCUC_EXP_BLOCKRUNS=1 TCUC_EXP_NOLOADRUNS=1
# when filling): why store runs cost the block scans 7% (tile-runs run 4). Run 1 named the
# wrong kernel (the block scan is k0).
set -uo pipefail
bench/gpu_build.sh >/dev/null || exit 2
B=/tmp/tcuc-bench-build/rt/bin/tcuc
mkdir -p /tmp/s4
for x in "block-B0 B0" "block-BT BT"; do set -- $x
  TCUC_CACHE_DIR=$PWD/exp/$2 timeout 150 ncu --clock-control none -k regex:k0 -c 1 \
    --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis \
    --section SpeedOfLight --section Occupancy --section SchedulerStats \
    -o /tmp/s4/prof_$1 -f $B run --device gpu --op scan --dtype f16 --out-dtype f16 \
    --segment 262144 --n 268435456 > /tmp/s4/ncu_$1.log 2>&1
  echo "ncu $1 rc=$?"
  ncu -i /tmp/s4/prof_$1.ncu-rep --page details > /tmp/s4/details_$1.txt 2>&1
  ncu -i /tmp/s4/prof_$1.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > /tmp/s4/sass_$1.csv.gz
done
rm -f /tmp/s4/*.ncu-rep
tar czf $OUT/run4.tgz -C /tmp/s4 .
