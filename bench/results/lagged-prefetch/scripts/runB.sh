#!/usr/bin/env bash
# Block scan with an L2 prefetch of the input ahead of its chunk (exp/B/*).
set -uo pipefail
mkdir -p /tmp/resB
start=$(date +%s)
B=/tmp/tcuc-bench-build
for op in "scan i8->i32" "scan f16->f32" "scan f16->f16"; do
  d=$(echo "$op" | sed 's/scan //; s/->/-/')
  for v in b0 b64 b128 b0; do
    o=/tmp/resB/$v-$d; [ -d $o ] && o=/tmp/resB/$v-$d-2
    mkdir -p $o
    PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/B/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
      --cub-lib $B/libcub_baselines.so --out $o --ops "$op" --segments 262144 524288 1048576 2097152 --only default --no-peers > $o.log 2>&1
    echo "$v $d rc=$? $(( $(date +%s) - start ))s: $(grep -h 'tcuc' $o/log.txt | tr -s ' ' | cut -d' ' -f3,8 | tr '\n' ';')"
    tar czf $OUT/b.tgz -C /tmp resB
  done
done
