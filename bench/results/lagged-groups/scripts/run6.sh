#!/usr/bin/env bash
# 0.6.30's correctness on the GPU: the lagged reliability specs (sanitizers,
# determinism, NaN/Inf; exp/R), and --check of every lagged type at
# 1/2/4 tiles x 4/8 warps, segment 1000003, inclusive and exclusive, and
# segment 2^31 at 4x8 (exp/K, scripts/fill-checks.sh).
set -uo pipefail
grep -v '^#' test/gpu/reliability_specs.txt | grep lagged > /tmp/lagged_specs.txt
TCUC_RELIABILITY_SPECS=/tmp/lagged_specs.txt timeout 250 test/gpu/run_on_gpu.sh exp/R reliability 2>&1 | tail -40 | tee $OUT/reliability.txt
export TCUC=/tmp/tcuc-rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/K
TYPES="--dtype f16 --out-dtype f16;--dtype f16;--dtype bf16 --out-dtype bf16;--dtype bf16;--dtype i8;--dtype f32"
timeout 90 test/gpu/check_shapes.sh lagged 1000003 "$TYPES" "1 2 4" "4 8" "1000 3000017 20000003" 2>&1 | tee $OUT/check.txt
timeout 40 test/gpu/check_shapes.sh lagged 1000003 "$TYPES" "1 2 4" "4 8" "3000017" --exclusive 2>&1 | tee -a $OUT/check.txt
IFS=';' read -r -a tl <<<"$TYPES"
for t in "${tl[@]}"; do for n in 3000017 268435456; do
  # shellcheck disable=SC2086
  o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged $t --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1)
  echo "$t segment 2^31 n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done; done 2>&1 | tee -a $OUT/check.txt
