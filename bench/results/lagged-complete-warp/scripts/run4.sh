#!/usr/bin/env bash
# Lagged: Fenwick completion in the last warp while warp 0 looks back (Enew), capped at 64 registers (Enew64), against 0.6.14 (Ebase).
set -uo pipefail
start=$(date +%s)
B=/tmp/tcuc-bench-build
mkdir -p /tmp/o
TCUC_BENCH_SKIP_JIT=1 bench/run.sh exp/Ebase /tmp/o/Ebase --ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged --no-peers --reps 15 > /tmp/o/Ebase.log 2>&1
echo "Ebase rc=$? $(( $(date +%s) - start ))s"
for v in Enew Enew64 Ebase; do
  o=/tmp/o/$v; [ -d $o ] && o=$o-2
  PYTHONUNBUFFERED=1 python3 bench/bench.py run --cache-dir exp/$v --tcuc-lib $B/rt/runtime/libtcuc_runtime.so \
    --cub-lib $B/libcub_baselines.so --out $o --ops "scan f16->f32" "scan f16->f16" "scan i8->i32" --segments 4194304 whole --only lagged --no-peers --reps 15 > $o.log 2>&1
  echo "$v rc=$? $(( $(date +%s) - start ))s"
done
python3 - <<'PY'
import csv
rows={}
for v in ['Ebase','Enew','Enew64','Ebase-2']:
    for r in csv.DictReader(open(f'/tmp/o/{v}/results.csv')):
        if r['lib'].startswith('tcuc'): rows.setdefault((r['op'],r['segment'],r['lib']),{})[v]=float(r['frac'])
for k,d in sorted(rows.items()):
    print(f"{k[0]:16s} {k[1]:>10s} {k[2]:18s} " + ' '.join(f"{v}={d.get(v,0):.3f}" for v in ['Ebase','Enew','Enew64','Ebase-2']))
PY
tar czf $OUT/run4.tgz -C /tmp o
