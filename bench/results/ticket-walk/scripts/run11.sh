#!/usr/bin/env bash
# Hang hunt: lagged at 2, 4, 8 warps and 1, 2 tiles, three types, segment 1000003, n from 1000 to 1000003, each run under a 10 s timeout.
B=/tmp/tcuc-rt/bin/tcuc; [ -x $B ] || { cmake -S . -B /tmp/tcuc-rt -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release >/dev/null && cmake --build /tmp/tcuc-rt >/dev/null; }
export TCUC_CACHE_DIR=$PWD/exp/H
ok=0; bad=0
for t in "--dtype f16 --out-dtype f16" "--dtype f16 --out-dtype f32" "--dtype i8"; do for w in 2 4 8; do for k in 1 2; do for n in 1000 5000 20000 100003 300007 1000003; do
  out=$(timeout 10 $B run --device gpu --op scan --variant lagged $t --segment 1000003 --tiles-per-warp $k --warps-per-block $w --n $n --check 2>&1); rc=$?
  if [ $rc -eq 0 ] && echo "$out" | grep -q "check: PASS"; then ok=$((ok+1)); else bad=$((bad+1)); echo "BAD rc=$rc $t W=$w k=$k n=$n: $(echo "$out" | tail -1)"; fi
done; done; done; done
echo "ok $ok bad $bad"
