#!/usr/bin/env bash
# Run 4's bound U (one barrier, the look-back's words taken as ready, wrong
# results) against W = U without the last warp's Fenwick completion
# (TCUC_EXP_NOCOMPLETE=1 on top of experiments.patch: no look-back wait, no
# completion round trip, one barrier; wrong results, a timing bound only).
# f16->f16 at 2^22 and whole, 3 alternating rounds (tcuc 0.6.29's sources).
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A U=exp/U W=exp/W -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab-ff.txt
