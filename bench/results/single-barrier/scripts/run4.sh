#!/usr/bin/env bash
# Bounds of run 3's R (early look-back words after the reduced sum, E =
# 5D/12): U R with the words taken as ready every ticket (one barrier
# always; its results are wrong: a timing bound only), V R with every
# ticket looking back after the exchange (the words read for nothing).
# f16->f16 at 2^22 and whole, 3 alternating rounds.
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A R=exp/R U=exp/U V=exp/V -- \
  --ops "scan f16->f16" --segments 4194304 whole --only default \
  --no-peers --reps 15 2>&1 | tee $OUT/ab-ff.txt
