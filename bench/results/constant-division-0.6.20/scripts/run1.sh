#!/usr/bin/env bash
# f16->f32 lagged:2:4 with the chunk divisions by the constant chunks a segment (TCUC_EXP_CONSTDIV, CD) against tcuc 0.6.20 (B0), H100; then GPU checks of CD's kernels.
set -uo pipefail
B=/tmp/tcuc-bench-build
F32=(--ops "scan f16->f32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/oc
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/B0 /tmp/oc/B0 "${F32[@]}" > /tmp/oc/B0.log 2>&1
echo "B0 rc=$? $(grep -h 'tcuc' /tmp/oc/B0/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
cmake --build $B/rt --target tcuc > /tmp/oc/tcuc-build.log 2>&1 || tail -5 /tmp/oc/tcuc-build.log
T=$B/rt/bin/tcuc
for v in CD B0 CD B0 CD B0 CD; do
  o=/tmp/oc/$v; i=2; while [ -d $o ]; do o=/tmp/oc/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 60 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${F32[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done
tar czf $OUT/run1.tgz -C /tmp oc
echo "check n=2^28: $(TCUC_CACHE_DIR=$PWD/exp/HC timeout 40 $T run --device gpu --op scan --dtype f16 --out-dtype f32 --segment 268435456 -n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
ok=0; bad=0
for w in 2 4 8; do for k in 1 2; do for n in 1000 100003 3000017; do
  out=$(TCUC_CACHE_DIR=$PWD/exp/HC timeout 10 $T run --device gpu --op scan --variant lagged --dtype f16 --out-dtype f32 --segment 1000003 --tiles-per-warp $k --warps-per-block $w --n $n --check 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc W=$w k=$k n=$n: $(echo "$out" | tail -1)"; fi
done; done; done
echo "CD checks: ok $ok bad $bad"
