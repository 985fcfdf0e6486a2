#!/usr/bin/env bash
# Configures (once) and builds tcuc in ${TCUC_BUILD_DIR:-build}. Idempotent:
# a second run only rebuilds what changed.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCUC_BUILD_DIR:-$root/build}"

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE="${TCUC_BUILD_TYPE:-Release}" \
    -DLLVM_ENABLE_ASSERTIONS=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit \
    ${TCUC_CMAKE_ARGS:-}
fi
# Two cores and big MLIR links: cap parallel links to keep memory in check.
cmake --build "$build" -- -j"${TCUC_JOBS:-$(nproc)}"
