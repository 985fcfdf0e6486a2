#!/usr/bin/env bash
# Builds what the benchmark runs on a machine with a CUDA GPU (no LLVM
# needed): the runtime-only tcuc (its C library, tcuc-jit-latency and the
# runtime's `tcuc run`) and the CUB baselines, into $TCUC_BENCH_BUILD_DIR
# (default /tmp/tcuc-bench-build). Used by bench/run.sh and bench/ab.sh.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCUC_BENCH_BUILD_DIR:-/tmp/tcuc-bench-build}"
mkdir -p "$build"
cmake -S "$root" -B "$build/rt" -G Ninja -DTCUC_ENABLE_COMPILER=OFF \
  -DTCUC_ENABLE_TESTS=OFF -DCMAKE_BUILD_TYPE=Release >"$build/cmake.log" 2>&1 &&
  cmake --build "$build/rt" --target tcuc_runtime tcuc-jit-latency tcuc \
    >>"$build/cmake.log" 2>&1 ||
  { cat "$build/cmake.log"; exit 2; }
nvcc -O3 -arch=sm_90 -shared -Xcompiler -fPIC \
  -o "$build/libcub_baselines.so" "$root/bench/baselines/cub_baselines.cu"
