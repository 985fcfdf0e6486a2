#!/usr/bin/env bash
# tcuc 0.6.28 (the wide f16 lagged shape: laggedWideShape in ScanVariants.cpp)
# before its re-tune: a sweep of f16->f16 and f16->f32 from 2^16 with the
# defaults of the 0.6.27 table, lagged:4:4 and lagged:4:8 (exp/S5, for
# `tcuc tune`), and --check of the changed kernels (exp/K28).
set -uo pipefail
mkdir -p /tmp/s5
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc
TCUC_BENCH_SKIP_JIT=1 timeout 400 bench/run.sh exp/S5 /tmp/s5/sweep \
  --ops "scan f16->f16" "scan f16->f32" \
  --segments 65536 131072 262144 524288 1048576 2097152 4194304 8388608 16777216 whole \
  --only default lagged:4:4 lagged:4:8 --no-peers --reps 15 > /tmp/s5/run5.log 2>&1
echo "sweep rc=$?"; grep -E "tcuc" /tmp/s5/sweep/results.csv | cut -d, -f1,2,4,7,8,9
rm -f /tmp/s5/sweep/throughput.png
tar czf $OUT/sweep5.tgz -C /tmp/s5 sweep run5.log
export TCUC_CACHE_DIR=$PWD/exp/K28
NS="1000 100003 3000017"
timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16;--dtype f16" "4" "8" "$NS"
timeout 30 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "8" "$NS" --exclusive
for t in "--dtype f16 --out-dtype f16" "--dtype f16"; do for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged $t --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1); echo "segment 2^31 $t n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done; done
