#!/usr/bin/env bash
# Quads order with the lagged kernels held to 5 blocks an SM (QC:
# TCUC_EXP_MINW=20, 96 registers; uncapped they took 100-102, 4 blocks)
# against the fixed order (QF, = 0.6.26's kernels): f16->f16 and f16->f32
# defaults at 2^22, 2^24, whole, 3 alternating rounds; ncu (SpeedOfLight,
# MemoryWorkloadAnalysis) of both f16->f16 kernels at n = 2^28.
set -uo pipefail
bench/gpu_build.sh >/dev/null || exit 2
B=/tmp/tcuc-bench-build/rt/bin/tcuc
mkdir -p /tmp/s
prof() { # name cache
  TCUC_CACHE_DIR=$PWD/exp/$2 timeout 150 ncu --clock-control none -k regex:k1 -c 1 \
    --section MemoryWorkloadAnalysis --section MemoryWorkloadAnalysis_Tables \
    --section SpeedOfLight --section LaunchStats --section Occupancy \
    -o /tmp/s/prof_$1 -f $B run --device gpu --op scan --dtype f16 --out-dtype f16 \
    --segment 268435456 --n 268435456 > /tmp/s/ncu_$1.log 2>&1
  echo "ncu $1 rc=$?"
  ncu -i /tmp/s/prof_$1.ncu-rep --page details > /tmp/s/details_$1.txt 2>&1
}
prof fixed QF
prof quads QC
rm -f /tmp/s/*.ncu-rep
cp /tmp/s/details_* $OUT/
bench/ab.sh --rounds 3 /tmp/ab QF=exp/QF QC=exp/QC -- \
  --ops "scan f16->f16" "scan f16->f32" --segments 4194304 16777216 whole \
  --only default --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
