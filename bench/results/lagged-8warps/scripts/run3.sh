#!/usr/bin/env bash
# Around F (lagged:4:8, TCUC_EXP_ORDER=1 TCUC_EXP_MINB=3 TCUC_EXP_LAGMB=10
# TCUC_EXP_PFKB=0): the Fenwick completion lag E (D/2 in F) at 3D/4 (L),
# 7D/8 (M), D/4 (N) (TCUC_EXP_E), and the lag at 9 MB (O) and 11 MB (P)
# (TCUC_EXP_LAGKB). f16->f16 at 2^22 and whole, 3 alternating rounds.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab F=exp/F L=exp/L M=exp/M N=exp/N O=exp/O P=exp/P -- \
  --ops "scan f16->f16" --segments 4194304 whole --only lagged:4:8 \
  --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
