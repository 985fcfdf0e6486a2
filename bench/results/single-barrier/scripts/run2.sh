#!/usr/bin/env bash
# Early look-back tried once (warp 0 reads chunk t-D's Fenwick words once
# after its loads and reduced sum; where all were published the block meets
# once, else it looks back after the exchange as before): A default 0.6.28,
# G probe with E = D/2, H E = 5D/12, I E = D/3, J probe right after the
# loads (E = D/2, 24 bytes of spills). f16->f16 then f16->f32 at 2^22 and
# whole, 3 alternating rounds; then --check of I's kernels (exp/K).
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A G=exp/G H=exp/H I=exp/I J=exp/J -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab-ff.txt
bench/ab.sh --rounds 3 /tmp/ab2 A=exp/A G=exp/G I=exp/I -- \
  --ops "scan f16->f32" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab-f32.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/K
NS="1000 100003 3000017 20000003"
timeout 200 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16;--dtype f16" "4" "8" "$NS" 2>&1 | tee $OUT/check.txt
timeout 100 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16;--dtype f16" "4" "8" "$NS" --exclusive 2>&1 | tee -a $OUT/check.txt
for t in "--dtype f16 --out-dtype f16" "--dtype f16"; do for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged $t --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1); echo "segment 2^31 $t n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done; done 2>&1 | tee -a $OUT/check.txt
