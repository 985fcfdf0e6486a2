#!/usr/bin/env bash
# Run 1 again with the 10 MB lag's oracle beside it (the bound of re-reading
# from L2), three times for the spread; n = 2^28, whole array.
set -uo pipefail
nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/lagged bench/prototypes/lagged_scan.cu
for i in 1 2 3; do /tmp/lagged 28 f16f16 own 2>&1 | tee -a $OUT/run2.txt; done
