#!/usr/bin/env bash
# Run 3 (H100): 0.6.31's GPU correctness grid (exp/G31) and the reduce
# walks' reliability specs (exp/R31: sanitizers, determinism, NaN/Inf).
set -uo pipefail
out="${OUT:-/tmp/out}"
timeout 300 test/gpu/run_on_gpu.sh exp/G31 grid 2>&1 | tail -8 | tee "$out/grid.txt"
TCUC_RELIABILITY_SPECS=bench/results/reduce-runs/scripts/reliability-specs.txt \
  timeout 270 test/gpu/run_on_gpu.sh exp/R31 reliability > "$out/reliability.log" 2>&1
echo "reliability rc=$?"; tail -12 "$out/reliability.log"
