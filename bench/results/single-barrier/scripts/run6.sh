#!/usr/bin/env bash
# The Fenwick completion off the exchange: the last warp completes item
# t - E's word right after its loads (C1: 80 bytes of spills) or after its
# reduced sum (D1-D3: 44 bytes), E = D/2, 2D/3, 5D/6 (TCUC_EXP_EARLYC=1/2,
# a new op tcu.lagged_complete); E1/E2 = D1/D2 with run 3's early look-back
# words (TCUC_EXP_EARLY=2: one barrier where they were ready). f16->f16 at
# 2^22 and whole, 3 alternating rounds; --check of D1's and E1's kernels.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A C1=exp/C1 D1=exp/D1 D2=exp/D2 D3=exp/D3 E1=exp/E1 E2=exp/E2 -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab-ff.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc
NS="1000 100003 3000017 20000003"
for k in K K2; do
  export TCUC_CACHE_DIR=$PWD/exp/$k
  timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "8" "$NS" 2>&1 | tee -a $OUT/check.txt
  timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "8" "$NS" --exclusive 2>&1 | tee -a $OUT/check.txt
  for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged --dtype f16 --out-dtype f16 --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1); echo "$k segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done 2>&1 | tee -a $OUT/check.txt
done
