#!/usr/bin/env bash
# bf16 -> bf16 in the lagged scan (run 8: lagged:4:8 0.506 ms against
# lagged:4:4's 0.486 at 2^28). Kernels in exp/BF2/<side> (switches
# TCUC_EXP_BFWALK: blocks walk tickets, as f16->f16's; TCUC_EXP_BFSHARE:
# warp 0 finds the items' fields, as f16->f16's): V0 = lagged:4:4 as
# shipped (89 registers), V4 = lagged:4:8 as 0.6.28 (wide shape), V1 = V4
# walking, V2 = V1 sharing, V3 = lagged:4:4 walking and sharing. `tcuc run`
# timing as run 8 (median of 7 processes), then --check of V1-V3.
set -uo pipefail
bench/gpu_build.sh >/dev/null || exit 2
export TCUC=/tmp/tcuc-bench-build/rt/bin/tcuc
t() { # label, tcuc run flags
  local ms=()
  for i in 1 2 3 4 5 6 7; do
    ms+=("$($TCUC run --device gpu --op scan -n 268435456 "${@:2}" 2>&1 | sed -n 's/.*ran in \([0-9.]*\) ms.*/\1/p')")
  done
  echo "$1: $(printf '%s\n' "${ms[@]}" | sort -n | tr '\n' ' ') median $(printf '%s\n' "${ms[@]}" | sort -n | sed -n 4p) ms"
}
for round in 1 2; do
for v in "V0 4" "V4 8" "V1 8" "V2 8" "V3 4"; do set -- $v
  TCUC_CACHE_DIR=$PWD/exp/BF2/$1 t "round $round $1 bf16->bf16 2^28 lagged:4:$2" --dtype bf16 --out-dtype bf16 --segment 268435456 --variant lagged --tiles-per-warp 4 --warps-per-block $2
done; done
for v in "V1 8" "V2 8" "V3 4"; do set -- $v
  TCUC_CACHE_DIR=$PWD/exp/BF2/$1 timeout 60 test/gpu/check_shapes.sh lagged 1000003 "--dtype bf16 --out-dtype bf16" "4" "$2" "1000 100003 3000017"
  o=$(TCUC_CACHE_DIR=$PWD/exp/BF2/$1 timeout 40 $TCUC run --device gpu --op scan --dtype bf16 --out-dtype bf16 --segment 268435456 --variant lagged --tiles-per-warp 4 --warps-per-block $2 -n 268435456 --check 2>&1); echo "$1 2^28 $(echo "$o" | grep -E 'check|rror' | tr '\n' ' ')"
done
