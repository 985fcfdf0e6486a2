#!/usr/bin/env bash
# (1) The full sweep of the bf16 reduction (every variant, the default, CUB,
# PyTorch, Triton), 2^4..2^24 and the whole array, tcuc 0.6.28's kernels
# (exp/BF, filled for run 5). (2) bf16 lagged rules borrowed from f16, A/B
# (bench/ab.sh, 3 alternating rounds, 2^22 and whole): B0 0.6.28, BX with
# bf16->f32 prefetching 2 MB ahead (lag 6 MB, as f16->f32; TCUC_EXP_BF=1)
# and bf16->bf16 in the quads order (TCUC_EXP_BFQ=1); --check of BX's
# kernels at 4x8 (exp/K).
set -uo pipefail
mkdir -p /tmp/bf && tar xJf exp/BF.tar.xz -C /tmp/bf
TCUC_BENCH_SKIP_JIT=1 timeout 330 bench/run.sh /tmp/bf/BF /tmp/bf/reduce \
  --ops "reduce bf16->f32" --reps 15 > /tmp/bf/reduce.log 2>&1
echo "rc=$?"; tail -2 /tmp/bf/reduce.log
mkdir -p $OUT/reduce; cp /tmp/bf/reduce.log /tmp/bf/reduce/* $OUT/reduce/
bench/ab.sh --rounds 3 /tmp/ab B0=exp/B0 BX=exp/BX -- \
  --ops "scan bf16->f32" "scan bf16->bf16" --segments 4194304 whole \
  --only default --no-peers --reps 15 2>&1 | tee $OUT/ab-bf16.txt
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/K
NS="1000 100003 3000017 20000003"
timeout 100 test/gpu/check_shapes.sh lagged 1000003 "--dtype bf16 --out-dtype bf16;--dtype bf16" "4" "8" "$NS" 2>&1 | tee $OUT/check.txt
timeout 100 test/gpu/check_shapes.sh lagged 1000003 "--dtype bf16 --out-dtype bf16;--dtype bf16" "4" "8" "$NS" --exclusive 2>&1 | tee -a $OUT/check.txt
for t in "--dtype bf16 --out-dtype bf16" "--dtype bf16"; do for n in 3000017 268435456; do o=$(timeout 40 $TCUC run --device gpu --op scan --variant lagged $t --tiles-per-warp 4 --warps-per-block 8 --segment 2147483648 -n $n --check 2>&1); echo "segment 2^31 $t n=$n rc=$? $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"; done; done 2>&1 | tee -a $OUT/check.txt
