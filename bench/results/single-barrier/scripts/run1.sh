#!/usr/bin/env bash
# Early look-back (warp 0 reads chunk t-D's prefix before the block meets;
# one barrier a ticket): A default 0.6.28, B early after the reduced sum
# (E = D/2), C early right after the loads, D/E/F B with E = 5D/12, D/3,
# 2D/3. f16->f16 then f16->f32 at 2^22 and whole, 3 alternating rounds;
# then --check of the early kernels (exp/K: B's structure with E = 5D/12).
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A B=exp/B C=exp/C D=exp/D E=exp/E F=exp/F -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab-ff.txt
bench/ab.sh --rounds 3 /tmp/ab2 A=exp/A B=exp/B D=exp/D E=exp/E -- \
  --ops "scan f16->f32" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab-f32.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/K
NS="1000 100003 3000017 20000003"
timeout 200 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16;--dtype f16" "4" "8" "$NS" 2>&1 | tee $OUT/check.txt
timeout 100 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16;--dtype f16" "4" "8" "$NS" --exclusive 2>&1 | tee -a $OUT/check.txt
for t in "--dtype f16 --out-dtype f16" "--dtype f16"; do for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged $t --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1); echo "segment 2^31 $t n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done; done 2>&1 | tee -a $OUT/check.txt
