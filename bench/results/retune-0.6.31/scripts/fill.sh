#!/usr/bin/env bash
# Caches of run 5 (build machine, tcuc 0.6.31 with bench.py's 8-tile reduce walks).
TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/W5 \
  --ops "reduce f16->f32" --segments 2048 4096 8192 16384 32768 65536 131072 262144 524288
TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/W6 \
  --ops "scan f16->f16" --segments 512 1024 2048 4096
TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/W6 \
  --ops "scan f16->f32" "scan i8->i32" --segments 256 512 1024 2048
