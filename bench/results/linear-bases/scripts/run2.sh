#!/usr/bin/env bash
# Run 2 (H100): the reduce defaults at odd segment sizes (seg256n:4 at
# 2049-16383), whose masked path LLVM addresses differently once
# reduceTiles writes plain `base + t * 256` (B, the variant tried) instead of 0.6.31's
# `first + i * 256` (A: TCUC_EXP_SHAPED=1 at compile time, the 0.6.31
# code behind a switch for this run only, since removed; its PTX equals
# 0.6.31's). The
# runs form in both. `tcuc run --device gpu --n 2^28` (a warm-up launch,
# then one timed), A and B alternating, 6 rounds, then --check for both.
# B is main with plain-bases.patch applied (A without it; this run used an
# environment switch between the two in one build).
# Caches (build machine): for seg in 2049 4097 8193 16383; do
#   [TCUC_EXP_SHAPED=1] build/bin/tcuc compile --op reduce --segment $seg
#   --dtype f16 --arch sm_90 --cache-dir exp/OA|exp/OB -o /dev/null; done
set -u
out="${OUT:-/tmp/out}"
build=/tmp/tcuc-rt
cmake -S . -B $build -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DTCUC_ENABLE_TESTS=OFF \
  -DCMAKE_BUILD_TYPE=Release > /dev/null && cmake --build $build --target tcuc > /dev/null || exit 2
n=$((1 << 28))
for r in 1 2 3 4 5 6; do
  for seg in 2049 4097 8193 16383; do
    for side in A B; do
      ms=$(TCUC_CACHE_DIR=exp/O$side $build/bin/tcuc run --device gpu --n $n --op reduce \
        --segment $seg --dtype f16 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["ms"])')
      echo "$side $r $seg $ms"
    done
  done
done | tee "$out/times.txt"
for seg in 2049 4097 8193 16383; do for side in A B; do
  echo "$side $seg $(TCUC_CACHE_DIR=exp/O$side $build/bin/tcuc run --device gpu --n 3000017 --op reduce \
    --segment $seg --dtype f16 --check | grep check:)"
done; done | tee "$out/check.txt"
