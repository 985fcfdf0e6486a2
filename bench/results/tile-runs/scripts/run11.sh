#!/usr/bin/env bash
# lagged:4:4 (0.6.24's f16 default) with other lags and L2 prefetch
# distances, whole array, alternating (experiment switches TCUC_EXP_LAG16/32
# and TCUC_EXP_PF16/32 in MB when filling; LA = as shipped: f16->f16 lag
# 8 MB no prefetch, f16->f32 lag 6 MB prefetch 2 MB).
#   LB: lag 10 / 8   LC: lag 6 / 4   LD: f16->f16 prefetch 2 lag 6, f16->f32 no prefetch lag 8
#   LE: lag 12 / 10  LF: f16->f16 prefetch 1 lag 8, f16->f32 prefetch 4 lag 6
set -uo pipefail
A=(--ops "scan f16->f16" "scan f16->f32" --segments whole --only default --no-peers --reps 15)
timeout 500 bench/ab.sh --rounds 2 /tmp/lr/ab11 LA=exp/LA LB=exp/LB LC=exp/LC LD=exp/LD LE=exp/LE LF=exp/LF -- "${A[@]}"
rm -f /tmp/lr/ab11/*/throughput.png
tar czf $OUT/ab11.tgz -C /tmp/lr ab11
