#!/usr/bin/env bash
# The reduced run's sum before the scanned run's scan (TCUC_EXP_ORDER=1 at
# compile time), with the kernel's blocks an SM uncapped (O1) or held to 7
# (O7) and 8 (O8) by TCUC_EXP_MINB, against the current kernels (O0):
# f16->f16 and f16->f32 defaults at 2^22, 2^24 and whole, 3 alternating
# rounds; then --check of ORDER=1 kernels (exp/KO).
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab O0=exp/O0 O1=exp/O1 O7=exp/O7 O8=exp/O8 -- \
  --ops "scan f16->f16" "scan f16->f32" --segments 4194304 16777216 whole \
  --only default --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/KO
NS="1000 100003 3000017"
{
timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16;--dtype f16" "4" "2 4 8" "$NS"
timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16" "2" "2 4 8" "$NS"
timeout 30 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "4" "$NS" --exclusive
timeout 30 test/gpu/check_shapes.sh lagged 1000003 "--dtype i8" "2 4" "4" "$NS"
timeout 30 test/gpu/check_shapes.sh lagged 1000003 "--dtype bf16" "2" "4" "$NS"
for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged --dtype f16 --out-dtype f16 --segment 2147483648 -n $n --check 2>&1); echo "segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done
for t in "--dtype f16 --out-dtype f16" "--dtype f16"; do o=$(timeout 40 $TCUC run --device gpu --op scan $t --segment 268435456 -n 268435456 --check 2>&1); echo "default 2^28 $t rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done
} 2>&1 | tee -a $OUT/ab.txt
