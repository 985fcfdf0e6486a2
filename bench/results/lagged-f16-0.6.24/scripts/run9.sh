#!/usr/bin/env bash
# Did 0.6.25's bitcast pairs cost the block scans at 2^20 (run 5: f16->f16
# -0.2 to -0.7%)? Q0 = 0.6.26 with FragmentOps.cpp and LaneFragments.cpp
# of 60006d4 (the old shifted halves), Q1 = 0.6.26; the defaults at 2^18,
# 2^20, 2^21, 4 alternating rounds.
set -uo pipefail
mkdir -p /tmp/lr
A=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 262144 1048576 2097152 --only default --no-peers --reps 15)
timeout 500 bench/ab.sh --rounds 4 /tmp/lr/ab9 Q0=exp/Q0 Q1=exp/Q1 -- "${A[@]}"
rm -f /tmp/lr/ab9/*/throughput.png
tar czf $OUT/ab9.tgz -C /tmp/lr ab9
