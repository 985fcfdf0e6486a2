#!/usr/bin/env bash
# README's main-job command: installs what is missing, builds, describes the
# default example, then compiles a segmented scan through the mma form, runs it
# on the CPU backend and checks it against a float64 reference.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCUC_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
"$root/scripts/build.sh"

"$build/bin/tcuc" inspect "$root/examples/segmented_sum.mlir"
echo
"$build/bin/tcuc" run --device cpu --op scan --dtype f16 --segment 1000 \
  --n 1000003 --check
echo
# The same scan for the GPU: PTX for sm_90 behind its launch-plan header
# (needs no GPU; `tcuc run --device gpu` runs it where there is one).
"$build/bin/tcuc" compile --op scan --dtype f16 --segment 1000 --arch sm_90 \
  -o "$build/segmented_scan.sm_90.ptx"
grep -m 8 -E '^// tcuc|^\.target' "$build/segmented_scan.sm_90.ptx"
echo "mma.sync instructions: $(grep -c 'mma.sync' "$build/segmented_scan.sm_90.ptx")"
