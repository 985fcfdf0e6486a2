#!/usr/bin/env bash
# L1 prefetch of the next ticket's chunks in the walking lagged scan
# (TCUC_EXP_L1 at compile time: 0 none, 1 the scanned chunk, 2 the reduced
# chunk, 3 both; warp 1 issues prefetch.global.L1 right after drawing the
# ticket). f16->f16 defaults (lagged:4:4) at 2^22, 2^24 and whole, 3
# alternating rounds; then --check of the variant-3 kernels (exp/KL).
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab L0=exp/L0 L1=exp/L1 L2=exp/L2 L3=exp/L3 -- \
  --ops "scan f16->f16" --segments 4194304 16777216 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/KL
NS="1000 100003 3000017"
timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "2 4 8" "$NS" 2>&1 | tee -a $OUT/ab.txt
timeout 30 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "4" "$NS" --exclusive 2>&1 | tee -a $OUT/ab.txt
timeout 30 test/gpu/check_shapes.sh lagged 1000003 "--dtype i8" "4" "4" "$NS" 2>&1 | tee -a $OUT/ab.txt
for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged --dtype f16 --out-dtype f16 --segment 2147483648 -n $n --check 2>&1); echo "segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done | tee -a $OUT/ab.txt
o=$(timeout 40 $TCUC run --device gpu --op scan --dtype f16 --out-dtype f16 --segment 268435456 -n 268435456 --check 2>&1); echo "default 2^28 rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')" | tee -a $OUT/ab.txt
