#!/usr/bin/env bash
# Run 8 (H100): `tcuc run --device gpu --check` of the re-tuned defaults at
# odd sizes (scripts/check-specs.txt; kernels in exp/C from
# `build/bin/tcuc compile SPEC --arch sm_90 --cache-dir exp/C`), n = 3000017,
# plain and under compute-sanitizer memcheck.
set -uo pipefail
out="${OUT:-/tmp/out}"
build=/tmp/tcuc-rt
cmake -S . -B $build -G Ninja -DTCUC_ENABLE_COMPILER=OFF -DCMAKE_BUILD_TYPE=Release > /tmp/cfg.log 2>&1 &&
  cmake --build $build > /tmp/b.log 2>&1 || { tail -20 /tmp/cfg.log /tmp/b.log; exit 2; }
export TCUC_CACHE_DIR="$(pwd)/exp/C"
fail=0
while read -r s; do
  r=$($build/bin/tcuc run --device gpu $s --n 3000017 --check 2>&1 | grep -E "check:|error" | head -2)
  m=$(compute-sanitizer --tool memcheck --error-exitcode 9 $build/bin/tcuc run --device gpu $s --n 100003 --check 2>&1 | grep -E "ERROR SUMMARY" | head -1)
  echo "$s -> $r | memcheck $m"
  echo "$r" | grep -q PASS || fail=1
done < bench/results/retune-0.6.31/scripts/check-specs.txt | tee "$out/checks.txt"
