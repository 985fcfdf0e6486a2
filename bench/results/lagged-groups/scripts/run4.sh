#!/usr/bin/env bash
# f16->f16 and f16->f32 at 2^22 and whole, 3 alternating rounds: 0.6.29 (A)
# against the early read with 4 aggregates a lane in a completion (r4), 8
# (r8, 40-48 bytes of spills), r4 with an 8 / 10 MB lag (both
# ops; f16->f32 otherwise lags 6 MB), E = 5D/8, and r4's bound (Ur4: words taken as published).
set -uo pipefail
bench/ab.sh --rounds 3 /tmp/ab A=exp/A r4=exp/r4 r8=exp/r8 L8r4=exp/L8r4 L10r4=exp/L10r4 E58r4=exp/E58r4 Ur4=exp/Ur4 -- \
  --ops "scan f16->f16" "scan f16->f32" --segments 4194304 whole --only default --no-peers --reps 15 2>&1 | tee $OUT/ab.txt
