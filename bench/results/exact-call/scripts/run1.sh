#!/usr/bin/env bash
# Run 1 (H100): the exact path (NaN/Inf tiles) out of line, one noinline
# function per (matrix, side, type) called by every guarded product
# (B), against 0.6.31's inline copies (A: TCUC_EXACT_INLINE=1 at fill
# time; its PTX is byte-identical to 0.6.31's). Defaults of the two f16
# scans, 2 alternating rounds; then the JIT's load half of the 8 JIT specs
# (compiled here by tcuc-jit-latency into exp/JA, exp/JB), alternating, with
# the driver's PTX JIT cache off.
# Caches (build machine):
#   SEGS="512 1024 2048 4096 8192 16384 65536 131072 1048576 2097152 16777216 whole"
#   TCUC_BENCH_SKIP_JIT=1 TCUC_EXACT_INLINE=1 python3 bench/bench.py fill --tcuc build/bin/tcuc \
#     --cache-dir exp/XA --ops "scan f16->f32" "scan f16->f16" --segments $SEGS --only default
#   (the same without TCUC_EXACT_INLINE into exp/XB)
set -u
out="${OUT:-/tmp/out}"
SEGS="512 1024 2048 4096 8192 16384 65536 131072 1048576 2097152 16777216 whole"
timeout 450 bench/ab.sh --rounds 2 "$out/ab" A=exp/XA B=exp/XB -- --ops "scan f16->f32" "scan f16->f16" \
  --segments $SEGS --only default --no-peers --reps 15 2>&1 | tee "$out/ab.txt"
for i in 1 2; do
  for m in A B; do
    CUDA_CACHE_DISABLE=1 timeout 60 /tmp/tcuc-bench-build/rt/bin/tcuc-jit-latency exp/J$m > "$out/jit_load_$m$i.txt" 2>&1
    echo "jit $m$i rc=$?"; grep -E "median|^load" "$out/jit_load_$m$i.txt" | tail -3
  done
done
rm -f "$out"/ab/*/throughput.png
