#!/usr/bin/env bash
# Run 1 (H100): TileRuns' constantDifference reads `x * k` by a constant
# (linear index terms), so reduceTiles no longer writes its tile bases as
# `first + i * 256` for the lowering's sake. Every default kernel and every
# reduce walk that forms a run is byte-identical; the kernels whose PTX
# changed (the scan grid's chunk pass at 4 and 8 tiles, the seg256n reduce
# at 4 and 8 tiles from 2^21, whose loads form no run either way) are timed
# here, A = 0.6.31 (shaped bases) against B (0.6.30's form again), and the
# GPU grid runs with the new compiler's kernels.
# Caches (build machine): exp/SA, exp/SB = the changed kernels at 4096, 2^21
# and whole, copied from bench.py fills of both compilers (--only default
# seg256n:8 grid:8 seg256n:4 grid:4); exp/Gnew = gpu_grid.py fill.
set -u
out="${OUT:-/tmp/out}"
A=(A=exp/SA B=exp/SB)
timeout 150 bench/ab.sh --rounds 3 "$out/reduce" "${A[@]}" -- --ops "reduce f16->f32" \
  --segments 2097152 whole --only seg256n:4 seg256n:8 --no-peers --reps 15 2>&1 | tee "$out/reduce.txt"
timeout 200 bench/ab.sh --rounds 3 "$out/scans" "${A[@]}" -- --ops "scan f16->f32" "scan f16->f16" \
  --segments 4096 2097152 whole --only grid:4 --no-peers --reps 15 2>&1 | tee "$out/scans.txt"
timeout 300 test/gpu/run_on_gpu.sh exp/Gnew grid 2>&1 | tail -5 | tee "$out/grid.txt"
rm -f "$out"/*/*/throughput.png
