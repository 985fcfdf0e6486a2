#!/usr/bin/env bash
# bf16 in the wide shape (tcuc 0.6.28 with laggedWideShape extended to bf16
# input; bench.py has no bf16 operation, so `tcuc run`'s own timing: one
# warm launch timed on the host after a warm-up, median of 7 processes,
# n = 2^28), with f16->f32 4:4 against 4:8 as a calibration of that
# method; --check of the bf16 4:8 kernels (exp/BF). Then f16->f16 (exp/Z*,
# switches of experiments.patch's kind): Z0 = 0.6.28's default, Z1 = blocks
# that draw one ticket each (TCUC_EXP_WALK=0), Z2 / Z3 = the completion lag
# E at 5D/12 / 7D/12 (TCUC_EXP_E); 2^22 and whole, 3 alternating rounds.
set -uo pipefail
bench/gpu_build.sh >/dev/null || exit 2
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc TCUC_CACHE_DIR=$PWD/exp/BF
t() { # label, tcuc run flags
  local ms=()
  for i in 1 2 3 4 5 6 7; do
    ms+=("$($TCUC run --device gpu --op scan -n 268435456 "${@:2}" 2>&1 | sed -n 's/.*ran in \([0-9.]*\) ms.*/\1/p')")
  done
  echo "$1: $(printf '%s\n' "${ms[@]}" | sort -n | tr '\n' ' ') median $(printf '%s\n' "${ms[@]}" | sort -n | sed -n 4p) ms"
}
for o in f32 bf16; do for w in 4 8; do
  t "bf16->$o 2^28 lagged:4:$w" --dtype bf16 --out-dtype $o --segment 268435456 --variant lagged --tiles-per-warp 4 --warps-per-block $w
done; done
for w in 4 8; do t "f16->f32 2^28 lagged:4:$w" --dtype f16 --segment 268435456 --variant lagged --tiles-per-warp 4 --warps-per-block $w; done
t "bf16->f32 2^20 block:1:16" --dtype bf16 --segment 1048576 --variant block --tiles-per-warp 1 --warps-per-block 16
t "bf16->f32 2^20 lagged:4:8" --dtype bf16 --segment 1048576 --variant lagged --tiles-per-warp 4 --warps-per-block 8
timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype bf16;--dtype bf16 --out-dtype bf16" "4" "8" "1000 100003 3000017"
timeout 40 test/gpu/check_shapes.sh lagged 1000003 "--dtype bf16;--dtype bf16 --out-dtype bf16" "4" "8" "3000017" --exclusive
for o in f32 bf16; do o2=$(timeout 40 $TCUC run --device gpu --op scan --dtype bf16 --out-dtype $o --segment 268435456 --variant lagged --tiles-per-warp 4 --warps-per-block 8 -n 268435456 --check 2>&1); echo "bf16->$o 2^28 4:8 $(echo "$o2" | grep -E 'check|rror' | tr '\n' ' ')"; done
unset TCUC_CACHE_DIR
bench/ab.sh --rounds 3 /tmp/ab Z0=exp/Z0 Z1=exp/Z1 Z2=exp/Z2 Z3=exp/Z3 -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
