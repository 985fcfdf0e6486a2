#!/usr/bin/env bash
# Rebuilds bench/results/{results.csv,results.md,throughput.png,meta.json}
# from the committed runs, in the order they were taken: a later run's row
# replaces an earlier one of the same cell and library (bench.py report).
# docs/performance.md's head says what each part is.
set -euo pipefail
cd "$(dirname "$0")/../.."
R=bench/results
exec "${PYTHON:-python3}" bench/bench.py report \
  $R/run13-reduce \
  $R/run14-scans/f16-f32 \
  $R/run14-scans/f16-f16 \
  $R/run14-scans/i8-i32 \
  $R/run15-large-scans/f16-f32 \
  $R/run15-large-scans/f16-f16 \
  $R/run15-large-scans/i8-i32 \
  $R/defaults-0.6.8/f16-f32 \
  $R/defaults-0.6.8/f16-f16 \
  $R/defaults-0.6.8/i8-i32 \
  $R/run16-lagged-window/f16-f32 \
  $R/run16-lagged-window/f16-f16 \
  $R/run16-lagged-window/i8-i32 \
  $R/defaults-0.6.9/f16-f32 \
  $R/defaults-0.6.11/f16-f32 \
  $R/lagged-prefetch/run18/f16-f32 \
  $R/lagged-prefetch/run18/i8-i32 \
  $R/defaults-0.6.12/f16-f32 \
  $R/run19-i8/i8-i32 \
  $R/defaults-0.6.14/i8-i32 \
  $R/run20-lagged-complete/f16-f32 \
  $R/run20-lagged-complete/f16-f16 \
  $R/run20-lagged-complete/i8-i32 \
  $R/defaults-0.6.15/f16-f32 \
  $R/defaults-0.6.15/f16-f16 \
  $R/run21-fewer-instructions/f16-f32 \
  $R/run21-fewer-instructions/f16-f16 \
  $R/run21-fewer-instructions/i8-i32 \
  $R/run21-fewer-instructions/f16-f16-small \
  $R/run21-fewer-instructions/f16-f32-2e20 \
  $R/defaults-0.6.16/f16-f32 \
  $R/defaults-0.6.16/f16-f16 \
  $R/defaults-0.6.16/i8-i32 \
  $R/defaults-0.6.17/f16-f32 \
  $R/defaults-0.6.18/f16-f16 \
  $R/defaults-0.6.20/scans \
  $R/defaults-0.6.21/f16-f32 \
  $R/defaults-0.6.22/scans \
  $R/defaults-0.6.23/scans \
  $R/tile-runs/sweep \
  $R/defaults-0.6.23/scans-4tiles \
  $R/defaults-0.6.25/scans \
  $R/defaults-0.6.26/scans \
  $R/defaults-0.6.27/scans \
  $R/lagged-8warps/sweep \
  $R/defaults-0.6.28/f16-f32 \
  $R/defaults-0.6.28/f16-f16 \
  $R/defaults-0.6.30/f16-f32 \
  $R/defaults-0.6.30/f16-f16 \
  $R/defaults-0.6.31/reduce \
  $R/retune-0.6.31/reduce \
  $R/retune-0.6.31/f16-f16 \
  $R/retune-0.6.31/scans \
  $R/retune-0.6.31/defaults/reduce \
  $R/retune-0.6.31/defaults/scans \
  $R/retune-0.6.31/defaults-ties/reduce \
  $R/retune-0.6.31/defaults-ties/scans \
  --out "${1:-$R}"
