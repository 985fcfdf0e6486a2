#!/usr/bin/env bash
# The Fenwick completion deferred: the last warp completes the previous
# ticket's word in this ticket, after its loads (F1, 60 bytes of spills) or
# after its reduced sum (F2-F4, 36 bytes), the item kept in shared memory
# between tickets; the exchange then has only warp 0's look-back
# (TCUC_EXP_DEFER=1/2 on experiments-2.patch, i.e. experiments-3.patch; E = D/2, D/3, D/4 for F2-F4).
# f16->f16 at 2^22 and whole, 3 alternating rounds; --check of F2's kernels.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A F1=exp/F1 F2=exp/F2 F3=exp/F3 F4=exp/F4 -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab-ff.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/K
NS="1000 100003 3000017 20000003"
timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "8" "$NS" 2>&1 | tee -a $OUT/check.txt
timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "8" "$NS" --exclusive 2>&1 | tee -a $OUT/check.txt
for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged --dtype f16 --out-dtype f16 --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1); echo "segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done 2>&1 | tee -a $OUT/check.txt
