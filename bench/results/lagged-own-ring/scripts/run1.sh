#!/usr/bin/env bash
# The hand-written lagged prototype, f16->f16, its best shape (4 rounds of
# 16-byte lines, 256 threads, 3 blocks an SM, recompute): re-reading chunk
# t - lag from L2 (10 MB lag) against scanning the block's own chunk of 1 or
# 2 iterations ago from a shared-memory ring (laggedScan's Own), each with
# the tree of totals and with the oracle (prefixes from a table: no waits).
# n = 2^28, whole array, then segments of 2^24.
set -uo pipefail
nvcc -O3 -std=c++17 -arch=sm_90 -o /tmp/lagged bench/prototypes/lagged_scan.cu
/tmp/lagged 28 f16f16 own 2>&1 | tee $OUT/run1.txt
/tmp/lagged 28 f16f16 own 24 2>&1 | tee -a $OUT/run1.txt
