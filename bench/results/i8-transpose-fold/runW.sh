#!/usr/bin/env bash
# Run 19: i8->i32, every variant and size, tcuc 0.6.13, with the peers.
set -uo pipefail
mkdir -p /tmp/W
( while sleep 30; do tar czf $OUT/w.tgz -C /tmp W 2>/dev/null; done ) &
saver=$!
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/W/i8 /tmp/W/i8-i32 --ops "scan i8->i32" > /tmp/W/run.log 2>&1
echo "rc=$?"
kill $saver
find /tmp/W -name '*.png' -delete
tar czf $OUT/w.tgz -C /tmp W
rm -f $OUT/throughput.png
tail -3 /tmp/W/run.log
