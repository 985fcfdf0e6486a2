#!/usr/bin/env bash
# Lagged scan with Fenwick words kept only at the ends of groups of 32
# items (B) against 0.6.29 (A): f16/bf16 scans at 2^22 and whole, 3
# alternating rounds; then --check of B's lagged kernels (6 types, 1/2/4
# tiles x 4/8 warps, segment 1000003, inclusive, and segment 2^31 at 4x8).
# exp/A, exp/B: bench.py fill --only default; exp/K: tcuc compile --cache-dir
# (scripts/fill.sh).
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A B=exp/B -- \
  --ops "scan f16->f16" "scan f16->f32" "scan bf16->bf16" "scan bf16->f32" \
  --segments 4194304 whole --only default --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/K
TYPES="--dtype f16 --out-dtype f16;--dtype f16;--dtype bf16 --out-dtype bf16;--dtype bf16;--dtype i8;--dtype f32"
timeout 200 test/gpu/check_shapes.sh lagged 1000003 "$TYPES" "1 2 4" "4 8" "1000 3000017 20000003" 2>&1 | tee $OUT/check.txt
IFS=';' read -r -a tl <<<"$TYPES"
for t in "${tl[@]}"; do for n in 3000017 268435456; do
  # shellcheck disable=SC2086
  o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged $t --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1)
  echo "$t segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done; done 2>&1 | tee -a $OUT/check.txt
