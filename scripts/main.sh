#!/usr/bin/env bash
# README's main-job command: installs what is missing, builds, and runs the
# tcuc driver on its default example.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${TCUC_BUILD_DIR:-$root/build}"

"$root/scripts/setup.sh"
"$root/scripts/build.sh"

"$build/bin/tcuc" inspect "$root/examples/segmented_sum.mlir"
