#!/usr/bin/env bash
# f16->f16 at 2^22 and whole, 3 alternating rounds: 0.6.29 (A) against the
# early read with groups of 16 and one-round-trip completions (R2), with 4
# aggregates a lane in a completion (r4), a 12 / 15 MB lag (L12, L15), E =
# 3D/8 (E38); --check of R2r4's kernels.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A R2=exp/R2 R2r4=exp/R2r4 L12=exp/L12 L12r4=exp/L12r4 E38=exp/E38 E38r4=exp/E38r4 L15=exp/L15 -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/KR2r4
TYPES="--dtype f16 --out-dtype f16;--dtype f16;--dtype i8"
for kw in "1 4" "4 4" "4 8"; do set -- $kw
  timeout 100 test/gpu/check_shapes.sh lagged 1000003 "$TYPES" "$1" "$2" "1000 3000017 20000003" 2>&1
done | tee $OUT/check.txt
IFS=';' read -r -a tl <<<"$TYPES"
for t in "${tl[@]}"; do for n in 3000017 268435456; do
  # shellcheck disable=SC2086
  o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged $t --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1)
  echo "$t segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done; done 2>&1 | tee -a $OUT/check.txt
