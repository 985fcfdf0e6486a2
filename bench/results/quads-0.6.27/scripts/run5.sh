#!/usr/bin/env bash
# tcuc 0.6.27 (quads tiles in the lagged f16->f16 scan at 4 tiles, 5 blocks
# an SM): --check of the changed kernels (exp/K27), reliability of the
# lagged f16 specs 46-52 (exp/R27), and the f16->f16 defaults from 2^22
# with the peers (exp/D27).
set -uo pipefail
mkdir -p /tmp/od /tmp/lr
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc
TCUC_BENCH_SKIP_JIT=1 timeout 240 bench/run.sh exp/D27 /tmp/od/scans --ops "scan f16->f16" --segments 4194304 8388608 16777216 whole --only default --reps 15 > /tmp/od/run5.log 2>&1
echo "defaults rc=$?"; cut -d, -f1-9 /tmp/od/scans/results.csv | grep -E "tcuc|cub|ceiling" | head -16
rm -f /tmp/od/scans/throughput.png
tar czf $OUT/defaults27.tgz -C /tmp/od scans run5.log
export TCUC_CACHE_DIR=$PWD/exp/K27
NS="1000 100003 3000017"
timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "2 4 8" "$NS"
timeout 30 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "4" "$NS" --exclusive
for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged --dtype f16 --out-dtype f16 --segment 2147483648 -n $n --check 2>&1); echo "segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done
o=$(timeout 40 $TCUC run --device gpu --op scan --dtype f16 --out-dtype f16 --segment 268435456 -n 268435456 --check 2>&1); echo "default 2^28 rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
TCUC_RELIABILITY_SPECS=$PWD/exp/rel27.txt timeout 150 test/gpu/run_on_gpu.sh exp/R27 reliability > /tmp/lr/reliability-27.log 2>&1
echo "reliability rc=$?"; grep -E "^(ok|FAIL)  " /tmp/lr/reliability-27.log
cp /tmp/lr/reliability-27.log $OUT/
