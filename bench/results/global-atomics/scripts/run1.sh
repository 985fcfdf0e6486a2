#!/usr/bin/env bash
# The ticket's atomic on a global address (atom.global after cvta.to.global) instead of a generic one, H100, lagged:2:4:
# A0 = tcuc 0.6.19 as committed (generic atom), A1 = global atom, A2 = global atom with every type walking tickets. Then GPU checks of A2's kernels.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/A0 /tmp/o/A0 "${ARGS[@]}" > /tmp/o/A0.log 2>&1
echo "A0 rc=$? $(grep -h 'tcuc' /tmp/o/A0/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
cmake --build $B/rt --target tcuc > /tmp/o/tcuc-build.log 2>&1 || tail -5 /tmp/o/tcuc-build.log
T=$B/rt/bin/tcuc
for v in A1 A2 A0 A1 A2 A0 A1 A2; do
  o=/tmp/o/$v; i=2; while [ -d $o ]; do o=/tmp/o/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done
tar czf $OUT/run1.tgz -C /tmp o
for spec in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16" "--dtype i8" "--dtype bf16 --out-dtype f32"; do
  echo "A2 check $spec n=2^28: $(TCUC_CACHE_DIR=$PWD/exp/H3 timeout 40 $T run --device gpu --op scan $spec --segment 268435456 -n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
done
ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16 --out-dtype f32" "--dtype i8" "--dtype bf16 --out-dtype f32"; do for w in 2 4 8; do for k in 1 2; do for n in 1000 100003 3000017; do
  out=$(TCUC_CACHE_DIR=$PWD/exp/H3 timeout 10 $T run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block $w --n $n --check 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc $t W=$w k=$k n=$n: $(echo "$out" | tail -1)"; fi
done; done; done; done
echo "A2 hang hunt: ok $ok bad $bad"
