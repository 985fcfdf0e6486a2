#!/usr/bin/env bash
# With L2 the busy unit, is the lagged f16->f16 kernel's 1 MB L2 prefetch
# still worth it? tcuc 0.6.27 (P27a, = defaults-0.6.27's kernels) against
# no prefetch (P27b: TCUC_EXP_PF=0), no prefetch with a 6 MB lag (P27c:
# TCUC_EXP_LAG=6) and a 512 KB prefetch (P27d: TCUC_EXP_PF=512), compile-time
# switches; f16->f16 defaults at 2^22, 2^24, whole, 3 alternating rounds.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/P27a B=exp/P27b C=exp/P27c D=exp/P27d -- \
  --ops "scan f16->f16" --segments 4194304 16777216 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
