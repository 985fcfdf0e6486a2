#!/usr/bin/env bash
# Groups of 16 (G) and the early look-back read after the reduced sum (R2,
# E = D/2; R2E4, E = D/4; R2E8, E = D/8; U = R2 with the words taken as
# published: wrong results, a bound) against 0.6.29 (A): f16->f16 and
# f16->f32 at 2^22 and whole, 3 alternating rounds; --check of R2's and
# R2E4's lagged kernels.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A G=exp/G R2=exp/R2 R2E4=exp/R2E4 R2E8=exp/R2E8 U=exp/U -- \
  --ops "scan f16->f16" "scan f16->f32" \
  --segments 4194304 whole --only default --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc
TYPES="--dtype f16 --out-dtype f16;--dtype f16;--dtype bf16 --out-dtype bf16;--dtype i8"
for k in KR2 KR2E4; do
  export TCUC_CACHE_DIR=$PWD/exp/$k
  echo "== $k"
  for kw in "1 4" "2 4" "4 4" "4 8"; do set -- $kw
    timeout 100 test/gpu/check_shapes.sh lagged 1000003 "$TYPES" "$1" "$2" "1000 3000017 20000003" 2>&1
    timeout 100 test/gpu/check_shapes.sh lagged 1000003 "$TYPES" "$1" "$2" "3000017" --exclusive 2>&1
  done
  IFS=';' read -r -a tl <<<"$TYPES"
  for t in "${tl[@]}"; do for n in 3000017 268435456; do
    # shellcheck disable=SC2086
    o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged $t --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1)
    echo "$t segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
  done; done
done 2>&1 | tee $OUT/check.txt
