#!/usr/bin/env bash
# The walk's draw after the warp's scanned-chunk loads (TCUC_EXP_LATEDRAW) instead of between its reduced-chunk loads and them, H100, lagged:2:4:
# B0 = tcuc 0.6.20, LD = late draw (f16->f16 and i8 walk), WL = f16->f32 walking with the late draw. Then GPU checks of LD's and WL's kernels.
set -uo pipefail
B=/tmp/tcuc-bench-build
ALL=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
F32=(--ops "scan f16->f32" --segments 4194304 whole --only lagged:2:4 --no-peers --reps 15)
mkdir -p /tmp/ol
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/B0 /tmp/ol/B0 "${ALL[@]}" > /tmp/ol/B0.log 2>&1
echo "B0 rc=$? $(grep -h 'tcuc' /tmp/ol/B0/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
cmake --build $B/rt --target tcuc > /tmp/ol/tcuc-build.log 2>&1 || tail -5 /tmp/ol/tcuc-build.log
T=$B/rt/bin/tcuc
for v in LD WL B0 LD WL B0 LD WL; do
  case $v in WL) A=("${F32[@]}");; *) A=("${ALL[@]}");; esac
  o=/tmp/ol/$v; i=2; while [ -d $o ]; do o=/tmp/ol/$v-$i; i=$((i+1)); done
  PYTHONUNBUFFERED=1 timeout 90 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so --cub-lib $B/libcub_baselines.so --out $o "${A[@]}" > $o.log 2>&1
  echo "$v rc=$? $(grep -h 'tcuc' $o/results.csv | cut -d, -f1,2,7 | tr '\n' ' ')"
done
tar czf $OUT/run1.tgz -C /tmp ol
for spec in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16" "--dtype i8"; do
  echo "check $spec n=2^28: $(TCUC_CACHE_DIR=$PWD/exp/HL timeout 40 $T run --device gpu --op scan $spec --segment 268435456 -n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --check 2>&1 | grep -E 'check|rror' | tr '\n' ' ')"
done
ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16 --out-dtype f32" "--dtype i8"; do for w in 2 4 8; do for k in 1 2; do for n in 1000 100003 3000017; do
  out=$(TCUC_CACHE_DIR=$PWD/exp/HL timeout 10 $T run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block $w --n $n --check 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc $t W=$w k=$k n=$n: $(echo "$out" | tail -1)"; fi
done; done; done; done
echo "late-draw hang hunt: ok $ok bad $bad"
