#!/usr/bin/env bash
# GPU grid on the new kernels, then ncu source counters of the new lagged scans.
set -uo pipefail
start=$(date +%s)
mkdir -p /tmp/o
test/gpu/run_on_gpu.sh exp/G grid 2>&1 | tail -8
echo "grid done $(( $(date +%s) - start ))s"
for o in f32 f16; do
  TCUC_CACHE_DIR=$PWD/exp/New ncu --clock-control none -k regex:k1 -c 1 --section SpeedOfLight --section WarpStateStats --section SourceCounters --section SchedulerStats \
    -o /tmp/o/prof_$o -f /tmp/tcuc-rt/bin/tcuc run --device gpu --op scan --dtype f16 --out-dtype $o --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 > /tmp/o/ncu_$o.log 2>&1
  echo "ncu $o rc=$?"; tail -2 /tmp/o/ncu_$o.log
  ncu -i /tmp/o/prof_$o.ncu-rep --page details > /tmp/o/details_$o.txt 2>&1
  ncu -i /tmp/o/prof_$o.ncu-rep --page source --csv --print-source sass > /tmp/o/sass_$o.csv 2>/tmp/o/sass_$o.err
  gzip /tmp/o/sass_$o.csv
done
rm -f /tmp/o/*.ncu-rep
cp /tmp/tcuc-grid.log /tmp/o/ 2>/dev/null
echo "done $(( $(date +%s) - start ))s"
tar czf $OUT/run10.tgz -C /tmp o
