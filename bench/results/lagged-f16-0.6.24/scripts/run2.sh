#!/usr/bin/env bash
# The look-back words read at the ticket's start (experiment, LookbackOps.cpp):
# A/B of the defaults at 2^22 and whole, f16->f16 and f16->f32 (lagged:4:4):
#   L0  = 0.6.24 as shipped
#   E2  = every warp reads the prefix words at the ticket's start, no second barrier (103 registers for f16->f16)
#   E2C = E2 held to 5 blocks an SM (TCUC_EXP_CAP20=1: .minnctapersm 5, 96 registers, no spills)
#   E1C = warp 0 alone reads them early, keeps the second barrier (TCUC_EXP_WARP0LOOKS=1), held to 5 blocks
# then `tcuc run --check` of E2C's lagged kernels (exp/K: six types x k 1/2/4 at W 4, f16 k=4 and f16->f32 k=1 at W 1/2/8, each type's default at 2^28).
set -uo pipefail
mkdir -p /tmp/lr
A=(--ops "scan f16->f16" "scan f16->f32" --segments 4194304 whole --only default --no-peers --reps 15)
timeout 330 bench/ab.sh --rounds 2 /tmp/lr/ab2 L0=exp/L0 E2=exp/E2 E2C=exp/E2C E1C=exp/E1C -- "${A[@]}"
rm -f /tmp/lr/ab2/*/throughput.png
tar czf $OUT/ab2.tgz -C /tmp/lr ab2
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/K
NS="1000 100003 3000017"
timeout 100 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16;--dtype f16;--dtype i8;--dtype bf16 --out-dtype bf16;--dtype bf16;--dtype f32" "1 2 4" "4" "$NS"
timeout 40 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16 --out-dtype f16" "4" "1 2 8" "$NS"
timeout 40 test/gpu/check_shapes.sh lagged 1000003 "--dtype f16" "1" "1 2 8" "$NS"
for t in "--dtype f16 --out-dtype f16" "--dtype f16" "--dtype bf16 --out-dtype bf16" "--dtype bf16"; do
  o=$(timeout 30 $TCUC run --device gpu --op scan $t --segment 268435456 -n 268435456 --check 2>&1); echo "2^28 default $t rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done
