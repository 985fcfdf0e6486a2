#!/usr/bin/env bash
# ncu (--clock-control none) of tcuc 0.6.20's lagged:2:4 kernels at n = 2^28: f16->f32 one ticket a block (shipped, exp/N1), f16->f32 walking tickets (TCUC_EXP_WALK32, exp/N2), f16->f16 walking (shipped, exp/N1).
set -uo pipefail
B=/tmp/tcuc-rt/bin/tcuc; [ -x $B ] || { cmake -S . -B /tmp/tcuc-rt -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/tcuc-rt >/dev/null; }
mkdir -p /tmp/n
prof() { # name cache out-dtype
  TCUC_CACHE_DIR=$PWD/exp/$2 ncu --clock-control none -k regex:k1 -c 1 --section SpeedOfLight --section WarpStateStats --section SchedulerStats --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
    -o /tmp/n/prof_$1 -f $B run --device gpu --op scan --dtype f16 --out-dtype $3 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 > /tmp/n/ncu_$1.log 2>&1
  echo "ncu $1 rc=$?"; tail -1 /tmp/n/ncu_$1.log
  ncu -i /tmp/n/prof_$1.ncu-rep --page details > /tmp/n/details_$1.txt 2>&1
}
prof f32-one-ticket N1 f32
prof f32-walking N2 f32
prof f16-walking N1 f16
rm -f /tmp/n/*.ncu-rep
cp /tmp/n/details_*.txt $OUT/
