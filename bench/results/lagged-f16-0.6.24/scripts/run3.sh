#!/usr/bin/env bash
# Why the early look-back reads lost (run 2): A/B of
#   L0  = 0.6.24 as shipped
#   X1  = the new lowering with every read at the op (TCUC_EXP_LATE=1), warp 0 looks back, second barrier, 5 blocks an SM
#   X3  = as E1C but the completion's read at the op (TCUC_EXP_LATECOMPLETE=1): only the prefix words early
#   E1C = run 2's (prefix and completion words read at the ticket's start, warp 0 looks back, second barrier)
# then ncu (WarpStateStats, SourceCounters) of E1C's f16->f16 kernel at n = 2^28 whole.
set -uo pipefail
mkdir -p /tmp/lr /tmp/s
A=(--ops "scan f16->f16" "scan f16->f32" --segments 4194304 whole --only default --no-peers --reps 15)
timeout 330 bench/ab.sh --rounds 2 /tmp/lr/ab3 L0=exp/L0 X1=exp/X1 X3=exp/X3 E1C=exp/E1C -- "${A[@]}"
rm -f /tmp/lr/ab3/*/throughput.png
B=/tmp/tcuc-bench-build/rt/bin/tcuc
TCUC_CACHE_DIR=$PWD/exp/E1C timeout 150 ncu --clock-control none -k regex:k1 -c 1 \
  --section WarpStateStats --section SourceCounters --section MemoryWorkloadAnalysis --section SpeedOfLight \
  --section SchedulerStats -o /tmp/s/prof_E1C -f $B run --device gpu --op scan --dtype f16 --out-dtype f16 \
  --segment 268435456 --n 268435456 > /tmp/s/ncu_E1C.log 2>&1
echo "ncu rc=$?"
ncu -i /tmp/s/prof_E1C.ncu-rep --page details > /tmp/s/details_E1C.txt 2>&1
ncu -i /tmp/s/prof_E1C.ncu-rep --page source --csv --print-source sass 2>/dev/null | gzip > /tmp/s/sass_E1C.csv.gz
rm -f /tmp/s/*.ncu-rep
tar czf $OUT/run3.tgz -C /tmp/lr ab3 -C /tmp/s .
