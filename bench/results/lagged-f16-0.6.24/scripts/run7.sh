#!/usr/bin/env bash
# f16->f16 lagged:4:4 (tcuc 0.6.25) with an L2 prefetch (tile-runs run 11's
# lag-prefetch-experiment.patch switches when filling): P0 as shipped (lag
# 8 MB, no prefetch), P1 prefetch 1 MB ahead + lag 8 MB (TCUC_EXP_PF16=1
# TCUC_EXP_LAG16=8), P2 prefetch 1 MB + lag 10 MB; 3 alternating rounds.
set -uo pipefail
mkdir -p /tmp/lr
A=(--ops "scan f16->f16" --segments 4194304 16777216 whole --only default --no-peers --reps 15)
timeout 500 bench/ab.sh --rounds 3 /tmp/lr/ab7 P0=exp/P0 P1=exp/P1 P2=exp/P2 -- "${A[@]}"
rm -f /tmp/lr/ab7/*/throughput.png
tar czf $OUT/ab7.tgz -C /tmp/lr ab7
