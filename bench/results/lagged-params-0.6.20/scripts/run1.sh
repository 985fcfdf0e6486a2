#!/usr/bin/env bash
# tcuc 0.6.20's lagged:2:4 with its parameters moved (experiment.patch switches), H100, 2^22 and whole, two rounds:
# f16->f32: lag 4/5/7/8 MB (6 shipped), prefetch 1/3/4 MB (2 shipped), walking tickets with shared fields (WS), without (WN), on one wave of 4224 warps (W1);
# f16->f16: prefetch 2 MB (none shipped), lag 6 and 10 MB (8 shipped).
set -uo pipefail
B=/tmp/tcuc-bench-build
F32=(--ops "scan f16->f32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
F16=(--ops "scan f16->f16" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/op
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/B0 /tmp/op/B0 "${F32[@]}" > /tmp/op/B0.log 2>&1
echo "B0 rc=$? $(grep -h 'tcuc' /tmp/op/B0/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
for round in 1 2; do
for v in B0 L4096 L5120 L7168 L8192 P1024 P3072 P4096 WS WN W1 H0 HP HL6 HL10; do
  case $v in H*) A=("${F16[@]}");; *) A=("${F32[@]}");; esac
  o=/tmp/op/$v; i=2; while [ -d $o ]; do o=/tmp/op/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 60 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${A[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done; done
tar czf $OUT/run1.tgz -C /tmp op
