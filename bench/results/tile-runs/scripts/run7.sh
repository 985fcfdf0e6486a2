#!/usr/bin/env bash
# With the tile runs, the lagged shapes again (k tiles a warp : W warps),
# the whole array, 2 rounds each of the same cache.
set -uo pipefail
A=(--ops "scan f16->f16" "scan f16->f32" "scan i8->i32" --segments whole --only lagged:2:4 lagged:3:4 lagged:4:4 lagged:2:8 lagged:3:2 lagged:4:2 lagged:2:2 --no-peers --reps 15)
timeout 500 bench/ab.sh --rounds 2 /tmp/lr/ab7 SW=exp/SW -- "${A[@]}"
rm -f /tmp/lr/ab7/*/throughput.png
tar czf $OUT/ab7.tgz -C /tmp/lr ab7
