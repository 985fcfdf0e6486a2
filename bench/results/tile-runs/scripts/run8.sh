#!/usr/bin/env bash
# lagged:4:4 against 2:4 with the tile runs (K4), and 4:4 held to 6 blocks
# an SM (K6: TCUC_EXP_MINBLOCKS4=6, .minnctapersm 6, 80 registers and 44
# bytes of spills for f16 input), at 2^22, 2^24 and whole, alternating.
set -uo pipefail
A=(--ops "scan f16->f16" "scan f16->f32" "scan i8->i32" --segments 4194304 16777216 whole --only lagged:2:4 lagged:4:4 --no-peers --reps 15)
timeout 500 bench/ab.sh --rounds 2 /tmp/lr/ab8 K4=exp/K4 K6=exp/K6 -- "${A[@]}"
rm -f /tmp/lr/ab8/*/throughput.png
tar czf $OUT/ab8.tgz -C /tmp/lr ab8
