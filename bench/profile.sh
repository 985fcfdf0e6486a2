#!/usr/bin/env bash
# Nsight Compute profile of one tcuc kernel next to its Triton peer, on the
# GPU machine (docs/performance.md, "Profiles"). tcuc's kernel comes from a
# cache filled on the compiler machine (bench.py fill or `tcuc compile`):
#
#   bench/profile.sh CACHE OUTDIR --op scan --segment 256 --dtype f16 [--out-dtype f16] [--variant V]
#
# Writes OUTDIR/tcuc.txt and OUTDIR/triton.txt (speed of light, occupancy,
# launch statistics, scheduler and warp stall statistics, memory workload)
# for n = 2^28 random elements, clocks left alone (--clock-control none),
# and prints the headline rows of both.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$(cd "$1" && pwd)"
out="$2"
shift 2
build="${TCUC_GPU_BUILD_DIR:-/tmp/tcuc-rt}"
mkdir -p "$out"
cmake -S "$root" -B "$build" -G Ninja -DTCUC_ENABLE_COMPILER=OFF \
  -DTCUC_ENABLE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$out/build.log" 2>&1 &&
  cmake --build "$build" --target tcuc >>"$out/build.log" 2>&1 ||
  { cat "$out/build.log"; exit 2; }
n=$((1 << 28))
sections=(--section SpeedOfLight --section Occupancy --section LaunchStats
          --section SchedulerStats --section WarpStateStats
          --section MemoryWorkloadAnalysis)

TCUC_CACHE_DIR="$cache" ncu --clock-control none "${sections[@]}" \
  "$build/bin/tcuc" run --device gpu --n "$n" "$@" >"$out/tcuc.txt" 2>&1 ||
  { cat "$out/tcuc.txt"; exit 1; }
# Triton's kernels are named _segment_*; the second launch is the warm one.
ncu --clock-control none "${sections[@]}" -k regex:_segment_ \
  python3 "$root/bench/profile_peer.py" "$n" "$@" >"$out/triton.txt" 2>&1 ||
  { tail -20 "$out/triton.txt"; exit 1; }
for f in tcuc triton; do
  echo "== $f"
  grep -E "^  [a-z_0-9]+.*\(|Duration|DRAM Throughput|Registers Per Thread|Achieved Occupancy|Theoretical Occupancy|Block Size|Grid Size|Issued Warp Per Scheduler|No Eligible|Warp Cycles Per Issued|Active Warps Per Scheduler|Eligible Warps" "$out/$f.txt" || true
done
