#!/usr/bin/env bash
# Lagged f16->f32 2:4 with .maxnreg 40/48/56 on its main kernel (occupancy).
set -uo pipefail
mkdir -p /tmp/res
start=$(date +%s)
for e in base r56 r48 r40 base; do
  o=/tmp/res/$e; [ -d $o ] && o=/tmp/res/${e}2
  TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/H/$e $o --ops "scan f16->f32" \
    --segments 4194304 whole --only lagged:2:4 --no-peers > $o.log 2>&1
  echo "$e rc=$? $(( $(date +%s) - start )) s: $(grep -h 'tcuc:lagged' $o/log.txt | tr -s ' ' | cut -d' ' -f3-9 | tr '\n' ';')"
  tar czf $OUT/h.tgz -C /tmp res
done
