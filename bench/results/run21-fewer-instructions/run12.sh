#!/usr/bin/env bash
# Run 21: tcuc 0.6.16's three scans from 2^22 (default, grid, lagged), and
# every variant of f16->f16 at 256 / 4096 and f16->f32 at 2^20; no peers.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
O=/tmp/o/run21; mkdir -p $O
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/S21 $O/f16-f32 --ops "scan f16->f32" --segments 4194304 8388608 16777216 whole --only default grid lagged --no-peers --reps 15 > $O/f16-f32.log 2>&1
echo "f16-f32 rc=$? $(( $(date +%s) - start ))s"
run() { # out ops segments only...
  local out=$1 op=$2 segs=$3; shift 3
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/S21 --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $O/$out --ops "$op" --segments $segs "$@" --no-peers --reps 15 > $O/$out.log 2>&1
  echo "$out rc=$? $(( $(date +%s) - start ))s"
}
run f16-f16 "scan f16->f16" "4194304 8388608 16777216 whole" --only default grid lagged
run i8-i32 "scan i8->i32" "4194304 8388608 16777216 whole" --only default grid lagged
run f16-f16-small "scan f16->f16" "256 4096"
run f16-f32-2e20 "scan f16->f32" "1048576"
grep -h "tcuc" $O/*/log.txt | grep -v "not in the kernel cache" | sort -t% -k1 | awk '{print}' | head -250
tar czf $OUT/run12.tgz -C /tmp/o run21
