#!/usr/bin/env bash
# The benchmark, on a machine with a CUDA GPU (CUB, PyTorch and Triton there;
# no LLVM needed). Builds the runtime-only tcuc (its C library), the CUB
# baselines with nvcc, then runs bench.py over kernels from a cache that
# `bench.py fill` made on the compiler machine:
#
#   python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir DIR  (here)
#   bench/run.sh DIR [OUTDIR] [bench.py run options...]          (GPU machine)
#
# OUTDIR defaults to bench/results; also copied to $OUT when that is set.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cache="$(cd "$1" && pwd)"
out="${2:-$root/bench/results}"
shift $(( $# >= 2 ? 2 : 1 ))
build="${TCUC_BENCH_BUILD_DIR:-/tmp/tcuc-bench-build}"
mkdir -p "$out"

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem \
  --format=csv,noheader || true
"$root/bench/gpu_build.sh"
nvcc --version | tail -1 >"$out/versions.txt"

# JIT latency: module load from the cache and memory-cache hits (the
# compile half is measured on the compiler machine, see docs/performance.md).
# A cache filled for part of the sweep (bench.py fill --ops/--segments/--only)
# may lack the kernels it loads: TCUC_BENCH_SKIP_JIT=1 skips it on purpose;
# otherwise a failure stops the run.
if [ "${TCUC_BENCH_SKIP_JIT:-0}" = 1 ]; then
  echo "jit latency not measured (TCUC_BENCH_SKIP_JIT=1)"
else
  "$build/rt/bin/tcuc-jit-latency" "$cache" | tee "$out/jit_latency_gpu.txt"
fi

PYTHONUNBUFFERED=1 python3 "$root/bench/bench.py" run --cache-dir "$cache" \
  --tcuc-lib "$build/rt/runtime/libtcuc_runtime.so" \
  --cub-lib "$build/libcub_baselines.so" --out "$out" "$@"
if [ -n "${OUT:-}" ] && [ "$out" != "$OUT" ]; then cp "$out"/* "$OUT"/; fi
