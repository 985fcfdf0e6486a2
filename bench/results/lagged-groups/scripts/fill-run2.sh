#!/usr/bin/env bash
# Run 2's caches (compiler: groups of 16 + experiments switches, see README).
set -e
f() { d=$1; shift; env "$@" python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/$d \
  --ops "scan f16->f16" "scan f16->f32" --segments 4194304 whole --only default | tail -1; }
f G TCUC_EXP_NONE=1
f R2 TCUC_EXP_EARLY=2
f R2E4 TCUC_EXP_EARLY=2 TCUC_EXP_ENUM=1 TCUC_EXP_EDEN=4
f R2E8 TCUC_EXP_EARLY=2 TCUC_EXP_ENUM=1 TCUC_EXP_EDEN=8
f U TCUC_EXP_EARLY=2 TCUC_EXP_FORCE=1
# --check kernels of R2 and R2E4
for e in "R2:TCUC_EXP_EARLY=2" "R2E4:TCUC_EXP_EARLY=2 TCUC_EXP_ENUM=1 TCUC_EXP_EDEN=4"; do
  d=exp/K${e%%:*}
  for t in "--dtype f16 --out-dtype f16" "--dtype f16" "--dtype bf16 --out-dtype bf16" "--dtype i8"; do
    for kw in "1 4" "2 4" "4 4" "4 8"; do set -- $kw; for ex in "" "--exclusive"; do
      # shellcheck disable=SC2086
      env ${e#*:} build/bin/tcuc compile --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $1 --warps-per-block $2 $ex --arch sm_90 --cache-dir $d -o /dev/null
    done; done
    # shellcheck disable=SC2086
    env ${e#*:} build/bin/tcuc compile --op scan --variant lagged $t --segment 2147483648 --tiles-per-warp 4 --warps-per-block 8 --arch sm_90 --cache-dir $d -o /dev/null
  done
done
