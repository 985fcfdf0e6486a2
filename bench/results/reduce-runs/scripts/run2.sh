#!/usr/bin/env bash
# Run 2 (H100): tcuc 0.6.31's reduce f16->f32 defaults with the peers from
# 512 to the whole array (exp/D31), then reduce bf16->f32 defaults A/B
# (exp/BA: 0.6.30, exp/BB: 0.6.31), 3 alternating rounds. Caches: run2-fill.sh.
set -uo pipefail
out="${OUT:-/tmp/out}"
mkdir -p /tmp/od
S="512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576 2097152 4194304 8388608 16777216 whole"
TCUC_BENCH_SKIP_JIT=1 timeout 330 bench/run.sh exp/D31 /tmp/od/reduce \
  --ops "reduce f16->f32" --segments $S --only default --reps 15 > /tmp/od/reduce.log 2>&1
echo "reduce rc=$?"
cut -d, -f1-9 /tmp/od/reduce/results.csv | grep -v "^op,"
B="1024 8192 16384 65536 1048576 whole"
bench/ab.sh --rounds 3 /tmp/od/ab A=exp/BA B=exp/BB -- --ops "reduce bf16->f32" \
  --segments $B --only default --no-peers --reps 15 2>&1 | tee /tmp/od/ab-bf16.txt
rm -f /tmp/od/reduce/throughput.png
tar czf "$out/run2.tgz" -C /tmp/od reduce reduce.log ab-bf16.txt
