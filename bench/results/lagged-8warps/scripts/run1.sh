#!/usr/bin/env bash
# Bigger chunks for the lagged f16->f16 scan (the prototype's best f16->f16
# shape: 8192-element chunks, 256 threads, 3 blocks an SM, 10 MB lag).
# Caches filled on the compiler machine with tcuc 0.6.27 plus the switches
# of experiments.patch:
#   A = default (lagged:4:4, 96 registers, 5 blocks an SM; byte-identical
#       to 0.6.27's), B = lagged:4:8 TCUC_EXP_ORDER=1 TCUC_EXP_MINB=3
#       (80 registers, 3 blocks), C = B with TCUC_EXP_LAGMB=10, D = B with
#       LAGMB=12, E = lagged:4:8 with LAGMB=10 alone (110 registers, 2
#       blocks), F = C without the prefetch (TCUC_EXP_PFKB=0).
# f16->f16 at 2^22 and whole, 3 alternating rounds.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A B=exp/B C=exp/C D=exp/D E=exp/E F=exp/F -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default lagged:4:8 \
  --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
