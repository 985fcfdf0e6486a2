#!/usr/bin/env bash
# Nsight Compute profiles (H100) of the default f16->f32 scans at 64 and 256
# next to Triton's tl.cumsum peer, where Triton is ~1% ahead.
# Cache (build machine): for seg in 64 256; do build/bin/tcuc compile --op scan
#   --segment $seg --dtype f16 --arch sm_90 --cache-dir exp/P -o /dev/null; done
set -u
out="${OUT:-/tmp/out}"
for seg in 256 64; do
  echo "=== segment $seg"
  timeout 240 bench/profile.sh exp/P "$out/scan-$seg" --op scan --segment $seg --dtype f16
done
