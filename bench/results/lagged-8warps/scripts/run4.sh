#!/usr/bin/env bash
# The 8-warp lagged shape for the other scans, and a profile of run 3's O
# (lagged:4:8 f16->f16, TCUC_EXP_ORDER=1 TCUC_EXP_MINB=3 TCUC_EXP_PFKB=0
# TCUC_EXP_LAGKB=9216). A2 = 0.6.27's defaults (f16->f32 lagged:4:4, i8->i32
# grid); Q = f16->f32 lagged:4:8 ORDER=1 MINB=3 (80 registers; its 6 MB lag
# and 2 MB prefetch), R = Q with LAGMB=9 PFKB=0; S = i8->i32 lagged:2:8
# (64 registers, 12 bytes of spills), T = i8->i32 lagged:4:8 ORDER=1 MINB=3
# (80 registers, 28 bytes of spills). 2^22 and whole, 3 alternating rounds.
set -uo pipefail
bench/gpu_build.sh >/dev/null || exit 2
B=/tmp/tcuc-bench-build/rt/bin/tcuc
mkdir -p /tmp/s
TCUC_CACHE_DIR=$PWD/exp/O timeout 150 ncu --clock-control none -k regex:k1 -c 1 \
  --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
  --section SpeedOfLight --section LaunchStats --section Occupancy \
  --section WarpStateStats --section SchedulerStats \
  -o /tmp/s/prof_O -f $B run --device gpu --op scan --dtype f16 --out-dtype f16 \
  --variant lagged --tiles-per-warp 4 --warps-per-block 8 \
  --segment 268435456 --n 268435456 > /tmp/s/ncu_O.log 2>&1
echo "ncu O rc=$?"; tail -3 /tmp/s/ncu_O.log
ncu -i /tmp/s/prof_O.ncu-rep --page details > $OUT/details_O.txt 2>&1
bench/ab.sh --rounds 3 /tmp/ab A2=exp/A2 Q=exp/Q R=exp/R S=exp/S T=exp/T -- \
  --ops "scan f16->f32" "scan i8->i32" --segments 4194304 whole \
  --only default lagged:4:8 lagged:2:8 --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
