#!/usr/bin/env bash
# Quick: does the arith-only control-flow sink's lagged kernel finish and check? Timing vs 0.6.16 by tcuc run.
set -uo pipefail
B=/tmp/tcuc-rt
cmake -S . -B $B -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DTCUC_ENABLE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/cm.log 2>&1 && cmake --build $B --target tcuc > /tmp/b.log 2>&1 || { tail -5 /tmp/b.log; exit 2; }
echo "built $SECONDS s"
run() { TCUC_CACHE_DIR=$PWD/exp/$1 timeout 20 $B/bin/tcuc run --device gpu --op scan $2 --segment 268435456 --n 268435456 --variant lagged --tiles-per-warp 2 --warps-per-block 4 --json $3 2>&1 | grep -o '"mismatches": [0-9]*\|"ms": [0-9.]*\|"checked": [a-z]*\|error.*' | tr '\n' ' '; }
for spec in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16" "--dtype i8"; do
  echo "CFS2 $spec check: $(run CFS2 "$spec" --check)  [$SECONDS s]"
  for v in B16 CFS2 B16 CFS2; do echo "$v $spec: $(run $v "$spec")"; done
done
echo "done $SECONDS s"
