#!/usr/bin/env bash
# After `tcuc tune` chose lagged:4:4 for the f16 scans from 2^22: their
# defaults with the peers; --check of lagged at 4 tiles (f16 and bf16
# input, W = 4 and 8, odd sizes, and n = 2^28); the two 4-tile lagged
# reliability specs.
set -uo pipefail
mkdir -p /tmp/od /tmp/lr
TCUC_BENCH_SKIP_JIT=1 timeout 300 bench/run.sh exp/D2 /tmp/od/defaults4 --ops "scan f16->f32" "scan f16->f16" --segments 4194304 8388608 16777216 whole --only default --reps 15 > /tmp/od/run4.log 2>&1
echo "defaults rc=$?"; cut -d, -f1-9 /tmp/od/defaults4/results.csv
rm -f /tmp/od/defaults4/throughput.png
tar czf $OUT/defaults4.tgz -C /tmp/od defaults4 run4.log
T=/tmp/tcuc-bench-build/rt/bin/tcuc
ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16" "--dtype bf16 --out-dtype bf16" "--dtype bf16"; do
  for w in 4 8; do for n in 1000 100003 3000017; do
    o=$(TCUC_CACHE_DIR=$PWD/exp/HS5 timeout 15 $T run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp 4 --warps-per-block $w -n $n --check 2>&1); rc=$?
    if [ $rc -eq 0 ] && echo "$o" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc $t W=$w n=$n: $(echo "$o" | tail -2 | tr '\n' ' ')"; fi
  done; done
  o=$(TCUC_CACHE_DIR=$PWD/exp/HS5 timeout 40 $T run --device gpu --op scan --variant lagged $t --segment 268435456 --tiles-per-warp 4 --warps-per-block 4 -n 268435456 --check 2>&1); rc=$?
  echo "2^28 $t rc=$rc $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done
echo "lagged 4-tile checks: ok $ok bad $bad"
TCUC_RELIABILITY_SPECS=$PWD/exp/rel5.txt timeout 240 test/gpu/run_on_gpu.sh exp/R5 reliability > /tmp/lr/reliability-4tiles.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability-4tiles.log | tail -12
cp /tmp/lr/reliability-4tiles.log $OUT/
