#!/usr/bin/env bash
# Lagged: the Fenwick completion at the block's start (front) or after the
# reduced loads (after) against after the second barrier (base).
set -uo pipefail
mkdir -p /tmp/res
for e in base front after base; do
  for op in "scan f16->f32" "scan f16->f16" "scan i8->i32"; do
    d=$(echo "$op" | sed 's/scan //; s/->/-/')
    o=/tmp/res/$e-$d; [ -d $o ] && o=/tmp/res/$e-$d-2
    TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/L/$e $o --ops "$op" \
      --segments 4194304 whole --only lagged:2:4 lagged:4:4 --no-peers > $o.log 2>&1
    echo "$e $d rc=$?: $(grep -h 'tcuc:lagged' $o/log.txt | tr -s ' ' | cut -d' ' -f3,4,8 | tr '\n' ';')"
  done
  tar czf $OUT/l.tgz -C /tmp res
done
