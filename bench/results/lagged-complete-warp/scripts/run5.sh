#!/usr/bin/env bash
# Completion in the last warp + .minnctapersm (32 warps an SM at <= 2 tiles):
# lagged/grid/default sweep of the three scans from 2^22, f16->f16 with the
# prefetch, GPU grid + runtime unit tests, lagged reliability specs.
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
tar xzf exp/caches.tgz -C exp
for op in "scan f16->f32" "scan f16->f16" "scan i8->i32"; do
  d=$(echo "$op" | sed 's/scan //;s/->/-/')
  TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/S /tmp/o/S/$d --ops "$op" --segments 4194304 8388608 16777216 whole --only lagged grid default --no-peers > /tmp/o/S-$d.log 2>&1
  echo "S $d rc=$? $(( $(date +%s) - start ))s"
done
PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/SPF --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
  --cub-lib $B/libcub_baselines.so --out /tmp/o/SPF --ops "scan f16->f16" --segments 4194304 whole --only lagged --no-peers > /tmp/o/SPF.log 2>&1
echo "SPF rc=$? $(( $(date +%s) - start ))s"
python3 - <<'PY'
import csv, glob
for f in sorted(glob.glob('/tmp/o/S/*/results.csv')) + ['/tmp/o/SPF/results.csv']:
    for r in csv.DictReader(open(f)):
        if r['lib'].startswith('tcuc'): print(f.split('/')[-2], r['op'], r['segment'], r['lib'], r['frac'], r['err'])
PY
test/gpu/run_on_gpu.sh exp/G grid > /tmp/o/grid.log 2>&1
echo "grid rc=$? $(( $(date +%s) - start ))s"; tail -4 /tmp/o/grid.log
TCUC_RELIABILITY_SPECS=exp/lagged-specs.txt test/gpu/run_on_gpu.sh exp/R reliability > /tmp/o/reliability.log 2>&1
echo "reliability rc=$? $(( $(date +%s) - start ))s"; tail -8 /tmp/o/reliability.log
tar czf $OUT/run5.tgz -C /tmp o
