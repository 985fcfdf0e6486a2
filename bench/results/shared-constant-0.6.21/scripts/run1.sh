#!/usr/bin/env bash
# f16->f16 and i8->i32 lagged:2:4 with the items' fields shared (found by one warp; so divided by the constant, laggedItemDivisor) (TCUC_EXP_SHAREALL, SA) against tcuc 0.6.21 (B0), H100; then GPU checks of SA's kernels.
set -uo pipefail
B=/tmp/tcuc-bench-build
A=(--ops "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/os
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/B0 /tmp/os/B0 "${A[@]}" > /tmp/os/B0.log 2>&1
echo "B0 rc=$? $(grep -h 'tcuc' /tmp/os/B0/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
cmake --build $B/rt --target tcuc > /tmp/os/tcuc-build.log 2>&1 || tail -5 /tmp/os/tcuc-build.log
T=$B/rt/bin/tcuc
for v in SA B0 SA B0 SA; do
  o=/tmp/os/$v; i=2; while [ -d $o ]; do o=/tmp/os/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 60 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${A[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done
for spec in "--dtype f16 --out-dtype f16" "--dtype i8"; do
  echo "check $spec n=2^28: $(TCUC_CACHE_DIR=$PWD/exp/HS timeout 40 $T run --device gpu --op scan $spec --segment 268435456 -n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
done
ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype i8"; do for w in 2 4 8; do for k in 1 2; do for n in 1000 100003 3000017; do
  out=$(TCUC_CACHE_DIR=$PWD/exp/HS timeout 10 $T run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block $w --n $n --check 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc $t W=$w k=$k n=$n: $(echo "$out" | tail -1)"; fi
done; done; done; done
echo "SA checks: ok $ok bad $bad"
