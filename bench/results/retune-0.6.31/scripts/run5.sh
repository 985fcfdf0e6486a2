#!/usr/bin/env bash
# Run 5 (H100): every variant with the peers, tcuc 0.6.31, at the cells
# where a peer was ahead: reduce f16->f32 at 2048-524288 (with 8-tile
# walks), scan f16->f16 at 512-4096, scan f16->f32 and i8->i32 at 256-2048.
set -uo pipefail
out="${OUT:-/tmp/out}"
mkdir -p /tmp/o5
TCUC_BENCH_SKIP_JIT=1 timeout 250 bench/run.sh exp/W5 /tmp/o5/reduce --ops "reduce f16->f32" \
  --segments 2048 4096 8192 16384 32768 65536 131072 262144 524288 --reps 15 > /tmp/o5/reduce.log 2>&1
echo "reduce rc=$?"
TCUC_BENCH_SKIP_JIT=1 timeout 150 bench/run.sh exp/W6 /tmp/o5/f16-f16 --ops "scan f16->f16" \
  --segments 512 1024 2048 4096 --reps 15 > /tmp/o5/f16-f16.log 2>&1
echo "f16->f16 rc=$?"
TCUC_BENCH_SKIP_JIT=1 timeout 170 bench/run.sh exp/W6 /tmp/o5/scans --ops "scan f16->f32" "scan i8->i32" \
  --segments 256 512 1024 2048 --reps 15 > /tmp/o5/scans.log 2>&1
echo "scans rc=$?"
rm -f /tmp/o5/*/throughput.png
tar czf "$out/run5.tgz" -C /tmp/o5 .
