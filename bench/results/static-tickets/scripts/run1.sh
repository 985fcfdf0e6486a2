#!/usr/bin/env bash
# Static tickets A/B on the H100: the block item is the ticket (co-resident grid, cooperative launch) against 0.6.18 (S0).
# S1: every warp finds the ticket's items; S2: warp 0 finds them and shares them at a barrier. lagged:2:4, then GPU checks.
set -uo pipefail
B=/tmp/tcuc-bench-build
ARGS=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/S0 /tmp/o/S0 "${ARGS[@]}" > /tmp/o/S0.log 2>&1
echo "S0 rc=$? $(grep -h 'tcuc' /tmp/o/S0/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
cmake --build $B/rt --target tcuc > /tmp/o/tcuc-build.log 2>&1 || tail -5 /tmp/o/tcuc-build.log
T=$B/rt/bin/tcuc
for m in 2 1; do for spec in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16" "--dtype i8"; do
  echo "S$m check $spec n=2^28: $(TCUC_CACHE_DIR=$PWD/exp/H$m timeout 40 $T run --device gpu --op scan $spec --segment 268435456 -n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror|time' | tr '\n' ' ') rc=$?"
done; done
for v in S1 S2 S0 S1 S2 S0 S1 S2; do
  o=/tmp/o/$v; i=2; while [ -d $o ]; do o=/tmp/o/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${ARGS[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done
tar czf $OUT/run1.tgz -C /tmp o
# Hang hunt: 2, 4, 8 warps, 1 and 2 tiles, four types, n from 1000 to 3000017, 10 s each; serial launch once.
for m in 2 1; do ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16 --out-dtype f32" "--dtype i8" "--dtype bf16 --out-dtype f32"; do for w in 2 4 8; do for k in 1 2; do for n in 1000 100003 3000017; do
  out=$(TCUC_CACHE_DIR=$PWD/exp/H$m timeout 10 $T run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block $w --n $n --check 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD S$m rc=$rc $t W=$w k=$k n=$n: $(echo "$out" | tail -1)"; fi
done; done; done; done
echo "S$m hang hunt: ok $ok bad $bad"; done
echo "serial: $(TCUC_SERIAL_LAUNCH=1 TCUC_CACHE_DIR=$PWD/exp/H2 timeout 20 $T run --device gpu --op scan --dtype f16 --out-dtype f32 --segment 1000003 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --n 3000017 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
