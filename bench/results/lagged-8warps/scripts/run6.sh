#!/usr/bin/env bash
# tcuc 0.6.28 after its re-tune (the table from lagged-8warps/sweep): the
# changed defaults with the peers, f16->f32 from 2^17 and f16->f16 from 2^22
# (exp/D28, bench.py fill --only default).
set -uo pipefail
mkdir -p /tmp/od
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc
TCUC_BENCH_SKIP_JIT=1 timeout 330 bench/run.sh exp/D28 /tmp/od/f16-f32 \
  --ops "scan f16->f32" \
  --segments 131072 262144 524288 1048576 2097152 4194304 8388608 16777216 whole \
  --only default --reps 15 > /tmp/od/run6-f32.log 2>&1
echo "defaults f16->f32 rc=$?"
TCUC_BENCH_SKIP_JIT=1 timeout 230 bench/run.sh exp/D28 /tmp/od/f16-f16 \
  --ops "scan f16->f16" --segments 4194304 8388608 16777216 whole \
  --only default --reps 15 > /tmp/od/run6-f16.log 2>&1
echo "defaults f16->f16 rc=$?"
cat /tmp/od/f16-*/results.csv | cut -d, -f1-9 | grep -v "^op,"
rm -f /tmp/od/*/throughput.png
tar czf $OUT/defaults28.tgz -C /tmp/od f16-f32 f16-f16 run6-f32.log run6-f16.log
