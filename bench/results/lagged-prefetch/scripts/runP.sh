#!/usr/bin/env bash
# Lagged scan 2:4 with an L2 prefetch of the reduced input ahead (exp/Q/*).
set -uo pipefail
mkdir -p /tmp/res
start=$(date +%s)
B=/tmp/tcuc-bench-build
first=1
run() { # name op segments...
  local name=$1 op=$2; shift 2
  local o=/tmp/res/$name; [ -d $o ] && o=/tmp/res/${name}-2
  if [ $first = 1 ]; then
    TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/Q/${name%%@*} $o --ops "$op" --segments "$@" --only lagged:2:4 --no-peers > $o.log 2>&1
    first=0
  else
    mkdir -p $o
    PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/Q/${name%%@*} --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
      --cub-lib $B/libcub_baselines.so --out $o --ops "$op" --segments "$@" --only lagged:2:4 --no-peers > $o.log 2>&1
  fi
  echo "$name rc=$? $(( $(date +%s) - start ))s: $(grep -h 'tcuc:lagged' $o/log.txt | tr -s ' ' | cut -d' ' -f3,7,8 | tr '\n' ';')"
  tar czf $OUT/p.tgz -C /tmp res
}
for v in base pf2 pf1 pf4 pf2n base; do run f32-$v "scan f16->f32" 4194304 whole; done
for v in base pf2m7 pf2m8 pf4m8; do run f16-$v "scan f16->f16" 4194304 whole; done
for v in base basem6 pf2m6 pf4m6; do run i8-$v "scan i8->i32" 4194304 whole; done
