#!/usr/bin/env bash
# ncu source-level stall sampling of the lagged scan (2 tiles, 4 warps), f16->f32 and f16->f16.
set -uo pipefail
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
cmake -S . -B $B/rt -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DTCUC_ENABLE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/o/cmake.log 2>&1 && cmake --build $B/rt --target tcuc >> /tmp/o/cmake.log 2>&1 || { tail -20 /tmp/o/cmake.log; exit 1; }
for o in f32 f16; do
  TCUC_CACHE_DIR=$PWD/exp/P ncu --clock-control none -k regex:k1 -c 1 --section SpeedOfLight --section Occupancy --section WarpStateStats --section SourceCounters --section SchedulerStats \
    -o /tmp/o/prof_$o -f $B/rt/bin/tcuc run --device gpu --op scan --dtype f16 --out-dtype $o --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 > /tmp/o/ncu_$o.log 2>&1
  echo "ncu $o rc=$?"; tail -3 /tmp/o/ncu_$o.log
  ncu -i /tmp/o/prof_$o.ncu-rep --page details > /tmp/o/details_$o.txt 2>&1
  ncu -i /tmp/o/prof_$o.ncu-rep --page source --csv --print-source sass > /tmp/o/sass_$o.csv 2>/tmp/o/sass_$o.err
  echo "sass rows: $(wc -l < /tmp/o/sass_$o.csv)"; head -c 600 /tmp/o/sass_$o.csv; echo
done
rm -f /tmp/o/*.ncu-rep
tar czf $OUT/run3.tgz -C /tmp o
