#!/usr/bin/env bash
# The lagged scan's lag D (and prefetch distance) with the prefetch, f16->f32 2:4.
set -uo pipefail
mkdir -p /tmp/T
start=$(date +%s)
B=/tmp/tcuc-bench-build
first=1
for v in sweep lag4 lag5 lag6 lag7 lag6a1 lag6a4 sweep lag6; do
  o=/tmp/T/$v; [ -d $o ] && o=$o-2
  if [ $first = 1 ]; then
    TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/S/$v $o --ops "scan f16->f32" --segments 4194304 whole --only lagged:2:4 --no-peers > $o.log 2>&1; first=0
  else
    mkdir -p $o
    PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/S/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
      --cub-lib $B/libcub_baselines.so --out $o --ops "scan f16->f32" --segments 4194304 whole --only lagged:2:4 --no-peers > $o.log 2>&1
  fi
  echo "$v rc=$? $(( $(date +%s) - start ))s: $(grep -h 'tcuc:lagged' $o/log.txt | tr -s ' ' | cut -d' ' -f3,8,9 | tr '\n' ';')"
  tar czf $OUT/t.tgz -C /tmp T
done
rm -f $OUT/throughput.png
