#!/usr/bin/env bash
# Around run 1's best (F: lagged:4:8, TCUC_EXP_ORDER=1 TCUC_EXP_MINB=3
# TCUC_EXP_LAGMB=10 TCUC_EXP_PFKB=0): G = F with an 8 MB lag; H = F held to
# 4 blocks an SM (MINB=4: 64 registers, 44 bytes of spills); I = lagged:2:16
# (64 registers, 2 blocks of 16 warps) with LAGMB=10 PFKB=0; J = I with a
# 1 MB prefetch; K = F with a 512 KB prefetch. f16->f16 at 2^22 and whole,
# 3 alternating rounds.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab F=exp/F G=exp/G H=exp/H I=exp/I J=exp/J K=exp/K -- \
  --ops "scan f16->f16" --segments 4194304 whole --only lagged:4:8 lagged:2:16 \
  --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
