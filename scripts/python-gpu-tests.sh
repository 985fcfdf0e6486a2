#!/usr/bin/env bash
# The Python package's tests on a CUDA GPU (docs/python.md "Testing on a
# GPU"): the torch suite on CUDA tensors (results against float64, offsets,
# gradcheck, opcheck, torch.compile, CUDA graphs, bad inputs) and the CuPy
# suite, then prints the versions and the device it ran on.
#
#   scripts/python-gpu-tests.sh [pytest args]
#       On a GPU machine with the compiler: builds (scripts/build.sh) and
#       runs the suites on CUDA and the CPU backend.
#   TCUC_RUNTIME_ONLY=1 scripts/python-gpu-tests.sh [pytest args]
#       On a GPU machine without LLVM/MLIR: builds the runtime-only module
#       (no compiler, no CPU backend) into $TCUC_BUILD_DIR (default
#       /tmp/tcuc-python-rt) and runs the CUDA suites on the kernels in
#       $TCUC_CACHE_DIR and the kernel library.
#   scripts/python-gpu-tests.sh --precompile DIR [TARGET]
#       On a machine with the compiler: runs the suites on the CPU backend
#       and stores every GPU kernel they use, for TARGET (default sm_90;
#       sm_90:h200 for an H200, sm_80 for Ampere/Ada), in the kernel cache
#       DIR, to carry to such a GPU machine as its TCUC_CACHE_DIR.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
tests="$root/python/tests"

if [ "${1:-}" = "--precompile" ]; then
  dir="$(mkdir -p "$2" && cd "$2" && pwd)"
  build="${TCUC_BUILD_DIR:-$root/build}"
  "$root/scripts/build.sh" >/dev/null
  # No kernel library: every kernel is compiled into DIR.
  TCUC_KERNEL_LIBRARY= TCUC_PRECOMPILE_DIR="$dir" \
    TCUC_PRECOMPILE_TARGET="${3:-sm_90}" TCUC_TEST_DEVICES=cpu \
    PYTHONPATH="$build/python" "$python" -m pytest -q -p no:cacheprovider \
    -W ignore::UserWarning "$tests/test_torch.py" "$tests/test_numpy.py" "$tests/test_decay.py"
  echo "python-gpu-tests: $(ls "$dir" | grep -vc cubin) kernels in $dir"
  exit 0
fi

if [ "${TCUC_RUNTIME_ONLY:-0}" = 1 ]; then
  build="${TCUC_BUILD_DIR:-/tmp/tcuc-python-rt}"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DTCUC_ENABLE_COMPILER=OFF -DTCUC_ENABLE_PYTHON=ON \
    -DPython_EXECUTABLE="$(command -v "$python")" >/dev/null
  cmake --build "$build" --target tcuc-python >/dev/null
else
  build="${TCUC_BUILD_DIR:-$root/build}"
  "$root/scripts/build.sh" >/dev/null
fi

export PYTHONPATH="$build/python"
"$python" - <<'PY'
import torch, tcuc
print(f"python-gpu-tests: tcuc {tcuc.__version__} (compiler: "
      f"{tcuc.has_compiler}), torch {torch.__version__}, "
      f"{torch.cuda.get_device_name(0)}, kernels {tcuc.device_arch()}")
PY
if [ "${TCUC_RUNTIME_ONLY:-0}" = 1 ]; then devices=cuda; else devices=cuda,cpu; fi
TCUC_TEST_DEVICES="${TCUC_TEST_DEVICES:-$devices}" \
  "$python" -m pytest -v -p no:cacheprovider -W ignore::UserWarning \
  "$tests" "$@"
