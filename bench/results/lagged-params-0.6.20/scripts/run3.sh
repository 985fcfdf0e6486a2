#!/usr/bin/env bash
# ncu warp-state sampling by SASS line of tcuc 0.6.20's lagged:2:4 f16->f32 kernels at n = 2^28: one ticket a block (exp/N1) and walking tickets (exp/N2).
set -uo pipefail
B=/tmp/tcuc-rt/bin/tcuc; [ -x $B ] || { cmake -S . -B /tmp/tcuc-rt -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/tcuc-rt >/dev/null; }
mkdir -p /tmp/s
for x in "one-ticket N1" "walking N2"; do set -- $x
  TCUC_CACHE_DIR=$PWD/exp/$2 ncu --clock-control none -k regex:k1 -c 1 --section WarpStateStats --section SourceCounters \
    -o /tmp/s/prof_$1 -f $B run --device gpu --op scan --dtype f16 --out-dtype f32 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 > /tmp/s/ncu_$1.log 2>&1
  echo "ncu $1 rc=$?"
  ncu -i /tmp/s/prof_$1.ncu-rep --page details > /tmp/s/details_$1.txt 2>&1
  ncu -i /tmp/s/prof_$1.ncu-rep --page raw --csv > /tmp/s/raw_$1.csv 2>&1
  ncu -i /tmp/s/prof_$1.ncu-rep --page source --csv --print-source sass > /tmp/s/sass_$1.csv 2>/tmp/s/sass_$1.err
  gzip -f /tmp/s/sass_$1.csv /tmp/s/raw_$1.csv
done
rm -f /tmp/s/*.ncu-rep
cp /tmp/s/* $OUT/
