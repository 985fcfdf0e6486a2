#!/usr/bin/env bash
# Caches of runs 2 and 3 (build machine; /tmp/tcuc-0.6.30 is tcuc 0.6.30's
# binary, build/bin/tcuc 0.6.31).
S="512 1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576 2097152 4194304 8388608 16777216 whole"
TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/D31 --ops "reduce f16->f32" --segments $S --only default
B="1024 8192 16384 65536 1048576 whole"
TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc /tmp/tcuc-0.6.30 --cache-dir exp/BA --ops "reduce bf16->f32" --segments $B --only default
TCUC_BENCH_SKIP_JIT=1 python3 bench/bench.py fill --tcuc build/bin/tcuc --cache-dir exp/BB --ops "reduce bf16->f32" --segments $B --only default
python3 test/gpu/gpu_grid.py fill --tcuc build/bin/tcuc --cache-dir exp/G31
while read -r s; do build/bin/tcuc compile $s --arch sm_90 --cache-dir exp/R31 -o /dev/null; done \
  < bench/results/reduce-runs/scripts/reliability-specs.txt
