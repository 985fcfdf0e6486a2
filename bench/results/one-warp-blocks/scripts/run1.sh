#!/usr/bin/env bash
# One-warp block items launched as blocks of one warp (tcuc 0.6.19, exp/Q): lagged, lookback and block scans with --warps-per-block 1
# at segment 1000003 and n from 1000 to 3000017 under 10 s timeouts; lagged at n = 2^28; serial launch; then the sanitizers on four one-warp specs.
B=/tmp/tcuc-rt/bin/tcuc; [ -x $B ] || { cmake -S . -B /tmp/tcuc-rt -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/tcuc-rt >/dev/null; }
export TCUC_CACHE_DIR=$PWD/exp/Q
ok=0; bad=0
run() { # label timeout args...
  local label=$1 to=$2; shift 2
  out=$(timeout $to $B run --device gpu "$@" --check 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD $label rc=$rc $*: $(echo "$out" | tail -1)"; fi
}
for t in "--dtype f16 --out-dtype f16" "--dtype f16 --out-dtype f32" "--dtype i8" "--dtype bf16 --out-dtype f32"; do for k in 1 2; do for n in 1000 5000 20000 100003 300007 1000003 3000017; do
  run lagged 10 --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block 1 --n $n
done; done; done
echo "lagged one warp: ok $ok bad $bad"; ok=0; bad=0
for v in lookback block; do for t in "--dtype f16 --out-dtype f16" "--dtype f16 --out-dtype f32" "--dtype i8"; do for k in 1 2; do for n in 1000 100003 3000017; do
  run $v 10 --op scan --variant $v $t --segment 1000003 --tiles-per-warp $k --warps-per-block 1 --n $n
done; done; done; done
echo "lookback and block one warp: ok $ok bad $bad"; ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16 --out-dtype f32"; do run lagged-2^28 60 --op scan --variant lagged $t --segment 268435456 --tiles-per-warp 2 --warps-per-block 1 --n 268435456; done
for n in 1000 100003 3000017; do TCUC_SERIAL_LAUNCH=1 run serial 10 --op scan --variant lagged --dtype f16 --out-dtype f16 --segment 1000003 --tiles-per-warp 2 --warps-per-block 1 --n $n; done
echo "2^28 and serial: ok $ok bad $bad"
TCUC_RELIABILITY_SPECS=$PWD/exp/rel.txt timeout 300 test/gpu/run_on_gpu.sh exp/R reliability > /tmp/reliability.log 2>&1
echo "reliability rc=$?"; grep -E "determinism|SUMMARY|nan|FAIL|ok  " /tmp/reliability.log | tail -30
cp /tmp/reliability.log $OUT/
