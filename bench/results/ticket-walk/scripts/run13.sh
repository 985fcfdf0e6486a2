#!/usr/bin/env bash
# One-warp blocks of the other block variants (lookback, block): do they hang too? 6 s timeouts.
B=/tmp/tcuc-rt/bin/tcuc; [ -x $B ] || { cmake -S . -B /tmp/tcuc-rt -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/tcuc-rt >/dev/null; }
export TCUC_CACHE_DIR=$PWD/exp/LB
for v in lookback block; do for t in "--dtype f16 --out-dtype f32" "--dtype f16 --out-dtype f16"; do for n in 1000 20000 100003 1000003; do out=$(timeout 6 $B run --device gpu --op scan --variant $v $t --segment 1000003 --tiles-per-warp 2 --warps-per-block 1 --n $n --check 2>&1); rc=$?; echo "$v $t n=$n rc=$rc $(echo "$out" | grep -o 'check: [A-Z]*')"; done; done; done
