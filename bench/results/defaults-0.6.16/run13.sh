#!/usr/bin/env bash
# tcuc 0.6.16 defaults of the three scans at every size, with the peers.
set -uo pipefail
start=$(date +%s)
mkdir -p /tmp/o
for op in "scan f16->f32" "scan f16->f16" "scan i8->i32"; do
  d=$(echo "$op" | sed 's/scan //;s/->/-/')
  TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/D16 /tmp/o/$d --ops "$op" --only default > /tmp/o/$d.log 2>&1
  echo "$d rc=$? $(( $(date +%s) - start ))s"
done
for d in f16-f32 f16-f16 i8-i32; do grep -E "^\| *(scan|segment)" /tmp/o/$d/results.md | head -30; done
tar czf $OUT/run13.tgz -C /tmp o
