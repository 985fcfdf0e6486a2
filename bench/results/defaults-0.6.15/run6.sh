#!/usr/bin/env bash
# tcuc 0.6.15 defaults of the f16 scans from 2^22, with the peers.
set -uo pipefail
start=$(date +%s)
mkdir -p /tmp/o
for op in "scan f16->f32" "scan f16->f16"; do
  d=$(echo "$op" | sed 's/scan //;s/->/-/')
  TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/F /tmp/o/$d --ops "$op" --segments 4194304 8388608 16777216 whole --only default > /tmp/o/$d.log 2>&1
  echo "$d rc=$? $(( $(date +%s) - start ))s"
  grep -E "segment|tcuc|cub|torch|triton" /tmp/o/$d/results.md | head -30
done
tar czf $OUT/run6.tgz -C /tmp o
