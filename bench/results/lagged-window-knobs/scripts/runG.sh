#!/usr/bin/env bash
# Lagged f16->f32 2:4: lag D and completion lag E variants; ncu of the kept one.
set -uo pipefail
mkdir -p /tmp/res
start=$(date +%s)
for e in base lag4 lag16 lag24 eq e3q base; do
  o=/tmp/res/$e; [ -d $o ] && o=/tmp/res/${e}2
  TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/G/$e $o --ops "scan f16->f32" \
    --segments 4194304 whole --only lagged:2:4 --no-peers > $o.log 2>&1
  echo "$e rc=$? $(( $(date +%s) - start )) s: $(grep -h 'tcuc:lagged' $o/log.txt | tr -s ' ' | cut -d' ' -f3-8 | tr '\n' ';')"
  tar czf $OUT/g.tgz -C /tmp res
done
cmake --build /tmp/tcuc-bench-build/rt --target tcuc > /tmp/res/tcuc-build.log 2>&1
TCUC_CACHE_DIR=exp/G/base ncu --clock-control none -k regex:k1 -c 1 --section SpeedOfLight \
  --section Occupancy --section LaunchStats --section MemoryWorkloadAnalysis \
  --section WarpStateStats --section SchedulerStats --section SourceCounters \
  /tmp/tcuc-bench-build/rt/bin/tcuc run --device gpu --op scan --dtype f16 --out-dtype f32 \
  --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 \
  --warps-per-block 4 > /tmp/res/ncu-2-4.txt 2>&1
echo "ncu rc=$? $(( $(date +%s) - start )) s"
grep -E "Duration|DRAM Throughput|Registers Per|Achieved Occ|No Eligible|Warp Cycles Per Issued" /tmp/res/ncu-2-4.txt
tar czf $OUT/g.tgz -C /tmp res
