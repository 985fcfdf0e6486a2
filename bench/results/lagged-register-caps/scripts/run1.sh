#!/usr/bin/env bash
# Register caps on the lagged scan (.maxnreg on k1), lag 10 MB and prefetch for f16->f16.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/A /tmp/o/A --ops "scan f16->f16" "scan f16->f32" --segments whole --only lagged default --no-peers > /tmp/o/A.log 2>&1
echo "A rc=$? $(( $(date +%s) - start ))s"
run() { # dir ops...
  d=$1; shift
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/$d --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out /tmp/o/$d --ops "$@" --segments whole --only lagged --no-peers --reps 15 > /tmp/o/$d.log 2>&1
  echo "$d rc=$? $(( $(date +%s) - start ))s"
}
run A64 "scan f16->f16" "scan f16->f32"
run A80 "scan f16->f16" "scan f16->f32"
run C "scan f16->f16"
run C64 "scan f16->f16"
run B "scan f16->f16"
run B64 "scan f16->f16"
run B80 "scan f16->f16"
run C80 "scan f16->f16"
run A72 "scan f16->f16" "scan f16->f32"
for d in A A64 A72 A80 B B64 B80 C C64 C80; do
  [ -f /tmp/o/$d/results.csv ] || continue
  awk -F, -v d=$d 'NR>1 && $3 ~ /tcuc/ {printf "%s %s %s %s\n", d, $1, $3, $8}' /tmp/o/$d/results.csv
done | sort -k2,2 -k4,4nr | column -t
tar czf $OUT/run1.tgz -C /tmp o
