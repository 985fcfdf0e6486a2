#!/usr/bin/env bash
# Run 3's caches: groups of 16, the early read after the reduced sum
# (TCUC_EXP_EARLY=2), the completion's reads in one round trip; switches:
# TCUC_EXP_ROUNDS (aggregates a lane in a completion), TCUC_EXP_LAGMB (lag),
# TCUC_EXP_ENUM/EDEN (E = D * num / den).
set -e
f() { d=$1; shift; env TCUC_EXP_EARLY=2 "$@" python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/$d \
  --ops "scan f16->f16" --segments 4194304 whole --only default | tail -1; }
f R2
f R2r4 TCUC_EXP_ROUNDS=4
f L12 TCUC_EXP_LAGMB=12
f L12r4 TCUC_EXP_LAGMB=12 TCUC_EXP_ROUNDS=4
f E38 TCUC_EXP_ENUM=3 TCUC_EXP_EDEN=8
f E38r4 TCUC_EXP_ENUM=3 TCUC_EXP_EDEN=8 TCUC_EXP_ROUNDS=4
f L15 TCUC_EXP_LAGMB=15
d=exp/KR2r4
for t in "--dtype f16 --out-dtype f16" "--dtype f16" "--dtype i8"; do
  for kw in "1 4" "4 4" "4 8"; do set -- $kw
    # shellcheck disable=SC2086
    TCUC_EXP_EARLY=2 TCUC_EXP_ROUNDS=4 build/bin/tcuc compile --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $1 --warps-per-block $2 --arch sm_90 --cache-dir $d -o /dev/null
  done
  # shellcheck disable=SC2086
  TCUC_EXP_EARLY=2 TCUC_EXP_ROUNDS=4 build/bin/tcuc compile --op scan --variant lagged $t --segment 2147483648 --tiles-per-warp 4 --warps-per-block 8 --arch sm_90 --cache-dir $d -o /dev/null
done
