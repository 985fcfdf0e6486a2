#!/usr/bin/env bash
# A sanitizer build of tcuc and its tests (docs/reliability.md):
#
#   scripts/sanitize.sh [asan|tsan] [lit paths...]
#
# asan (default): AddressSanitizer + UndefinedBehaviorSanitizer (errors are
# fatal), clang-22, in build-asan/; also builds the libFuzzer target
# (scripts/fuzz.sh runs it). Runs the given lit paths, else the whole suite.
# tsan: ThreadSanitizer over the runtime's unit tests (kernel cache,
# concurrent compiles and loads), in build-tsan/.
# asan-runtime: ASan + UBSan over the runtime's unit tests only, in
# build-asan-runtime/ (minutes, not the compiler's hour: what CI runs).
#
# CI (.ci/run) runs asan-runtime and tsan before the test suite; the whole
# suite under asan is run by hand (docs/reliability.md).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
kind="${1:-asan}"
shift $(( $# > 0 ? 1 : 0 ))
"$root/scripts/setup.sh"
need=()
command -v clang++-22 >/dev/null || need+=(clang-22)
[ -e /usr/lib/llvm-22/lib/clang/22/lib/linux/libclang_rt.fuzzer-x86_64.a ] ||
  need+=(libclang-rt-22-dev)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi
  $SUDO apt-get install -y --no-install-recommends "${need[@]}"
fi

case "$kind" in
  asan) build="${TCUC_ASAN_BUILD_DIR:-$root/build-asan}"
        flags=(-DLLVM_USE_SANITIZER="Address;Undefined"
               -DLLVM_USE_SANITIZE_COVERAGE=ON -DTCUC_ENABLE_FUZZER=ON) ;;
  tsan) build="${TCUC_TSAN_BUILD_DIR:-$root/build-tsan}"
        flags=(-DLLVM_USE_SANITIZER=Thread) ;;
  asan-runtime) build="${TCUC_ASAN_RUNTIME_BUILD_DIR:-$root/build-asan-runtime}"
        flags=(-DLLVM_USE_SANITIZER="Address;Undefined") ;;
  *) echo "usage: $0 [asan|tsan|asan-runtime] [lit paths...]" >&2; exit 2 ;;
esac
if [ ! -f "$build/build.ninja" ]; then
  CC=clang-22 CXX=clang++-22 cmake -S "$root" -B "$build" -G Ninja \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DLLVM_ENABLE_ASSERTIONS=ON \
    -DMLIR_DIR=/usr/lib/llvm-22/lib/cmake/mlir \
    -DLLVM_EXTERNAL_LIT=/usr/lib/llvm-22/bin/lit "${flags[@]}" \
    -DTCUC_ENABLE_PYTHON=OFF # an instrumented module needs the sanitizer
                             # runtime preloaded into Python: not tested
fi

# Leaks are reported (detect_leaks=1); UBSan stops at the first error.
# allow_user_poisoning=0: LLVM's headers poison allocator memory by hand in
# our instrumented code, while Debian's uninstrumented MLIR libraries (which
# free and reuse that memory) do not unpoison it: every MLIRContext then
# reports a use-after-poison inside mlir::Dialect::addType. Real heap and
# stack errors are still reported.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allow_user_poisoning=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"
export TSAN_OPTIONS="halt_on_error=1:second_deadlock_stack=1:${TSAN_OPTIONS:-}"
if [ "$kind" = tsan ] || [ "$kind" = asan-runtime ]; then
  cmake --build "$build" --target RuntimeTests CAPITests -- -j"${TCUC_JOBS:-$(nproc)}"
  "$build/unittests/Runtime/RuntimeTests"
  "$build/unittests/Runtime/CAPITests"
  exit
fi
cmake --build "$build" -- -j"${TCUC_JOBS:-$(nproc)}"
if [ $# -eq 0 ]; then set -- "$build/test" "$build/test/Unit"; fi
/usr/lib/llvm-22/bin/lit -sv "$@"
