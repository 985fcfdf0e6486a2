#!/usr/bin/env bash
# Installs the Debian packages tcuc needs to build and test, if any are missing.
# Idempotent: does nothing (and needs no network) when all are installed.
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  python3-dev pybind11-dev python3-numpy python3-pytest # python/
  llvm-22-dev libmlir-22-dev mlir-22-tools # LLVM/MLIR 22, lit and FileCheck
  libgtest-dev                              # C++ unit tests
  ccache lld                                # faster rebuilds and links
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The Python package's tests run with the python3 on PATH (a virtual
# environment's or pyenv's may come first): it needs pytest and NumPy.
python_test_deps() {
  command -v python3 >/dev/null || return 0
  python3 -c "import pytest, numpy" 2>/dev/null && return 0
  if [ "$(python3 -c 'import sys; print(sys.prefix)')" != /usr ]; then
    echo "tcuc setup: installing pytest and numpy for $(command -v python3)"
    python3 -m pip install -q pytest numpy
  fi
}

if [ ${#missing[@]} -eq 0 ]; then
  python_test_deps
  exit 0
fi

echo "tcuc setup: installing missing packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || {
    echo "tcuc setup: not root and no sudo; install these first: ${missing[*]}" >&2
    exit 1
  }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
python_test_deps
