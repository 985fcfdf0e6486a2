#!/usr/bin/env bash
# Run 18: the lagged scan with its L2 prefetch (0.6.11), every tiles x warps
# configuration, f16->f32 and i8->i32 from 2^22; the lag D at 6 / 12 MB.
set -uo pipefail
mkdir -p /tmp/S
start=$(date +%s)
B=/tmp/tcuc-bench-build
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/S/sweep /tmp/S/f16-f32 --ops "scan f16->f32" \
  --segments 4194304 8388608 16777216 whole --only default lagged --no-peers > /tmp/S/f16-f32.log 2>&1
echo "f16-f32 rc=$? $(( $(date +%s) - start ))s"; tar czf $OUT/s.tgz -C /tmp S
r() { # cache out op segments only
  mkdir -p $2
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir $1 --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $2 --ops "$3" --segments $4 --only $5 --no-peers > $2.log 2>&1
  echo "$2 rc=$? $(( $(date +%s) - start ))s"
}
r exp/S/sweep /tmp/S/i8-i32 "scan i8->i32" "4194304 8388608 16777216 whole" "default lagged"
tar czf $OUT/s.tgz -C /tmp S
for v in lag6 lag12; do
  r exp/S/$v /tmp/S/$v "scan f16->f32" "4194304 whole" lagged:2:4
  grep -h 'tcuc' /tmp/S/$v/log.txt
  tar czf $OUT/s.tgz -C /tmp S
done
r exp/S/sweep /tmp/S/base-again "scan f16->f32" "4194304 whole" lagged:2:4
grep -h 'tcuc' /tmp/S/base-again/log.txt; tar czf $OUT/s.tgz -C /tmp S
rm -f $OUT/throughput.png
