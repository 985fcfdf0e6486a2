#!/usr/bin/env bash
# The block scans that lost with tile runs (run2): none (B1), loads and
# stores (RS), loads only (RL: TCUC_EXP_NOSTORERUNS=1), stores only (RT:
# TCUC_EXP_NOLOADRUNS=1), the defaults at 65536-2^20, alternating.
set -uo pipefail
A=(--ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 65536 262144 1048576 --only default --no-peers --reps 15)
timeout 500 bench/ab.sh --rounds 2 /tmp/lr/ab4 B1=exp/B1 RS=exp/RS RL=exp/RL RT=exp/RT -- "${A[@]}"
rm -f /tmp/lr/ab4/*/throughput.png
tar czf $OUT/ab4.tgz -C /tmp/lr ab4
